// liu: the grid and its peers, the even spreading, the header codec, and every rank's schedule
// proven by the verifier for random irregular sizes (zeros included) at every p from 1 to 64,
// with the start-ups each rank pays.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "algorithms/liu.hpp"
#include "algorithms/registry.hpp"
#include "schedule/statistics.hpp"
#include "schedule/verifier.hpp"

namespace topocoll {
namespace {

std::vector<std::vector<std::size_t>> random_sizes(int p, std::mt19937& rng, std::size_t most) {
  std::vector<std::vector<std::size_t>> bytes(static_cast<std::size_t>(p), std::vector<std::size_t>(p));
  for (auto& row : bytes)
    for (auto& b : row) b = rng() % 4 == 0 ? 0 : rng() % (most + 1);  // a quarter of the blocks empty
  return bytes;
}

TEST(LiuGrid, ArrangesEveryRankOnceNearASquare) {
  EXPECT_EQ(LiuGrid(64).columns, 8);
  EXPECT_EQ(LiuGrid(64).rows, 8);
  EXPECT_EQ(LiuGrid(12).columns, 4);  // 3 x 4
  EXPECT_EQ(LiuGrid(10).columns, 5);  // 2 x 5: a divisor close above sqrt(10)
  EXPECT_EQ(LiuGrid(7).columns, 3);   // prime: 3 + 3 + a short row of 1
  EXPECT_EQ(LiuGrid(7).short_row_length(), 1);
  for (int p = 1; p <= 200; ++p) {
    const LiuGrid grid(p);
    EXPECT_GE(grid.rows * grid.columns, p);
    EXPECT_LT((grid.rows - 1) * grid.columns, p) << "an empty row at p=" << p;
    int square = 1;
    while (square * square < p) ++square;
    EXPECT_LE(grid.rows + grid.columns, 2 * square + 1) << "far from square at p=" << p;
  }
}

TEST(LiuGrid, WhoSendsToWhomIsWhoExpectsFromWhom) {
  for (int p = 1; p <= 64; ++p) {
    const LiuGrid grid(p);
    for (int stage = 0; stage < kLiuStages; ++stage) {
      std::set<std::pair<int, int>> sends, recvs;
      for (int r = 0; r < p; ++r) {
        for (int peer : grid.send_peers(stage, r)) {
          EXPECT_NE(peer, r);
          EXPECT_TRUE(sends.insert({r, peer}).second) << "twice to one peer";
        }
        for (int peer : grid.recv_peers(stage, r)) recvs.insert({peer, r});
      }
      EXPECT_EQ(sends, recvs) << "p=" << p << " stage " << stage;
    }
  }
}

TEST(LiuSpread, BlocksLargerThanAPartAreCutEvenly) {
  const int p = 8;
  std::vector<std::size_t> sizes(p, 0);
  sizes[3] = 7000;  // one block, eight parts long: cut into p parts of 875 bytes
  std::vector<std::size_t> through(p, 0);
  for (const LiuPiece& piece : liu_spread(LiuGrid(p), 0, sizes)) through[piece.via] += piece.length;
  for (std::size_t bytes : through) EXPECT_EQ(bytes, 875u);
}

TEST(LiuSpread, SmallBlocksTravelWhole) {
  const int p = 64;
  std::vector<std::size_t> sizes(p, 16);
  EXPECT_EQ(liu_spread(LiuGrid(p), 5, sizes).size(), 63u) << "one piece per block";
}

TEST(LiuSpread, CutsTheOutgoingDataIntoEqualPartsOneThroughEachRank) {
  std::mt19937 rng(5);
  for (int p : {1, 2, 7, 16, 33}) {
    const LiuGrid grid(p);
    const auto sizes = random_sizes(p, rng, 1000);
    for (int rank = 0; rank < p; ++rank) {
      std::size_t total = 0;
      for (int d = 0; d < p; ++d)
        if (d != rank) total += sizes[rank][d];
      std::vector<std::size_t> through(static_cast<std::size_t>(p), 0);
      std::map<int, std::size_t> per_block;
      for (const LiuPiece& piece : liu_spread(grid, rank, sizes[rank])) {
        EXPECT_EQ(piece.src, rank);
        EXPECT_NE(piece.dst, rank) << "the own block is a local copy";
        EXPECT_GT(piece.length, 0u);
        EXPECT_EQ(piece.offset, per_block[piece.dst]) << "pieces of a block in order, no gap";
        per_block[piece.dst] += piece.length;
        through[static_cast<std::size_t>(piece.via)] += piece.length;
      }
      for (int d = 0; d < p; ++d)
        if (d != rank) {
          EXPECT_EQ(per_block[d], sizes[rank][d]);
        }
      // Each part its share, plus at most one whole block no longer than two shares.
      const std::size_t share = (total + static_cast<std::size_t>(p) - 1) / static_cast<std::size_t>(p);
      for (std::size_t bytes : through) EXPECT_LE(bytes, 3 * share) << "p=" << p << " rank " << rank;
    }
  }
}

TEST(LiuHeader, RoundTripsAndRejectsWhatDoesNotAddUp) {
  const std::vector<LiuPiece> pieces = {{3, 1, 2, 0, 5}, {0, 4, 4, 1u << 20, 2}};
  const std::size_t bytes = liu_header_bytes(pieces.size()) + 7;
  std::vector<std::byte> message(bytes);
  liu_write_header(pieces, bytes, message.data());
  EXPECT_EQ(liu_message_bytes(message.data()), bytes);
  std::vector<LiuPiece> read;
  std::string why;
  ASSERT_TRUE(liu_read_header(message.data(), bytes, 5, read, why)) << why;
  EXPECT_EQ(read, pieces);
  EXPECT_FALSE(liu_read_header(message.data(), bytes - 1, 5, read, why));  // length not its own
  EXPECT_FALSE(liu_read_header(message.data(), bytes, 4, read, why));      // rank 4 of 4
  EXPECT_NE(why.find("outside the communicator"), std::string::npos) << why;
  liu_write_header(pieces, bytes + 1, message.data());
  message.push_back(std::byte{0});
  EXPECT_FALSE(liu_read_header(message.data(), bytes + 1, 5, read, why));  // pieces do not fill it
}

TEST(LiuSchedule, ProvenForRandomIrregularSizesAtEveryPUpTo64) {
  std::mt19937 rng(15);
  const Algorithm& liu = *find_algorithm(Operation::alltoallv, "liu");
  for (int p = 1; p <= 64; ++p) {
    // Small blocks, and at a few p blocks large enough that messages come in two parts.
    const std::size_t most = p % 16 == 5 ? 3000 : 9;
    const KnownBlocks blocks(random_sizes(p, rng, most), p % 3);
    const Problem problem{p, 0, nullptr, {}, &blocks, Operation::alltoallv};
    const Verdict verdict = verify(build_full_schedule(liu, problem), blocks);
    EXPECT_TRUE(verdict.ok) << "p=" << p << ": " << verdict.summary();
  }
}

TEST(LiuSchedule, StartsAbout2RowsPlus2ColumnsMessagesPerRank) {
  const Algorithm& liu = *find_algorithm(Operation::alltoallv, "liu");
  for (int p : {16, 64, 144}) {
    const UniformBlocks blocks(8);
    const Problem problem{p, 8, nullptr, {}, &blocks, Operation::alltoallv};
    const Schedule schedule = build_full_schedule(liu, problem);
    const LiuGrid grid(p);
    for (int r = 0; r < p; ++r) {
      std::size_t sends = 0;
      for (const Round& round : schedule.ranks[r].rounds) sends += round.sends.size();
      EXPECT_EQ(sends, static_cast<std::size_t>(2 * (grid.rows - 1) + 2 * (grid.columns - 1))) << "p=" << p;
    }
    EXPECT_TRUE(verify(schedule, blocks).ok);
  }
}

}  // namespace
}  // namespace topocoll
