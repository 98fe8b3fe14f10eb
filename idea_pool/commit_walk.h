// The miner's first step: walk a branch's whole history (merged branches included), keep the commits that
// change kernel code (CommitFilter), join each one with the title of the pull request that merged it, and
// read the diff of its kernel files.
//
// Contract: walk_commits reads the repository only; it never prints (progress goes to the callback, a
// summary line to the log). Results are deterministic for a given repository state.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "idea_pool/commit_filter.h"
#include "idea_pool/git_repo.h"
#include "idea_pool/mined_commit.h"

namespace eok::idea_pool {

struct WalkOptions {
  size_t max_diff_bytes = 16 * 1024;  // per commit, of its kernel files' diff
  // Called as commits are classified: (done, total); total is exact once the history is read.
  std::function<void(size_t done, size_t total_estimate)> progress;
  // Called for every commit of the history, kept or dropped, oldest last, with the files it changes (empty
  // when a message rule dropped it) and the verdict: what a heuristic over the whole history needs (later
  // reverts and fixes, effect_estimate.h).
  std::function<void(const CommitInfo&, const std::vector<FileChange>&, const FilterVerdict&)> observe;
};

struct WalkSummary {
  std::string tip;  // the sha the branch named
  size_t seen = 0;  // commits reachable from the tip
  size_t kept = 0;
  std::map<std::string, size_t> dropped;  // by drop_reason
  size_t pull_requests = 0;               // merge commits with GitHub's "Merge pull request #N" message
  size_t pr_titles_joined = 0;            // kept commits that got a pull request's title
  bool shallow = false;                   // the clone is shallow: older history is missing
  size_t diffs_truncated = 0;
  double seconds = 0;
};

struct WalkResult {
  std::vector<MinedCommit> commits;  // kept commits, newest first (children before parents)
  WalkSummary summary;
};

// Walks `branch` (a branch name, or any revision; "origin/<branch>" is tried when only the remote-tracking
// branch exists). Throws NotFoundError listing the branches when it names nothing. A shallow clone is
// mined as far as it goes, with a warning; its boundary commits are dropped (kShallowBoundary).
WalkResult walk_commits(const GitRepo& repo, const std::string& branch, const FilterRules& rules = {},
                        const WalkOptions& options = {});

// GitHub's merge message: "Merge pull request #N from owner/branch", a blank line, then the pull request's
// title. The title, or nullopt when `message` is not such a message (or has no title).
std::optional<std::string> pull_request_title(const std::string& message);

// For each commit of `newest_first` (children before parents, as GitRepo::history returns them; the first
// is the tip), the title of the pull request that merged it, "" for none. A pull request merge M merged
// the commits reachable from its second parent and not from its first. When several merged a commit, the
// oldest one wins: the pull request the commit was written for, not a release or sync pull request that
// merged it again later, and an inner pull request over the outer one that merged its branch. Commits on
// the tip's first-parent chain were committed to the branch directly and get "". Linear in practice: each
// merge paints only the commits between it and where its branch forked.
std::vector<std::string> pull_request_titles(const std::vector<CommitInfo>& newest_first);

}  // namespace eok::idea_pool
