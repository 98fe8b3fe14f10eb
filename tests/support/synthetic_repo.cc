#include "support/synthetic_repo.h"

#include <git2.h>

#include <fstream>
#include <functional>
#include <stdexcept>

namespace eok::idea_pool::testing {

namespace fs = std::filesystem;

void git_check(int rc, const std::string& what) {
  if (rc == 0) return;
  const git_error* e = git_error_last();
  throw std::runtime_error("libgit2: " + what + ": " + (e && e->message ? e->message : "libgit2 error"));
}

std::string oid_hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

namespace {

git_oid oid(const std::string& sha) {
  git_oid o;
  git_check(git_oid_fromstr(&o, sha.c_str()), "parse " + sha);
  return o;
}

}  // namespace

// Files grouped by directory, to write one tree object per directory.
struct SyntheticRepo::Dir {
  std::map<std::string, Dir> dirs;
  std::map<std::string, std::string> files;
};

// Objects already written are remembered: scenarios rewrite the same large trees commit after commit.
std::string SyntheticRepo::write_dir(const Dir& dir) {
  std::vector<std::pair<std::string, std::pair<git_oid, git_filemode_t>>> entries;
  for (const auto& [name, sub] : dir.dirs) entries.push_back({name, {oid(write_dir(sub)), GIT_FILEMODE_TREE}});
  for (const auto& [name, contents] : dir.files) {
    auto it = blobs_.find(contents);
    if (it == blobs_.end()) {
      git_oid id;
      git_check(git_blob_create_from_buffer(&id, repo_, contents.data(), contents.size()), "blob " + name);
      it = blobs_.emplace(contents, oid_hex(id)).first;
    }
    entries.push_back({name, {oid(it->second), GIT_FILEMODE_BLOB}});
  }
  std::string key;
  for (const auto& [name, e] : entries) key += name + '\0' + oid_hex(e.first) + std::to_string(e.second) + '\n';
  if (auto it = trees_written_.find(key); it != trees_written_.end()) return it->second;
  git_treebuilder* tb = nullptr;
  git_check(git_treebuilder_new(&tb, repo_, nullptr), "new tree");
  for (const auto& [name, e] : entries)
    git_check(git_treebuilder_insert(nullptr, tb, name.c_str(), &e.first, e.second), "insert " + name);
  git_oid out;
  const int rc = git_treebuilder_write(&out, tb);
  git_treebuilder_free(tb);
  git_check(rc, "write tree");
  trees_written_.emplace(key, oid_hex(out));
  return oid_hex(out);
}

SyntheticRepo::SyntheticRepo(const fs::path& dir) : dir_(dir) {
  git_libgit2_init();
  git_check(git_repository_init(&repo_, dir.c_str(), 0), "init " + dir.string());
  git_check(git_repository_set_head(repo_, "refs/heads/main"), "HEAD -> main");
}

SyntheticRepo::~SyntheticRepo() {
  git_repository_free(repo_);
  git_libgit2_shutdown();
}

std::string SyntheticRepo::write_commit(const std::string& message, const Files& files,
                                        const std::vector<std::string>& parents) {
  Dir root;
  for (const auto& [path, contents] : files) {
    Dir* d = &root;
    size_t start = 0, slash;
    while ((slash = path.find('/', start)) != std::string::npos) {
      d = &d->dirs[path.substr(start, slash - start)];
      start = slash + 1;
    }
    d->files[path.substr(start)] = contents;
  }
  const git_oid tree_id = oid(write_dir(root));
  git_tree* tree = nullptr;
  git_check(git_tree_lookup(&tree, repo_, &tree_id), "read tree");
  std::vector<git_commit*> parent_commits;
  for (const auto& p : parents) {
    git_commit* c = nullptr;
    const git_oid id = oid(p);
    git_check(git_commit_lookup(&c, repo_, &id), "read parent " + p);
    parent_commits.push_back(c);
  }
  git_signature* sig = nullptr;
  clock_ += 60;
  git_check(git_signature_new(&sig, "Tester", "tester@example.com", clock_, 0), "signature");
  git_oid id;
  std::vector<const git_commit*> cparents(parent_commits.begin(), parent_commits.end());
  const int rc = git_commit_create(&id, repo_, nullptr, sig, sig, nullptr, message.c_str(), tree, cparents.size(),
                                   cparents.data());
  git_signature_free(sig);
  for (auto* c : parent_commits) git_commit_free(c);
  git_tree_free(tree);
  git_check(rc, "commit '" + message + "'");
  const std::string sha = oid_hex(id);
  trees_[sha] = files;
  return sha;
}

void SyntheticRepo::set_branch(const std::string& branch, const std::string& sha) {
  git_reference* ref = nullptr;
  const git_oid id = oid(sha);
  git_check(git_reference_create(&ref, repo_, ("refs/heads/" + branch).c_str(), &id, 1, "synthetic"),
            "branch " + branch);
  git_reference_free(ref);
  branches_[branch] = sha;
}

std::string SyntheticRepo::head(const std::string& branch) const {
  auto it = branches_.find(branch);
  if (it == branches_.end()) throw std::runtime_error("synthetic repo: no branch " + branch);
  return it->second;
}

std::string SyntheticRepo::commit(const std::string& branch, const std::string& message, const Changes& changes,
                                  const std::string& from) {
  std::vector<std::string> parents;
  Files files;
  if (auto it = branches_.find(branch); it != branches_.end()) {
    parents.push_back(it->second);
  } else if (!from.empty()) {
    parents.push_back(from);
  }
  if (!parents.empty()) files = trees_.at(parents[0]);
  for (const auto& [path, contents] : changes) {
    if (contents) {
      files[path] = *contents;
    } else {
      files.erase(path);
    }
  }
  const std::string sha = write_commit(message, files, parents);
  set_branch(branch, sha);
  return sha;
}

std::vector<std::string> SyntheticRepo::parents_of(const std::string& sha) const {
  git_commit* c = nullptr;
  const git_oid id = oid(sha);
  git_check(git_commit_lookup(&c, repo_, &id), "read " + sha);
  std::vector<std::string> out;
  for (unsigned k = 0; k < git_commit_parentcount(c); ++k) out.push_back(oid_hex(*git_commit_parent_id(c, k)));
  git_commit_free(c);
  return out;
}

std::string SyntheticRepo::title_of(const std::string& sha) const {
  git_commit* c = nullptr;
  const git_oid id = oid(sha);
  git_check(git_commit_lookup(&c, repo_, &id), "read " + sha);
  std::string title = git_commit_summary(c);
  git_commit_free(c);
  return title;
}

std::string SyntheticRepo::fork_point(const std::string& a, const std::string& b) const {
  git_oid base;
  const git_oid ia = oid(a), ib = oid(b);
  if (git_merge_base(&base, repo_, &ia, &ib) != 0) return "";
  return oid_hex(base);
}

std::string SyntheticRepo::merge(const std::string& into, const std::string& from_branch, const std::string& message) {
  const std::string ours = head(into), theirs = head(from_branch);
  const std::string base = fork_point(ours, theirs);
  const Files empty;
  const Files& base_files = base.empty() ? empty : trees_.at(base);
  const Files& their_files = trees_.at(theirs);
  Files files = trees_.at(ours);
  for (const auto& [path, contents] : their_files) {
    auto b = base_files.find(path);
    if (b == base_files.end() || b->second != contents) files[path] = contents;
  }
  for (const auto& [path, contents] : base_files) {
    if (!their_files.count(path)) files.erase(path);
  }
  const std::string sha = write_commit(message, files, {ours, theirs});
  set_branch(into, sha);
  return sha;
}

std::string SyntheticRepo::merge_pull_request(const std::string& into, const std::string& from_branch, int number,
                                              const std::string& title) {
  return merge(
      into, from_branch,
      "Merge pull request #" + std::to_string(number) + " from someone/" + from_branch + "\n\n" + title + "\n");
}

std::string SyntheticRepo::revert(const std::string& branch, const std::string& sha) {
  const auto parents = parents_of(sha);
  if (parents.empty()) throw std::runtime_error("synthetic repo: cannot revert a root commit");
  const Files& before = trees_.at(parents[0]);
  const Files& after = trees_.at(sha);
  Changes undo;
  for (const auto& [path, contents] : after) {
    auto b = before.find(path);
    if (b == before.end()) {
      undo[path] = std::nullopt;
    } else if (b->second != contents) {
      undo[path] = b->second;
    }
  }
  for (const auto& [path, contents] : before) {
    if (!after.count(path)) undo[path] = contents;
  }
  // git's wording; a merge is reverted against its first parent (git revert -m 1).
  const std::string why = parents.size() == 1
                              ? "This reverts commit " + sha + ".\n"
                              : "This reverts commit " + sha + ", reversing\nchanges made to " + parents[0] + ".\n";
  return commit(branch, "Revert \"" + title_of(sha) + "\"\n\n" + why, undo);
}

SyntheticRepo::Files SyntheticRepo::files_at(const std::string& sha) const {
  return trees_.at(sha);
}

void SyntheticRepo::make_shallow(const std::string& sha) {
  std::ofstream(dir_ / ".git" / "shallow") << sha << "\n";
  std::vector<std::string> todo = parents_of(sha);
  std::map<std::string, bool> seen;
  while (!todo.empty()) {
    const std::string c = todo.back();
    todo.pop_back();
    if (seen[c]) continue;
    seen[c] = true;
    for (const auto& p : parents_of(c)) todo.push_back(p);
  }
  for (const auto& [c, _] : seen) fs::remove(dir_ / ".git" / "objects" / c.substr(0, 2) / c.substr(2));
  // libgit2 keeps read objects in a per-repository cache: reopen so the deletion is seen.
  git_repository_free(repo_);
  repo_ = nullptr;
  git_check(git_repository_open(&repo_, dir_.c_str()), "reopen " + dir_.string());
}

}  // namespace eok::idea_pool::testing
