// The verifier must be able to fail: each test breaks a correct schedule in one way and
// expects the verifier to name the problem.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

Schedule correct(std::string_view name, int p = 4, std::size_t b = 2) {
  return build_full_schedule(*find_algorithm(Operation::alltoall, name), Problem{p, b, nullptr, {}});
}

void expect_rejected(const Schedule& s, const std::string& needle) {
  const Verdict verdict = verify(s);
  ASSERT_FALSE(verdict.ok) << "expected a failure mentioning '" << needle << "'";
  EXPECT_NE(verdict.summary().find(needle), std::string::npos) << verdict.summary();
}

TEST(VerifierRejects, MissingReceive) {
  Schedule s = correct("shift");
  s.ranks[1].rounds[0].recvs.clear();
  expect_rejected(s, "no matching receive");
}

TEST(VerifierRejects, MissingSend) {
  Schedule s = correct("shift");
  s.ranks[2].rounds[1].sends.clear();
  expect_rejected(s, "no matching send");
}

TEST(VerifierRejects, SizeMismatch) {
  Schedule s = correct("pairwise");
  s.ranks[0].rounds[0].recvs[0].segments[0].length = 1;
  expect_rejected(s, "meets a receive of 1 bytes");
}

TEST(VerifierRejects, ReceiveInAnotherRound) {
  Schedule s = correct("shift");
  std::swap(s.ranks[3].rounds[0].recvs, s.ranks[3].rounds[1].recvs);
  expect_rejected(s, "no matching");
}

TEST(VerifierRejects, WrongPlace) {
  Schedule s = correct("direct");
  // Rank 0 stores the block from rank 3 where the block from rank 2 belongs.
  for (Transfer& r : s.ranks[0].rounds[0].recvs) {
    if (r.peer == 3) r.segments[0].offset = 2 * 2;
    else if (r.peer == 2) r.segments[0].offset = 3 * 2;
  }
  expect_rejected(s, "expected byte 0 of block 2->0");
}

TEST(VerifierRejects, DuplicateDelivery) {
  Schedule s = correct("direct");
  s.ranks[1].rounds[0].copies.push_back(s.ranks[1].rounds[0].copies[0]);
  expect_rejected(s, "written 2 times");
}

// A copy after the posts runs while the round's transfers are in flight: direct's own-block
// copy may move there, but not one that fills a block a receive of the round fills, nor one
// that writes what a send of the round reads.
TEST(VerifierRejects, CopyAfterThePostsTouchingTheRoundsTransfers) {
  Schedule s = correct("direct");
  s.ranks[1].rounds[0].copies[0].after_posts = true;
  EXPECT_TRUE(verify(s).ok) << verify(s).summary();

  Schedule into_receive = s;
  into_receive.ranks[1].rounds[0].copies.push_back({Segment{BufferKind::send, 0, 2}, Segment{BufferKind::recv, 0, 2}, true});
  expect_rejected(into_receive, "touches bytes a receive of the round fills");

  Schedule over_send = correct("direct");
  Round& round = over_send.ranks[1].rounds[0];
  round.sends[0].segments[0] = Segment{BufferKind::recv, 2, 2};  // its own block, copied before
  round.copies.push_back({Segment{BufferKind::send, 0, 2}, Segment{BufferKind::recv, 2, 2}, true});
  expect_rejected(over_send, "writes bytes a send of the round reads");
}

TEST(VerifierRejects, MissingOwnBlock) {
  Schedule s = correct("pairwise");
  s.ranks[2].rounds[0].copies.clear();
  expect_rejected(s, "written 0 times");
}

TEST(VerifierRejects, OutOfBounds) {
  Schedule s = correct("direct");
  s.ranks[0].rounds[0].sends[0].segments[0].offset = 7;
  s.ranks[1].rounds[0].recvs[2].segments[0].offset = 100;
  expect_rejected(s, "outside the");
}

TEST(VerifierRejects, WritingTheSendBuffer) {
  Schedule s = correct("shift");
  s.ranks[0].rounds[0].copies.push_back({recv_block(0, 2), send_block(1, 2)});
  expect_rejected(s, "writes the caller's send buffer");
}

TEST(VerifierRejects, ReceiveOverlappingSendOfSameRound) {
  Schedule s = correct("bruck", 8, 2);
  // Make rank 0 receive round 1 into the scratch slot it sends from in that round.
  Round& round = s.ranks[0].rounds[1];
  ASSERT_FALSE(round.sends[0].segments.empty());
  Segment sent = round.sends[0].segments[0];
  sent.buffer = BufferKind::scratch;
  round.sends[0].segments[0] = sent;
  round.recvs[0].segments[0] = sent;
  expect_rejected(s, "overlaps");
}

TEST(VerifierRejects, ReadingUnwrittenScratch) {
  Schedule s = correct("shift");
  s.ranks[0].scratch_bytes = 2;
  s.ranks[0].rounds[0].sends[0].segments[0] = scratch_range(0, 2);
  expect_rejected(s, "nothing has written");
}

