// What retrieval puts into search prompts (--rag): the paper's Table 5 variants.
#pragma once

#include <string_view>

namespace eok::search {

enum class RagMode { none, docs, code, both };

// "none", "docs", "code", "both"; throws ConfigError naming them for anything else.
RagMode parse_rag_mode(std::string_view name);
const char* rag_mode_name(RagMode mode);
inline bool uses_docs(RagMode m) {
  return m == RagMode::docs || m == RagMode::both;
}
inline bool uses_code(RagMode m) {
  return m == RagMode::code || m == RagMode::both;
}

}  // namespace eok::search
