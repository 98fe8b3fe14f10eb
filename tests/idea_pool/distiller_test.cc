#include "idea_pool/distiller.h"

#include <gtest/gtest.h>

#include <deque>
#include <mutex>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/llm/prompt_library.h"

namespace eok::idea_pool {
namespace {

namespace fs = std::filesystem;

MinedCommit commit(const std::string& sha, const std::string& message, double improvement = 0, bool measured = false) {
  MinedCommit c;
  c.info.sha = sha;
  c.info.message = message;
  c.info.title = message.substr(0, message.find('\n'));
  c.effect.improvement = improvement;
  c.effect.measured = measured;
  c.effect.confidence = measured ? 0.9 : 0.3;
  c.diff = "diff --git a/kernel/riscv64/x.c b/kernel/riscv64/x.c\n@@ -1 +1 @@\n-old\n+new\n";
  return c;
}

// A kernel library's history in miniature: a prefetch theme among unrelated commits.
struct DistillerCorpus {
  std::vector<MinedCommit> commits = {
      commit("p1", "Add software prefetch to the dgemv kernel\n\nPrefetch rows of A two cache lines ahead.", 0.04,
             true),
      commit("p2", "Prefetch the B panel in the sgemm micro-kernel", 0.02),
      commit("p3", "Tune the prefetch distance in ddot"),
      commit("p4", "Prefetch x and y in daxpy to hide memory latency", 0.03),
      commit("n1", "Handle NaN and Inf in sscal when alpha is zero"),
      commit("n2", "dscal: propagate NaN when alpha is 0"),
      commit("u1", "Unroll the sdot loop by four with independent accumulators"),
      commit("u2", "dnrm2: unroll by eight and keep partial sums"),
      commit("b1", "Update the CMake build for the RISC-V targets"),
      commit("b2", "Fix the Makefile for the C910V target"),
      commit("b3", "Update the kernel documentation"),
  };
  std::vector<std::string> texts() const {
    std::vector<std::string> t;
    for (const auto& c : commits) t.push_back(c.text());
    return t;
  }
  std::vector<const MinedCommit*> group(size_t from, size_t to) const {
    std::vector<const MinedCommit*> g;
    for (size_t i = from; i < to; ++i) g.push_back(&commits[i]);
    return g;
  }
};

// An Llm that answers from a script and records what it was asked.
class FakeLlm : public llm::Llm {
 public:
  void answer(const std::string& content) {
    llm::ChatResponse r;
    r.ok = true;
    r.content = content;
    r.finish_reason = "stop";
    script_.push_back(r);
  }
  void fail(llm::ChatError error) {
    llm::ChatResponse r;
    r.ok = false;
    r.error = error;
    r.message = "scripted failure";
    script_.push_back(r);
  }
  llm::ChatResponse chat(const llm::ChatRequest& req) override {
    std::lock_guard lock(mutex_);
    requests.push_back(req);
    if (script_.empty()) {
      llm::ChatResponse r;
      r.error = llm::ChatError::network;
      return r;
    }
    llm::ChatResponse r = script_.front();
    script_.pop_front();
    return r;
  }
  std::string describe() const override { return "fake LLM"; }

  std::vector<llm::ChatRequest> requests;

 private:
  std::mutex mutex_;
  std::deque<llm::ChatResponse> script_;
};

// The shipped distill prompts, alone in a folder (the search's prompts need other placeholders).
class DistillPrompts {
 public:
  DistillPrompts() : dir_(fs::temp_directory_path(), "eok-distill-prompts-") {
    for (const auto& name : LlmDistiller::required_prompts()) {
      const fs::path file = fs::path(EOK_SOURCE_DIR) / "prompts" / (name + ".txt");
      write_file_atomic(dir_.path() / (name + ".txt"), read_file(file));
    }
    library_ = std::make_unique<llm::PromptLibrary>(dir_.path(), LlmDistiller::required_prompts(),
                                                    LlmDistiller::placeholders());
  }
  const llm::PromptLibrary& library() const { return *library_; }

