// Where eok finds its data (kernels/, configs/, evaluator/target/) and keeps its runtime state.
#pragma once

#include <filesystem>
#include <optional>

namespace eok {

// The project root holding kernels/ and configs/: `explicit_root` (--root), else $EOK_ROOT, else the first
// directory upwards from the current one that has both, else the source tree eok was built from.
// Throws NotFoundError saying how to point eok at its data.
std::filesystem::path find_project_root(const std::optional<std::filesystem::path>& explicit_root = {});

// The workspace for runtime state: $EOK_HOME, else ./.eok. Created on first use.
class Workspace {
 public:
  static Workspace open(const std::optional<std::filesystem::path>& explicit_home = {});
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path objects_dir() const { return root_ / "cache" / "objects"; }
  std::filesystem::path baselines_dir() const { return root_ / "cache" / "baselines"; }
  std::filesystem::path tmp_dir() const { return root_ / "tmp"; }
  std::filesystem::path database_path() const { return root_ / "eok.db"; }
  std::filesystem::path llm_cache_dir() const { return root_ / "cache" / "llm"; }
  std::filesystem::path tool_versions_path() const { return root_ / "cache" / "tool-versions.json"; }
  std::filesystem::path runs_dir() const { return root_ / "runs"; }
  std::filesystem::path rag_dir() const { return root_ / "rag"; }
  std::filesystem::path boards_dir() const { return root_ / "boards"; }  // board profiles runs were given as paths

 private:
  std::filesystem::path root_;
};

// Directory of the running executable (the build directory, where the QEMU plugin is built).
std::filesystem::path executable_dir();

}  // namespace eok
