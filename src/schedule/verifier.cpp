#include "schedule/verifier.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

namespace topocoll {

namespace {

constexpr std::size_t kMaxErrors = 20;

// Every byte carries a label: 0 for "never written", otherwise 1 + its global index
// ((src * p + dst) * B + offset) in the conceptual p x p block matrix.
using Label = std::uint64_t;
// Metadata the library writes itself (RankSchedule::metadata): written, but no block's byte.
constexpr Label kMetadata = ~Label{0};

struct RankMemory {
  std::vector<Label> send, recv, scratch;
  std::vector<std::uint32_t> recv_writes;
  // Per buffer (index: BufferKind), per byte: the last round through which a transfer posted
  // in an earlier round still reads it (a send) or fills it (a receive); -1: none.
  std::array<std::vector<std::int64_t>, 3> read_until, fill_until;
};

// A receive kept in flight: its data lands at the end of its completion round.
struct PendingDelivery {
  int rank = 0;
  std::size_t posted = 0;
  const Transfer* recv = nullptr;
  std::vector<Label> payload;
};

class SymbolicRun {
 public:
  SymbolicRun(const Schedule& s, const BlockMap& blocks) : s_(s), p_(s.size), blocks_(blocks) {}

  Verdict run() {
    if (p_ < 1) return fail_now("schedule has no ranks");
    if (static_cast<int>(s_.ranks.size()) != p_) {
      return fail_now("schedule describes " + std::to_string(s_.ranks.size()) + " ranks, expected " +
                      std::to_string(p_));
    }
    init_memory();
    std::size_t rounds = 0;
    for (const RankSchedule& r : s_.ranks) rounds = std::max(rounds, r.rounds.size());
    for (std::size_t t = 0; t < rounds && verdict_.errors.size() < kMaxErrors; ++t) run_round(t);
    if (verdict_.ok) check_final();
    return verdict_;
  }

 private:
  Verdict fail_now(const std::string& why) {
    error(why);
    return verdict_;
  }

  void error(const std::string& why) {
    verdict_.ok = false;
    if (verdict_.errors.size() < kMaxErrors) verdict_.errors.push_back(why);
  }

  static std::string where(int rank, std::size_t round) {
    return "rank " + std::to_string(rank) + ", round " + std::to_string(round) + ": ";
  }

  static std::string describe(const Segment& seg) {
    std::ostringstream out;
    out << to_string(seg.buffer) << '[' << seg.offset << ',' << seg.offset + seg.length << ')';
    return out.str();
  }

  void init_memory() {
    base_.assign(static_cast<std::size_t>(p_) * p_ + 1, 0);
    for (int src = 0; src < p_; ++src)
      for (int dst = 0; dst < p_; ++dst) base_[src * p_ + dst + 1] = base_[src * p_ + dst] + blocks_.bytes(src, dst);
    memory_.resize(static_cast<std::size_t>(p_));
    for (int r = 0; r < p_; ++r) {
      RankMemory& m = memory_[r];
      std::size_t send_size = 0, recv_size = 0;
      for (int q = 0; q < p_; ++q) {
        send_size = std::max(send_size, blocks_.send_offset(r, q) + blocks_.bytes(r, q));
        recv_size = std::max(recv_size, blocks_.recv_offset(r, q) + blocks_.bytes(q, r));
      }
      m.send.assign(send_size, 0);
      for (int dst = 0; dst < p_; ++dst) {
        const std::size_t at = blocks_.send_offset(r, dst);
        for (std::size_t k = 0; k < blocks_.bytes(r, dst); ++k) m.send[at + k] = label(r, dst, k);
      }
      m.recv.assign(recv_size, 0);
      m.recv_writes.assign(recv_size, 0);
      m.scratch.assign(s_.ranks[r].scratch_bytes, 0);
      for (const Segment& seg : s_.ranks[r].metadata) {
        if (seg.buffer != BufferKind::scratch || seg.offset > m.scratch.size() ||
            seg.length > m.scratch.size() - seg.offset) {
          error("rank " + std::to_string(r) + ": metadata " + describe(seg) + " lies outside its scratch");
          continue;
        }
        std::fill_n(m.scratch.begin() + static_cast<std::ptrdiff_t>(seg.offset), seg.length, kMetadata);
      }
      for (BufferKind kind : {BufferKind::send, BufferKind::recv, BufferKind::scratch}) {
        const std::size_t size = buffer(r, kind)->size();
        m.read_until[static_cast<std::size_t>(kind)].assign(size, -1);
        m.fill_until[static_cast<std::size_t>(kind)].assign(size, -1);
      }
    }
  }

