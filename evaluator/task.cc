#include "evaluator/task.h"

#include <map>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "evaluator/target/harness_protocol.h"
#include "src/common/toml_file.h"
#include "src/common/error.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

size_t elem_size(ElemType t) {
  switch (t) {
    case ElemType::f16:
    case ElemType::i16:
    case ElemType::u16:
      return 2;
    case ElemType::f32:
    case ElemType::i32:
    case ElemType::u32:
      return 4;
    case ElemType::f64:
    case ElemType::i64:
    case ElemType::u64:
      return 8;
    default:
      return 1;
  }
}

bool elem_is_float(ElemType t) {
  return t == ElemType::f16 || t == ElemType::f32 || t == ElemType::f64;
}

const char* elem_name(ElemType t) {
  static const char* names[] = {"?", "f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"};
  return names[static_cast<int>(t)];
}

const char* elem_c_type(ElemType t) {
  static const char* names[] = {"?",       "_Float16", "float",   "double",   "int8_t",   "int16_t",
                                "int32_t", "int64_t",  "uint8_t", "uint16_t", "uint32_t", "uint64_t"};
  return names[static_cast<int>(t)];
}

const char* dist_name(Dist d) {
  switch (d) {
    case Dist::uniform:
      return "uniform";
    case Dist::sorted:
      return "sorted";
    case Dist::nearly_sorted:
      return "nearly_sorted";
    case Dist::offsets:
      return "offsets";
  }
  return "?";
}

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A whole-string number ("-10", "0.5", "1e-3"); false for anything else (a size expression).
bool parse_number(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

struct Loader {
  fs::path file;

  [[noreturn]] void fail(const std::string& where, const std::string& why) const {
    throw ConfigError(file.string() + ": " + where + ": " + why);
  }

  std::string str(const toml::table& t, const char* key, const std::string& where, bool required = true) const {
    if (auto v = t[key].value<std::string>()) return *v;
    if (required) fail(where, std::string("missing string '") + key + "'");
    return {};
  }

  static std::optional<ElemType> parse_elem(const std::string& s) {
    static const std::pair<const char*, ElemType> table[] = {
        {"f16", ElemType::f16},      {"_Float16", ElemType::f16}, {"f32", ElemType::f32},
        {"float", ElemType::f32},    {"f64", ElemType::f64},      {"double", ElemType::f64},
        {"i8", ElemType::i8},        {"int8_t", ElemType::i8},    {"i16", ElemType::i16},
        {"int16_t", ElemType::i16},  {"i32", ElemType::i32},      {"int32_t", ElemType::i32},
        {"int", ElemType::i32},      {"i64", ElemType::i64},      {"int64_t", ElemType::i64},
        {"long", ElemType::i64},     {"u8", ElemType::u8},        {"uint8_t", ElemType::u8},
        {"u16", ElemType::u16},      {"uint16_t", ElemType::u16}, {"u32", ElemType::u32},
        {"uint32_t", ElemType::u32}, {"unsigned", ElemType::u32}, {"u64", ElemType::u64},
        {"uint64_t", ElemType::u64}, {"size_t", ElemType::u64},
    };
    for (const auto& [name, t] : table) {
      if (s == name) return t;
    }
    return std::nullopt;
  }

  Tolerance tolerance(toml::node_view<const toml::node> node) const {
    static const struct {
      const char* name;
      double atol, rtol;
    } classes[] = {{"exact", 0, 0},
                   {"f32_arith", 1e-6, 1e-6},
                   {"f32_transcendental", 1e-5, 1e-5},
                   {"f32_composite", 1e-5, 1e-4},
                   {"f32_accum", 1e-4, 1e-4},
                   {"f16_simple", 1e-3, 1e-3},
                   {"f16_transcendental", 5e-3, 5e-3},
                   {"f16_accum", 2e-2, 2e-2}};
    if (auto name = node.value<std::string>()) {
      for (const auto& c : classes) {
        if (*name == c.name) return {c.name, c.atol, c.rtol};
      }
      fail("tolerance", "unknown class '" + *name + "' (see kernels/README.md)");
    }
    if (const auto* t = node.as_table()) {
      auto atol = (*t)["atol"].value<double>(), rtol = (*t)["rtol"].value<double>();
      if (!atol || !rtol || *atol < 0 || *rtol < 0) fail("tolerance", "expected { atol = X, rtol = Y }, both >= 0");
      return {"custom", *atol, *rtol};
    }
    fail("tolerance", "missing: a class name or { atol, rtol }");
  }

  void parse_dist(ArgSpec& a, const std::string& dist, const std::string& where) const {
    static const std::pair<const char*, Dist> kinds[] = {{"uniform", Dist::uniform},
                                                         {"sorted", Dist::sorted},
                                                         {"nearly_sorted", Dist::nearly_sorted},
                                                         {"offsets", Dist::offsets}};
    const std::string expected = "expected uniform(lo, hi), sorted(lo, hi), nearly_sorted(lo, hi) or offsets(lo, hi)";
    const auto open = dist.find('('), comma = dist.find(','), close = dist.rfind(')');
    if (open == std::string::npos || comma == std::string::npos || close == std::string::npos ||
        !(open < comma && comma < close) || dist.find_first_not_of(" \t", close + 1) != std::string::npos) {
      fail(where, "dist '" + dist + "': " + expected);
    }
    const std::string kind = trim(dist.substr(0, open));
    const auto it = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto& k) { return kind == k.first; });
    if (it == std::end(kinds)) fail(where, "dist '" + dist + "': " + expected);
    a.dist = it->second;
    a.lo = trim(dist.substr(open + 1, comma - open - 1));
    a.hi = trim(dist.substr(comma + 1, close - comma - 1));
    if (a.lo.empty() || a.hi.empty()) fail(where, "dist '" + dist + "': " + expected);
    if (a.dist != Dist::uniform && elem_is_float(a.type) && a.specials) fail(where, "specials need a uniform dist");
    // Numeric bounds are checked now; size-expression bounds when a case is planned.
    double lo = 0, hi = 0;
    if (parse_number(a.lo, lo) && parse_number(a.hi, hi) && !(lo <= hi))
      fail(where, "dist '" + dist + "': lo must be <= hi");
  }

  unsigned parse_specials(const toml::array& arr, const std::string& where) const {
    unsigned bits = 0;
    for (const auto& el : arr) {
      auto s = el.value<std::string>();
      if (!s) fail(where, "specials: expected strings");
      if (*s == "nan")
        bits |= EOK_SPECIAL_NAN;
      else if (*s == "inf")
        bits |= EOK_SPECIAL_INF;
      else if (*s == "-inf")
        bits |= EOK_SPECIAL_NEG_INF;
      else if (*s == "zero")
        bits |= EOK_SPECIAL_ZERO;
      else if (*s == "huge")
        bits |= EOK_SPECIAL_HUGE;
      else
        fail(where, "specials: unknown '" + *s + "' (nan, inf, -inf, zero, huge)");
    }
    return bits;
  }

  ArgSpec arg(const toml::table& t, size_t index) const {
    const std::string where = "args[" + std::to_string(index) + "]";
    ArgSpec a;
    a.name = str(t, "name", where);
    const std::string kind = str(t, "kind", where);
    const std::string type = str(t, "type", where);
    auto et = parse_elem(type);
    if (!et) fail(where, "unknown type '" + type + "'");
    a.type = *et;
    if (kind == "buffer") {
      a.is_buffer = true;
      a.len = str(t, "len", where);
      const std::string access = str(t, "access", where);
      if (access == "in")
        a.access = Access::in;
      else if (access == "out")
        a.access = Access::out;
      else if (access == "inout")
        a.access = Access::inout;
      else
        fail(where, "access '" + access + "': expected in, out or inout");
      if (const auto* sp = t["specials"].as_array()) a.specials = parse_specials(*sp, where);
      if (a.access != Access::out) parse_dist(a, str(t, "dist", where), where);
    } else if (kind == "scalar") {
      a.c_type = type;
      if (auto v = t["value"].value<std::string>())
        a.value = *v;
      else if (auto d = t["value"].value<double>())
        a.value = std::to_string(*d);
      else
        fail(where, "scalar needs a value (a size expression)");
    } else {
      fail(where, "kind '" + kind + "': expected buffer or scalar");
    }
    return a;
  }

  SizeParams sizes(const toml::table& t, const std::string& where) const {
    SizeParams p;
    for (const auto& [k, v] : t) {
      auto i = v.value<int64_t>();
      if (!i || *i < 0) fail(where, "size '" + std::string(k.str()) + "' must be a non-negative integer");
      p[std::string(k.str())] = *i;
    }
    return p;
  }
};

