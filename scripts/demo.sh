#!/usr/bin/env bash
# The main job, reduced: the LG paper's Fig. 4 on the simulated two-cluster grid
# (platforms/two-clusters-20-40: Grid'5000 Nancy + Rennes, 20 + 40 nodes, 10 Gbps backbone):
# topocoll's lg and auto beside what Open MPI's and MPICH's decision logic would run, with the
# platform's lower bound, as a table and a log-log plot. Installs what is missing and builds
# first. Full studies: scripts/two-cluster-experiment.sh (Figs. 4-6), scripts/crossbar-experiment.sh
# (Tam and Wang's Fig. 2). Usage: scripts/demo.sh [OUT-DIR]
set -euo pipefail
exec "$(dirname "$0")/two-cluster-demo.sh" "$@"
