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

// Throws ConfigError unless `id` can name a run: 1 to 64 letters, digits, '.', '_' or '-', starting with a
// letter or digit (a run id names a folder of the workspace, so "../x" or "/tmp/x" never can).
void check_run_id(const std::string& id);

}  // namespace eok::db
