// The live status line is one terminal line: never wider than the terminal, never an escape or a break.
#include <gtest/gtest.h>

#include "src/search/progress.h"

namespace eok::search {
namespace {

TEST(StatusLine, FitsTheTerminalAndCarriesNoControlCharacters) {
  const std::string long_line =
      "iteration 1/2 | 12/56 proposals (3 correct, 9 failed) | LLM 12 calls | best 1.130x | " + std::string(200, 'x');
  const std::string fitted = fit_status_line(long_line, 80);
  EXPECT_LT(fitted.size(), 80u);
  EXPECT_EQ(fitted.substr(fitted.size() - 3), "...");
  EXPECT_EQ(fit_status_line("short", 80), "short");
  const std::string hostile = fit_status_line("idea: \x1b]0;pwned\x07 line\nbreak\r", 80);
  for (char c : hostile) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "control character in " << hostile;
  // Not cut inside a multi-byte character: "é" is two bytes.
  std::string accents;
  for (int i = 0; i < 60; ++i) accents += "\xc3\xa9";
  const std::string cut = fit_status_line(accents, 40);
  EXPECT_LT(cut.size(), 40u);
  const std::string body = cut.substr(0, cut.size() - 3);
  EXPECT_EQ(body.size() % 2, 0u) << "a character was cut in half";
}

}  // namespace
}  // namespace eok::search
