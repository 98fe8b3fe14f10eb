// One commit as the miner keeps it: what the walk found (message, the title of the pull request that
// merged it, kernel files, capped diff) and what effectiveness analysis said about it.
#pragma once

#include <string>
#include <vector>

#include "idea_pool/git_repo.h"

namespace eok::idea_pool {

// How much a commit helped: relative improvement old_time / new_time - 1 (0.05 = 5 % faster).
struct Effect {
  double improvement = 0;
  bool measured = false;  // from periodic performance evaluations; false: a heuristic estimate
  double confidence = 0;  // in [0, 1]: measured effects carry the evaluations' noise, estimates their doubt
  std::string evidence;   // "gha-aws-skylake runs 0.3.27.206 -> 0.3.27.208: 41 benchmarks, geo-mean -3.1 %" or
                          // "estimate: message says 'optimize'"
};

struct MinedCommit {
  CommitInfo info;
  std::string pr_title;                  // "" when no merge commit names a pull request for it
  std::vector<FileChange> kernel_files;  // the kernel sources it changes
  std::string diff;                      // unified diff of those files, capped
  bool diff_truncated = false;
  Effect effect;

  // What gets embedded and distilled: the message, and the pull request title when there is one.
  std::string text() const { return pr_title.empty() ? info.message : pr_title + "\n\n" + info.message; }
};

}  // namespace eok::idea_pool
