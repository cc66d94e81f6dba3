// Negative displacements, which MPI allows (a block before the buffer argument, inside the
// caller's array): alltoallv, scatterv and gatherv under each of their algorithms, with a plain
// type (the user's buffer addressed directly) and a strided one (packed), against the MPI
// library's own call with the same arguments, byte for byte over the whole array, gaps included.
#include <string>
#include <vector>

#include "mpi_test_support.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

constexpr int kRoot = 0;

// Ints in the block `source` sends `destination`.
int pair_count(int source, int destination) { return 1 + (source + 2 * destination) % 3; }

// p blocks laid out in reverse order, a gap of one element after each, with displacements
// (in elements) counted from the middle of the array: the lower blocks' are negative.
struct Placement {
  std::vector<int> counts, displs;
  int elements = 0;  // the array's length in elements
  int middle = 0;    // where the buffer argument points, in elements
};

Placement place(const std::vector<int>& counts) {
  Placement out;
  out.counts = counts;
  out.displs.assign(counts.size(), 0);
  for (std::size_t q = counts.size(); q-- > 0;) {
    out.displs[q] = out.elements;
    out.elements += counts[q] + 1;
  }
  out.middle = out.elements / 2;
  for (int& d : out.displs) d -= out.middle;
  return out;
}

// The element type: MPI_INT, or a vector of 2 ints at stride 2 (3 ints of extent, since a
// vector's extent ends at its last int), which topocoll packs.
struct ElementType {
  MPI_Datatype type;
  int ints_per_element;  // extent in ints
};

class NegativeDisplacements : public MpiTest, public ::testing::WithParamInterface<bool> {
 protected:
  void SetUp() override {
    if (GetParam()) {
      MPI_Type_vector(2, 1, 2, MPI_INT, &strided_);
      MPI_Type_commit(&strided_);
      element_ = {strided_, 3};
    }
  }
  void TearDown() override {
    if (strided_ != MPI_DATATYPE_NULL) MPI_Type_free(&strided_);
    MpiTest::TearDown();
  }
  // An array of `elements` elements whose ints are (tag, index), and the address `middle`
  // elements in.
  std::vector<int> array_of(int elements, int tag) const {
    std::vector<int> ints(static_cast<std::size_t>(elements * element_.ints_per_element));
    for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = tag < 0 ? kCanary : cell_value(tag, 0, i);
    return ints;
  }
  int* at(std::vector<int>& ints, int middle) const { return ints.data() + middle * element_.ints_per_element; }

  MPI_Datatype strided_ = MPI_DATATYPE_NULL;
  ElementType element_{MPI_INT, 1};
};

TEST_P(NegativeDisplacements, AlltoallvMatchesTheLibrary) {
  const int p = size_of(MPI_COMM_WORLD), rank = rank_in(MPI_COMM_WORLD);
  std::vector<int> out_counts, in_counts;
  for (int q = 0; q < p; ++q) {
    out_counts.push_back(pair_count(rank, q));
    in_counts.push_back(pair_count(q, rank));
  }
  const Placement out = place(out_counts), in = place(in_counts);
  for (const std::string name : {"direct", "pairwise", "liu"}) {
    std::vector<int> send = array_of(out.elements, rank), reference = array_of(in.elements, -1), result = reference;
    const MPI_Datatype t = element_.type;
    MPI_Alltoallv(at(send, out.middle), out.counts.data(), out.displs.data(), t, at(reference, in.middle),
                  in.counts.data(), in.displs.data(), t, MPI_COMM_WORLD);
    CollectiveOptions options;
    options.algorithm = name;
    const int rc = alltoallv(at(send, out.middle), out.counts.data(), out.displs.data(), t, at(result, in.middle),
                             in.counts.data(), in.displs.data(), t, MPI_COMM_WORLD, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << name << ": " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, 1)) << name;
  }
}

TEST_P(NegativeDisplacements, ScattervAndGathervMatchTheLibrary) {
  const int p = size_of(MPI_COMM_WORLD), rank = rank_in(MPI_COMM_WORLD);
  std::vector<int> counts;
  for (int q = 0; q < p; ++q) counts.push_back(pair_count(kRoot, q));
  const Placement root_side = place(counts);
  const int mine = counts[static_cast<std::size_t>(rank)];
  const MPI_Datatype t = element_.type;
  for (const std::string name : {"linear", "binomial", "topo"}) {
    CollectiveOptions options;
    options.algorithm = name;
    if (name == "topo") options.topology = "clusters:" + std::to_string(p - p / 2) + "," + std::to_string(p / 2);
    if (name == "topo" && p < 2) continue;
    // Scatterv from the root's array with negative displacements.
    std::vector<int> all = array_of(root_side.elements, kRoot);
    std::vector<int> reference = array_of(mine, -1), result = reference;
    MPI_Scatterv(at(all, root_side.middle), root_side.counts.data(), root_side.displs.data(), t, reference.data(), mine,
                 t, kRoot, MPI_COMM_WORLD);
    int rc = scatterv(at(all, root_side.middle), root_side.counts.data(), root_side.displs.data(), t, result.data(),
                      mine, t, kRoot, MPI_COMM_WORLD, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << name << " scatterv: " << topocoll_error_message();
    EXPECT_TRUE(same_elements(result, reference, 1)) << name << " scatterv";
    // Gatherv into the root's array with negative displacements.
    std::vector<int> own = array_of(mine, rank + 1);
    std::vector<int> gathered_reference = array_of(root_side.elements, -1), gathered = gathered_reference;
    MPI_Gatherv(own.data(), mine, t, at(gathered_reference, root_side.middle), root_side.counts.data(),
                root_side.displs.data(), t, kRoot, MPI_COMM_WORLD);
    rc = gatherv(own.data(), mine, t, at(gathered, root_side.middle), root_side.counts.data(), root_side.displs.data(),
                 t, kRoot, MPI_COMM_WORLD, options);
    EXPECT_EQ(rc, MPI_SUCCESS) << name << " gatherv: " << topocoll_error_message();
    EXPECT_TRUE(same_elements(gathered, gathered_reference, 1)) << name << " gatherv";
  }
}

INSTANTIATE_TEST_SUITE_P(PlainAndPacked, NegativeDisplacements, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "strided" : "plain");
                         });

}  // namespace
}  // namespace topocoll::testing
