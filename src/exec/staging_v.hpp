// The byte buffers of an alltoallv (block_view.hpp's layouts): the user's buffers for plain
// datatypes; otherwise each block packed into, or unpacked from, a staging buffer. With
// MPI_IN_PLACE the receive buffer's blocks are first copied (packed) into a temporary send
// buffer. Under SMPI every copy, pack and unpack is charged.
#pragma once

#include <mpi.h>

#include <memory>

#include "exec/alltoallv_checks.hpp"
#include "exec/executor.hpp"

namespace topocoll::exec {

class StagedBlocks {
 public:
  MaybeFailure stage_in(const AlltoallvArguments& arguments, const CheckedAlltoallv& call, std::size_t scratch_bytes,
                        MPI_Comm comm);
  MaybeFailure stage_out(const AlltoallvArguments& arguments, const CheckedAlltoallv& call, MPI_Comm comm);
  const ByteBuffers& bytes() const { return bytes_; }

 private:
  std::unique_ptr<std::byte[]> send_copy_, recv_staging_, scratch_;
  ByteBuffers bytes_;
};

}  // namespace topocoll::exec
