#include "src/search/evaluation_service.h"
#include "src/common/clock.h"

#include <chrono>

#include "evaluator/remote/board_timer.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/search/sampling.h"

namespace eok::search {

db::EvaluationRecord to_record(const evaluator::EvalResult& r, int64_t kernel_id, const std::string& setup) {
  db::EvaluationRecord e;
  e.kernel_id = kernel_id;
  e.status = r.status;
  e.message = r.message;
  const nlohmann::json j = r.to_json();
  nlohmann::json evidence = {{"evidence", j["evidence"]},
                             {"profile", j["profile"]},
                             {"timings_s", j["timings_s"]},
                             {"sandbox", j["sandbox"]},
                             {"roofline_cycles", j["roofline_cycles"]}};
  // A board's measurement, and the virtual twin's figure beside it when the judge gave one (a const json's
  // operator[] must never meet a missing key).
  if (j.contains("measurement")) evidence["measurement"] = j["measurement"];
  if (j.contains("modeled_cycles")) evidence["modeled_cycles"] = j["modeled_cycles"];
  e.evidence_json = evidence.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  e.cycles = r.cycles;
  e.baseline_cycles = r.baseline_cycles;
  e.speedup = r.speedup;
  e.seed = r.seed;
  e.seconds = r.timings.total;
  e.setup = setup;
  e.created_at = unix_seconds();
  return e;
}

EvaluationService::EvaluationService(KernelJudge& judge, db::KernelDb& db, const evaluator::Task& task,
                                     std::string board, std::string run_id, uint64_t run_seed, int concurrency)
    : judge_(judge),
      db_(db),
      task_(task),
      board_(std::move(board)),
      run_id_(std::move(run_id)),
      run_seed_(run_seed),
      board_slots_(std::max(1, std::min(concurrency, 64))) {}

evaluator::EvalResult EvaluationService::judge_on_board(const std::string& source, uint64_t seed) {
  board_slots_.acquire();
  try {
    evaluator::EvalResult r = judge_.judge(task_, source, seed);
    board_slots_.release();
    return r;
  } catch (...) {
    board_slots_.release();
    throw;
  }
}

db::EvaluationRecord EvaluationService::evaluate(const db::KernelRecord& k) {
  // A seed per (run, kernel): a resumed run draws the same inputs; another run draws fresh ones.
  const uint64_t seed = derive_seed(run_seed_, {std::hash<std::string>{}(k.hash)});
  db::EvaluationRecord e = to_record(judge_on_board(k.source, seed), k.id, judge_.setup());
  count_evaluation(e);
  return e;
}

void EvaluationService::count_evaluation(const db::EvaluationRecord& e) {
  std::lock_guard<std::mutex> lock(mutex_);
  counts_.evaluated++;
  if (e.status != EvalStatus::infra_error) {
    infra_in_a_row_ = 0;
    return;
  }
  counts_.infra_errors++;
  last_infra_error_ = e.message;
  if (++infra_in_a_row_ >= kInfraErrorsInARow) infra_failing_ = true;
}

bool EvaluationService::infra_failing() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return infra_failing_;
}

std::string EvaluationService::last_infra_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_infra_error_;
}

std::optional<db::EvaluationRecord> EvaluationService::recheck(const db::KernelRecord& k, int times) {
  for (int attempt = 0; attempt < times; ++attempt) {
    const uint64_t seed =
        derive_seed(run_seed_, {0x72656368u /* "rech" */, static_cast<uint64_t>(k.id), static_cast<uint64_t>(attempt)});
    const evaluator::EvalResult r = judge_on_board(k.source, seed);
    if (r.status != evaluator::EvalStatus::ok && r.status != evaluator::EvalStatus::infra_error) {
      return to_record(r, k.id, judge_.setup());
    }
  }
  return std::nullopt;
}

