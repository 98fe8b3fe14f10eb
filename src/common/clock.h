// Time as eok records and reports it: wall-clock seconds for records, steady seconds for durations.
#pragma once

#include <chrono>

namespace eok {

// Seconds since the Unix epoch, with a fraction: the time stamps of runs, kernels and calls.
inline double unix_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Seconds from `start` until now, on the steady clock: how long something took.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace eok
