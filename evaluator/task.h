// A task of the catalog (kernels/<id>/task.toml): what the entry function is, how to call it, at which
// sizes, with which inputs, and how close to the reference its outputs must be.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "evaluator/size_expr.h"

namespace eok::evaluator {

// Element and scalar types; the values match enum eok_type in evaluator/target/harness_protocol.h.
enum class ElemType : uint8_t { f16 = 1, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64 };

size_t elem_size(ElemType t);
bool elem_is_float(ElemType t);
const char* elem_name(ElemType t);    // "f32"
const char* elem_c_type(ElemType t);  // "float", "_Float16", "int32_t"

enum class Access : uint8_t { in, out, inout };

// How a buffer input is drawn; the values match enum eok_dist in evaluator/target/harness_protocol.h.
// uniform: independent draws in [lo, hi] (integers inclusive). sorted: the same draws, ascending.
// nearly_sorted: sorted, then a few elements swapped with a near neighbour (locality sorts).
// offsets: sorted with the first element lo (segment starts, CSR row starts: empty segments included).
enum class Dist : uint8_t { uniform = 0, sorted, nearly_sorted, offsets };
const char* dist_name(Dist d);

struct Tolerance {
  std::string name;  // the class name, or "custom"
  double atol = 0;
  double rtol = 0;
  bool exact() const { return atol == 0 && rtol == 0; }
};

struct ArgSpec {
  std::string name;
  bool is_buffer = false;
  ElemType type = ElemType::f32;  // buffer element type, or the scalar's type
  std::string c_type;             // scalar: the C type as declared ("size_t", "int")
  std::string len;                // buffer: element count, a size expression
  Access access = Access::in;
  Dist dist = Dist::uniform;       // buffer inputs: how values are drawn
  std::string lo = "0", hi = "1";  // their range: numbers, or size expressions ("n", "total-1")
  unsigned specials = 0;           // EOK_SPECIAL_* bits
  std::string value;               // scalar: a size expression (integers) or a literal (floats)
};

struct Task {
  std::string id, name, group, category, dtype, march, entry, signature, approach;
  Tolerance tolerance;
  std::string flops, bytes;  // size expressions for roofline figures
  std::vector<ArgSpec> args;
  std::optional<ElemType> returns;
  SizeParams timed;
  std::vector<SizeParams> checks;
  std::filesystem::path dir;

  std::filesystem::path ref_path() const { return dir / "ref.c"; }
  std::filesystem::path ker0_path() const { return dir / "ker0.c"; }
};

// Loads and validates dir/task.toml. Throws ConfigError naming the file and the key at fault.
Task load_task(const std::filesystem::path& dir);

// A dist bound's value at `sizes`: a number as written, else its size expression evaluated.
double eval_dist_bound(const std::string& bound, const SizeParams& sizes);

// Ids of every folder under kernels_dir that has a task.toml, sorted.
std::vector<std::string> list_task_ids(const std::filesystem::path& kernels_dir);

// Every task under kernels_dir that loads, in id order. Each one whose task.toml is at fault is passed to
// `on_broken` (its id and the error) and left out: one broken task never stops a command over all tasks.
std::vector<Task> load_tasks(const std::filesystem::path& kernels_dir,
                             const std::function<void(const std::string& id, const std::string& why)>& on_broken);

struct ResolvedTask {
  std::string id;
  std::string note;  // non-empty when the name given was not the id itself ("mish" -> "mish_f32")
};

// The folders tasks are found in: each folder of $EOK_TASKS_PATH (colon-separated: the user's own tasks,
// searched first), then the catalog `root`/kernels.
std::vector<std::filesystem::path> task_dirs(const std::filesystem::path& root);

// Finds a task by id or operation name (as resolve_task_id) across task_dirs(root), the first folder that
// holds it winning, and loads it. `note` (when given) says how a name was resolved. Throws NotFoundError
// listing close matches, ConfigError for a task.toml at fault.
Task find_task(const std::filesystem::path& root, const std::string& name, std::string* note = nullptr);

// Resolves a user's task name: an exact id, or an operation name that matches `<name>_f32` (or a single
// `<name>_*`). Throws NotFoundError listing close matches when nothing fits.
ResolvedTask resolve_task_id(const std::filesystem::path& kernels_dir, const std::string& name);

}  // namespace eok::evaluator
