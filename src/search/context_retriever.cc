#include "src/search/context_retriever.h"

#include <regex>
#include <set>

#include "idea_pool/example_code.h"
#include "src/common/error.h"
#include "src/common/log.h"

namespace eok::search {

namespace {

constexpr size_t kCharsPerToken = 4;
constexpr size_t kDocHits = 6;
constexpr size_t kCodeHits = 4;
constexpr size_t kMaxIntrinsicNames = 8;

// What each EoH operator is after, in words the reference documents use.
std::string intent_of(const std::string& op) {
  if (op == "E1") return "a different algorithm or vectorization strategy";
  if (op == "E2") return "combine the strengths of two kernels";
  if (op == "M1") return "make the vector loop faster: instruction selection, fewer instructions per element";
  if (op == "M2") return "tune LMUL, unrolling, register blocking, vl and vsetvli placement";
  if (op == "M3") return "simplify the loop, remove redundant vsetvli, loads and conversions";
  return "vectorize with RVV intrinsics";
}

const idea_pool::CodeExample* find_example(const idea_pool::IdeaPool* pool, const idea_pool::ExampleEntry& e) {
  if (!pool) return nullptr;
  for (const auto& idea : pool->ideas) {
    for (const auto& t : idea.thoughts) {
      if (t.id != e.thought) continue;
      for (const auto& x : t.examples) {
        if (x.commit == e.commit && x.file == e.file) return &x;
      }
    }
  }
  return nullptr;
}

struct Piece {
  std::string text, source;
};

// Adds whole pieces while they fit in `budget` characters (a piece that does not fit is skipped for a
// smaller one); only when none fits is the first cut at a line. Returns the characters used.
size_t fill(std::vector<Piece>& pieces, size_t budget, std::vector<rag::Retrieved>& out) {
  size_t used = 0;
  for (auto& p : pieces) {
    if (p.text.empty() || used + p.text.size() > budget) continue;
    used += p.text.size();
    out.push_back({std::move(p.text), std::move(p.source)});
    p.text.clear();
  }
  if (used == 0 && !pieces.empty() && budget >= 400) {
    for (auto& p : pieces) {
      if (p.text.empty()) continue;
      std::string cut = p.text.substr(0, budget - 6);
      cut = cut.substr(0, cut.rfind('\n') + 1) + "[...]\n";
      used = cut.size();
      out.push_back({std::move(cut), std::move(p.source)});
      p.text.clear();
      break;
    }
  }
  return used;
}

}  // namespace

ContextRetriever::ContextRetriever(std::optional<rag::DocIndex> docs, std::optional<idea_pool::ExampleIndex> code,
                                   const idea_pool::IdeaPool* pool)
    : docs_(std::move(docs)), code_(std::move(code)), pool_(pool) {}

std::string ContextRetriever::query_text(const rag::RetrievalQuery& q) {
  std::string text = intent_of(q.strategy);
  if (!q.thought.empty()) text += "\n" + q.thought.substr(0, 400);
  for (const auto& d : q.descriptions) text += "\n" + d.substr(0, 400);
  // A few of the intrinsics the parents use, once each: what the reference passages should explain,
  // without letting a long list of names outweigh the intent.
  static const std::regex intrinsic(R"(__riscv_(v[a-z0-9]+?)(_v[vxfwi]+)?_[a-z0-9_]+)");
  std::set<std::string> names;
  for (const auto& code : q.code) {
    for (std::sregex_iterator it(code.begin(), code.end(), intrinsic), end;
         it != end && names.size() < kMaxIntrinsicNames; ++it) {
      names.insert((*it)[1]);
    }
  }
  if (!names.empty()) {
    text += "\n";
    for (const auto& n : names) text += n + " ";
  }
  return text;
}

std::vector<rag::Retrieved> ContextRetriever::retrieve(const rag::RetrievalQuery& query, size_t token_budget) {
  std::vector<rag::Retrieved> out;
  const size_t budget = token_budget * kCharsPerToken;
  const std::string text = query_text(query);
  try {
    std::vector<Piece> code;
    for (const auto& e : query.thought_examples) code.push_back({e, "example of the search's thought"});
    if (code_) {
      std::vector<std::pair<int, Piece>> hits;
      for (const auto& h : code_->search(text, kCodeHits)) {
        const idea_pool::CodeExample* e = find_example(pool_, h.entry);
        if (!e) continue;
        const std::string cleaned = idea_pool::clean_example_code(e->code, budget / 3);
        if (cleaned.empty()) continue;
        hits.push_back({idea_pool::example_relevance(*e),
                        {"Example change from the kernel library's history (" + h.entry.file + ", commit " +
                             h.entry.commit.substr(0, 10) + "):\n" + cleaned,
                         "example " + h.entry.thought + " " + h.entry.commit.substr(0, 10) + " " + h.entry.file}});
      }
      std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      for (auto& [score, piece] : hits) code.push_back(std::move(piece));
    }
    std::vector<Piece> docs;
    if (docs_) {
      for (const auto& h : docs_->query(text, kDocHits)) {
        docs.push_back({"[" + h.chunk.source + (h.chunk.section.empty() ? "" : " > " + h.chunk.section) + "]\n" +
                            h.chunk.text + "\n",
                        h.chunk.source + ":" + std::to_string(h.chunk.line)});
      }
    }
    // Reserved shares, so that neither source crowds out the other; what one leaves goes to the other.
    const size_t code_share = docs.empty() ? budget : (code.empty() ? 0 : budget * kCodeSharePercent / 100);
    size_t used = fill(code, code_share, out);
    used += fill(docs, budget - used, out);
    if (used < budget) fill(code, budget - used, out);
  } catch (const std::exception& e) {
    log::warn("retrieval failed, the prompt goes without context: {}", e.what());
  }
  return out;
}

std::string ContextRetriever::describe() const {
  std::string d;
  if (docs_)
    d += "documents (" + std::to_string(docs_->chunks().size()) + " chunks, " + docs_->index_kind() + " index)";
  if (code_)
    d += std::string(d.empty() ? "" : " and ") + "the idea pool's example code (" + std::to_string(code_->size()) +
         " examples)";
  return d.empty() ? "nothing to retrieve from" : "retrieval from " + d;
}

}  // namespace eok::search
