/* Whether the MPI library keeps a truncated receive inside its buffer: rank 0 sends `sent`
 * bytes, rank 1 receives at most `room` bytes into a buffer followed by a guard of `sent` bytes,
 * then counts the guard bytes that changed. Prints one line; exits 1 when any did.
 * Usage: mpirun -np 2 truncation_check SENT ROOM */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, overwritten = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int sent = argc > 2 ? atoi(argv[1]) : 160000, room = argc > 2 ? atoi(argv[2]) : 1000;
  char* buffer = malloc((size_t)sent + (size_t)room);
  if (rank == 0) {
    memset(buffer, 'S', (size_t)sent);
    MPI_Send(buffer, sent, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    memset(buffer, 'G', (size_t)sent + (size_t)room);
    const int rc = MPI_Recv(buffer, room, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = room; i < sent + room; ++i) overwritten += buffer[i] != 'G';
    char error[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(rc, error, &length);
    printf("sent %d bytes to a %d-byte receive: %s; %d bytes after the buffer overwritten\n", sent, room, error,
           overwritten);
  }
  MPI_Bcast(&overwritten, 1, MPI_INT, 1, MPI_COMM_WORLD);
  free(buffer);
  MPI_Finalize();
  return overwritten > 0;
}
