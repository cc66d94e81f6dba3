// The EdgeColor procedure (Tam and Wang, Figure 1) checked exhaustively: every colour is a
// matching, every pair meets exactly once, and odd p idles exactly one rank per colour.
#include <gtest/gtest.h>

#include <vector>

#include "algorithms/edge_colouring.hpp"

namespace topocoll {
namespace {

void check_factorisation(int p, int (*partner)(int, int, int), int colours) {
  std::vector<int> meetings(static_cast<std::size_t>(p * p), 0);
  for (int c = 0; c < colours; ++c) {
    int idle = 0;
    for (int r = 0; r < p; ++r) {
      const int q = partner(c, r, p);
      if (q < 0) {
        ++idle;
        continue;
      }
      ASSERT_GE(q, 0);
      ASSERT_LT(q, p);
      ASSERT_NE(q, r) << "p=" << p << " colour " << c;
      ASSERT_EQ(partner(c, q, p), r) << "p=" << p << " colour " << c << ": not symmetric";
      ++meetings[r * p + q];
    }
    EXPECT_EQ(idle, p % 2) << "p=" << p << " colour " << c;
  }
  for (int a = 0; a < p; ++a)
    for (int b = 0; b < p; ++b) EXPECT_EQ(meetings[a * p + b], a == b ? 0 : 1) << "p=" << p << " pair " << a << "," << b;
}

TEST(EdgeColouring, IsAOneFactorisationForEveryPUpTo130) {
  for (int p = 2; p <= 130; ++p) check_factorisation(p, edge_colour_partner, edge_colour_count(p));
}

// edge_colour_of is the colour in which edge_colour_partner pairs two ranks, for every pair.
TEST(EdgeColouring, ColourOfAPairInvertsThePartner) {
  for (int p = 2; p <= 40; ++p) {
    int pairs = 0;
    for (int c = 0; c < edge_colour_count(p); ++c) {
      for (int r = 0; r < p; ++r) {
        const int partner = edge_colour_partner(c, r, p);
        if (partner < 0) continue;
        EXPECT_EQ(edge_colour_of(r, partner, p), c) << "p=" << p << " ranks " << r << ", " << partner;
        ++pairs;
      }
    }
    EXPECT_EQ(pairs, p * (p - 1)) << "p=" << p;  // every ordered pair once
  }
}

TEST(EdgeColouring, ColourCounts) {
  EXPECT_EQ(edge_colour_count(1), 0);
  EXPECT_EQ(edge_colour_count(2), 1);
  EXPECT_EQ(edge_colour_count(7), 7);
  EXPECT_EQ(edge_colour_count(8), 7);
}

TEST(PairwisePartner, XorForPowersOfTwoEdgeColouringOtherwise) {
  for (int p = 2; p <= 70; ++p) check_factorisation(p, pairwise_partner, pairwise_round_count(p));
  EXPECT_EQ(pairwise_partner(2, 5, 16), 5 ^ 3);
  EXPECT_EQ(pairwise_round_count(6), 5);
  EXPECT_EQ(pairwise_round_count(7), 7);
}

}  // namespace
}  // namespace topocoll
