// Shared by the kernel database tests: a fresh temporary directory per test, and records with every field
// set to something distinguishable.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/common/fs_util.h"
#include "src/db/kernel_db.h"

namespace eok::db::testing {

namespace fs = std::filesystem;

class DbTest : public ::testing::Test {
 protected:
  DbTest() : dir_(fs::temp_directory_path(), "eok-db-test-") {}
  fs::path db_file() const { return dir_.path() / "workspace" / "kernels.db"; }
  std::unique_ptr<KernelDb> open_db() const { return KernelDb::open(db_file()); }

  TempDir dir_;
};

inline RunRecord make_run(const std::string& id, const std::string& task = "relu_f32",
                          const std::string& board = "k1") {
  RunRecord r;
  r.id = id;
  r.task = task;
  r.board = board;
  r.state = db::RunState::running;
  r.method = db::SearchMethod::eok;
  r.config_json = R"({"iterations": 4})";
  r.seed = 42;
  r.toolchain = "clang 22, qemu 7.2";
  r.model = "test-model";
  r.started_at = 1000;
  r.updated_at = 1000;
  return r;
}

inline KernelRecord make_kernel(const std::string& run_id, const std::string& hash,
                                const std::string& task = "relu_f32", const std::string& board = "k1") {
  KernelRecord k;
  k.run_id = run_id;
  k.task = task;
  k.board = board;
  k.hash = hash;
  k.source = "void relu(float* x, int n) { /* " + hash + " */ }";
  k.description = "kernel " + hash;
  k.op = run_id.empty() ? "ker0" : "M1";
  k.created_at = 2000;
  return k;
}

inline EvaluationRecord make_evaluation(int64_t kernel_id, EvalStatus status,
                                        std::optional<double> cycles = std::nullopt) {
  EvaluationRecord e;
  e.kernel_id = kernel_id;
  e.status = status;
  e.message = status == EvalStatus::ok ? "" : "something went wrong";
  e.evidence_json = R"({"rule": "none"})";
  e.cycles = cycles;
  e.seed = 7;
  e.seconds = 1.5;
  e.setup = "k1 clang-22 x60-v1";
  e.created_at = 3000;
  return e;
}

inline LlmCallRecord make_call(const std::string& run_id, bool ok, bool cache_hit = false) {
  LlmCallRecord c;
  c.run_id = run_id;
  c.op = "M1";
  c.request_hash = "req";
  c.model = "test-model";
  c.ok = ok;
  c.error = ok ? "" : "http: HTTP 500 after 5 attempts";
  c.prompt_tokens = 100;
  c.completion_tokens = 50;
  c.latency_seconds = 2.5;
  c.cost = 0.01;
  c.cache_hit = cache_hit;
  c.attempts = 1;
  c.created_at = 4000;
  return c;
}

}  // namespace eok::db::testing
