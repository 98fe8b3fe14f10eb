// The harness draws every kind of input distribution a task may declare (uniform, sorted, nearly_sorted,
// offsets) as promised, with size-expression bounds, at every size: the reference reports the properties
// it sees, and a candidate that claims them all is correct only if every case had them.
#include <gtest/gtest.h>

#include "src/common/fs_util.h"
#include "support/board_fixture.h"

namespace eok::testing {
namespace {

namespace fs = std::filesystem;
using evaluator::EvalStatus;

const char* kTask = R"toml(id = "dists_i32"
name = "reports the properties of its inputs"
group = "general"
dtype = "i32"
march = "rv64gcv"
entry = "dists_i32"
signature = "int32_t dists_i32(const int32_t *u, const int32_t *s, const int32_t *ns, const int32_t *o, int n)"
tolerance = "exact"
[[args]]
name = "u"
kind = "buffer"
type = "i32"
len = "n"
access = "in"
dist = "uniform(0, 9)"
[[args]]
name = "s"
kind = "buffer"
type = "i32"
len = "n"
access = "in"
dist = "sorted(-5, n)"
[[args]]
name = "ns"
kind = "buffer"
type = "i32"
len = "n"
access = "in"
dist = "nearly_sorted(0, 1000000)"
[[args]]
name = "o"
kind = "buffer"
type = "i32"
len = "n"
access = "in"
dist = "offsets(3, n+3)"
[[args]]
name = "n"
kind = "scalar"
type = "int"
value = "n"
[returns]
type = "i32"
[sizes]
timed = { n = 300 }
check = [ { n = 64 }, { n = 65 }, { n = 1000 } ]
)toml";

// Bit 0: u within [0, 9]; 1: s ascending within [-5, n]; 2: ns a permutation-like near-sort (at least one
// descent, and sorting it moves no element more than 32 places); 3: o ascending, o[0] == 3, within [3, n+3].
const char* kRef = R"c(#include <stdint.h>
int32_t dists_i32(const int32_t *u, const int32_t *s, const int32_t *ns, const int32_t *o, int n) {
  int32_t bits = 15;
  for (int i = 0; i < n; i++) if (u[i] < 0 || u[i] > 9) bits &= ~1;
  for (int i = 0; i < n; i++) if (s[i] < -5 || s[i] > n || (i && s[i] < s[i - 1])) bits &= ~2;
  int descents = 0;
  for (int i = 1; i < n; i++) {
    if (ns[i] < ns[i - 1]) descents++;
    int smaller_before = 0;
    for (int j = 0; j < i; j++) if (ns[j] > ns[i]) smaller_before++;
    if (smaller_before > 32) bits &= ~4;
  }
  if (descents == 0) bits &= ~4;
  if (n > 0 && o[0] != 3) bits &= ~8;
  for (int i = 0; i < n; i++) if (o[i] < 3 || o[i] > n + 3 || (i && o[i] < o[i - 1])) bits &= ~8;
  return bits;
}
)c";

class InputDists : public VirtualBoardTest {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(fs::temp_directory_path(), "eok-dists-");
    const fs::path t = dir_->path() / "dists_i32";
    fs::create_directories(t);
    write_file_atomic(t / "task.toml", kTask);
    write_file_atomic(t / "ref.c", kRef);
    write_file_atomic(t / "ker0.c",
                      "#include <stdint.h>\nint32_t dists_i32(const int32_t *u, const int32_t *s, "
                      "const int32_t *ns, const int32_t *o, int n) { return 15; }\n");
    task_ = evaluator::load_task(t);
  }
  std::unique_ptr<TempDir> dir_;
  evaluator::Task task_;
};

TEST_F(InputDists, EveryCaseHasTheDeclaredProperties) {
  const auto r = session().evaluator->evaluate(task_, read_file(task_.ker0_path()), 5);
  EXPECT_EQ(r.status, EvalStatus::ok) << r.message;
  const auto other_seed = session().evaluator->evaluate(task_, read_file(task_.ker0_path()), 6);
  EXPECT_EQ(other_seed.status, EvalStatus::ok) << other_seed.message;
}

TEST_F(InputDists, AMissingPropertyIsCaught) {
  // The same claim minus one bit is wrong: the comparison sees the reference's answer.
  const auto r = session().evaluator->evaluate(task_,
                                               "#include <stdint.h>\nint32_t dists_i32(const int32_t *u, const int32_t "
                                               "*s, const int32_t *ns, const int32_t *o, int n) { return 7; }\n",
                                               5);
  EXPECT_EQ(r.status, EvalStatus::wrong_answer) << r.message;
}

}  // namespace
}  // namespace eok::testing
