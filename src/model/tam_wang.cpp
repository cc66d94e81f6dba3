#include "model/tam_wang.hpp"

namespace topocoll {

TamWangParams TamWangParams::table1(int p) {
  TamWangParams params;
  params.latency_us = 0.3387 * p + 149.0;
  return params;
}

}  // namespace topocoll