size_t count_params(const std::string& signature) {
  auto open = signature.find('('), close = signature.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return 0;
  std::string inner = signature.substr(open + 1, close - open - 1);
  if (inner.find_first_not_of(" \t") == std::string::npos || inner == "void") return 0;
  return static_cast<size_t>(std::count(inner.begin(), inner.end(), ',')) + 1;
}

}  // namespace

double eval_dist_bound(const std::string& bound, const SizeParams& sizes) {
  double v = 0;
  return parse_number(bound, v) ? v : static_cast<double>(eval_size_expr(bound, sizes));
}

Task load_task(const fs::path& dir) {
  const fs::path file = dir / "task.toml";
  if (!fs::exists(file)) throw NotFoundError("no task.toml in " + dir.string());
  Loader L{file};
  const toml::table doc = parse_toml_file(file);
  Task t;
  t.dir = fs::absolute(dir);
  t.id = L.str(doc, "id", "top level");
  if (t.id != dir.filename().string())
    L.fail("id", "'" + t.id + "' must equal the folder name '" + dir.filename().string() + "'");
  t.name = L.str(doc, "name", "top level");
  t.group = L.str(doc, "group", "top level");
  if (t.group != "nn" && t.group != "general") L.fail("group", "expected nn or general");
  t.category = L.str(doc, "category", "top level", false);
  t.dtype = L.str(doc, "dtype", "top level");
  t.march = L.str(doc, "march", "top level");
  if (t.march.rfind("rv64", 0) != 0) L.fail("march", "'" + t.march + "' is not an rv64 -march string");
  t.entry = L.str(doc, "entry", "top level");
  t.signature = L.str(doc, "signature", "top level");
  if (t.signature.find(t.entry + "(") == std::string::npos)
    L.fail("signature", "does not declare " + t.entry + "(...)");
  t.approach = L.str(doc, "approach", "top level", false);
  t.tolerance = L.tolerance(doc["tolerance"]);
  t.flops = L.str(doc, "flops", "top level", false);
  t.bytes = L.str(doc, "bytes", "top level", false);

  const auto* args = doc["args"].as_array();
  if (!args || args->empty()) L.fail("args", "at least one [[args]] table is required");
  for (size_t i = 0; i < args->size(); ++i) {
    const auto* at = (*args)[i].as_table();
    if (!at) L.fail("args", "every entry must be a table");
    t.args.push_back(L.arg(*at, i));
  }
  if (t.args.size() > EOK_MAX_ARGS) L.fail("args", "at most " + std::to_string(EOK_MAX_ARGS) + " arguments");
  if (count_params(t.signature) != t.args.size()) {
    L.fail("signature", "declares " + std::to_string(count_params(t.signature)) + " parameters but [[args]] lists " +
                            std::to_string(t.args.size()));
  }
  if (const auto* ret = doc["returns"].as_table()) {
    auto et = Loader::parse_elem(L.str(*ret, "type", "returns"));
    if (!et) L.fail("returns", "unknown type");
    t.returns = *et;
  }
  const auto* sizes = doc["sizes"].as_table();
  if (!sizes) L.fail("sizes", "missing [sizes]");
  const auto* timed = (*sizes)["timed"].as_table();
  if (!timed) L.fail("sizes.timed", "missing");
  t.timed = L.sizes(*timed, "sizes.timed");
  const auto* checks = (*sizes)["check"].as_array();
  if (!checks || checks->empty()) L.fail("sizes.check", "at least one check size is required");
  for (const auto& c : *checks) {
    const auto* ct = c.as_table();
    if (!ct) L.fail("sizes.check", "every entry must be a table");
    t.checks.push_back(L.sizes(*ct, "sizes.check"));
  }
  // Every expression must evaluate at every size: catches typos at load time, not mid-evaluation.
  std::vector<SizeParams> all = t.checks;
  all.push_back(t.timed);
  for (const auto& p : all) {
    for (const auto& a : t.args) {
      try {
        if (a.is_buffer && eval_size_expr(a.len, p) < 0)
          L.fail("args." + a.name, "negative length at " + format_sizes(p));
        if (!a.is_buffer && !elem_is_float(a.type)) eval_size_expr(a.value, p);
      } catch (const ConfigError& e) {
        L.fail("args." + a.name, e.what());
      }
    }
  }
  return t;
}

