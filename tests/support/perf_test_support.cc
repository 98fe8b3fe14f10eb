#include "support/perf_test_support.h"

#include <git2.h>

#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "src/common/fs_util.h"
#include "support/synthetic_repo.h"

namespace eok::idea_pool::testing {

namespace fs = std::filesystem;

namespace {

std::string iso8601(int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
  return buf;
}

// A fake 40-digit sha from a number, for the gh-pages commits.
std::string fake_sha(int64_t n) {
  char buf[41];
  std::snprintf(buf, sizeof buf, "%040llx", static_cast<unsigned long long>(n) * 2654435761ULL + 1);
  return buf;
}

// Writes `files` (paths relative to the tree) as nested trees; returns the top tree's id.
git_oid write_tree(git_repository* repo, const std::map<std::string, std::string>& files) {
  git_treebuilder* builder = nullptr;
  git_check(git_treebuilder_new(&builder, repo, nullptr), "tree builder");
  std::map<std::string, std::map<std::string, std::string>> subdirs;
  for (const auto& [path, content] : files) {
    const size_t slash = path.find('/');
    if (slash != std::string::npos) {
      subdirs[path.substr(0, slash)][path.substr(slash + 1)] = content;
      continue;
    }
    git_oid blob;
    git_check(git_blob_create_from_buffer(&blob, repo, content.data(), content.size()), "blob");
    git_check(git_treebuilder_insert(nullptr, builder, path.c_str(), &blob, GIT_FILEMODE_BLOB), "tree insert");
  }
  for (const auto& [name, sub] : subdirs) {
    const git_oid id = write_tree(repo, sub);
    git_check(git_treebuilder_insert(nullptr, builder, name.c_str(), &id, GIT_FILEMODE_TREE), "tree insert");
  }
  git_oid id;
  git_check(git_treebuilder_write(&id, builder), "tree write");
  git_treebuilder_free(builder);
  return id;
}

}  // namespace

PerfTestRepo::PerfTestRepo(const fs::path& dir) : dir_(dir) {
  git_libgit2_init();
  git_check(git_repository_init(&repo_, dir.c_str(), /*is_bare=*/1), "git init");
}

PerfTestRepo::~PerfTestRepo() {
  git_repository_free(repo_);
  git_libgit2_shutdown();
}

std::string PerfTestRepo::commit(const std::string& message, const std::map<std::string, std::string>& changes,
                                 const std::vector<std::string>& parents, int64_t time) {
  std::map<std::string, std::string> files =
      parents.empty() ? std::map<std::string, std::string>{} : trees_.at(parents.front());
  for (const auto& [path, content] : changes) {
    if (content.empty()) {
      files.erase(path);
    } else {
      files[path] = content;
    }
  }
  const git_oid tree_id = write_tree(repo_, files);
  git_tree* tree = nullptr;
  git_check(git_tree_lookup(&tree, repo_, &tree_id), "tree lookup");

  std::vector<git_commit*> parent_commits;
  for (const auto& p : parents) {
    git_oid id;
    git_check(git_oid_fromstr(&id, p.c_str()), "parent id");
    git_commit* c = nullptr;
    git_check(git_commit_lookup(&c, repo_, &id), "parent lookup");
    parent_commits.push_back(c);
  }
  git_signature* sig = nullptr;
  git_check(git_signature_new(&sig, "Test Author", "test@example.org", time, 0), "signature");
  git_oid id;
  std::vector<const git_commit*> const_parents(parent_commits.begin(), parent_commits.end());
  git_check(git_commit_create(&id, repo_, nullptr, sig, sig, nullptr, message.c_str(), tree, const_parents.size(),
                              const_parents.data()),
            "commit");
  git_signature_free(sig);
  for (git_commit* c : parent_commits) git_commit_free(c);
  git_tree_free(tree);
  const std::string sha = oid_hex(id);
  trees_[sha] = std::move(files);
  return sha;
}

void PerfTestRepo::branch(const std::string& name, const std::string& sha) {
  git_oid id;
  git_check(git_oid_fromstr(&id, sha.c_str()), "branch target");
  git_reference* ref = nullptr;
  git_check(git_reference_create(&ref, repo_, ("refs/heads/" + name).c_str(), &id, 1, nullptr), "branch");
  git_reference_free(ref);
}

void PerfTestRepo::tag(const std::string& name, const std::string& sha) {
  git_oid id;
  git_check(git_oid_fromstr(&id, sha.c_str()), "tag target");
  git_reference* ref = nullptr;
  git_check(git_reference_create(&ref, repo_, ("refs/tags/" + name).c_str(), &id, 1, nullptr), "tag");
  git_reference_free(ref);
}

fs::path write_asv_run(const fs::path& root, const std::string& machine, const std::string& commit, int64_t started_ms,
                       const std::map<std::string, PerfTestBenchmark>& benchmarks) {
  using nlohmann::json;
  json results = json::object();
  int64_t t = started_ms;
  for (const auto& [name, b] : benchmarks) {
    json values = json::array(), lo = json::array(), hi = json::array();
    for (const auto& v : b.values) {
      values.push_back(v ? json(*v) : json(nullptr));
      lo.push_back(v ? json(*v * 0.99) : json(nullptr));
      hi.push_back(v ? json(*v * 1.01) : json(nullptr));
    }
    results[name] = json::array({values, b.params, b.version, t, 1.0, lo, hi, nullptr, nullptr, nullptr, nullptr});
    t += 1000;
  }
  json doc = {{"commit_hash", commit},
              {"env_name", "virtualenv-py3.12"},
              {"date", started_ms - 60000},
              {"params", {{"machine", machine}, {"python", "3.12"}}},
              {"python", "3.12"},
              {"requirements", json::object()},
              {"env_vars", json::object()},
              {"result_columns",
               {"result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25",
                "stats_q_75", "stats_number", "stats_repeat"}},
              {"results", results},
              {"durations", json::object()},
              {"version", 2}};
  const fs::path dir = root / "results" / machine;
  fs::create_directories(dir);
  const fs::path file = dir / (commit.substr(0, 8) + "-virtualenv-py3.12.json");
  write_file_atomic(file, doc.dump());
  return file;
}

void write_gh_pages_log(const fs::path& root, const std::vector<PerfTestLogEntry>& entries) {
  std::vector<PerfTestLogEntry> newest_first = entries;
  std::sort(newest_first.begin(), newest_first.end(),
            [](const auto& a, const auto& b) { return a.time_ms > b.time_ms; });
  std::string text;
  for (const auto& e : newest_first) {
    const std::string generated = fake_sha(e.time_ms + 1);
    text += fake_sha(e.time_ms) + "\t" + iso8601(e.time_ms) + "\tadd results for " + generated + "\n";
    for (const auto& [machine, line] : e.versions) text += machine + ":\nversion=" + line + "\n";
    text += "\n" + generated + "\t" + iso8601(e.time_ms - 1000) + "\tGenerated from sources\n\n";
  }
  text += fake_sha(1) + "\t2024-06-16T08:49:13+02:00\tInitial commit\n";
  write_file_atomic(root / "gh-pages-log.txt", text);
}

std::string perf_build_line(int64_t n, const std::string& core) {
  return "0.3.27." + std::to_string(n) + " - OpenBLAS 0.3.27.dev DYNAMIC_ARCH NO_AFFINITY " + core + " MAX_THREADS=64";
}

}  // namespace eok::idea_pool::testing
