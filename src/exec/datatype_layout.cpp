// Datatype inspection. MPI has no query for "committed": a one-element send to MPI_PROC_NULL
// on a local communicator with MPI_ERRORS_RETURN checks it (Open MPI, MPICH and SMPI all
// validate the datatype before the MPI_PROC_NULL short cut) without any communication.
// MPI_Isend + MPI_Wait rather than MPI_Send: SMPI 3.32 leaks a request (and with it a
// reference to the datatype and communicator) on every blocking send to MPI_PROC_NULL.
#include "exec/datatype_layout.hpp"

#include <string>
#include <vector>

#include "exec/comm_state.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

namespace {

bool is_predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
  if (MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS) {
    return false;
  }
  return combiner == MPI_COMBINER_NAMED;
}

// For a derived datatype (predefined ones are always committed).
MaybeFailure check_committed(MPI_Datatype type, const std::string& role) {
  MPI_Comm probe = MPI_COMM_NULL;
  if (auto failure = local_probe_comm(probe)) return failure;
  // One element, not zero: MPICH checks the datatype only when there is something to send.
  // MPI_PROC_NULL never touches the buffer; it is non-null so that no buffer check fires.
  MPI_Request request = MPI_REQUEST_NULL;
  char unused = 0;
  const int rc = MPI_Isend(&unused, 1, type, MPI_PROC_NULL, 0, probe, &request);
  if (request != MPI_REQUEST_NULL) MPI_Wait(&request, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) {
    return Failure{MPI_ERR_TYPE, "the " + role + " is not a valid committed datatype (call MPI_Type_commit)"};
  }
  return std::nullopt;
}

bool has_no_gaps(MPI_Datatype type) {
  MPI_Count size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  if (MPI_Type_size_x(type, &size) != MPI_SUCCESS || MPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      MPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS) {
    return false;
  }
  return size >= 0 && lb == 0 && true_lb == 0 && extent == static_cast<MPI_Aint>(size) &&
         true_extent == static_cast<MPI_Aint>(size);
}

// Plain bytes in type-map order: gap-free, and built only by contiguous/dup from a gap-free
// predefined type. Other constructors (a struct listing fields backwards, say) could be
// gap-free yet permute bytes, so they take the packing path, which is always right.
bool is_plain_bytes(MPI_Datatype type) {
  if (!has_no_gaps(type)) return false;
  int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
  if (MPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS) {
    return false;
  }
  if (combiner == MPI_COMBINER_NAMED) return true;
  if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || datatypes != 1) {
    return false;
  }
  std::vector<int> integer_args(static_cast<std::size_t>(integers) + 1);
  std::vector<MPI_Aint> address_args(static_cast<std::size_t>(addresses) + 1);
  MPI_Datatype base = MPI_DATATYPE_NULL;
  if (MPI_Type_get_contents(type, integers, addresses, 1, integer_args.data(), address_args.data(),
                            &base) != MPI_SUCCESS) {
    return false;
  }
  const bool base_is_plain = is_plain_bytes(base);
  // MPI_Type_get_contents returns new handles for derived base types.
  if (!is_predefined(base)) {
    OwnedDatatype returned_handle(base);  // freed here
  }
  return base_is_plain;
}

// Predefined datatypes never change: each thread keeps the layouts of the last few it described,
// so that a program's MPI_INT costs one query per call, not seven.
struct KnownPredefined {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  DatatypeLayout layout;
};
constexpr std::size_t kKnownPredefined = 8;
thread_local KnownPredefined known_predefined[kKnownPredefined];
thread_local std::size_t next_known = 0;

const DatatypeLayout* known_layout(MPI_Datatype type) {
  for (const KnownPredefined& known : known_predefined) {
    if (known.type == type) return &known.layout;
  }
  return nullptr;
}

}  // namespace

MaybeFailure describe_datatype(MPI_Datatype type, const char* role, DatatypeLayout& layout) {
  if (type == MPI_DATATYPE_NULL) return Failure{MPI_ERR_TYPE, "the " + std::string(role) + " is MPI_DATATYPE_NULL"};
  const bool predefined = is_predefined(type);
  if (predefined) {
    if (const DatatypeLayout* known = known_layout(type)) {
      layout = *known;
      return std::nullopt;
    }
  }
  const std::string name(role);
  if (!predefined) {
    if (auto failure = check_committed(type, name)) return failure;
  }
  MPI_Count size = 0;
  int rc = MPI_Type_size_x(type, &size);
  if (rc != MPI_SUCCESS || size == MPI_UNDEFINED || size < 0) {
    return Failure{MPI_ERR_TYPE, "the size of the " + name + " cannot be determined"};
  }
  layout.size = static_cast<std::size_t>(size);
  rc = MPI_Type_get_extent(type, &layout.lb, &layout.extent);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_get_extent", rc);
  rc = MPI_Type_get_true_extent(type, &layout.true_lb, &layout.true_extent);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_get_true_extent", rc);
  layout.plain_bytes = is_plain_bytes(type);
  if (predefined) {
    known_predefined[next_known] = KnownPredefined{type, layout};
    next_known = (next_known + 1) % kKnownPredefined;
  }
  return std::nullopt;
}

}  // namespace topocoll::exec
