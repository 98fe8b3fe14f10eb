#include "src/common/number_format.h"

namespace eok {

std::string with_commas(double v) {
  std::string digits = std::to_string(static_cast<long long>(v + (v >= 0 ? 0.5 : -0.5)));
  std::string out;
  const size_t start = digits[0] == '-' ? 1 : 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace eok
