# The simulated studies' benchmark settings, in one place (sourced, not run): the demo, the
# studies and the calibrations they give auto use these, so that auto is calibrated for the
# copies the benchmark charges (a calibration made without --copy-bandwidth records the
# library's 5 GB/s while the benchmark charges 1.5 GB/s).
# Local copies on a dual Opteron 246 node (DDR-400, 6.4 GB/s peak; a copy reads, write-allocates
# and writes each byte): 1.5 GB/s, docs/platforms.md. Every timed call starts at one instant on
# all ranks (--sync window): a barrier across a 5 ms WAN leaves its ranks tens of ms apart.
# Simulated time is deterministic, so one timed call per point (after the benchmark's untimed
# set-up call) gives the same number as many.
# shellcheck disable=SC2034  # used by the scripts that source this file
study_copy_bandwidth=1.5e9
study_bench_flags=(--format csv --copy-bandwidth "$study_copy_bandwidth" --sync window -i 1 -x 0)
# What scripts/calibrate.sh passes to topocoll-calibrate for a study's platform.
study_calibrate_flags=(--copy-bandwidth "$study_copy_bandwidth")
