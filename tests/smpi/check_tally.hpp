// The verdicts of a simulated check program: each agreed by every rank (the check passes only
// if it passed on every rank); rank 0 names what failed, each rank what failed on it.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <string>

#include "topocoll/topocoll.h"

struct Tally {
  int rank = 0;
  int passed = 0;
  int failed = 0;

  // `ok_here` is this rank's verdict.
  void record(const std::string& what, bool ok_here) {
    int ok_local = ok_here ? 1 : 0;
    int ok_everywhere = 0;
    MPI_Allreduce(&ok_local, &ok_everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (ok_everywhere != 0) {
      ++passed;
    } else {
      ++failed;
      if (rank == 0) std::printf("FAILED: %s\n", what.c_str());
    }
    if (!ok_here) std::printf("  rank %d: %s: %s\n", rank, what.c_str(), topocoll_error_message());
  }
};
