#!/usr/bin/env bash
# What topocoll does on one real node (shared memory), in one job of a few minutes:
#   1. topocoll-calibrate on NP ranks, its validation pass at every power of two from 8 B to
#      1 MiB per block (how far the model is from each algorithm's measured time, and whether
#      auto's pick is the fastest; auto then prices from these times between them);
#   2. the drop-in's cost per MPI_Alltoall at NP ranks, wall clock
#      (scripts/call-cost-benchmark.sh --wall-only);
#   3. auto with that calibration beside native and the flat algorithms, every block size from
#      8 B to 1 MiB, interleaved repetitions (topocoll-bench --repeat; the statistics file gives
#      each point's median ratio to native);
#   4. with --tune: topocoll-tune's table (block sizes --tune-sizes) added to a copy of the
#      calibration, and step 3 again for auto and native under it.
# Everything lands in OUT-DIR (default build/node-check): node.log (all that was printed),
# node.calibration.json, bench-statistics.csv and, with --tune, tuned.calibration.json and
# tuned-statistics.csv.
# Usage: scripts/node-check.sh [--np N] [--bin DIR] [--out OUT-DIR] [--eager-limit B] [--tune]
#                              [--tune-sizes LIST] [--no-call-cost]
#   --np N          ranks, all on this node (default 16)
#   --bin DIR       a built mpi-preset tree (default build/mpi), or a folder laid out like one:
#                   tools/ (topocoll-calibrate, -bench, -tune, -call-cost),
#                   src/interpose/libtopocoll-pmpi.so, and lib/ for libraries this node lacks
#                   (put on LD_LIBRARY_PATH): how binaries built elsewhere are carried to a node
#   --eager-limit B the largest message the MPI library sends eagerly on shared memory (default:
#                   Open MPI's vader btl_vader_eager_limit from ompi_info, else 4096, less the
#                   16-byte match header that ob1 puts in front of an eager message's data)
#   --tune          also run step 4
#   --tune-sizes L  topocoll-tune's --sizes (default 8,64,512,4096,32768: the whole job took
#                   2.5 minutes on 16 cores; tune's default sizes, up to 1 MiB, over 5 minutes)
#   --no-call-cost  skip step 2 (a job short of time)
# Ranks are bound to cores where mpirun can bind them. Open MPI's single-copy mechanism is
# switched off (OMPI_MCA_btl_vader_single_copy_mechanism=none), as scripts/call-cost-benchmark.sh
# does: containers often forbid the cross-memory attach it uses.
set -euo pipefail
cd "$(dirname "$0")/.."

np=16 bin=build/mpi out=build/node-check eager="" tune=0 tune_sizes=8,64,512,4096,32768 call_cost=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --np) np="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --eager-limit) eager="$2"; shift 2 ;;
    --tune) tune=1; shift ;;
    --tune-sizes) tune_sizes="$2"; shift 2 ;;
    --no-call-cost) call_cost=0; shift ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "node-check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bin=$(cd "$bin" && pwd)
tools="$bin/tools"
for tool in topocoll-calibrate topocoll-bench topocoll-tune topocoll-call-cost; do
  [[ -x "$tools/$tool" ]] || { echo "node-check.sh: no $tools/$tool (build the mpi preset, or see --bin)" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
log="$out/node.log"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

mpirun=$(command -v mpirun.openmpi || command -v mpirun) || { echo "node-check.sh: no mpirun" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
[[ ! -d "$bin/lib" ]] || export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bind=(--bind-to core)
"$mpirun" --oversubscribe "${bind[@]}" -np "$np" true >/dev/null 2>&1 || bind=(--bind-to none)
forward=(-x OMPI_MCA_btl_vader_single_copy_mechanism)
[[ -z "${LD_LIBRARY_PATH:-}" ]] || forward+=(-x LD_LIBRARY_PATH)
mpi=("$mpirun" --oversubscribe "${bind[@]}" "${forward[@]}" -np "$np")
if [[ -z "$eager" ]]; then
  eager=$(ompi_info --param btl vader --level 9 2>/dev/null |
          sed -n 's/.*MCA btl vader: parameter "btl_vader_eager_limit" (current value: "\([0-9]*\)".*/\1/p')
  # The btl's limit counts ob1's match header (sizeof mca_pml_ob1_match_hdr_t, 16 B): a 4 KiB
  # message goes by rendezvous (on a 16-core node native took 23 us at 2 KiB blocks, 50 at 4 KiB).
  eager=$(( ${eager:-4096} - 16 ))
fi

say "# node-check: $(date -u +%FT%TZ), $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p')), $np ranks ${bind[*]}"
say "# $("$mpirun" --version | head -1); eager limit $eager B; single copy off"

say "## 1. calibrate, validated at every size"
timeout 300 "${mpi[@]}" "$tools/topocoll-calibrate" --topology "flat:$np" --eager-limit "$eager" \
  --validate-sizes "$(awk 'BEGIN { for (b = 8; b <= 1048576; b *= 2) printf "%s%d", (b > 8 ? "," : ""), b }')" --output "$out/node.calibration.json" 2>&1 | tee -a "$log" || say "(calibration failed: exit $?)"

if [[ $call_cost == 1 ]]; then
  say "## 2. the drop-in's cost per call"
  MPIRUN_ARGS="${bind[*]} ${forward[*]}" timeout 200 \
    scripts/call-cost-benchmark.sh --wall-only --np "$np" --runs 5 --build-dir "$bin" 2>&1 | tee -a "$log" || say "(call cost failed: exit $?)"
fi

# auto and the algorithms beside native: small sizes with the bench's default iterations, large
# ones with fewer (a 1 MiB block is 16 MiB per rank and call).
bench() {
  local calibration="$1" algorithms="$2" statistics="$3"
  : >"$statistics"
  timeout 240 "${mpi[@]}" "$tools/topocoll-bench" --calibration "$calibration" --topology "flat:$np" \
    --algorithms "$algorithms" -m 8:8192 --repeat 5 --format csv --statistics "$statistics.small" 2>&1 | tee -a "$log" || say "(bench failed: exit $?)"
  timeout 240 "${mpi[@]}" "$tools/topocoll-bench" --calibration "$calibration" --topology "flat:$np" \
    --algorithms "$algorithms" -m 16384:1048576 -i 20 -x 2 --repeat 5 --format csv --statistics "$statistics.large" 2>&1 | tee -a "$log" || say "(bench failed: exit $?)"
  [[ -f "$statistics.small" ]] && cat "$statistics.small" >"$statistics"
  [[ -f "$statistics.large" ]] && tail -n +2 "$statistics.large" >>"$statistics"
  rm -f "$statistics.small" "$statistics.large"
  tee -a "$log" <"$statistics"
}
say "## 3. auto (the model, validated) beside native"
bench "$out/node.calibration.json" native,auto,direct,pairwise,shift,bruck "$out/bench-statistics.csv"

if [[ $tune == 1 ]]; then
  say "## 4. tuned"
  if timeout 300 "${mpi[@]}" "$tools/topocoll-tune" --op alltoall --calibration "$out/node.calibration.json" \
       --topology "flat:$np" --output "$out/tuned.calibration.json" --sizes "$tune_sizes" --repeat 5 2>&1 | tee -a "$log"; then
    bench "$out/tuned.calibration.json" native,auto "$out/tuned-statistics.csv"
  else
    say "(tune failed: exit $?)"
  fi
fi
say "# node-check: done $(date -u +%FT%TZ)"
