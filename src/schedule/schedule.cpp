#include "schedule/schedule.hpp"

namespace topocoll {

std::string_view to_string(BufferKind kind) {
  switch (kind) {
    case BufferKind::send: return "send";
    case BufferKind::recv: return "recv";
    case BufferKind::scratch: return "scratch";
  }
  return "?";
}

std::size_t Transfer::bytes() const {
  std::size_t total = 0;
  for (const Segment& s : segments) total += s.length;
  return total;
}

}  // namespace topocoll
