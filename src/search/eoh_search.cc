#include "src/search/eoh_search.h"

#include "src/common/error.h"

#include <algorithm>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include "src/search/kernel_brief.h"
#include "src/search/sampling.h"

namespace eok::search {

namespace {

std::vector<double> speedups(const std::vector<ScoredKernel>& ks) {
  std::vector<double> s;
  for (const auto& k : ks) s.push_back(k.speedup());
  return s;
}

// Fastest first; ties by hash so the order never depends on timing.
void sort_population(std::vector<ScoredKernel>& pop) {
  std::sort(pop.begin(), pop.end(), [](const ScoredKernel& a, const ScoredKernel& b) {
    return a.cycles() != b.cycles() ? a.cycles() < b.cycles() : a.kernel.hash < b.kernel.hash;
  });
}

struct Attempt {
  ProposalRequest request;
  int generation = 0;
};

struct AttemptResult {
  bool model_answered = false;  // the LLM saw the request and answered (not refused by the budget, not lost)
  bool has_kernel = false;
  bool repeat = false;  // the kernel was one evaluated before (in this run or an earlier one)
  ScoredKernel kernel;
  std::string outcome;
};

class EohRun {
 public:
  EohRun(SearchContext& ctx, uint64_t run_seed, int iteration, int index)
      : ctx_(ctx),
        iteration_(iteration),
        index_(index),
        rng_(derive_seed(run_seed, {uint64_t(iteration), uint64_t(index)})) {}

  EohResult run(const std::vector<ScoredKernel>& archive, const Effectiveness& eff, const idea_pool::Idea* drawn) {
    archive_ = archive;
    const ScoredKernel parent = archive[pick_parents(archive, 1).front()];
    const int P = ctx_.settings.population;
    std::vector<Attempt> init;
    if (ctx_.pool && drawn) {
      const auto& idea = *drawn;
      result_.idea_id = idea.id;
      search_idea_ = drawn;
      std::vector<double> scores;
      for (const auto& t : idea.thoughts) scores.push_back(eff.count(t.id) ? eff.at(t.id) : t.effectiveness);
      const double temp = ctx_.settings.thought_softmax ? ctx_.settings.thought_temperature : 0.0;
      // Distinct thoughts first; with more slots than thoughts, the rest are drawn again by softmax.
      std::vector<size_t> picks = softmax_pick_distinct(scores, static_cast<size_t>(P), temp, rng_);
      while (picks.size() < static_cast<size_t>(P)) picks.push_back(softmax_pick(scores, temp, rng_));
      for (size_t t : picks) init.push_back(attempt("init", {parent}, 0, &idea, &idea.thoughts[t]));
    } else {
      for (int i = 0; i < P; ++i) init.push_back(attempt("i1", {parent}, 0));
    }
    std::vector<ScoredKernel> population = {parent};
    absorb(run_batch(init), population);
    // As EoH: each operator makes its children from the population as the previous operator left it.
    for (int g = 1; g <= ctx_.settings.generations && !ctx_.stop; ++g) {
      if (at_roofline(population.front())) {
        // A kernel at its bound leaves little to find: the search ends instead of spending the budget.
        ctx_.progress.note("iter " + std::to_string(iteration_ + 1) + " search " + std::to_string(index_ + 1) +
                           ": the best kernel is within " +
                           std::to_string(static_cast<int>(100 * (kAtRooflineFactor - 1) + 0.5)) +
                           "% of the task's roofline; the search stops here");
        result_.stopped_at_roofline = true;
        break;
      }
      for (const char* op : kOperators) {
        if (ctx_.stop) break;
        std::vector<Attempt> batch;
        for (int c = 0; c < ctx_.settings.offspring; ++c)
          batch.push_back(attempt(op, pick_operator_parents(op, population), g));
        absorb(run_batch(batch), population);
      }
    }
    result_.population = population;
    // The idea is judged by what its search found; a search whose every kernel met a failing board found
    // nothing out about it.
    // A search whose every answered proposal failed counts as a failed proposal, below one that only
    // found slower kernels.
    if (!result_.idea_id.empty() && held_ > 0) {
      const double best = population.empty() ? 0 : population.front().speedup();
      const double gain = parent.speedup() > 0 ? best / parent.speedup() - 1 : 0;
      result_.observations.push_back({result_.idea_id, correct_children_ == 0
                                                           ? kFailedProposalImprovement
                                                           : std::max(kSlowerCorrectImprovementFloor, gain)});
    }
    return result_;
  }