 private:
  TempDir dir_;
  std::unique_ptr<llm::PromptLibrary> library_;
};

TEST(ExtractiveDistiller, QuotesTheRepresentativeCommitAndNamesDistinctiveTerms) {
  DistillerCorpus c;
  ExtractiveDistiller d(c.texts());
  const std::string t = d.thought(c.group(0, 4));
  EXPECT_EQ(t.rfind(kExtractivePrefix, 0), 0u) << t;
  EXPECT_NE(t.find("software prefetch"), std::string::npos) << t;
  EXPECT_NE(t.find("4 commits: prefetch"), std::string::npos) << t;  // the most distinctive term first
  EXPECT_EQ(t.back(), '.');
  EXPECT_EQ(d.thought(c.group(0, 4)), t);  // deterministic
  const auto terms = d.distinctive_terms({c.commits[4].text(), c.commits[5].text()}, 2);
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_TRUE(terms[0] == "nan" || terms[1] == "nan") << terms[0] << ", " << terms[1];
}

TEST(ExtractiveDistiller, RepresentativesAreClosestToTheGroupsCentre) {
  DistillerCorpus c;
  ExtractiveDistiller d(c.texts());
  const auto order = d.representatives({"prefetch data", "prefetch data ahead", "prefetch", "update cmake"});
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order.back(), 3u);  // the stranger comes last
  EXPECT_NE(order.front(), 3u);
}

TEST(ExtractiveDistiller, StatesAPrincipleForThoughts) {
  DistillerCorpus c;
  ExtractiveDistiller d(c.texts());
  const std::string a = d.thought(c.group(0, 4)), b = d.thought(c.group(6, 8));
  const std::string p = d.principle({a, b});
  EXPECT_EQ(p.rfind(kExtractivePrefix, 0), 0u);
  EXPECT_NE(p.find("2 thoughts"), std::string::npos) << p;
  EXPECT_EQ(p.find("commits"), std::string::npos) << p;  // the thoughts' bookkeeping is not a theme
  EXPECT_THROW(d.principle({}), Error);
  EXPECT_THROW(d.thought({}), Error);
}

TEST(FirstSentence, ParsesRepliesDefensively) {
  EXPECT_EQ(first_sentence("Prefetch the next rows two cache lines ahead. Then tune it.", 300),
            "Prefetch the next rows two cache lines ahead.");
  EXPECT_EQ(first_sentence("Here is the thought:\n\n**Thought:** Use vle32.v loads, e.g. for x. More.", 300),
            "Use vle32.v loads, e.g. for x.");
  EXPECT_EQ(first_sentence("```text\n- \"Keep partial sums in registers and reduce once\"\n```", 300),
            "Keep partial sums in registers and reduce once");
  EXPECT_EQ(first_sentence("1. Unroll by two strips so that loads overlap arithmetic", 300),
            "Unroll by two strips so that loads overlap arithmetic");
  EXPECT_EQ(first_sentence("", 300), "");
  EXPECT_EQ(first_sentence("OK.", 300), "");
  EXPECT_EQ(first_sentence("```\n```", 300), "");
  const std::string capped = first_sentence(std::string(50, 'a') + " " + std::string(50, 'b') + " tail words here", 60);
  EXPECT_LE(capped.size(), 60u);
  EXPECT_TRUE(capped.ends_with("...")) << capped;
}

TEST(LlmDistiller, UsesTheReplysSentenceAndShowsTheCommits) {
  DistillerCorpus c;
  ExtractiveDistiller fallback(c.texts());
  DistillPrompts prompts;
  FakeLlm llm;
  llm.answer("Thought: Prefetch the streamed operands a few cache lines ahead of their loads. It hides latency.");
  llm.answer("General principle: hide memory latency behind computation.");
  LlmDistiller d(llm, prompts.library(), fallback, {.seed = 5});
  EXPECT_EQ(d.thought(c.group(0, 4)), "Prefetch the streamed operands a few cache lines ahead of their loads.");
  EXPECT_EQ(d.principle({"Prefetch ahead.", "Unroll the loop."}), "hide memory latency behind computation.");
  ASSERT_EQ(llm.requests.size(), 2u);
  const std::string& prompt = llm.requests[0].messages.at(0).content;
  EXPECT_NE(prompt.find("Add software prefetch to the dgemv kernel"), std::string::npos);
  EXPECT_NE(prompt.find("measured +4.0 %"), std::string::npos) << prompt;
  EXPECT_NE(prompt.find("diff --git"), std::string::npos);
  EXPECT_EQ(prompt.find("{{"), std::string::npos);
  EXPECT_EQ(llm.requests[0].seed, 5u);
  EXPECT_NE(llm.requests[1].messages.at(0).content.find("Unroll the loop."), std::string::npos);
  const auto n = d.counters();
  EXPECT_EQ(n.calls, 2u);
  EXPECT_EQ(n.distilled, 2u);
  EXPECT_EQ(n.fallbacks, 0u);
  EXPECT_EQ(d.describe(), "llm (fake LLM)");
}

TEST(LlmDistiller, FailuresFallBackToTheExtractiveSentenceAndAreCounted) {
  DistillerCorpus c;
  ExtractiveDistiller fallback(c.texts());
  DistillPrompts prompts;
  FakeLlm llm;
  llm.fail(llm::ChatError::timeout);
  llm.answer("```\n```");
  llm.fail(llm::ChatError::budget);
  LlmDistiller d(llm, prompts.library(), fallback);
  EXPECT_EQ(d.thought(c.group(0, 4)), fallback.thought(c.group(0, 4)));
  EXPECT_EQ(d.thought(c.group(6, 8)), fallback.thought(c.group(6, 8)));
  const std::vector<std::string> thoughts = {"Prefetch ahead of use.", "Unroll with independent accumulators."};
  EXPECT_EQ(d.principle(thoughts), fallback.principle(thoughts));
  const auto n = d.counters();
  EXPECT_EQ(n.calls, 3u);
  EXPECT_EQ(n.distilled, 0u);
  EXPECT_EQ(n.fallbacks, 3u);
  EXPECT_EQ(n.reasons.at("timeout"), 1u);
  EXPECT_EQ(n.reasons.at("unusable reply"), 1u);
  EXPECT_EQ(n.reasons.at("budget"), 1u);
}

TEST(LlmDistiller, LargeGroupsShowTheirMostRepresentativeCommitsOnly) {
  DistillerCorpus c;
  ExtractiveDistiller fallback(c.texts());
  DistillPrompts prompts;
  FakeLlm llm;
  llm.answer("Prefetch the data that the next iterations load.");
  LlmDistiller d(llm, prompts.library(), fallback, {.max_commits = 2});
  d.thought(c.group(0, 4));
  const std::string& prompt = llm.requests.at(0).messages.at(0).content;
  EXPECT_NE(prompt.find("Commit 2"), std::string::npos);
  EXPECT_EQ(prompt.find("Commit 3"), std::string::npos);
  EXPECT_NE(prompt.find("and 2 more commits"), std::string::npos);
}

}  // namespace
}  // namespace eok::idea_pool
