// Run ids: short, unique in practice, and sorting by id sorts by start time ("r20261122-143005-7f3a").
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace eok::db {

// "r" + the UTC date and time to the second + 4 hex digits mixed from `seed_or_entropy` and the sub-second
// part of `now`, so that two runs started in the same second (even with the same seed) get different ids.
// Deterministic given both arguments.
std::string new_run_id(uint64_t seed_or_entropy,
                       std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace eok::db