 private:
  // One parent for M operators; two for E operators, the second from the archive (the run's best kernels
  // of earlier iterations) when the population holds only one kernel.
  std::vector<ScoredKernel> pick_operator_parents(const std::string& op, const std::vector<ScoredKernel>& population) {
    std::vector<ScoredKernel> parents;
    for (size_t i : pick_parents(population, op[0] == 'E' ? 2 : 1)) parents.push_back(population[i]);
    if (op[0] == 'E' && parents.size() < 2) {
      std::vector<ScoredKernel> others;
      for (const auto& k : archive_) {
        if (k.kernel.hash != parents.front().kernel.hash) others.push_back(k);
      }
      if (!others.empty()) parents.push_back(others[pick_parents(others, 1).front()]);
    }
    return parents;
  }

  // `k` distinct parents from `pool` (sorted best first), as search.parent_selection says.
  std::vector<size_t> pick_parents(const std::vector<ScoredKernel>& pool, size_t k) {
    EOK_ASSERT(!pool.empty(), "parents are drawn from a population that holds at least ker0");
    if (ctx_.settings.parent_selection == "softmax") {
      return softmax_pick_distinct(speedups(pool), k, ctx_.settings.parent_temperature, rng_);
    }
    return rank_pick_distinct(pool.size(), k, rng_);
  }

  Attempt attempt(const std::string& op, std::vector<ScoredKernel> parents, int generation,
                  const idea_pool::Idea* idea = nullptr, const idea_pool::Thought* thought = nullptr) {
    Attempt a;
    a.request.op = op;
    a.request.idea = idea ? idea : search_idea_;
    a.request.thought = thought;
    a.request.seed = rng_.next();
    a.generation = generation;
    // A failure of the last attempt from this parent goes into the next prompt of the lineage.
    if (!parents.empty() && op[0] != 'E') {
      auto it = feedback_.find(parents.front().kernel.id);
      if (it != feedback_.end()) {
        a.request.feedback = it->second;
        feedback_.erase(it);
      }
    }
    a.request.parents = std::move(parents);
    return a;
  }

  std::string where(const Attempt& a) const {
    return "iter " + std::to_string(iteration_ + 1) + " search " + std::to_string(index_ + 1) + " gen " +
           std::to_string(a.generation) + " " + a.request.op;
  }

  // Orders the submissions of one batch: when two attempts propose the same source, the earlier one in
  // the batch becomes the kernel (with its operator and thought) and the later one its repeat, whatever
  // order the replies arrive in; so a replayed run records the same. Different sources do not wait for
  // each other's evaluations, only for the earlier attempts' replies.
  class BatchOrder {
   public:
    explicit BatchOrder(size_t n) : sources_(n), submitted_(n, false) {}
    // Attempt `i` proposed `source` ("" for none); returns once it may submit.
    void proposed(size_t i, const std::string& source) {
      std::unique_lock<std::mutex> lock(mutex_);
      sources_[i] = source;
      changed_.notify_all();
      changed_.wait(lock, [&] {
        for (size_t j = 0; j < i; ++j) {
          if (!sources_[j]) return false;  // an earlier reply is still out
          if (!source.empty() && *sources_[j] == source && !submitted_[j]) return false;  // its twin goes first
        }
        return true;
      });
    }
    void submitted(size_t i) {
      std::lock_guard<std::mutex> lock(mutex_);
      submitted_[i] = true;
      if (!sources_[i]) sources_[i] = "";
      changed_.notify_all();
    }

   private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::optional<std::string>> sources_;
    std::vector<bool> submitted_;
  };

  AttemptResult run_one(const Attempt& a, BatchOrder& order, size_t index) {
    AttemptResult r;
    GeneratedKernel g;
    try {
      g = ctx_.generator->propose(a.request);
    } catch (...) {
      order.submitted(index);  // never leave a later attempt waiting
      throw;
    }
    if (g.called) ctx_.progress.llm_call(g.call_ok, g.cache_hit);
    if (g.stop_run) ctx_.request_stop(g.reason);
    r.model_answered = g.called && g.call_ok;
    order.proposed(index, g.ok ? g.source : "");
    struct Done {
      BatchOrder& order;
      size_t index;
      ~Done() { order.submitted(index); }
    } done{order, index};
    if (!g.ok) {
      r.outcome = "no kernel: " + g.reason;
      return r;
    }
    db::KernelRecord k;
    k.source = g.source;
    k.description = g.idea;
    for (const auto& p : a.request.parents) k.parents.push_back(p.kernel.id);
    k.op = a.request.op;
    if (a.request.idea)
      k.idea_id = a.request.idea->id;
    else if (!result_.idea_id.empty())
      k.idea_id = result_.idea_id;
    if (a.request.thought) k.thought_id = a.request.thought->id;
    k.iteration = iteration_;
    k.search = index_;
    k.generation = a.generation;
    bool duplicate = false;
    r.kernel = ctx_.evals.submit(k, &duplicate);
    r.has_kernel = true;
    r.repeat = duplicate;
    ctx_.generator->attach(g.llm_call_id, r.kernel.kernel.id);
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.3fx", r.kernel.speedup());
    r.outcome = "kernel #" + std::to_string(r.kernel.kernel.id) + " " + status_name(r.kernel.eval.status) +
                (r.kernel.ok() ? buf : "") + (duplicate ? " (a repeat of an earlier kernel)" : "");
    return r;
  }

