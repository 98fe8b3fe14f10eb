#include "evaluator/task.h"

#include <gtest/gtest.h>

#include <set>

#include "evaluator/harness_plan.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::evaluator {
namespace {

namespace fs = std::filesystem;

const fs::path kKernels = fs::path(EOK_SOURCE_DIR) / "kernels";

TEST(TaskCatalog, EveryShippedTaskLoads) {
  const auto ids = list_task_ids(kKernels);
  for (const char* id : {"relu_f32", "mish_f32", "mish_f16", "softmax_f32", "gemm_f32", "reduce_scan_i32"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
  for (const auto& id : ids) {
    Task t = load_task(kKernels / id);
    EXPECT_EQ(t.id, id);
    EXPECT_TRUE(fs::exists(t.ref_path())) << id;
    EXPECT_TRUE(fs::exists(t.ker0_path())) << id;
    EXPECT_FALSE(t.checks.empty());
  }
}

TEST(TaskCatalog, ShippedSignaturesAreTheFixedOnes) {
  EXPECT_EQ(load_task(kKernels / "mish_f32").signature, "void mish_f32(float *x, size_t n)");
  EXPECT_EQ(load_task(kKernels / "gemm_f32").signature,
            "void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)");
  Task scan = load_task(kKernels / "reduce_scan_i32");
  EXPECT_EQ(scan.signature, "int32_t reduce_scan_i32(int32_t *x, int n)");
  ASSERT_TRUE(scan.returns.has_value());
  EXPECT_EQ(*scan.returns, ElemType::i32);
  EXPECT_EQ(load_task(kKernels / "mish_f16").march, "rv64gcv_zfh_zvfh");
}

TEST(TaskResolve, OperationNameResolvesToF32) {
  auto r = resolve_task_id(kKernels, "mish");
  EXPECT_EQ(r.id, "mish_f32");
  EXPECT_NE(r.note.find("mish_f32"), std::string::npos);
  EXPECT_EQ(resolve_task_id(kKernels, "gemm_f32").note, "");
}

TEST(TaskResolve, UnknownTaskSuggestsAlternatives) {
  try {
    resolve_task_id(kKernels, "mis");
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown task 'mis'"), std::string::npos);
  }
}

class BadTask : public ::testing::Test {
 protected:
  void write(const std::string& toml) {
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-task-");
    task_dir_ = dir_->path() / "t_f32";
    fs::create_directories(task_dir_);
    write_file_atomic(task_dir_ / "task.toml", toml);
  }
  std::string error() {
    try {
      load_task(task_dir_);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  }
  std::unique_ptr<TempDir> dir_;
  fs::path task_dir_;
};

const char* kGood = R"toml(id = "t_f32"
name = "t"
group = "nn"
dtype = "f32"
march = "rv64gcv"
entry = "t_f32"
signature = "void t_f32(float *x, size_t n)"
tolerance = "exact"
[[args]]
name = "x"
kind = "buffer"
type = "f32"
len = "n"
access = "inout"
dist = "uniform(-1, 1)"
[[args]]
name = "n"
kind = "scalar"
type = "size_t"
value = "n"
[sizes]
timed = { n = 8 }
check = [ { n = 1 } ]
)toml";

std::string with(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST_F(BadTask, GoodOneLoads) {
  write(kGood);
  EXPECT_EQ(error(), "");
}

TEST_F(BadTask, ErrorsNameTheFileAndTheKey) {
  write(with(kGood, "tolerance = \"exact\"", "tolerance = \"close\""));
  EXPECT_NE(error().find("task.toml: tolerance: unknown class 'close'"), std::string::npos) << error();
  write(with(kGood, "len = \"n\"", "len = \"m\""));
  EXPECT_NE(error().find("unknown size parameter 'm'"), std::string::npos) << error();
  write(with(kGood, "id = \"t_f32\"", "id = \"other\""));
  EXPECT_NE(error().find("must equal the folder name"), std::string::npos) << error();
  write(with(kGood, "size_t n)", "size_t n, int extra)"));
  EXPECT_NE(error().find("declares 3 parameters"), std::string::npos) << error();
  write(with(kGood, "uniform(-1, 1)", "normal(0, 1)"));
  EXPECT_NE(error().find("expected uniform(lo, hi), sorted(lo, hi)"), std::string::npos) << error();
  write(with(kGood, "uniform(-1, 1)", "uniform(2, 1)"));
  EXPECT_NE(error().find("lo must be <= hi"), std::string::npos) << error();
  write(with(kGood, "dist = \"uniform(-1, 1)\"", "dist = \"sorted(-1, 1)\"\nspecials = [\"nan\"]"));
  EXPECT_NE(error().find("specials need a uniform dist"), std::string::npos) << error();
  write("id = [");
  EXPECT_NE(error().find("task.toml:1"), std::string::npos) << error();
}

TEST(HarnessPlan, GlueCastsEveryArgumentAndStoresTheReturnValue) {
  Task scan = load_task(kKernels / "reduce_scan_i32");
  const std::string glue = generate_glue(scan);
  EXPECT_NE(glue.find("int32_t reduce_scan_i32(int32_t *x, int n);"), std::string::npos) << glue;
  EXPECT_NE(glue.find("*ret = (uint64_t)(int64_t)reduce_scan_i32((int32_t *)b[0], (int)(int64_t)s[1]);"),
            std::string::npos)
      << glue;
}

TEST(HarnessPlan, WarmUpThenTimedCallsThenEveryCheckEachWithItsOwnSeed) {
  Task t = load_task(kKernels / "relu_f32");
  auto cases = plan_cases(t, 42, 2, 3);
  ASSERT_EQ(cases.size(), 2 + 3 + t.checks.size());
  std::set<uint64_t> seeds;
  for (size_t i = 0; i < cases.size(); ++i) {
    seeds.insert(cases[i].seed);
    if (i < 2) {
      EXPECT_TRUE(cases[i].warmup && !cases[i].timed) << i;
      EXPECT_EQ(cases[i].sizes, t.timed);
    } else if (i < 5) {
      EXPECT_TRUE(cases[i].timed && !cases[i].warmup) << i;
      EXPECT_EQ(cases[i].sizes, t.timed);
    } else {
      EXPECT_FALSE(cases[i].timed || cases[i].warmup) << i;
      EXPECT_EQ(cases[i].sizes, t.checks[i - 5]);
    }
  }
  EXPECT_EQ(seeds.size(), cases.size());  // fresh inputs for every call: none can replay another's result
  // Every timed call uses the same buffers as the warm-up: the caches it warmed are the ones it reads.
  EXPECT_EQ(cases[0].buffers[0].data_addr, cases[2].buffers[0].data_addr);
  EXPECT_EQ(plan_cases(t, 42, 2, 3)[2].seed, cases[2].seed);  // deterministic
  EXPECT_NE(plan_cases(t, 43, 2, 3)[2].seed, cases[2].seed);  // but fresh per evaluation seed
  // The check seeds do not depend on the protocol: a board with another protocol checks the same inputs.
  EXPECT_EQ(plan_cases(t, 42, 0, 1).back().seed, cases.back().seed);
  const std::string plan = render_plan(t, cases);
  EXPECT_EQ(plan.rfind("eok-plan 3\nret 1fff000000\ncase 2 ", 0), 0u) << plan.substr(0, 40);
  const std::string watch = render_watch(cases, 0x100, 0x104, {});
  EXPECT_NE(watch.find("call 0 0 "), std::string::npos);
  EXPECT_NE(watch.find("call 2 1 "), std::string::npos);
}

TEST(HarnessPlan, BuffersArePlacedWhereHarnessAndPluginBothFindThem) {
  Task t = load_task(kKernels / "relu_f32");
  const auto cases = plan_cases(t, 1);
  const std::string plan = render_plan(t, cases);
  const std::string watch = render_watch(cases, 0x100, 0x104, {{0x200, 0x280}});
  EXPECT_NE(watch.find("markers 100 104\ncode 200 280\nret 1fff000000\n"), std::string::npos) << watch;
  for (size_t c = 0; c < cases.size(); ++c) {
    ASSERT_FALSE(cases[c].buffers.empty());
    uint64_t end = 0;
    for (const auto& b : cases[c].buffers) {
      // The data sits between its guards, in a mapping after the previous buffer's unmapped page.
      EXPECT_GE(b.map_addr, end);
      EXPECT_EQ(b.data_addr - b.guard_before >= b.map_addr, true);
      EXPECT_EQ(b.guard_after, cases[c].tight ? 0u : 64u);
      EXPECT_EQ((b.data_addr + b.data_bytes + b.guard_after) % 4096, 0u);
      end = b.data_addr + b.data_bytes + b.guard_after + 4096;
      char map[32];
      std::snprintf(map, sizeof map, " %llx\n", static_cast<unsigned long long>(b.map_addr));
      EXPECT_NE(plan.find(map), std::string::npos) << map;
    }
  }
}

TEST_F(BadTask, DistBoundsMayBeSizeExpressionsEvaluatedPerCase) {
  write(with(kGood, "uniform(-1, 1)", "offsets(0, n-1)"));
  ASSERT_EQ(error(), "");
  Task t = load_task(task_dir_);
  EXPECT_EQ(t.args[0].dist, Dist::offsets);
  const std::string plan = render_plan(t, plan_cases(t, 1));
  // buf <access> <type> <count> <dist> <lo> <hi> ...: n = 8 (timed), then n = 1 (check)
  EXPECT_NE(plan.find("buf b 2 1 3 0 0 "), std::string::npos) << plan;
  EXPECT_NE(plan.find("buf b 2 8 3 0 7 "), std::string::npos) << plan;
  // An empty range for an empty buffer draws nothing; for a non-empty one it is the task's mistake.
  write(with(kGood, "uniform(-1, 1)", "sorted(0, n-1)"));
  Task empty_ok = load_task(task_dir_);
  empty_ok.checks.push_back({{"n", 0}});
  EXPECT_NO_THROW(render_plan(empty_ok, plan_cases(empty_ok, 1)));
  write(with(kGood, "uniform(-1, 1)", "sorted(0, n-2)"));
  Task bad = load_task(task_dir_);
  try {
    render_plan(bad, plan_cases(bad, 1));
    FAIL() << "no error for an empty range";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("is empty at n=1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace eok::evaluator
