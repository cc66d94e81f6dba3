#include "exec/liu_exchange.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/liu.hpp"
#include "exec/copy_cost.hpp"
#include "exec/mpi_handles.hpp"

namespace topocoll::exec {

// The messages of one stage, kept until the call ends: held pieces point into them.
struct LiuExchange::StageMessages {
  std::vector<std::vector<std::byte>> outgoing, incoming;
};

LiuExchange::LiuExchange(const Problem& problem, int rank, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                         double bandwidth)
    : problem_(problem),
      grid_(problem.size),
      rank_(rank),
      buffers_(buffers),
      comm_(comm),
      tag_(tag),
      bandwidth_(bandwidth) {}

LiuExchange::~LiuExchange() {
  // Only after an exception unwound a stage, or a failed MPI completion call: nothing of this
  // call may stay posted.
  for (std::vector<MPI_Request>* requests : {&first_parts_, &others_}) {
    for (MPI_Request& request : *requests) {
      if (request == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&request);
      MPI_Request_free(&request);
    }
  }
}

bool LiuExchange::advance(bool block) {
  if (stage_ > kLiuStages) return true;  // every piece placed already
  if (stage_ < 0) {
    std::vector<std::size_t> send_bytes(static_cast<std::size_t>(grid_.size));
    for (int d = 0; d < grid_.size; ++d) send_bytes[static_cast<std::size_t>(d)] = problem_.bytes(rank_, d);
    for (const LiuPiece& piece : liu_spread(grid_, rank_, send_bytes)) {
      held_.push_back({piece, buffers_.send + problem_.send_segment(rank_, piece.dst).offset + piece.offset});
    }
    start_stage(stage_ = 0);
  }
  while (stage_ < kLiuStages) {
    if (!stage_through(block)) return false;
    finish_stage();
    if (++stage_ < kLiuStages) start_stage(stage_);
  }
  place();
  ++stage_;
  return true;
}

MaybeFailure LiuExchange::take_failure() { return std::exchange(failure_, std::nullopt); }

void LiuExchange::keep(MaybeFailure failure) {
  if (failure && !failure_) failure_ = std::move(failure);
}

void LiuExchange::keep_rc(const char* call, int rc) {
  if (rc != MPI_SUCCESS) keep(mpi_call_failure(call, rc));
}

std::vector<std::byte> LiuExchange::pack(const std::vector<HeldPiece>& pieces) {
  std::vector<LiuPiece> described;
  described.reserve(pieces.size());
  std::size_t payload = 0;
  for (const HeldPiece& h : pieces) {
    described.push_back(h.piece);
    payload += h.piece.length;
  }
  const std::size_t header = liu_header_bytes(pieces.size());
  std::vector<std::byte> message(header + payload);
  liu_write_header(described, message.size(), message.data());
  std::byte* at = message.data() + header;
  for (const HeldPiece& h : pieces) {
    std::memcpy(at, h.data, h.piece.length);
    at += h.piece.length;
  }
  charge_local_copy(payload, bandwidth_);
  return message;
}

void LiuExchange::post(void* buffer, std::size_t bytes, int peer, bool receive, std::vector<MPI_Request>& requests) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    keep(Failure{MPI_ERR_COUNT,
                 "liu: a message of " + std::to_string(bytes) + " bytes is longer than one MPI message can carry"});
    return;
  }
  const int count = static_cast<int>(bytes);
  if (receive) {
    keep_rc("MPI_Irecv", MPI_Irecv(buffer, count, MPI_BYTE, peer, tag_, comm_, &request));
  } else {
    keep_rc("MPI_Isend", MPI_Isend(buffer, count, MPI_BYTE, peer, tag_, comm_, &request));
  }
  requests.push_back(request);
}

void LiuExchange::start_stage(int stage) {
  std::map<int, std::vector<HeldPiece>> by_hop;
  staying_.clear();
  for (const HeldPiece& h : held_) {
    const int hop = liu_next_hop(grid_, stage, rank_, h.piece);
    (hop == rank_ ? staying_ : by_hop[hop]).push_back(h);
  }
  const std::vector<int> to = grid_.send_peers(stage, rank_);
  from_ = grid_.recv_peers(stage, rank_);
  StageMessages& messages = *stages_.emplace_back(std::make_unique<StageMessages>());
  for (int peer : to) {
    messages.outgoing.push_back(pack(by_hop[peer]));
    by_hop.erase(peer);
  }
  if (!by_hop.empty()) keep(Failure{MPI_ERR_INTERN, "liu: a piece's next hop is not a peer of its stage"});

  first_parts_.clear();
  others_.clear();
  first_parts_left_ = from_.size();
  messages.incoming.assign(from_.size(), std::vector<std::byte>(kLiuFirstPartBytes));
  for (std::size_t i = 0; i < from_.size(); ++i) {
    post(messages.incoming[i].data(), kLiuFirstPartBytes, from_[i], true, first_parts_);
  }
  if (first_parts_.size() != from_.size()) {  // a receive could not be posted: none is expected
    first_parts_left_ = first_parts_.size();
    lost_receives_ = true;
  }
  for (std::size_t i = 0; i < to.size(); ++i) {
    std::vector<std::byte>& message = messages.outgoing[i];
    const std::size_t first = std::min(message.size(), kLiuFirstPartBytes);
    post(message.data(), first, to[i], false, others_);
    if (message.size() > first) post(message.data() + first, message.size() - first, to[i], false, others_);
  }
}

