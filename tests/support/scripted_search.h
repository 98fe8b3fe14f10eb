// Test support for the search without a board or an LLM: a KernelJudge whose verdicts the test scripts
// (infrastructure failures on demand), a Generator that answers every proposal from a function, and a
// fixture that puts them together for one EoH search.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "evaluator/task.h"
#include "src/common/fs_util.h"
#include "src/common/hash.h"
#include "src/db/kernel_db.h"
#include "src/search/evaluation_service.h"
#include "src/search/search_context.h"
#include "src/search/search_run.h"
#include "support/board_fixture.h"
#include "src/search/generator.h"
#include "src/search/kernel_judge.h"

namespace eok::testing {

// Judges by the source's text: "INFRA" ends in infra_error, "WRONG" in wrong_answer, anything else is
// correct with the cycles of "CYCLES=<n>" (1000 without one; ker0 is expected to have none). `verdict`,
// when set, overrides this for every source. Counts the judgements of each source and their seeds.
class ScriptedJudge final : public search::KernelJudge {
 public:
  static constexpr double kBaselineCycles = 1000;

  std::function<evaluator::EvalStatus(const std::string& source)> verdict;
  double roofline_cycles = 0;  // > 0: every result carries this roofline
  double tolerance_used = -1;  // >= 0: every correct result used this share of the tolerance
  double board_noise = -1;     // >= 0: every correct result was timed on a board, with this MAD in cycles
  // What identity() hashes: the whole text unless set (a test's normalisation, e.g. comments dropped).
  std::function<std::string(const std::string& source)> identity_of;
  std::string setup_name = "scripted-judge";  // setup(): evaluations are reused only within one setup

  evaluator::EvalResult judge(const evaluator::Task& task, const std::string& source, uint64_t seed) override {
    evaluator::EvalStatus status = evaluator::EvalStatus::ok;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++calls_[source];
      seeds_[source].push_back(seed);
      if (verdict)
        status = verdict(source);
      else if (source.find("INFRA") != std::string::npos)
        status = evaluator::EvalStatus::infra_error;
      else if (source.find("WRONG") != std::string::npos)
        status = evaluator::EvalStatus::wrong_answer;
    }
    evaluator::EvalResult r;
    r.task = task.id;
    r.seed = seed;
    r.status = status;
    if (status == evaluator::EvalStatus::infra_error) {
      r.message = "the reference of " + task.id + " failed (scripted)";
    } else if (status == evaluator::EvalStatus::wrong_answer) {
      r.message = "output differs from the reference";
      r.mismatches.push_back({0, "n=33", "x", 3, "1.0", "2.0", "x[3] = 1.0"});
    } else if (status == evaluator::EvalStatus::ok) {
      double cycles = kBaselineCycles;
      if (auto at = source.find("CYCLES="); at != std::string::npos) cycles = std::stod(source.substr(at + 7));
      r.message = "correct";
      r.cycles = cycles;
      r.baseline_cycles = kBaselineCycles;
      r.speedup = kBaselineCycles / cycles;
      if (tolerance_used >= 0) r.tolerance_used = tolerance_used;
      if (board_noise >= 0) {
        r.measurement.emplace();
        r.measurement->median_cycles = cycles;
        r.measurement->mad_cycles = board_noise;
        r.modeled_cycles = cycles;  // as the board's evaluator: the virtual twin's figure stays beside it
      }
    }
    if (roofline_cycles > 0) r.roofline_cycles = roofline_cycles;
    return r;
  }

  const std::string& setup() const override { return setup_name; }
  std::string identity(const evaluator::Task& task, const std::string& source) override {
    return content_hash(task.id + "\n" + (identity_of ? identity_of(source) : source));
  }

  int calls(const std::string& source) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = calls_.find(source);
    return it == calls_.end() ? 0 : it->second;
  }
  // The seeds `source` was judged with, in the order of the judgements.
  std::vector<uint64_t> seeds(const std::string& source) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = seeds_.find(source);
    return it == seeds_.end() ? std::vector<uint64_t>{} : it->second;
  }
  int total_calls() const {
    std::lock_guard<std::mutex> lock(mutex_);
    int n = 0;
    for (const auto& [s, c] : calls_) n += c;
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, int> calls_;
  std::map<std::string, std::vector<uint64_t>> seeds_;
};

// Answers every proposal with source_for(request) and records the requests it was given.
class ScriptedGenerator final : public search::Generator {
 public:
  explicit ScriptedGenerator(std::function<std::string(const search::ProposalRequest&)> source_for)
      : source_for_(std::move(source_for)) {}

