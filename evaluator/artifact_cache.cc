#include "evaluator/artifact_cache.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <thread>
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

std::optional<fs::path> ArtifactCache::find(const std::string& key, const std::string& suffix) const {
  const fs::path file = path(key, suffix);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  fs::path sum = file;
  sum += ".sum";
  if (fs::exists(sum, ec) && read_file(sum) == content_hash(read_file(file))) {
    fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // last use, for trim()
    return file;
  }
  log::warn("the cached {} does not match its checksum (damaged?): building it again", file.string());
  fs::remove(file, ec);
  fs::remove(sum, ec);
  return std::nullopt;
}

fs::path ArtifactCache::store_bytes(const std::string& key, const std::string& suffix, const std::string& bytes) const {
  const fs::path file = path(key, suffix);
  fs::path staged = file;
  staged += ".tmp." + std::to_string(::getpid()) + "." +
            std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  write_file_atomic(staged, bytes);
  fs::path sum = file;
  sum += ".sum";
  write_file_atomic(sum, content_hash(bytes));
  std::error_code ec;
  fs::rename(staged, file, ec);
  if (ec) {
    fs::remove(staged, ec);
    throw Error("cannot store " + file.string() + " in the cache: " + ec.message());
  }
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
    fs::path sum = files[i].second;
    sum += ".sum";
    fs::remove(files[i].second, ec);
    fs::remove(sum, ec);
  }
}

}  // namespace eok::evaluator