// Two messages to one peer in one round match the peer's receives in order: a second send
// without a second receive, or halves received in the wrong sizes, are caught.
TEST(VerifierRejects, TwoMessagesToOnePeerInOneRound) {
  Schedule s = correct("pairwise", 2, 2);
  s.ranks[0].rounds[0].sends.push_back(s.ranks[0].rounds[0].sends[0]);
  expect_rejected(s, "no matching receive");

  Schedule halves = correct("pairwise", 2, 4);  // rank 0 sends its block for 1 in two messages
  Transfer& send = halves.ranks[0].rounds[0].sends[0];
  Transfer& recv = halves.ranks[1].rounds[0].recvs[0];
  ASSERT_EQ(send.segments.size(), 1u);
  ASSERT_EQ(recv.segments.size(), 1u);
  Transfer second_send = send, second_recv = recv;
  send.segments[0].length = 1;
  second_send.segments[0].offset += 1;
  second_send.segments[0].length = 3;
  recv.segments[0].length = 1;
  second_recv.segments[0].offset += 1;
  second_recv.segments[0].length = 3;
  halves.ranks[0].rounds[0].sends.push_back(second_send);
  halves.ranks[1].rounds[0].recvs.push_back(second_recv);
  EXPECT_TRUE(verify(halves).ok) << verify(halves).summary();
  std::swap(halves.ranks[1].rounds[0].recvs[0], halves.ranks[1].rounds[0].recvs[1]);  // sizes 3, 1 against 1, 3
  expect_rejected(halves, "meets a receive of 3 bytes");
}

TEST(VerifierRejects, SelfMessage) {
  Schedule s = correct("shift");
  s.ranks[0].rounds[0].sends[0].peer = 0;
  expect_rejected(s, "to itself");
}

TEST(VerifierRejects, WrongRankCount) {
  Schedule s = correct("shift");
  s.ranks.pop_back();
  expect_rejected(s, "describes 3 ranks");
}

// p = 2, blocks of 2 bytes, two rounds: each rank's exchange is posted in round 0 and kept in
// flight through round 1 (overlap_rounds 1); rank 1 sends from scratch.
Schedule in_flight_exchange() {
  Schedule s{2, 2, std::vector<RankSchedule>(2)};
  for (int r = 0; r < 2; ++r) {
    RankSchedule& rs = s.ranks[r];
    rs.rounds.resize(2);
    rs.rounds[0].copies.push_back({send_block(r, 2), recv_block(r, 2)});
    rs.rounds[0].recvs.push_back({1 - r, {recv_block(1 - r, 2)}, 1});
    rs.rounds[0].sends.push_back({1 - r, {send_block(1 - r, 2)}, 1});
  }
  s.ranks[1].scratch_bytes = 2;
  s.ranks[1].rounds[0].copies.push_back({send_block(0, 2), scratch_range(0, 2)});
  s.ranks[1].rounds[0].sends[0].segments = {scratch_range(0, 2)};
  return s;
}

TEST(VerifierRejects, InFlightExchangeIsCorrectAsBuilt) {
  const Verdict verdict = verify(in_flight_exchange());
  EXPECT_TRUE(verdict.ok) << verdict.summary();
}

TEST(VerifierRejects, ReadingAReceiveStillInFlight) {
  Schedule s = in_flight_exchange();
  s.ranks[0].scratch_bytes = 2;
  s.ranks[0].rounds[1].copies.push_back({recv_block(1, 2), scratch_range(0, 2)});
  expect_rejected(s, "which a receive posted in an earlier round fills until the end of round 1");
}

TEST(VerifierRejects, OverwritingASendStillInFlight) {
  Schedule s = in_flight_exchange();
  s.ranks[1].rounds[1].copies.push_back({send_block(1, 2), scratch_range(0, 2)});
  expect_rejected(s, "which a send posted in an earlier round reads until the end of round 1");
}

TEST(VerifierRejects, InFlightPastTheLastRound) {
  Schedule s = in_flight_exchange();
  s.ranks[0].rounds[0].sends[0].overlap_rounds = 2;
  expect_rejected(s, "past the rank's last round 1");
}

TEST(VerifierRejects, InFlightDataLandsOnlyAtCompletion) {
  // Rank 0 forwards what it receives in flight back to rank 1 in round 1, before it has landed.
  Schedule s = in_flight_exchange();
  s.ranks[0].scratch_bytes = 2;
  s.ranks[0].rounds[0].recvs[0].segments = {scratch_range(0, 2)};
  s.ranks[0].rounds[1].sends.push_back({1, {scratch_range(0, 2)}});
  s.ranks[1].scratch_bytes = 4;
  s.ranks[1].rounds[1].recvs.push_back({0, {scratch_range(2, 2)}});
  expect_rejected(s, "fills until the end of round 1");
}

}  // namespace
}  // namespace topocoll
