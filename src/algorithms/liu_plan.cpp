// plan_liu: liu's routing (liu.cpp) run for every rank at once, each message laid out in the
// sender's scratch as the executor lays it out (header, then the pieces' payloads) and received
// into the receiver's scratch; the pieces then travel on from there. Rounds 2s and 2s+1 are
// stage s: its messages' first parts, then the rest of those longer than kLiuFirstPartBytes
// (the receiver can post that only once the first part told it the length). The last round
// places every piece in the receive buffer. Memory O(p^2) pieces: for the verifier, the
// statistics and the cost model, never for one rank's call.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "algorithms/liu.hpp"
#include "schedule/round_sink.hpp"

namespace topocoll {

namespace {

struct HeldPiece {
  LiuPiece piece;
  Segment at;  // where its bytes lie now
};

class LiuPlan final : public RoundPlan {
 public:
  explicit LiuPlan(const Problem& problem);
  std::size_t rounds(int rank) const override { return rounds_[static_cast<std::size_t>(rank)].size(); }
  void emit(int rank, std::size_t round, RoundSink& sink) const override {
    tell_round(rounds_[static_cast<std::size_t>(rank)][round], sink);
  }
  std::size_t scratch_bytes(int rank) const override { return scratch_[static_cast<std::size_t>(rank)]; }
  std::vector<Segment> metadata(int rank) const override { return metadata_[static_cast<std::size_t>(rank)]; }

 private:
  Segment take_scratch(int rank, std::size_t bytes) {
    const Segment segment = scratch_range(scratch_[static_cast<std::size_t>(rank)], bytes);
    scratch_[static_cast<std::size_t>(rank)] += bytes;
    return segment;
  }
  void run_stage(int stage, std::vector<std::vector<HeldPiece>>& held);
  void send_message(int stage, int from, int to, const std::vector<HeldPiece>& pieces,
                    std::vector<HeldPiece>& delivered);

  LiuGrid grid_;
  std::vector<std::vector<Round>> rounds_;
  std::vector<std::size_t> scratch_;
  std::vector<std::vector<Segment>> metadata_;
};

LiuPlan::LiuPlan(const Problem& problem)
    : grid_(problem.size),
      rounds_(static_cast<std::size_t>(problem.size), std::vector<Round>(2 * kLiuStages + 1)),
      scratch_(static_cast<std::size_t>(problem.size), 0),
      metadata_(static_cast<std::size_t>(problem.size)) {
  const int p = problem.size;
  std::vector<std::vector<HeldPiece>> held(static_cast<std::size_t>(p));
  std::vector<std::size_t> send_bytes(static_cast<std::size_t>(p));
  for (int rank = 0; rank < p; ++rank) {
    for (int d = 0; d < p; ++d) send_bytes[static_cast<std::size_t>(d)] = problem.bytes(rank, d);
    for (const LiuPiece& piece : liu_spread(grid_, rank, send_bytes)) {
      const Segment block = problem.send_segment(rank, piece.dst);
      held[static_cast<std::size_t>(rank)].push_back(
          {piece, Segment{BufferKind::send, block.offset + piece.offset, piece.length}});
    }
    if (problem.bytes(rank, rank) > 0) {
      rounds_[static_cast<std::size_t>(rank)][0].copies.push_back(
          {problem.send_segment(rank, rank), problem.recv_segment(rank, rank)});
    }
  }
  for (int stage = 0; stage < kLiuStages; ++stage) run_stage(stage, held);
  for (int rank = 0; rank < p; ++rank) {
    Round& last = rounds_[static_cast<std::size_t>(rank)].back();
    for (const HeldPiece& h : held[static_cast<std::size_t>(rank)]) {
      if (h.piece.dst != rank) throw std::logic_error("liu: a piece ended away from its destination");
      const Segment block = problem.recv_segment(rank, h.piece.src);
      last.copies.push_back({h.at, Segment{BufferKind::recv, block.offset + h.piece.offset, h.piece.length}});
    }
  }
}

void LiuPlan::run_stage(int stage, std::vector<std::vector<HeldPiece>>& held) {
  const int p = grid_.size;
  std::vector<std::vector<HeldPiece>> next(static_cast<std::size_t>(p));
  for (int rank = 0; rank < p; ++rank) {
    std::map<int, std::vector<HeldPiece>> outgoing;
    for (const HeldPiece& h : held[static_cast<std::size_t>(rank)]) {
      const int hop = liu_next_hop(grid_, stage, rank, h.piece);
      if (hop == rank) {
        next[static_cast<std::size_t>(rank)].push_back(h);
      } else {
        outgoing[hop].push_back(h);
      }
    }
    for (int peer : grid_.send_peers(stage, rank)) {
      send_message(stage, rank, peer, outgoing[peer], next[static_cast<std::size_t>(peer)]);
      outgoing.erase(peer);
    }
    if (!outgoing.empty()) throw std::logic_error("liu: a piece's next hop is not a peer of its stage");
  }
  held = std::move(next);
}

void LiuPlan::send_message(int stage, int from, int to, const std::vector<HeldPiece>& pieces,
                           std::vector<HeldPiece>& delivered) {
  const std::size_t header = liu_header_bytes(pieces.size());
  std::size_t total = header;
  for (const HeldPiece& h : pieces) total += h.piece.length;
  const Segment out = take_scratch(from, total);
  const Segment in = take_scratch(to, total);
  metadata_[static_cast<std::size_t>(from)].push_back(scratch_range(out.offset, header));
  Round& first_out = rounds_[static_cast<std::size_t>(from)][2 * static_cast<std::size_t>(stage)];
  Round& first_in = rounds_[static_cast<std::size_t>(to)][2 * static_cast<std::size_t>(stage)];
  std::size_t at = header;
  for (const HeldPiece& h : pieces) {
    first_out.copies.push_back({h.at, scratch_range(out.offset + at, h.piece.length)});
    delivered.push_back({h.piece, scratch_range(in.offset + at, h.piece.length)});
    at += h.piece.length;
  }
  const std::size_t first = std::min(total, kLiuFirstPartBytes);
  first_out.sends.push_back({to, {scratch_range(out.offset, first)}, 0});
  first_in.recvs.push_back({from, {scratch_range(in.offset, first)}, 0});
  if (total > first) {
    const std::size_t rest_round = 2 * static_cast<std::size_t>(stage) + 1;
    rounds_[static_cast<std::size_t>(from)][rest_round].sends.push_back(
        {to, {scratch_range(out.offset + first, total - first)}, 0});
    rounds_[static_cast<std::size_t>(to)][rest_round].recvs.push_back(
        {from, {scratch_range(in.offset + first, total - first)}, 0});
  }
}

}  // namespace

std::unique_ptr<RoundPlan> plan_liu(const Problem& problem) { return std::make_unique<LiuPlan>(problem); }

}  // namespace topocoll
