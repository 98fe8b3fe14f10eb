#include "evaluator/board.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <type_traits>

#include "src/common/toml_file.h"
#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::evaluator {

namespace fs = std::filesystem;

std::vector<std::string> list_boards(const fs::path& root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / "configs" / "boards", ec)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

std::vector<std::string> string_list(const toml::node_view<const toml::node>& node, const std::string& key,
                                     const std::function<void(const std::string&, const std::string&)>& fail) {
  std::vector<std::string> out;
  if (!node) return out;
  const auto* arr = node.as_array();
  if (!arr) fail(key, "expected a list of strings");
  for (const auto& e : *arr) {
    auto v = e.value<std::string>();
    if (!v) fail(key, "expected a list of strings");
    out.push_back(*v);
  }
  return out;
}

// A key as the board profile gives it: absent, `fallback` holds; present, it must have the fallback's type
// (vlen = "512" is an error, never a silent default), as config and task files are read.
template <class T>
T read_key(const toml::node_view<const toml::node>& node, const std::string& key, T fallback,
           const std::function<void(const std::string&, const std::string&)>& fail) {
  if (!node) return fallback;
  if constexpr (std::is_same_v<T, bool>) {
    if (auto v = node.value_exact<bool>()) return *v;
    fail(key, "expected true or false");
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (auto v = node.value_exact<std::string>()) return *v;
    fail(key, "expected a string (in quotes)");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (node.is_number()) return static_cast<T>(*node.value<double>());
    fail(key, "expected a number");
  } else {
    auto v = node.value_exact<int64_t>();
    if (!v) fail(key, "expected a whole number (without quotes)");
    if ((std::is_unsigned_v<T> && *v < 0) || *v > static_cast<int64_t>(std::numeric_limits<T>::max())) {
      fail(key, std::to_string(*v) + " is out of range");
    }
    return static_cast<T>(*v);
  }
  return fallback;
}

fs::path board_file(const fs::path& root, const std::string& name) {
  const bool is_path = name.find('/') != std::string::npos || fs::path(name).extension() == ".toml";
  const fs::path file = is_path ? fs::path(name) : root / "configs" / "boards" / (name + ".toml");
  if (!fs::exists(file)) {
    std::string known;
    for (const auto& b : list_boards(root)) known += " " + b;
    throw NotFoundError("unknown board '" + name + "' (no " + file.string() + "); boards:" + known +
                        "; or give the path of a board profile (.toml)");
  }
  return file;
}

// [ssh], [slurm] or [local] and [measure] of a real board.
void load_real_board(const toml::table& doc, BoardProfile& b,
                     const std::function<void(const std::string&, const std::string&)>& fail) {
  const std::string section = b.runner;
  const auto sec = doc[section];
  auto& r = b.remote;
  r.exec_prefix = string_list(sec["exec_prefix"] ? sec["exec_prefix"] : doc["exec_prefix"], "exec_prefix", fail);
  r.remote_dir = read_key(sec["remote_dir"], section + ".remote_dir", r.remote_dir, fail);
  r.timeout_seconds = read_key(sec["timeout_seconds"], section + ".timeout_seconds", r.timeout_seconds, fail);
  if (r.remote_dir.empty() || r.remote_dir.front() != '/') fail(section + ".remote_dir", "must be an absolute path");
  if (r.remote_dir.find_first_of(" '\"$`\\") != std::string::npos)
    fail(section + ".remote_dir", "must not contain spaces or quotes");
  if (r.timeout_seconds <= 0) fail(section + ".timeout_seconds", "must be positive");
  if (b.runner == "ssh") {
    r.hosts = string_list(sec["hosts"], "ssh.hosts", fail);
    if (r.hosts.empty()) fail("ssh.hosts", "list the boards, e.g. hosts = [\"user@k1-board:22\"]");
    for (const auto& h : r.hosts) {
      if (h.empty() || h.front() == '-' || h.find_first_of(" '\"") != std::string::npos)
        fail("ssh.hosts", "'" + h + "' is not user@host[:port]");
    }
    r.identity_file = read_key(sec["identity_file"], section + ".identity_file", std::string(), fail);
    r.options = string_list(sec["options"], "ssh.options", fail);
    r.reuse_connections = read_key(sec["reuse_connections"], section + ".reuse_connections", r.reuse_connections, fail);
  } else if (b.runner == "slurm") {
    r.partition = read_key(sec["partition"], section + ".partition", std::string(), fail);
    if (r.partition.empty()) fail("slurm.partition", "name the partition of board nodes");
    r.srun_args = string_list(sec["srun_args"], "slurm.srun_args", fail);
    r.shared_dir = read_key(sec["shared_dir"], section + ".shared_dir", std::string(), fail);
    if (!r.shared_dir.empty() && r.shared_dir.front() != '/') fail("slurm.shared_dir", "must be an absolute path");
    r.hosts = {"slurm:" + r.partition};
  } else {
    r.hosts = {"localhost"};
  }
  auto& m = b.measure;
  m.warmup = read_key(doc["measure"]["warmup"], "measure.warmup", m.warmup, fail);
  m.repeats = read_key(doc["measure"]["repeats"], "measure.repeats", m.repeats, fail);
  m.flush = read_key(doc["measure"]["flush"], "measure.flush", m.flush, fail);
  m.core = read_key(doc["measure"]["core"], "measure.core", m.core, fail);
  m.max_temperature_c =
      read_key(doc["measure"]["max_temperature_c"], "measure.max_temperature_c", m.max_temperature_c, fail);
  m.temperature_wait_seconds = read_key(doc["measure"]["temperature_wait_seconds"], "measure.temperature_wait_seconds",
                                        m.temperature_wait_seconds, fail);
  if (m.repeats < 1 || m.repeats > 101) fail("measure.repeats", "must be between 1 and 101");
  if (m.warmup > 100) fail("measure.warmup", "must be at most 100");
  if (m.core < -1) fail("measure.core", "a core number, or -1 for none");
}

}  // namespace

