#include "algorithms/edge_colouring.hpp"

namespace topocoll {

bool is_power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

int edge_colour_count(int p) {
  if (p <= 1) return 0;
  return p % 2 == 1 ? p : p - 1;
}

int edge_colour_partner(int colour, int rank, int p) {
  if (p <= 1) return -1;
  const int chi = p % 2 == 1 ? p : p - 1;
  int v;
  if (rank < chi) {
    v = (colour + chi - rank) % chi;
  } else {
    // The extra rank (even p only) meets the rank v with 2v = colour (mod chi).
    v = colour % 2 == 1 ? ((colour + chi) / 2) % chi : colour / 2;
  }
  if (p % 2 == 1 && v == rank) return -1;
  if (v == rank) return chi;
  return v;
}

int edge_colour_of(int a, int b, int p) {
  const int chi = p % 2 == 1 ? p : p - 1;
  // Ranks below chi meet in colour a + b (mod chi); the extra rank meets v in colour 2v.
  if (a == chi) return (2 * b) % chi;
  if (b == chi) return (2 * a) % chi;
  return (a + b) % chi;
}

int pairwise_partner(int round, int rank, int p) {
  if (is_power_of_two(p)) return rank ^ (round + 1);
  return edge_colour_partner(round, rank, p);
}

int pairwise_round_count(int p) { return is_power_of_two(p) ? p - 1 : edge_colour_count(p); }

}  // namespace topocoll
