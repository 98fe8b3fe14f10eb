#include "evaluator/artifact_cache.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/common/log.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

fs::path ArtifactCache::path(const std::string& key, const std::string& suffix) const {
  EOK_ASSERT(key.size() >= 2 && key.find('/') == std::string::npos, "a cache key is a hash");
  return dir_ / key.substr(0, 2) / (key + suffix);
}

namespace {

fs::path checksum_path(const fs::path& file) {
  fs::path sum = file;
  sum += ".sum";
  return sum;
}

// The contents of a cached file whose checksum matches (its time refreshed: last use, for trim()); a file
// that does not match is removed with its checksum, with a warning.
std::optional<std::string> verified_contents(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  const fs::path sum = checksum_path(file);
  std::string bytes = read_file(file);
  if (fs::exists(sum, ec) && read_file(sum) == content_hash(bytes)) {
    fs::last_write_time(file, fs::file_time_type::clock::now(), ec);
    return bytes;
  }
  log::warn("the cached {} does not match its checksum (damaged?): building it again", file.string());
  fs::remove(file, ec);
  fs::remove(sum, ec);
  return std::nullopt;
}

}  // namespace

std::optional<fs::path> ArtifactCache::find(const std::string& key, const std::string& suffix) const {
  const fs::path file = path(key, suffix);
  if (!verified_contents(file)) return std::nullopt;
  return file;
}

bool ArtifactCache::copy_to(const std::string& key, const std::string& suffix, const fs::path& dest) const {
  const fs::path file = path(key, suffix);
  const std::optional<std::string> bytes = verified_contents(file);
  if (!bytes) return false;
  write_file_atomic(dest, *bytes);
  std::error_code ec;
  fs::permissions(dest, fs::status(file).permissions(), ec);
  if (ec) throw Error("cannot set the permissions of " + dest.string() + ": " + ec.message());
  return true;
}

fs::path ArtifactCache::store_bytes(const std::string& key, const std::string& suffix, const std::string& bytes) const {
  // The checksum first, then the file under its name in one rename (write_file_atomic): a reader never
  // sees a file without its checksum, nor a part of one.
  const fs::path file = path(key, suffix);
  write_file_atomic(checksum_path(file), content_hash(bytes));
  write_file_atomic(file, bytes);
  return file;
}

fs::path ArtifactCache::store(const std::string& key, const std::string& suffix, const fs::path& built) const {
  const fs::path file = store_bytes(key, suffix, read_file(built));
  std::error_code ec;
  fs::permissions(file, fs::status(built).permissions(), ec);
  return file;
}

void ArtifactCache::trim(const std::string& suffix, size_t keep) const {
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path& p = it->path();
    if (it->is_regular_file(ec) && p.string().ends_with(suffix)) files.emplace_back(fs::last_write_time(p, ec), p);
  }
  if (files.size() <= keep) return;
  std::sort(files.begin(), files.end(), std::greater<>());
  for (size_t i = keep; i < files.size(); ++i) {
    fs::remove(files[i].second, ec);
    fs::remove(checksum_path(files[i].second), ec);
  }
}

}  // namespace eok::evaluator
