#!/usr/bin/env bash
# Installs topocoll from a build tree into a fresh prefix and uses it as an outside project
# would: builds tests/package/example with CMake (find_package(topocoll)) and with
# pkg-config (C and C++), runs every program on 4 ranks, and preloads the installed
# libtopocoll-pmpi.so into one of them.
# Usage: package_check.sh BUILD_DIR SOURCE_DIR MPIEXEC WORK_DIR
set -euo pipefail
build_dir="$1" source_dir="$2" mpiexec="$3" work="$4"
example="$source_dir/tests/package/example"
run=("$source_dir/tests/interpose/run_mpi_program.sh" --mpiexec "$mpiexec" --np 4)
prefix="$work/prefix"

rm -rf "$work"
mkdir -p "$work"
echo "=== install into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log"

export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name topocoll.pc)")"
libdir=$(cd "$(pkg-config --variable=libdir topocoll)" && pwd)  # the .pc file says prefix/lib/pkgconfig/../../lib
missing=0
for file in include/topocoll/topocoll.h include/topocoll/topocoll.hpp bin/topocoll-plan bin/topocoll-bench \
            share/doc/topocoll/README.md "${libdir#$prefix/}/libtopocoll.so" "${libdir#$prefix/}/libtopocoll-pmpi.so" \
            "${libdir#$prefix/}/cmake/topocoll/topocollConfig.cmake"; do
  [[ -e "$prefix/$file" ]] || { echo "FAIL: not installed: $file" >&2; missing=1; }
done
[[ $missing -eq 0 ]] || exit 1
"$prefix/bin/topocoll-plan" --help >/dev/null

echo "=== CMake: find_package(topocoll)"
cmake -S "$example" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log"
cmake --build "$work/cmake-build" >>"$work/cmake.log"

echo "=== pkg-config topocoll: $(pkg-config --cflags --libs topocoll)"
rpath="-Wl,-rpath,$libdir"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
cc -o "$work/example_c_pkgconfig" "$example/example.c" $(pkg-config --cflags --libs topocoll) "$rpath"
# shellcheck disable=SC2046
c++ -std=c++17 -o "$work/example_cpp_pkgconfig" "$example/example.cpp" $(pkg-config --cflags --libs topocoll) "$rpath"

for program in "$work/cmake-build/example_c" "$work/cmake-build/example_cpp" "$work/example_c_pkgconfig" \
               "$work/example_cpp_pkgconfig"; do
  echo "=== run $(basename "$program")"
  "${run[@]}" -- "$program"
done

echo "=== the installed drop-in library, preloaded"
"${run[@]}" --preload "$libdir/libtopocoll-pmpi.so" --env TOPOCOLL_VERBOSE=1 --env TOPOCOLL_ALLTOALL=shift \
  --expect "MPI_Alltoall on MPI_COMM_WORLD \(4 ranks\): answered by topocoll, algorithm 'shift'" \
  -- "$work/example_c_pkgconfig"
echo "package_check: passed"
