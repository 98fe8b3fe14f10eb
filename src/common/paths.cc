#include "src/common/paths.h"

#include <cstdlib>

#include "src/common/error.h"

namespace eok {

namespace fs = std::filesystem;

namespace {
bool looks_like_root(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "kernels", ec) && fs::is_directory(dir / "configs" / "boards", ec);
}

// Every folder of the data root that `dir` lacks, named at once (not one error at a time).
std::string missing_parts(const fs::path& dir) {
  std::string missing;
  std::error_code ec;
  for (const char* part : {"kernels", "configs/boards", "evaluator/target", "prompts"}) {
    if (!fs::is_directory(dir / part, ec)) missing += std::string(missing.empty() ? "" : ", ") + part + "/";
  }
  return missing;
}

// A root that is found must hold everything eok reads from it, or the user learns it piece by piece.
fs::path checked_root(const fs::path& dir, const std::string& named_by) {
  const std::string missing = missing_parts(dir);
  if (!missing.empty()) {
    throw NotFoundError(
        named_by + " " + dir.string() + " lacks " + missing +
        ": eok's data root is its source tree (or a copy of its kernels/, configs/, evaluator/ and prompts/)");
  }
  return fs::absolute(dir);
}
}  // namespace

fs::path find_project_root(const std::optional<fs::path>& explicit_root) {
  if (explicit_root) return checked_root(*explicit_root, "--root");
  if (const char* env = std::getenv("EOK_ROOT"); env && *env) return checked_root(env, "EOK_ROOT=");
  std::error_code ec;
  for (fs::path dir = fs::current_path(ec); !dir.empty(); dir = dir.parent_path()) {
    if (looks_like_root(dir)) return dir;
    if (dir == dir.root_path()) break;
  }
#ifdef EOK_DEFAULT_ROOT
  if (looks_like_root(EOK_DEFAULT_ROOT)) return EOK_DEFAULT_ROOT;
#endif
  throw NotFoundError(
      "cannot find the eok data (kernels/, configs/): run eok inside its source tree, or set EOK_ROOT / --root");
}

Workspace Workspace::open(const std::optional<fs::path>& explicit_home) {
  Workspace ws;
  if (explicit_home) {
    ws.root_ = *explicit_home;
  } else if (const char* env = std::getenv("EOK_HOME"); env && *env) {
    ws.root_ = env;
  } else {
    ws.root_ = fs::current_path() / ".eok";
  }
  ws.root_ = fs::absolute(ws.root_);
  std::error_code ec;
  fs::create_directories(ws.root_, ec);
  if (ec)
    throw Error("cannot create the workspace " + ws.root_.string() + ": " + ec.message() +
                " (set EOK_HOME to a writable directory)");
  return ws;
}

fs::path executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

}  // namespace eok
