// Names of enumerations that cross a boundary as text (the database, JSON, the command line): one table of
// names per enumeration, indexed by the enumerator's value, and the two directions over it.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace eok {

// The name of `value` in `names`, the table whose entry i names the enumerator of value i.
template <class Enum, size_t N>
constexpr const char* enum_name(const std::array<const char*, N>& names, Enum value) {
  const auto index = static_cast<size_t>(value);
  return index < N ? names[index] : "?";
}

// The enumerator `text` names in `names`, or nullopt for a text no entry spells exactly.
template <class Enum, size_t N>
constexpr std::optional<Enum> enum_from_name(const std::array<const char*, N>& names, std::string_view text) {
  for (size_t i = 0; i < N; ++i) {
    if (text == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace eok
