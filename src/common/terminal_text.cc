#include "src/common/terminal_text.h"

#include <cstdio>

namespace eok {

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 0x20 && u != 0x7f) || c == '\n' || c == '\t') {
      out += c;
    } else if (c == '\r') {
      out += "\\r";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  return out;
}

}  // namespace eok
