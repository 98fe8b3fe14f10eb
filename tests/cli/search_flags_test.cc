// The search flags, declared once for eok search and eok bench run: what a bench is given reaches every
// task's search as the same configuration eok search would make of the same flags.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "src/cli/search_flags.h"

namespace eok::cli {
namespace {

// Parses `args` (without the program name) with the flags declared for `scope`.
SearchFlags parse_search_flags(std::vector<std::string> args, SearchFlags::Scope scope) {
  SearchFlags flags;
  CLI::App app("test");
  flags.declare(app, scope);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  app.parse(args);
  return flags;
}

// The defaults with the flags over them.
Config configured(const SearchFlags& flags) {
  Config config = Config::from_json(nlohmann::json::object());
  flags.apply(config);
  return config;
}

TEST(SearchFlags, WhatABenchIsGivenReachesEachTasksSearchUnchanged) {
  const std::vector<std::string> given = {"--method",        "eok", "--top-k",      "7", "--max-tokens", "100000",
                                          "--max-cost",      "0.1", "--seed",       "3", "--rag",        "none",
                                          "--max-llm-calls", "40",  "--iterations", "5"};
  const SearchFlags bench = parse_search_flags(given, SearchFlags::Scope::every_task);
  // eok bench run hands each task's eok search these arguments.
  const SearchFlags search = parse_search_flags(bench.arguments(), SearchFlags::Scope::one_search);
  const Config config = configured(search);
  EXPECT_EQ(config.str("search.method"), "eok");
  EXPECT_EQ(config.integer("search.top_k"), 7);
  EXPECT_EQ(config.integer("budget.max_tokens"), 100000);
  EXPECT_EQ(config.number("budget.max_cost"), 0.1) << "the cost passes to the last bit";
  EXPECT_EQ(config.integer("search.seed"), 3);
  EXPECT_EQ(config.str("search.rag"), "none");
  EXPECT_EQ(config.integer("budget.max_llm_calls"), 40);
  EXPECT_EQ(config.integer("search.iterations"), 5);
  EXPECT_EQ(config.origin("budget.max_tokens"), "flag");
  EXPECT_EQ(search.board, "k1");
}

TEST(SearchFlags, WhatIsNotGivenIsLeftToTheConfiguration) {
  const SearchFlags flags = parse_search_flags({"--top-k", "2"}, SearchFlags::Scope::one_search);
  EXPECT_EQ(flags.arguments(), (std::vector<std::string>{"--board", "k1", "--top-k", "2"}));
  EXPECT_EQ(flags.given(), std::vector<std::string>{"--top-k"}) << "the default board is not a given flag";
  const Config config = configured(flags);
  EXPECT_NE(config.origin("search.population"), "flag");
  EXPECT_NE(config.origin("budget.max_cost"), "flag");
}

TEST(SearchFlags, BothCommandsTakeTheSameFlags) {
  CLI::App search("search"), bench("bench");
  SearchFlags a, b;
  a.declare(search, SearchFlags::Scope::one_search);
  b.declare(bench, SearchFlags::Scope::every_task);
  std::vector<std::string> names_a, names_b;
  for (const CLI::Option* o : search.get_options()) names_a.push_back(o->get_name());
  for (const CLI::Option* o : bench.get_options()) names_b.push_back(o->get_name());
  EXPECT_EQ(names_a, names_b);
  for (const char* flag : {"--top-k", "--max-tokens", "--max-cost", "--max-llm-calls", "--seed", "--rag"}) {
    EXPECT_NE(std::find(names_b.begin(), names_b.end(), flag), names_b.end()) << flag;
  }
  EXPECT_NE(bench.get_option("--max-cost")->get_description().find("each task's search"), std::string::npos)
      << "a bench's budgets are per task, and its help says so";
}

}  // namespace
}  // namespace eok::cli
