// Scatter, gather and their v forms against the MPI library's own: every rooted algorithm and
// auto, every root, counts 0 to 100000, a datatype with holes, MPI_IN_PLACE at the root, the v
// forms with displacements out of order and gaps, a sub-communicator; arguments the root alone
// reads are garbage elsewhere; and the errors MPI's rules call for.
#include <algorithm>
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

std::vector<std::string> rooted_names() {
  std::vector<std::string> names;
  for (const Algorithm& a : algorithms_for(Operation::scatter)) names.emplace_back(a.name);
  names.emplace_back("auto");  // with the shipped crossbar calibration
  return names;
}

// Block of `count` ints for rank q, its values encoding (root, q, index).
std::vector<int> block_of(int root, int q, std::size_t count) {
  std::vector<int> block(count);
  for (std::size_t i = 0; i < count; ++i) block[i] = cell_value(root, q, i);
  return block;
}

class Rooted : public MpiTest, public ::testing::WithParamInterface<std::string> {
 protected:
  // topo runs on two clusters of MPI_COMM_WORLD's ranks (the first one larger), on top of the
  // node level it discovers.
  CollectiveOptions options() const {
    CollectiveOptions o;
    o.algorithm = GetParam();
    const int p = size_of(MPI_COMM_WORLD);
    if ((GetParam() == "topo" || GetParam() == "auto") && p >= 2) {
      o.topology = "clusters:" + std::to_string(p - p / 2) + "," + std::to_string(p / 2);
    }
    if (GetParam() == "auto") o.calibration = std::string(TOPOCOLL_SOURCE_DIR) + "/platforms/crossbar-16.calibration.json";
    return o;
  }
};

// Uniform scatter and gather, every root, counts 0..1000, out of place and in place; 100000 ints
// per rank from the first and the last root.
TEST_P(Rooted, ScatterAndGatherMatchMpi) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm), rank = rank_in(comm);
  for (std::size_t count : {0u, 1u, 3u, 1000u, 100000u}) {
    for (int root = 0; root < p; ++root) {
      for (bool in_place : {false, true}) {
        // 400 KB per rank (above every eager limit): two roots, out of place, to keep it short.
        if (count == 100000u && (in_place || (root != 0 && root != p - 1))) continue;
        const std::string what = GetParam() + ", count " + std::to_string(count) + ", root " + std::to_string(root) +
                                 (in_place ? ", in place" : "");
        std::vector<int> all;  // the root's p blocks
        for (int q = 0; q < p; ++q) {
          const std::vector<int> b = block_of(root, q, count);
          all.insert(all.end(), b.begin(), b.end());
        }
        const bool at_root = rank == root;
        // Scatter: rank q gets block q; the root's own block stays in its send buffer in place.
        std::vector<int> send = at_root ? all : std::vector<int>{};
        std::vector<int> mine(count, kCanary), reference(count, kCanary);
        const void* recv_arg = in_place && at_root ? MPI_IN_PLACE : mine.data();
        int rc = scatter(send.data(), static_cast<int>(count), MPI_INT, const_cast<void*>(recv_arg),
                         static_cast<int>(count), MPI_INT, root, comm, options());
        EXPECT_EQ(rc, MPI_SUCCESS) << what << ": " << topocoll_error_message();
        MPI_Scatter(all.data(), static_cast<int>(count), MPI_INT, reference.data(), static_cast<int>(count), MPI_INT,
                    root, comm);
        if (in_place && at_root) {
          EXPECT_TRUE(same_elements(mine, std::vector<int>(count, kCanary), 1)) << what << ": recvbuf touched";
          EXPECT_TRUE(same_elements(send, all, count)) << what << ": the root's buffer changed";
        } else {
          EXPECT_TRUE(same_elements(mine, reference, count)) << what << ": scatter";
        }
        // Gather: the root gets every rank's block q, its own already in place when asked.
        const std::vector<int> contribution = block_of(root, rank, count);
        std::vector<int> gathered(at_root ? all.size() : 0, kCanary);
        if (in_place && at_root) {
          std::copy(contribution.begin(), contribution.end(), gathered.begin() + static_cast<long>(rank * count));
        }
        const void* send_arg = in_place && at_root ? MPI_IN_PLACE : contribution.data();
        rc = gather(send_arg, static_cast<int>(count), MPI_INT, gathered.data(), static_cast<int>(count), MPI_INT,
                    root, comm, options());
        EXPECT_EQ(rc, MPI_SUCCESS) << what << ": " << topocoll_error_message();
        if (at_root) {
          EXPECT_TRUE(same_elements(gathered, all, std::max<std::size_t>(count, 1))) << what << ": gather";
        }
      }
    }
  }
}

