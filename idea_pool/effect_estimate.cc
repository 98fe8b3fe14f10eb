#include "idea_pool/effect_estimate.h"
#include "src/common/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <set>
#include <tuple>

namespace eok::idea_pool {

namespace {

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A keyword family: one label for several spellings.
struct Family {
  const char* label;
  std::regex pattern;
};

std::vector<Family> families(std::initializer_list<std::pair<const char*, const char*>> list) {
  std::vector<Family> out;
  for (const auto& [label, pattern] : list) out.push_back({label, std::regex(pattern, std::regex::optimize)});
  return out;
}

// Intent: the author says the change is about speed.
const std::vector<Family>& perf_families() {
  static const auto f = families({
      {"optimize", R"(\boptimi[sz]\w*|\bopt\b(?!-))"},
      {"speed up", R"(\bspeed(s|ed)?[ -]?ups?\b|\bsped up\b)"},
      {"faster", R"(\b(faster|quicker)\b)"},
      {"performance", R"(\bperformance\b|\bperf\b)"},
      {"accelerate", R"(\baccelerat\w*)"},
      {"boost", R"(\bboost\w*)"},
      {"efficiency", R"(\befficien\w*)"},
      {"throughput", R"(\bthroughput\b)"},
      {"tuning", R"(\btun(e|ed|es|ing)\b)"},
  });
  return f;
}

// Technique: how kernels are made faster (also names the area a fix touches, see estimate_effect).
const std::vector<Family>& technique_families() {
  static const auto f = families({
      {"vectorize", R"(\bvectori[sz]\w*)"},
      {"unroll", R"(\bunroll\w*)"},
      {"prefetch", R"(\bprefetch\w*)"},
      {"RVV", R"(\brvv\b|risc-v vector|\bzvl\d+b\b)"},
      {"SIMD", R"(\bsimd\b|\b(lsx|lasx|vsx|altivec|msa|mma)\b)"},
      {"SVE", R"(\bsve2?\b)"},
      {"NEON", R"(\bneon\b|\basimd\b)"},
      {"AVX", R"(\bavx(2|512\w*)?\b)"},
      {"SSE", R"(\bsse\d?\b)"},
      {"intrinsics", R"(\bintrinsics?\b)"},
      {"FMA", R"(\bfma\b)"},
      {"LMUL", R"(\blmul\b)"},
      {"blocking", R"(\bblocking\b|\btil(e|ed|ing)\b)"},
      {"pipelining", R"(\bpipelin\w*)"},
      {"interleave", R"(\binterleav\w*)"},
      {"microkernel", R"(\bmicro-?kernels?\b)"},
      {"small-matrix kernel", R"(\bsmall[- ]matri(x|ces)\b)"},
      {"new kernel", R"(\b(new|add|adds|added|adding|implement|implements|implemented)\b[^.\n]{0,30}\bkernels?\b)"},
  });
  return f;
}

// Correctness and build repairs: the change is about making code work, not faster. Technique words next to
// these name the code that was repaired ("fix SVE gemv build"), not what the change did.
const std::vector<Family>& fix_families() {
  static const auto f = families({
      {"fix", R"(\bfix\w*)"},
      {"bug", R"(\bbugs?\b|\bbugfix\w*)"},
      {"typo", R"(\btypos?\b)"},
      {"workaround", R"(\bwork-?arounds?\b|\bwork around\b)"},
      {"compile", R"(\bcompil\w*)"},
      {"warning", R"(\bwarnings?\b)"},
      {"crash", R"(\bcrash\w*|\bsegfault\w*|segmentation fault)"},
      {"wrong result", R"(\bwrong\b|\bincorrect\w*)"},
      {"overflow", R"(\boverflow\w*)"},
      {"NaN handling", R"(\bnans?\b)"},
      {"uninitialized", R"(\buninitiali[sz]ed\b|\bundefined behaviou?r\b)"},
      {"race", R"(\brace condition\b|\bdeadlock\w*)"},
  });
  return f;
}

// Housekeeping: not about speed either, but common in optimisation series too ("clean up and unroll").
const std::vector<Family>& housekeeping_families() {
  static const auto f = families({
      {"build", R"(\bbuild(s|ing)?\b)"},
      {"error message", R"(\berrors?\b)"},
      {"test", R"(\btests?\b|\btesting\b|\butest\b|\bctest\b)"},
      {"CI", R"(\bci\b)"},
      {"cleanup", R"(\bclean[- ]?up\w*|\brefactor\w*)"},
      {"formatting", R"(\bformatting\b|\bwhitespace\b|\bcode style\b)"},
      {"docs", R"(\bdocs?\b|\bdocumentation\b|\breadme\b)"},
      {"rename", R"(\brenam\w*)"},
  });
  return f;
}

std::vector<std::string> matches(const std::string& text, const std::vector<Family>& list) {
  std::vector<std::string> out;
  for (const auto& f : list) {
    if (std::regex_search(text, f.pattern)) out.push_back(f.label);
  }
  return out;
}

// Stated figures. Each pattern gives one number group (or two for "from A to B GFLOPS") and how it becomes
// an improvement (old_time / new_time - 1).
enum class Figure { percent_faster, times_faster, time_reduction, gflops_ratio };

struct ClaimPattern {
  Figure kind;
  std::regex pattern;
};

const std::vector<ClaimPattern>& claim_patterns() {
  static const std::vector<ClaimPattern> p = [] {
    const std::string num = R"((\d+(?:\.\d+)?))";
    const std::string approx =
        R"((?:about |around |roughly |approximately |nearly |almost |over |more than |up to |upto |~ ?)?)";
    std::vector<ClaimPattern> v;
    auto add = [&](Figure k, const std::string& re) { v.push_back({k, std::regex(re, std::regex::optimize)}); };
    // "20% faster", "10% performance increase", "15 percent speedup"
    add(Figure::percent_faster,
        num + R"(\s*(?:%|percent)\s+(?:faster|quicker|better|speed-?up|speed up|improvement|gain|)"
              R"((?:performance|perf|speed|throughput)\s+(?:increase|improvement|gain|boost|uplift)|)"
              R"(increase in (?:performance|speed|throughput)))");
    // "improves performance by ~33%", "speeds up dgemm by 15%"
    add(Figure::percent_faster,
        R"((?:improv\w*|speeds? up|sped up|speed-?up|boost\w*|accelerat\w*|faster)[^.%\n]{0,40}?\bby\s+)" + approx +
            num + R"(\s*%)");
    // "4x faster", "2x improvement", "3 times faster"
    add(Figure::times_faster,
        num +
            R"(\s*(?:x|times)\s+(?:faster|quicker|speed-?up|speed up|improvement|better performance|the performance))");
    // "speedup of 2x", "speed-up of up to 3 times"
    add(Figure::times_faster, R"((?:speed-?up|speed up|faster)\s+(?:of\s+)?)" + approx + num + R"(\s*(?:x|times)\b)");
    // "30% less time", "25% reduction in runtime"
    add(Figure::time_reduction,
        num +
            R"(\s*%\s+(?:less time|fewer cycles|(?:reduction|decrease) in (?:time|runtime|run time|cycles|latency|execution time)|lower (?:latency|runtime|run time)))");
    // "improvement from 17 to 22-23gflops"
    add(Figure::gflops_ratio,
        R"(from\s+)" + num + R"(\s*(?:gflops?\s*)?to\s+)" + num + R"((?:\s*-\s*\d+(?:\.\d+)?)?\s*gflops?)");
    return v;
  }();
  return p;
}

constexpr double kMaxClaim = 9.0;  // 10x: larger figures are about something else (sizes, counts)
// One kernel's best case is not a library's: no estimate above 2x, so that a bold message cannot outweigh
// every measured effect when the miner aggregates.
constexpr double kMaxEstimate = 1.0;

std::optional<double> claim_value(Figure kind, const std::smatch& m) {
  const double a = std::stod(m[1].str());
  double v = 0;
  switch (kind) {
    case Figure::percent_faster:
      v = a / 100;
      break;
    case Figure::times_faster:
      v = a - 1;
      break;
    case Figure::time_reduction:
      if (a >= 95) return std::nullopt;
      v = 1 / (1 - a / 100) - 1;
      break;
    case Figure::gflops_ratio: {
      const double b = std::stod(m[2].str());
      if (a <= 0) return std::nullopt;
      v = b / a - 1;
      break;
    }
  }
  if (!(v > 0) || v > kMaxClaim) return std::nullopt;
  return v;
}

std::string short_sha(const std::string& sha) {
  return sha.substr(0, 8);
}

// "This reverts commit <sha>." (git revert's own line) and the title 'Revert "<title>"'.
const std::regex& reverts_sha_pattern() {
  static const std::regex p(R"(this reverts commit ([0-9a-f]{7,40}))", std::regex::optimize);
  return p;
}

std::optional<std::string> reverted_title(const std::string& title) {
  if (!title.starts_with("Revert \"") || title.size() < 9 || title.back() != '"') return std::nullopt;
  return title.substr(8, title.size() - 9);
}

}  // namespace

MessageSignals read_message_signals(const std::string& text) {
  MessageSignals s;
  const std::string t = ascii_lower(text.substr(0, 8192));
  for (const auto& cp : claim_patterns()) {
    for (std::sregex_iterator it(t.begin(), t.end(), cp.pattern), end; it != end; ++it) {
      const std::smatch& m = *it;
      if (auto v = claim_value(cp.kind, m)) {
        const std::string phrase = m.str(0);
        if (std::find(s.claim_texts.begin(), s.claim_texts.end(), phrase) != s.claim_texts.end()) continue;
        s.claims.push_back(*v);
        s.claim_texts.push_back(phrase);
        // "up to" right before or inside the phrase: a peak.
        const size_t at = static_cast<size_t>(m.position(0));
        const std::string before = t.substr(at >= 12 ? at - 12 : 0, at >= 12 ? 12 : at) + phrase;
        if (before.find("up to") != std::string::npos || before.find("upto") != std::string::npos) s.peak_claim = true;
      }
    }
  }
  s.perf_words = matches(t, perf_families());
  s.technique_words = matches(t, technique_families());
  s.fix_words = matches(t, fix_families());
  s.housekeeping_words = matches(t, housekeeping_families());
  s.is_revert = t.starts_with("revert") || std::regex_search(t, reverts_sha_pattern());
  return s;
}

EstimateContext::EstimateContext(const std::vector<MinedCommit>& commits, EstimateOptions options) : options_(options) {
  for (const auto& c : commits) {
    std::vector<std::string> paths;
    for (const auto& f : c.kernel_files) paths.push_back(f.path);
    add(c.info, paths);
  }
}

void EstimateContext::add(const CommitInfo& commit, const std::vector<std::string>& paths) {
  const std::string message = ascii_lower(commit.message.substr(0, 8192));
  std::smatch m;
  if (std::regex_search(message, m, reverts_sha_pattern())) reverted_sha_.emplace(m[1].str(), commit.sha);
  if (auto title = reverted_title(commit.title)) reverted_title_.emplace(*title, commit.sha);
  if (paths.empty()) return;  // a fix of no file of interest is never a follow-up of anything
  const MessageSignals s = read_message_signals(commit.title + "\n" + commit.message);
  if (!s.fix_only() || s.is_revert) return;  // reverts are counted as reverts, not as fixes
  for (const auto& p : paths) {
    // Kept sorted by time (then sha) so that look-ups are ordered whatever order commits come in.
    auto& list = fixes_by_path_[p];
    const Later l{commit.time, commit.sha};
    auto before = [](const Later& a, const Later& b) { return std::tie(a.time, a.sha) < std::tie(b.time, b.sha); };
    list.insert(std::upper_bound(list.begin(), list.end(), l, before), l);
  }
}

std::optional<std::string> EstimateContext::reverted_by(const CommitInfo& c) const {
  if (c.sha.size() >= 7) {
    // A revert may name the commit abbreviated: any stored prefix of c.sha of 7 or more digits.
    for (auto it = reverted_sha_.lower_bound(c.sha.substr(0, 7));
         it != reverted_sha_.end() && it->first.starts_with(c.sha.substr(0, 7)); ++it) {
      if (c.sha.starts_with(it->first) && it->second != c.sha) return it->second;
    }
  }
  if (auto it = reverted_title_.find(c.title); it != reverted_title_.end() && it->second != c.sha) return it->second;
  return std::nullopt;
}

std::vector<std::string> EstimateContext::follow_up_fixes(const CommitInfo& c,
                                                          const std::vector<std::string>& paths) const {
  std::set<std::pair<int64_t, std::string>> found;
  for (const auto& p : paths) {
    auto it = fixes_by_path_.find(p);
    if (it == fixes_by_path_.end()) continue;
    for (const Later& l : it->second) {
      if (l.time <= c.time || l.sha == c.sha) continue;
      if (l.time > c.time + options_.follow_up_window_s) break;
      found.emplace(l.time, l.sha);
    }
  }
  std::vector<std::string> out;
  for (const auto& [time, sha] : found) out.push_back(sha);
  return out;
}

// The numbers, in order of precedence (improvement; confidence):
//   the commit is itself a revert                         0;  0.5
//   stated figures: median x 0.5 (x 0.3 for "up to"),     at most 1.0;  0.40, or 0.45 with intent/technique words
//   intent/technique words (P intent, T technique)        0.02 + 0.015 min(P,2) + 0.015 min(T,3), at most 0.08,
//                                                         halved next to fix words;  0.15 + 0.05 min(P+T,3)
//   technique words in a repair, no intent ("fix SVE build")  0.005;  0.25
//   fix-like or housekeeping words only                   0;  0.3
//   nothing recognised: a kernel change's small prior     0.01;  0.1
// Then the history: reverted later -> 0 with confidence 0.6; each follow-up fix of the same files within
// the window (at most 3 count) multiplies the improvement by 0.7 and the confidence by 0.85.
Effect estimate_effect(const MinedCommit& c, const EstimateContext& ctx) {
  const MessageSignals s = read_message_signals(c.text());
  const EstimateOptions& o = ctx.options();
  Effect e;
  e.measured = false;
  std::string why;
  const size_t intent = s.perf_words.size();
  const size_t technique = s.technique_words.size();
  auto words = [&] {
    std::string w;
    for (const auto* list : {&s.perf_words, &s.technique_words}) {
      for (const auto& x : *list) w += (w.empty() ? "" : ", ") + x;
    }
    return w;
  };
  if (s.is_revert) {
    e.improvement = 0;
    e.confidence = 0.5;
    why = "the commit is a revert";
  } else if (!s.claims.empty()) {
    const double factor = s.peak_claim ? o.peak_claim_discount : o.claim_discount;
    e.improvement = std::min(kMaxEstimate, median(s.claims) * factor);
    e.confidence = intent + technique > 0 ? 0.45 : 0.4;
    why = "message claims '" + s.claim_texts.front() + "'" +
          (s.claims.size() > 1 ? " (median of " + std::to_string(s.claims.size()) + " figures)" : "") + ", x" +
          fixed(factor, 1) + (s.peak_claim ? " for a peak figure" : " for a best case");
  } else if (intent > 0 || (technique > 0 && s.fix_words.empty())) {
    e.improvement = std::min(0.08, 0.02 + 0.015 * static_cast<double>(std::min<size_t>(intent, 2)) +
                                       0.015 * static_cast<double>(std::min<size_t>(technique, 3)));
    e.confidence = 0.15 + 0.05 * static_cast<double>(std::min<size_t>(intent + technique, 3));
    why = "message says " + words();
    if (!s.fix_words.empty()) {
      e.improvement /= 2;
      why += ", but also " + s.fix_words.front();
    }
  } else if (technique > 0) {
    e.improvement = 0.005;
    e.confidence = 0.25;
    why = "a repair (" + s.fix_words.front() + ") of " + words() + " code";
  } else if (!s.fix_words.empty() || !s.housekeeping_words.empty()) {
    e.improvement = 0;
    e.confidence = 0.3;
    why =
        "message says " + (s.fix_words.empty() ? s.housekeeping_words : s.fix_words).front() + ", nothing about speed";
  } else {
    e.improvement = 0.01;
    e.confidence = 0.1;
    why = "no signal in the message (a kernel change's small prior)";
  }

  std::vector<std::string> paths;
  for (const auto& f : c.kernel_files) paths.push_back(f.path);
  if (auto revert = ctx.reverted_by(c.info)) {
    e.improvement = 0;
    e.confidence = 0.6;
    why += "; reverted by " + short_sha(*revert);
  } else if (!s.is_revert) {
    const auto fixes = ctx.follow_up_fixes(c.info, paths);
    if (!fixes.empty()) {
      const int k = static_cast<int>(std::min<size_t>(fixes.size(), 3));
      e.improvement *= std::pow(0.7, k);
      e.confidence *= std::pow(0.85, k);
      why += "; " + std::to_string(fixes.size()) + " follow-up fix" + (fixes.size() > 1 ? "es" : "") +
             " of its files within " + std::to_string(o.follow_up_window_s / 86400) + " days (" +
             short_sha(fixes.front()) + (fixes.size() > 1 ? " ..." : "") + ")";
    }
  }
  e.evidence = "estimate: " + why;
  return e;
}

}  // namespace eok::idea_pool
