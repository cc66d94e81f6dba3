// The profiling-interface entry points of libtopocoll-pmpi.so. MPI_Alltoall runs the algorithm
// TOPOCOLL_ALLTOALL names through topocoll's public API, or hands the call to PMPI_Alltoall
// (native, intercommunicators, algorithms that do not apply). MPI_Alltoallv always hands the
// call to PMPI_Alltoallv: topocoll has no alltoallv algorithm yet, so it only checks
// TOPOCOLL_ALLTOALLV and says who answered.
//
// No recursion: this file calls only PMPI_* for the MPI library's own collectives, and the
// executor linked into this library reaches PMPI_Alltoall(v) too, never these definitions
// (see native_calls_of_the_executor.cpp).
#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <string>

#include "interpose/alltoall_route.hpp"
#include "interpose/communicator_notes.hpp"
#include "interpose/interpose_config.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::interpose {

namespace {

struct AlltoallArguments {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
  MPI_Comm comm;
};

int mpi_library_alltoall(const AlltoallArguments& a) {
  return PMPI_Alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm);
}

// Raises `code` through the communicator's handler (MPI_COMM_WORLD's for MPI_COMM_NULL, as
// MPI does), after printing `message` on every rank, once per communicator.
int raise_error(MPI_Comm comm, int code, Note note, const std::string& message) {
  const MPI_Comm target = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  say_once(target, note, Speakers::every_rank, message);
  PMPI_Comm_call_errhandler(target, code);
  return code;
}

std::size_t block_bytes_of(int recvcount, MPI_Datatype recvtype) {
  if (recvcount <= 0 || recvtype == MPI_DATATYPE_NULL) return 0;  // the executor reports bad ones
  int type_size = 0;
  if (PMPI_Type_size(recvtype, &type_size) != MPI_SUCCESS || type_size < 0) return 0;
  return static_cast<std::size_t>(recvcount) * static_cast<std::size_t>(type_size);
}

AlltoallCall describe_call(const AlltoallArguments& a) {
  AlltoallCall call;
  int inter = 0;
  PMPI_Comm_test_inter(a.comm, &inter);
  call.intercommunicator = inter != 0;
  PMPI_Comm_size(a.comm, &call.size);
  call.block_bytes = block_bytes_of(a.recvcount, a.recvtype);
  return call;
}

void say_topocoll_answers(const InterposeConfig& config, MPI_Comm comm, const std::string& algorithm) {
  if (!config.verbose) return;
  say_once(comm, Note::alltoall_by_topocoll, Speakers::rank_zero,
           "MPI_Alltoall on " + describe_communicator(comm) + ": answered by topocoll, algorithm '" + algorithm +
               "' (TOPOCOLL_ALLTOALL=" + config.alltoall.requested + ")");
}

void say_mpi_answers(const InterposeConfig& config, MPI_Comm comm, const std::string& reason) {
  if (!config.verbose) return;
  const std::string why = reason.empty() ? "TOPOCOLL_ALLTOALL=native" : "not topocoll: " + reason;
  say_once(comm, Note::alltoall_by_mpi, Speakers::rank_zero,
           "MPI_Alltoall on " + describe_communicator(comm) + ": answered by the MPI library (PMPI_Alltoall), " + why);
}

bool handler_returns(MPI_Errhandler handler) { return handler == MPI_ERRORS_RETURN; }

// Topology-aware algorithms apply or not depending on the topology the executor discovers
// (collectively, so every rank gets the same verdict). The executor's answer comes back as
// a code: the communicator's error handler is MPI_ERRORS_RETURN during the call, and "does
// not apply" sends the call to the MPI library; any other error is raised through the
// user's handler, printed as the executor would have printed it. (Another thread using the
// same communicator meanwhile would see MPI_ERRORS_RETURN too.)
int run_topology_aware(const AlltoallArguments& a, const AlltoallOptions& options, const InterposeConfig& config) {
  MPI_Errhandler user_handler = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(a.comm, &user_handler) != MPI_SUCCESS) {
    return alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm, options);
  }
  PMPI_Comm_set_errhandler(a.comm, MPI_ERRORS_RETURN);
  const int rc = alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm, options);
  PMPI_Comm_set_errhandler(a.comm, user_handler);
  const bool user_handler_returns = handler_returns(user_handler);
  PMPI_Errhandler_free(&user_handler);

  if (rc == MPI_SUCCESS) {
    say_topocoll_answers(config, a.comm, options.algorithm);
    return rc;
  }
  const std::string message = topocoll_error_message();
  int error_class = MPI_ERR_OTHER;
  PMPI_Error_class(rc, &error_class);
  const std::string::size_type verdict = message.find("' does not apply: ");
  if (error_class == MPI_ERR_ARG && verdict != std::string::npos) {
    say_mpi_answers(config, a.comm, options.algorithm + message.substr(verdict + 1));
    return mpi_library_alltoall(a);
  }
  if (!user_handler_returns) std::fprintf(stderr, "topocoll: %s\n", message.c_str());
  PMPI_Comm_call_errhandler(a.comm, rc);
  return rc;
}

int interposed_alltoall(const AlltoallArguments& a) {
  const InterposeConfig& config = interpose_config();
  if (!config.valid()) return raise_error(a.comm, MPI_ERR_ARG, Note::configuration_error, config.error);
  if (a.comm == MPI_COMM_NULL) return mpi_library_alltoall(a);  // which reports the error

  // `native` needs nothing from the call: spare it the inspection.
  const AlltoallCall call = config.alltoall.native() ? AlltoallCall{} : describe_call(a);
  const AlltoallRoute route = route_alltoall(config.alltoall, call);
  if (!route.by_topocoll) {
    say_mpi_answers(config, a.comm, route.fallback_reason);
    return mpi_library_alltoall(a);
  }
  AlltoallOptions options;
  options.algorithm = route.algorithm;
  options.topology = config.topology;
  if (route.applicability_from_executor) return run_topology_aware(a, options, config);
  say_topocoll_answers(config, a.comm, route.algorithm);
  return alltoall(a.sendbuf, a.sendcount, a.sendtype, a.recvbuf, a.recvcount, a.recvtype, a.comm, options);
}

int interposed_alltoallv(MPI_Comm comm) {
  const InterposeConfig& config = interpose_config();
  if (!config.valid()) return raise_error(comm, MPI_ERR_ARG, Note::configuration_error, config.error);
  if (config.verbose && comm != MPI_COMM_NULL) {
    say_once(comm, Note::alltoallv_by_mpi, Speakers::rank_zero,
             "MPI_Alltoallv on " + describe_communicator(comm) +
                 ": answered by the MPI library (PMPI_Alltoallv), topocoll has no alltoallv algorithm yet");
  }
  return MPI_SUCCESS;
}

// Exceptions never cross into the application's C code.
template <typename Call>
int without_exceptions(MPI_Comm comm, Call&& call) {
  try {
    return call();
  } catch (const std::exception& e) {
    return raise_error(comm, MPI_ERR_INTERN, Note::internal_error, std::string("internal error: ") + e.what());
  } catch (...) {
    return raise_error(comm, MPI_ERR_INTERN, Note::internal_error, "internal error");
  }
}

}  // namespace

}  // namespace topocoll::interpose

extern "C" {

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const AlltoallArguments arguments{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm};
  return without_exceptions(comm, [&] { return interposed_alltoall(arguments); });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const int checked = without_exceptions(comm, [&] { return interposed_alltoallv(comm); });
  if (checked != MPI_SUCCESS) return checked;
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

}  // extern "C"
