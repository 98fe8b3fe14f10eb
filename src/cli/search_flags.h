// The flags that set a search: `eok search` takes them for its run, and `eok bench run` takes the same
// flags for every task's run, passing them on to each task's `eok search`. Declared once, in one table
// (search_flags.cc), so that both commands take every flag with the same name, value and meaning.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/common/config.h"

namespace eok::cli {

struct SearchFlags {
  std::string board = "k1";
  std::string method;  // "" leaves it to the configuration
  std::string config_file, pool, thought_sampling, rag;
  std::optional<int64_t> iterations, parallel, population, generations, top_k, seed, max_llm_calls, max_tokens;
  std::optional<double> max_cost;

  // Which command declares the flags: the help of a few says whom they apply to.
  enum class Scope { one_search, every_task };
  // Declares every flag on `cmd`, parsed into this object (which must outlive the parse).
  void declare(CLI::App& cmd, Scope scope);
  // Sets the configuration key of every flag given (origin "flag"); --board and --config are not keys.
  void apply(Config& config) const;
  // The names of the flags given ("--top-k"), --board only when it is not the default.
  std::vector<std::string> given() const;
  // The flags given, as arguments of `eok search` ("--method", "eok", "--board", "k1", "--top-k", "7"...);
  // --board always. Numbers are written exactly, so that the search reads back the same values.
  std::vector<std::string> arguments() const;
};

}  // namespace eok::cli
