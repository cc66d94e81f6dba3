#!/usr/bin/env bash
# Sourced by the tour's sections (scripts/demo.sh): installs what is missing and builds the tools
# they run, where a source is newer than the tool: the benchmark in the simulated flavour,
# topocoll-platform (the bound) and topocoll-plan (the schedules' pictures) in the mpi flavour.
# Run from the repository's root. Skipped where the tour already did it (TOPOCOLL_TOUR_BUILT).
if [[ -n ${TOPOCOLL_TOUR_BUILT:-} ]]; then return 0; fi
scripts/install-deps.sh
tour_newer_sources() { [[ -n "$(find src include tools -newer "$1" -print -quit 2>/dev/null)" ]]; }
for tour_tool in smpi/topocoll-bench mpi/topocoll-platform mpi/topocoll-plan; do
  tour_flavour=${tour_tool%%/*}
  tour_binary=build/$tour_flavour/tools/${tour_tool#*/}
  if [[ ! -x $tour_binary ]] || tour_newer_sources "$tour_binary"; then
    echo "tour: building ${tour_tool#*/} (build/$tour_flavour)..." >&2
    cmake --preset "$tour_flavour" >/dev/null
    cmake --build "build/$tour_flavour" -j "$(nproc)" --target "${tour_tool#*/}" >/dev/null
  fi
done
