// topocoll: topology-aware collective communication over MPI. C++ API.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "topocoll/topocoll.h"

namespace topocoll {

// How to run one collective call. The same options serve every operation; the knobs of one
// algorithm live in its own part (options.lg, options.overlap, options.group_shuffle) and are
// read only by that algorithm.
struct CollectiveOptions {
  // An algorithm name (see topocoll-plan --list [--op OP]), "native", or "auto": the algorithm
  // with the lowest time predicted by the cost model calibrated for the machine (see
  // `calibration`; alltoall and alltoallv). Empty: the operation's default, `pairwise` for
  // alltoall and alltoallv, `linear` for scatter, gather and their v forms.
  std::string algorithm;
  // Bound on point-to-point requests in flight per rank (0: no bound; the floor is 2). The
  // `direct` algorithm posts a whole round at once, and `overlap` keeps its messages across
  // groups in flight over several rounds; this caps every one of them, like UCC's num_posts
  // (overlap's messages across then complete in the round that posts them).
  int max_requests = 0;
  // Simulation only (SMPI build): simulated bandwidth of local copies and packing, in bytes
  // per second, charged as simulated computation on the calling rank's host. 0 selects the
  // library default (5e9).
  double copy_bandwidth = 0.0;
  // The machine's hierarchy, for topology-aware algorithms (lg): `clusters:N1,N2,...` (by
  // rank of MPI_COMM_WORLD), `flat:N`, `pattern:REGEX` (named groups of a regular expression on
  // the host name are the levels) or the path of a topology file (docs/topology.md). Empty: the
  // TOPOCOLL_TOPOLOGY environment variable, or when unset Slurm's switch tree where every rank
  // has SLURM_TOPOLOGY_ADDR, else only the node level (ranks of one host name,
  // MPI_Get_processor_name). A sub-communicator sees the groups of its members.
  std::string topology;
  // auto: the calibration file of the machine (made by topocoll-calibrate). Empty: the
  // TOPOCOLL_CALIBRATION environment variable; auto without either is an error.
  std::string calibration;
  // The SimGrid platform the ranks run on (a platform file written by topocoll-platform), for
  // algorithms that read the network's routes (linkaware): each rank's host is found by its
  // MPI_Get_processor_name (under SMPI the simulated host's name). Empty: the TOPOCOLL_NETWORK
  // environment variable; when neither names one, such algorithms read the topology as a tree.
  std::string network;
  // lg and overlap: the topology level whose groups they take as their groups (0 the outermost,
  // the levels as `topology` gives them, then the node level the library adds innermost). -1:
  // the outermost, except under auto, which prices each level and runs the fastest. The node
  // level makes them node-aware: lg then gathers inside each host and sends one message per
  // pair of hosts per rank.
  int group_level = -1;
  // When not null, receives the name of the algorithm that ran (what auto chose), on success.
  std::string* chosen_algorithm = nullptr;
  // When not null, receives on success what made auto's choice: "the cost model", or the
  // calibration's decision table entry that covers the call ("the tuning table (alltoall, 16
  // ranks, node:1x16, 1024-65535 bytes per block)"; docs/tuning.md); empty when no auto ran.
  std::string* chosen_by = nullptr;
  // When not null, an algorithm that does not apply to the call (lg without two clusters, an
  // intercommunicator) is no error: the MPI library's own call answers instead, and this
  // receives why ("algorithm 'lg' does not apply: ..."); it stays empty when topocoll answered.
  // Every rank reaches the same verdict, so every rank hands the call on alike.
  std::string* inapplicable_reason = nullptr;

  struct GroupShuffle {
    int group_width = 4;  // partners per round (the paper's w)
  } group_shuffle;
  struct Lg {
    // Cap on the library's scratch memory per rank, in bytes (0: no cap); larger exchanges are
    // pipelined in pieces. segment_bytes sets the piece size directly (0: from the cap).
    std::size_t max_scratch_bytes = 0;
    std::size_t segment_bytes = 0;
  } lg;
  struct Overlap {
    // Each block across the outermost level goes as this many messages at once (parallel
    // streams take a larger share of a node's link where sharing favours short round trips, as
    // TCP's does). 0: one message per block, except under auto, which picks 1, 2, 4 or 8 from
    // the cost model.
    int stripes = 0;
  } overlap;
  struct Topo {
    // Scatter and gather `topo`: bit l set makes phase l a star (its leader talks to every
    // member at once) rather than a binomial tree; phase 0 is the outermost level, the last
    // phase runs inside the innermost groups.
    unsigned linear_phases = 0;
    // Bit l set: topology level l (0 the outermost) gets no phase of its own: its groups are
    // merged into the level above, so the leaders of the level below it talk to that level's
    // leader directly (node leaders straight to the root, say, over the switches).
    unsigned skipped_levels = 0;
  } topo;
};

// The name the options had when alltoall was the only operation (before 0.2, the algorithm
// knobs were top-level fields: group_width, max_scratch_bytes, segment_bytes, stripes).
using AlltoallOptions = CollectiveOptions;

// MPI_Alltoall semantics (MPI_IN_PLACE accepted as sendbuf). Returns MPI_SUCCESS or an MPI
// error code after invoking the communicator's error handler.
int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             const CollectiveOptions& options = {});