std::vector<std::string> list_task_ids(const fs::path& kernels_dir) {
  std::vector<std::string> ids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(kernels_dir, ec)) {
    if (entry.is_directory() && fs::exists(entry.path() / "task.toml")) ids.push_back(entry.path().filename().string());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<Task> load_tasks(const fs::path& kernels_dir,
                             const std::function<void(const std::string& id, const std::string& why)>& on_broken) {
  std::vector<Task> tasks;
  for (const auto& id : list_task_ids(kernels_dir)) {
    try {
      tasks.push_back(load_task(kernels_dir / id));
    } catch (const Error& e) {
      on_broken(id, e.what());
    }
  }
  return tasks;
}

namespace {

ResolvedTask resolve_among(const std::vector<std::string>& ids, const std::string& name);

}  // namespace

std::vector<fs::path> task_dirs(const fs::path& root) {
  std::vector<fs::path> dirs;
  if (const char* path = std::getenv("EOK_TASKS_PATH"); path && *path) {
    const std::string list = path;
    for (size_t at = 0; at <= list.size();) {
      const size_t end = std::min(list.find(':', at), list.size());
      if (end > at) dirs.emplace_back(list.substr(at, end - at));
      at = end + 1;
    }
  }
  dirs.push_back(root / "kernels");
  return dirs;
}

Task find_task(const fs::path& root, const std::string& name, std::string* note) {
  std::vector<std::string> ids;
  std::map<std::string, fs::path> where;  // id -> the first folder holding it
  for (const auto& dir : task_dirs(root)) {
    for (const auto& id : list_task_ids(dir)) {
      if (where.emplace(id, dir / id).second) ids.push_back(id);
    }
  }
  std::sort(ids.begin(), ids.end());
  const ResolvedTask r = resolve_among(ids, name);
  if (note) *note = r.note;
  return load_task(where.at(r.id));
}

ResolvedTask resolve_task_id(const fs::path& kernels_dir, const std::string& name) {
  return resolve_among(list_task_ids(kernels_dir), name);
}

namespace {

ResolvedTask resolve_among(const std::vector<std::string>& ids, const std::string& name) {
  if (std::find(ids.begin(), ids.end(), name) != ids.end()) return {name, ""};
  if (std::find(ids.begin(), ids.end(), name + "_f32") != ids.end()) {
    return {name + "_f32", "task '" + name + "' resolves to " + name + "_f32"};
  }
  std::vector<std::string> prefixed;
  for (const auto& id : ids) {
    if (id.rfind(name + "_", 0) == 0) prefixed.push_back(id);
  }
  if (prefixed.size() == 1) return {prefixed[0], "task '" + name + "' resolves to " + prefixed[0]};
  std::string msg = "unknown task '" + name + "'";
  std::vector<std::string> close = prefixed;
  if (close.empty()) {
    for (const auto& id : ids) {
      if (id.find(name) != std::string::npos || name.find(id.substr(0, id.find('_'))) != std::string::npos)
        close.push_back(id);
    }
  }
  if (!close.empty()) {
    msg += "; did you mean:";
    for (const auto& c : close) msg += " " + c;
  }
  msg += " (eok tasks lists all " + std::to_string(ids.size()) +
         "; a task of your own is found once EOK_TASKS_PATH names its folder)";
  throw NotFoundError(msg);
}

}  // namespace

}  // namespace eok::evaluator
