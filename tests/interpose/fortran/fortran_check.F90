! A Fortran MPI program, built without topocoll, that checks the operations topocoll answers
! (MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw, MPI_Scatter, MPI_Gather, MPI_Scatterv,
! MPI_Gatherv, and the nonblocking forms of all but MPI_Alltoallw; built with WITH_PCOLLREQ
! under Open MPI, its persistent forms MPIX_ALLTOALL_INIT ... of all but MPIX_ALLTOALLW_INIT:
! persistent_body.inc) through each of MPI's three Fortran bindings: mpif.h, `use mpi` and
! `use mpi_f08` (with mpif-ext.h, `use mpi_ext` and `use mpi_f08_ext` for the persistent forms); with
! separate buffers, MPI_IN_PLACE, a derived datatype, and arguments that MPI says are ignored
! left unset; on MPI_COMM_WORLD and on a split of it. Run with libtopocoll-pmpi.so preloaded to
! check the library's answers to Fortran callers (tests/interpose/CMakeLists.txt). Exits 0
! when every check passes on every rank.
module check_values
  implicit none
contains
  ! The value rank `from` sends to rank `to` at position `k` of the block.
  integer function value_of(from, to, k)
    integer, intent(in) :: from, to, k
    value_of = value_in(0, from, to, k)
  end function

  ! The same in round `round` of a persistent collective's starts.
  integer function value_in(round, from, to, k)
    integer, intent(in) :: round, from, to, k
    value_in = round * 100000000 + from * 1000000 + to * 1000 + k
  end function

  subroutine report(ok, what, failures)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer, intent(inout) :: failures
    if (.not. ok) then
      write (0, '(a, a, a)') 'fortran_check: ', what, ' failed'
      failures = failures + 1
    end if
  end subroutine

  subroutine expect_ok(ierr, what, failures)
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: what
    integer, intent(inout) :: failures
    call report(ierr == 0, what, failures)
  end subroutine

  ! Block q of `blocks` holds what `rank` sends to q.
  subroutine fill_blocks(blocks, rank, nranks, n)
    integer, intent(out) :: blocks(:)
    integer, intent(in) :: rank, nranks, n
    call fill_round(blocks, 0, rank, nranks, n)
  end subroutine

  ! The same in round `round`.
  subroutine fill_round(blocks, round, rank, nranks, n)
    integer, intent(out) :: blocks(:)
    integer, intent(in) :: round, rank, nranks, n
    integer :: peer, k
    blocks = -1
    do peer = 0, nranks - 1
      do k = 0, n - 1
        blocks(peer * n + k + 1) = value_in(round, rank, peer, k)
      end do
    end do
  end subroutine

  ! The round the expect_ checks compare with: `round` when given (a persistent collective's
  ! starts), else 0 (value_of's).
  integer function round_or_0(round)
    integer, intent(in), optional :: round
    round_or_0 = 0
    if (present(round)) round_or_0 = round
  end function

  ! Block q of `blocks` holds what q sent to `rank` (at a root: what q gathered to it).
  subroutine expect_blocks(ierr, blocks, rank, nranks, n, what, failures, round)
    integer, intent(in) :: ierr, blocks(:), rank, nranks, n
    character(len=*), intent(in) :: what
    integer, intent(inout) :: failures
    integer, intent(in), optional :: round
    integer :: counts(nranks), displs(nranks), peer
    counts = n
    displs = [(peer * n, peer = 0, nranks - 1)]
    call expect_v(ierr, blocks, counts, displs, rank, nranks, what, failures, round)
  end subroutine

  ! The first n elements hold what the root sent to `rank`.
  subroutine expect_block_from(ierr, blocks, root, rank, n, what, failures, round)
    integer, intent(in) :: ierr, blocks(:), root, rank, n
    character(len=*), intent(in) :: what
    integer, intent(inout) :: failures
    integer, intent(in), optional :: round
    integer :: k
    logical :: ok
    ok = ierr == 0
    do k = 0, n - 1
      ok = ok .and. blocks(k + 1) == value_in(round_or_0(round), root, rank, k)
    end do
    call report(ok, what, failures)
  end subroutine

  ! Rank q's block (counts(q) elements at displs(q)) holds what q sent to `rank`.
  subroutine expect_v(ierr, blocks, counts, displs, rank, nranks, what, failures, round)
    integer, intent(in) :: ierr, blocks(:), counts(:), displs(:), rank, nranks
    character(len=*), intent(in) :: what
    integer, intent(inout) :: failures
    integer, intent(in), optional :: round
    integer :: peer, k
    logical :: ok
    ok = ierr == 0
    do peer = 0, nranks - 1
      do k = 0, counts(peer + 1) - 1
        ok = ok .and. blocks(displs(peer + 1) + k + 1) == value_in(round_or_0(round), peer, rank, k)
      end do
    end do
    call report(ok, what, failures)
  end subroutine
end module check_values

module check_mpif_h
  use check_values
  implicit none
  include 'mpif.h'
#ifdef WITH_PCOLLREQ
  include 'mpif-ext.h'
#endif
contains
#define CHECK_ALL check_with_mpif_h
#define COMM_T integer
#define TYPE_T integer
#define REQUEST_T integer
#include "collectives_body.inc"
#ifdef WITH_PCOLLREQ
#define PERSISTENT_ALL persistent_with_mpif_h
#include "persistent_body.inc"
#undef PERSISTENT_ALL
#endif
#undef CHECK_ALL
#undef COMM_T
#undef TYPE_T
#undef REQUEST_T
end module check_mpif_h

module check_use_mpi
  use check_values
  use mpi
#ifdef WITH_PCOLLREQ
  use mpi_ext
#endif
  implicit none
contains
#define CHECK_ALL check_with_use_mpi
#define COMM_T integer
#define TYPE_T integer
#define REQUEST_T integer
#include "collectives_body.inc"
#ifdef WITH_PCOLLREQ
#define PERSISTENT_ALL persistent_with_use_mpi
#include "persistent_body.inc"
#undef PERSISTENT_ALL
#endif
#undef CHECK_ALL
#undef COMM_T
#undef TYPE_T
#undef REQUEST_T
end module check_use_mpi

module check_use_mpi_f08
  use check_values
  use mpi_f08
#ifdef WITH_PCOLLREQ
  use mpi_f08_ext
#endif
  implicit none
contains
#define CHECK_ALL check_with_use_mpi_f08
#define COMM_T type(MPI_Comm)
#define TYPE_T type(MPI_Datatype)
#define REQUEST_T type(MPI_Request)
#include "collectives_body.inc"
#ifdef WITH_PCOLLREQ
#define PERSISTENT_ALL persistent_with_use_mpi_f08
#include "persistent_body.inc"
#undef PERSISTENT_ALL
#endif
#undef CHECK_ALL
#undef COMM_T
#undef TYPE_T
#undef REQUEST_T
end module check_use_mpi_f08

program fortran_check
  use mpi_f08
  use check_mpif_h, only: check_with_mpif_h
  use check_use_mpi, only: check_with_use_mpi
  use check_use_mpi_f08, only: check_with_use_mpi_f08
#ifdef WITH_PCOLLREQ
  use check_mpif_h, only: persistent_with_mpif_h
  use check_use_mpi, only: persistent_with_use_mpi
  use check_use_mpi_f08, only: persistent_with_use_mpi_f08
#endif
  implicit none
  integer :: rank, failures, total_failures
  type(MPI_Comm) :: half

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half)
  failures = 0
  call check_with_mpif_h(MPI_COMM_WORLD%MPI_VAL, 'mpif.h, MPI_COMM_WORLD:', failures)
  call check_with_mpif_h(half%MPI_VAL, 'mpif.h, a split:', failures)
  call check_with_use_mpi(MPI_COMM_WORLD%MPI_VAL, 'use mpi, MPI_COMM_WORLD:', failures)
  call check_with_use_mpi(half%MPI_VAL, 'use mpi, a split:', failures)
  call check_with_use_mpi_f08(MPI_COMM_WORLD, 'use mpi_f08, MPI_COMM_WORLD:', failures)
  call check_with_use_mpi_f08(half, 'use mpi_f08, a split:', failures)
#ifdef WITH_PCOLLREQ
  call persistent_with_mpif_h(MPI_COMM_WORLD%MPI_VAL, 'mpif.h, MPI_COMM_WORLD:', failures)
  call persistent_with_mpif_h(half%MPI_VAL, 'mpif.h, a split:', failures)
  call persistent_with_use_mpi(MPI_COMM_WORLD%MPI_VAL, 'use mpi, MPI_COMM_WORLD:', failures)
  call persistent_with_use_mpi(half%MPI_VAL, 'use mpi, a split:', failures)
  call persistent_with_use_mpi_f08(MPI_COMM_WORLD, 'use mpi_f08, MPI_COMM_WORLD:', failures)
  call persistent_with_use_mpi_f08(half, 'use mpi_f08, a split:', failures)
#endif
  call MPI_Comm_free(half)
  call MPI_Allreduce(failures, total_failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. total_failures == 0) write (0, '(a)') 'fortran_check: every check passed'
  call MPI_Finalize()
  if (total_failures > 0) stop 1
end program fortran_check
