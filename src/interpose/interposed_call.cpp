// Routing an interposed call, its verbose lines and its errors. Only PMPI_* calls of MPI's
// own collectives happen here or below (see native_calls_of_the_executor.cpp).
#include "interpose/interposed_call.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "exec/collective.hpp"
#include "exec/error_report.hpp"
#include "exec/native_call.hpp"
#include "exec/nonblocking.hpp"
#include "exec/outstanding.hpp"
#include "interpose/call_route.hpp"
#include "interpose/communicator_notes.hpp"
#include "interpose/configuration_agreement.hpp"
#include "interpose/interpose_config.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::interpose {

namespace {

// Raises `code` through the communicator's handler (MPI_COMM_WORLD's for MPI_COMM_NULL, as
// MPI does), after printing `message` on every rank, once per communicator.
int raise_error(MPI_Comm comm, int code, Note note, const std::string& message) {
  const MPI_Comm target = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  say_once(target, note, Speakers::every_rank, message);
  PMPI_Comm_call_errhandler(target, code);
  return code;
}

CallShape describe_call(const exec::CallArguments& call) {
  int inter = 0;
  PMPI_Comm_test_inter(call.comm, &inter);
  return CallShape{call.operation, inter != 0};
}

struct Answerer {
  const InterposeConfig& config;
  const exec::CallArguments& call;
  const char* entry_point;
  bool nonblocking;        // MPI_Ialltoall ...: `request` is the program's handle (null is its error)
  MPI_Request* request;
  bool persistent = false;  // MPIX_Alltoall_init ...: handed on, the library's own init answers

  const OperationChoice& choice() const { return config.choice(call.operation, call.per_peer_types); }
  std::string variable() const { return variable_of(call.operation, call.per_peer_types); }

  void say_topocoll_answers(const std::string& algorithm, const std::string& chosen_by) const {
    if (!config.verbose) return;
    std::string how = choice().requested;
    // (auto without a calibration is the MPI library's: say_mpi_answers.)
    if (how == "auto") how = "auto with TOPOCOLL_CALIBRATION=" + config.calibration;
    // The model's choice, or the decision table's (which may name the MPI library's own).
    if (!chosen_by.empty()) how += ", chosen by " + chosen_by;
    say_once(call.comm, answer_note(call.operation, call.per_peer_types, true, nonblocking), Speakers::rank_zero,
             std::string(entry_point) + " on " + describe_communicator(call.comm) +
                 ": answered by topocoll, algorithm '" + algorithm + "' (" + variable() + "=" +
                 how + ")");
  }

  void say_mpi_answers(const std::string& reason) const {
    if (!config.verbose) return;
    const std::string variable = this->variable();
    std::string why = "not topocoll: " + reason;
    if (reason.empty()) why = variable + (choice().defaulted ? " not set (the default: native)" : "=native");
    if (reason.empty() && choice().requested == "auto") {
      why = variable + "=auto, no TOPOCOLL_CALIBRATION: the MPI library's own, the safe choice until a "
                       "calibration says otherwise (docs/tuning.md)";
    }
    say_once(call.comm, answer_note(call.operation, call.per_peer_types, false, nonblocking), Speakers::rank_zero,
             std::string(entry_point) + " on " + describe_communicator(call.comm) + ": answered by the MPI library (" +
                 library_call() + "), " + why);
  }

  // Whether an error message is about a file or shorthand the environment named.
  bool names_the_environment(const std::string& message) const {
    for (const std::string& value : {config.topology, config.network, config.calibration}) {
      if (!value.empty() && message.find("'" + value + "'") != std::string::npos) return true;
    }
    return false;
  }

  // topocoll's executor, which hands the call to the MPI library itself where the algorithm
  // does not apply (a verdict every rank reaches alike: inapplicable_reason).
  int by_topocoll(const std::string& algorithm) const {
    CollectiveOptions options;
    options.algorithm = algorithm;
    options.group_level = config.group_level;
    // The environment as read once (interpose_config), not again at every call.
    const exec::EnvironmentDefaults defaults{config.topology, config.calibration, config.network};
    std::string chosen, chosen_by, inapplicable;
    if (config.verbose) {  // only the verbose line reads them
      options.chosen_algorithm = &chosen;
      options.chosen_by = &chosen_by;
    }
    options.inapplicable_reason = &inapplicable;
    const int rc = nonblocking
                       ? exec::start_collective(call, options, request, exec::StartRule::never_waits, &defaults)
                       : exec::run_collective(call, options, &defaults);
    if (!inapplicable.empty()) {
      say_mpi_answers(inapplicable);
      return rc;
    }
    if (rc == MPI_SUCCESS && chosen == "native") {  // auto's decision table named the MPI library's own
      say_mpi_answers(variable() + "=auto with TOPOCOLL_CALIBRATION=" + config.calibration +
                      ", chosen by " + chosen_by);
      return rc;
    }
    if (rc == MPI_SUCCESS) {
      say_topocoll_answers(chosen.empty() ? algorithm : chosen, chosen_by);
      return rc;
    }
    // The executor raised the error through the program's handler, printing it unless that
    // handler is MPI_ERRORS_RETURN. A program that asked MPI for codes did not ask topocoll:
    // a bad TOPOCOLL_TOPOLOGY, TOPOCOLL_NETWORK or TOPOCOLL_CALIBRATION would otherwise fail
    // every call without a word.
    const std::string message = topocoll_error_message();
    if (names_the_environment(message)) {
      say_once(call.comm, Note::configuration_error, Speakers::every_rank,
               message + " (from TOPOCOLL_TOPOLOGY, TOPOCOLL_NETWORK or TOPOCOLL_CALIBRATION)");
    } else if (config.verbose && exec::handler_returns(call.comm)) {
      // The program gets MPI's error class, as from the MPI library's own call; the message
      // that names the problem only TOPOCOLL_VERBOSE shows it (the executor printed it under
      // any other handler).
      std::fprintf(stderr, "topocoll: %s (%s on %s)\n", message.c_str(), entry_point,
                   describe_communicator(call.comm).c_str());
    }
    return rc;
  }

