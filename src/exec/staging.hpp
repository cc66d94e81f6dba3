// The contiguous byte buffers a schedule runs on, made from the user's buffers, for every
// operation (the blocks of each side are laid out by side_layout.hpp).
// - Plain-byte datatypes (MPI_INT, a contiguous type of it...): the user's buffers are used
//   directly. Zero copies, no temporary memory.
// - Any other datatype is staged: the send side's blocks are packed into a temporary
//   (MPI_Pack), the schedule receives into a second temporary, whose blocks are unpacked into
//   the user's receive buffer at the end (MPI_Unpack, which writes only the datatype's bytes:
//   holes are left alone). Cost: one extra pass over the data on each side, and a side's bytes
//   of temporary memory per staged side.
// - MPI_IN_PLACE in alltoall(v): the receive buffer's blocks are first copied (plain) or packed
//   into a temporary send buffer: one extra pass. At the root of scatter and gather nothing is
//   copied: its own block stays where the user put it.
// Under SMPI every copy, pack and unpack is charged (copy_cost.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "exec/call.hpp"
#include "exec/executor.hpp"
#include "exec/failure.hpp"

namespace topocoll::exec {

class StagedBuffers {
 public:
  // Reads the user's send buffer (or receive buffer, in place) and sets up the byte buffers
  // and `scratch_bytes` of scratch. `comm` serves MPI_Pack and must have MPI_ERRORS_RETURN.
  MaybeFailure stage_in(const CallArguments& arguments, const CheckedCall& call, std::size_t scratch_bytes,
                        MPI_Comm comm);
  // Unpacks the received blocks into the user's receive buffer when they were staged.
  MaybeFailure stage_out(const CallArguments& arguments, const CheckedCall& call, MPI_Comm comm);

  const ByteBuffers& bytes() const { return bytes_; }

 private:
  std::unique_ptr<std::byte[]> send_copy_;
  std::unique_ptr<std::byte[]> recv_staging_;
  std::unique_ptr<std::byte[]> scratch_;
  ByteBuffers bytes_;
};

}  // namespace topocoll::exec
