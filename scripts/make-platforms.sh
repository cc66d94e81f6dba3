#!/usr/bin/env bash
# Regenerates the shipped cluster platforms, platforms/two-clusters-30-30.* and
# two-clusters-20-40.* (the LG paper's Fig. 4 set-ups: platform, hostfile, topology file), and
# clusters-5-7-9.* (three clusters, a backbone link per pair), with topocoll-platform at its
# default parameters, which model Grid'5000 Nancy-Rennes
# (docs/platforms.md). The command that made each file is recorded in it; tests/platform checks
# that the committed files are exactly what it generates. Builds build/mpi when the tool is
# missing. Usage: scripts/make-platforms.sh
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool="$repo/build/mpi/tools/topocoll-platform"
if [[ ! -x "$tool" ]]; then
  "$repo/scripts/install-deps.sh"
  (cd "$repo" && cmake --preset mpi >/dev/null && cmake --build build/mpi -j2 --target topocoll-platform >/dev/null)
fi

for counts in "30 30" "20 40"; do
  read -r n1 n2 <<<"$counts"
  "$tool" two-clusters --n1 "$n1" --n2 "$n2" --output-dir "$repo/platforms"
done
"$tool" clusters --nodes 5,7,9 --output-dir "$repo/platforms"
