// Every rank must run the same algorithm for the same call, so every rank must see the same
// configuration: the TOPOCOLL_* variables and the files they name. One node with another
// environment or another copy of the calibration would otherwise choose another algorithm
// and hang its peers. So at MPI_Init (and MPI_Init_thread, C or Fortran), each rank takes a
// fingerprint of what it read and the ranks of MPI_COMM_WORLD compare theirs (one
// MPI_Allgather of 8 bytes a rank, once per job). Where any differs, every call of every rank
// goes to the MPI library, and rank 0 says why on standard error, naming the ranks.
// A program whose MPI_Init this library did not see (it was initialised before the library
// was loaded) is not checked.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "interpose/interpose_config.hpp"

namespace topocoll::interpose {

// What a rank read, as one number: the TOPOCOLL_* variables but TOPOCOLL_VERBOSE (which only
// prints), by name and value, and the contents of the files TOPOCOLL_TOPOLOGY,
// TOPOCOLL_NETWORK and TOPOCOLL_CALIBRATION name (a value that is no readable file counts as
// its text alone). `variables`: "NAME=VALUE" entries, in any order; `read_file` returns a
// file's contents, or false.
using FileReader = std::function<bool(const std::string& path, std::string& contents)>;
std::uint64_t configuration_fingerprint(std::vector<std::string> variables, const FileReader& read_file);

// The ranks whose fingerprint differs from rank 0's, and the message that says so ("" when
// none does).
std::string disagreement_message(const std::vector<std::uint64_t>& fingerprints);

// After a successful MPI_Init or MPI_Init_thread: the comparison over MPI_COMM_WORLD.
void agree_on_configuration();

// Whether calls may follow the configuration (true where no comparison was made): one load
// on every interposed call. When not, configuration_disagreement() says why.
bool configuration_agreed();
const std::string& configuration_disagreement();

}  // namespace topocoll::interpose
