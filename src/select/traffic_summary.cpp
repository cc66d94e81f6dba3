#include "select/traffic_summary.hpp"

#include <algorithm>
#include <cmath>

namespace topocoll {

namespace {

// Keeps the larger load, and on a tie the lower rank, so that the order of combining is moot.
void keep_larger(std::uint64_t& load, std::uint64_t& rank, std::uint64_t other_load, std::uint64_t other_rank) {
  if (other_load > load || (other_load == load && other_rank < rank)) {
    load = other_load;
    rank = other_rank;
  }
}

// The nearest power of 2^(1/4).
double rounded(double x) { return x <= 0.0 ? 0.0 : std::exp2(std::round(4.0 * std::log2(x)) / 4.0); }

// The first rank of `rank`'s outermost group: where the model sees the same links.
int representative(int rank, int size, const Topology* topology) {
  if (topology == nullptr || topology->size() != size || topology->level_count() == 0) return rank;
  const int group = topology->group(rank, 0);
  for (int r = 0; r < size; ++r)
    if (topology->group(r, 0) == group) return r;
  return rank;
}

}  // namespace

TrafficSummary TrafficSummary::of_rank(int rank, std::span<const std::size_t> sent,
                                       std::span<const std::size_t> received) {
  TrafficSummary s;
  for (std::size_t bytes : sent) {
    s.most_sent += bytes;
    s.nonempty_blocks += bytes > 0 ? 1 : 0;
  }
  for (std::size_t bytes : received) s.most_received += bytes;
  s.total_bytes = s.most_sent;
  s.most_sent_rank = s.most_received_rank = static_cast<std::uint64_t>(rank);
  return s;
}

std::array<std::uint64_t, TrafficSummary::kWords> TrafficSummary::words() const {
  return {total_bytes, nonempty_blocks, most_sent, most_sent_rank, most_received, most_received_rank};
}

TrafficSummary TrafficSummary::from_words(const std::uint64_t* w) {
  return {w[0], w[1], w[2], w[3], w[4], w[5]};
}

TrafficSummary combine(const TrafficSummary& a, const TrafficSummary& b) {
  TrafficSummary c = a;
  c.total_bytes += b.total_bytes;
  c.nonempty_blocks += b.nonempty_blocks;
  keep_larger(c.most_sent, c.most_sent_rank, b.most_sent, b.most_sent_rank);
  keep_larger(c.most_received, c.most_received_rank, b.most_received, b.most_received_rank);
  return c;
}

SummaryRoutes summary_routes(int rank, int size) {
  // r = ceil(p / ceil(sqrt(p))) rows of p / r or p / r + 1 consecutive ranks (the longer first),
  // so that no row is much shorter than another: a member of a short row sends its row's summary
  // to at most two ranks of each other row.
  int columns = 1;
  while (columns * columns < size) ++columns;
  const int rows = (size + columns - 1) / columns, base = size / rows, longer = size % rows;
  const auto start = [&](int row) { return row * base + std::min(row, longer); };
  const auto length = [&](int row) { return base + (row < longer ? 1 : 0); };
  int row = 0;
  while (row + 1 < rows && start(row + 1) <= rank) ++row;
  const int column = rank - start(row);
  SummaryRoutes routes;
  for (int j = 0; j < length(row); ++j)
    if (j != column) routes.row_peers.push_back(start(row) + j);
  for (int other = 0; other < rows; ++other) {
    if (other == row) continue;
    routes.row_sources.push_back(start(other) + column % length(other));
    for (int j = 0; j < length(other); ++j)  // those of `other` that take row's summary from rank
      if (j % length(row) == column) routes.row_destinations.push_back(start(other) + j);
  }
  return routes;
}

std::string TrafficShape::key() const {
  return "average=" + std::to_string(average_block_bytes) + " k=" + std::to_string(blocks_per_row) + " pair=" +
         std::to_string(hot_pair_bytes) + " b=" + std::to_string(block_bytes) + " sender=" +
         std::to_string(hot_sender) + ":" + std::to_string(hot_sender_bytes) + " receiver=" +
         std::to_string(hot_receiver) + ":" + std::to_string(hot_receiver_bytes);
}

std::optional<TrafficShape> skewed_shape(const TrafficSummary& summary, int size, const Topology* topology) {
  if (size < 3 || summary.total_bytes == 0) return std::nullopt;
  const double p = size;
  const double row = static_cast<double>(summary.total_bytes) / p;
  const bool hot = static_cast<double>(summary.most_sent) > 1.25 * row ||
                   static_cast<double>(summary.most_received) > 1.25 * row;
  const bool sparse = 4.0 * static_cast<double>(summary.nonempty_blocks) < 3.0 * p * p;
  if (!hot && !sparse) return std::nullopt;

  TrafficShape shape;
  shape.size = size;
  shape.average_block_bytes = static_cast<std::size_t>(std::ceil(rounded(row) / p));
  const double k =
      sparse ? std::clamp(std::round(rounded(static_cast<double>(summary.nonempty_blocks) / p)), 1.0, p) : p;
  shape.blocks_per_row = static_cast<int>(k);
  shape.hot_sender = representative(static_cast<int>(summary.most_sent_rank), size, topology);
  shape.hot_receiver = representative(static_cast<int>(summary.most_received_rank), size, topology);
  const double total = rounded(row) * p;
  const double sent = rounded(std::max(static_cast<double>(summary.most_sent), row));
  const double received = rounded(std::max(static_cast<double>(summary.most_received), row));
  double rest = total - sent - received, ordinary_blocks = p * k - 2.0 * k;
  if (TrafficStandIn::nonempty(shape.hot_sender, shape.hot_receiver, size, shape.blocks_per_row)) {
    // The two loads share a block: the receiver's typical one (at most all the sender sends).
    const double shared = std::min(sent, received / k);
    shape.hot_pair_bytes = static_cast<std::size_t>(std::ceil(shared));
    shape.hot_sender_bytes = k > 1 ? static_cast<std::size_t>(std::ceil((sent - shared) / (k - 1))) : 0;
    shape.hot_receiver_bytes = k > 1 ? static_cast<std::size_t>(std::ceil((received - shared) / (k - 1))) : 0;
    rest += shared;
    ordinary_blocks += 1.0;
  } else {
    shape.hot_sender_bytes = static_cast<std::size_t>(std::ceil(sent / k));
    shape.hot_receiver_bytes = static_cast<std::size_t>(std::ceil(received / k));
  }
  shape.block_bytes = static_cast<std::size_t>(std::round(std::max(0.0, rest) / std::max(1.0, ordinary_blocks)));
  return shape;
}

TrafficStandIn::TrafficStandIn(const TrafficShape& shape)
    : shape_(shape),
      slot_(std::max({shape.block_bytes, shape.hot_sender_bytes, shape.hot_receiver_bytes, shape.hot_pair_bytes})) {}

bool TrafficStandIn::nonempty(int src, int dst, int size, int blocks_per_row) {
  const auto p = static_cast<std::uint64_t>(size);
  const auto k = static_cast<std::uint64_t>(blocks_per_row);
  const auto distance = static_cast<std::uint64_t>((dst - src + size) % size);
  if (k >= p) return true;
  const std::uint64_t t = (distance * k + p - 1) / p;  // the first t with floor(t p / k) >= distance
  return t < k && t * p / k == distance;
}

std::size_t TrafficStandIn::bytes(int src, int dst) const {
  if (!nonempty(src, dst, shape_.size, shape_.blocks_per_row)) return 0;
  if (src == shape_.hot_sender && dst == shape_.hot_receiver) return shape_.hot_pair_bytes;
  if (src == shape_.hot_sender) return shape_.hot_sender_bytes;
  if (dst == shape_.hot_receiver) return shape_.hot_receiver_bytes;
  return shape_.block_bytes;
}

}  // namespace topocoll
