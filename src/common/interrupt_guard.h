// Ctrl-C (SIGINT) and SIGTERM as a request to stop: while an InterruptGuard lives, the first signal sets
// the given flag (long work checks it and ends cleanly, leaving a resumable state) and interrupt_requested()
// (waits and transfers check it and give up at once); a second one exits at once with status 130. The
// previous handlers come back when the guard goes. One guard at a time.
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
  struct sigaction previous_int_{}, previous_term_{};
};

// True once a signal arrived while the current guard lives: an LLM transfer or a retry wait in progress
// is abandoned (nothing half-received is recorded, so a resumed run asks again).
bool interrupt_requested();

// Sleeps `seconds`, waking early (false) when an interrupt is requested; true when the whole time passed.
bool sleep_unless_interrupted(double seconds);

}  // namespace eok
