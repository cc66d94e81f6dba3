// The pure half of configuration_agreement.hpp (no MPI): the fingerprint and the message.
#include "interpose/configuration_agreement.hpp"

#include <algorithm>

namespace topocoll::interpose {

namespace {

// FNV-1a, 64 bits: a fingerprint, not a defence against a crafted collision.
class Fingerprint {
 public:
  void add(const std::string& text) {
    for (const char c : text) mix(static_cast<unsigned char>(c));
    mix(0);  // the end of one piece: "ab","c" differs from "a","bc"
  }
  std::uint64_t value() const { return hash_; }

 private:
  void mix(unsigned char byte) {
    hash_ ^= byte;
    hash_ *= 1099511628211ull;
  }
  std::uint64_t hash_ = 14695981039346656037ull;
};

const char* const kFileVariables[] = {"TOPOCOLL_TOPOLOGY=", "TOPOCOLL_NETWORK=", "TOPOCOLL_CALIBRATION="};

}  // namespace

std::uint64_t configuration_fingerprint(std::vector<std::string> variables, const FileReader& read_file) {
  std::sort(variables.begin(), variables.end());
  Fingerprint fingerprint;
  for (const std::string& variable : variables) {
    if (variable.rfind("TOPOCOLL_VERBOSE=", 0) == 0) continue;
    fingerprint.add(variable);
    for (const char* file_variable : kFileVariables) {
      const std::string prefix(file_variable);
      if (variable.rfind(prefix, 0) != 0) continue;
      std::string contents;
      if (read_file(variable.substr(prefix.size()), contents)) fingerprint.add(contents);
    }
  }
  return fingerprint.value();
}

std::string disagreement_message(const std::vector<std::uint64_t>& fingerprints) {
  std::vector<std::size_t> differing;
  for (std::size_t rank = 1; rank < fingerprints.size(); ++rank) {
    if (fingerprints[rank] != fingerprints[0]) differing.push_back(rank);
  }
  if (differing.empty()) return {};
  constexpr std::size_t kNamed = 8;
  std::string ranks;
  for (std::size_t i = 0; i < std::min(differing.size(), kNamed); ++i) {
    ranks += (i == 0 ? "" : ", ") + std::to_string(differing[i]);
  }
  if (differing.size() > kNamed) ranks += " and " + std::to_string(differing.size() - kNamed) + " more";
  return "the TOPOCOLL_* variables, or the files they name, differ between ranks (rank 0's against rank" +
         std::string(differing.size() > 1 ? "s " : " ") + ranks +
         " of MPI_COMM_WORLD): the ranks would choose different algorithms, so every collective goes to the MPI "
         "library";
}

}  // namespace topocoll::interpose
