#!/usr/bin/env bash
# Runs Quantum ESPRESSO's pw.x (Debian's quantum-espresso, a Fortran Open MPI program nobody
# here wrote) on a small self-consistent calculation: diamond silicon, 2 atoms, 24 Ry, 4x4x4
# k-points, on 4 ranks in one pool (-nk 1), so the plane waves and the 3-D FFT are spread over
# all 4 ranks and every FFT transposes its data with mpi_alltoall (about 2000 calls, on a
# communicator of 4 ranks that QE splits from MPI_COMM_WORLD; a few mpi_alltoallv too). Runs it
# twice, plainly and with libtopocoll-pmpi.so preloaded (TOPOCOLL_ALLTOALL=pairwise,
# TOPOCOLL_ALLTOALLV=direct), and checks: both runs converge; their final total energies
# ("!    total energy", -15.85081793 Ry here) are the same strings; the charge densities they
# write are the same bytes and their data files (energies to 16 digits, eigenvalues) the same
# but for dates and timings (alltoalls only move data: the runs must agree bit for bit, and
# the SCF loop would hide a small error from the printed energy); topocoll answered the
# preloaded run's MPI_Alltoall. Takes a few seconds.
# Fails, saying what to install, when pw.x or the silicon pseudopotential (Si.pz-vbc.UPF, from
# Debian's quantum-espresso-data, in $ESPRESSO_PSEUDO or /usr/share/espresso/pseudo) is
# missing (scripts/install-deps.sh installs both); exits 77 (skipped) when pw.x and the library
# use different MPI libraries (an MPICH build of the library).
# Usage: qe_check.sh PW_X LIBTOPOCOLL_PMPI MPIEXEC WORK_DIR
set -uo pipefail
pw="$1" library="$2" mpiexec="$3" work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
done_marker='JOB DONE'
source "$here/plain_and_preloaded.sh"
pseudo_dir="${ESPRESSO_PSEUDO:-/usr/share/espresso/pseudo}"
pseudo=Si.pz-vbc.UPF

if ! pw="$(command -v "$pw")"; then
  echo "qe_check: no pw.x ('$1'): install Debian's quantum-espresso" \
       "(scripts/install-deps.sh)" >&2
  exit 1
fi
if [[ ! -r "$pseudo_dir/$pseudo" ]]; then
  echo "qe_check: no pseudopotential $pseudo_dir/$pseudo: install Debian's quantum-espresso-data" \
       "(scripts/install-deps.sh; or point ESPRESSO_PSEUDO at a directory holding $pseudo)" >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work"
# Norm-conserving LDA silicon at the experimental lattice constant (10.20 bohr). Each run
# writes its charge density and data file in its own directory, under out/si.save.
cat >"$work/si.scf.in" <<INPUT
&control
  calculation = 'scf'
  prefix = 'si'
  pseudo_dir = '$pseudo_dir'
  outdir = './out'
  disk_io = 'low'
/
&system
  ibrav = 2, celldm(1) = 10.20, nat = 2, ntyp = 1
  ecutwfc = 24.0
/
&electrons
  conv_thr = 1.0d-8
/
ATOMIC_SPECIES
  Si 28.086 $pseudo
ATOMIC_POSITIONS alat
  Si 0.00 0.00 0.00
  Si 0.25 0.25 0.25
K_POINTS automatic
  4 4 4 1 1 1
INPUT

# A run's data file but for its dates and timings.
data_file_of() { grep -Ev 'DATE=|<cpu>|<wall>' "$work/$1/out/si.save/data-file-schema.xml"; }

# Whether a run converged (pw.x exits 0 after too many iterations too).
check_converged() {
  if ! grep -q 'convergence has been achieved' "$work/$1.out"; then
    report_failure "$1" "no 'convergence has been achieved' in its output"
  elif ! grep -q '^!    total energy' "$work/$1.out"; then
    report_failure "$1" "no '!    total energy' line in its output"
  fi
}

export OMP_NUM_THREADS=1
run_program plain -- "$pw" -nk 1 -in ../si.scf.in
check_ran plain $?
[[ $failed -eq 0 ]] && check_converged plain
[[ $failed -eq 0 ]] || exit 1

run_program preloaded --preload "$library" --env TOPOCOLL_VERBOSE=1 \
  --env TOPOCOLL_ALLTOALL=pairwise --env TOPOCOLL_ALLTOALLV=direct \
  --expect "topocoll: MPI_Alltoall \\(Fortran\\) on .*answered by topocoll" \
  -- "$pw" -nk 1 -in ../si.scf.in
status=$?
after_preloaded_run $status
if [[ $status -ne 0 ]] && ! grep -Eq '^topocoll: MPI_Alltoall \(Fortran\) on .*answered by topocoll' "$work/preloaded.err"; then
  echo "FAIL: topocoll answered none of pw.x's MPI_Alltoall calls (pw.x calls the Fortran" \
       "mpi_alltoall_: libtopocoll-pmpi.so's Fortran entry points, fortran_entry_points.cpp)" >&2
fi
grep -q "$done_marker" "$work/preloaded.out" || exit 1
check_converged preloaded
grep -q '^!    total energy' "$work/preloaded.out" || exit 1

# The runs must agree bit for bit (compared even when the checks above failed, to say all).
same_lines "total energies" '^!    total energy' NAME.out
same_bytes "charge densities" out/si.save/charge-density.dat
if ! diff <(data_file_of plain) <(data_file_of preloaded) >"$work/data-file.diff"; then
  echo "FAIL: the runs' data files (out/si.save/data-file-schema.xml) differ (plain <, preloaded >):" >&2
  head -n 20 "$work/data-file.diff" >&2
  failed=1
fi
[[ $failed -eq 0 ]] || exit 1
echo "qe_check: both runs: $(grep '^!    total energy' "$work/plain.out" | tr -s ' ')," \
     "$(grep -o 'convergence has been achieved in *[0-9]* iterations' "$work/plain.out" | tr -s ' ');" \
     "the same energies, charge densities and data files"
echo "qe_check: passed"
