#!/usr/bin/env bash
# Installs every Debian package topocoll needs to build, test and benchmark.
# Idempotent: when everything is present it prints nothing and exits 0.
# Usage: scripts/install-deps.sh [--with-mpich]
set -euo pipefail

packages=(
  cmake g++ gfortran make pkg-config
  libopenmpi-dev openmpi-bin        # the default real MPI
  libsimgrid-dev                    # SMPI: smpicxx, smpirun (SimGrid 3.32)
  libgtest-dev googletest           # tests
  python3                           # test checks that read CSV (tests/tools/bench_repeat_check.py)
  clang libclang-rt-14-dev          # parser fuzzing (libFuzzer) and sanitizers: scripts/fuzz.sh
  nlohmann-json3-dev                # JSON (topology files, plan output)
  libcli11-dev                      # command-line parsing of the tools
  libre2-dev                        # host-name patterns (pattern:REGEX), matched in linear time
  gnuplot-nox                       # plots of the simulated studies (scripts/two-cluster-plot.sh)
  chromium                          # renders topocoll-plan --svg pictures in a test (headless)
  libfftw3-dev libfftw3-mpi-dev     # drop-in tests: FFTW's distributed 3-D FFT
  hpcc                              # drop-in tests: the HPC Challenge suite (Open MPI build)
  quantum-espresso quantum-espresso-data  # drop-in tests: QE's pw.x (Fortran) and its Si pseudopotential
  cp2k cp2k-data                    # drop-in tests: CP2K (Fortran, mpif.h), its basis sets and potentials
  lammps                            # drop-in tests: LAMMPS (C++), PPPM's remaps by MPI_Alltoallv
)
if [[ "${1:-}" == "--with-mpich" ]]; then
  packages+=(libmpich-dev mpich)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
