// How long to wait before retrying: exponential backoff with full jitter, or the server's Retry-After.
//
// Full jitter (a uniform draw in [0, min(max, initial * 2^n)]) spreads the retries of parallel searches so
// they do not hit a rate-limited server together. The generator is seeded, so a run's waits repeat.
// Thread-safe.
#pragma once

#include <cstdint>
#include <ctime>
#include <mutex>
#include <optional>
#include <random>
#include <string>

namespace eok::llm {

class Backoff {
 public:
  Backoff(double initial_seconds, double max_seconds, uint64_t seed);

  // Seconds to wait before retry number `retry` (0 for the first retry). A delay the server asked for
  // (Retry-After) wins over the jitter but is capped by the maximum.
  double delay_seconds(int retry, std::optional<double> server_requested = std::nullopt);

 private:
  const double initial_seconds_, max_seconds_;
  std::mutex mutex_;
  std::mt19937_64 rng_;
};

// A Retry-After header value as seconds from `now`: delta-seconds ("120") or an HTTP-date
// ("Wed, 21 Oct 2015 07:28:00 GMT"; a date in the past gives 0). nullopt when it is neither.
std::optional<double> parse_retry_after(const std::string& value, std::time_t now);

}  // namespace eok::llm
