#include "src/search/context_retriever.h"

#include <regex>
#include <set>

#include "src/common/error.h"
#include "src/common/log.h"

namespace eok::search {

namespace {

constexpr size_t kCharsPerToken = 4;
constexpr size_t kDocHits = 4;
constexpr size_t kCodeHits = 2;

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

}  // namespace

ContextRetriever::ContextRetriever(std::optional<rag::DocIndex> docs, std::optional<idea_pool::ExampleIndex> code,
                                   const idea_pool::IdeaPool* pool)
    : docs_(std::move(docs)), code_(std::move(code)), pool_(pool) {}

std::string ContextRetriever::query_text(const rag::RetrievalQuery& q) {
  std::string text = intent_of(q.strategy);
  for (const auto& d : q.descriptions) text += "\n" + d.substr(0, 400);
  // The intrinsics the parents use, once each: what the reference passages should explain.
  static const std::regex intrinsic(R"(__riscv_(v[a-z0-9]+)(_[a-z0-9]+)*)");
  std::set<std::string> names;
  for (const auto& code : q.code) {
    for (std::sregex_iterator it(code.begin(), code.end(), intrinsic), end; it != end && names.size() < 24; ++it) names.insert((*it)[1]);
  }
  if (!names.empty()) {
    text += "\n";
    for (const auto& n : names) text += n + " ";
  }
  return text;
}

std::vector<rag::Retrieved> ContextRetriever::retrieve(const rag::RetrievalQuery& query, size_t token_budget) {
  std::vector<rag::Retrieved> out;
  size_t budget = token_budget * kCharsPerToken;
  const std::string text = query_text(query);
  auto add = [&](std::string piece, std::string source) {
    if (piece.size() > budget) {
      if (budget < 200) return;
      piece = piece.substr(0, budget - 6) + "\n[...]";
    }
    budget -= piece.size();
    out.push_back({std::move(piece), std::move(source)});
  };
  try {
    if (code_) {
      for (const auto& h : code_->search(text, kCodeHits)) {
        const idea_pool::CodeExample* e = find_example(pool_, h.entry);
        if (!e) continue;
        add("Example change from the kernel library's history (" + h.entry.file + ", commit " + h.entry.commit.substr(0, 10) +
                "):\n" + e->code,
            "example " + h.entry.thought + " " + h.entry.commit.substr(0, 10) + " " + h.entry.file);
      }
    }
    if (docs_) {
      for (const auto& h : docs_->query(text, kDocHits)) {
        add("[" + h.chunk.source + (h.chunk.section.empty() ? "" : " > " + h.chunk.section) + "]\n" + h.chunk.text,
            h.chunk.source + ":" + std::to_string(h.chunk.line));
      }
    }
  } catch (const std::exception& e) {
    log::warn("retrieval failed, the prompt goes without context: {}", e.what());
  }
  return out;
}

std::string ContextRetriever::describe() const {
  std::string d;
  if (docs_) d += "documents (" + std::to_string(docs_->chunks().size()) + " chunks, " + docs_->index_kind() + " index)";
  if (code_) d += std::string(d.empty() ? "" : " and ") + "the idea pool's example code (" + std::to_string(code_->size()) + " examples)";
  return d.empty() ? "nothing to retrieve from" : "retrieval from " + d;
}

}  // namespace eok::search