// As each first part arrives, its header tells the message's length; the rest, if any, is
// received next into the same buffer, grown to the whole message. True once every message of
// the stage, sent and received, is through.
bool LiuExchange::stage_through(bool block) {
  std::vector<std::vector<std::byte>>& incoming = stages_.back()->incoming;
  while (first_parts_left_ > 0) {
    int index = MPI_UNDEFINED, done = 0;
    MPI_Status status;
    const int count = static_cast<int>(first_parts_.size());
    const int rc = block ? MPI_Waitany(count, first_parts_.data(), &index, &status)
                         : MPI_Testany(count, first_parts_.data(), &index, &done, &status);
    if (rc != MPI_SUCCESS || (done == 0 && !block) || index == MPI_UNDEFINED) {
      if (rc == MPI_SUCCESS && !block && done == 0) return false;
      keep_rc(block ? "MPI_Waitany" : "MPI_Testany", rc == MPI_SUCCESS ? MPI_ERR_INTERN : rc);
      first_parts_left_ = 0;
      break;
    }
    --first_parts_left_;
    if (lost_receives_) continue;
    std::vector<std::byte>& message = incoming[static_cast<std::size_t>(index)];
    const int peer = from_[static_cast<std::size_t>(index)];
    int received = 0;
    MPI_Get_count(&status, MPI_BYTE, &received);
    // The sender sends min(length, kLiuFirstPartBytes) bytes first.
    const std::uint64_t total = received >= 8 ? liu_message_bytes(message.data()) : 0;
    if (received < 8 || static_cast<std::uint64_t>(received) != std::min<std::uint64_t>(total, kLiuFirstPartBytes)) {
      keep(Failure{MPI_ERR_INTERN,
                   "liu: rank " + std::to_string(peer) + " sent a message whose header does not match its length"});
      message.resize(static_cast<std::size_t>(std::max(received, 0)));
      continue;
    }
    message.resize(static_cast<std::size_t>(total));
    if (total > static_cast<std::uint64_t>(received)) {
      post(message.data() + received, static_cast<std::size_t>(total) - static_cast<std::size_t>(received), peer, true,
           others_);
    }
  }
  const int count = static_cast<int>(others_.size());
  if (block) {
    keep_rc("MPI_Waitall", MPI_Waitall(count, others_.data(), MPI_STATUSES_IGNORE));
  } else {
    int done = 0;
    const int rc = MPI_Testall(count, others_.data(), &done, MPI_STATUSES_IGNORE);
    keep_rc("MPI_Testall", rc);
    if (rc == MPI_SUCCESS && done == 0) return false;
  }
  return true;
}

void LiuExchange::finish_stage() {
  StageMessages& messages = *stages_.back();
  if (lost_receives_) {
    for (auto& message : messages.incoming) message.clear();
    lost_receives_ = false;
  }
  held_ = std::move(staying_);
  staying_.clear();
  for (std::size_t i = 0; i < from_.size(); ++i) unpack(messages.incoming[i], from_[i]);
}

void LiuExchange::unpack(const std::vector<std::byte>& message, int peer) {
  if (message.empty()) return;  // lost to an earlier failure
  std::vector<LiuPiece> pieces;
  std::string why;
  if (!liu_read_header(message.data(), message.size(), grid_.size, pieces, why)) {
    keep(Failure{MPI_ERR_INTERN, "liu: from rank " + std::to_string(peer) + ": " + why});
    return;
  }
  const std::byte* at = message.data() + liu_header_bytes(pieces.size());
  for (const LiuPiece& piece : pieces) {
    held_.push_back({piece, at});
    at += piece.length;
  }
}

// After the fourth stage every piece is this rank's: each goes to its place in its block.
void LiuExchange::place() {
  std::vector<std::size_t> filled(static_cast<std::size_t>(grid_.size), 0);
  std::size_t copied = 0;
  for (const HeldPiece& h : held_) {
    const Segment block = problem_.recv_segment(rank_, h.piece.src);
    if (h.piece.dst != rank_ || h.piece.src == rank_) {
      keep(Failure{MPI_ERR_INTERN, "liu: a piece of block " + std::to_string(h.piece.src) + "->" +
                                       std::to_string(h.piece.dst) + " ended at rank " + std::to_string(rank_)});
      continue;
    }
    if (h.piece.offset > block.length || h.piece.length > block.length - h.piece.offset) {
      keep(longer_message_failure(MPI_ERR_TRUNCATE, h.piece.src, block.length));
      continue;
    }
    std::memcpy(buffers_.recv + block.offset + h.piece.offset, h.data, h.piece.length);
    filled[static_cast<std::size_t>(h.piece.src)] += h.piece.length;
    copied += h.piece.length;
  }
  const Segment own_send = problem_.send_segment(rank_, rank_);
  if (own_send.length > 0) {
    std::memcpy(buffers_.recv + problem_.recv_segment(rank_, rank_).offset, buffers_.send + own_send.offset,
                own_send.length);
    copied += own_send.length;
  }
  charge_local_copy(copied, bandwidth_);
  for (int src = 0; src < grid_.size; ++src) {
    const std::size_t expected = problem_.recv_segment(rank_, src).length;
    if (src != rank_ && filled[static_cast<std::size_t>(src)] != expected) {
      keep(shorter_message_failure(src, filled[static_cast<std::size_t>(src)], expected));
      break;
    }
  }
}

MaybeFailure run_liu_exchange(const Problem& problem, int rank, const ByteBuffers& buffers, MPI_Comm comm, int tag,
                              double copy_bandwidth) {
  LiuExchange exchange(problem, rank, buffers, comm, tag, copy_bandwidth);
  exchange.advance(true);
  return exchange.take_failure();
}

}  // namespace topocoll::exec