  Label label(int src, int dst, std::size_t offset) const { return 1 + base_[src * p_ + dst] + offset; }

  std::vector<Label>* buffer(int rank, BufferKind kind) {
    RankMemory& m = memory_[rank];
    switch (kind) {
      case BufferKind::send: return &m.send;
      case BufferKind::recv: return &m.recv;
      case BufferKind::scratch: return &m.scratch;
    }
    return nullptr;
  }

  bool in_bounds(int rank, std::size_t t, const Segment& seg) {
    const std::size_t size = buffer(rank, seg.buffer)->size();
    if (seg.offset > size || seg.length > size - seg.offset) {
      error(where(rank, t) + describe(seg) + " lies outside the " + std::string(to_string(seg.buffer)) +
            " buffer of " + std::to_string(size) + " bytes");
      return false;
    }
    return true;
  }

  bool readable(int rank, std::size_t t, const Segment& seg, const char* what) {
    if (!in_bounds(rank, t, seg)) return false;
    const auto& buf = *buffer(rank, seg.buffer);
    for (std::size_t k = 0; k < seg.length; ++k) {
      if (buf[seg.offset + k] == 0) {
        error(where(rank, t) + what + " reads " + describe(seg) + ", which holds bytes nothing has written");
        return false;
      }
    }
    return true;
  }

  bool writable(int rank, std::size_t t, const Segment& seg, const char* what) {
    if (seg.buffer == BufferKind::send) {
      error(where(rank, t) + what + " writes the caller's send buffer " + describe(seg));
      return false;
    }
    return in_bounds(rank, t, seg);
  }

  // Transfers kept in flight from earlier rounds: no one may touch the bytes a receive still
  // fills, nor write the bytes a send still reads. `seg` is in bounds.
  bool clear_of_receives(int rank, std::size_t t, const Segment& seg, const char* what) {
    const auto& fill = memory_[rank].fill_until[static_cast<std::size_t>(seg.buffer)];
    for (std::size_t k = 0; k < seg.length; ++k) {
      if (fill[seg.offset + k] >= static_cast<std::int64_t>(t)) {
        error(where(rank, t) + what + " touches " + describe(seg) + ", which a receive posted in an earlier round " +
              "fills until the end of round " + std::to_string(fill[seg.offset + k]));
        return false;
      }
    }
    return true;
  }

  bool clear_of_sends(int rank, std::size_t t, const Segment& seg, const char* what) {
    const auto& read = memory_[rank].read_until[static_cast<std::size_t>(seg.buffer)];
    for (std::size_t k = 0; k < seg.length; ++k) {
      if (read[seg.offset + k] >= static_cast<std::int64_t>(t)) {
        error(where(rank, t) + what + " writes " + describe(seg) + ", which a send posted in an earlier round " +
              "reads until the end of round " + std::to_string(read[seg.offset + k]));
        return false;
      }
    }
    return true;
  }

  // After round t's checks: its transfers with overlap_rounds > 0 lock their bytes.
  void lock_in_flight(int rank, std::size_t t, const Round& round) {
    RankMemory& m = memory_[rank];
    auto lock = [&](const Transfer& tr, auto& until) {
      if (tr.overlap_rounds == 0) return;
      const auto last = static_cast<std::int64_t>(t + tr.overlap_rounds);
      for (const Segment& seg : tr.segments) {
        auto& bytes = until[static_cast<std::size_t>(seg.buffer)];
        if (seg.offset > bytes.size() || seg.length > bytes.size() - seg.offset) continue;  // reported
        for (std::size_t k = 0; k < seg.length; ++k) bytes[seg.offset + k] = std::max(bytes[seg.offset + k], last);
      }
    };
    for (const Transfer& send : round.sends) lock(send, m.read_until);
    for (const Transfer& recv : round.recvs) lock(recv, m.fill_until);
  }

  // A transfer kept in flight must complete within its rank's rounds.
  bool completes_in_time(int rank, std::size_t t, const Transfer& tr, const char* what) {
    const std::size_t rounds = s_.ranks[rank].rounds.size();
    if (t + tr.overlap_rounds < rounds) return true;
    error(where(rank, t) + what + " with peer " + std::to_string(tr.peer) + " stays in flight " +
          std::to_string(tr.overlap_rounds) + " more rounds, past the rank's last round " + std::to_string(rounds - 1));
    return false;
  }

