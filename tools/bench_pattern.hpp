// The per-pair sizes of topocoll-bench's alltoallv (--pattern, --seed): irregular traffic
// around the -m size M, reproducible from the seed. Every rank computes only its own row
// (what it sends) and column (what it receives): O(p) work and memory per rank.
//   uniform     every block M bytes
//   random      each block uniform in [0, 2M]
//   zipf:S      destinations ranked by a seeded permutation; destination of rank k (1-based)
//               gets a share proportional to 1/k^S of each sender's p*M bytes
//   sparse:K    each block M bytes with probability K/(p-1), else empty: about K receivers per
//               sender
//   hotspot:H   H seeded hot destinations share 3/4 of each sender's p*M bytes equally, the
//               other ranks the remaining quarter
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace topocoll::bench {

class TrafficPattern {
 public:
  enum class Kind { uniform, random, zipf, sparse, hotspot };

  // "uniform", "random", "zipf:1.2", "sparse:4", "hotspot:2"; throws std::invalid_argument
  // with a message naming what is wrong.
  static TrafficPattern parse(const std::string& text, std::uint64_t seed);

  Kind kind() const { return kind_; }
  // Whether a block's bytes depend on its destination alone (uniform, zipf, hotspot).
  bool by_destination() const { return kind_ == Kind::uniform || kind_ == Kind::zipf || kind_ == Kind::hotspot; }
  // "zipf:1.2 (seed 7)".
  std::string describe() const;
  // Bytes of block src -> dst among p ranks for the size M. Deterministic; O(1) after the
  // first call for a p (zipf and hotspot keep a permutation of the p ranks).
  std::size_t bytes(int src, int dst, int p, std::size_t m) const;

 private:
  void prepare(int p) const;

  Kind kind_ = Kind::uniform;
  std::string text_ = "uniform";
  double parameter_ = 0.0;
  std::uint64_t seed_ = 1;
  // For zipf and hotspot: position of each rank in the seeded order, and the zipf weights' sum.
  mutable int prepared_for_ = 0;
  mutable std::vector<int> position_;
  mutable double weight_sum_ = 0.0;
};

}  // namespace topocoll::bench
