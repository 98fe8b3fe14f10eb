// A git repository built commit by commit with libgit2, for tests of the history miner: files, branches,
// merges with GitHub's messages, reverts, and a shallow boundary, without the git program.
//
// Contract: the repository lives in `dir` (which the caller owns, e.g. a TempDir). Every commit gets a
// committer time one minute after the previous one, so orders are deterministic. Failures of libgit2
// throw std::runtime_error naming the step.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct git_repository;
struct git_oid;

namespace eok::idea_pool::testing {

// Throws std::runtime_error naming `what` and libgit2's last error when `rc` (a libgit2 result) is not 0.
void git_check(int rc, const std::string& what);
// An object id as its 40 hex digits.
std::string oid_hex(const git_oid& oid);

class SyntheticRepo {
 public:
  // Path -> new contents; nullopt deletes the file.
  using Changes = std::map<std::string, std::optional<std::string>>;
  using Files = std::map<std::string, std::string>;

  // An empty repository (git init) in `dir`, with a work tree; its first commit goes to branch "main".
  explicit SyntheticRepo(const std::filesystem::path& dir);
  ~SyntheticRepo();
  SyntheticRepo(const SyntheticRepo&) = delete;
  SyntheticRepo& operator=(const SyntheticRepo&) = delete;

  const std::filesystem::path& path() const { return dir_; }

  // A commit on `branch` (created on first use, from `from` when given, else as a root commit) applying
  // `changes` to the branch's files. Returns its sha.
  std::string commit(const std::string& branch, const std::string& message, const Changes& changes,
                     const std::string& from = "");

  // Points `branch` at `sha` (creating it).
  void set_branch(const std::string& branch, const std::string& sha);
  std::string head(const std::string& branch) const;

  // A merge commit on `into` with `from_branch`'s head as second parent. Its files: `into`'s, updated
  // with every file `from_branch` changed since their fork point (the test scenarios have no conflicts).
  std::string merge(const std::string& into, const std::string& from_branch, const std::string& message);

  // The same with GitHub's message: "Merge pull request #N from someone/<from_branch>\n\n<title>".
  std::string merge_pull_request(const std::string& into, const std::string& from_branch, int number,
                                 const std::string& title);

  // A commit on `branch` undoing `sha` (a merge against its first parent), with git's message:
  // Revert "<title>" ... "This reverts commit <sha>."
  std::string revert(const std::string& branch, const std::string& sha);

  Files files_at(const std::string& sha) const;

  // Makes the clone shallow at `sha`: records it in .git/shallow and deletes the commit objects of its
  // ancestors, as a `git clone --depth` would not have fetched them.
  void make_shallow(const std::string& sha);

 private:
  std::string write_commit(const std::string& message, const Files& files, const std::vector<std::string>& parents);
  std::vector<std::string> parents_of(const std::string& sha) const;
  std::string title_of(const std::string& sha) const;
  std::string fork_point(const std::string& a, const std::string& b) const;
  struct Dir;
  std::string write_dir(const Dir& dir);  // a tree object's id

  std::filesystem::path dir_;
  git_repository* repo_ = nullptr;
  std::map<std::string, Files> trees_;  // sha -> its files
  std::map<std::string, std::string> branches_;
  std::map<std::string, std::string> blobs_;          // contents -> id
  std::map<std::string, std::string> trees_written_;  // entries -> id
  long long clock_ = 1700000000;
};

}  // namespace eok::idea_pool::testing