  void write(int rank, const Segment& seg, const Label* data) {
    auto& buf = *buffer(rank, seg.buffer);
    std::copy(data, data + seg.length, buf.begin() + static_cast<std::ptrdiff_t>(seg.offset));
    if (seg.buffer == BufferKind::recv) {
      auto& writes = memory_[rank].recv_writes;
      for (std::size_t k = 0; k < seg.length; ++k) ++writes[seg.offset + k];
    }
  }

  std::vector<Label> gather(int rank, const std::vector<Segment>& segments) {
    std::vector<Label> payload;
    for (const Segment& seg : segments) {
      const auto& buf = *buffer(rank, seg.buffer);
      payload.insert(payload.end(), buf.begin() + static_cast<std::ptrdiff_t>(seg.offset),
                     buf.begin() + static_cast<std::ptrdiff_t>(seg.offset + seg.length));
    }
    return payload;
  }

  // Whether a copy after the posts stays clear of the round's own transfers: it may not read
  // what a receive fills, nor write what a send reads or a receive fills.
  bool clear_of_round(int rank, std::size_t t, const Round& round, const LocalCopy& c) {
    const auto overlaps = [](const Segment& a, const Segment& b) {
      return a.buffer == b.buffer && a.length > 0 && b.length > 0 && a.offset < b.offset + b.length &&
             b.offset < a.offset + a.length;
    };
    const auto hits = [&](const std::vector<Transfer>& list, const Segment& seg) {
      for (const Transfer& tr : list)
        for (const Segment& x : tr.segments)
          if (overlaps(x, seg)) return true;
      return false;
    };
    const std::string copy = "copy after the posts from " + describe(c.from) + " to " + describe(c.to);
    if (hits(round.recvs, c.from) || hits(round.recvs, c.to)) {
      error(where(rank, t) + copy + " touches bytes a receive of the round fills");
      return false;
    }
    if (hits(round.sends, c.to)) {
      error(where(rank, t) + copy + " writes bytes a send of the round reads");
      return false;
    }
    return true;
  }

  // The round's copies that run before its posts, or (after_posts) those that run after.
  void run_copies(int rank, std::size_t t, const Round& round, bool after_posts) {
    for (const LocalCopy& c : round.copies) {
      if (c.after_posts != after_posts) continue;
      if (c.from.length != c.to.length) {
        error(where(rank, t) + "copy from " + describe(c.from) + " to " + describe(c.to) + " changes the length");
        continue;
      }
      if (!in_bounds(rank, t, c.from) || !clear_of_receives(rank, t, c.from, "copy") ||
          !readable(rank, t, c.from, "copy") || !writable(rank, t, c.to, "copy") ||
          !clear_of_receives(rank, t, c.to, "copy") || !clear_of_sends(rank, t, c.to, "copy") ||
          (after_posts && !clear_of_round(rank, t, round, c))) {
        continue;
      }
      const std::vector<Label> data = gather(rank, {c.from});
      write(rank, c.to, data.data());
    }
  }

  // Receives may not overlap each other nor any send of the same round. Sorted sweeps keep
  // this O(n log n): the direct algorithm has 2(p-1) transfers per round.
  void check_hazards(int rank, std::size_t t, const Round& round) {
    auto collect = [](const std::vector<Transfer>& list) {
      std::vector<Segment> out;
      for (const Transfer& tr : list)
        for (const Segment& seg : tr.segments)
          if (seg.length > 0) out.push_back(seg);
      std::sort(out.begin(), out.end(), [](const Segment& a, const Segment& b) {
        return std::pair(a.buffer, a.offset) < std::pair(b.buffer, b.offset);
      });
      return out;
    };
    const std::vector<Segment> recvs = collect(round.recvs);
    const std::vector<Segment> sends = collect(round.sends);
    for (std::size_t i = 1; i < recvs.size(); ++i) {
      const Segment& a = recvs[i - 1];
      const Segment& b = recvs[i];
      if (a.buffer == b.buffer && b.offset < a.offset + a.length) {
        error(where(rank, t) + "receive into " + describe(b) + " overlaps another receive " + describe(a));
      }
    }
    // For each receive, the sends of its buffer starting before its end: overlap iff one of
    // them ends after its start (prefix maximum of the ends).
    std::vector<std::size_t> max_end(sends.size());
    for (std::size_t i = 0; i < sends.size(); ++i) {
      const std::size_t end = sends[i].offset + sends[i].length;
      const bool same = i > 0 && sends[i - 1].buffer == sends[i].buffer;
      max_end[i] = same ? std::max(max_end[i - 1], end) : end;
    }
    for (const Segment& r : recvs) {
      auto after = std::lower_bound(sends.begin(), sends.end(), r, [&](const Segment& s, const Segment& x) {
        return std::pair(s.buffer, s.offset) < std::pair(x.buffer, x.offset + x.length);
      });
      if (after == sends.begin()) continue;
      const std::size_t last = static_cast<std::size_t>(after - sends.begin()) - 1;
      if (sends[last].buffer == r.buffer && max_end[last] > r.offset) {
        error(where(rank, t) + "receive into " + describe(r) + " overlaps a send of the same round");
      }
    }
  }

