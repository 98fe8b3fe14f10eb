#include "evaluator/cost_model/x60_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/common/error.h"

namespace eok::cost {
namespace {

using nlohmann::json;

constexpr int kFormatVersion = 1;

constexpr std::array<std::pair<Unit, std::string_view>, kUnitCount> kUnitNames{{
    {Unit::ieu_a, "ieu_a"},
    {Unit::ieu_b, "ieu_b"},
    {Unit::ieu_any, "ieu_any"},
    {Unit::ls, "ls"},
    {Unit::fp, "fp"},
    {Unit::vfp, "vfp"},
    {Unit::vieu, "vieu"},
    {Unit::vls, "vls"},
    {Unit::vcfg, "vcfg"},
    {Unit::none, "none"},
}};
static_assert(kUnitNames.back().first == Unit::none && kUnitNames.back().second == "none",
              "every Unit needs its name, in the enum's order");

// Everything that can go wrong with the file ends here, with the file's name and the cure.
[[noreturn]] void malformed(const std::filesystem::path& path, const std::string& what) {
  throw ConfigError("X60 cost table " + path.string() + " is malformed: " + what +
                    ". Restore evaluator/cost_model/x60_table.json from the source tree or regenerate it with "
                    "`python3 evaluator/cost_model/make_x60_table.py`");
}

class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path) {}

  const json& object(const json& parent, const char* key, const std::string& where) const {
    auto it = parent.find(key);
    if (it == parent.end()) malformed(path_, where + " lacks \"" + key + "\"");
    if (!it->is_object()) malformed(path_, where + "." + key + " is not an object");
    return *it;
  }

  double figure(const json& v, const std::string& where) const {
    if (!v.is_number()) malformed(path_, where + " is not a number");
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < 0) malformed(path_, where + " is not a finite figure >= 0");
    return d;
  }

  double figure(const json& parent, const char* key, const std::string& where) const {
    auto it = parent.find(key);
    if (it == parent.end()) malformed(path_, where + " lacks \"" + key + "\"");
    return figure(*it, where + "." + key);
  }

  Unit unit(const json& parent, const std::string& where) const {
    auto it = parent.find("unit");
    if (it == parent.end() || !it->is_string()) malformed(path_, where + ".unit is missing or not a string");
    const auto& name = it->get_ref<const std::string&>();
    for (const auto& [u, n] : kUnitNames) {
      if (n == name) return u;
    }
    malformed(path_,
              where + ".unit \"" + name + "\" is not one of ieu_a, ieu_b, ieu_any, ls, fp, vfp, vieu, vls, vcfg, none");
  }

  // {"e32m4": "floor:vlse32.v e32m4", ...} -> the set of vtypes; absent key -> empty set.
  std::unordered_set<std::string> notes(const json& entry, const char* key, const std::string& where) const {
    std::unordered_set<std::string> out;
    auto it = entry.find(key);
    if (it == entry.end()) return out;
    if (!it->is_object()) malformed(path_, where + "." + key + " is not an object of vtype -> neighbour");
    for (const auto& [vtype, v] : it->items()) {
      if (!v.is_string()) malformed(path_, where + "." + key + "." + vtype + " is not a string");
      out.insert(vtype);
    }
    return out;
  }

  // {"e32m4": 4, ...} -> map; absent key -> empty map.
  std::unordered_map<std::string, double> per_vtype(const json& entry, const char* key, const std::string& where,
                                                    bool required) const {
    std::unordered_map<std::string, double> out;
    auto it = entry.find(key);
    if (it == entry.end()) {
      if (required) malformed(path_, where + " lacks \"" + key + "\"");
      return out;
    }
    if (!it->is_object()) malformed(path_, where + "." + key + " is not an object of vtype -> cycles");
    for (const auto& [vtype, v] : it->items()) out.emplace(vtype, figure(v, where + "." + key + "." + vtype));
    return out;
  }

 private:
  const std::filesystem::path& path_;
};

