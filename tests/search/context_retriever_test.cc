// What retrieval puts into a prompt: documents and example code both get room, the search's own thought
// examples come first, whole passages are preferred to cut ones, the budget holds.
#include <gtest/gtest.h>

#include "rag/doc_index.h"
#include "src/common/fs_util.h"
#include "src/search/context_retriever.h"

namespace eok::search {
namespace {

namespace fs = std::filesystem;

struct Docs {
  TempDir dir{fs::temp_directory_path(), "eok-ctx-"};
  fs::path docs = dir.path() / "notes", index = dir.path() / "index";
  Docs() {
    fs::create_directories(docs);
    for (int i = 0; i < 6; ++i) {
      std::string text = "= LMUL note " + std::to_string(i) + "\n\n== Register groups\n\n";
      for (int k = 0; k < 12; ++k)
        text += "LMUL=4 groups four vector registers; vsetvli sets vl and vtype for the strip. ";
      write_file_atomic(docs / ("lmul" + std::to_string(i) + ".adoc"), text + "\n");
    }
    rag::DocIndex::build({docs}, index);
  }
};

rag::RetrievalQuery query_with_examples(size_t n, size_t chars) {
  rag::RetrievalQuery q;
  q.strategy = "M2";
  q.thought = "Raise LMUL so that each vector instruction covers more elements";
  q.descriptions = {"strip-mined loop at LMUL 1"};
  q.code = {"vl = __riscv_vsetvl_e32m1(n); v = __riscv_vle32_v_f32m1(x, vl);"};
  for (size_t i = 0; i < n; ++i)
    q.thought_examples.push_back("example " + std::to_string(i) + "\n" + std::string(chars, 'c') + "\n");
  return q;
}

size_t chars_from(const std::vector<rag::Retrieved>& got, bool documents) {
  size_t n = 0;
  for (const auto& r : got) {
    if ((r.text.front() == '[') == documents) n += r.text.size();
  }
  return n;
}

TEST(ContextRetriever, ExampleCodeCannotCrowdOutTheDocuments) {
  Docs d;
  ContextRetriever r(rag::DocIndex::load(d.index), std::nullopt, nullptr);
  const size_t budget_tokens = 1500, budget = budget_tokens * 4;
  const auto got = r.retrieve(query_with_examples(10, 900), budget_tokens);
  size_t total = 0;
  for (const auto& x : got) total += x.text.size();
  EXPECT_LE(total, budget);
  EXPECT_LE(chars_from(got, false), budget * ContextRetriever::kCodeSharePercent / 100);
  EXPECT_GT(chars_from(got, true), budget / 3) << "documents got too little room";
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.front().text.rfind("example 0", 0), 0u) << "the search's own thought example comes first";
  for (const auto& x : got) EXPECT_EQ(x.text.find("[...]"), std::string::npos) << "whole passages fit; none is cut";
}

TEST(ContextRetriever, WithoutDocumentsTheExamplesTakeTheWholeBudget) {
  ContextRetriever r(std::nullopt, std::nullopt, nullptr);
  const auto got = r.retrieve(query_with_examples(10, 900), 1500);
  EXPECT_GT(chars_from(got, false), 1500u * 4 * 3 / 4);
  EXPECT_LE(chars_from(got, false), 1500u * 4);
}

TEST(ContextRetriever, TheQueryLeadsWithTheIntentAndTheThoughtNotWithIntrinsicNames) {
  rag::RetrievalQuery q = query_with_examples(0, 0);
  std::string many;
  for (int i = 0; i < 40; ++i) many += "__riscv_vop" + std::to_string(i) + "_vv_f32m1(a, b, vl); ";
  q.code = {many};
  const std::string text = ContextRetriever::query_text(q);
  EXPECT_NE(text.find("Raise LMUL"), std::string::npos);
  size_t names = 0;
  for (size_t at = text.find("vop"); at != std::string::npos; at = text.find("vop", at + 1)) ++names;
  EXPECT_LE(names, 8u) << text;
}

}  // namespace
}  // namespace eok::search
