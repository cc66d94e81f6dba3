// Non-blocking sends and receives posted in order with at most `capacity` requests in flight
// (0: no bound). When the window is full, MPI_Waitsome frees slots before the next post, so
// a round of p-1 exchanges never posts unbounded work by accident (UCC's num_posts).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "exec/failure.hpp"

namespace topocoll::exec {

struct PointToPoint {
  enum class Direction { send, receive };
  Direction direction = Direction::send;
  void* buffer = nullptr;  // only read for sends
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int peer = 0;
};

class RequestWindow {
 public:
  RequestWindow(MPI_Comm comm, int tag, std::size_t capacity);
  RequestWindow(const RequestWindow&) = delete;
  RequestWindow& operator=(const RequestWindow&) = delete;
  // Only on a failure path are requests still in flight here: they are cancelled and freed.
  ~RequestWindow();

  MaybeFailure post(const PointToPoint& operation);
  MaybeFailure wait_all();
  std::size_t in_flight() const { return in_flight_; }

 private:
  MaybeFailure wait_some();
  MPI_Request* free_slot();

  MPI_Comm comm_;
  int tag_;
  std::size_t capacity_;
  std::size_t in_flight_ = 0;
  std::vector<MPI_Request> requests_;  // slots; MPI_REQUEST_NULL when free
  std::vector<std::size_t> free_slots_;
  std::vector<int> completed_;
};

}  // namespace topocoll::exec
