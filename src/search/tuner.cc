#include "src/search/tuner.h"

#include <algorithm>
#include <future>
#include <set>

#include "src/common/error.h"
#include "src/search/knobs.h"

namespace eok::search {

TunerResult run_tuner(SearchContext& ctx, const ScoredKernel& baseline) {
  TunerResult result;
  result.best_knobs = "defaults";
  const std::string& ker0 = baseline.kernel.source;
  const std::vector<Knob> knobs = parse_knobs(ker0);
  if (knobs.empty()) {
    ctx.progress.note(ctx.task.ker0_path().lexically_proximate(std::filesystem::current_path()).string() +
                      " declares no tuning knobs: nothing to tune");
    return result;
  }
  KnobValues best;
  int64_t first_pass = 0;
  for (const auto& k : knobs) {
    best[k.name] = k.default_value;
    first_pass += static_cast<int64_t>(k.values.size()) - 1;
  }
  ctx.progress.plan(std::min<int64_t>(first_pass, ctx.settings.tuner_max_evaluations));
  ScoredKernel best_kernel = baseline;
  std::set<KnobValues> tried = {best};
  const int budget = ctx.settings.tuner_max_evaluations;

  for (bool improved = true; improved && result.evaluations < budget && !ctx.stop;) {
    improved = false;
    ++result.passes;
    ctx.progress.phase("tuner pass " + std::to_string(result.passes));
    if (result.passes > 1) ctx.progress.plan(std::min<int64_t>(result.evaluations + first_pass, budget));
    for (const auto& knob : knobs) {
      if (ctx.stop || result.evaluations >= budget) break;
      // Every untried value of this knob, the others at their best: evaluated side by side.
      std::vector<KnobValues> variants;
      for (const auto& value : knob.values) {
        KnobValues v = best;
        v[knob.name] = value;
        if (tried.insert(v).second && result.evaluations + static_cast<int>(variants.size()) < budget)
          variants.push_back(v);
      }
      std::vector<std::future<std::pair<std::string, ScoredKernel>>> futures;
      for (const auto& v : variants) {
        futures.push_back(std::async(std::launch::async, [&ctx, &ker0, &knobs, &baseline, v, pass = result.passes] {
          db::KernelRecord k;
          try {
            k.source = apply_knobs(ker0, knobs, v);
          } catch (const ConfigError& e) {
            return std::make_pair("not applicable: " + std::string(e.what()), ScoredKernel{});
          }
          k.description = "ker0 with knobs " + describe(v);
          k.op = "tuner";
          k.parents = {baseline.kernel.id};
          k.iteration = pass - 1;
          return std::make_pair(std::string(), ctx.evals.submit(k));
        }));
      }
      for (size_t i = 0; i < futures.size(); ++i) {
        auto [skip, scored] = futures[i].get();
        const std::string where = "tuner " + describe(variants[i]);
        if (!skip.empty()) {
          ctx.progress.proposal(where, skip, false, 0);
          continue;
        }
        if (scored.infra_error()) {
          // eok or the board failed: not one of the budget's evaluations, and a later pass may try it again.
          ctx.infra_error(where, scored);
          tried.erase(variants[i]);
          continue;
        }
        ++result.evaluations;
        char buf[48];
        std::snprintf(buf, sizeof buf, " %.3fx", scored.speedup());
        ctx.progress.proposal(where,
                              "kernel #" + std::to_string(scored.kernel.id) + " " + status_name(scored.eval.status) +
                                  (scored.ok() ? buf : ""),
                              scored.ok(), scored.speedup());
        // On a real board a variant must beat the best by more than the measured noise.
        if (scored.ok() && clearly_faster(scored, best_kernel)) {
          best_kernel = scored;
          best = variants[i];
          improved = true;
        }
      }
    }
  }
  KnobValues changed;
  for (const auto& k : knobs) {
    if (best[k.name] != k.default_value) changed[k.name] = best[k.name];
  }
  if (!changed.empty()) result.best_knobs = describe(changed);
  return result;
}

}  // namespace eok::search
