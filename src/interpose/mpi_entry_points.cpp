// The profiling-interface entry points of libtopocoll-pmpi.so. MPI_Alltoall, MPI_Alltoallv,
// MPI_Scatter, MPI_Gather, MPI_Scatterv and MPI_Gatherv run the algorithm their variable names
// (TOPOCOLL_ALLTOALL, ..., TOPOCOLL_GATHERV) through topocoll's public API, or hand the call to
// the MPI library's PMPI_ entry point (native, intercommunicators, algorithms that do not
// apply). Every entry point takes the same path (interposed); each only says how to run it.
//
// No recursion: this file calls only PMPI_* for the MPI library's own collectives, and the
// executor linked into this library reaches the PMPI_ ones too, never these definitions
// (see native_calls_of_the_executor.cpp).
#include <mpi.h>

#include <cstddef>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>

#include "exec/native_call.hpp"
#include "interpose/call_route.hpp"
#include "interpose/communicator_notes.hpp"
#include "interpose/interpose_config.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::interpose {

namespace {

// One interposed entry point: its operation, and the two ways to answer it.
struct EntryPoint {
  Operation operation;
  std::function<int(const CollectiveOptions&)> by_topocoll_run;
  std::function<int()> by_mpi_run;

  const char* name() const { return exec::native_call_name(operation); }  // "MPI_Alltoall"
  std::string variable() const { return variable_of(operation); }         // "TOPOCOLL_ALLTOALL"
  const OperationChoice& choice() const { return interpose_config().choice(operation); }
};

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

CallShape describe_call(MPI_Comm comm, Operation operation, std::size_t block_bytes) {
  CallShape call;
  call.operation = operation;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  call.intercommunicator = inter != 0;
  PMPI_Comm_size(comm, &call.size);
  call.block_bytes = block_bytes;
  return call;
}

void say_topocoll_answers(const InterposeConfig& config, const EntryPoint& op, MPI_Comm comm,
                          const std::string& algorithm, const std::string& chosen_by) {
  if (!config.verbose) return;
  std::string how = op.choice().requested;
  // (auto without a calibration is the MPI library's: say_mpi_answers.)
  if (how == "auto") how = "auto with TOPOCOLL_CALIBRATION=" + config.calibration;
  // The model's choice, or the decision table's (which may name the MPI library's own).
  if (!chosen_by.empty()) how += ", chosen by " + chosen_by;
  say_once(comm, answer_note(op.operation, true), Speakers::rank_zero,
           std::string(op.name()) + " on " + describe_communicator(comm) + ": answered by topocoll, algorithm '" +
               algorithm + "' (" + op.variable() + "=" + how + ")");
}

void say_mpi_answers(const InterposeConfig& config, const EntryPoint& op, MPI_Comm comm, const std::string& reason) {
  if (!config.verbose) return;
  std::string why = "not topocoll: " + reason;
  if (reason.empty()) why = op.variable() + (op.choice().defaulted ? " not set (the default: native)" : "=native");
  if (reason.empty() && op.choice().requested == "auto") {
    why = op.variable() + "=auto, no TOPOCOLL_CALIBRATION: the MPI library's own, the safe choice until a "
          "calibration says otherwise (docs/tuning.md)";
  }
  say_once(comm, answer_note(op.operation, false), Speakers::rank_zero,
           std::string(op.name()) + " on " + describe_communicator(comm) + ": answered by the MPI library (P" +
               op.name() + "), " + why);
}

// Runs topocoll and says which algorithm answered (auto says what it chose).
int run_by_topocoll(const InterposeConfig& config, const EntryPoint& op, MPI_Comm comm, CollectiveOptions options) {
  std::string chosen, chosen_by;
  options.chosen_algorithm = &chosen;
  options.chosen_by = &chosen_by;
  const int rc = op.by_topocoll_run(options);
  if (rc == MPI_SUCCESS) say_topocoll_answers(config, op, comm, chosen.empty() ? options.algorithm : chosen, chosen_by);
  return rc;
}

// Whether an error message is about a file or shorthand the environment named.
bool names_the_environment(const InterposeConfig& config, const std::string& message) {
  for (const std::string& value : {config.topology, config.network, config.calibration}) {
    if (!value.empty() && message.find("'" + value + "'") != std::string::npos) return true;
  }
  return false;
}

// Topology-aware algorithms (and auto) apply or not depending on the topology the executor
// discovers (collectively, so every rank gets the same verdict). The executor's answer comes
// back as a code: the communicator's error handler is MPI_ERRORS_RETURN during the call, and
// "does not apply" sends the call to the MPI library; any other error is raised through the
// user's handler, printed as the executor would have printed it. (Another thread using the
// same communicator meanwhile would see MPI_ERRORS_RETURN too.)
int run_topology_aware(const InterposeConfig& config, const EntryPoint& op, MPI_Comm comm,
                       const CollectiveOptions& options) {
  MPI_Errhandler user_handler = MPI_ERRHANDLER_NULL;
  if (PMPI_Comm_get_errhandler(comm, &user_handler) != MPI_SUCCESS) {
    return run_by_topocoll(config, op, comm, options);
  }
  PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int rc = run_by_topocoll(config, op, comm, options);
  PMPI_Comm_set_errhandler(comm, user_handler);
  const bool user_handler_returns = user_handler == MPI_ERRORS_RETURN;
  PMPI_Errhandler_free(&user_handler);
  if (rc == MPI_SUCCESS) return rc;
  const std::string message = topocoll_error_message();
  int error_class = MPI_ERR_OTHER;
  PMPI_Error_class(rc, &error_class);
  const std::string::size_type verdict = message.find("' does not apply: ");
  if (error_class == MPI_ERR_ARG && verdict != std::string::npos) {
    say_mpi_answers(config, op, comm, options.algorithm + message.substr(verdict + 1));
    return op.by_mpi_run();
  }
  if (!user_handler_returns) {
    std::fprintf(stderr, "topocoll: %s\n", message.c_str());
  } else if (names_the_environment(config, message)) {
    // The program asked MPI for codes, not for topocoll: a bad TOPOCOLL_TOPOLOGY,
    // TOPOCOLL_NETWORK or TOPOCOLL_CALIBRATION would otherwise fail every call without a word.
    say_once(comm, Note::configuration_error, Speakers::every_rank,
             message + " (from TOPOCOLL_TOPOLOGY, TOPOCOLL_NETWORK or TOPOCOLL_CALIBRATION)");
  }
  PMPI_Comm_call_errhandler(comm, rc);
  return rc;
}

// `block_bytes`: the bytes of each block of a uniform operation (0 for the v forms).
int interposed(const EntryPoint& op, MPI_Comm comm, std::size_t block_bytes) {
  const InterposeConfig& config = interpose_config();
  if (!config.valid()) return raise_error(comm, MPI_ERR_ARG, Note::configuration_error, config.error);
  if (comm == MPI_COMM_NULL) return op.by_mpi_run();  // which reports the error
  // `native` needs nothing from the call: spare it the inspection.
  const CallShape call = op.choice().native() ? CallShape{} : describe_call(comm, op.operation, block_bytes);
  const CallRoute route = route_call(op.choice(), call);
  if (!route.by_topocoll) {
    say_mpi_answers(config, op, comm, route.fallback_reason);
    return op.by_mpi_run();
  }
  CollectiveOptions options;
  options.algorithm = route.algorithm;
  options.topology = config.topology;
  options.network = config.network;
  options.calibration = config.calibration;
  if (route.applicability_from_executor) return run_topology_aware(config, op, comm, options);
  return run_by_topocoll(config, op, comm, options);
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
  const EntryPoint op{
      topocoll::Operation::alltoall,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, options);
      },
      [&] { return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm); }};
  return without_exceptions(comm, [&] { return interposed(op, comm, block_bytes_of(recvcount, recvtype)); });
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const EntryPoint op{
      topocoll::Operation::alltoallv,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm, options);
      },
      [&] {
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
      }};
  return without_exceptions(comm, [&] { return interposed(op, comm, 0); });
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const EntryPoint op{
      topocoll::Operation::scatter,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
      },
      [&] { return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); }};
  return without_exceptions(comm, [&] { return interposed(op, comm, block_bytes_of(recvcount, recvtype)); });
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const EntryPoint op{
      topocoll::Operation::gather,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
      },
      [&] { return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); }};
  return without_exceptions(comm, [&] { return interposed(op, comm, block_bytes_of(sendcount, sendtype)); });
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const EntryPoint op{
      topocoll::Operation::scatterv,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                  options);
      },
      [&] {
        return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
      }};
  return without_exceptions(comm, [&] { return interposed(op, comm, 0); });
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  using namespace topocoll::interpose;
  const EntryPoint op{
      topocoll::Operation::gatherv,
      [&](const topocoll::CollectiveOptions& options) {
        return topocoll::gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
                                 options);
      },
      [&] {
        return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
      }};
  return without_exceptions(comm, [&] { return interposed(op, comm, 0); });
}

}  // extern "C"
