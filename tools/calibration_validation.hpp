// topocoll-calibrate's validation pass: once the model's parameters are measured, every
// algorithm the model prices for the total exchange is run on this machine at a few block sizes
// and timed beside its prediction, and so is the MPI library's own (native). The model does not
// know everything a machine does (how a node's memory serves many streams, skew, protocol
// switches); where it is wrong, this shows by how much, and whether auto's pick, the lowest
// prediction, is the fastest algorithm measured. Collective over `comm`.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "select/calibration.hpp"
#include "topology/topology.hpp"

namespace topocoll::calibrate {

struct ValidationSettings {
  std::vector<std::size_t> sizes;  // bytes per block
  int repetitions = 5;             // timed repetitions per point (after one untimed call), the
                                   // algorithms taking turns: the median is kept
  bool timed_loops = false;        // each repetition a loop of calls of about 2 ms (a real
                                   // machine), else one call (SMPI, whose times repeat exactly)
  bool smpi_shared_buffers = false;
  bool window_start = false;       // every timed call starts at one instant (needs SMPI's clock)
  std::string topology;            // the spec the library reads (CollectiveOptions::topology)
  double copy_bandwidth = 0.0;     // what the library charges for copies under SMPI (0: its default)
  // After `sizes`, up to this many rounds of bisection: where the winners of neighbouring
  // validated sizes more than twice apart differ, their geometric midpoint is validated too.
  int bisections = 3;
};

struct Validation {
  std::vector<ValidationPoint> points;  // in order of size, then registry (native last)
  // The machine's noise from the points' repetitions (noise_of_repetitions); nullopt with one
  // repetition per point.
  std::optional<double> noise;
};

// Every rank returns the same.
Validation validate_calibration(MPI_Comm comm, const Calibration& calibration, const Topology& topology,
                                const ValidationSettings& settings, std::ostream& log);

}  // namespace topocoll::calibrate
