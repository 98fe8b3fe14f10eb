// Ctrl-C (SIGINT) and SIGTERM as a request to stop: while an InterruptGuard lives, the first signal sets
// the given flag (long work checks it and ends cleanly, leaving a resumable state); a second one exits at
// once with status 130. The previous handlers come back when the guard goes. One guard at a time.
#pragma once

#include <atomic>
#include <csignal>

namespace eok {

class InterruptGuard {
 public:
  explicit InterruptGuard(std::atomic<bool>& stop_flag);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // True once a signal arrived (as opposed to the flag being set by other means, such as a budget).
  bool interrupted() const;

 private:
  struct sigaction previous_int_ {}, previous_term_ {};
};

}  // namespace eok
