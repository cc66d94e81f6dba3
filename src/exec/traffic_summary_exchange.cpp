#include "exec/traffic_summary_exchange.hpp"

#include <array>
#include <cstdint>

#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

namespace {

// MPI_User_function over whole summaries (the datatype holds one summary, so MPI never splits
// one between calls).
void combine_summaries(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* from = static_cast<std::uint64_t*>(in);
  auto* into = static_cast<std::uint64_t*>(inout);
  for (int i = 0; i < *len; ++i, from += TrafficSummary::kWords, into += TrafficSummary::kWords) {
    const std::array<std::uint64_t, TrafficSummary::kWords> both =
        combine(TrafficSummary::from_words(into), TrafficSummary::from_words(from)).words();
    for (int w = 0; w < TrafficSummary::kWords; ++w) into[w] = both[w];
  }
}

class OwnedOp {
 public:
  OwnedOp() = default;
  OwnedOp(const OwnedOp&) = delete;
  OwnedOp& operator=(const OwnedOp&) = delete;
  ~OwnedOp() {
    if (handle != MPI_OP_NULL && may_free_handles()) MPI_Op_free(&handle);
  }
  MPI_Op handle = MPI_OP_NULL;
};

}  // namespace

MaybeFailure gather_traffic_summary(const TrafficSummary& mine, MPI_Comm comm, TrafficSummary& all) {
  MPI_Datatype summary_type = MPI_DATATYPE_NULL;
  int rc = MPI_Type_contiguous(TrafficSummary::kWords, MPI_UINT64_T, &summary_type);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_contiguous", rc);
  rc = MPI_Type_commit(&summary_type);
  const OwnedDatatype type(summary_type);
  if (rc != MPI_SUCCESS) return mpi_call_failure("MPI_Type_commit", rc);
  OwnedOp op;
  if ((rc = MPI_Op_create(combine_summaries, 1, &op.handle)) != MPI_SUCCESS) return mpi_call_failure("MPI_Op_create", rc);
  const std::array<std::uint64_t, TrafficSummary::kWords> in = mine.words();
  std::array<std::uint64_t, TrafficSummary::kWords> out{};
  if ((rc = MPI_Allreduce(in.data(), out.data(), 1, type.get(), op.handle, comm)) != MPI_SUCCESS) {
    return mpi_call_failure("MPI_Allreduce", rc);
  }
  all = TrafficSummary::from_words(out.data());
  return std::nullopt;
}

}  // namespace topocoll::exec
