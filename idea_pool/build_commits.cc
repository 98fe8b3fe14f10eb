#include "idea_pool/build_commits.h"

#include "src/common/error.h"

namespace eok::idea_pool {

std::map<int64_t, std::string> map_builds(const GitRepo& repo, const std::string& branch, const std::string& base_tag,
                                          const std::set<int64_t>& numbers, std::vector<std::string>* warnings) {
  std::map<int64_t, std::string> out;
  if (numbers.empty()) return out;
  auto warn = [&](const std::string& w) {
    if (warnings) warnings->push_back(w);
  };
  const std::string tip = repo.resolve(branch);  // a missing branch is the caller's error: it throws
  std::string base;
  try {
    base = repo.resolve(base_tag);
  } catch (const NotFoundError&) {
    warn("base tag " + base_tag + " is not in " + repo.path().string() + ": no build can be tied to a commit");
    return out;
  }
  // count(C) = rev-list --count base..C. Down the first-parent chain each step loses exactly the commits
  // that C brings in over its first parent, so one full count and one small walk per step give them all.
  const int64_t total = static_cast<int64_t>(repo.count_between(base, tip));
  int64_t count = total;
  const int64_t lowest = *numbers.begin();
  std::string cur = tip;
  while (true) {
    if (numbers.count(count)) out[count] = cur;
    if (count <= lowest || count <= 0) break;
    const CommitInfo info = repo.commit(cur);
    if (info.parents.empty()) break;
    const std::string parent = info.parents.front();
    int64_t brought = 0;
    repo.walk(cur, {parent, base}, [&](const CommitInfo&) {
      ++brought;
      return true;
    });
    count -= brought;
    cur = parent;
  }
  for (int64_t n : numbers) {
    if (out.count(n)) continue;
    if (n > total) {
      warn("build " + std::to_string(n) + " is newer than " + branch + " (" + std::to_string(total) +
           " commits after " + base_tag + "): update the clone");
    } else {
      warn("no first-parent commit of " + branch + " is " + std::to_string(n) + " commits after " + base_tag +
           ": that build came from another branch");
    }
  }
  return out;
}

}  // namespace eok::idea_pool
