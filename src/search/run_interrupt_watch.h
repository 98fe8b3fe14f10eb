// Answers the first Ctrl-C of a search at once: says what is being finished, and marks the run stopped in
// the database right then, so that a second Ctrl-C (which exits on the spot) leaves it resumable and not
// `running`.
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "src/common/interrupt_guard.h"
#include "src/db/kernel_db.h"

namespace eok::search {

// Contract: watches `interrupts` from a thread of its own until end() (or destruction); end() waits for it,
// after which it writes nothing more, so the run's final state written afterwards stands.
class RunInterruptWatch {
 public:
  RunInterruptWatch(db::KernelDb& db, std::string run_id, const InterruptGuard& interrupts);
  ~RunInterruptWatch() { end(); }
  RunInterruptWatch(const RunInterruptWatch&) = delete;
  RunInterruptWatch& operator=(const RunInterruptWatch&) = delete;

  void end();

 private:
  void watch();

  db::KernelDb& db_;
  const std::string run_id_;
  const InterruptGuard& interrupts_;
  std::atomic<bool> over_{false};
  std::thread thread_;
};

}  // namespace eok::search
