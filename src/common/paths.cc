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
}  // namespace

fs::path find_project_root(const std::optional<fs::path>& explicit_root) {
  if (explicit_root) {
    if (!looks_like_root(*explicit_root)) {
      throw NotFoundError(explicit_root->string() + " has no kernels/ and configs/boards/: pass the eok source tree to --root");
    }
    return fs::absolute(*explicit_root);
  }
  if (const char* env = std::getenv("EOK_ROOT"); env && *env) {
    if (!looks_like_root(env)) {
      throw NotFoundError(std::string("EOK_ROOT=") + env + " has no kernels/ and configs/boards/: point it at the eok source tree");
    }
    return fs::absolute(env);
  }
  std::error_code ec;
  for (fs::path dir = fs::current_path(ec); !dir.empty(); dir = dir.parent_path()) {
    if (looks_like_root(dir)) return dir;
    if (dir == dir.root_path()) break;
  }
#ifdef EOK_DEFAULT_ROOT
  if (looks_like_root(EOK_DEFAULT_ROOT)) return EOK_DEFAULT_ROOT;
#endif
  throw NotFoundError("cannot find the eok data (kernels/, configs/): run eok inside its source tree, or set EOK_ROOT / --root");
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
  if (ec) throw Error("cannot create the workspace " + ws.root_.string() + ": " + ec.message() + " (set EOK_HOME to a writable directory)");
  return ws;
}

fs::path executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

}  // namespace eok
