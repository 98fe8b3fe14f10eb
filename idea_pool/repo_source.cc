#include "idea_pool/repo_source.h"

#include <git2.h>

#include "src/common/error.h"
#include "src/common/log.h"
#include "src/common/toml_file.h"

namespace eok::idea_pool {

namespace fs = std::filesystem;

namespace {

std::string git_error_text() {
  const git_error* e = git_error_last();
  return e && e->message ? e->message : "unknown error";
}

}  // namespace

RepoSource resolve_repo(const std::string& repo, const fs::path& root, const fs::path& workspace_root) {
  RepoSource src;
  std::error_code ec;
  if (fs::is_directory(repo, ec)) {
    src.path = fs::absolute(repo);
    src.name = src.path.filename().string();
    if (src.name.empty() || src.name == "." || src.name == "repo")
      src.name = src.path.parent_path().filename().string();
  }
  // A known library by name; a local clone whose directory name contains a known name takes that
  // library's branch, kernel paths and base tag too.
  const fs::path config = root / "configs" / "repos.toml";
  const toml::table doc = fs::exists(config) ? parse_toml_file(config, "library list") : toml::table{};
  const toml::table* entry = nullptr;
  for (const auto& [name, node] : doc) {
    const std::string n(name.str());
    const bool match = src.path.empty() ? n == repo : src.name.find(n) != std::string::npos;
    if (match) {
      entry = node.as_table();
      if (!src.path.empty()) src.name = n;  // "OpenMathLib+OpenBLAS/repo" is OpenBLAS
    }
  }
  if (src.path.empty() && !entry) {
    std::string known;
    for (const auto& [name, node] : doc) known += " " + std::string(name.str());
    throw NotFoundError("'" + repo + "' is neither a directory nor a library in " + config.string() +
                        " (known:" + (known.empty() ? " none" : known) + ")");
  }
  if (entry) {
    src.branch = (*entry)["branch"].value_or(std::string());
    src.base_tag = (*entry)["base_tag"].value_or(std::string());
    if (const auto* paths = (*entry)["kernel_paths"].as_array()) {
      for (const auto& p : *paths) src.kernel_paths.push_back(p.value_or(std::string()));
    }
  }
  if (!src.path.empty()) return src;

  src.name = repo;
  src.path = workspace_root / "repos" / repo;
  if (fs::exists(src.path / "HEAD") || fs::exists(src.path / ".git")) return src;
  const std::string url = (*entry)["url"].value_or(std::string());
  if (url.empty()) throw Error(config.string() + ": " + repo + " has no url to clone from");
  log::info("cloning {} into {} (a bare clone; this needs network access and takes a while)", url, src.path.string());
  git_libgit2_init();
  git_repository* cloned = nullptr;
  git_clone_options opts;
  git_clone_options_init(&opts, GIT_CLONE_OPTIONS_VERSION);
  opts.bare = 1;
  fs::create_directories(src.path.parent_path());
  if (git_clone(&cloned, url.c_str(), src.path.c_str(), &opts) != 0) {
    const std::string why = git_error_text();
    std::error_code rm;
    fs::remove_all(src.path, rm);
    throw Error("cannot clone " + url + " (" + why +
                "). Without network access, clone it elsewhere and pass the clone: " +
                "eok mine --repo PATH (or put a bare clone at " + src.path.string() + ")");
  }
  git_repository_free(cloned);
  src.cloned_now = true;
  return src;
}

}  // namespace eok::idea_pool
