// One rank's part of one round, told transfer by transfer. Each algorithm describes its rounds
// once, to a sink (algorithms/round_plan.hpp); what consumes them decides what to keep: the
// recorder below builds the rank's schedule, the cost model (model/plan_cost.hpp) prices the
// round without building it.
#pragma once

#include <cstddef>
#include <span>

#include "schedule/schedule.hpp"

namespace topocoll {

class RoundSink {
 public:
  virtual ~RoundSink() = default;
  // Whether the places of segments matter. A sink that only counts bytes (the cost model) says
  // no; an algorithm may then describe a message by one segment per buffer it touches, of that
  // buffer's share of its bytes, whatever the offsets, and skip the work of finding places. The
  // buffers still tell whether the executor stages the message (schedule/staging_rule.hpp:
  // tests/schedule/registry_sweep_test.cpp holds every algorithm to it).
  virtual bool wants_places() const = 0;
  virtual void copy(const Segment& from, const Segment& to) = 0;
  // A copy that runs once the round's transfers are posted (LocalCopy::after_posts).
  virtual void copy_after_posts(const Segment& from, const Segment& to) = 0;
  // A message to (send) or from (recv) `peer` gathering or scattering `segments` in order, kept
  // in flight `overlap_rounds` more rounds (Transfer).
  virtual void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) = 0;
  virtual void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) = 0;

  // Whether the sink takes transfers kept in flight `overlap_rounds` more rounds. One that does
  // not (the cost model prices those in a pass of its own) need only be told that the round has
  // some (skip_in_flight), and an algorithm may then leave them out.
  virtual bool takes_in_flight(std::size_t /*overlap_rounds*/) const { return true; }
  virtual void skip_in_flight(std::size_t /*overlap_rounds*/) {}

  // `pieces` messages to (from) `peer` that carry a block of `bytes` bytes cut into equal parts
  // to a byte (a block sent in stripes), for a sink that does not want places: one call
  // instead of one per piece. The default tells them one by one.
  virtual void send_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) {
    for (int i = 0; i < pieces; ++i) send(peer, Segment{BufferKind::send, 0, piece_bytes(bytes, pieces, i)}, overlap_rounds);
  }
  virtual void recv_pieces(int peer, std::size_t bytes, int pieces, std::size_t overlap_rounds) {
    for (int i = 0; i < pieces; ++i) recv(peer, Segment{BufferKind::recv, 0, piece_bytes(bytes, pieces, i)}, overlap_rounds);
  }
  // The same as send_pieces (recv_pieces) with each rank of [first, first + count), in any
  // order: an algorithm that moves one block size with a run of consecutive ranks may tell a
  // sink that does not want places in one call. The default tells them one by one.
  virtual void send_pieces_to_run(int first, int count, std::size_t bytes, int pieces, std::size_t overlap_rounds) {
    for (int peer = first; peer < first + count; ++peer) send_pieces(peer, bytes, pieces, overlap_rounds);
  }
  virtual void recv_pieces_from_run(int first, int count, std::size_t bytes, int pieces, std::size_t overlap_rounds) {
    for (int peer = first; peer < first + count; ++peer) recv_pieces(peer, bytes, pieces, overlap_rounds);
  }
  // Piece i's length: the first bytes % pieces pieces are one byte longer.
  static std::size_t piece_bytes(std::size_t bytes, int pieces, int i) {
    const auto n = static_cast<std::size_t>(pieces);
    return bytes / n + (static_cast<std::size_t>(i) < bytes % n ? 1 : 0);
  }

  void send(int peer, const Segment& segment, std::size_t overlap_rounds = 0) {
    send(peer, std::span<const Segment>(&segment, 1), overlap_rounds);
  }
  void recv(int peer, const Segment& segment, std::size_t overlap_rounds = 0) {
    recv(peer, std::span<const Segment>(&segment, 1), overlap_rounds);
  }
};

// Records what it is told as a Round, over what the Round held: each copy and message takes the
// place (and the segment list's storage) of the one recorded there before, and what the new
// round does not fill is dropped when the recorder goes. A caller that records rank after rank
// into one schedule (topocoll-plan's statistics at 16384 ranks: 268 million messages) so
// allocates only where a rank has more than the one before it.
class RoundRecorder final : public RoundSink {
 public:
  explicit RoundRecorder(Round& round) : round_(&round) {}
  RoundRecorder(const RoundRecorder&) = delete;
  RoundRecorder& operator=(const RoundRecorder&) = delete;
  ~RoundRecorder() override {
    round_->copies.resize(copies_);
    round_->sends.resize(sends_);
    round_->recvs.resize(recvs_);
  }
  bool wants_places() const override { return true; }
  void copy(const Segment& from, const Segment& to) override { next(round_->copies, copies_) = {from, to}; }
  void copy_after_posts(const Segment& from, const Segment& to) override {
    next(round_->copies, copies_) = {from, to, true};
  }
  void send(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    put(next(round_->sends, sends_), peer, segments, overlap_rounds);
  }
  void recv(int peer, std::span<const Segment> segments, std::size_t overlap_rounds) override {
    put(next(round_->recvs, recvs_), peer, segments, overlap_rounds);
  }
  using RoundSink::recv;
  using RoundSink::send;

 private:
  template <typename T>
  static T& next(std::vector<T>& recorded, std::size_t& used) {
    if (used == recorded.size()) recorded.emplace_back();
    return recorded[used++];
  }
  static void put(Transfer& transfer, int peer, std::span<const Segment> segments, std::size_t overlap_rounds) {
    transfer.peer = peer;
    transfer.segments.assign(segments.begin(), segments.end());
    transfer.overlap_rounds = overlap_rounds;
  }

  Round* round_;
  std::size_t copies_ = 0, sends_ = 0, recvs_ = 0;
};

// Tells `sink` a round already recorded, in its order: the inverse of RoundRecorder.
inline void tell_round(const Round& round, RoundSink& sink) {
  for (const LocalCopy& c : round.copies) {
    if (c.after_posts) {
      sink.copy_after_posts(c.from, c.to);
    } else {
      sink.copy(c.from, c.to);
    }
  }
  for (const Transfer& t : round.sends) sink.send(t.peer, t.segments, t.overlap_rounds);
  for (const Transfer& t : round.recvs) sink.recv(t.peer, t.segments, t.overlap_rounds);
}

}  // namespace topocoll
