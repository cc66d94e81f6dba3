// libFuzzer target: the calibration file (parse_calibration) and the machine built from it.
// Any input gives a calibration or an error message, never a crash, an exception, a sanitizer
// report or a leak.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "select/calibration.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto calibration = topocoll::parse_calibration(text, &error);
  if (!calibration && error.empty()) __builtin_trap();
  if (calibration) (void)calibration->machine();
  return 0;
}
