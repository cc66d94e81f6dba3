// The datatypes of a call that runs after it returns (a nonblocking start, a persistent init),
// held until the run ends. MPI lets a program free a datatype as soon as a call using it has
// started ("any communication that is currently using this datatype will complete normally"),
// and the library's own nonblocking calls keep theirs alive; topocoll's runs pack and unpack
// with them later (staging.hpp), so they hold duplicates.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "exec/call.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

class HeldDatatypes {
 public:
  // Rewrites `arguments`' derived datatypes (never a predefined one, nor MPI_DATATYPE_NULL) to
  // duplicates this object owns, one per distinct handle; MPI_Alltoallw's per-peer arrays
  // (`size` entries) are copied first. A datatype whose duplicate cannot be made is left as it
  // was: the call's own checks then say what is wrong with it.
  void hold(CallArguments& arguments, int size);

 private:
  MPI_Datatype held(MPI_Datatype type);
  void hold_side(SideArguments& side, int size, std::vector<MPI_Datatype>& per_peer);

  std::vector<MPI_Datatype> originals_;
  std::vector<OwnedDatatype> duplicates_;  // duplicates_[i] stands for originals_[i]
  std::vector<MPI_Datatype> send_types_, recv_types_;
};

// A persistent init's: `arguments` held (their communicator's size for MPI_Alltoallw's arrays) by
// the holder returned, which the handle's start function keeps as long as the handle.
std::shared_ptr<const HeldDatatypes> hold_for_persistent(CallArguments& arguments);

}  // namespace topocoll::exec