// The v forms: rank q's block has q % 3 * 2 + (q == 1 ? 0 : 1) ints (one empty), placed in
// reverse order with a gap of 2 ints after each at the root; only the root passes arrays.
TEST_P(Rooted, VFormsMatchMpiWithGapsAndGarbageElsewhere) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm), rank = rank_in(comm);
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  int place = 0;
  for (int q = p - 1; q >= 0; --q) {
    counts[static_cast<std::size_t>(q)] = q == 1 ? 0 : q % 3 * 2 + 1;
    displs[static_cast<std::size_t>(q)] = place;
    place += counts[static_cast<std::size_t>(q)] + 2;
  }
  const int mine_count = counts[static_cast<std::size_t>(rank)];
  for (int root = 0; root < p; ++root) {
    const std::string what = GetParam() + ", root " + std::to_string(root);
    const bool at_root = rank == root;
    std::vector<int> root_buffer(static_cast<std::size_t>(place), kCanary);
    for (int q = 0; q < p; ++q) {
      const std::vector<int> b = block_of(root, q, static_cast<std::size_t>(counts[static_cast<std::size_t>(q)]));
      std::copy(b.begin(), b.end(), root_buffer.begin() + displs[static_cast<std::size_t>(q)]);
    }
    const int* root_counts = at_root ? counts.data() : nullptr;  // ignored elsewhere, by MPI's rules
    const int* root_displs = at_root ? displs.data() : nullptr;
    std::vector<int> mine(static_cast<std::size_t>(mine_count) + 1, kCanary), reference = mine;
    int rc = scatterv(at_root ? root_buffer.data() : nullptr, root_counts, root_displs, MPI_INT, mine.data(),
                      mine_count, MPI_INT, root, comm, options());
    EXPECT_EQ(rc, MPI_SUCCESS) << what << ": " << topocoll_error_message();
    MPI_Scatterv(root_buffer.data(), counts.data(), displs.data(), MPI_INT, reference.data(), mine_count, MPI_INT,
                 root, comm);
    EXPECT_TRUE(same_elements(mine, reference, 1)) << what << ": scatterv";

    const std::vector<int> contribution = block_of(root, rank, static_cast<std::size_t>(mine_count));
    std::vector<int> gathered(at_root ? root_buffer.size() : 0, kCanary);
    rc = gatherv(contribution.data(), mine_count, MPI_INT, gathered.data(), root_counts, root_displs, MPI_INT, root,
                 comm, options());
    EXPECT_EQ(rc, MPI_SUCCESS) << what << ": " << topocoll_error_message();
    if (at_root) {
      EXPECT_TRUE(same_elements(gathered, root_buffer, 1)) << what << ": gatherv (gaps untouched)";
    }
  }
}

// A vector type with holes (2 ints of every 3) on the root's side, contiguous ints elsewhere,
// on a sub-communicator of the odd and even ranks: staged packing and unpacking.
TEST_P(Rooted, DatatypeWithHolesOnASubCommunicator) {
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank_in(MPI_COMM_WORLD) % 2, 0, &half);
  const int p = size_of(half), rank = rank_in(half);
  constexpr int kBlocks = 4;  // per rank: kBlocks pieces of 2 ints
  MPI_Datatype pieces = MPI_DATATYPE_NULL;
  MPI_Type_vector(kBlocks, 2, 3, MPI_INT, &pieces);
  MPI_Datatype block = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(pieces, 0, static_cast<MPI_Aint>(3 * kBlocks * sizeof(int)), &block);
  MPI_Type_commit(&block);
  const int root = p - 1;
  const std::size_t per_rank = 2 * kBlocks, spread = 3 * kBlocks;
  std::vector<int> spread_buffer(spread * static_cast<std::size_t>(p), kCanary);
  std::vector<int> expected_mine(per_rank);
  for (int q = 0; q < p; ++q) {
    for (std::size_t i = 0; i < per_rank; ++i) {
      const int value = cell_value(root, q, i);
      spread_buffer[static_cast<std::size_t>(q) * spread + i / 2 * 3 + i % 2] = value;
      if (q == rank) expected_mine[i] = value;
    }
  }
  std::vector<int> mine(per_rank, kCanary);
  int rc = scatter(spread_buffer.data(), 1, block, mine.data(), static_cast<int>(per_rank), MPI_INT, root, half,
                   options());
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(mine, expected_mine, per_rank)) << GetParam() << ": scatter of a vector type";
  std::vector<int> gathered(rank == root ? spread_buffer.size() : 0, kCanary);
  rc = gather(expected_mine.data(), static_cast<int>(per_rank), MPI_INT, gathered.data(), 1, block, root, half,
              options());
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  if (rank == root) {
    EXPECT_TRUE(same_elements(gathered, spread_buffer, spread)) << GetParam() << ": holes kept";
  }
  MPI_Type_free(&block);
  MPI_Type_free(&pieces);
  MPI_Comm_free(&half);
}

