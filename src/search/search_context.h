// What every search strategy works with: the task, the settings, the one evaluation service, the
// generator, the progress display and the run's stop flag.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>

#include "evaluator/task.h"
#include "idea_pool/pool.h"
#include "src/search/evaluation_service.h"
#include "src/search/generator.h"
#include "src/search/progress.h"
#include "src/search/settings.h"

namespace eok::search {

struct SearchContext {
  const evaluator::Task& task;
  const SearchSettings& settings;
  EvaluationService& evals;
  Generator* generator;  // null for the tuner
  Progress& progress;
  const idea_pool::IdeaPool* pool;  // null: plain EoH
  std::atomic<bool>& stop;          // Ctrl-C, spent budget: finish what runs, start nothing new
  std::string stop_reason;          // written once, by whoever sets `stop` first (guarded by stop_mutex)
  std::mutex stop_mutex;

  void request_stop(const std::string& why) {
    std::lock_guard<std::mutex> lock(stop_mutex);
    if (stop_reason.empty()) stop_reason = why;
    stop = true;
  }

  // A proposal whose evaluation ended in infra_error (eok or the board failed): says so in the progress
  // log, and stops the run (resumable) once the evaluation service finds the board failing, rather than
  // spend the LLM budget on kernels nobody can judge. The caller counts the attempt as if it never
  // happened: no observation for its thought, no feedback, no place in a population.
  void infra_error(const std::string& where, const ScoredKernel& k);
};

// Effectiveness of ideas and thoughts by id, as the run currently believes it.
using Effectiveness = std::map<std::string, double>;

}  // namespace eok::search
