// What an external tool says it is: the first line of its --version, part of every object cache key and
// measurement fingerprint. Asking costs a process per tool, so the answers are kept in a workspace file,
// per installed binary.
//
// Contract: a ToolVersionCache reads its file once, when it is made (a missing or damaged file is an empty
// cache), and answers from memory after that. An entry is believed only for the same binary (inode, size,
// modification time), so an upgraded tool is asked again; a new answer is written back at once
// (atomically; a workspace that takes no write still gets its answer, uncached). A failed --version is
// "" and is never kept. Not thread-safe: one cache per thread.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace eok::evaluator {

// The first line of `exe --version`, asked now; "" when the tool fails.
std::string ask_tool_version(const std::filesystem::path& exe);

class ToolVersionCache {
 public:
  // `cache_file` empty: nothing is kept, every tool is asked.
  explicit ToolVersionCache(std::filesystem::path cache_file);

  // ask_tool_version(exe), from the cache when it holds an answer for this very binary.
  std::string version_of(const std::filesystem::path& exe);

 private:
  std::filesystem::path file_;
  nlohmann::json entries_ = nlohmann::json::object();  // canonical path -> {identity, version}
};

}  // namespace eok::evaluator
