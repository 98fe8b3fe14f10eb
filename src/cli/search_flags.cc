#include "src/cli/search_flags.h"

#include <array>
#include <cstdio>
#include <type_traits>
#include <variant>

namespace eok::cli {

namespace {

using Field = std::variant<std::string SearchFlags::*, std::optional<int64_t> SearchFlags::*,
                           std::optional<double> SearchFlags::*>;

struct FlagSpec {
  const char* name;  // "--top-k"; CLI11 aliases may follow ("--board,-b")
  const char* key;   // the configuration key it sets, or nullptr
  Field field;
  const char* help;
  bool per_task = false;                  // under eok bench run, the value applies to each task's search on its own
  const char* every_task_help = nullptr;  // the help under eok bench run, when it differs
};

// Every search flag, in the order `eok search --help` lists them and arguments() writes them.
const std::array kFlags = {
    FlagSpec{"--method", "search.method", &SearchFlags::method,
             "eok (LLM + idea pool), eoh (LLM, no pool), tuner (no LLM), or auto (eok with an LLM and an idea "
             "pool, eoh with an LLM, else tuner)",
             false, "tuner (no LLM; the default), eoh (LLM) or eok (LLM + idea pool)"},
    FlagSpec{"--board,-b", nullptr, &SearchFlags::board,
             "board profile: a name under configs/boards/ (k1: the virtual K1) or the path of a .toml; on a real "
             "board kernels are checked on its virtual twin and timed on the board"},
    FlagSpec{"--config", nullptr, &SearchFlags::config_file, "a TOML file of settings over configs/eok.toml"},
    FlagSpec{"--pool", "search.pool", &SearchFlags::pool,
             "idea pool JSON (default: the workspace's latest mined pool): the paper's idea-pool ablation"},
    FlagSpec{"--thought-sampling", "search.thought_sampling", &SearchFlags::thought_sampling,
             "softmax (weighted by effectiveness, the default) or uniform: the paper's sampling ablation"},
    FlagSpec{"--rag", "search.rag", &SearchFlags::rag,
             "retrieval into prompts: both (default), docs, code or none: the paper's RAG ablation"},
    FlagSpec{"--iterations", "search.iterations", &SearchFlags::iterations, "EoK iterations (search.iterations)"},
    FlagSpec{"--parallel", "search.parallel", &SearchFlags::parallel,
             "parallel EoH searches per iteration (search.parallel)"},
    FlagSpec{"--population", "search.population", &SearchFlags::population, "EoH population size (search.population)"},
    FlagSpec{"--generations", "search.generations", &SearchFlags::generations, "EoH generations (search.generations)"},
    FlagSpec{"--top-k", "search.top_k", &SearchFlags::top_k, "kernels kept for parent sampling (search.top_k)", true},
    FlagSpec{"--seed", "search.seed", &SearchFlags::seed,
             "seed of every random choice (default: drawn and recorded with the run)", true},
    FlagSpec{"--max-llm-calls", "budget.max_llm_calls", &SearchFlags::max_llm_calls,
             "stop after this many LLM requests", true},
    FlagSpec{"--max-tokens", "budget.max_tokens", &SearchFlags::max_tokens, "stop after this many tokens", true},
    FlagSpec{"--max-cost", "budget.max_cost", &SearchFlags::max_cost,
             "stop after this cost (llm.price_* set the prices)", true},
};

// "--board,-b" -> "--board"
std::string long_name(const FlagSpec& spec) {
  const std::string name = spec.name;
  return name.substr(0, name.find(','));
}

// The value as the search reads it back: integers as they are, costs to the last bit.
std::string text_of(int64_t v) {
  return std::to_string(v);
}
std::string text_of(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The value of the flag's field as text, or nullopt when the flag was not given.
std::optional<std::string> given_value(const SearchFlags& flags, const FlagSpec& spec) {
  return std::visit(
      [&](auto field) -> std::optional<std::string> {
        const auto& value = flags.*field;
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
          if (value.empty()) return std::nullopt;
          return value;
        } else {
          if (!value) return std::nullopt;
          return text_of(*value);
        }
      },
      spec.field);
}

}  // namespace

void SearchFlags::declare(CLI::App& cmd, Scope scope) {
  for (const FlagSpec& spec : kFlags) {
    const bool every_task = scope == Scope::every_task;
    const std::string help = std::string(every_task && spec.every_task_help ? spec.every_task_help : spec.help) +
                             (every_task && spec.per_task ? ", for each task's search" : "");
    std::visit([&](auto field) { cmd.add_option(spec.name, this->*field, help); }, spec.field);
  }
  cmd.get_option("--board")->capture_default_str();
}

void SearchFlags::apply(Config& config) const {
  for (const FlagSpec& spec : kFlags) {
    if (!spec.key) continue;
    if (auto value = given_value(*this, spec)) config.set(spec.key, *value, "flag");
  }
}

std::vector<std::string> SearchFlags::given() const {
  std::vector<std::string> names;
  for (const FlagSpec& spec : kFlags) {
    const auto value = given_value(*this, spec);
    if (value && !(spec.field == Field(&SearchFlags::board) && *value == "k1")) names.push_back(long_name(spec));
  }
  return names;
}

std::vector<std::string> SearchFlags::arguments() const {
  std::vector<std::string> args;
  for (const FlagSpec& spec : kFlags) {
    if (auto value = given_value(*this, spec)) args.insert(args.end(), {long_name(spec), *value});
  }
  return args;
}

}  // namespace eok::cli
