// UTF-8 repair for text that came from a server: JSON parsers and the kernel database need valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace eok::llm {

// `text` with every ill-formed sequence (stray continuation bytes, overlong forms, surrogates, code points
// beyond U+10FFFF, truncated sequences) replaced by U+FFFD, one per maximal ill-formed subpart as Unicode
// recommends. `*replaced` (when given) says whether anything was replaced.
std::string to_valid_utf8(std::string_view text, bool* replaced = nullptr);

}  // namespace eok::llm
