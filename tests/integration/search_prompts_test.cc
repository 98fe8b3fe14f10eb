// What the model is told, asserted by what it can then do: a scripted model finds the fast kernel only
// when the prompt carries the specification, the inputs, the roofline and the tolerance share; failures
// and repeats reach the next prompt of the lineage; a task at its bound is not searched further; ideas
// that work are drawn more.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <map>

#include "src/common/fs_util.h"
#include "src/search/search_run.h"
#include "support/board_fixture.h"
#include "support/fake_openai_server.h"
#include "support/scripted_search.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

std::string prompt_of(const RecordedRequest& r) {
  const nlohmann::json body = r.json();
  std::string all;
  for (const auto& m : body["messages"]) all += m.value("content", "") + "\n";
  return all;
}

std::string user_of(const RecordedRequest& r) {
  const nlohmann::json body = r.json();
  return body["messages"].back().value("content", "");
}

FakeReply kernel(const std::string& idea, const std::string& body, uint64_t seed) {
  return FakeReply::completion("Idea: " + idea + "\n```c\n#include <stddef.h>\n/* " + body + " */ static int v_" +
                               std::to_string(seed) +
                               ";\nvoid relu_f32(float *x, size_t n) { (void)x; (void)n; }\n```\n");
}

uint64_t seed_of(const RecordedRequest& r) {
  return r.json().value("seed", uint64_t{0});
}

