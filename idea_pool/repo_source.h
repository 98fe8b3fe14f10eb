// Where the history to mine comes from: a local clone (`--repo PATH`), or a library known by name in
// configs/repos.toml (`--repo OpenBLAS`), cloned into the workspace with libgit2 when it is not there yet.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace eok::idea_pool {

struct RepoSource {
  std::string name;                       // "OpenBLAS", or the clone's directory name
  std::filesystem::path path;             // the clone to open
  std::string branch;                     // "" when not configured (the caller's default applies)
  std::vector<std::string> kernel_paths;  // empty: the miner's default
  std::string base_tag;                   // for performance-history build numbers ("" when unknown)
  bool cloned_now = false;
};

// Resolves `repo`: an existing directory is a clone; otherwise a name in `root`/configs/repos.toml whose
// clone lives in `workspace_root`/repos/NAME, cloned now when missing. Throws NotFoundError for an unknown
// name (listing the known ones), Error when cloning fails, saying where to put a clone by hand.
RepoSource resolve_repo(const std::string& repo, const std::filesystem::path& root,
                        const std::filesystem::path& workspace_root);

}  // namespace eok::idea_pool
