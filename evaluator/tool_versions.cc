#include "evaluator/tool_versions.h"

#include <sys/stat.h>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/subprocess.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

std::string ask_tool_version(const fs::path& exe) {
  ProcessSpec spec;
  spec.argv = {exe.string(), "--version"};
  spec.limits.wall_seconds = 10;
  const ProcessResult r = run_process(spec);
  return r.ok() ? r.out.substr(0, r.out.find('\n')) : std::string();
}

ToolVersionCache::ToolVersionCache(fs::path cache_file) : file_(std::move(cache_file)) {
  std::error_code ec;
  if (file_.empty() || !fs::exists(file_, ec)) return;
  try {
    entries_ = nlohmann::json::parse(read_file(file_));
  } catch (const std::exception&) {
    entries_ = nlohmann::json::object();  // damaged: rewritten with the next answer
  }
  if (!entries_.is_object()) entries_ = nlohmann::json::object();
}

std::string ToolVersionCache::version_of(const fs::path& exe) {
  if (file_.empty()) return ask_tool_version(exe);
  struct stat st{};
  const fs::path real = fs::weakly_canonical(exe);
  if (::stat(real.c_str(), &st) != 0) return ask_tool_version(exe);
  const std::string identity = std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
                               std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  const auto it = entries_.find(real.string());
  if (it != entries_.end() && it->is_object() && it->value("identity", "") == identity && it->contains("version") &&
      (*it)["version"].is_string()) {
    return (*it)["version"].get<std::string>();
  }
  const std::string version = ask_tool_version(exe);
  if (version.empty()) return version;  // a failure is asked again next time
  entries_[real.string()] = {{"identity", identity}, {"version", version}};
  try {
    write_file_atomic(file_, entries_.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } catch (const Error&) {
    // A workspace that takes no write (read-only, full) still gets its answer, uncached.
  }
  return version;
}

}  // namespace eok::evaluator
