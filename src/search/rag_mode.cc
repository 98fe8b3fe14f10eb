#include "src/search/rag_mode.h"

#include <string>

#include "src/common/error.h"

namespace eok::search {

RagMode parse_rag_mode(std::string_view name) {
  if (name == "none") return RagMode::none;
  if (name == "docs") return RagMode::docs;
  if (name == "code") return RagMode::code;
  if (name == "both") return RagMode::both;
  throw ConfigError("unknown retrieval mode '" + std::string(name) + "': use none, docs, code or both");
}

const char* rag_mode_name(RagMode mode) {
  switch (mode) {
    case RagMode::none:
      return "none";
    case RagMode::docs:
      return "docs";
    case RagMode::code:
      return "code";
    case RagMode::both:
      return "both";
  }
  return "both";
}

}  // namespace eok::search
