// Enumerations whose names cross a boundary as text (the database, JSON, the command line): each names its
// enumerators once, in a specialisation of EnumNames, and every conversion goes through that one table.
//
//   template <> struct EnumNames<db::RunState> {
//     static constexpr std::array names = {"running", "finished", "stopped", "failed"};  // by value
//   };
//
// Files hold these names: an enumerator may be added, a name never changed.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>

#include <nlohmann/json_fwd.hpp>

namespace eok {

// names[i] names the enumerator of value i; the enumerators' values are 0, 1, 2 ... in order.
template <class Enum>
struct EnumNames;

template <class Enum>
concept NamedEnum = std::is_enum_v<Enum> && requires { EnumNames<Enum>::names.size(); };

template <NamedEnum Enum>
constexpr const char* name_of(Enum value) {
  constexpr auto& names = EnumNames<Enum>::names;
  const auto index = static_cast<size_t>(value);
  return index < names.size() ? names[index] : "?";
}

// The enumerator `text` names, or nullopt for any other text (the caller says what to do about it).
template <NamedEnum Enum>
constexpr std::optional<Enum> parse_name(std::string_view text) {
  constexpr auto& names = EnumNames<Enum>::names;
  for (size_t i = 0; i < names.size(); ++i) {
    if (text == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

// Every enumerator, in order of value.
template <NamedEnum Enum>
constexpr auto enum_values() {
  std::array<Enum, EnumNames<Enum>::names.size()> values{};
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<Enum>(i);
  return values;
}

}  // namespace eok

namespace nlohmann {

// JSON carries a named enumeration's name, never its number (`json j = run.state;` is "finished").
template <eok::NamedEnum Enum>
struct adl_serializer<Enum, void> {
  template <class Json>
  static void to_json(Json& j, Enum value) {
    j = eok::name_of(value);
  }
};

}  // namespace nlohmann
