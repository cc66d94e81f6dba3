// What auto knows of an irregular all-to-all's traffic without any rank holding the p x p
// counts: a summary every rank contributes its own row and column to, combined over two stages
// of point-to-point messages (summary_routes below; exec/traffic_summary_exchange.hpp), and the
// shape auto prices it as.
//
// The shape is a stand-in that every rank can build alike from the summary alone, cheap to
// describe (O(1) per block) and rounded so that calls of nearly the same traffic share one
// choice: k non-empty blocks per row, spread evenly over the ranks (row i sends to
// i + floor(t p / k), t < k, so that ordinary traffic crosses the topology's levels in
// proportion); the busiest sender's row and the busiest receiver's column carry their measured
// loads (where the hot sender's row meets the hot receiver's column, the block is the
// receiver's typical block and the sender's other blocks carry the rest of its load); every
// other non-empty block the rest of the traffic, alike. The busiest ranks are placed at the first
// rank of their outermost topology group (the model tells ranks apart by level only, and a
// representative keeps the choice shared by calls whose hot rank moves inside a group).
// Rounding: loads and k to the nearest power of 2^(1/4) (within 9%).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schedule/block_map.hpp"
#include "topology/topology.hpp"

namespace topocoll {

struct TrafficSummary {
  std::uint64_t total_bytes = 0;         // sent by all ranks (the self blocks included)
  std::uint64_t nonempty_blocks = 0;     // blocks of at least one byte (the self blocks included)
  std::uint64_t most_sent = 0;           // the most bytes one rank sends
  std::uint64_t most_sent_rank = 0;      // the lowest rank sending that many
  std::uint64_t most_received = 0;       // the most bytes one rank receives
  std::uint64_t most_received_rank = 0;  // the lowest rank receiving that many

  // One rank's part: the bytes of its blocks to each rank and from each rank.
  static TrafficSummary of_rank(int rank, std::span<const std::size_t> sent, std::span<const std::size_t> received);

  // The summary as words for a reduction (kWords unsigned 64-bit integers) and back.
  static constexpr int kWords = 6;
  std::array<std::uint64_t, kWords> words() const;
  static TrafficSummary from_words(const std::uint64_t* words);
};

// The summary of the ranks of a and b together: sums and maxima (ties: the lower rank), so the
// combination is associative and commutative and every rank ends with the same summary.
TrafficSummary combine(const TrafficSummary& a, const TrafficSummary& b);

// Who tells whom their summaries (exec/traffic_summary_exchange.hpp), in two stages over rows
// of about sqrt(p) consecutive ranks (ceil(p / ceil(sqrt(p))) rows, their lengths differing by
// at most one). Stage 1:
// each rank swaps its own summary with the other members of its row. Stage 2: each rank
// receives every other row's summary from one member of that row (the one in its own column,
// modulo that row's length) and sends its row's to the ranks that take it from it. At most
// about 3 sqrt(p) messages a rank, none waiting for another of its stage.
struct SummaryRoutes {
  std::vector<int> row_peers;          // stage 1: send to and receive from each
  std::vector<int> row_sources;        // stage 2: one per other row, in row order
  std::vector<int> row_destinations;   // stage 2: the ranks this rank's row summary goes to
};
SummaryRoutes summary_routes(int rank, int size);

struct TrafficShape {
  int size = 1;
  std::size_t average_block_bytes = 0;  // the rounded total over p^2 blocks (the decision table's key)
  int blocks_per_row = 1;               // k: non-empty blocks per row (and per column)
  std::size_t block_bytes = 0;          // each ordinary non-empty block
  int hot_sender = 0;                   // its k blocks: hot_sender_bytes each
  std::size_t hot_sender_bytes = 0;
  int hot_receiver = 0;                 // its k blocks (outside the hot sender's row): hot_receiver_bytes each
  std::size_t hot_receiver_bytes = 0;
  std::size_t hot_pair_bytes = 0;       // the hot sender's block to the hot receiver, where it has one
  // A text that differs whenever the shape does (auto's cache key).
  std::string key() const;
};

// Nullopt when the traffic is even enough (no rank sends or receives more than 1.25 times the
// average row, and at least 3/4 of the blocks are non-empty) that the uniform stand-in, the
// average block, describes it; or when there are fewer than three ranks.
std::optional<TrafficShape> skewed_shape(const TrafficSummary& summary, int size, const Topology* topology);

// The shape's blocks. Block d lies at d * (largest block) in both buffers: a layout with gaps,
// valid for MPI_Alltoallv, whose places cost O(1) (the stand-in is priced, never run).
class TrafficStandIn final : public BlockMap {
 public:
  explicit TrafficStandIn(const TrafficShape& shape);
  std::size_t bytes(int src, int dst) const override;
  std::size_t send_offset(int, int dst) const override { return static_cast<std::size_t>(dst) * slot_; }
  std::size_t recv_offset(int, int src) const override { return static_cast<std::size_t>(src) * slot_; }
  // Whether block src -> dst is one of row src's k: at distance floor(t p / k), t < k.
  static bool nonempty(int src, int dst, int size, int blocks_per_row);

 private:
  TrafficShape shape_;
  std::size_t slot_ = 0;
};

}  // namespace topocoll
