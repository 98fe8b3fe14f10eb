// OpenBLAS builds to commits: BLAS-Benchmarks measures nightly wheels versioned "<base>.N", where N is the
// number of commits between the base tag and the commit built (git rev-list --count base..C).
//
// Contract: map_builds reads the repository and never writes; a build no commit matches is a warning,
// not an error.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "idea_pool/git_repo.h"

namespace eok::idea_pool {

// Build numbers to commits: for each N, the first-parent commit C of `branch` with
// count_between(base_tag, C) == N. Numbers that no such commit has are left out (and named in `warnings`).
// Costs one walk of the range base_tag..branch plus one small walk per first-parent step down to min(N).
// Throws NotFoundError when `branch` names nothing; a missing base tag is a warning and an empty map.
std::map<int64_t, std::string> map_builds(const GitRepo& repo, const std::string& branch, const std::string& base_tag,
                                          const std::set<int64_t>& numbers,
                                          std::vector<std::string>* warnings = nullptr);

}  // namespace eok::idea_pool
