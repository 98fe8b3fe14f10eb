// A task of one's own, as a new user adds it: eok task new scaffolds it, eok task check says what is
// missing and then that ker0 agrees with ref, and every command finds it through $EOK_TASKS_PATH.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

TEST(TaskCli, ASaxpyTaskIsScaffoldedCheckedAndSearched) {
  TempDir dir(fs::temp_directory_path(), "eok-own-task-");
  const fs::path tasks = dir.path() / "tasks", home = dir.path() / "home";
  const std::vector<std::string> env = {"EOK_TASKS_PATH=" + tasks.string()};
  auto eok = [&](const std::vector<std::string>& args) { return run_eok(args, home, 300, 0, env); };

  const ProcessResult created =
      eok({"task", "new", "saxpy_f32", "--signature", "void saxpy_f32(float *y, const float *x, float a, size_t n)"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  for (const char* f : {"task.toml", "ref.c", "ker0.c"}) EXPECT_TRUE(fs::exists(tasks / "saxpy_f32" / f)) << f;
  EXPECT_NE(created.out.find("eok task check saxpy_f32"), std::string::npos) << created.out;
  EXPECT_EQ(eok({"task", "new", "saxpy_f32", "--signature", "void saxpy_f32(float *y, size_t n)"}).exit_code, 2)
      << "an existing task is never overwritten";
  EXPECT_EQ(eok({"task", "new", "axpy", "--signature", "void saxpy_f32(float *y, size_t n)"}).exit_code, 2);

  // Scaffolded, not written: check says which file to write.
  const ProcessResult unwritten = eok({"task", "check", "saxpy"});
  EXPECT_EQ(unwritten.exit_code, 1);
  EXPECT_NE(unwritten.out.find("ref.c   does not compile"), std::string::npos) << unwritten.out;

  write_file_atomic(tasks / "saxpy_f32" / "ref.c",
                    "#include <stddef.h>\nvoid saxpy_f32(float *y, const float *x, float a, size_t n) {\n"
                    "  for (size_t i = 0; i < n; i++) y[i] = (float)((double)a * x[i] + y[i]);\n}\n");
  const ProcessResult no_ker0 = eok({"task", "check", "saxpy"});
  EXPECT_EQ(no_ker0.exit_code, 1);
  EXPECT_NE(no_ker0.out.find("ker0    compile_error"), std::string::npos) << no_ker0.out;

  write_file_atomic(
      tasks / "saxpy_f32" / "ker0.c",
      "#include <riscv_vector.h>\n#include <stddef.h>\n"
      "void saxpy_f32(float *y, const float *x, float a, size_t n) {\n"
      "  for (size_t vl; n > 0; n -= vl, x += vl, y += vl) {\n"
      "    vl = __riscv_vsetvl_e32m4(n);\n"
      "    vfloat32m4_t vy = __riscv_vle32_v_f32m4(y, vl);\n"
      "    __riscv_vse32_v_f32m4(y, __riscv_vfmacc_vf_f32m4(vy, a, __riscv_vle32_v_f32m4(x, vl), vl), vl);\n"
      "  }\n}\n");
  const ProcessResult checked = eok({"task", "check", "saxpy"});
  ASSERT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("ker0    agrees with ref on every check size"), std::string::npos) << checked.out;

  // Every command finds it: the catalog, eval, search, the leaderboard.
  const auto listed = nlohmann::json::parse(eok({"tasks", "--json"}).out);
  bool found = false;
  for (const auto& t : listed) found = found || t["id"] == "saxpy_f32";
  EXPECT_TRUE(found);
  const ProcessResult judged =
      eok({"eval", "--task", "saxpy", "--kernel", (tasks / "saxpy_f32" / "ker0.c").string(), "--json"});
  EXPECT_EQ(judged.exit_code, 0) << judged.err;
  const ProcessResult searched = eok({"search", "--task", "saxpy", "--json"});
  ASSERT_EQ(searched.exit_code, 0) << searched.err;
  EXPECT_EQ(nlohmann::json::parse(searched.out)["state"], "finished");
  const auto board = nlohmann::json::parse(eok({"leaderboard", "--task", "saxpy", "--json"}).out);
  ASSERT_EQ(board.size(), 1u);
  EXPECT_EQ(board[0]["task"], "saxpy_f32");

  // --tasks-dir does what EOK_TASKS_PATH does, for one command.
  const ProcessResult by_flag = run_eok({"--tasks-dir", tasks.string(), "tasks", "--json"}, home, 60);
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  EXPECT_NE(by_flag.out.find("\"saxpy_f32\""), std::string::npos);
  EXPECT_EQ(run_eok({"tasks", "--json"}, home, 60).out.find("\"saxpy_f32\""), std::string::npos);
}

}  // namespace
}  // namespace eok::testing
