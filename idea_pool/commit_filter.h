// Which commits of a kernel library's history carry optimisation experience: the ones that change kernel
// code. Version bumps, build/CI/doc changes, imports of whole trees, formatting, reverts (and what they
// revert) and merges are dropped, each with a named reason so the miner can count them.
//
// Contract: CommitFilter is immutable after construction and safe to share between threads. It looks at a
// commit's message first, then at its changed files; only whitespace_only needs the repository's contents,
// and it is asked last, for commits that every cheaper rule kept.
#pragma once

#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <unordered_set>
#include <vector>

#include "idea_pool/git_repo.h"

namespace eok::idea_pool {

// Why a commit was dropped (FilterVerdict::reason); "" for a kept one.
namespace drop_reason {
inline constexpr const char* kMerge = "merge";        // merge commits: their PR title joins the commits they merge
inline constexpr const char* kRevert = "revert";      // "Revert ...": undoes other work
inline constexpr const char* kReverted = "reverted";  // named by a revert: the pair cancels out
inline constexpr const char* kVersion = "version";    // the title says it bumps a version or cuts a release
inline constexpr const char* kBuildCiDocs = "build_ci_docs";  // touches only build, CI, documentation or version files
inline constexpr const char* kNoKernelCode = "no_kernel_code";  // touches no kernel source (interface, tests, ...)
inline constexpr const char* kImport = "import";                // adds more files than FilterRules::max_added_files
inline constexpr const char* kFormatting = "formatting";        // its kernel changes are white space only
inline constexpr const char* kShallowBoundary = "shallow_boundary";  // its parent is missing from a shallow clone
}  // namespace drop_reason

// What counts as kernel code and what as housekeeping. The defaults fit OpenBLAS.
//
// Path patterns (housekeeping_patterns): "dir/" matches everything under a top-level directory; a pattern
// without '/' matches a file name in any directory, '*' standing for any run of characters; any other
// pattern matches the whole path, '*' not crossing '/'.
struct FilterRules {
  std::vector<std::string> kernel_prefixes{"kernel/"};
  std::vector<std::string> kernel_extensions{".c", ".S", ".s", ".h", ".cpp", ".f"};  // case matters: .S is not .s
  std::vector<std::string> housekeeping_patterns{
      "CMakeLists.txt", "Makefile*",  "GNUmakefile",  "*.cmake",  "*.cmake.in", "cmake/",  ".github/",
      ".circleci/",     ".cirrus*",   ".drone*",      ".travis*", "travis*",    "ci/",     "azure-pipelines*",
      "appveyor*",      "*.yml",      "*.yaml",       "docs/",    "doc/",       "*.md",    "*.txt",
      "*.rst",          "Changelog*", "ChangeLog*",   "VERSION*", "version*",   "*.pc.in", ".gitignore",
      ".gitattributes", "LICENSE*",   "CONTRIBUTORS*"};
  // Case-insensitive regular expressions (ECMAScript) searched in the title.
  std::vector<std::string> version_title_patterns{
      R"(^(update|updated|bump|bumped|increase|increment|set|change)\s+(\S+\s+){0,2}versions?\b)", R"(^bump\b)",
      R"(^(release|releasing|prepare (for )?(the )?release)\b)", R"(^(version|v)\s*\d+\.\d+)",
      R"(^\d+\.\d+(\.\d+)*(\.dev)?\s*$)"};
  std::string revert_title_pattern = R"(^revert(s|ed|ing)?\b)";  // case-insensitive, like version patterns
  size_t max_added_files = 200;  // a commit adding more files imports a tree (a library, a test suite)
  bool drop_formatting = true;   // needs the contents: the costliest rule
};

struct FilterVerdict {
  bool keep = true;
  std::string reason;  // a drop_reason; "" when kept
};

// Commits that a revert in `newest_first` cancels, by full sha. A revert of a revert cancels the first
// revert only, so the original change stands. Revert commits name their target in the message ("This
// reverts commit SHA."); an abbreviated sha is matched against the given commits.
std::unordered_set<std::string> reverted_commits(const std::vector<CommitInfo>& newest_first,
                                                 const FilterRules& rules = {});

class CommitFilter {
 public:
  // Throws ConfigError when a pattern of `rules` is not a valid regular expression. `reverted` lists the
  // commits dropped as kReverted (see reverted_commits).
  explicit CommitFilter(FilterRules rules, std::unordered_set<std::string> reverted = {});

  // Everything at once: classify_message, then classify_files. `repo` is read only for the formatting
  // rule; without it that rule is skipped.
  FilterVerdict classify(const CommitInfo& c, const std::vector<FileChange>& files, const GitRepo* repo) const;

  // The rules that need the message only (merge, revert, reverted, version); nullopt when none drops it.
  std::optional<FilterVerdict> classify_message(const CommitInfo& c) const;

  // The rules that need the changed files (empty, import, build/CI/docs, no kernel code, formatting).
  FilterVerdict classify_files(const std::vector<FileChange>& files, const GitRepo* repo) const;

  bool is_kernel_file(const std::string& path) const;
  bool is_housekeeping_file(const std::string& path) const;
  bool is_revert(const CommitInfo& c) const;
  std::vector<FileChange> kernel_files(const std::vector<FileChange>& files) const;

  const FilterRules& rules() const { return rules_; }

 private:
  FilterRules rules_;
  std::unordered_set<std::string> reverted_;
  std::vector<std::regex> version_titles_;
  std::regex revert_title_;
};

// A path pattern as FilterRules describes them.
bool path_matches(const std::string& pattern, const std::string& path);

}  // namespace eok::idea_pool