  // The source "UNANSWERED" stands for a request the model never answered (transport), "UNUSABLE" for an
  // answer with no kernel in it, "BUDGET" for a request the spent budget refused (it stops the run).
  search::GeneratedKernel propose(const search::ProposalRequest& req) override {
    search::GeneratedKernel g;
    g.source = source_for_(req);
    g.called = g.call_ok = g.source != "UNANSWERED" && g.source != "BUDGET";
    g.ok = g.called && g.source != "UNUSABLE";
    g.stop_run = g.source == "BUDGET";
    if (!g.ok)
      g.reason = g.called ? "no code block" : g.stop_run ? "the LLM budget is spent" : "the LLM did not answer";
    g.idea = "scripted " + req.op;
    std::lock_guard<std::mutex> lock(mutex_);
    requests_.push_back(req);
    return g;
  }
  void attach(int64_t, int64_t) override {}

  std::vector<search::ProposalRequest> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

 private:
  std::function<std::string(const search::ProposalRequest&)> source_for_;
  mutable std::mutex mutex_;
  std::vector<search::ProposalRequest> requests_;
};

// A search over the real relu_f32 task with a scripted judge and generator: a fresh database with run
// "r1", an evaluation service, a context for one EoH search, a two-thought idea pool.
class ScriptedSearchTest : public ::testing::Test {
 protected:
  ScriptedSearchTest()
      : dir_(std::filesystem::temp_directory_path(), "eok-scripted-search-"),
        db_(db::KernelDb::open(dir_.path() / "kernels.db")),
        task_(evaluator::load_task(source_root() / "kernels" / "relu_f32")) {
    add_run("r1");
  }

  // Records run `id` of relu_f32 on k1 in `db` (the fixture's own by default).
  void add_run(const std::string& id, db::KernelDb* db = nullptr) {
    db::RunRecord r;
    r.id = id;
    r.task = task_.id;
    r.board = "k1";
    r.state = db::RunState::running;
    r.method = db::SearchMethod::eok;
    r.config_json = "{}";
    r.seed = 7;
    (db ? *db : *db_).create_run(r);
  }

  std::unique_ptr<search::EvaluationService> service(ScriptedJudge& judge, const std::string& run = "r1",
                                                     int concurrency = 4) {
    return std::make_unique<search::EvaluationService>(judge, *db_, task_, "k1", run, 7, concurrency);
  }

  db::KernelRecord candidate(const std::string& source, const search::ScoredKernel& parent) {
    db::KernelRecord k;
    k.source = source;
    k.description = "a candidate";
    k.op = "M1";
    k.parents = {parent.kernel.id};
    k.iteration = 0;
    k.search = 0;
    k.generation = 1;
    return k;
  }

  // A context for one search over `evals`, with `gen` (null for the tuner).
  struct Ctx {
    std::atomic<bool> stop{false};
    search::Progress progress{100, false};
    std::unique_ptr<search::SearchContext> ctx;
  };
  std::unique_ptr<Ctx> context(search::EvaluationService& evals, search::Generator* gen,
                               const idea_pool::IdeaPool* pool) {
    auto c = std::make_unique<Ctx>();
    c->ctx.reset(new search::SearchContext{task_, settings_, evals, gen, c->progress, pool, c->stop, {}, {}});
    return c;
  }

  static idea_pool::IdeaPool pool() {
    idea_pool::IdeaPool p;
    idea_pool::Idea idea;
    idea.id = "I1";
    idea.principle = "keep the vector unit busy";
    for (const char* id : {"I1.T1", "I1.T2"}) {
      idea_pool::Thought t;
      t.id = id;
      t.description = std::string("thought ") + id;
      t.effectiveness = 0.1;
      idea.thoughts.push_back(t);
    }
    p.ideas.push_back(idea);
    return p;
  }

  TempDir dir_;
  std::unique_ptr<db::KernelDb> db_;
  evaluator::Task task_;
  search::SearchSettings settings_;
};

// A small seeded relu_f32 search (2 iterations of 2 searches, population 3, one generation, no
// retrieval) in workspace `home`, asking the LLM at `base_url`; tests set what they vary.
inline search::SearchRequest small_search_request(const std::filesystem::path& home, const std::string& base_url,
                                                  const std::string& method = "eoh") {
  search::SearchRequest r{source_root(), Workspace::open(home)};
  r.task = "relu_f32";
  r.config = Config::load(source_root());
  r.config.set("llm.base_url", base_url);
  r.config.set("llm.model", "fake-coder");
  r.config.set("search.method", method);
  r.config.set("search.iterations", "2");
  r.config.set("search.parallel", "2");
  r.config.set("search.population", "3");
  r.config.set("search.generations", "1");
  r.config.set("search.seed", "5");
  r.config.set("search.rag", "none");
  return r;
}

}  // namespace eok::testing
