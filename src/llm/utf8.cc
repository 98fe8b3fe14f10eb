#include "src/llm/utf8.h"

#include <cstdint>

namespace eok::llm {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the well-formed sequence starting at text[i], or 0 when ill-formed. `subpart` receives the
// length of the maximal ill-formed prefix to replace (at least 1).
size_t well_formed_length(std::string_view text, size_t i, size_t& subpart) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t lead = byte(i);
  subpart = 1;
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint8_t low = 0x80, high = 0xBF;  // allowed range of the second byte (Unicode Table 3-7)
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= text.size()) return 0;
    const uint8_t b = byte(i + k);
    const bool ok = k == 1 ? (b >= low && b <= high) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return 0;
    subpart = k + 1;
  }
  return length;
}

}  // namespace

std::string to_valid_utf8(std::string_view text, bool* replaced) {
  std::string out;
  out.reserve(text.size());
  bool any = false;
  size_t i = 0;
  while (i < text.size()) {
    size_t subpart = 1;
    const size_t n = well_formed_length(text, i, subpart);
    if (n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out.append(kReplacement);
      any = true;
      i += subpart;
    }
  }
  if (replaced != nullptr) *replaced = any;
  return out;
}

}  // namespace eok::llm
