#include "src/common/text_diff.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace eok {

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

enum class Op { keep, del, add };

// Longest-common-subsequence edit script: fine for kernels (hundreds of lines).
std::vector<std::pair<Op, size_t>> edit_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  std::vector<std::pair<Op, size_t>> script;  // index into a (keep/del) or b (add)
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j])
      script.push_back({Op::keep, i++}), ++j;
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]))
      script.push_back({Op::del, i++});  // deletions first
    else
      script.push_back({Op::add, j++});
  }
  return script;
}

}  // namespace

std::string unified_diff(const std::string& a_text, const std::string& b_text, const std::string& a_name,
                         const std::string& b_name, size_t context) {
  if (a_text == b_text) return "";
  const auto a = lines_of(a_text), b = lines_of(b_text);
  if (a.size() > 4000 || b.size() > 4000)
    return "(texts too long to diff: " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " lines)\n";
  const auto script = edit_script(a, b);
  std::ostringstream out;
  out << "--- " << a_name << "\n+++ " << b_name << "\n";
  // Positions (1-based line numbers in a and b) before each script entry.
  std::vector<size_t> pos_a(script.size() + 1), pos_b(script.size() + 1);
  for (size_t k = 0, pa = 1, pb = 1; k <= script.size(); ++k) {
    pos_a[k] = pa;
    pos_b[k] = pb;
    if (k == script.size()) break;
    if (script[k].first != Op::add) ++pa;
    if (script[k].first != Op::del) ++pb;
  }
  size_t k = 0;
  while (k < script.size()) {
    if (script[k].first == Op::keep) {
      ++k;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change that is
    // less than 2*context kept lines away.
    size_t start = k >= context ? k - context : 0;
    size_t end = k;
    while (end < script.size()) {
      size_t next = end;
      while (next < script.size() && script[next].first == Op::keep) ++next;
      if (next == script.size() || next - end > 2 * context) break;
      end = next + 1;
      while (end < script.size() && script[end].first != Op::keep) ++end;
    }
    end = std::min(script.size(), end + context);
    size_t count_a = 0, count_b = 0;
    for (size_t x = start; x < end; ++x) {
      if (script[x].first != Op::add) ++count_a;
      if (script[x].first != Op::del) ++count_b;
    }
    out << "@@ -" << pos_a[start] << "," << count_a << " +" << pos_b[start] << "," << count_b << " @@\n";
    for (size_t x = start; x < end; ++x) {
      const auto [op, idx] = script[x];
      if (op == Op::keep)
        out << " " << a[idx] << "\n";
      else if (op == Op::del)
        out << "-" << a[idx] << "\n";
      else
        out << "+" << b[idx] << "\n";
    }
    k = end;
  }
  return out.str();
}

}  // namespace eok