namespace {

std::optional<nlohmann::json> board_measurement(const db::EvaluationRecord& e) {
  if (e.evidence_json.find("\"measurement\"") == std::string::npos) return std::nullopt;
  try {
    auto j = nlohmann::json::parse(e.evidence_json);
    if (j.contains("measurement") && j["measurement"].is_object()) return j["measurement"];
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;
}

double median_of(std::vector<double> v) {
  return evaluator::remote::median_and_mad(std::move(v)).first;
}

}  // namespace

double ScoredKernel::noise() const {
  const auto m = board_measurement(eval);
  return m ? m->value("mad_cycles", 0.0) : 0.0;
}

bool ScoredKernel::measured_on_board() const {
  return board_measurement(eval).has_value();
}

bool clearly_faster(const ScoredKernel& a, const ScoredKernel& b) {
  return a.cycles() + a.noise() + b.noise() < b.cycles();
}

Remeasured EvaluationService::remeasure_against(const db::KernelRecord& champion, const db::KernelRecord& baseline,
                                                int rounds) {
  Remeasured out;
  std::vector<double> champ, base, noise;
  for (int round = 0; round < rounds; ++round) {
    for (const db::KernelRecord* k : {&baseline, &champion}) {
      const uint64_t seed = derive_seed(
          run_seed_, {0x7265696eu /* "rein" */, static_cast<uint64_t>(k->id), static_cast<uint64_t>(round)});
      const evaluator::EvalResult r = judge_on_board(k->source, seed);
      if (r.status != evaluator::EvalStatus::ok || !r.measurement) {
        out.problem = std::string(k == &baseline ? "ker0" : "the champion") + " did not measure in round " +
                      std::to_string(round + 1) + ": " + evaluator::status_name(r.status) + ": " + r.message;
        return out;
      }
      (k == &baseline ? base : champ).push_back(r.measurement->median_cycles);
      noise.push_back(r.measurement->mad_cycles);
    }
    ++out.rounds;
  }
  out.champion_cycles = median_of(champ);
  out.baseline_cycles = median_of(base);
  out.noise = 2 * median_of(noise);  // each side's typical MAD, both sides together
  out.faster = out.champion_cycles + out.noise < out.baseline_cycles;
  return out;
}

ScoredKernel EvaluationService::baseline() {
  db::KernelRecord k;
  k.source = read_regular_file(task_.ker0_path(), kKernelSourceMaxBytes, "baseline kernel");
  k.op = "ker0";
  k.description = task_.approach.empty() ? "the task's baseline kernel" : task_.approach;
  k.run_id = "";  // shared by every run of the task and board
  k.hash = judge_.identity(task_, k.source);
  k.task = task_.id;
  k.board = board_;
  k.created_at = unix_seconds();
  std::optional<db::KernelRecord> row = db_.get_kernel(db_.ensure_ker0(k));
  if (auto e = db_.get_evaluation(row->id); e && e->setup == judge_.setup() && e->status != EvalStatus::infra_error) {
    remember_baseline({*row, *e});
    return {*row, *e};
  }
  db::EvaluationRecord e = evaluate(*row);
  if (e.status == EvalStatus::infra_error) {
    // Not recorded: ker0's record is the baseline of every run and of the leaderboard.
    throw InfraError("could not measure the baseline " +
                     task_.ker0_path().lexically_proximate(std::filesystem::current_path()).string() + " on board " +
                     board_ + ": infra_error: " + e.message +
                     ". eok or the board failed, not the kernel: check the setup with "
                     "`eok doctor`");
  }
  db_.insert_evaluation(e);
  remember_baseline({*row, e});
  return {*row, e};
}

void EvaluationService::remember_baseline(const ScoredKernel& k) {
  std::lock_guard<std::mutex> lock(mutex_);
  baseline_ = k;
}

ScoredKernel EvaluationService::submit(db::KernelRecord k, bool* duplicate) {
  k.run_id = run_id_;
  k.task = task_.id;
  k.board = board_;
  k.hash = judge_.identity(task_, k.source);
  if (k.created_at == 0) k.created_at = unix_seconds();
  if (duplicate) *duplicate = false;
  {
    // A copy of ker0 (the same program, whatever its comments say) is ker0, not a kernel of the run: the
    // paper's #Success does not count the reference.
    std::lock_guard<std::mutex> lock(mutex_);
    if (baseline_ && k.hash == baseline_->kernel.hash) {
      if (duplicate) *duplicate = true;
      return *baseline_;
    }
  }

  std::promise<ScoredKernel> promise;
  std::shared_future<ScoredKernel> earlier;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = in_flight_.find(k.hash);
    if (it != in_flight_.end())
      earlier = it->second;
    else
      in_flight_[k.hash] = promise.get_future().share();
  }
  if (earlier.valid()) {
    // The same source was submitted before in this process: one evaluation serves both.
    if (duplicate) *duplicate = true;
    return earlier.get();
  }
  try {
    ScoredKernel result;
    if (auto existing = db_.find_kernel(run_id_, k.hash)) {
      // Already in this run: a resumed run meets its own kernel at the same place; anywhere else the
      // generator repeated an earlier kernel.
      if (duplicate) {
        *duplicate = !(existing->op == k.op && existing->iteration == k.iteration && existing->search == k.search &&
                       existing->generation == k.generation);
      }
      result.kernel = *existing;
    } else {
      result.kernel = k;
      result.kernel.id = db_.insert_kernel(k);
    }
    // An infra_error on record (a resumed run's kernel) says nothing about the kernel: it is evaluated again.
    if (auto e = db_.get_evaluation(result.kernel.id); e && e->status != EvalStatus::infra_error) {
      result.eval = *e;
      std::lock_guard<std::mutex> lock(mutex_);
      counts_.reused++;
    } else if (auto other = db_.find_evaluation_by_hash(task_.id, board_, k.hash, judge_.setup())) {
      result.eval = *other;
      result.eval.kernel_id = result.kernel.id;
      result.eval.created_at = unix_seconds();
      db_.insert_evaluation(result.eval);
      std::lock_guard<std::mutex> lock(mutex_);
      counts_.reused++;
    } else {
      result.eval = evaluate(result.kernel);
      db_.insert_evaluation(result.eval);  // replaces an infra_error on record
    }
    if (result.infra_error()) {
      // Submissions already waiting share this evaluation; a later one evaluates the kernel again.
      std::lock_guard<std::mutex> lock(mutex_);
      in_flight_.erase(k.hash);
    }
    promise.set_value(result);
    return result;
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard<std::mutex> lock(mutex_);
    in_flight_.erase(k.hash);
    throw;
  }
}

EvaluationCounts EvaluationService::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

}  // namespace eok::search