class SearchPrompts : public ::testing::Test {
 protected:
  void SetUp() override { home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-prompts-"); }
  search::SearchRequest request(const std::string& method = "eoh") {
    search::SearchRequest r = small_search_request(home_->path(), server_.base_url(), method);
    r.config.set("search.iterations", "1");
    r.config.set("search.parallel", "1");
    r.config.set("search.population", "2");
    r.config.set("search.generations", "2");
    r.config.set("search.seed", "11");
    r.judge = &judge_;
    return r;
  }
  std::vector<RecordedRequest> chat_requests() { return server_.chat_requests(); }

  FakeOpenAiServer server_;
  ScriptedJudge judge_;
  std::unique_ptr<TempDir> home_;
};

TEST_F(SearchPrompts, TheFastKernelIsFoundOnlyByAModelShownTheSpecificationInputsRooflineAndTolerance) {
  judge_.roofline_cycles = 250;
  judge_.tolerance_used = 0.25;
  server_.set_responder([](const RecordedRequest& r) {
    const std::string p = prompt_of(r);
    const bool informed = p.find("x[i] = x[i] > 0.0f ? x[i] : 0.0f;") != std::string::npos &&  // ref.c
                          p.find("values uniform in [") != std::string::npos &&                // inputs
                          p.find("NaN") != std::string::npos &&                                // special values
                          p.find("no kernel can take fewer than about 250 cycles") != std::string::npos &&
                          p.find("used 25% of the tolerance") != std::string::npos;
    return informed ? kernel("the informed one", "CYCLES=500", seed_of(r))
                    : kernel("a guess", "CYCLES=1100", seed_of(r));
  });
  const search::SearchOutcome out = search::run_search(request());
  EXPECT_EQ(out.state, db::RunState::finished);
  ASSERT_FALSE(chat_requests().empty());
  EXPECT_DOUBLE_EQ(out.best_speedup, 2.0) << "no prompt carried every field the model needed:\n"
                                          << prompt_of(chat_requests().back());
}

TEST_F(SearchPrompts, AFailedChildsIdeaAndChangeAndARepeatReachTheNextPromptFromItsParent) {
  std::atomic<int> n{0};
  server_.set_responder([&](const RecordedRequest& r) {
    const int i = n++;
    if (i == 0) return kernel("unroll by two and drop the tail loop", "WRONG tail", seed_of(r));
    return kernel("the same kernel again", "CYCLES=900 always the same", 0);
  });
  search::SearchRequest req = request();
  req.config.set("search.generations", "3");
  search::run_search(req);
  const auto reqs = chat_requests();
  ASSERT_GE(reqs.size(), 3u);
  bool failure_shown = false, repeat_shown = false;
  for (const auto& r : reqs) {
    const std::string u = user_of(r);
    if (u.find("Its idea: unroll by two and drop the tail loop") != std::string::npos) {
      failure_shown = true;
      EXPECT_NE(u.find("Its status was wrong_answer"), std::string::npos) << u;
      EXPECT_NE(u.find("Its code:"), std::string::npos) << "a rewrite is shown as its code:\n" << u;
      EXPECT_NE(u.find("    /* WRONG tail */"), std::string::npos) << "the code of the failed child:\n" << u;
    }
    if (u.find("was a repeat of kernel #") != std::string::npos) {
      repeat_shown = true;
      EXPECT_NE(u.find("its idea: the same kernel again"), std::string::npos) << u;
    }
  }
  EXPECT_TRUE(failure_shown) << "no prompt told the model what its failed attempt had tried";
  EXPECT_TRUE(repeat_shown) << "no prompt told the model it had repeated a kernel";
}

TEST_F(SearchPrompts, ATaskAtItsRooflineSaysSoAndIsNotSearchedFurther) {
  judge_.roofline_cycles = 950;  // ker0's 1000 cycles are within 10% of it
  server_.set_responder([](const RecordedRequest& r) { return kernel("a variant", "CYCLES=990", seed_of(r)); });
  search::SearchRequest req = request();
  const search::SearchOutcome out = search::run_search(req);
  EXPECT_EQ(out.state, db::RunState::finished);
  const auto reqs = chat_requests();
  EXPECT_EQ(reqs.size(), 2u) << "only the initial population: the generations were skipped";
  for (const auto& r : reqs) EXPECT_NE(user_of(r).find("it is at its bound"), std::string::npos) << user_of(r);
}

TEST_F(SearchPrompts, AnIdeaThatAlwaysWorksGainsEffectivenessAndIsDrawnMore) {
  TempDir pool_dir(fs::temp_directory_path(), "eok-two-ideas-");
  const fs::path pool = pool_dir.path() / "two_ideas.json";
  write_file_atomic(pool, R"({"schema": "eok-idea-pool/1", "source": {"distiller": "test"}, "ideas": [
    {"id": "I1", "principle": "Widen the vector work.", "effectiveness": 0, "thoughts": [
      {"id": "I1.T1", "description": "GOOD-THOUGHT: process four registers per instruction.", "effectiveness": 0,
       "estimated": false, "commits": [], "examples": []}]},
    {"id": "I2", "principle": "Reorder the scalar tail.", "effectiveness": 0, "thoughts": [
      {"id": "I2.T1", "description": "BAD-THOUGHT: peel the tail into scalar code.", "effectiveness": 0,
       "estimated": false, "commits": [], "examples": []}]}]})");
  std::atomic<int> improved{0};
  server_.set_responder([&](const RecordedRequest& r) {
    const std::string u = user_of(r);
    if (u.find("GOOD-THOUGHT") == std::string::npos) return kernel("scalar tail", "WRONG", seed_of(r));
    // Each answer 20% faster than the last: the idea improves on whatever parent it is given.
    const double cycles = 1000 * std::pow(0.8, ++improved);
    return kernel("four registers", "CYCLES=" + std::to_string(cycles), seed_of(r));
  });
  struct Draws {
    int good = 0, bad = 0;
    double good_eff = 0, bad_eff = 0;
  };
  auto run = [&](const std::string& sampling) {
    const size_t before = chat_requests().size();
    home_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-prompts-");
    search::SearchRequest req = request("eok");
    req.config.set("search.pool", pool.string());
    req.config.set("search.idea_sampling", sampling);
    req.config.set("search.iterations", "10");
    req.config.set("search.population", "1");
    req.config.set("search.generations", "0");
    const search::SearchOutcome out = search::run_search(req);
    EXPECT_EQ(out.state, db::RunState::finished);
    Draws d;
    const auto reqs = chat_requests();
    for (size_t i = before; i < reqs.size(); ++i) {
      d.good += user_of(reqs[i]).find("GOOD-THOUGHT") != std::string::npos;
      d.bad += user_of(reqs[i]).find("BAD-THOUGHT") != std::string::npos;
    }
    auto db = db::KernelDb::open(req.workspace.database_path());
    for (const auto& u : db->idea_updates(out.run_id)) {
      if (u.idea_id == "I1") d.good_eff = u.after;
      if (u.idea_id == "I2") d.bad_eff = u.after;
    }
    return d;
  };
  const Draws uniform = run("uniform");
  const Draws learned = run("effectiveness");
  EXPECT_EQ(uniform.good + uniform.bad, 10);
  EXPECT_EQ(learned.good + learned.bad, 10);
  EXPECT_GE(uniform.bad, 3) << "the paper's uniform draw ignores what was learned";
  EXPECT_GE(learned.good, 8) << "the idea that always worked was drawn " << learned.good << " times of 10";
  EXPECT_GT(learned.good, uniform.good);
  EXPECT_GT(learned.good_eff, 0.2) << "effectiveness of the idea that always worked";
  EXPECT_LT(uniform.bad_eff, 0.0) << "a search whose every proposal failed counts against its idea";
}

}  // namespace
}  // namespace eok::testing
