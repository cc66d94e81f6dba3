#!/usr/bin/env bash
# The main job, reduced: the LG paper's Fig. 4 on the simulated 20 + 40 node Grid'5000
# Nancy-Rennes platform (platforms/two-clusters-20-40, docs/platforms.md). Runs topocoll's lg,
# the flat algorithms and SMPI's own MPI_Alltoall under the Open MPI and MPICH selectors at five
# block sizes, prints a table with the platform's lower bound, and draws a log-log plot.
# Installs what is missing and builds first; a few minutes at most on 2 cores.
# Full study: scripts/two-cluster-experiment.sh. Usage: scripts/two-cluster-demo.sh [OUT-DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=${1:-$repo/build/two-cluster-demo}
mkdir -p "$out"

# shellcheck source=tour-build.sh
source scripts/tour-build.sh

platform=two-clusters-20-40
np=60
sizes=(1 256 4096 65536 524288)
# shellcheck source=study-flags.sh
source scripts/study-flags.sh
common=("${study_bench_flags[@]}")
start=$SECONDS
echo "demo: simulating $np ranks on $platform (20 + 40 nodes, 10 Gbps backbone, 5 ms)..." >&2
: >"$out/ompi.csv"
: >"$out/mpich.csv"
for bytes in "${sizes[@]}"; do
  echo "demo:   blocks of $bytes bytes ($((SECONDS - start)) s)" >&2
  flat=direct,pairwise
  ((bytes <= 65536)) && flat=$flat,bruck
  buffers=()
  ((bytes > 65536)) && buffers=(--shared-malloc)   # timing only above 64 KiB (valid = skipped)
  scripts/simulate.sh --selector ompi $platform $np -- "${common[@]}" "${buffers[@]}" \
    --algorithms lg,auto,$flat,native --calibration "platforms/$platform.calibration.json" -m "$bytes" \
    2>"$out/ompi.cfg" >>"$out/ompi.csv"
  scripts/simulate.sh --selector mpich $platform $np -- "${common[@]}" "${buffers[@]}" \
    --algorithms native -m "$bytes" 2>"$out/mpich.cfg" >>"$out/mpich.csv"
done
scripts/two-cluster-bound.sh platforms/$platform.xml 1:524288 >"$out/bound.csv"
grep '^#' "$out/ompi.cfg" | sed 's/^/  /' >&2 || true

# One line per size: times (max over ranks from a common start) in ms.
awk -F, -f scripts/tour-common.awk -f <(cat <<'AWK'
  FILENAME ~ /bound/ { if ($1 != "n1") bound[$4] = $5 / 1000; next }
  $1 != "alltoall" { next }
  {
    name = $2; if (name == "native") name = (FILENAME ~ /mpich/ ? "mpich" : "ompi")
    t[$4, name] = $7 / 1000; sizes[$4] = 1
    if ($9 == "no") bad = bad " " $2 "@" $4
  }
  END {
    printf "== tour: two clusters (LG), alltoall on two-clusters-20-40, 60 ranks, simulated ==\n"
    printf "LG paper Fig. 4, reduced: time in ms until the last rank is done\n"
    printf "%9s %12s %12s %10s %10s %16s %12s %10s %6s\n", "block", "native ompi", "native mpich", "lg", "auto", "best flat", "speed-up", "bound", "valid"
    n = ascending(sizes, list)
    for (i = 1; i <= n; i++) {
      s = list[i]; best = ""; which = ""
      split("direct pairwise bruck", flat, " ")
      for (k = 1; k <= 3; k++) if ((s, flat[k]) in t && (best == "" || t[s, flat[k]] < best)) { best = t[s, flat[k]]; which = flat[k] }
      native = t[s, "ompi"] < t[s, "mpich"] ? t[s, "ompi"] : t[s, "mpich"]
      printf "%9d %12.2f %12.2f %10.2f %10.2f %9.2f %-6s %11.2fx %10.2f %6s\n", s, t[s, "ompi"], t[s, "mpich"], t[s, "lg"],
        t[s, "auto"], best, which, native / t[s, "auto"], bound[s], s <= 65536 ? (bad == "" ? "yes" : "no") : "-"
    }
    if (bad != "") { printf "\nINVALID results:%s\n", bad; exit 1 }
    printf "\nValidated byte for byte against MPI_Alltoall up to 64 KiB (timing only above). speed-up: the better native over auto;\n"
    printf "auto: the algorithm the cost model calibrated on this platform (platforms/two-clusters-20-40.calibration.json) predicts fastest.\n"
    printf "Why lg wins where it wins and loses where it loses, and what auto runs: docs/results.md (Two clusters).\n"
  }
AWK
) "$out/bound.csv" "$out/ompi.csv" "$out/mpich.csv" | tee "$out/table.txt"

# The plot: the same numbers, log-log (the study's Fig. 4 plot).
scripts/two-cluster-plot.sh --sizes "$out/two-cluster-demo.png" \
  "Alltoall on two-clusters-20-40 (simulated Grid'5000 Nancy-Rennes, 60 ranks)" \
  "$out/ompi.csv" "$out/mpich.csv" "$out/bound.csv"
echo "demo: done in $((SECONDS - start)) s; plot: $out/two-cluster-demo.png" >&2
