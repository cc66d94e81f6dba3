#include "exec/held_datatypes.hpp"

#include <algorithm>
#include <cstddef>

namespace topocoll::exec {

namespace {

bool is_predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  if (MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner) != MPI_SUCCESS) return true;
  return combiner == MPI_COMBINER_NAMED;
}

}  // namespace

MPI_Datatype HeldDatatypes::held(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || is_predefined(type)) return type;
  const auto found = std::find(originals_.begin(), originals_.end(), type);
  if (found != originals_.end()) return duplicates_[static_cast<std::size_t>(found - originals_.begin())].get();
  MPI_Datatype duplicate = MPI_DATATYPE_NULL;
  if (MPI_Type_dup(type, &duplicate) != MPI_SUCCESS) return type;
  originals_.push_back(type);
  duplicates_.emplace_back(duplicate);
  return duplicate;
}

void HeldDatatypes::hold_side(SideArguments& side, int size, std::vector<MPI_Datatype>& per_peer) {
  side.type = held(side.type);
  if (side.types == nullptr || size <= 0) return;
  per_peer.assign(side.types, side.types + size);
  for (MPI_Datatype& type : per_peer) type = held(type);
  side.types = per_peer.data();
}

void HeldDatatypes::hold(CallArguments& arguments, int size) {
  const WorldErrorsReturned errors_come_back;  // a handle MPI rejects is the call's checks' to report
  hold_side(arguments.send, size, send_types_);
  hold_side(arguments.recv, size, recv_types_);
}

std::shared_ptr<const HeldDatatypes> hold_for_persistent(CallArguments& arguments) {
  auto holder = std::make_shared<HeldDatatypes>();
  int size = 0;
  {
    const WorldErrorsReturned errors_come_back;  // a bad communicator is the start's to report
    if (arguments.comm == MPI_COMM_NULL || MPI_Comm_size(arguments.comm, &size) != MPI_SUCCESS) size = 0;
  }
  holder->hold(arguments, size);
  return holder;
}

}  // namespace topocoll::exec