BoardProfile load_board(const fs::path& root, const std::string& name) {
  const fs::path file = board_file(root, name);
  const toml::table doc = parse_toml_file(file);
  auto fail = [&](const std::string& key, const std::string& why) -> void {
    throw ConfigError(file.string() + ": " + key + ": " + why);
  };
  const std::string runner = read_key(doc["runner"], "runner", std::string("qemu"), fail);
  if (runner != "qemu" && runner != "ssh" && runner != "slurm" && runner != "local") {
    fail("runner", "expected qemu (the virtual board), ssh, slurm or local");
  }
  BoardProfile b;
  if (runner != "qemu") {
    // A real board takes its twin's emulator, caches and models; its own keys below override the rest.
    const std::string twin = read_key(doc["virtual_board"], "virtual_board", std::string("k1"), fail);
    if (parse_toml_file(board_file(root, twin))["runner"].value_or(std::string("qemu")) != "qemu") {
      fail("virtual_board", "'" + twin + "' is a real board; name a virtual one (runner = \"qemu\")");
    }
    b = load_board(root, twin);
    b.virtual_board = twin;
    b.description.clear();
  }
  b.file = fs::absolute(file);
  b.name = read_key(doc["name"], "name", file.stem().string(), fail);
  b.description = read_key(doc["description"], "description", b.description, fail);
  b.runner = runner;
  b.march = read_key(doc["march"], "march", b.march.empty() ? std::string("rv64gcv") : b.march, fail);
  if (doc["extensions"]) b.extensions = string_list(doc["extensions"], "extensions", fail);
  b.tune = read_key(doc["tune"], "tune", b.tune, fail);
  // A CPU name clang knows (clang -mtune=NAME; `clang-22 --target=riscv64-linux-gnu --print-supported-cpus`),
  // never a flag of its own.
  if (!b.tune.empty() && (b.tune.front() == '-' || !std::all_of(b.tune.begin(), b.tune.end(), [](char ch) {
                            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
                          }))) {
    fail("tune", "'" + b.tune + "' is not a CPU name (e.g. \"spacemit-x60\")");
  }
  b.vlen = read_key(doc["vlen"], "vlen", b.vlen, fail);
  b.clock_ghz = read_key(doc["clock_ghz"], "clock_ghz", b.clock_ghz, fail);
  b.cores = read_key(doc["cores"], "cores", runner == "qemu" ? 1u : b.cores, fail);
  if (runner != "qemu") {
    load_real_board(doc, b, fail);
    return b;
  }
  b.qemu.binary = read_key(doc["qemu"]["binary"], "qemu.binary", b.qemu.binary, fail);
  b.qemu.cpu = read_key(doc["qemu"]["cpu"], "qemu.cpu", std::string(), fail);
  b.qemu.timeout_seconds =
      read_key(doc["qemu"]["timeout_seconds"], "qemu.timeout_seconds", b.qemu.timeout_seconds, fail);
  b.qemu.memory_mib = read_key(doc["qemu"]["memory_mib"], "qemu.memory_mib", b.qemu.memory_mib, fail);
  if (b.qemu.cpu.empty()) fail("qemu.cpu", "missing (e.g. \"rv64,v=true,vlen=256\")");
  auto& c = b.cache;
  c.line_bytes = read_key(doc["cache"]["line_bytes"], "cache.line_bytes", c.line_bytes, fail);
  c.l1_kib = read_key(doc["cache"]["l1_kib"], "cache.l1_kib", c.l1_kib, fail);
  c.l1_ways = read_key(doc["cache"]["l1_ways"], "cache.l1_ways", c.l1_ways, fail);
  c.l2_kib = read_key(doc["cache"]["l2_kib"], "cache.l2_kib", c.l2_kib, fail);
  c.l2_ways = read_key(doc["cache"]["l2_ways"], "cache.l2_ways", c.l2_ways, fail);
  c.l2_policy = read_key(doc["cache"]["l2_policy"], "cache.l2_policy", c.l2_policy, fail);
  if (c.l2_policy != "lru" && c.l2_policy != "random") fail("cache.l2_policy", "must be \"lru\" or \"random\"");
  if (doc["cache"]["flush_before_timed_run"]) {
    fail("cache.flush_before_timed_run",
         "moved to [protocol] flush_before_timed_call (with warmup_calls and timed_calls)");
  }
  if (doc["memory"])
    fail("memory",
         "the memory model is fitted now: set [cost_model] memory = \"evaluator/cost_model/x60_memory.json\"");
  auto& pr = b.protocol;
  pr.warmup_calls = read_key(doc["protocol"]["warmup_calls"], "protocol.warmup_calls", pr.warmup_calls, fail);
  pr.timed_calls = read_key(doc["protocol"]["timed_calls"], "protocol.timed_calls", pr.timed_calls, fail);
  pr.flush_before_timed_call = read_key(doc["protocol"]["flush_before_timed_call"], "protocol.flush_before_timed_call",
                                        pr.flush_before_timed_call, fail);
  if (pr.timed_calls < 1 || pr.timed_calls > 15) fail("protocol.timed_calls", "must be between 1 and 15");
  if (pr.warmup_calls > 15) fail("protocol.warmup_calls", "must be at most 15");
  auto pow2 = [](unsigned v) { return v != 0 && (v & (v - 1)) == 0; };
  if (!pow2(c.line_bytes) || c.l1_ways == 0 || c.l2_ways == 0 || !pow2(c.l1_sets()) || !pow2(c.l2_sets())) {
    fail("cache", "sizes must give a power-of-two number of sets with power-of-two lines");
  }
  std::string table = read_key(doc["cost_model"]["table"], "cost_model.table",
                               std::string("evaluator/cost_model/x60_table.json"), fail);
  b.cost_table = fs::path(table).is_absolute() ? fs::path(table) : root / table;
  std::string memory = read_key(doc["cost_model"]["memory"], "cost_model.memory",
                                std::string("evaluator/cost_model/x60_memory.json"), fail);
  b.memory_model = fs::path(memory).is_absolute() ? fs::path(memory) : root / memory;
  return b;
}