  // What answers where topocoll does not: "PMPI_Alltoall", "PMPI_Ialltoall", "PMPIX_Alltoall_init".
  std::string library_call() const {
    if (persistent) {  // "MPIX_Alltoall_init (Fortran)" -> "PMPIX_Alltoall_init"
      const std::string_view name(entry_point);
      return "P" + std::string(name.substr(0, name.find(' ')));
    }
    return std::string("P") + (nonblocking ? exec::native_start_name(call) : exec::native_call_name(call));
  }

  // Whether a persistent form is topocoll's (persistent_by_topocoll); says so when not.
  bool takes_persistent(bool from_fortran_library) const {
    if (from_fortran_library) {
      say_mpi_answers(
          "a persistent collective made through the MPI library's Fortran bindings stays the library's (MPICH's "
          "mpi_f08 starts and waits on it with PMPI_Start and PMPI_Wait, which topocoll never sees)");
      return false;
    }
    if (!configuration_agreed()) {
      say_mpi_answers(configuration_disagreement());
      return false;
    }
    if (call.comm == MPI_COMM_NULL || (config.valid() && choice().native())) {  // MPI reports a null one
      say_mpi_answers("");
      return false;
    }
    if (config.valid()) {
      const CallRoute route = route_call(choice(), describe_call(call));
      if (!route.by_topocoll) {
        say_mpi_answers(route.fallback_reason);
        return false;
      }
    }
#if defined(OPEN_MPI)
    // Its Fortran bindings wait with PMPI_Wait, past the drop-in's completion calls: the handle
    // needs its engine. Elsewhere those calls move the collective on (completion_entry_points.cpp).
    if (!exec::progress_from_every_call()) {
      say_mpi_answers("the persistent forms need Open MPI's progress engine, which topocoll could not hook");
      return false;
    }
#endif
    return true;  // a bad configuration is reported at each MPI_Start, as at each blocking call
  }

  // The MPI library's own call, blocking or nonblocking as the program's.
  int hand_on() const { return nonblocking ? exec::start_native(call, request) : exec::call_native(call); }

  int answer() const {
    // Ranks that read different configurations all hand every call on (rank 0 said why at MPI_Init).
    if (!configuration_agreed()) {
      say_mpi_answers(configuration_disagreement());
      return hand_on();
    }
    if (!config.valid()) return raise_error(call.comm, MPI_ERR_ARG, Note::configuration_error, config.error);
    // The handed-on route first, and reading nothing of the call: it must cost next to nothing.
    if (choice().native() || call.comm == MPI_COMM_NULL) {  // MPI reports a null communicator
      say_mpi_answers("");
      return hand_on();
    }
    const CallRoute route = route_call(choice(), describe_call(call));
    if (!route.by_topocoll) {
      say_mpi_answers(route.fallback_reason);
      return hand_on();
    }
    return by_topocoll(route.algorithm);
  }
};

// Exceptions never cross into the application's C or Fortran code.
int answer_safely(const Answerer& answerer) {
  try {
    return answerer.answer();
  } catch (const std::exception& e) {
    return raise_error(answerer.call.comm, MPI_ERR_INTERN, Note::internal_error,
                       std::string("internal error: ") + e.what());
  } catch (...) {
    return raise_error(answerer.call.comm, MPI_ERR_INTERN, Note::internal_error, "internal error");
  }
}

}  // namespace

int answer_call(const exec::CallArguments& call, const char* entry_point) {
  return answer_safely(Answerer{interpose_config(), call, entry_point, false, nullptr});
}

int answer_start(const exec::CallArguments& call, MPI_Request* request, const char* entry_point) {
  return answer_safely(Answerer{interpose_config(), call, entry_point, true, request});
}

bool persistent_by_topocoll(const exec::CallArguments& call, const char* entry_point, bool from_fortran_bindings) {
  try {
    return Answerer{interpose_config(), call, entry_point, true, nullptr, true}.takes_persistent(from_fortran_bindings);
  } catch (...) {
    return false;  // the MPI library's own call answers
  }
}

}  // namespace topocoll::interpose
