#include "src/common/interrupt_guard.h"

#include <unistd.h>

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
  struct sigaction sa {};
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

bool InterruptGuard::interrupted() const { return g_interrupts > 0; }

}  // namespace eok
