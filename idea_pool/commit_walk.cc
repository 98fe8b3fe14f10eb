#include "idea_pool/commit_walk.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "src/common/error.h"
#include "src/common/clock.h"
#include "src/common/log.h"

namespace eok::idea_pool {

namespace {

// The commit graph by position in a children-before-parents order, so that "newer" is "smaller index".
class Graph {
 public:
  explicit Graph(const std::vector<CommitInfo>& newest_first) : parents_(newest_first.size()) {
    std::unordered_map<std::string, uint32_t> index;
    index.reserve(newest_first.size());
    for (uint32_t i = 0; i < newest_first.size(); ++i) index.emplace(newest_first[i].sha, i);
    for (uint32_t i = 0; i < newest_first.size(); ++i) {
      for (const auto& p : newest_first[i].parents) {
        auto it = index.find(p);
        parents_[i].push_back(it == index.end() ? kMissing : it->second);  // missing: beyond a shallow boundary
      }
    }
    color_.assign(size(), 0);
    stamp_.assign(size(), 0);
  }

  static constexpr uint32_t kMissing = UINT32_MAX;

  size_t size() const { return parents_.size(); }
  uint32_t first_parent(uint32_t c) const { return parents_[c].empty() ? kMissing : parents_[c][0]; }

  // Calls `member(i)` for every commit reachable from merge `m`'s other parents and not from its first,
  // newest first. Paints two colours downwards in index order (children are always done before their
  // parents, so a commit's colour is final when it is taken) and stops as soon as only commits reachable
  // from the first parent are left: the cost is the span between the merge and its fork point, not the
  // whole history.
  template <typename F>
  void merged_by(uint32_t m, F&& member) {
    ++epoch_;
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> queue;
    size_t theirs_only = 0;  // queued commits painted kTheirs alone: the walk goes on while there are any
    auto paint = [&](uint32_t c, uint8_t colour) {
      if (c == kMissing) return;
      if (stamp_[c] == epoch_ && (color_[c] & kTaken)) return;  // only when `newest_first` was not topological
      if (stamp_[c] != epoch_) {
        stamp_[c] = epoch_;
        color_[c] = colour;
        queue.push(c);
        theirs_only += colour == kTheirs;
      } else if (color_[c] == kTheirs && (colour & kOurs)) {
        color_[c] |= kOurs;
        --theirs_only;
      } else {
        color_[c] |= colour;
      }
    };
    const auto& ps = parents_[m];
    if (ps.size() < 2) return;
    paint(ps[0], kOurs);
    for (size_t k = 1; k < ps.size(); ++k) paint(ps[k], kTheirs);
    while (theirs_only > 0) {
      const uint32_t c = queue.top();
      queue.pop();
      const uint8_t colour = color_[c];
      color_[c] |= kTaken;
      if (colour == kTheirs) {
        --theirs_only;
        member(c);
      }
      for (uint32_t p : parents_[c]) paint(p, colour == kTheirs ? kTheirs : kOurs);
    }
  }

 private:
  static constexpr uint8_t kOurs = 1, kTheirs = 2, kTaken = 4;
  std::vector<std::vector<uint32_t>> parents_;
  std::vector<uint8_t> color_;
  std::vector<uint32_t> stamp_;  // color_[c] is valid when stamp_[c] == epoch_: no clearing between merges
  uint32_t epoch_ = 0;
};

std::string trim(std::string s) {
  const auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; };
  while (!s.empty() && space(s.back())) s.pop_back();
  size_t k = 0;
  while (k < s.size() && space(s[k])) ++k;
  return s.substr(k);
}

// A mirror or a fresh clone may have only the remote-tracking branch (origin/develop).
std::string resolve_branch(const GitRepo& repo, const std::string& branch) {
  try {
    return repo.resolve(branch);
  } catch (const NotFoundError&) {
    if (branch.find('/') != std::string::npos) throw;
    try {
      return repo.resolve("origin/" + branch);
    } catch (const NotFoundError&) {
    }
    throw;
  }
}

// What reverts cancel (reverted_commits); a reverted merge cancels every commit it merged.
std::unordered_set<std::string> cancelled_by_reverts(const std::vector<CommitInfo>& newest_first,
                                                     const FilterRules& rules) {
  std::unordered_set<std::string> cancelled = reverted_commits(newest_first, rules);
  std::vector<uint32_t> merges;
  for (uint32_t i = 0; i < newest_first.size(); ++i) {
    if (newest_first[i].is_merge() && cancelled.count(newest_first[i].sha)) merges.push_back(i);
  }
  if (merges.empty()) return cancelled;
  Graph graph(newest_first);
  for (uint32_t m : merges) graph.merged_by(m, [&](uint32_t c) { cancelled.insert(newest_first[c].sha); });
  return cancelled;
}

}  // namespace

