#!/usr/bin/env bash
# Runs an MPI program under mpirun and checks how it went: its exit status, and lines its
# standard error must (or must not) contain. Used by the drop-in tests, whose programs run
# with libtopocoll-pmpi.so preloaded and TOPOCOLL_VERBOSE=1.
#
# Usage: run_mpi_program.sh --mpiexec MPIRUN --np N [--preload LIB] [--env NAME=VALUE]...
#          [--env-on-rank-1 NAME=VALUE]... [--expect REGEX]... [--reject REGEX]... [--expect-failure] [--workdir DIR]
#          [--output FILE --expect-output REGEX...] -- PROGRAM [ARGS...]
#   --preload LIB   preloaded into every rank (LD_PRELOAD); when PROGRAM uses another MPI
#                   library than LIB, the run is skipped (exit 77)
#   --env           passed to every rank (Open MPI's -x NAME=VALUE, MPICH's -genv NAME VALUE)
#   --env-on-rank-1 NAME=VALUE set on rank 1 of MPI_COMM_WORLD alone, after --env (a node that
#                   sees another configuration)
#   --expect        an extended regular expression some line of standard error must match
#   --reject        one that no line of standard error may match
#   --expect-failure  the run must exit non-zero (for errors that abort)
#   --output FILE   a file the program writes (relative to --workdir), checked with
#                   --expect-output like standard error
set -uo pipefail

mpiexec="" np="" preload="" workdir="" output="" expect_failure=0
envs=() rank1_envs=() expects=() rejects=() output_expects=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mpiexec) mpiexec="$2"; shift 2 ;;
    --np) np="$2"; shift 2 ;;
    --preload) preload="$2"; shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    --env-on-rank-1) rank1_envs+=("$2"); shift 2 ;;
    --expect) expects+=("$2"); shift 2 ;;
    --reject) rejects+=("$2"); shift 2 ;;
    --expect-failure) expect_failure=1; shift ;;
    --workdir) workdir="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    --expect-output) output_expects+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "run_mpi_program.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z "$mpiexec" || -z "$np" || $# -eq 0 ]]; then
  echo "run_mpi_program.sh: --mpiexec, --np and a program are required" >&2
  exit 2
fi

# A library can only be preloaded into a program of the same MPI library (Debian's hpcc and
# libfftw3-mpi are built with Open MPI): otherwise skip, with ctest's SKIP_RETURN_CODE 77.
mpi_libraries_of() { ldd "$1" | awk '/libmpi(ch)?\.so/ { print $1 }' | sort -u | tr '\n' ' '; }
if [[ -n "$preload" && "$(mpi_libraries_of "$1")" != "$(mpi_libraries_of "$preload")" ]]; then
  echo "run_mpi_program.sh: $1 uses MPI library $(mpi_libraries_of "$1"), $preload uses" \
       "$(mpi_libraries_of "$preload"): cannot preload, skipped" >&2
  exit 77
fi
[[ -n "$preload" ]] && envs=("LD_PRELOAD=$preload" "${envs[@]}")
# The whole output first: grep -q would stop reading at the match, and under pipefail the
# launcher's SIGPIPE would then read as "not Hydra" (MPICH runs given Open MPI's options).
launcher_version=$("$mpiexec" --version 2>&1 || true)
if [[ "$launcher_version" == *HYDRA* ]]; then
  # MPICH's mpiexec (Hydra): -genv NAME VALUE.
  launch=("$mpiexec" -n "$np")
  for e in "${envs[@]}"; do launch+=(-genv "${e%%=*}" "${e#*=}"); done
else
  # Open MPI: more ranks than cores, run as root in containers, no single-copy mechanism
  # there; -x NAME=VALUE.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  launch=("$mpiexec" -np "$np" --oversubscribe)
  for e in "${envs[@]}"; do launch+=(-x "$e"); done
fi

# Rank 1's own variables: the program starts under env, which sets them on that rank alone
# (its rank from the launcher's variable: Open MPI's OMPI_COMM_WORLD_RANK, MPICH's PMI_RANK).
if [[ ${#rank1_envs[@]} -gt 0 ]]; then
  set -- bash -c 'if [[ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}" == 1 ]]; then exec env "$@"; fi
                  shift "$0"; exec "$@"' "${#rank1_envs[@]}" "${rank1_envs[@]}" "$@"
fi

[[ -n "$workdir" ]] && { cd "$workdir" || exit 2; }
stderr_file=$(mktemp)
trap 'rm -f "$stderr_file"' EXIT
echo "+ ${launch[*]} $*"
# Open MPI 4.1's runtime sometimes reports a rank that finished cleanly as "process rank N with
# PID 0 ... exiting improperly" (a race in its shutdown, open-mpi/ompi#7833, more frequent on a
# loaded machine): that run says nothing of the program, so it is run again, at most twice.
for attempt in 1 2 3; do
  "${launch[@]}" "$@" 2>"$stderr_file"
  status=$?
  grep -q "with PID 0 on" "$stderr_file" && grep -q "exiting improperly" "$stderr_file" || break
  echo "run_mpi_program.sh: Open MPI's shutdown race (PID 0, attempt $attempt), running again" >&2
done
cat "$stderr_file" >&2

failed=0
if [[ $expect_failure -eq 1 && $status -eq 0 ]]; then
  echo "FAIL: the run succeeded but was expected to fail" >&2; failed=1
elif [[ $expect_failure -eq 0 && $status -ne 0 ]]; then
  echo "FAIL: the run exited with status $status" >&2; failed=1
fi
for re in "${expects[@]}"; do
  grep -Eq -- "$re" "$stderr_file" || { echo "FAIL: no line of standard error matches: $re" >&2; failed=1; }
done
for re in "${rejects[@]}"; do
  if grep -Eq -- "$re" "$stderr_file"; then echo "FAIL: standard error has a line matching: $re" >&2; failed=1; fi
done
if [[ -n "$output" ]]; then
  if [[ ! -f "$output" ]]; then
    echo "FAIL: the program wrote no $output" >&2; failed=1
  else
    for re in "${output_expects[@]}"; do
      grep -Eq -- "$re" "$output" || { echo "FAIL: no line of $output matches: $re" >&2; failed=1; }
    done
  fi
fi
[[ $failed -eq 0 ]] && echo "run_mpi_program.sh: checks passed"
exit $failed
