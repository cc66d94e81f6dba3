// What auto's choice for a call depends on besides the contents of its files: the key of
// resolve_auto's cache (CommState::auto_choices). A call looks its choice up by a view of its
// own strings, so that a call whose choice is cached builds no string (the key was a string
// built on every call: about 3200 instructions of a 16-rank bruck call of 7 us at 8 B).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>

#include "algorithms/problem.hpp"
#include "schedule/operation.hpp"

namespace topocoll::exec {

struct AutoChoiceKeyView {
  Operation operation = Operation::alltoall;
  int root = 0;
  std::size_t block_bytes = 0;  // the block size auto chose by (a v form's average class)
  AlgorithmKnobs knobs;
  std::string_view topology_spec, calibration_path, network_path;
  std::string_view shape;  // a skewed alltoallv's traffic shape (TrafficShape::key), else empty

  auto tie() const {
    return std::tie(operation, root, block_bytes, knobs, topology_spec, calibration_path, network_path, shape);
  }
};

struct AutoChoiceKey {
  Operation operation = Operation::alltoall;
  int root = 0;
  std::size_t block_bytes = 0;
  AlgorithmKnobs knobs;
  std::string topology_spec, calibration_path, network_path, shape;

  explicit AutoChoiceKey(const AutoChoiceKeyView& v)
      : operation(v.operation),
        root(v.root),
        block_bytes(v.block_bytes),
        knobs(v.knobs),
        topology_spec(v.topology_spec),
        calibration_path(v.calibration_path),
        network_path(v.network_path),
        shape(v.shape) {}
  AutoChoiceKeyView view() const {
    return {operation, root, block_bytes, knobs, topology_spec, calibration_path, network_path, shape};
  }
};

// Orders keys and views alike (a transparent comparator: std::map::find takes a view).
struct AutoChoiceOrder {
  using is_transparent = void;
  static AutoChoiceKeyView view_of(const AutoChoiceKeyView& v) { return v; }
  static AutoChoiceKeyView view_of(const AutoChoiceKey& k) { return k.view(); }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    return view_of(a).tie() < view_of(b).tie();
  }
};

}  // namespace topocoll::exec
