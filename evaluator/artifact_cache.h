// Files eok built once and reuses (compiled objects, linked programs), stored under a key that hashes
// everything they were built from, each with a checksum beside it: a file damaged or edited on disk is
// never used, it is built again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace eok::evaluator {

class ArtifactCache {
 public:
  explicit ArtifactCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  const std::filesystem::path& dir() const { return dir_; }

  // The cached file for `key` with `suffix` (".o", ".exe"), only if its checksum matches; a mismatching
  // file is removed (with a warning) so that the caller builds it again.
  std::optional<std::filesystem::path> find(const std::string& key, const std::string& suffix) const;

  // Copies the cached file for `key` with `suffix` to `dest` (with its permissions), reading it once for
  // both the checksum and the copy; false (and the damaged file removed) when it is missing or damaged.
  bool copy_to(const std::string& key, const std::string& suffix, const std::filesystem::path& dest) const;

  // Copies `built` into the cache under `key` (with its permissions) and returns the cached path. The
  // checksum is written before the file appears under its name, so a reader never sees a file without it.
  std::filesystem::path store(const std::string& key, const std::string& suffix,
                              const std::filesystem::path& built) const;
  // The same for content held in memory.
  std::filesystem::path store_bytes(const std::string& key, const std::string& suffix, const std::string& bytes) const;

  // Keeps the newest `keep` files with `suffix` (by last use: find() refreshes a file's time) and removes
  // the others with their checksums: for large artifacts (linked programs) that must not pile up.
  void trim(const std::string& suffix, size_t keep) const;

  // Where the file for `key` with `suffix` lives (whether or not it exists); other files of the same key
  // (a compile's log) go beside it.
  std::filesystem::path path(const std::string& key, const std::string& suffix) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace eok::evaluator
