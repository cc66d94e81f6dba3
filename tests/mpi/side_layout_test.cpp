// A side whose blocks are all alike (one count, one datatype) is laid out by a shortcut
// (side_layout.cpp's lay_out_alike); the same blocks given as per-peer counts and displacements
// take the general loop. Both must give the same layout, or fail alike, for every datatype
// shape (plain, strided, extent 0, no data in 8 bytes of extent), count (0, small, past the address space) and size.
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "exec/datatype_layout.hpp"
#include "exec/side_layout.hpp"
#include "exec/side_types.hpp"
#include "mpi_test_support.hpp"

namespace topocoll::testing {
namespace {

using exec::DatatypeLayout;
using exec::SideArguments;
using exec::SideLayout;
using exec::SideShape;

class SideLayouts : public MpiTest {};

struct Outcome {
  bool failed = false;
  int code = 0;
  SideLayout layout;
};

Outcome lay_out(const SideArguments& side, int size, MPI_Datatype type, bool force_staged) {
  DatatypeLayout described;
  EXPECT_FALSE(exec::describe_datatype(type, "type", described).has_value());
  const std::vector<DatatypeLayout> none;
  const exec::SideTypes types = exec::side_types(side, false, described, none);
  Outcome outcome;
  if (auto failure = exec::layout_side(side, SideShape::every_peer, size, 0, types, force_staged, "send", outcome.layout)) {
    outcome.failed = true;
    outcome.code = failure->code;
  }
  return outcome;
}

TEST_F(SideLayouts, BlocksAlikeAsIfGivenPerPeer) {
  MPI_Datatype strided = MPI_DATATYPE_NULL, no_extent = MPI_DATATYPE_NULL, nothing = MPI_DATATYPE_NULL,
               empty_but_wide = MPI_DATATYPE_NULL;
  ASSERT_EQ(MPI_Type_vector(2, 1, 3, MPI_INT, &strided), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&strided), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_create_resized(MPI_INT, 0, 0, &no_extent), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&no_extent), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_contiguous(0, MPI_INT, &nothing), MPI_SUCCESS);  // no data, 8 bytes of extent
  ASSERT_EQ(MPI_Type_create_resized(nothing, 0, 8, &empty_but_wide), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&empty_but_wide), MPI_SUCCESS);
  constexpr MPI_Count kHuge = MPI_Count{1} << 59;  // 32 blocks of it pass the address space
  int compared = 0, failed_alike = 0;
  for (MPI_Datatype type : {MPI_BYTE, MPI_INT, strided, no_extent, empty_but_wide}) {
    for (MPI_Count count : {MPI_Count{0}, MPI_Count{1}, MPI_Count{7}, kHuge}) {
      for (int size : {1, 2, 5, 32}) {
        for (bool staged : {false, true}) {
          static const char buffer[1] = {};
          SideArguments alike;
          alike.buffer = buffer;
          alike.count = count;
          alike.type = type;
          std::vector<MPI_Count> counts(static_cast<std::size_t>(size), count);
          std::vector<MPI_Aint> displs(static_cast<std::size_t>(size));
          bool displs_fit = true;
          for (int q = 0; q < size; ++q) {
            displs_fit = displs_fit && !__builtin_mul_overflow(MPI_Aint{q}, count, &displs[static_cast<std::size_t>(q)]);
          }
          if (!displs_fit) continue;  // no per-peer form to compare with
          SideArguments per_peer = alike;
          per_peer.large_counts = counts.data();
          per_peer.large_displs = displs.data();
          const Outcome shortcut = lay_out(alike, size, type, staged), general = lay_out(per_peer, size, type, staged);
          SCOPED_TRACE(::testing::Message() << "count " << count << ", size " << size << ", staged " << staged);
          ASSERT_EQ(shortcut.failed, general.failed);
          if (general.failed) {
            EXPECT_EQ(shortcut.code, general.code);
            ++failed_alike;
            continue;
          }
          EXPECT_EQ(shortcut.layout.offset, general.layout.offset);
          EXPECT_EQ(shortcut.layout.bytes, general.layout.bytes);
          EXPECT_EQ(shortcut.layout.elements, general.layout.elements);
          EXPECT_EQ(shortcut.layout.displs, general.layout.displs);
          EXPECT_EQ(shortcut.layout.total, general.layout.total);
          EXPECT_EQ(shortcut.layout.staged, general.layout.staged);
          EXPECT_EQ(shortcut.layout.base, general.layout.base);
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 80);
  EXPECT_GT(failed_alike, 0);  // the counts past the address space were compared too
  MPI_Type_free(&strided);
  MPI_Type_free(&no_extent);
  MPI_Type_free(&empty_but_wide);
  MPI_Type_free(&nothing);
}

// A layout laid over a previous one (a thread's calls reuse their CheckedCall: reused.hpp) is
// the layout a fresh one gets.
TEST_F(SideLayouts, ALayoutOverAnotherIsFresh) {
  static const char buffer[1] = {};
  SideArguments side;
  side.buffer = buffer;
  side.count = 3;
  side.type = MPI_INT;
  const Outcome fresh = lay_out(side, 4, MPI_INT, false);
  DatatypeLayout described;
  ASSERT_FALSE(exec::describe_datatype(MPI_INT, "type", described).has_value());
  const std::vector<DatatypeLayout> none;
  SideLayout reused;
  std::vector<int> counts(16, 9), displs(16, 40);
  SideArguments earlier = side;
  earlier.counts = counts.data();
  earlier.displs = displs.data();
  const exec::SideTypes types = exec::side_types(side, false, described, none);
  ASSERT_FALSE(exec::layout_side(earlier, SideShape::every_peer, 16, 0, types, true, "send", reused).has_value());
  ASSERT_FALSE(exec::layout_side(side, SideShape::every_peer, 4, 0, types, false, "send", reused).has_value());
  EXPECT_EQ(reused.offset, fresh.layout.offset);
  EXPECT_EQ(reused.bytes, fresh.layout.bytes);
  EXPECT_EQ(reused.total, fresh.layout.total);
  EXPECT_EQ(reused.staged, fresh.layout.staged);
  EXPECT_EQ(reused.displs, fresh.layout.displs);
}

}  // namespace
}  // namespace topocoll::testing
