#include "idea_pool/distiller.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "src/common/error.h"
#include "src/llm/prompt_library.h"

namespace eok::idea_pool {

namespace {

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Cuts `s` to at most `max_chars` at a word boundary, marking the cut with "...".
std::string cap(const std::string& s, size_t max_chars) {
  if (s.size() <= max_chars) return s;
  size_t cut = s.rfind(' ', max_chars > 3 ? max_chars - 3 : 0);
  if (cut == std::string::npos || cut < max_chars / 2) cut = max_chars > 3 ? max_chars - 3 : max_chars;
  // Do not split a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return trim(s.substr(0, cut)) + "...";
}

std::string first_line(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = trim(std::string_view(text).substr(start, end - start));
    if (!line.empty()) return line;
    start = end + 1;
  }
  return "";
}

std::string join_terms(const std::vector<std::string>& terms) {
  std::string out;
  for (size_t i = 0; i < terms.size(); ++i) out += (i ? ", " : "") + terms[i];
  return out;
}

std::vector<std::string> texts_of(const std::vector<const MinedCommit*>& group) {
  std::vector<std::string> texts;
  texts.reserve(group.size());
  for (const MinedCommit* c : group) texts.push_back(c->text());
  return texts;
}

// The sentence of an extractive thought without its marker and trailing "(12 commits: a, b, c).":
// what the principle of a cluster of such thoughts should quote.
struct ExtractiveParts {
  std::string core, terms;
};
ExtractiveParts split_extractive(const std::string& sentence) {
  std::string s = sentence;
  if (s.starts_with(kExtractivePrefix)) s.erase(0, std::string(kExtractivePrefix).size());
  ExtractiveParts p;
  const size_t open = s.rfind(" (");
  if (open != std::string::npos && s.ends_with(").")) {
    std::string inside = s.substr(open + 2, s.size() - open - 4);
    if (const size_t colon = inside.find(": "); colon != std::string::npos && inside.find("commits") < colon)
      inside.erase(0, colon + 2);
    if (inside.find("commits") == std::string::npos && inside.find("thoughts") == std::string::npos) p.terms = inside;
    s.resize(open);
  }
  p.core = trim(s);
  while (!p.core.empty() && p.core.back() == '.') p.core.pop_back();
  return p;
}

std::string unit(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string effect_text(const Effect& e) {
  if (!e.measured && e.confidence <= 0 && e.improvement == 0) return "effect unknown";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s %+.1f %%", e.measured ? "measured" : "estimated", e.improvement * 100.0);
  return buf;
}

bool is_abbreviation(std::string_view before_dot) {
  size_t start = before_dot.size();
  while (start > 0 && (std::isalpha(static_cast<unsigned char>(before_dot[start - 1])) || before_dot[start - 1] == '.'))
    --start;
  std::string w(before_dot.substr(start));
  for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return w == "e.g" || w == "i.e" || w == "etc" || w == "vs" || w == "approx" || w == "cf" || w == "eg" || w == "ie";
}

// Removes a leading "Thought:" / "**Principle:**" style label.
std::string strip_label(std::string s) {
  static const char* labels[] = {
      "thought",      "principle",           "general principle",   "answer", "sentence", "optimization",
      "optimisation", "common optimization", "common optimisation", "idea",   "summary"};
  std::string probe = s;
  probe.erase(std::remove(probe.begin(), probe.end(), '*'), probe.end());
  const size_t colon = probe.find(':');
  if (colon > 30) return s;  // also when there is none (npos)
  std::string label = trim(probe.substr(0, colon));
  for (auto& c : label) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* l : labels) {
    if (label == l) return trim(probe.substr(colon + 1));
  }
  return s;
}

}  // namespace

