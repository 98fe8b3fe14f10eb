#include "src/common/interrupt_guard.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace eok {

namespace {

std::atomic<std::atomic<bool>*> g_stop{nullptr};
std::atomic<int> g_interrupts{0};

void on_interrupt(int) {
  if (g_interrupts.fetch_add(1) >= 1) _exit(130);
  if (auto* flag = g_stop.load()) flag->store(true);
}

}  // namespace

InterruptGuard::InterruptGuard(std::atomic<bool>& stop_flag) {
  g_stop = &stop_flag;
  g_interrupts = 0;
  struct sigaction sa{};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &previous_int_);
  sigaction(SIGTERM, &sa, &previous_term_);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
  g_stop = nullptr;
}

bool InterruptGuard::interrupted() const {
  return g_interrupts > 0;
}

bool interrupt_requested() {
  return g_stop.load() != nullptr && g_interrupts.load() > 0;
}

bool sleep_unless_interrupted(double seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (Clock::now() < end) {
    if (interrupt_requested()) return false;
    const Clock::duration left = end - Clock::now();
    std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(50)));
  }
  return !interrupt_requested();
}

}  // namespace eok
