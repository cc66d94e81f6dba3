// The size exchange of a v form, priced as a round before the algorithm's (size_exchange_plan.hpp).
#include "select/size_exchange_plan.hpp"

namespace topocoll {

namespace {

constexpr std::size_t kBytesPerSize = 8;  // one MPI_UINT64_T per size, as the executor sends them

}  // namespace

void SizeExchangeFirst::emit(int rank, std::size_t round, RoundSink& sink) const {
  if (round > 0) {
    inner_->emit(rank, round - 1, sink);
    return;
  }
  SizeQuestions questions;
  algorithm_->size_questions(*problem_, rank, questions);
  for (int peer = 0; peer < problem_->size; ++peer) {
    if (peer == rank) continue;
    const auto q = static_cast<std::size_t>(peer);
    if (!questions.tell[q].empty()) sink.send_pieces(peer, kBytesPerSize * questions.tell[q].size(), 1, 0);
    if (!questions.learn[q].empty()) sink.recv_pieces(peer, kBytesPerSize * questions.learn[q].size(), 1, 0);
  }
}

std::optional<std::vector<std::size_t>> SizeExchangeFirst::rounds_posting_in_flight() const {
  std::optional<std::vector<std::size_t>> rounds = inner_->rounds_posting_in_flight();
  if (rounds) {
    for (std::size_t& t : *rounds) ++t;
  }
  return rounds;
}

}  // namespace topocoll
