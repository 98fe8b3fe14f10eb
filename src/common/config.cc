#include "src/common/config.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "src/common/error.h"
#include "src/common/toml_file.h"

namespace eok {

namespace {

const char* type_name(KeyType t) {
  switch (t) {
    case KeyType::string:
      return "a string";
    case KeyType::integer:
      return "an integer";
    case KeyType::number:
      return "a number";
    case KeyType::boolean:
      return "true or false";
  }
  return "?";
}

bool valid(KeyType t, const std::string& text) {
  char* end = nullptr;
  switch (t) {
    case KeyType::string:
      return true;
    case KeyType::integer:
      std::strtoll(text.c_str(), &end, 10);
      return !text.empty() && *end == '\0';
    case KeyType::number:
      std::strtod(text.c_str(), &end);
      return !text.empty() && *end == '\0';
    case KeyType::boolean:
      return text == "true" || text == "false" || text == "1" || text == "0";
  }
  return false;
}

// Levenshtein distance, for "did you mean".
size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& key) {
  std::string best;
  size_t best_d = 4;
  for (const auto& k : config_keys()) {
    size_t d = distance(key, k.name);
    if (d < best_d) best = k.name, best_d = d;
  }
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

std::string node_text(const toml::node& n) {
  if (auto s = n.value<std::string>()) return *s;
  if (n.is_boolean()) return *n.value<bool>() ? "true" : "false";
  if (n.is_integer()) return std::to_string(*n.value<int64_t>());
  if (n.is_floating_point()) {
    std::ostringstream os;
    os.precision(17);
    os << *n.value<double>();
    return os.str();
  }
  return "";
}

}  // namespace

std::string env_name(const std::string& key) {
  std::string e = "EOK_";
  for (char c : key) e += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return e;
}

const KeySpec& Config::spec(const std::string& key) const {
  for (const auto& k : config_keys()) {
    if (k.name == key) return k;
  }
  throw ConfigError("unknown configuration key '" + key + "'" + suggestion(key));
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin) {
  const KeySpec& k = spec(key);
  if (k.secret && origin.rfind("env", 0) != 0 && origin != "default") {
    throw ConfigError(key + " is a secret: set it in the environment (" + env_name(key) + "), not in " + origin);
  }
  if (!valid(k.type, value)) {
    throw ConfigError(origin + ": " + key + " must be " + type_name(k.type) + ", not '" + value + "'");
  }
  values_[key] = {value, origin};
}

void Config::apply_toml(const std::filesystem::path& file, const std::string& origin) {
  const toml::table doc = parse_toml_file(file, "settings file");
  for (const auto& [section, node] : doc) {
    const auto* table = node.as_table();
    if (!table) throw ConfigError(file.string() + ": '" + std::string(section.str()) + "' must be a [section]");
    for (const auto& [name, value] : *table) {
      const std::string key = std::string(section.str()) + "." + std::string(name.str());
      if (!value.is_value()) throw ConfigError(file.string() + ": " + key + " must be a plain value");
      try {
        set(key, node_text(value), origin);
      } catch (const ConfigError& e) {
        throw ConfigError(file.string() + ": " + e.what());
      }
    }
  }
}

Config Config::load(const std::filesystem::path& root, const std::optional<std::filesystem::path>& file) {
  Config c;
  for (const auto& k : config_keys()) c.values_[k.name] = {k.default_value, "default"};
  const auto team = root / "configs" / "eok.toml";
  if (std::filesystem::exists(team)) c.apply_toml(team, "configs/eok.toml");
  if (file) {
    if (!std::filesystem::exists(*file)) throw NotFoundError("no such configuration file: " + file->string());
    c.apply_toml(*file, "--config " + file->string());
  }
  for (const auto& k : config_keys()) {
    const std::string env = env_name(k.name);
    if (const char* v = std::getenv(env.c_str()); v && *v) c.set(k.name, v, "env " + env);
  }
  return c;
}

Config Config::from_json(const nlohmann::json& stored) {
  Config c;
  for (const auto& k : config_keys()) c.values_[k.name] = {k.default_value, "default"};
  for (const auto& [key, value] : stored.items()) {
    std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    c.set(key, text, "the run's stored configuration");
  }
  for (const auto& k : config_keys()) {
    if (!k.secret) continue;
    const std::string env = env_name(k.name);
    if (const char* v = std::getenv(env.c_str()); v && *v) c.set(k.name, v, "env " + env);
  }
  return c;
}

std::string Config::str(const std::string& key) const {
  spec(key);
  return values_.at(key).text;
}

int64_t Config::integer(const std::string& key) const {
  if (spec(key).type != KeyType::integer) throw ConfigError(key + " is not an integer key");
  return std::strtoll(values_.at(key).text.c_str(), nullptr, 10);
}

double Config::number(const std::string& key) const {
  const KeyType t = spec(key).type;
  if (t != KeyType::number && t != KeyType::integer) throw ConfigError(key + " is not a number key");
  return std::strtod(values_.at(key).text.c_str(), nullptr);
}

bool Config::boolean(const std::string& key) const {
  if (spec(key).type != KeyType::boolean) throw ConfigError(key + " is not a boolean key");
  const std::string& t = values_.at(key).text;
  return t == "true" || t == "1";
}

bool Config::is_default(const std::string& key) const {
  return origin(key) == "default";
}

const std::string& Config::origin(const std::string& key) const {
  spec(key);
  return values_.at(key).origin;
}

nlohmann::json Config::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& k : config_keys()) {
    if (k.secret) continue;
    const std::string& t = values_.at(k.name).text;
    switch (k.type) {
      case KeyType::string:
        j[k.name] = t;
        break;
      case KeyType::integer:
        j[k.name] = std::strtoll(t.c_str(), nullptr, 10);
        break;
      case KeyType::number:
        j[k.name] = std::strtod(t.c_str(), nullptr);
        break;
      case KeyType::boolean:
        j[k.name] = t == "true" || t == "1";
        break;
    }
  }
  return j;
}

}  // namespace eok
