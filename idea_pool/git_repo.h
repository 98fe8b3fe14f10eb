// A read-only view of a git repository through libgit2: what the miner needs and nothing more.
//
// Contract: every method is const and thread-compatible (one GitRepo per thread for parallel use).
// Errors of libgit2 become eok::Error (or NotFoundError for a missing branch/commit) with a message that
// names the repository and says what to do; nothing here prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

struct git_repository;

namespace eok::idea_pool {

struct CommitInfo {
  std::string sha;                   // 40 hex digits
  std::vector<std::string> parents;  // first parent first
  std::string author;
  int64_t time = 0;     // committer time, unix seconds
  std::string title;    // first line of the message
  std::string message;  // the whole message
  bool is_merge() const { return parents.size() > 1; }
};

struct FileChange {
  std::string path;      // new path (old path for deletions)
  char status = 'M';     // 'A' added, 'M' modified, 'D' deleted, 'R' renamed, 'C' copied, 'T' type change
  size_t additions = 0;  // line counts: filled by changed_files(c) and diff_files, 0 when not counted
  size_t deletions = 0;
  bool binary = false;   // known once the contents were read (see above)
  std::string old_path;  // the path before a rename; "" otherwise
  std::string old_blob;  // object ids of the contents before and after, "" where there is none
  std::string new_blob;
};

class GitRepo {
 public:
  // Opens a clone (bare or with a work tree). Throws NotFoundError when `path` is not a git repository,
  // Error when it is empty (no commits).
  static GitRepo open(const std::filesystem::path& path);

  GitRepo(GitRepo&&) noexcept;
  GitRepo& operator=(GitRepo&&) noexcept;
  ~GitRepo();

  const std::filesystem::path& path() const { return path_; }
  bool is_shallow() const;
  std::vector<std::string> branches() const;  // local and remote-tracking branch names

  // A branch, tag or (abbreviated) sha to a full commit sha. Throws NotFoundError listing the branches
  // when `rev` names nothing.
  std::string resolve(const std::string& rev) const;

  CommitInfo commit(const std::string& sha) const;

  // Every commit reachable from `tip` and from none of `hide`, newest first (topological, then time).
  // `visit` returns false to stop early. Needs the full history (see history() for shallow clones).
  void walk(const std::string& tip, const std::vector<std::string>& hide,
            const std::function<bool(const CommitInfo&)>& visit) const;

  // Every commit reachable from `tip` through all parents, children before parents (ties: newer committer
  // time first), read in one pass. Works on shallow clones: a parent missing from the object database ends
  // the history there, and the commits whose parents are missing are added to *boundary.
  std::vector<CommitInfo> history(const std::string& tip, std::vector<std::string>* boundary = nullptr) const;

  // `tip`, its first parent, that one's first parent ... (stops after `stop` when given, which is included).
  std::vector<std::string> first_parent_chain(const std::string& tip, const std::string& stop = "") const;

  // `git rev-list --count from..to`: commits reachable from `to` and not from `from`.
  size_t count_between(const std::string& from, const std::string& to) const;

  // Files the commit changes against its first parent (against the empty tree for a root commit), in path
  // order. Renames are detected (exact ones always, edited ones like git's default). Only subtrees that
  // differ are read, so this is cheap; `count_lines` = false skips reading the contents (no line counts,
  // no binary flags), which is what a filter that looks only at paths wants.
  std::vector<FileChange> changed_files(const CommitInfo& c, bool count_lines = true) const;

  // Unified diff (3 lines of context) against the first parent, of the files `include` accepts, at most
  // `max_bytes` (cut at a line boundary; *truncated says so). Binary files are skipped.
  std::string diff_text(const CommitInfo& c, const std::function<bool(const std::string&)>& include, size_t max_bytes,
                        bool* truncated = nullptr) const;

  // The same for entries of changed_files (of one commit), in their order; also fills each entry's line
  // counts and binary flag, past the cap too.
  std::string diff_files(std::vector<FileChange>& files, size_t max_bytes, bool* truncated = nullptr) const;

  // True when every change the commit makes to files `include` accepts only adds, removes or moves white
  // space (a formatting-only commit: re-indenting, re-wrapping, blank lines). False when it changes no
  // such file, or adds, deletes or renames one.
  bool whitespace_only(const CommitInfo& c, const std::function<bool(const std::string&)>& include) const;

  // The same over entries of changed_files.
  bool whitespace_only(const std::vector<FileChange>& files) const;

  git_repository* raw() const { return repo_.get(); }

 private:
  struct Deleter {
    void operator()(git_repository* r) const;
  };
  GitRepo(std::filesystem::path path, git_repository* repo);
  std::filesystem::path path_;
  std::unique_ptr<git_repository, Deleter> repo_;
};

}  // namespace eok::idea_pool
