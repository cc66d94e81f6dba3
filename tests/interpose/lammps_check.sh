#!/usr/bin/env bash
# Runs LAMMPS (Debian's lammps: lmp, a C++ Open MPI program nobody here wrote) on a small
# charged Lennard-Jones melt: 864 atoms, half of charge +1 and half -1, long-range Coulomb by
# PPPM, 50 steps of NVE, on 4 ranks. With `kspace_modify collective yes` PPPM's 3-D FFTs remap
# their bricks with MPI_Alltoallv (on LAMMPS's copy of the world and on communicators of 2
# ranks), blocks of uneven sizes. Runs it twice, plainly and with libtopocoll-pmpi.so preloaded
# (TOPOCOLL_ALLTOALLV=liu, the irregular all-to-all), and checks: both runs end; their thermo
# lines (temperature, energies and pressure to 15 digits, every 10 steps) are the same
# strings; the final positions and velocities they dump (17 digits, sorted by atom) are the
# same bytes; topocoll answered the preloaded run's MPI_Alltoallv on communicators of both
# sizes. Takes a few seconds.
# Exits 77 (skipped) when lmp and the library use different MPI libraries (an MPICH build of
# the library).
# Usage: lammps_check.sh LMP LIBTOPOCOLL_PMPI MPIEXEC WORK_DIR
set -uo pipefail
lmp="$1" library="$2" mpiexec="$3" work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
done_marker='^Total wall time' done_in=NAME/log.lammps
source "$here/plain_and_preloaded.sh"

if ! lmp="$(command -v "$lmp")"; then
  echo "lammps_check: no LAMMPS ('$1'): install Debian's lammps (scripts/install-deps.sh)" >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work"
cat >"$work/in.charged" <<'INPUT'
units lj
atom_style charge
lattice fcc 0.8442
region box block 0 6 0 6 0 6
create_box 2 box
create_atoms 1 box
mass * 1.0
set group all type/fraction 2 0.5 12345
set type 1 charge 1.0
set type 2 charge -1.0
velocity all create 1.5 87287 loop geom
pair_style lj/cut/coul/long 2.5
pair_coeff * * 1.0 1.0
kspace_style pppm 1.0e-4
kspace_modify collective yes
neighbor 0.3 bin
fix 1 all nve
thermo_modify format float %.15g
thermo 10
run 50
write_dump all custom final.dump id type x y z vx vy vz modify sort id format float %.17g
INPUT

answered="answered by topocoll, algorithm"
run_program plain -- "$lmp" -in ../in.charged -log log.lammps
check_ran plain $?
[[ $failed -eq 0 ]] || exit 1

run_program preloaded --preload "$library" --env TOPOCOLL_VERBOSE=1 --env TOPOCOLL_ALLTOALLV=liu \
  --expect "topocoll: MPI_Alltoallv on a communicator of 4 ranks: $answered 'liu'" \
  --expect "topocoll: MPI_Alltoallv on a communicator of 2 ranks: $answered 'liu'" \
  -- "$lmp" -in ../in.charged -log log.lammps
after_preloaded_run $?

# Compared even when a check above failed, to say all. A thermo line: the step, then numbers.
same_lines "thermo lines" '^ +[0-9]+ +-?[0-9.]+( +-?[0-9.e+-]+)+ *$' NAME/log.lammps
same_bytes "final atoms" final.dump
[[ $failed -eq 0 ]] || exit 1
echo "lammps_check: both runs: $(grep -cE '^ +[0-9]+ +-?[0-9.]+( +-?[0-9.e+-]+)+ *$' \
     "$work/plain/log.lammps") thermo lines and $(($(wc -l <"$work/plain/final.dump") - 9)) atoms," \
     "the same"
echo "lammps_check: passed"
