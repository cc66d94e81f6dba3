// Datatypes, for every algorithm: a strided vector type whose holes must stay untouched in
// the receive buffer (packed path), mixed strided/plain sides, MPI_IN_PLACE with a strided
// type, and a contiguous derived type that must use the user's buffers directly (no
// MPI_Pack or MPI_Unpack call at all, counted through the profiling interface).
#include "mpi_call_counters.hpp"
#include "mpi_test_support.hpp"
#include "topocoll/topocoll.h"
#include "topocoll/topocoll.hpp"

namespace topocoll::testing {
namespace {

// Three ints at stride 2, resized to an extent of 7 ints: the element covers ints 0, 2 and 4
// of each 7 and leaves holes at 1, 3, 5 and 6 (one inside-the-type, one trailing).
constexpr int kIntsPerElement = 3;
constexpr int kExtentInInts = 7;
constexpr int kElementsPerBlock = 2;

class StridedType {
 public:
  StridedType() {
    MPI_Datatype vector = MPI_DATATYPE_NULL;
    MPI_Type_vector(kIntsPerElement, 1, 2, MPI_INT, &vector);
    MPI_Type_create_resized(vector, 0, kExtentInInts * static_cast<MPI_Aint>(sizeof(int)), &type_);
    MPI_Type_free(&vector);
    MPI_Type_commit(&type_);
  }
  ~StridedType() { MPI_Type_free(&type_); }
  StridedType(const StridedType&) = delete;
  StridedType& operator=(const StridedType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Position of data int `k` (0-based within a block) in a strided buffer.
std::size_t strided_position(int block, int k) {
  const int element = k / kIntsPerElement;
  const int within = k % kIntsPerElement;
  return static_cast<std::size_t>((block * kElementsPerBlock + element) * kExtentInInts + 2 * within);
}

constexpr int kDataIntsPerBlock = kIntsPerElement * kElementsPerBlock;

std::vector<int> strided_buffer(int p, int fill) {
  return std::vector<int>(static_cast<std::size_t>(p * kElementsPerBlock * kExtentInInts), fill);
}

// A strided buffer whose data ints hold `values` (p blocks of kDataIntsPerBlock) and whose
// holes hold `hole_fill`.
std::vector<int> to_strided(const std::vector<int>& values, int p, int hole_fill) {
  std::vector<int> buffer = strided_buffer(p, hole_fill);
  for (int b = 0; b < p; ++b) {
    for (int k = 0; k < kDataIntsPerBlock; ++k) {
      buffer[strided_position(b, k)] = values[static_cast<std::size_t>(b * kDataIntsPerBlock + k)];
    }
  }
  return buffer;
}

AlltoallOptions options_for(const std::string& algorithm) {
  AlltoallOptions options;
  options.algorithm = algorithm;
  return options;
}

TEST_P(EveryAlgorithm, StridedTypeLeavesReceiveHolesUntouched) {
  const int p = size_of(MPI_COMM_WORLD);
  if (!applies(algorithm(), p, kDataIntsPerBlock * sizeof(int))) GTEST_SKIP();
  const StridedType strided;
  const std::vector<int> send = to_strided(make_send_blocks(MPI_COMM_WORLD, kDataIntsPerBlock), p, -7);
  std::vector<int> reference = strided_buffer(p, kCanary);
  std::vector<int> result = strided_buffer(p, kCanary);
  MPI_Alltoall(send.data(), kElementsPerBlock, strided.get(), reference.data(), kElementsPerBlock, strided.get(),
               MPI_COMM_WORLD);
  const int rc = alltoall(send.data(), kElementsPerBlock, strided.get(), result.data(), kElementsPerBlock,
                          strided.get(), MPI_COMM_WORLD, options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(result, reference, kElementsPerBlock * kExtentInInts));
  const std::vector<int> expected =
      to_strided(expected_receive_blocks(MPI_COMM_WORLD, kDataIntsPerBlock), p, kCanary);
  EXPECT_TRUE(same_elements(result, expected, kElementsPerBlock * kExtentInInts)) << "holes must keep the canary";
}

TEST_P(EveryAlgorithm, StridedSendPlainReceiveAndBack) {
  const int p = size_of(MPI_COMM_WORLD);
  if (!applies(algorithm(), p, kDataIntsPerBlock * sizeof(int))) GTEST_SKIP();
  const StridedType strided;
  const std::vector<int> plain_send = make_send_blocks(MPI_COMM_WORLD, kDataIntsPerBlock);
  const std::vector<int> plain_expected = expected_receive_blocks(MPI_COMM_WORLD, kDataIntsPerBlock);

  const std::vector<int> strided_send = to_strided(plain_send, p, -7);
  std::vector<int> plain_result(plain_send.size(), kCanary);
  int rc = alltoall(strided_send.data(), kElementsPerBlock, strided.get(), plain_result.data(), kDataIntsPerBlock,
                    MPI_INT, MPI_COMM_WORLD, options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(plain_result, plain_expected, kDataIntsPerBlock)) << "strided send, MPI_INT receive";

  std::vector<int> strided_result = strided_buffer(p, kCanary);
  rc = alltoall(plain_send.data(), kDataIntsPerBlock, MPI_INT, strided_result.data(), kElementsPerBlock,
                strided.get(), MPI_COMM_WORLD, options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(strided_result, to_strided(plain_expected, p, kCanary), kElementsPerBlock * kExtentInInts))
      << "MPI_INT send, strided receive";
}

TEST_P(EveryAlgorithm, InPlaceWithStridedType) {
  const int p = size_of(MPI_COMM_WORLD);
  if (!applies(algorithm(), p, kDataIntsPerBlock * sizeof(int))) GTEST_SKIP();
  const StridedType strided;
  std::vector<int> buffer = to_strided(make_send_blocks(MPI_COMM_WORLD, kDataIntsPerBlock), p, kCanary);
  const int rc = alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer.data(), kElementsPerBlock, strided.get(),
                          MPI_COMM_WORLD, options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_TRUE(same_elements(buffer, to_strided(expected_receive_blocks(MPI_COMM_WORLD, kDataIntsPerBlock), p, kCanary),
                            kElementsPerBlock * kExtentInInts));
}

TEST_P(EveryAlgorithm, ContiguousTypeIsNotPackedAndStridedTypeIs) {
  const int p = size_of(MPI_COMM_WORLD);
  constexpr int kIntsPerQuad = 4;
  constexpr int kQuadsPerBlock = 25;
  if (!applies(algorithm(), p, kIntsPerQuad * kQuadsPerBlock * sizeof(int))) GTEST_SKIP();
  MPI_Datatype quad = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(kIntsPerQuad, MPI_INT, &quad);
  MPI_Type_commit(&quad);
  const std::vector<int> send = make_send_blocks(MPI_COMM_WORLD, kIntsPerQuad * kQuadsPerBlock);
  std::vector<int> result(send.size(), kCanary);
  {
    const CountingScope counting;
    const int rc = alltoall(send.data(), kQuadsPerBlock, quad, result.data(), kQuadsPerBlock, quad, MPI_COMM_WORLD,
                            options_for(GetParam()));
    EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
    EXPECT_EQ(counting.counts().packs + counting.counts().unpacks, 0) << "a contiguous type must not be packed";
  }
  MPI_Type_free(&quad);
  EXPECT_TRUE(same_elements(result, expected_receive_blocks(MPI_COMM_WORLD, kIntsPerQuad * kQuadsPerBlock),
                            kIntsPerQuad * kQuadsPerBlock));

  if (!algorithm().has_schedule()) return;  // native: the MPI library packs its own way
  const StridedType strided;
  const std::vector<int> strided_send = to_strided(make_send_blocks(MPI_COMM_WORLD, kDataIntsPerBlock), p, -7);
  std::vector<int> strided_result = strided_buffer(p, kCanary);
  const CountingScope counting;
  const int rc = alltoall(strided_send.data(), kElementsPerBlock, strided.get(), strided_result.data(),
                          kElementsPerBlock, strided.get(), MPI_COMM_WORLD, options_for(GetParam()));
  EXPECT_EQ(rc, MPI_SUCCESS) << topocoll_error_message();
  EXPECT_GE(counting.counts().packs, 1);
  EXPECT_GE(counting.counts().unpacks, 1);
}

}  // namespace
}  // namespace topocoll::testing
