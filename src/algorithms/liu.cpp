#include "algorithms/liu.hpp"

#include <cmath>
#include <cstring>
#include <numeric>

namespace topocoll {

namespace {

int ceil_sqrt(int p) {
  int c = static_cast<int>(std::sqrt(static_cast<double>(p)));
  while (c * c < p) ++c;
  while (c > 1 && (c - 1) * (c - 1) >= p) --c;
  return c;
}

// Groups of rows + columns ranks: a grid whose columns divide p (no short row) when its rows +
// columns is at most one more than the square grid's (which has a short last row).
int grid_columns(int p) {
  const int square = ceil_sqrt(p);
  for (int c = square; c + (p + c - 1) / c <= 2 * square + 1; ++c) {
    if (p % c == 0) return c;
  }
  return square;
}

constexpr std::size_t kHeadBytes = 16;   // message bytes, piece count
constexpr std::size_t kPieceBytes = 32;  // src, dst, via, unused, offset, length

void put_u64(std::byte* at, std::uint64_t value) { std::memcpy(at, &value, sizeof value); }
void put_u32(std::byte* at, std::uint32_t value) { std::memcpy(at, &value, sizeof value); }
std::uint64_t get_u64(const std::byte* at) {
  std::uint64_t value = 0;
  std::memcpy(&value, at, sizeof value);
  return value;
}
std::uint32_t get_u32(const std::byte* at) {
  std::uint32_t value = 0;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// First byte of part k of a stream of `total` bytes cut into p equal parts.
// floor(total * k / p) without overflow: (total mod p) * k < p^2 fits in 64 bits.
std::uint64_t part_start(std::uint64_t total, int k, int p) {
  const auto kk = static_cast<std::uint64_t>(k), pp = static_cast<std::uint64_t>(p);
  return total / pp * kk + total % pp * kk / pp;
}

}  // namespace

LiuGrid::LiuGrid(int p) : size(p < 1 ? 1 : p), columns(grid_columns(p < 1 ? 1 : p)) {
  rows = (size + columns - 1) / columns;
}

int LiuGrid::corner(int holder, int target) const {
  if (exists(row(holder), column(target))) return row(holder) * columns + column(target);
  return row(target) * columns + column(holder);
}

// Stages 0 and 2 take the first hop (along rows), 1 and 3 the second (along columns). In a grid
// with a short last row, the pieces that take the other corner (corner()) add: in first-hop
// stages, the short row's ranks send up their columns; in second-hop stages, ranks of the
// columns the short row has send along their rows to the columns it lacks.
std::vector<int> LiuGrid::send_peers(int stage, int rank) const {
  const int i = row(rank), j = column(rank), last = short_row_length();
  std::vector<int> peers;
  if (stage % 2 == 0) {
    for (int b = 0; b < columns; ++b)
      if (b != j && exists(i, b)) peers.push_back(i * columns + b);
    if (last != 0 && i == rows - 1) {
      for (int a = 0; a < rows - 1; ++a) peers.push_back(a * columns + j);
    }
  } else {
    for (int a = 0; a < rows; ++a)
      if (a != i && exists(a, j)) peers.push_back(a * columns + j);
    if (last != 0 && i < rows - 1 && j < last) {
      for (int b = last; b < columns; ++b) peers.push_back(i * columns + b);
    }
  }
  return peers;
}

std::vector<int> LiuGrid::recv_peers(int stage, int rank) const {
  const int i = row(rank), j = column(rank), last = short_row_length();
  std::vector<int> peers;
  if (stage % 2 == 0) {
    for (int b = 0; b < columns; ++b)
      if (b != j && exists(i, b)) peers.push_back(i * columns + b);
    if (last != 0 && i < rows - 1 && j < last) peers.push_back((rows - 1) * columns + j);
  } else {
    for (int a = 0; a < rows; ++a)
      if (a != i && exists(a, j)) peers.push_back(a * columns + j);
    if (last != 0 && j >= last) {
      for (int b = 0; b < last; ++b) peers.push_back(i * columns + b);
    }
  }
  return peers;
}

std::vector<LiuPiece> liu_spread(const LiuGrid& grid, int rank, std::span<const std::size_t> send_bytes) {
  const int p = grid.size;
  std::uint64_t total = 0;
  for (int d = 0; d < p; ++d)
    if (d != rank) total += send_bytes[static_cast<std::size_t>(d)];
  const std::uint64_t part_size = (total + static_cast<std::uint64_t>(p) - 1) / static_cast<std::uint64_t>(p);
  std::vector<LiuPiece> pieces;
  std::uint64_t block_start = 0;  // where the current block begins in the stream
  int part = 0;
  const auto advance_to = [&](std::uint64_t at) {
    while (part + 1 < p && part_start(total, part + 1, p) <= at) ++part;
  };
  for (int d = 0; d < p; ++d) {
    const std::uint64_t length = send_bytes[static_cast<std::size_t>(d)];
    if (d == rank || length == 0) continue;
    const std::uint64_t block_end = block_start + length;
    advance_to(block_start);
    if (length <= 2 * part_size) {
      // A block up to two parts long goes whole, with the part where it starts: one header entry
      // instead of two or three (uniform blocks are a little longer than a part), and no part
      // carries more than three times its share.
      pieces.push_back({rank, d, part, 0, length});
    } else {
      for (std::uint64_t at = block_start; at < block_end; advance_to(at)) {
        const std::uint64_t part_end = part + 1 < p ? part_start(total, part + 1, p) : total;
        const std::uint64_t end = std::min(block_end, part_end);
        pieces.push_back({rank, d, part, at - block_start, end - at});
        at = end;
      }
    }
    block_start = block_end;
  }
  return pieces;
}

int liu_next_hop(const LiuGrid& grid, int stage, int holder, const LiuPiece& piece) {
  switch (stage) {
    case 0: return grid.corner(holder, piece.via);
    case 1: return piece.via;
    case 2: return grid.corner(holder, piece.dst);
    default: return piece.dst;
  }
}

std::size_t liu_header_bytes(std::size_t pieces) { return kHeadBytes + kPieceBytes * pieces; }

void liu_write_header(std::span<const LiuPiece> pieces, std::size_t message_bytes, std::byte* out) {
  put_u64(out, message_bytes);
  put_u64(out + 8, pieces.size());
  std::byte* at = out + kHeadBytes;
  for (const LiuPiece& piece : pieces) {
    put_u32(at, static_cast<std::uint32_t>(piece.src));
    put_u32(at + 4, static_cast<std::uint32_t>(piece.dst));
    put_u32(at + 8, static_cast<std::uint32_t>(piece.via));
    put_u32(at + 12, 0);
    put_u64(at + 16, piece.offset);
    put_u64(at + 24, piece.length);
    at += kPieceBytes;
  }
}

std::uint64_t liu_message_bytes(const std::byte* header) { return get_u64(header); }

bool liu_read_header(const std::byte* message, std::size_t bytes, int size, std::vector<LiuPiece>& pieces,
                     std::string& why) {
  pieces.clear();
  if (bytes < kHeadBytes || get_u64(message) != bytes) {
    why = "a message of " + std::to_string(bytes) + " bytes does not announce its own length";
    return false;
  }
  const std::uint64_t count = get_u64(message + 8);
  if (count > (bytes - kHeadBytes) / kPieceBytes) {
    why = "a message of " + std::to_string(bytes) + " bytes announces " + std::to_string(count) + " pieces";
    return false;
  }
  std::uint64_t payload = 0;
  const std::byte* at = message + kHeadBytes;
  for (std::uint64_t n = 0; n < count; ++n, at += kPieceBytes) {
    const LiuPiece piece{static_cast<std::int32_t>(get_u32(at)), static_cast<std::int32_t>(get_u32(at + 4)),
                         static_cast<std::int32_t>(get_u32(at + 8)), get_u64(at + 16), get_u64(at + 24)};
    const auto unsigned_size = static_cast<std::uint32_t>(size);
    if (get_u32(at) >= unsigned_size || get_u32(at + 4) >= unsigned_size || get_u32(at + 8) >= unsigned_size ||
        piece.length > bytes) {
      why = "piece " + std::to_string(n) + " of a message names a rank outside the communicator or too many bytes";
      return false;
    }
    payload += piece.length;
    pieces.push_back(piece);
  }
  if (liu_header_bytes(count) + payload != bytes) {
    why = "a message of " + std::to_string(bytes) + " bytes carries pieces of " + std::to_string(payload) +
          " bytes after its header";
    return false;
  }
  return true;
}

}  // namespace topocoll