  // The k-th transfer with `peer` in `list` (0-based), or null.
  static const Transfer* kth_with(const std::vector<Transfer>& list, int peer, std::size_t k) {
    for (const Transfer& x : list) {
      if (x.peer == peer && k-- == 0) return &x;
    }
    return nullptr;
  }

  bool check_peers(int rank, std::size_t t, const std::vector<Transfer>& list, const char* what) {
    bool ok = true;
    for (const Transfer& tr : list) {
      if (tr.peer < 0 || tr.peer >= p_) {
        error(where(rank, t) + what + " names peer " + std::to_string(tr.peer) + ", outside 0.." +
              std::to_string(p_ - 1));
        ok = false;
      } else if (tr.peer == rank) {
        error(where(rank, t) + what + " to itself: use a local copy");
        ok = false;
      }
    }
    return ok;
  }

  void run_round(std::size_t t) {
    static const Round kEmpty;
    auto round_of = [&](int r) -> const Round& {
      const auto& rounds = s_.ranks[r].rounds;
      return t < rounds.size() ? rounds[t] : kEmpty;
    };
    // Local copies first, on every rank.
    for (int r = 0; r < p_; ++r) run_copies(r, t, round_of(r), false);

    // Payloads are read after the copies and before any receive of the round lands.
    // (src, dst) -> payloads of the round's messages, in posting order: several messages between
    // two ranks in one round match in the order both sides post them (MPI's non-overtaking rule).
    // A send found faulty holds no payload: its receive gets nothing.
    std::map<std::pair<int, int>, std::vector<std::optional<std::vector<Label>>>> in_flight;
    for (int r = 0; r < p_; ++r) {
      const Round& round = round_of(r);
      const bool peers_ok = check_peers(r, t, round.sends, "send") & check_peers(r, t, round.recvs, "receive");
      check_hazards(r, t, round);
      for (const Transfer& recv : round.recvs) {
        completes_in_time(r, t, recv, "receive");
        for (const Segment& seg : recv.segments) {
          if (in_bounds(r, t, seg) && clear_of_receives(r, t, seg, "receive")) clear_of_sends(r, t, seg, "receive");
        }
      }
      if (!peers_ok) continue;
      for (const Transfer& send : round.sends) {
        bool ok = completes_in_time(r, t, send, "send");
        for (const Segment& seg : send.segments) {
          ok = ok && in_bounds(r, t, seg) && clear_of_receives(r, t, seg, "send") && readable(r, t, seg, "send");
        }
        auto& payloads = in_flight[{r, send.peer}];
        payloads.push_back(ok ? std::optional(gather(r, send.segments)) : std::nullopt);
      }
    }
    // Then the copies after the posts, while the round's transfers are in flight.
    for (int r = 0; r < p_; ++r) run_copies(r, t, round_of(r), true);
    // Every send must meet a receive of the same size, and vice versa: the k-th send from r to
    // a peer meets the peer's k-th receive from r.
    for (int r = 0; r < p_; ++r) {
      std::map<int, std::size_t> sent;  // per peer: sends so far in this round
      for (const Transfer& send : round_of(r).sends) {
        if (send.peer < 0 || send.peer >= p_ || send.peer == r) continue;
        const Transfer* match = kth_with(round_of(send.peer).recvs, r, sent[send.peer]++);
        if (match == nullptr) {
          error(where(r, t) + "send of " + std::to_string(send.bytes()) + " bytes to rank " +
                std::to_string(send.peer) + " has no matching receive there (it would never complete)");
        } else if (match->bytes() != send.bytes()) {
          error(where(r, t) + "send of " + std::to_string(send.bytes()) + " bytes to rank " +
                std::to_string(send.peer) + " meets a receive of " + std::to_string(match->bytes()) + " bytes");
        }
      }
      std::map<int, std::size_t> received;  // per peer: receives so far in this round
      for (const Transfer& recv : round_of(r).recvs) {
        if (recv.peer < 0 || recv.peer >= p_ || recv.peer == r) continue;
        if (kth_with(round_of(recv.peer).sends, r, received[recv.peer]++) == nullptr) {
          error(where(r, t) + "receive from rank " + std::to_string(recv.peer) +
                " has no matching send there (it would wait forever)");
        }
      }
    }
    // Deliver what completes now; what stays in flight lands at the end of its last round.
    for (int r = 0; r < p_; ++r) {
      lock_in_flight(r, t, round_of(r));
      std::map<int, std::size_t> received;
      for (const Transfer& recv : round_of(r).recvs) {
        const std::size_t k = received[recv.peer]++;
        auto it = in_flight.find({recv.peer, r});
        if (it == in_flight.end() || k >= it->second.size()) continue;
        const auto& payload = it->second[k];
        if (!payload || payload->size() != recv.bytes()) continue;
        if (recv.overlap_rounds == 0) {
          deliver(r, t, recv, *payload);
        } else {
          pending_[t + recv.overlap_rounds].push_back({r, t, &recv, *payload});
        }
      }
    }
    if (auto due = pending_.find(t); due != pending_.end()) {
      for (const PendingDelivery& d : due->second) deliver(d.rank, d.posted, *d.recv, d.payload);
      pending_.erase(due);
    }
  }