std::string first_sentence(const std::string& reply, size_t max_chars) {
  size_t start = 0;
  while (start <= reply.size()) {
    size_t end = reply.find('\n', start);
    if (end == std::string::npos) end = reply.size();
    std::string line = trim(std::string_view(reply).substr(start, end - start));
    start = end + 1;
    if (line.starts_with("```")) continue;  // code fences, with or without a language
    // Bullets, quotes, emphasis.
    while (!line.empty() &&
           (line[0] == '-' || line[0] == '*' || line[0] == '>' || line[0] == '#' || line[0] == '"' || line[0] == '`')) {
      line = trim(line.substr(1));
    }
    if (line.size() > 2 && std::isdigit(static_cast<unsigned char>(line[0])) && (line[1] == '.' || line[1] == ')'))
      line = trim(line.substr(2));
    line = strip_label(line);
    // A preamble ("Here is the sentence:") introduces the answer on the next line.
    if (line.empty() || line.back() == ':') continue;
    if (std::none_of(line.begin(), line.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
      continue;
    // The first sentence: up to a '.', '!' or '?' followed by a space (not "e.g. ", not "vle32.v").
    for (size_t i = 0; i + 1 < line.size(); ++i) {
      if ((line[i] == '.' || line[i] == '!' || line[i] == '?') &&
          std::isspace(static_cast<unsigned char>(line[i + 1])) &&
          !(line[i] == '.' && is_abbreviation(std::string_view(line).substr(0, i)))) {
        line.resize(i + 1);
        break;
      }
    }
    while (!line.empty() && (line.back() == '"' || line.back() == '*' || line.back() == '`')) line.pop_back();
    line = trim(line);
    if (line.size() < 12) return "";  // "OK.", "None." are not thoughts
    return cap(line, max_chars);
  }
  return "";
}

// ---- ExtractiveDistiller -------------------------------------------------------------------------------

namespace {

std::vector<std::string> unigram_terms(const std::string& text) {
  std::vector<std::string> terms;
  for (auto& w : rag::code_words(text)) terms.push_back(std::move(w.term));
  return terms;
}

}  // namespace

ExtractiveDistiller::ExtractiveDistiller(const std::vector<std::string>& corpus, ExtractiveOptions options)
    : options_(options) {
  std::vector<std::vector<std::string>> docs;
  docs.reserve(corpus.size());
  for (const auto& t : corpus) docs.push_back(unigram_terms(t));
  tfidf_ = rag::TfidfModel::fit(docs, 1, static_cast<size_t>(-1));
}

std::vector<size_t> ExtractiveDistiller::representatives(const std::vector<std::string>& texts) const {
  std::vector<rag::SparseVector> vectors;
  std::unordered_map<uint32_t, double> centroid;
  for (const auto& t : texts) {
    vectors.push_back(tfidf_.transform(unigram_terms(t)));
    for (size_t i = 0; i < vectors.back().index.size(); ++i)
      centroid[vectors.back().index[i]] += vectors.back().value[i];
  }
  std::vector<std::pair<double, size_t>> scored;
  for (size_t d = 0; d < vectors.size(); ++d) {
    double s = 0;
    for (size_t i = 0; i < vectors[d].index.size(); ++i) s += vectors[d].value[i] * centroid[vectors[d].index[i]];
    scored.emplace_back(-s, d);  // the centroid's norm is the same for every text: no need to divide
  }
  std::sort(scored.begin(), scored.end());
  std::vector<size_t> order;
  for (auto& [s, d] : scored) order.push_back(d);
  return order;
}

std::vector<std::string> ExtractiveDistiller::distinctive_terms(const std::vector<std::string>& texts, size_t n) const {
  struct Stat {
    size_t docs = 0;
    std::map<std::string, size_t> surfaces;
  };
  std::map<std::string, Stat> stats;
  for (const auto& t : texts) {
    std::map<std::string, std::string> seen;  // term -> first surface in this text
    for (auto& w : rag::code_words(t)) seen.emplace(w.term, w.surface);
    for (auto& [term, surface] : seen) {
      Stat& s = stats[term];
      ++s.docs;
      ++s.surfaces[surface];
    }
  }
  std::vector<std::pair<double, std::string>> scored;
  for (auto& [term, s] : stats) {
    // Frequent in the group and rare in the corpus: group document frequency times corpus idf.
    const double score = static_cast<double>(s.docs) / static_cast<double>(texts.size()) * tfidf_.idf_of(term);
    scored.emplace_back(-score, term);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && out.size() < n; ++i) {
    const auto& surfaces = stats[scored[i].second].surfaces;
    // The group's most common spelling; ties: the shorter, then the alphabetically first.
    auto best = std::max_element(surfaces.begin(), surfaces.end(), [](const auto& a, const auto& b) {
      if (a.second != b.second) return a.second < b.second;
      if (a.first.size() != b.first.size()) return a.first.size() > b.first.size();
      return a.first > b.first;
    });
    if (std::find(out.begin(), out.end(), best->first) == out.end()) out.push_back(best->first);
  }
  return out;
}

std::string ExtractiveDistiller::thought(const std::vector<const MinedCommit*>& group) {
  if (group.empty()) throw Error("ExtractiveDistiller::thought: empty group of commits");
  const std::vector<std::string> texts = texts_of(group);
  const size_t rep = representatives(texts).front();
  std::string title = first_line(texts[rep]);
  while (!title.empty() && title.back() == '.') title.pop_back();
  if (title.empty()) title = "commit " + group[rep]->info.sha.substr(0, 10);
  title = cap(title, options_.max_title_chars);
  const std::string terms = join_terms(distinctive_terms(texts, options_.key_terms));
  std::string detail = group.size() > 1 ? unit(group.size(), "commit", "commits") : "";
  if (!terms.empty()) detail += (detail.empty() ? "" : ": ") + terms;
  return cap(kExtractivePrefix + title + (detail.empty() ? "." : " (" + detail + ")."), options_.max_chars);
}

std::string ExtractiveDistiller::principle(const std::vector<std::string>& thoughts) {
  if (thoughts.empty()) throw Error("ExtractiveDistiller::principle: empty group of thoughts");
  std::vector<std::string> cores, texts;
  for (const auto& t : thoughts) {
    ExtractiveParts p = split_extractive(t);
    cores.push_back(p.core);
    texts.push_back(p.core + "\n" + p.terms);
  }
  const size_t rep = representatives(texts).front();
  const std::string terms = join_terms(distinctive_terms(texts, options_.key_terms));
  std::string detail = thoughts.size() > 1 ? unit(thoughts.size(), "thought", "thoughts") : "";
  if (!terms.empty()) detail += (detail.empty() ? "" : ": ") + terms;
  const std::string core = cap(cores[rep], options_.max_title_chars);
  return cap(kExtractivePrefix + core + (thoughts.size() > 1 ? " and related changes" : "") +
                 (detail.empty() ? "." : " (" + detail + ")."),
             options_.max_chars);
}

// ---- LlmDistiller ----------------------------------------------------------------------------------------

LlmDistiller::LlmDistiller(llm::Llm& llm, const llm::PromptLibrary& prompts, ExtractiveDistiller& fallback,
                           LlmDistillerOptions options)
    : llm_(llm), prompts_(prompts), fallback_(fallback), options_(options) {}

const std::vector<std::string>& LlmDistiller::required_prompts() {
  static const std::vector<std::string> names = {"distill_thought", "distill_idea"};
  return names;
}

// `examples`: the commits of a group, or the thoughts of an idea.
const std::vector<std::string>& LlmDistiller::placeholders() {
  static const std::vector<std::string> names = {"examples"};
  return names;
}

std::string LlmDistiller::describe() const {
  return "llm (" + llm_.describe() + ")";
}

LlmDistiller::Counters LlmDistiller::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

std::string LlmDistiller::ask(const std::string& prompt, const std::string& purpose, const std::string& fallback) {
  llm::ChatRequest req;
  req.messages.push_back({"user", prompt});
  req.temperature = options_.temperature;
  req.max_tokens = options_.max_tokens;
  req.seed = options_.seed;
  req.purpose = purpose;
  const llm::ChatResponse resp = llm_.chat(req);
  std::string sentence = resp.ok ? first_sentence(resp.content, options_.max_reply_chars) : "";
  std::lock_guard lock(mutex_);
  ++counters_.calls;
  if (!sentence.empty()) {
    ++counters_.distilled;
    return sentence;
  }
  ++counters_.fallbacks;
  ++counters_.reasons[resp.ok ? "unusable reply" : llm::chat_error_name(resp.error)];
  return fallback;
}

std::string LlmDistiller::thought(const std::vector<const MinedCommit*>& group) {
  if (group.empty()) throw Error("LlmDistiller::thought: empty group of commits");
  const std::vector<std::string> texts = texts_of(group);
  const std::vector<size_t> order = fallback_.representatives(texts);
  std::string examples;
  const size_t shown = std::min(order.size(), std::max<size_t>(options_.max_commits, 1));
  for (size_t k = 0; k < shown; ++k) {
    const MinedCommit& c = *group[order[k]];
    examples += "Commit " + std::to_string(k + 1) + " (" + effect_text(c.effect) + "):\n" +
                cap(trim(texts[order[k]]), options_.max_message_chars) + "\n";
    if (k == 0 && options_.max_diff_chars > 0 && !c.diff.empty()) {
      examples += "Diff excerpt of commit 1:\n```diff\n" + cap(c.diff, options_.max_diff_chars) + "\n```\n";
    }
    examples += "\n";
  }
  if (group.size() > shown)
    examples += "... and " + unit(group.size() - shown, "more commit", "more commits") + " like these.\n";
  const std::string prompt = prompts_.render("distill_thought", {{"examples", examples}});
  return ask(prompt, "distill thought of " + unit(group.size(), "commit", "commits"), fallback_.thought(group));
}

std::string LlmDistiller::principle(const std::vector<std::string>& thoughts) {
  if (thoughts.empty()) throw Error("LlmDistiller::principle: empty group of thoughts");
  const std::vector<size_t> order = fallback_.representatives(thoughts);
  std::string examples;
  const size_t shown = std::min(order.size(), std::max<size_t>(options_.max_thoughts, 1));
  for (size_t k = 0; k < shown; ++k) examples += std::to_string(k + 1) + ". " + thoughts[order[k]] + "\n";
  if (thoughts.size() > shown)
    examples += "... and " + unit(thoughts.size() - shown, "more thought", "more thoughts") + ".\n";
  const std::string prompt = prompts_.render("distill_idea", {{"examples", examples}});
  return ask(prompt, "distill principle of " + unit(thoughts.size(), "thought", "thoughts"),
             fallback_.principle(thoughts));
}

}  // namespace eok::idea_pool
