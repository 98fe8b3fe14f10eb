#include "idea_pool/pool.h"

#include <nlohmann/json.hpp>

#include <set>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok::idea_pool {

namespace {

constexpr const char* kSchema = "eok-idea-pool/1";

struct Reader {
  std::filesystem::path file;

  [[noreturn]] void fail(const std::string& where, const std::string& why) const {
    throw ConfigError(file.string() + ": " + where + ": " + why + " (see idea_pool/SCHEMA.md)");
  }
  std::string text(const nlohmann::json& j, const char* key, const std::string& where, bool required = true) const {
    if (!j.contains(key)) {
      if (required) fail(where + "." + key, "missing");
      return "";
    }
    if (!j[key].is_string()) fail(where + "." + key, "must be a string");
    std::string s = j[key].get<std::string>();
    if (required && s.empty()) fail(where + "." + key, "must not be empty");
    return s;
  }
  double number(const nlohmann::json& j, const char* key, const std::string& where, double fallback) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_number()) fail(where + "." + key, "must be a number");
    return j[key].get<double>();
  }
  bool flag(const nlohmann::json& j, const char* key, const std::string& where, bool fallback) const {
    if (!j.contains(key)) return fallback;
    if (!j[key].is_boolean()) fail(where + "." + key, "must be true or false");
    return j[key].get<bool>();
  }
  const nlohmann::json& array(const nlohmann::json& j, const char* key, const std::string& where,
                              bool non_empty) const {
    static const nlohmann::json empty = nlohmann::json::array();
    if (!j.contains(key)) {
      if (non_empty) fail(where + "." + key, "missing");
      return empty;
    }
    if (!j[key].is_array()) fail(where + "." + key, "must be an array");
    if (non_empty && j[key].empty()) fail(where + "." + key, "must not be empty");
    return j[key];
  }
};

}  // namespace

size_t IdeaPool::thought_count() const {
  size_t n = 0;
  for (const auto& i : ideas) n += i.thoughts.size();
  return n;
}

IdeaPool load_pool(const std::filesystem::path& file) {
  Reader r{file};
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(read_regular_file(file, kDataFileMaxBytes, "idea pool"));
  } catch (const nlohmann::json::parse_error& e) {
    throw ConfigError(file.string() + ": not valid JSON: " + e.what());
  }
  if (!doc.is_object()) r.fail("top level", "must be an object");
  IdeaPool pool;
  pool.file = file;
  pool.schema = r.text(doc, "schema", "top level");
  if (pool.schema != kSchema) r.fail("schema", "'" + pool.schema + "' is not " + kSchema);
  if (doc.contains("source") && doc["source"].is_object()) {
    for (const auto& [k, v] : doc["source"].items()) pool.source[k] = v.is_string() ? v.get<std::string>() : v.dump();
    for (const char* k : {"repo", "variant", "distiller"}) {
      if (pool.source.count(k))
        pool.description += std::string(pool.description.empty() ? "" : ", ") + k + " " + pool.source[k];
    }
  }
  std::set<std::string> ids;
  const auto& ideas = r.array(doc, "ideas", "top level", true);
  for (size_t i = 0; i < ideas.size(); ++i) {
    const std::string where = "ideas[" + std::to_string(i) + "]";
    if (!ideas[i].is_object()) r.fail(where, "must be an object");
    Idea idea;
    idea.id = r.text(ideas[i], "id", where);
    idea.principle = r.text(ideas[i], "principle", where);
    if (!ids.insert(idea.id).second) r.fail(where + ".id", "'" + idea.id + "' is used twice");
    const auto& thoughts = r.array(ideas[i], "thoughts", where, true);
    double sum = 0;
    for (size_t t = 0; t < thoughts.size(); ++t) {
      const std::string tw = where + ".thoughts[" + std::to_string(t) + "]";
      if (!thoughts[t].is_object()) r.fail(tw, "must be an object");
      Thought th;
      th.id = r.text(thoughts[t], "id", tw);
      if (!ids.insert(th.id).second) r.fail(tw + ".id", "'" + th.id + "' is used twice");
      th.description = r.text(thoughts[t], "description", tw);
      th.effectiveness = r.number(thoughts[t], "effectiveness", tw, 0);
      th.estimated = r.flag(thoughts[t], "estimated", tw, true);
      th.confidence = r.number(thoughts[t], "confidence", tw, th.estimated ? 0.5 : 1.0);
      for (const auto& c : r.array(thoughts[t], "commits", tw, false)) {
        th.commits.push_back({r.text(c, "sha", tw + ".commits"), r.text(c, "title", tw + ".commits", false),
                              r.number(c, "effectiveness", tw + ".commits", 0),
                              r.flag(c, "estimated", tw + ".commits", true)});
      }
      for (const auto& e : r.array(thoughts[t], "examples", tw, false)) {
        th.examples.push_back({r.text(e, "commit", tw + ".examples", false), r.text(e, "file", tw + ".examples", false),
                               r.text(e, "code", tw + ".examples")});
      }
      sum += th.effectiveness;
      idea.thoughts.push_back(std::move(th));
    }
    idea.effectiveness = r.number(ideas[i], "effectiveness", where, sum / static_cast<double>(idea.thoughts.size()));
    pool.ideas.push_back(std::move(idea));
  }
  return pool;
}

std::string pool_to_json(const IdeaPool& pool) {
  nlohmann::json doc = {{"schema", kSchema}, {"source", pool.source}, {"ideas", nlohmann::json::array()}};
  for (const auto& idea : pool.ideas) {
    nlohmann::json i = {{"id", idea.id},
                        {"principle", idea.principle},
                        {"effectiveness", idea.effectiveness},
                        {"thoughts", nlohmann::json::array()}};
    for (const auto& t : idea.thoughts) {
      nlohmann::json th = {{"id", t.id},
                           {"description", t.description},
                           {"effectiveness", t.effectiveness},
                           {"estimated", t.estimated},
                           {"confidence", t.confidence},
                           {"commits", nlohmann::json::array()},
                           {"examples", nlohmann::json::array()}};
      for (const auto& c : t.commits) {
        th["commits"].push_back(
            {{"sha", c.sha}, {"title", c.title}, {"effectiveness", c.effectiveness}, {"estimated", c.estimated}});
      }
      for (const auto& e : t.examples)
        th["examples"].push_back({{"commit", e.commit}, {"file", e.file}, {"code", e.code}});
      i["thoughts"].push_back(std::move(th));
    }
    doc["ideas"].push_back(std::move(i));
  }
  return doc.dump(2) + "\n";
}

std::filesystem::path latest_pool_path(const std::filesystem::path& workspace_root) {
  return workspace_root / "pools" / "latest.json";
}

}  // namespace eok::idea_pool
