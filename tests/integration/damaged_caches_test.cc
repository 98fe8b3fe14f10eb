// Caches are believed only as they were written: a damaged cached object is compiled again (ker0 is never
// rejected for it), and a baseline whose figures were edited on disk is measured again.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;

class DamagedCaches : public VirtualBoardTest {};

std::vector<fs::path> files_ending(const fs::path& dir, const std::string& suffix) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().string().ends_with(suffix)) out.push_back(e.path());
  }
  return out;
}

TEST_F(DamagedCaches, ADamagedCachedObjectIsCompiledAgainNotBlamedOnTheKernel) {
  const std::string ker0 = read_file(source_root() / "kernels" / "relu_f32" / "ker0.c");
  ASSERT_EQ(eval("relu_f32", ker0, 3).status, evaluator::EvalStatus::ok);
  const auto objects = files_ending(workspace().objects_dir(), ".o");
  ASSERT_FALSE(objects.empty());
  for (const auto& o : objects) write_file_atomic(o, "garbage, as after a crash or a bad disk");
  const auto again = eval("relu_f32", ker0, 4);
  EXPECT_EQ(again.status, evaluator::EvalStatus::ok) << again.message;
  for (const auto& o : objects) {
    if (fs::exists(o)) {
      EXPECT_NE(read_file(o), "garbage, as after a crash or a bad disk") << o << " was not rebuilt";
    }
  }
}

TEST_F(DamagedCaches, ABaselineEditedOnDiskIsMeasuredAgain) {
  const evaluator::Task relu = task("relu_f32");
  const double measured = session().evaluator->baseline_cycles(relu);
  ASSERT_GT(measured, 100);
  const auto files = files_ending(workspace().baselines_dir(), ".json");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    auto j = nlohmann::json::parse(read_file(f));
    if (j.value("task", "") != "relu_f32") continue;
    j["cycles"] = 1.0;  // a baseline of 1 cycle would make every kernel look hopeless
    write_file_atomic(f, j.dump(2));
  }
  EXPECT_DOUBLE_EQ(session().evaluator->baseline_cycles(relu), measured);
}

}  // namespace
}  // namespace eok::testing
