#include "src/search/eok_loop.h"

#include <algorithm>
#include <future>
#include <map>

#include "src/search/sampling.h"

namespace eok::search {

namespace {

// The place of an iteration's idea draw among the run's seeded choices (searches use their index).
constexpr uint64_t kIdeaDrawPlace = 0x1dea;

Effectiveness initial_effectiveness(const idea_pool::IdeaPool* pool) {
  Effectiveness eff;
  if (!pool) return eff;
  for (const auto& idea : pool->ideas) {
    eff[idea.id] = idea.effectiveness;
    for (const auto& t : idea.thoughts) eff[t.id] = t.effectiveness;
  }
  return eff;
}

}  // namespace

LoopResult run_eok_loop(SearchContext& ctx, db::KernelDb& db, const std::string& run_id, const std::string& board,
                        uint64_t run_seed, const ScoredKernel& baseline) {
  LoopResult result;
  Effectiveness eff = initial_effectiveness(ctx.pool);
  // A resumed run finds its earlier updates on record: they are replayed, not recorded twice.
  std::map<std::pair<int, std::string>, double> recorded;
  for (const auto& u : db.idea_updates(run_id)) recorded[{u.iteration, u.idea_id}] = u.after;
  const auto& s = ctx.settings;
  for (int it = 0; it < s.iterations && !ctx.stop; ++it) {
    ctx.progress.phase("iteration " + std::to_string(it + 1) + "/" + std::to_string(s.iterations));
    // The archive: the best correct kernels of the run's earlier iterations, and ker0. Only earlier
    // iterations: a resumed run finds later kernels on record too, and must see what the first pass saw.
    std::vector<ScoredKernel> archive = {baseline};
    for (const auto& row : db.kernels(ctx.task.id, run_id)) {
      if (row.kernel.iteration >= it || !row.evaluation || row.evaluation->status != EvalStatus::ok ||
          !row.evaluation->cycles)
        continue;
      if (row.kernel.board != board || row.kernel.hash == baseline.kernel.hash) continue;
      archive.push_back({row.kernel, *row.evaluation});
    }
    std::sort(archive.begin(), archive.end(), [](const ScoredKernel& a, const ScoredKernel& b) {
      return a.cycles() != b.cycles() ? a.cycles() < b.cycles() : a.kernel.hash < b.kernel.hash;
    });
    if (archive.size() > static_cast<size_t>(s.top_k)) archive.resize(s.top_k);

    // Each parallel search gets its own idea, drawn by what the run has learned so far.
    std::vector<const idea_pool::Idea*> ideas(static_cast<size_t>(s.parallel), nullptr);
    if (ctx.pool) {
      Rng rng(derive_seed(run_seed, {uint64_t(it), kIdeaDrawPlace}));
      ideas = draw_ideas(*ctx.pool, eff, static_cast<size_t>(s.parallel), s.idea_softmax, s.idea_temperature, rng);
      ideas.resize(static_cast<size_t>(s.parallel), nullptr);
    }
    std::vector<std::future<EohResult>> searches;
    for (int i = 0; i < s.parallel; ++i) {
      searches.push_back(std::async(std::launch::async, [&, i] {
        return run_eoh_search(ctx, run_seed, it, i, archive, eff, ideas[static_cast<size_t>(i)]);
      }));
    }
    std::map<std::string, std::vector<double>> observed;
    for (auto& f : searches) {
      for (const auto& o : f.get().observations) observed[o.id].push_back(o.improvement);
    }
    // Effectiveness moves toward what this iteration observed; the pool file itself never changes.
    for (const auto& [id, values] : observed) {
      double mean = 0;
      for (double v : values) mean += v;
      mean /= static_cast<double>(values.size());
      const double before = eff[id];
      eff[id] = (1 - s.effectiveness_rate) * before + s.effectiveness_rate * mean;
      if (!recorded.count({it, id}))
        db.insert_idea_update({run_id, it, id, before, eff[id], static_cast<int>(values.size())});
    }
    result.iterations_done = it + 1;
  }
  return result;
}

}  // namespace eok::search
