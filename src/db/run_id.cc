#include "src/db/run_id.h"

#include <cctype>

#include "src/common/error.h"

#include <fmt/format.h>

#include <ctime>

namespace eok::db {

namespace {

// SplitMix64's finaliser: every input bit affects every output bit.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

void check_run_id(const std::string& id) {
  bool ok = !id.empty() && id.size() <= 64 && std::isalnum(static_cast<unsigned char>(id.front()));
  for (char c : id) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  if (!ok) {
    throw ConfigError("'" + id +
                      "' is not a run id: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or "
                      "digit (eok runs lists the runs)");
  }
}

std::string new_run_id(uint64_t seed_or_entropy, std::chrono::system_clock::time_point now) {
  using namespace std::chrono;
  const auto since_epoch = now.time_since_epoch();
  const auto whole_seconds = duration_cast<seconds>(since_epoch);
  const auto sub_second_ns = static_cast<uint64_t>(duration_cast<nanoseconds>(since_epoch - whole_seconds).count());
  const std::time_t t = static_cast<std::time_t>(whole_seconds.count());
  std::tm utc{};
  gmtime_r(&t, &utc);
  const uint64_t suffix = mix(seed_or_entropy ^ mix(sub_second_ns)) & 0xffff;
  return fmt::format("r{:04}{:02}{:02}-{:02}{:02}{:02}-{:04x}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, suffix);
}

}  // namespace eok::db
