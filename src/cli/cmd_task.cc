// eok task new / eok task check: a task of your own, outside the source tree. `new` scaffolds task.toml,
// ref.c and ker0.c from a C signature into a tasks folder ($EOK_TASKS_PATH is where eok looks for them,
// before its own kernels/); `check` validates the task and judges ker0 against ref on every check size.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <map>
#include <regex>

#include "evaluator/board_session.h"
#include "evaluator/task.h"
#include "src/cli/cli.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/log.h"
#include "src/common/paths.h"

namespace eok::cli {

namespace {

namespace fs = std::filesystem;

struct Param {
  std::string type, name;  // "const float *", "x"
  bool pointer = false, is_const = false;
};

// "void saxpy_f32(float *y, const float *x, float a, size_t n)" -> entry and parameters. Throws ConfigError
// saying what a signature must look like.
std::pair<std::string, std::vector<Param>> parse_signature(const std::string& sig) {
  static const std::regex whole(R"(^\s*([A-Za-z_][\w\s]*?)\s*\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*;?\s*$)");
  std::smatch m;
  if (!std::regex_match(sig, m, whole)) {
    throw ConfigError(
        "--signature '" + sig +
        "' is not a C function declaration, e.g. \"void saxpy_f32(float *y, const float *x, float a, size_t n)\"");
  }
  std::vector<Param> params;
  std::string list = m[3].str();
  for (size_t at = 0; at <= list.size();) {
    const size_t end = std::min(list.find(',', at), list.size());
    std::string p = list.substr(at, end - at);
    at = end + 1;
    static const std::regex one(
        R"(^\s*(const\s+)?([A-Za-z_][\w\s]*?)\s*(\*?)\s*(?:restrict\s+|__restrict\s+)?([A-Za-z_]\w*)\s*$)");
    std::smatch pm;
    if (p.find_first_not_of(" \t") == std::string::npos) continue;
    if (!std::regex_match(p, pm, one))
      throw ConfigError("--signature: cannot read the parameter '" + p + "' (name each parameter)");
    params.push_back({pm[2].str(), pm[4].str(), !pm[3].str().empty(), pm[1].matched});
  }
  if (params.empty()) throw ConfigError("--signature declares no parameter: a kernel needs its buffers and sizes");
  return {m[2].str(), params};
}

// The element type name task.toml uses for a C type, or "" when eok has none.
std::string elem_of(const std::string& c) {
  static const std::map<std::string, std::string> names = {
      {"float", "f32"},   {"double", "f64"},   {"_Float16", "f16"}, {"int8_t", "i8"},   {"uint8_t", "u8"},
      {"int16_t", "i16"}, {"uint16_t", "u16"}, {"int32_t", "i32"},  {"int", "i32"},     {"uint32_t", "u32"},
      {"int64_t", "i64"}, {"uint64_t", "u64"}, {"long", "i64"},     {"unsigned", "u32"}};
  auto it = names.find(c);
  return it == names.end() ? "" : it->second;
}

bool is_size_type(const std::string& c) {
  return c == "size_t" || c == "int" || c == "int64_t" || c == "long";
}

std::string task_toml(const std::string& id, const std::string& signature, const std::vector<Param>& params) {
  std::vector<std::string> sizes;
  for (const auto& p : params) {
    if (!p.pointer && (p.type == "size_t")) sizes.push_back(p.name);
  }
  if (sizes.empty())
    throw ConfigError("--signature has no size_t parameter: eok needs one to size the buffers (e.g. size_t n)");
  std::string dtype = "f32";
  for (const auto& p : params) {
    if (p.pointer && !elem_of(p.type).empty()) {
      dtype = elem_of(p.type);
      break;
    }
  }
  const bool floating = dtype[0] == 'f';
  std::string t = "# Written by `eok task new`; kernels/README.md describes every key. Check it with `eok task check " +
                  id + "`.\n";
  t += "id = \"" + id + "\"\nname = \"" + id +
       " (describe it here)\"\ngroup = \"general\"\ncategory = \"custom\"\ndtype = \"" + dtype +
       "\"\nmarch = \"rv64gcv\"\nentry = \"" + id + "\"\nsignature = \"" + signature + "\"\n";
  // A class of kernels/README.md: arithmetic for f32/f64, simple for f16, bit-exact for integers.
  const std::string tolerance = !floating ? "exact" : dtype == "f16" ? "f16_simple" : "f32_arith";
  t += "tolerance = \"" + tolerance + "\"   # exact, f32_arith, f32_transcendental, f32_composite, f32_accum, f16_*\n";
  t +=
      "# flops = \"2*" + sizes[0] + "\"   # per call, for the roofline (optional)\n# bytes = \"12*" + sizes[0] + "\"\n";
  for (const auto& p : params) {
    t += "\n[[args]]\nname = \"" + p.name + "\"\n";
    if (p.pointer) {
      const std::string e = elem_of(p.type);
      if (e.empty())
        throw ConfigError("--signature: eok has no element type for '" + p.type +
                          " *' (use float, double, _Float16, int8_t ... uint64_t)");
      t += "kind = \"buffer\"\ntype = \"" + e + "\"\nlen = \"" + sizes[0] + "\"\naccess = \"" +
           (p.is_const ? "in" : "inout") + "\"   # in, out or inout\n";
      t += e[0] == 'f' ? "dist = \"uniform(-10, 10)\"\nspecials = [\"nan\", \"inf\", \"zero\"]\n"
                       : "dist = \"uniform(-100, 100)\"\n";
    } else if (p.type == "size_t") {
      t += "kind = \"scalar\"\ntype = \"size_t\"\nvalue = \"" + p.name + "\"\n";
    } else if (p.type == "float" || p.type == "double") {
      t += "kind = \"scalar\"\ntype = \"" + p.type + "\"\nvalue = \"1.5\"   # the value every call passes\n";
    } else if (is_size_type(p.type) || !elem_of(p.type).empty()) {
      t += "kind = \"scalar\"\ntype = \"" + p.type + "\"\nvalue = \"3\"\n";
    } else {
      throw ConfigError("--signature: eok cannot pass a '" + p.type + "' parameter (" + p.name + ")");
    }
  }
  t += "\n[sizes]\ntimed = { " + sizes[0] + " = 16384 }\ncheck = [ ";
  bool first = true;
  for (int n : {0, 1, 7, 33, 100, 1000, 4099}) {
    t += (first ? "" : ", ") + std::string("{ ") + sizes[0] + " = " + std::to_string(n) + " }";
    first = false;
  }
  return t + " ]\n";
}

// A C file to fill in: the entry function with an #error where its body goes, which names the file's role.
std::string c_file(const std::string& id, const std::string& signature, const std::string& role,
                   const std::string& advice) {
  return "// " + id + ": " + role + " (" + advice +
         ")\n#include <math.h>\n#include <stddef.h>\n#include <stdint.h>\n\n" +
         signature.substr(0, signature.find_last_not_of(" ;") + 1) + " {\n" + "#error \"write the body of " + role +
         " here, then run: eok task check " + id + "\"\n}\n";
}

struct NewOptions {
  std::string name, signature, dir;
  bool json = false;
};

int run_new(const NewOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const auto [entry, params] = parse_signature(opt.signature);
  if (entry != opt.name)
    throw ConfigError("the task's name must be its entry function: the signature declares " + entry + ", not " +
                      opt.name);
  fs::path dir = opt.dir;
  if (dir.empty()) {
    const char* path = std::getenv("EOK_TASKS_PATH");
    const std::string first = path ? std::string(path).substr(0, std::string(path).find(':')) : "";
    dir = first.empty() ? fs::path("tasks") : fs::path(first);
  }
  const fs::path task_dir = dir / opt.name;
  if (fs::exists(task_dir / "task.toml"))
    throw ConfigError(task_dir.string() + " already holds a task: edit it, or choose another name");
  const std::string toml = task_toml(opt.name, opt.signature, params);
  fs::create_directories(task_dir);
  write_file_atomic(task_dir / "task.toml", toml);
  write_file_atomic(task_dir / "ref.c", c_file(opt.name, opt.signature, "the reference",
                                               "simple and obviously right, in double where it matters"));
  write_file_atomic(task_dir / "ker0.c", c_file(opt.name, opt.signature, "the baseline kernel",
                                                "the search starts from it; the reference's loop is fine"));
  const std::string tasks_path = fs::absolute(dir).string();
  if (opt.json) {
    std::cout << nlohmann::json{{"task", opt.name},
                                {"dir", fs::absolute(task_dir).string()},
                                {"tasks_path", tasks_path}}
                     .dump(2)
              << std::endl;
    return 0;
  }
  std::printf("task    %s written to %s (task.toml, ref.c, ker0.c)\n", opt.name.c_str(), task_dir.c_str());
  std::printf(
      "next    1. write ref.c and ker0.c (each has an #error where the code goes); check task.toml's sizes,\n"
      "           value ranges and tolerance (kernels/README.md)\n"
      "        2. export EOK_TASKS_PATH=%s   (eok looks there before its own kernels/)\n"
      "        3. eok task check %s\n        4. eok search --task %s\n",
      tasks_path.c_str(), opt.name.c_str(), opt.name.c_str());
  return 0;
}

struct CheckOptions {
  std::string name, board = "k1";
  bool json = false;
};

int run_check(const CheckOptions& opt, const GlobalOptions& global) {
  log::set_level(global.log_level);
  const fs::path root = find_project_root(global.root);
  const evaluator::Task task = evaluator::find_task(root, opt.name);  // validates task.toml
  const Workspace ws = Workspace::open();
  auto session = evaluator::open_board_session(root, ws, opt.board);
  // ref.c first, compiled as a candidate would be: its own mistakes are named as its own (judged against
  // a broken reference, ker0 would only get an infra_error).
  const evaluator::EvalResult ref = session.evaluator->evaluate(task, read_file(task.ref_path()), 1);
  if (ref.status == evaluator::EvalStatus::compile_error) {
    if (opt.json) {
      nlohmann::json j = ref.to_json();
      j["task_dir"] = task.dir.string();
      j["file"] = "ref.c";
      std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
      return 1;
    }
    std::printf("ref.c   does not compile: %s\n%s\nnext    fix %s, then run eok task check %s again\n",
                ref.message.c_str(), ref.compiler_output.substr(0, 2000).c_str(), task.ref_path().c_str(),
                task.id.c_str());
    return 1;
  }
  const evaluator::EvalResult r = session.evaluator->evaluate(task, read_file(task.ker0_path()), 1);
  const bool ok = r.status == evaluator::EvalStatus::ok;
  if (opt.json) {
    nlohmann::json j = r.to_json();
    j["task_dir"] = task.dir.string();
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return ok ? 0 : 1;
  }
  std::printf("task    %s (%s): task.toml is valid; %zu check sizes, timed at %s\n", task.id.c_str(), task.dir.c_str(),
              task.checks.size(), evaluator::format_sizes(task.timed).c_str());
  if (!ok) {
    std::printf("ker0    %s: %s\n", evaluator::status_name(r.status), r.message.c_str());
    if (!r.compiler_output.empty()) std::printf("%s\n", r.compiler_output.substr(0, 2000).c_str());
    std::printf("next    fix ref.c or ker0.c, then run eok task check %s again\n", task.id.c_str());
    return 1;
  }
  std::printf("ker0    agrees with ref on every check size; %s modeled cycles on %s\n",
              with_commas(r.cycles.value_or(0)).c_str(), opt.board.c_str());
  std::printf("next    eok search --task %s\n", task.id.c_str());
  return 0;
}

}  // namespace

void add_task_command(CLI::App& app, const GlobalOptions& global, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("task", "Add a task of your own: eok task new, then eok task check.");
  cmd->require_subcommand(1);
  auto n = std::make_shared<NewOptions>();
  CLI::App* create = cmd->add_subcommand(
      "new",
      "Scaffold a task from its C signature: NAME/task.toml (buffers from the pointers: const is input, the\n"
      "others in-out; sizes from the size_t parameters; float scalars get a value), and ref.c and ker0.c to\n"
      "fill in. The folder is --dir, else the first of $EOK_TASKS_PATH, else ./tasks.\n\n"
      "Example:\n  eok task new saxpy_f32 --signature \"void saxpy_f32(float *y, const float *x, float a, size_t n)\"");
  create->add_option("name", n->name, "the task id: the entry function's name")->required();
  create->add_option("--signature", n->signature, "the C declaration of the entry function")->required();
  create->add_option("--dir", n->dir, "the tasks folder to write into");
  create->add_flag("--json", n->json, "print what was written as JSON");
  create->callback([n, &global, &exit_code] { exit_code = run_new(*n, global); });
  auto c = std::make_shared<CheckOptions>();
  CLI::App* check = cmd->add_subcommand(
      "check",
      "Validate a task (task.toml) and judge its ker0 against its ref on every check size on the board.\n"
      "Exit code 0 when ker0 is correct, 1 when not, 2-5 when the task itself is at fault.");
  check->add_option("name", c->name, "task id or name (found in $EOK_TASKS_PATH, then kernels/)")->required();
  check->add_option("--board,-b", c->board, "board profile")->capture_default_str();
  check->add_flag("--json", c->json, "print the evaluation as JSON");
  check->callback([c, &global, &exit_code] { exit_code = run_check(*c, global); });
}

}  // namespace eok::cli
