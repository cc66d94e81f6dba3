/* FFTW's distributed 3-D FFT as an unmodified application. Plans, out of place with
 * FFTW_ESTIMATE | FFTW_DESTROY_INPUT, a forward complex DFT of N0 x N1 x N2 points over all
 * ranks that leaves its output transposed (FFTW_MPI_TRANSPOSED_OUT) and the backward DFT that
 * takes that layout in (FFTW_MPI_TRANSPOSED_IN), as spectral solvers do. With these flags FFTW
 * transposes the distributed array with its mpi-transpose-alltoall solver: MPI_Alltoall when
 * the slabs divide evenly (N0 and N1 multiples of the number of ranks), MPI_Alltoallv
 * otherwise. (Without the TRANSPOSED flags it transposes in place with MPI_Sendrecv.)
 * Checks: the forward result, gathered on rank 0, against a serial FFTW transform of the same
 * data, and the round trip against N0*N1*N2 times the input on every rank.
 * Built without topocoll: the drop-in library is preloaded.
 *
 * Usage: fftw_check [N0 N1 N2]   (default 16 16 16). Exit 0 when both largest errors,
 * relative to the largest magnitude compared, are below 1e-12. */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const double kTolerance = 1e-12;

/* The input at global row-major index i: deterministic, not smooth. */
static void input_at(ptrdiff_t i, fftw_complex z) {
  z[0] = (double)((i * 7919) % 1009) / 1009.0 - 0.5;
  z[1] = (double)((i * 104729) % 997) / 997.0 - 0.5;
}

/* Tracks the largest |got - want| and the largest |want|. */
struct comparison { double error, magnitude; };

static void compare(struct comparison* c, const fftw_complex got, const fftw_complex want) {
  c->error = fmax(c->error, hypot(got[0] - want[0], got[1] - want[1]));
  c->magnitude = fmax(c->magnitude, hypot(want[0], want[1]));
}

static double relative(const struct comparison* c) { return c->error / (c->magnitude > 0 ? c->magnitude : 1); }

/* Rank 0: the transposed forward output (N1 x N0 x N2, rank slabs in order along N1) against
 * a serial transform (N0 x N1 x N2). */
static double serial_check(const fftw_complex* transposed, ptrdiff_t n0, ptrdiff_t n1, ptrdiff_t n2) {
  const ptrdiff_t total = n0 * n1 * n2;
  fftw_complex* in = fftw_alloc_complex(total);
  fftw_complex* out = fftw_alloc_complex(total);
  fftw_plan serial = fftw_plan_dft_3d((int)n0, (int)n1, (int)n2, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  for (ptrdiff_t i = 0; i < total; ++i) input_at(i, in[i]);
  fftw_execute(serial);
  struct comparison c = {0, 0};
  for (ptrdiff_t i0 = 0; i0 < n0; ++i0)
    for (ptrdiff_t i1 = 0; i1 < n1; ++i1)
      for (ptrdiff_t i2 = 0; i2 < n2; ++i2)
        compare(&c, transposed[(i1 * n0 + i0) * n2 + i2], out[(i0 * n1 + i1) * n2 + i2]);
  fftw_destroy_plan(serial);
  fftw_free(in);
  fftw_free(out);
  return relative(&c);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int sized = argc > 3;
  const ptrdiff_t n0 = sized ? atol(argv[1]) : 16, n1 = sized ? atol(argv[2]) : 16, n2 = sized ? atol(argv[3]) : 16;

  ptrdiff_t local_n0, local_0_start, local_n1, local_1_start;
  const ptrdiff_t local_alloc = fftw_mpi_local_size_3d_transposed(n0, n1, n2, MPI_COMM_WORLD, &local_n0,
                                                                  &local_0_start, &local_n1, &local_1_start);
  fftw_complex* in = fftw_alloc_complex(local_alloc);
  fftw_complex* out = fftw_alloc_complex(local_alloc);
  fftw_complex* back = fftw_alloc_complex(local_alloc);
  const unsigned flags = FFTW_ESTIMATE | FFTW_DESTROY_INPUT;
  fftw_plan forward = fftw_mpi_plan_dft_3d(n0, n1, n2, in, out, MPI_COMM_WORLD, FFTW_FORWARD,
                                           flags | FFTW_MPI_TRANSPOSED_OUT);
  fftw_plan backward = fftw_mpi_plan_dft_3d(n0, n1, n2, out, back, MPI_COMM_WORLD, FFTW_BACKWARD,
                                            flags | FFTW_MPI_TRANSPOSED_IN);
  const ptrdiff_t row = n1 * n2;
  for (ptrdiff_t i = 0; i < local_n0 * row; ++i) input_at(local_0_start * row + i, in[i]);
  fftw_execute(forward);  /* destroys `in` */

  /* Gather the forward output before the backward transform destroys it. */
  int my_doubles = (int)(local_n1 * n0 * n2 * 2);
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  MPI_Gather(&my_doubles, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 0, at = 0; rank == 0 && r < size; at += counts[r], ++r) displs[r] = at;
  fftw_complex* gathered = rank == 0 ? fftw_alloc_complex(n0 * n1 * n2) : NULL;
  MPI_Gatherv(out, my_doubles, MPI_DOUBLE, gathered, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  fftw_execute(backward);

  struct comparison round_trip = {0, 0};
  const double scale = (double)(n0 * n1 * n2);
  for (ptrdiff_t i = 0; i < local_n0 * row; ++i) {
    fftw_complex want;
    input_at(local_0_start * row + i, want);
    want[0] *= scale, want[1] *= scale;
    compare(&round_trip, back[i], want);
  }
  double worst_round_trip = 0;
  const double mine = relative(&round_trip);
  MPI_Reduce(&mine, &worst_round_trip, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  int passed = 1;
  if (rank == 0) {
    const double forward_error = serial_check(gathered, n0, n1, n2);
    passed = forward_error < kTolerance && worst_round_trip < kTolerance;
    printf("fftw_check: %tdx%tdx%td complex DFT on %d ranks: relative error %.3g against serial FFTW, "
           "%.3g after the round trip: %s\n",
           n0, n1, n2, size, forward_error, worst_round_trip, passed ? "passed" : "FAILED");
    fftw_free(gathered);
  }
  MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  fftw_destroy_plan(forward);
  fftw_destroy_plan(backward);
  fftw_free(in), fftw_free(out), fftw_free(back);
  free(counts), free(displs);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return passed ? 0 : 1;
}
