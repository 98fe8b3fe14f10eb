// Configuration: every key is declared once (name, type, default, help) in config_keys.cc, and a value
// comes from the highest of these layers: built-in default < configs/eok.toml < --config FILE <
// environment (EOK_<SECTION>_<KEY>, e.g. EOK_SEARCH_PARALLEL, EOK_LLM_BASE_URL) < command-line flags.
// Secrets (llm.api_key) come from the environment only. The resolved configuration (secrets masked) is
// stored with every run.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace eok {

enum class KeyType { string, integer, number, boolean };

struct KeySpec {
  std::string name;  // "section.key"
  KeyType type;
  std::string default_value;  // as text
  std::string help;
  bool secret = false;  // environment only, never stored or printed
};

// Every configuration key eok knows.
const std::vector<KeySpec>& config_keys();

// "EOK_SEARCH_PARALLEL" for "search.parallel".
std::string env_name(const std::string& key);

class Config {
 public:
  // Defaults, then `root`/configs/eok.toml when present, then `file` when given, then the environment.
  // Throws ConfigError naming the file and key for unknown keys (with a suggestion) and wrong types.
  static Config load(const std::filesystem::path& root, const std::optional<std::filesystem::path>& file = {});

  // A configuration stored with a run (to_json()), for resuming it; the environment's secrets apply again.
  static Config from_json(const nlohmann::json& stored);

  // The flag layer. Throws ConfigError for unknown keys or values of the wrong type.
  void set(const std::string& key, const std::string& value, const std::string& origin = "flag");

  std::string str(const std::string& key) const;
  int64_t integer(const std::string& key) const;
  double number(const std::string& key) const;
  bool boolean(const std::string& key) const;
  bool is_default(const std::string& key) const;
  const std::string& origin(const std::string& key) const;  // "default", "configs/eok.toml", "env EOK_...", "flag"

  // Every non-secret key with its value; what a run stores.
  nlohmann::json to_json() const;

 private:
  struct Value {
    std::string text;
    std::string origin;
  };
  const KeySpec& spec(const std::string& key) const;
  void apply_toml(const std::filesystem::path& file, const std::string& origin);
  std::map<std::string, Value> values_;
};

}  // namespace eok