std::optional<std::string> pull_request_title(const std::string& message) {
  static const std::string kPrefix = "Merge pull request #";
  if (message.compare(0, kPrefix.size(), kPrefix) != 0) return std::nullopt;
  const size_t end1 = message.find('\n');
  if (end1 == std::string::npos || message.find(" from ", kPrefix.size()) > end1) return std::nullopt;
  // The title is the first non-blank line after the first (GitHub writes it on the third).
  size_t pos = end1 + 1;
  while (pos < message.size()) {
    const size_t end = std::min(message.find('\n', pos), message.size());
    std::string line = trim(message.substr(pos, end - pos));
    if (!line.empty()) return line;
    pos = end + 1;
  }
  return std::nullopt;
}

std::vector<std::string> pull_request_titles(const std::vector<CommitInfo>& newest_first) {
  std::vector<std::string> titles(newest_first.size());
  if (newest_first.empty()) return titles;
  Graph graph(newest_first);
  std::vector<bool> assigned(newest_first.size(), false);
  // Commits on the tip's first-parent chain were committed to the branch itself: no pull request brought
  // them, even if a release pull request carried them elsewhere later.
  for (uint32_t c = 0; c != Graph::kMissing; c = graph.first_parent(c)) assigned[c] = true;
  // Oldest merge first, first claim wins: a commit gets the pull request it was written for, not a later
  // one that carried it again (OpenBLAS merges all of develop into master by pull request at each
  // release, and nests branches such as risc-v that had pull requests of their own).
  for (uint32_t m = static_cast<uint32_t>(newest_first.size()); m-- > 0;) {
    if (!newest_first[m].is_merge()) continue;
    const std::optional<std::string> title = pull_request_title(newest_first[m].message);
    if (!title) continue;
    graph.merged_by(m, [&](uint32_t c) {
      if (assigned[c]) return;
      assigned[c] = true;
      titles[c] = *title;
    });
  }
  return titles;
}

WalkResult walk_commits(const GitRepo& repo, const std::string& branch, const FilterRules& rules,
                        const WalkOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  WalkResult result;
  WalkSummary& sum = result.summary;
  sum.tip = resolve_branch(repo, branch);
  sum.shallow = repo.is_shallow();

  std::vector<std::string> boundary_list;
  std::vector<CommitInfo> commits = repo.history(sum.tip, &boundary_list);
  const std::unordered_set<std::string> boundary(boundary_list.begin(), boundary_list.end());
  if (sum.shallow || !boundary.empty()) {
    log::warn(
        "{} is a shallow clone: mining the {} commits it has; run `git fetch --unshallow` there for the whole history",
        repo.path().string(), commits.size());
    sum.shallow = true;
  }
  sum.seen = commits.size();
  const double t_history = seconds_since(t0);

  const std::vector<std::string> titles = pull_request_titles(commits);
  for (const auto& c : commits) sum.pull_requests += c.is_merge() && pull_request_title(c.message).has_value();
  const CommitFilter filter(rules, cancelled_by_reverts(commits, rules));
  const double t_prepare = seconds_since(t0);

  double t_diff = 0;
  for (size_t i = 0; i < commits.size(); ++i) {
    if (options.progress && i % 64 == 0) options.progress(i, commits.size());
    CommitInfo& c = commits[i];
    std::optional<FilterVerdict> verdict = filter.classify_message(c);
    if (!verdict && boundary.count(c.sha)) verdict = FilterVerdict{false, drop_reason::kShallowBoundary};
    std::vector<FileChange> files;
    if (!verdict) {
      files = repo.changed_files(c, false);
      verdict = filter.classify_files(files, &repo);
    }
    if (options.observe) options.observe(c, files, *verdict);
    if (!verdict->keep) {
      ++sum.dropped[verdict->reason];
      continue;
    }
    const auto td = std::chrono::steady_clock::now();
    MinedCommit m;
    m.pr_title = titles[i];
    m.kernel_files = filter.kernel_files(files);
    m.diff = repo.diff_files(m.kernel_files, options.max_diff_bytes, &m.diff_truncated);
    m.info = std::move(c);
    sum.diffs_truncated += m.diff_truncated;
    sum.pr_titles_joined += !m.pr_title.empty();
    result.commits.push_back(std::move(m));
    t_diff += seconds_since(td);
  }
  if (options.progress) options.progress(commits.size(), commits.size());
  sum.kept = result.commits.size();
  sum.seconds = seconds_since(t0);
  log::debug("walk {}: history {:.2f}s, titles and reverts {:.2f}s, filter {:.2f}s, diffs {:.2f}s",
             repo.path().string(), t_history, t_prepare - t_history, sum.seconds - t_prepare - t_diff, t_diff);
  return result;
}

}  // namespace eok::idea_pool
