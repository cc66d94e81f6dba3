#include "interpose/configuration_agreement.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>

extern "C" char** environ;

namespace topocoll::interpose {

namespace {

bool read_whole_file(const std::string& path, std::string& contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return false;
  contents = text.str();
  return true;
}

std::vector<std::string> topocoll_variables() {
  std::vector<std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    if (text.rfind("TOPOCOLL_", 0) == 0) variables.push_back(text);
  }
  return variables;
}

// Set once, at MPI_Init, before any collective call can read it.
std::atomic<bool> g_disagreed{false};
std::string g_why;

}  // namespace

void agree_on_configuration() {
  const std::uint64_t mine = configuration_fingerprint(topocoll_variables(), read_whole_file);
  int size = 0, rank = 0;
  if (PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS || PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS) {
    return;
  }
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size));
  if (PMPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD) != MPI_SUCCESS) return;
  std::string why = disagreement_message(all);
  if (why.empty()) return;
  if (rank == 0) std::fprintf(stderr, "topocoll: %s\n", why.c_str());
  g_why = std::move(why);
  g_disagreed.store(true, std::memory_order_release);
}

bool configuration_agreed() { return !g_disagreed.load(std::memory_order_acquire); }

const std::string& configuration_disagreement() { return g_why; }

}  // namespace topocoll::interpose
