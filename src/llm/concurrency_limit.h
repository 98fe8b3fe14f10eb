// A counting semaphore with a scoped slot: at most N holders at once, the rest wait in acquire().
#pragma once

#include <memory>
#include <semaphore>

#include "src/common/error.h"

namespace eok::llm {

class ConcurrencyLimit {
 public:
  explicit ConcurrencyLimit(int max_holders) {
    if (max_holders < 1) throw ConfigError("a concurrency limit must be at least 1");
    semaphore_ = std::make_unique<std::counting_semaphore<>>(max_holders);
  }

  // Held for a scope; released on destruction.
  class Slot {
   public:
    explicit Slot(std::counting_semaphore<>* semaphore) : semaphore_(semaphore) {}
    Slot(Slot&& other) noexcept : semaphore_(other.semaphore_) { other.semaphore_ = nullptr; }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (semaphore_ != nullptr) semaphore_->release();
    }

   private:
    std::counting_semaphore<>* semaphore_;
  };

  // Blocks until a slot is free.
  Slot acquire() {
    semaphore_->acquire();
    return Slot(semaphore_.get());
  }

 private:
  std::unique_ptr<std::counting_semaphore<>> semaphore_;
};

}  // namespace eok::llm