// MPI_Alltoallv semantics (MPI_IN_PLACE accepted as sendbuf), with the same options; `bruck`
// does not apply (forwarding ranks would need sizes they do not have), nor does lg's
// scratch cap. Schedules are built per call, as the sizes change from call to call.
int alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              const CollectiveOptions& options = {});

// MPI_Alltoallw semantics: every block has its own datatype and its displacement counts bytes
// (MPI_IN_PLACE accepted as sendbuf; then the send arrays are not read). Its schedule is an
// alltoallv's: it takes alltoallv's algorithms and options, and a block of each datatype is
// packed where it is not plain bytes. A zero count's datatype is never read.
int alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, const CollectiveOptions& options = {});

// MPI_Scatter, MPI_Gather, MPI_Scatterv and MPI_Gatherv semantics: MPI_IN_PLACE is accepted at
// the root only (scatter: as its receive buffer, its own block stays where it is; gather: as
// its send buffer, its contribution is already in place). Arguments only the root reads are
// ignored elsewhere, as MPI specifies. Same options; the algorithms of these operations are
// listed by topocoll-plan --list --op scatter.
int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options = {});
int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options = {});
int scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options = {});
int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
            const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, const CollectiveOptions& options = {});

// Nonblocking forms (MPI_Ialltoall ... MPI_Igatherv semantics): the same algorithms and options;
// *request is the caller's to complete with MPI_Wait, MPI_Test or their array forms (or to drop
// with MPI_Request_free), and the buffers and arrays stay the caller's to leave alone until it
// completes. The rounds go out as the program calls MPI: under Open MPI every call that makes
// progress (MPI_Wait and MPI_Test on the request included) advances them, under MPICH waiting or
// testing the request does, and so does every topocoll call. An error met on the way comes back
// from the completion call as its code (the array forms report it as MPI reports a request's
// error there). The first call on a communicator, blocking or not, sets it up with every rank
// (a duplicate, its topology); a v form whose algorithm asks other ranks for block sizes (lg;
// binomial and topo for scatterv and gatherv) learns them after its start, as the first step of
// its rounds, and liu's stages advance as rounds do; auto for a v form completes at its start
// the summaries of the traffic that earlier calls of its kind sent on their way, or at the
// communicator's first such call exchanges its own (docs/tuning.md). Under SMPI the program's
// MPI_Wait ... MPI_Testsome are the library's own (linked with it): a wait blocks on the
// collectives' requests and the program's, so simulated times are not a polling's; liu's
// nonblocking form is refused there (docs/nonblocking-design.md, "Under SMPI").
int ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options = {});
int ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request* request, const CollectiveOptions& options = {});
int ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
               void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
               MPI_Comm comm, MPI_Request* request, const CollectiveOptions& options = {});
int iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
             const CollectiveOptions& options = {});
int igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
            const CollectiveOptions& options = {});
int iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
              const CollectiveOptions& options = {});
int igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
             const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request,
             const CollectiveOptions& options = {});

// Persistent forms (MPI-4's MPI_Alltoall_init ... MPI_Gatherv_init semantics): *request is a
// handle that topocoll::start (or topocoll::startall) runs again and again, each start the
// nonblocking call above with these arguments and a copy of `options`; the caller completes each
// run with MPI_Wait, MPI_Test or their array forms, which leave the handle inactive for the next
// start, and frees it with topocoll::request_free, active or not. Buffers, arrays and the
// options' pointers (chosen_algorithm, chosen_by, inapplicable_reason, written at each start)
// stay the caller's to keep while the handle lives; the buffers may change between runs. `info`
// is read only where the MPI library's own persistent call answers.
//
// The handle is a persistent request of the MPI library's own, which the collective completes,
// so waiting on it must advance the collective: that needs Open MPI's progress engine. Where the
// MPI library has none topocoll can hook (MPICH, SMPI), the call does not apply: with
// options.inapplicable_reason set, the MPI library's own persistent call (MPI-4's
// MPI_Alltoall_init ...) answers instead, else the error is MPI_ERR_UNSUPPORTED_OPERATION.
// A run that cannot start returns the start's error; the handle completes all the same, so that
// a wait returns (MPI_ERR_TRUNCATE under MPICH, MPI_SUCCESS under Open MPI 4.1, which does not
// report a truncated message a process sent itself). A run that fails on its way is raised as a
// nonblocking call's failure is (Open MPI: on MPI_COMM_WORLD's error handler), and
// topocoll_error_message() names it. Start and free the handle through topocoll, not
// MPI_Start and MPI_Request_free, which do not know it (the drop-in, libtopocoll-pmpi.so, keeps
// its own handles).
int alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                  const CollectiveOptions& options = {});
int alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request, const CollectiveOptions& options = {});
int alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Info info, MPI_Request* request, const CollectiveOptions& options = {});
int scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                 const CollectiveOptions& options = {});
int gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request,
                const CollectiveOptions& options = {});
int scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request, const CollectiveOptions& options = {});
int gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 MPI_Request* request, const CollectiveOptions& options = {});

// MPI_Start, MPI_Startall and MPI_Request_free for the handles above; any other request is
// handed to MPI's own. startall starts each in order and returns the first failure's code.
int start(MPI_Request* request);
int startall(int count, MPI_Request requests[]);
int request_free(MPI_Request* request);

}  // namespace topocoll
