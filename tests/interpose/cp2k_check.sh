#!/usr/bin/env bash
# Runs CP2K (Debian's cp2k: cp2k.psmp, a Fortran Open MPI program built on mpif.h, nobody
# here wrote it) on a small Quickstep energy: one water molecule, GPW with the PADE functional,
# DZVP basis, a 200 Ry cutoff, on 4 ranks. Its distributed FFTs transpose with mpi_alltoallv
# (on MPI_COMM_WORLD and on about 100 communicators of 2 ranks that CP2K makes and frees) and
# its set-up calls mpi_alltoall. Runs it twice, plainly and with libtopocoll-pmpi.so preloaded
# (TOPOCOLL_ALLTOALL=bruck, TOPOCOLL_ALLTOALLV=overlap over TOPOCOLL_TOPOLOGY=clusters:2,2), and
# checks: both runs end; every energy they print is the same string (to 14-15 digits); the
# wave functions they write (h2o-RESTART.wfn, binary) are the same bytes; topocoll answered
# the preloaded run's MPI_Alltoall and its MPI_Alltoallv on the world and on the 2-rank
# communicators. Takes a few seconds. On 4 ranks CP2K's own runs repeat bit for bit (six plain
# runs on a loaded machine gave one wave function); on 3 they do not (two plain runs differed),
# so the check keeps to 4.
# Fails, saying what to install, when CP2K's basis sets and pseudopotentials (Debian's
# cp2k-data, /usr/share/cp2k) are missing; exits 77 (skipped) when cp2k.psmp and the library
# use different MPI libraries (an MPICH build of the library).
# Usage: cp2k_check.sh CP2K LIBTOPOCOLL_PMPI MPIEXEC WORK_DIR
set -uo pipefail
cp2k="$1" library="$2" mpiexec="$3" work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
done_marker='PROGRAM ENDED AT' done_in=NAME/h2o.out
source "$here/plain_and_preloaded.sh"

if ! cp2k="$(command -v "$cp2k")"; then
  echo "cp2k_check: no CP2K ('$1'): install Debian's cp2k (scripts/install-deps.sh)" >&2
  exit 1
fi
data_dir="${CP2K_DATA_DIR:-/usr/share/cp2k}"
for file in BASIS_SET GTH_POTENTIALS; do
  if [[ ! -r "$data_dir/$file" ]]; then
    echo "cp2k_check: no $data_dir/$file: install Debian's cp2k-data (scripts/install-deps.sh;" \
         "or point CP2K_DATA_DIR at a directory holding BASIS_SET and GTH_POTENTIALS)" >&2
    exit 1
  fi
done

rm -rf "$work"
mkdir -p "$work"
cat >"$work/h2o.inp" <<INPUT
&GLOBAL
  PROJECT h2o
  RUN_TYPE ENERGY
  PRINT_LEVEL LOW
&END GLOBAL
&FORCE_EVAL
  METHOD Quickstep
  &DFT
    BASIS_SET_FILE_NAME $data_dir/BASIS_SET
    POTENTIAL_FILE_NAME $data_dir/GTH_POTENTIALS
    &MGRID
      CUTOFF 200
      REL_CUTOFF 30
    &END MGRID
    &SCF
      EPS_SCF 1.0E-7
      MAX_SCF 50
    &END SCF
    &XC
      &XC_FUNCTIONAL PADE
      &END XC_FUNCTIONAL
    &END XC
  &END DFT
  &SUBSYS
    &CELL
      ABC 6.0 6.0 6.0
    &END CELL
    &COORD
      O   0.000000    0.000000   -0.065587
      H   0.000000   -0.757136    0.520545
      H   0.000000    0.757136    0.520545
    &END COORD
    &KIND H
      BASIS_SET DZVP-GTH-PADE
      POTENTIAL GTH-PADE-q1
    &END KIND
    &KIND O
      BASIS_SET DZVP-GTH-PADE
      POTENTIAL GTH-PADE-q6
    &END KIND
  &END SUBSYS
&END FORCE_EVAL
INPUT

answered="answered by topocoll, algorithm"
run_program plain -- "$cp2k" -i ../h2o.inp -o h2o.out
check_ran plain $?
[[ $failed -eq 0 ]] || exit 1

run_program preloaded --preload "$library" --env TOPOCOLL_VERBOSE=1 \
  --env TOPOCOLL_ALLTOALL=bruck --env TOPOCOLL_ALLTOALLV=overlap \
  --env TOPOCOLL_TOPOLOGY=clusters:2,2 \
  --expect "topocoll: MPI_Alltoall \\(Fortran\\) on MPI_COMM_WORLD \\(4 ranks\\): $answered 'bruck'" \
  --expect "topocoll: MPI_Alltoallv \\(Fortran\\) on MPI_COMM_WORLD \\(4 ranks\\): $answered 'overlap'" \
  --expect "topocoll: MPI_Alltoallv \\(Fortran\\) on a communicator of 2 ranks: $answered 'overlap'" \
  -- "$cp2k" -i ../h2o.inp -o h2o.out
after_preloaded_run $?

# Compared even when a check above failed, to say all.
same_lines "energies" 'energy' NAME/h2o.out
same_bytes "wave functions" h2o-RESTART.wfn
[[ $failed -eq 0 ]] || exit 1
echo "cp2k_check: both runs: $(grep 'ENERGY|' "$work/plain/h2o.out" | tr -s ' ');" \
     "the same energies and wave functions"
echo "cp2k_check: passed"
