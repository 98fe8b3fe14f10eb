#include "evaluator/board.h"


#include <algorithm>
#include <cctype>
#include <functional>

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
  r.remote_dir = sec["remote_dir"].value_or(r.remote_dir);
  r.timeout_seconds = sec["timeout_seconds"].value_or(r.timeout_seconds);
  if (r.remote_dir.empty() || r.remote_dir.front() != '/') fail(section + ".remote_dir", "must be an absolute path");
  if (r.remote_dir.find_first_of(" '\"$`\\") != std::string::npos) fail(section + ".remote_dir", "must not contain spaces or quotes");
  if (r.timeout_seconds <= 0) fail(section + ".timeout_seconds", "must be positive");
  if (b.runner == "ssh") {
    r.hosts = string_list(sec["hosts"], "ssh.hosts", fail);
    if (r.hosts.empty()) fail("ssh.hosts", "list the boards, e.g. hosts = [\"user@k1-board:22\"]");
    for (const auto& h : r.hosts) {
      if (h.empty() || h.front() == '-' || h.find_first_of(" '\"") != std::string::npos) fail("ssh.hosts", "'" + h + "' is not user@host[:port]");
    }
    r.identity_file = sec["identity_file"].value_or(std::string());
    r.options = string_list(sec["options"], "ssh.options", fail);
    r.reuse_connections = sec["reuse_connections"].value_or(r.reuse_connections);
  } else if (b.runner == "slurm") {
    r.partition = sec["partition"].value_or(std::string());
    if (r.partition.empty()) fail("slurm.partition", "name the partition of board nodes");
    r.srun_args = string_list(sec["srun_args"], "slurm.srun_args", fail);
    r.shared_dir = sec["shared_dir"].value_or(std::string());
    if (!r.shared_dir.empty() && r.shared_dir.front() != '/') fail("slurm.shared_dir", "must be an absolute path");
    r.hosts = {"slurm:" + r.partition};
  } else {
    r.hosts = {"localhost"};
  }
  auto& m = b.measure;
  m.warmup = doc["measure"]["warmup"].value_or(m.warmup);
  m.repeats = doc["measure"]["repeats"].value_or(m.repeats);
  m.flush = doc["measure"]["flush"].value_or(m.flush);
  m.core = doc["measure"]["core"].value_or(m.core);
  m.max_temperature_c = doc["measure"]["max_temperature_c"].value_or(m.max_temperature_c);
  m.temperature_wait_seconds = doc["measure"]["temperature_wait_seconds"].value_or(m.temperature_wait_seconds);
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
  const std::string runner = doc["runner"].value_or(std::string("qemu"));
  if (runner != "qemu" && runner != "ssh" && runner != "slurm" && runner != "local") {
    fail("runner", "expected qemu (the virtual board), ssh, slurm or local");
  }
  BoardProfile b;
  if (runner != "qemu") {
    // A real board takes its twin's emulator, caches and models; its own keys below override the rest.
    const std::string twin = doc["virtual_board"].value_or(std::string("k1"));
    if (parse_toml_file(board_file(root, twin))["runner"].value_or(std::string("qemu")) != "qemu") {
      fail("virtual_board", "'" + twin + "' is a real board; name a virtual one (runner = \"qemu\")");
    }
    b = load_board(root, twin);
    b.virtual_board = twin;
    b.description.clear();
  }
  b.file = fs::absolute(file);
  b.name = doc["name"].value_or(file.stem().string());
  b.description = doc["description"].value_or(b.description);
  b.runner = runner;
  b.march = doc["march"].value_or(b.march.empty() ? std::string("rv64gcv") : b.march);
  if (const auto* ext = doc["extensions"].as_array()) {
    b.extensions.clear();
    for (const auto& e : *ext) b.extensions.push_back(e.value_or(std::string()));
  }
  b.tune = doc["tune"].value_or(b.tune);
  // A CPU name clang knows (clang -mtune=NAME; `clang-22 --target=riscv64-linux-gnu --print-supported-cpus`),
  // never a flag of its own.
  if (!b.tune.empty() && (b.tune.front() == '-' || !std::all_of(b.tune.begin(), b.tune.end(), [](char ch) {
                            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
                          }))) {
    fail("tune", "'" + b.tune + "' is not a CPU name (e.g. \"spacemit-x60\")");
  }
  b.vlen = doc["vlen"].value_or(b.vlen);
  b.clock_ghz = doc["clock_ghz"].value_or(b.clock_ghz);
  b.cores = doc["cores"].value_or(runner == "qemu" ? 1u : b.cores);
  if (runner != "qemu") {
    load_real_board(doc, b, fail);
    return b;
  }
  b.qemu.binary = doc["qemu"]["binary"].value_or(b.qemu.binary);
  b.qemu.cpu = doc["qemu"]["cpu"].value_or(std::string());
  b.qemu.timeout_seconds = doc["qemu"]["timeout_seconds"].value_or(b.qemu.timeout_seconds);
  b.qemu.memory_mib = doc["qemu"]["memory_mib"].value_or(b.qemu.memory_mib);
  if (b.qemu.cpu.empty()) fail("qemu.cpu", "missing (e.g. \"rv64,v=true,vlen=256\")");
  auto& c = b.cache;
  c.line_bytes = doc["cache"]["line_bytes"].value_or(c.line_bytes);
  c.l1_kib = doc["cache"]["l1_kib"].value_or(c.l1_kib);
  c.l1_ways = doc["cache"]["l1_ways"].value_or(c.l1_ways);
  c.l2_kib = doc["cache"]["l2_kib"].value_or(c.l2_kib);
  c.l2_ways = doc["cache"]["l2_ways"].value_or(c.l2_ways);
  c.l2_policy = doc["cache"]["l2_policy"].value_or(c.l2_policy);
  if (c.l2_policy != "lru" && c.l2_policy != "random") fail("cache.l2_policy", "must be \"lru\" or \"random\"");
  if (doc["cache"]["flush_before_timed_run"]) {
    fail("cache.flush_before_timed_run", "moved to [protocol] flush_before_timed_call (with warmup_calls and timed_calls)");
  }
  if (doc["memory"]) fail("memory", "the memory model is fitted now: set [cost_model] memory = \"evaluator/cost_model/x60_memory.json\"");
  auto& pr = b.protocol;
  pr.warmup_calls = doc["protocol"]["warmup_calls"].value_or(pr.warmup_calls);
  pr.timed_calls = doc["protocol"]["timed_calls"].value_or(pr.timed_calls);
  pr.flush_before_timed_call = doc["protocol"]["flush_before_timed_call"].value_or(pr.flush_before_timed_call);
  if (pr.timed_calls < 1 || pr.timed_calls > 15) fail("protocol.timed_calls", "must be between 1 and 15");
  if (pr.warmup_calls > 15) fail("protocol.warmup_calls", "must be at most 15");
  auto pow2 = [](unsigned v) { return v != 0 && (v & (v - 1)) == 0; };
  if (!pow2(c.line_bytes) || c.l1_ways == 0 || c.l2_ways == 0 || !pow2(c.l1_sets()) || !pow2(c.l2_sets())) {
    fail("cache", "sizes must give a power-of-two number of sets with power-of-two lines");
  }
  std::string table = doc["cost_model"]["table"].value_or(std::string("evaluator/cost_model/x60_table.json"));
  b.cost_table = fs::path(table).is_absolute() ? fs::path(table) : root / table;
  std::string memory = doc["cost_model"]["memory"].value_or(std::string("evaluator/cost_model/x60_memory.json"));
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