  // Runs a batch of attempts concurrently (the LLM client and the evaluation service bound the real
  // concurrency) and returns the results in the batch's order.
  std::vector<std::pair<Attempt, AttemptResult>> run_batch(const std::vector<Attempt>& batch) {
    const size_t started = ctx_.stop ? 0 : batch.size();
    BatchOrder order(started);  // outlives the futures, whose destructors wait for their tasks
    std::vector<std::future<AttemptResult>> futures;
    for (size_t i = 0; i < started; ++i) {
      futures.push_back(
          std::async(std::launch::async, [this, &order, i, a = batch[i]] { return run_one(a, order, i); }));
    }
    std::vector<std::pair<Attempt, AttemptResult>> out;
    for (size_t i = 0; i < futures.size(); ++i) {
      AttemptResult r = futures[i].get();
      const Attempt& a = batch[i];
      if (r.has_kernel && r.kernel.infra_error())
        ctx_.infra_error(where(a), r.kernel);
      else
        ctx_.progress.proposal(where(a), r.outcome, r.has_kernel && r.kernel.ok(), r.kernel.speedup());
      out.emplace_back(a, std::move(r));
    }
    return out;
  }

  void absorb(const std::vector<std::pair<Attempt, AttemptResult>>& results, std::vector<ScoredKernel>& population) {
    for (const auto& [a, r] : results) {
      // eok or the board failed, or the model never answered (budget, transport): the attempt says nothing
      // about its thought, its parent or its kernel.
      if (r.has_kernel && r.kernel.infra_error()) continue;
      if (!r.has_kernel && !r.model_answered) continue;
      ++held_;
      const ScoredKernel* parent = a.request.parents.empty() ? nullptr : &a.request.parents.front();
      const bool correct = r.has_kernel && r.kernel.ok();
      if (a.request.thought) {
        const double imp = correct && parent && parent->speedup() > 0
                               ? std::max(kSlowerCorrectImprovementFloor, r.kernel.speedup() / parent->speedup() - 1)
                               : kFailedProposalImprovement;
        result_.observations.push_back({a.request.thought->id, imp});
      }
      if (r.has_kernel && !correct && parent)
        feedback_[parent->kernel.id] += failure_feedback(r.kernel, parent);
      else if (r.repeat && parent && a.request.op[0] != 'E')
        feedback_[parent->kernel.id] += repeat_notice(r.kernel);
      if (!correct) continue;
      ++correct_children_;
      const bool present = std::any_of(population.begin(), population.end(),
                                       [&](const ScoredKernel& k) { return k.kernel.hash == r.kernel.kernel.hash; });
      if (!present) population.push_back(r.kernel);
    }
    sort_population(population);
    if (population.size() > static_cast<size_t>(ctx_.settings.population)) population.resize(ctx_.settings.population);
  }

  SearchContext& ctx_;
  const int iteration_, index_;
  Rng rng_;
  EohResult result_;
  std::vector<ScoredKernel> archive_;             // the run's best kernels when this search began
  const idea_pool::Idea* search_idea_ = nullptr;  // the idea seeding this search (null: plain EoH)
  std::map<int64_t, std::string> feedback_;       // parent kernel id -> why its last child failed
  int held_ = 0;                                  // attempts whose outcome tells something (not infra_error)
  int correct_children_ = 0;                      // of those, the ones that gave a correct kernel
};

}  // namespace

EohResult run_eoh_search(SearchContext& ctx, uint64_t run_seed, int iteration, int index,
                         const std::vector<ScoredKernel>& archive, const Effectiveness& effectiveness,
                         const idea_pool::Idea* idea) {
  return EohRun(ctx, run_seed, iteration, index).run(archive, effectiveness, idea);
}

std::vector<const idea_pool::Idea*> draw_ideas(const idea_pool::IdeaPool& pool, const Effectiveness& effectiveness,
                                               size_t count, bool by_effectiveness, double temperature, Rng& rng) {
  std::vector<const idea_pool::Idea*> out;
  if (pool.ideas.empty()) return out;
  std::vector<double> scores;
  for (const auto& idea : pool.ideas) {
    auto it = effectiveness.find(idea.id);
    scores.push_back(it != effectiveness.end() ? it->second : idea.effectiveness);
  }
  const double temp = by_effectiveness ? temperature : 0.0;
  while (out.size() < count) {
    for (size_t i : softmax_pick_distinct(scores, count - out.size(), temp, rng)) out.push_back(&pool.ideas[i]);
  }
  return out;
}

}  // namespace eok::search
