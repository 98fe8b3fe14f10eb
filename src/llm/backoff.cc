#include "src/llm/backoff.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace eok::llm {

Backoff::Backoff(double initial_seconds, double max_seconds, uint64_t seed)
    : initial_seconds_(initial_seconds), max_seconds_(max_seconds), rng_(seed) {}

double Backoff::delay_seconds(int retry, std::optional<double> server_requested) {
  if (server_requested) return std::clamp(*server_requested, 0.0, max_seconds_);
  const double ceiling = std::min(max_seconds_, initial_seconds_ * std::ldexp(1.0, std::min(retry, 60)));
  if (ceiling <= 0) return 0;
  std::lock_guard lock(mutex_);
  return std::uniform_real_distribution<double>(0.0, ceiling)(rng_);
}

std::optional<double> parse_retry_after(const std::string& value, std::time_t now) {
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); })) {
    if (value.size() > 9) return std::nullopt;  // beyond any sane wait; also keeps stod exact
    return std::stod(value);
  }
  // libcurl parses every date format HTTP allows (RFC 1123, RFC 850, asctime).
  const std::time_t when = curl_getdate(value.c_str(), nullptr);
  if (when == -1) return std::nullopt;
  return std::max(0.0, std::difftime(when, now));
}

}  // namespace eok::llm