  void deliver(int rank, std::size_t posted, const Transfer& recv, const std::vector<Label>& payload) {
    std::size_t at = 0;
    for (const Segment& seg : recv.segments) {
      if (writable(rank, posted, seg, "receive")) write(rank, seg, payload.data() + at);
      at += seg.length;
    }
  }

  void check_final() {
    for (int j = 0; j < p_; ++j) {
      const RankMemory& m = memory_[j];
      std::vector<bool> in_block(m.recv.size(), false);
      for (int i = 0; i < p_ && verdict_.errors.size() < kMaxErrors; ++i) {
        const std::size_t offset = blocks_.recv_offset(j, i);
        for (std::size_t k = 0; k < blocks_.bytes(i, j); ++k) {
          const std::size_t at = offset + k;
          in_block[at] = true;
          if (m.recv_writes[at] != 1) {
            error("rank " + std::to_string(j) + ": byte " + std::to_string(k) + " of block " + std::to_string(i) +
                  "->" + std::to_string(j) + " was written " + std::to_string(m.recv_writes[at]) +
                  " times into the receive buffer, expected exactly once");
            break;
          }
          if (m.recv[at] != label(i, j, k)) {
            error("rank " + std::to_string(j) + ": receive buffer at block " + std::to_string(i) + " byte " +
                  std::to_string(k) + " holds " + origin(m.recv[at]) + ", expected byte " + std::to_string(k) +
                  " of block " + std::to_string(i) + "->" + std::to_string(j));
            break;
          }
        }
      }
      for (std::size_t at = 0; at < m.recv.size(); ++at) {
        if (!in_block[at] && m.recv_writes[at] != 0) {
          error("rank " + std::to_string(j) + ": receive buffer byte " + std::to_string(at) +
                ", outside every block, was written");
          break;
        }
      }
    }
  }

  std::string origin(Label l) const {
    if (l == 0) return "nothing";
    if (l == kMetadata) return "library metadata";
    const Label index = l - 1;
    const auto block = static_cast<std::size_t>(std::upper_bound(base_.begin(), base_.end(), index) - base_.begin()) - 1;
    return "byte " + std::to_string(index - base_[block]) + " of block " + std::to_string(block / p_) + "->" +
           std::to_string(block % p_);
  }

  const Schedule& s_;
  const int p_;
  const BlockMap& blocks_;
  std::vector<Label> base_;  // base_[src * p + dst]: first global index of that block
  std::vector<RankMemory> memory_;
  std::map<std::size_t, std::vector<PendingDelivery>> pending_;  // by completion round
  Verdict verdict_;
};

}  // namespace

std::string Verdict::summary() const {
  if (ok) return "verified";
  std::string text = "schedule is wrong:";
  for (const std::string& e : errors) text += "\n  " + e;
  return text;
}

Verdict verify(const Schedule& schedule) {
  const UniformBlocks uniform(schedule.block_bytes);
  return SymbolicRun(schedule, uniform).run();
}

Verdict verify(const Schedule& schedule, const BlockMap& blocks) { return SymbolicRun(schedule, blocks).run(); }

}  // namespace topocoll
