#include "evaluator/board.h"


#include <algorithm>
#include <cctype>

#include "src/common/toml_file.h"
#include "src/common/error.h"

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

BoardProfile load_board(const fs::path& root, const std::string& name) {
  const fs::path file = root / "configs" / "boards" / (name + ".toml");
  if (!fs::exists(file)) {
    std::string known;
    for (const auto& b : list_boards(root)) known += " " + b;
    throw NotFoundError("unknown board '" + name + "' (no " + file.string() + "); boards:" + known);
  }
  const toml::table doc = parse_toml_file(file);
  auto fail = [&](const std::string& key, const std::string& why) -> void {
    throw ConfigError(file.string() + ": " + key + ": " + why);
  };
  BoardProfile b;
  b.file = file;
  b.name = doc["name"].value_or(name);
  b.description = doc["description"].value_or(std::string());
  b.runner = doc["runner"].value_or(std::string("qemu"));
  if (b.runner != "qemu" && b.runner != "ssh" && b.runner != "local") fail("runner", "expected qemu, ssh or local");
  b.march = doc["march"].value_or(std::string("rv64gcv"));
  if (const auto* ext = doc["extensions"].as_array()) {
    for (const auto& e : *ext) b.extensions.push_back(e.value_or(std::string()));
  }
  b.tune = doc["tune"].value_or(std::string());
  // A CPU name clang knows (clang -mtune=NAME; `clang-22 --target=riscv64-linux-gnu --print-supported-cpus`),
  // never a flag of its own.
  if (!b.tune.empty() && (b.tune.front() == '-' || !std::all_of(b.tune.begin(), b.tune.end(), [](char ch) {
                            return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
                          }))) {
    fail("tune", "'" + b.tune + "' is not a CPU name (e.g. \"spacemit-x60\")");
  }
  b.vlen = doc["vlen"].value_or(256u);
  b.clock_ghz = doc["clock_ghz"].value_or(1.6);
  b.cores = doc["cores"].value_or(1u);
  b.qemu.binary = doc["qemu"]["binary"].value_or(b.qemu.binary);
  b.qemu.cpu = doc["qemu"]["cpu"].value_or(std::string());
  b.qemu.timeout_seconds = doc["qemu"]["timeout_seconds"].value_or(b.qemu.timeout_seconds);
  b.qemu.memory_mib = doc["qemu"]["memory_mib"].value_or(b.qemu.memory_mib);
  if (b.runner == "qemu" && b.qemu.cpu.empty()) fail("qemu.cpu", "missing (e.g. \"rv64,v=true,vlen=256\")");
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
