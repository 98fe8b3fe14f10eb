#include "idea_pool/commit_filter.h"

#include <algorithm>
#include <cctype>

#include "src/common/error.h"

namespace eok::idea_pool {

namespace {

std::regex compile(const std::string& pattern, const char* what) {
  try {
    return std::regex(pattern, std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
  } catch (const std::regex_error& e) {
    throw ConfigError(std::string("invalid ") + what + " pattern '" + pattern + "': " + e.what() +
                      "; fix it in the filter rules (ECMAScript regular expression)");
  }
}

// '*' matches any run of characters except '/'.
bool glob(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos && text[mark] != '/') {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool is_hex(char ch) {
  return std::isxdigit(static_cast<unsigned char>(ch)) != 0;
}

// The commit id a revert names: "This reverts commit SHA" in the body (git's wording), else an id of 7 to
// 40 hex digits in the title ("Revert 42b5e08 (...)"). "" when none.
std::string revert_target(const CommitInfo& c) {
  static const std::regex body(R"(reverts commit ([0-9a-f]{7,40}))", std::regex::icase);
  static const std::regex title_id(R"(\b([0-9a-f]{7,40})\b)", std::regex::icase);
  std::smatch m;
  if (std::regex_search(c.message, m, body)) return m[1].str();
  for (auto it = std::sregex_iterator(c.title.begin(), c.title.end(), title_id); it != std::sregex_iterator(); ++it) {
    const std::string id = (*it)[1].str();
    if (std::any_of(id.begin(), id.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      return id;
  }
  return "";
}

}  // namespace

bool path_matches(const std::string& pattern, const std::string& path) {
  if (pattern.empty()) return false;
  if (pattern.back() == '/') return path.compare(0, pattern.size(), pattern) == 0;
  if (pattern.find('/') != std::string::npos) return glob(pattern, path);
  const size_t slash = path.rfind('/');
  return glob(pattern, std::string_view(path).substr(slash == std::string::npos ? 0 : slash + 1));
}

CommitFilter::CommitFilter(FilterRules rules, std::unordered_set<std::string> reverted)
    : rules_(std::move(rules)), reverted_(std::move(reverted)) {
  for (const auto& p : rules_.version_title_patterns) version_titles_.push_back(compile(p, "version title"));
  revert_title_ = compile(rules_.revert_title_pattern, "revert title");
}

bool CommitFilter::is_kernel_file(const std::string& path) const {
  const bool under = std::any_of(rules_.kernel_prefixes.begin(), rules_.kernel_prefixes.end(),
                                 [&](const std::string& p) { return path.compare(0, p.size(), p) == 0; });
  if (!under) return false;
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
  const std::string_view ext = std::string_view(path).substr(dot);
  return std::find(rules_.kernel_extensions.begin(), rules_.kernel_extensions.end(), ext) !=
         rules_.kernel_extensions.end();
}

bool CommitFilter::is_housekeeping_file(const std::string& path) const {
  return std::any_of(rules_.housekeeping_patterns.begin(), rules_.housekeeping_patterns.end(),
                     [&](const std::string& p) { return path_matches(p, path); });
}

bool CommitFilter::is_revert(const CommitInfo& c) const {
  return std::regex_search(c.title, revert_title_) || c.message.find("This reverts commit ") != std::string::npos;
}

std::vector<FileChange> CommitFilter::kernel_files(const std::vector<FileChange>& files) const {
  std::vector<FileChange> out;
  for (const auto& f : files) {
    // A kernel moved out of the kernel tree still changes kernel code.
    if (is_kernel_file(f.path) || (!f.old_path.empty() && is_kernel_file(f.old_path))) out.push_back(f);
  }
  return out;
}

std::optional<FilterVerdict> CommitFilter::classify_message(const CommitInfo& c) const {
  if (c.is_merge()) return FilterVerdict{false, drop_reason::kMerge};
  if (is_revert(c)) return FilterVerdict{false, drop_reason::kRevert};
  if (reverted_.count(c.sha)) return FilterVerdict{false, drop_reason::kReverted};
  for (const auto& re : version_titles_) {
    if (std::regex_search(c.title, re)) return FilterVerdict{false, drop_reason::kVersion};
  }
  return std::nullopt;
}

FilterVerdict CommitFilter::classify_files(const std::vector<FileChange>& files, const GitRepo* repo) const {
  if (files.empty()) return {false, drop_reason::kNoKernelCode};
  const size_t added = static_cast<size_t>(
      std::count_if(files.begin(), files.end(), [](const FileChange& f) { return f.status == 'A'; }));
  if (added > rules_.max_added_files) return {false, drop_reason::kImport};
  std::vector<FileChange> kernel = kernel_files(files);
  if (kernel.empty()) {
    const bool housekeeping =
        std::all_of(files.begin(), files.end(), [&](const FileChange& f) { return is_housekeeping_file(f.path); });
    return {false, housekeeping ? drop_reason::kBuildCiDocs : drop_reason::kNoKernelCode};
  }
  if (rules_.drop_formatting && repo && repo->whitespace_only(kernel)) return {false, drop_reason::kFormatting};
  return {true, ""};
}

FilterVerdict CommitFilter::classify(const CommitInfo& c, const std::vector<FileChange>& files,
                                     const GitRepo* repo) const {
  if (auto v = classify_message(c)) return *v;
  return classify_files(files, repo);
}

std::unordered_set<std::string> reverted_commits(const std::vector<CommitInfo>& newest_first,
                                                 const FilterRules& rules) {
  const CommitFilter filter(rules);
  std::vector<std::string> sorted;  // for abbreviated ids, built on first need
  auto full_id = [&](const std::string& id) -> std::string {
    if (id.size() == 40) return id;
    if (sorted.empty()) {
      for (const auto& c : newest_first) sorted.push_back(c.sha);
      std::sort(sorted.begin(), sorted.end());
    }
    std::string lower = id;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
    auto it = std::lower_bound(sorted.begin(), sorted.end(), lower);
    if (it == sorted.end() || it->compare(0, lower.size(), lower) != 0) return "";
    if (std::next(it) != sorted.end() && std::next(it)->compare(0, lower.size(), lower) == 0) return "";  // ambiguous
    return *it;
  };
  std::unordered_set<std::string> cancelled;
  // Newest first: by the time a revert is reached, any newer revert of it has cancelled it already.
  for (const auto& c : newest_first) {
    if (cancelled.count(c.sha) || !filter.is_revert(c)) continue;
    std::string target = revert_target(c);
    if (target.empty() || !std::all_of(target.begin(), target.end(), is_hex)) continue;
    target = full_id(target);
    if (!target.empty() && target != c.sha) cancelled.insert(std::move(target));
  }
  return cancelled;
}

}  // namespace eok::idea_pool
