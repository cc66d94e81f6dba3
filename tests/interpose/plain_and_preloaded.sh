# Sourced by the checks that run a real application twice, plainly and with
# libtopocoll-pmpi.so preloaded (qe_check.sh, cp2k_check.sh, lammps_check.sh), and demand the
# same results: an all-to-all only moves data, so the two runs must agree bit for bit.
# The caller sets: here (this directory), mpiexec, work (the runs' directory), done_marker (an
# extended regular expression for the line the program prints when it ended well) and, where
# that line is not in the program's standard output, done_in (the file it is in, as same_lines'
# PATH below: NAME/h2o.out).
# Each run NAME runs in $work/NAME, its output in $work/NAME.out and its standard error in
# $work/NAME.err. A check that fails sets failed=1 and says why on standard error.
failed=0

# run_program NAME [run_mpi_program.sh OPTIONS...] -- PROGRAM [ARGS...]: the program on 4 ranks
# through run_mpi_program.sh (Open MPI's root, oversubscription and shutdown-race handling),
# one OpenMP thread a rank. Prints run_mpi_program.sh's "+ mpirun ..." line and returns its
# status (77: the program and the preloaded library use different MPI libraries).
run_program() {
  local name="$1"; shift
  mkdir -p "$work/$name"
  "$here/run_mpi_program.sh" --mpiexec "$mpiexec" --np 4 --workdir "$work/$name" \
    --env OMP_NUM_THREADS=1 "$@" <"/dev/null" >"$work/$name.out" 2>"$work/$name.err"
  local status=$?
  head -n 1 "$work/$name.out"
  return $status
}

# done_file_of NAME: the file of run NAME where done_marker is printed.
done_file_of() {
  local path="$work/${done_in:-NAME.out}"
  echo "${path//NAME/$1}"
}

# report_failure NAME REASON: what the program (when it stopped early) and run_mpi_program.sh
# said of run NAME.
report_failure() {
  echo "FAIL: the $1 run: $2" >&2
  local done_file
  done_file=$(done_file_of "$1")
  if ! grep -Eq -- "$done_marker" "$done_file"; then
    echo "  the program stopped early; the last lines of its output ($done_file):" >&2
    tail -n 15 "$done_file" >&2
  fi
  echo "  its standard error:" >&2
  grep -v '^Note: The following floating-point exceptions' "$work/$1.err" >&2
  failed=1
}

# check_ran NAME STATUS: run NAME exited 0 and printed done_marker.
check_ran() {
  if [[ $2 -ne 0 ]]; then
    report_failure "$1" "run_mpi_program.sh exited with status $2"
  elif ! grep -Eq -- "$done_marker" "$(done_file_of "$1")"; then
    report_failure "$1" "no line of $(done_file_of "$1") matches '$done_marker'"
  fi
}

# same_lines WHAT REGEX PATH: the lines matching REGEX of PATH (under $work, with NAME standing
# for the run's name: NAME.out for its output, NAME/log.lammps for a file it wrote) are the same
# in both runs, and there is at least one.
same_lines() {
  local what="$1" regex="$2" path="$3" plain preloaded
  plain=$(grep -E -- "$regex" "$work/${path//NAME/plain}" 2>/dev/null)
  preloaded=$(grep -E -- "$regex" "$work/${path//NAME/preloaded}" 2>/dev/null)
  if [[ -z "$plain" ]]; then
    echo "FAIL: the plain run wrote no $what (no line of ${path//NAME/plain} matches '$regex')" >&2
    failed=1
  elif [[ "$plain" != "$preloaded" ]]; then
    echo "FAIL: the runs' $what differ (plain <, preloaded >):" >&2
    diff <(echo "$plain") <(echo "$preloaded") | head -n 20 >&2
    failed=1
  fi
}

# same_bytes WHAT FILE: FILE (relative to the runs' directories) holds the same bytes in both.
same_bytes() {
  if ! cmp "$work/plain/$2" "$work/preloaded/$2" >&2; then
    echo "FAIL: the runs' $1 ($2) are not the same bytes" >&2
    failed=1
  fi
}

# after_preloaded_run STATUS: once the preloaded run ended with STATUS, exits 77 where it was
# skipped (the program and the library use different MPI libraries), prints topocoll's verbose
# lines with how often each was said, and checks that the run ended well (check_ran).
after_preloaded_run() {
  if [[ $1 -eq 77 ]]; then
    grep 'skipped' "$work/preloaded.err" >&2
    exit 77
  fi
  echo "topocoll's lines in the preloaded run, with how often each was said:"
  grep '^topocoll: ' "$work/preloaded.err" | sort | uniq -c || echo "  (none)"
  check_ran preloaded "$1"
}
