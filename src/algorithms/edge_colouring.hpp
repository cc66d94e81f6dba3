// Partner tables for pairwise exchanges: a 1-factorisation of the complete graph on p ranks.
#pragma once

namespace topocoll {

// Tam and Wang's EdgeColor procedure (complete-exchange-on-clusters.txt, Figure 1): for even
// p, p-1 colours, each a perfect matching; for odd p, p colours, in each of which exactly one
// rank idles. Returns the partner of `rank` in `colour`, or -1 when it idles.
int edge_colour_partner(int colour, int rank, int p);
int edge_colour_count(int p);
// The colour in which ranks a and b (a != b, both below p) meet: the inverse of the above.
int edge_colour_of(int a, int b, int p);

// The pairwise partner of `rank` in round `round` (0-based): XOR pairing (partner
// rank ^ (round+1)) when p is a power of two, otherwise the edge colouring above.
// Returns -1 when the rank idles that round.
int pairwise_partner(int round, int rank, int p);
int pairwise_round_count(int p);

bool is_power_of_two(int p);

}  // namespace topocoll