void keep_board_profile(const fs::path& root, const fs::path& kept_dir, const BoardProfile& board) {
  if (board.file.parent_path() == fs::absolute(root / "configs" / "boards")) return;
  fs::create_directories(kept_dir);
  write_file_atomic(kept_dir / (board.name + ".toml"), read_file(board.file));
}

std::string recorded_board_profile(const fs::path& root, const fs::path& kept_dir, const std::string& name) {
  const fs::path kept = kept_dir / (name + ".toml");
  if (!fs::exists(root / "configs" / "boards" / (name + ".toml")) && fs::exists(kept)) return kept.string();
  return name;
}

std::string effective_march(const BoardProfile& board, const std::string& task_march) {
  // Extensions after the base string, e.g. rv64gcv_zfh_zvfh -> {zfh, zvfh}.
  std::string base = task_march.substr(0, task_march.find('_'));
  if (base.find('v') != std::string::npos && board.march.find('v') == std::string::npos) {
    throw ConfigError("task needs the V extension but board " + board.name + " has march " + board.march);
  }
  size_t pos = task_march.find('_');
  while (pos != std::string::npos) {
    size_t next = task_march.find('_', pos + 1);
    std::string ext = task_march.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
    if (std::find(board.extensions.begin(), board.extensions.end(), ext) == board.extensions.end()) {
      throw ConfigError("task needs extension " + ext + " but board " + board.name + " lists only its extensions in " +
                        board.file.string());
    }
    pos = next;
  }
  return task_march;
}

}  // namespace eok::evaluator