INSTANTIATE_TEST_SUITE_P(AllRooted, Rooted, ::testing::ValuesIn(rooted_names()), test_name_of);

class RootedErrors : public ErrorsReturnTest {
 protected:
  void expect_error(int rc, int error_class, const std::string& fragment) {
    int actual = MPI_SUCCESS;
    MPI_Error_class(rc, &actual);
    EXPECT_EQ(actual, error_class) << topocoll_error_message();
    EXPECT_NE(std::string(topocoll_error_message()).find(fragment), std::string::npos) << topocoll_error_message();
  }
};

TEST_F(RootedErrors, MpiRulesAreEnforcedWithClearMessages) {
  const int p = size_of(comm_), rank = rank_in(comm_);
  std::vector<int> buffer(static_cast<std::size_t>(p) * 2, 7), one(2, 7);
  expect_error(scatter(buffer.data(), 2, MPI_INT, one.data(), 2, MPI_INT, p, comm_), MPI_ERR_ROOT,
               "the root is " + std::to_string(p));
  expect_error(gather(one.data(), 2, MPI_INT, buffer.data(), 2, MPI_INT, -1, comm_), MPI_ERR_ROOT, "the root is -1");
  CollectiveOptions automatic;
  automatic.algorithm = "auto";
  expect_error(scatter(buffer.data(), 2, MPI_INT, one.data(), 2, MPI_INT, 0, comm_, automatic), MPI_ERR_ARG,
               "auto needs the machine's calibration");
  CollectiveOptions unknown;
  unknown.algorithm = "pairwise";
  expect_error(gather(one.data(), 2, MPI_INT, buffer.data(), 2, MPI_INT, 0, comm_, unknown), MPI_ERR_ARG,
               "unknown algorithm 'pairwise'; valid names: linear, binomial, topo, native, auto");
  // MPI_IN_PLACE on the wrong side: the send buffer of scatter, the receive buffer of gather.
  expect_error(scatter(MPI_IN_PLACE, 2, MPI_INT, one.data(), 2, MPI_INT, 0, comm_), MPI_ERR_BUFFER,
               "only valid as the root's receive buffer");
  expect_error(gather(one.data(), 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, 0, comm_), MPI_ERR_BUFFER,
               "only valid as the root's send buffer");
  // Checks that only the root can make (its own block, its arrays) fail there, while the other
  // ranks pass right arguments: the root still takes part (one_bad_rank_test.cpp), so all call.
  const auto at_root = [&](int rc, int error_class, const std::string& text) {
    if (rank == 0) expect_error(rc, error_class, text);
  };
  at_root(scatter(buffer.data(), 2, MPI_INT, one.data(), rank == 0 ? 1 : 2, MPI_INT, 0, comm_), MPI_ERR_TRUNCATE,
          "larger than the block received");
  std::vector<int> counts(static_cast<std::size_t>(p), 1);
  at_root(scatterv(buffer.data(), rank == 0 ? nullptr : counts.data(), counts.data(), MPI_INT, one.data(), 1, MPI_INT,
                   0, comm_),
          MPI_ERR_ARG, "counts or displacements array is null");
  std::vector<int> overlapping(static_cast<std::size_t>(p), 0);
  if (p > 1) {
    at_root(gatherv(one.data(), 1, MPI_INT, buffer.data(), counts.data(), overlapping.data(), MPI_INT, 0, comm_),
            MPI_ERR_ARG, "overlap in the receive buffer");
  }
}

}  // namespace
}  // namespace topocoll::testing
