// The closed-form Tam-Wang formulas of the registry agree with the time read off each
// schedule round by round, and reproduce the paper's equations.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "model/tam_wang.hpp"

namespace topocoll {
namespace {

TEST(Prediction, ClosedFormsMatchTheirSchedules) {
  for (const Algorithm& a : algorithms_for(Operation::alltoall)) {
    if (!a.predict_us || !a.supports(Problem{4, 1, nullptr, {}}).ok) continue;
    for (int p : {1, 2, 3, 7, 8, 16, 31}) {
      for (std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{1492}, std::size_t{5000}}) {
        for (int w : {1, 5}) {
          Problem problem{p, b, nullptr, AlgorithmKnobs{w}};
          const TamWangParams m = TamWangParams::table1(p);
          EXPECT_NEAR(a.predict_us(problem, m), predict_schedule_us(build_full_schedule(a, problem), m), 1e-6)
              << a.name << " p=" << p << " b=" << b << " w=" << w;
        }
      }
    }
  }
}

TEST(Prediction, PaperEquations) {
  const int p = 16;
  const TamWangParams m = TamWangParams::table1(p);
  const double tw = 12.5 + (0.3387 * 16 + 149) - 123 + 20 + 7;
  EXPECT_NEAR(m.t_w(), tw, 1e-9);
  const std::size_t k = 10;
  Problem problem{p, k * 1492, nullptr, AlgorithmKnobs{5}};
  const double optimum = k * (p - 1) * 123.0 + tw;  // eq. (2)
  EXPECT_NEAR(find_algorithm(Operation::alltoall, "direct")->predict_us(problem, m), optimum, 1e-6);                // eq. (4)
  EXPECT_NEAR(find_algorithm(Operation::alltoall, "shift")->predict_us(problem, m), k * 123.0 * 15 + 15 * tw, 1e-6);  // eq. (3)
  EXPECT_NEAR(find_algorithm(Operation::alltoall, "pairwise")->predict_us(problem, m), k * 123.0 * 15 + 15 * tw, 1e-6);
  EXPECT_NEAR(find_algorithm(Operation::alltoall, "group-shuffle")->predict_us(problem, m), k * 123.0 * 15 + 3 * tw,
              1e-6);  // eq. (5), w = 5 divides p - 1
}

}  // namespace
}  // namespace topocoll
