// Text from outside (LLM replies, kernel ideas, board output) made safe to print on a terminal.
#pragma once

#include <string>
#include <string_view>

namespace eok {

// `text` with every control character except newline and tab shown as an escape ("\x1b", "\r"), so that
// nothing it holds can move the cursor, retitle the window or hide lines (ANSI/OSC sequences).
std::string terminal_safe(std::string_view text);

}  // namespace eok