const double* find_figure(const std::unordered_map<std::string, double>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace

std::string_view unit_name(Unit u) {
  for (const auto& [unit, name] : kUnitNames) {
    if (unit == u) return name;
  }
  return "?";
}

X60Table X60Table::load(const std::filesystem::path& json_path) {
  std::ifstream in(json_path, std::ios::binary);
  if (!in) {
    throw ConfigError("cannot read the X60 cost table " + json_path.string() +
                      ": it ships in the source tree as evaluator/cost_model/x60_table.json; restore it or "
                      "regenerate it with `python3 evaluator/cost_model/make_x60_table.py`");
  }
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    malformed(json_path, std::string("not valid JSON (") + e.what() + ")");
  }

  const Reader r(json_path);
  if (!doc.is_object()) malformed(json_path, "the top level is not an object");
  auto fmt = doc.find("format");
  if (fmt == doc.end() || !fmt->is_number_integer() || fmt->get<int>() != kFormatVersion) {
    malformed(json_path, "\"format\" is missing or not " + std::to_string(kFormatVersion) +
                             " (written by another version of make_x60_table.py)");
  }

  X60Table t;
  for (const auto& [name, e] : r.object(doc, "scalar", "the table").items()) {
    const std::string where = "scalar." + name;
    if (!e.is_object()) malformed(json_path, where + " is not an object");
    InsnCost c;
    c.unit = r.unit(e, where);
    c.latency = r.figure(e, "latency", where);
    c.rthroughput = r.figure(e, "rthroughput", where);
    if (auto m = e.find("measured"); m != e.end()) {
      if (!m->is_boolean()) malformed(json_path, where + ".measured is not true/false");
      c.measured = m->get<bool>();
    }
    if (auto d = e.find("derived"); d != e.end()) {
      if (!d->is_string()) malformed(json_path, where + ".derived is not a string");
      c.derived = true;
    }
    t.scalar_.emplace(name, c);
  }

  for (const auto& [name, e] : r.object(doc, "vector", "the table").items()) {
    const std::string where = "vector." + name;
    if (!e.is_object()) malformed(json_path, where + " is not an object");
    VectorEntry v;
    v.unit = r.unit(e, where);
    auto src = e.find("source");
    if (src == e.end() || !src->is_string()) malformed(json_path, where + ".source is missing or not a string");
    v.measured = src->get_ref<const std::string&>() != "llvm";
    v.rthroughput = r.per_vtype(e, "rthroughput", where, true);
    v.masked_rthroughput = r.per_vtype(e, "masked_rthroughput", where, false);
    v.latency = r.per_vtype(e, "latency", where, false);
    v.derived = r.notes(e, "derived", where);
    v.masked_derived = r.notes(e, "masked_derived", where);
    // The worst case over every vtype, for vtypes without a cell: costed once here.
    v.worst = v.worst_masked = InsnCost{0, 0, v.unit, v.measured, false};
    for (const auto& [key, rt] : v.rthroughput) {
      const double* lat = find_figure(v.latency, key);
      const double* mrt = find_figure(v.masked_rthroughput, key);
      v.worst.rthroughput = std::max(v.worst.rthroughput, rt);
      v.worst_masked.rthroughput = std::max(v.worst_masked.rthroughput, mrt != nullptr ? *mrt : rt);
      v.worst.latency = std::max(v.worst.latency, lat != nullptr ? *lat : rt);
    }
    v.worst_masked.latency = v.worst.latency;
    t.vector_.emplace(name, std::move(v));
  }
  return t;
}

std::optional<InsnCost> X60Table::vector(std::string_view mnemonic, bool masked, const riscv::VType& vt) const {
  if (vt.vill) return std::nullopt;
  auto it = vector_.find(std::string(mnemonic));
  if (it == vector_.end()) return std::nullopt;
  const VectorEntry& e = it->second;
  const std::string key = riscv::vtype_key(vt);

  const double* rt = masked ? find_figure(e.masked_rthroughput, key) : nullptr;
  bool derived = rt != nullptr && e.masked_derived.count(key) != 0;
  if (rt == nullptr) {
    rt = find_figure(e.rthroughput, key);
    derived = e.derived.count(key) != 0;
  }
  if (rt == nullptr) return std::nullopt;

  InsnCost c;
  c.rthroughput = *rt;
  const double* lat = find_figure(e.latency, key);
  c.latency = lat != nullptr ? *lat : *rt;
  c.unit = e.unit;
  c.measured = e.measured || derived;  // derived figures are measured neighbours' figures
  c.derived = derived;
  return c;
}

std::optional<InsnCost> X60Table::vector_worst(std::string_view mnemonic, bool masked) const {
  auto it = vector_.find(std::string(mnemonic));
  if (it == vector_.end() || it->second.rthroughput.empty()) return std::nullopt;
  return masked ? it->second.worst_masked : it->second.worst;
}

std::optional<InsnCost> X60Table::scalar(std::string_view mnemonic) const {
  auto it = scalar_.find(std::string(mnemonic));
  if (it == scalar_.end()) return std::nullopt;
  return it->second;
}

}  // namespace eok::cost
