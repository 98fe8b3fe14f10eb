// Test support: a KernelJudge that holds every judgement at a gate until the test lets it through, and
// counts how many are held at once, so that a test can see how many evaluations the service lets run
// together (no sleeps: the test waits for the count it expects, with a deadline).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "src/search/kernel_judge.h"

namespace eok::testing {

class GatedJudge final : public search::KernelJudge {
 public:
  explicit GatedJudge(search::KernelJudge& inner) : inner_(inner) {}

  evaluator::EvalResult judge(const evaluator::Task& task, const std::string& source, uint64_t seed) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++held_;
      if (held_ > most_held_) most_held_ = held_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return passes_ > 0; });
      --passes_;
      --held_;
      changed_.notify_all();
    }
    return inner_.judge(task, source, seed);
  }
  const std::string& setup() const override { return inner_.setup(); }
  std::string identity(const evaluator::Task& task, const std::string& source) override {
    return inner_.identity(task, source);
  }

  // Lets `n` held (or future) judgements through.
  void let_through(int n) {
    std::lock_guard<std::mutex> lock(mutex_);
    passes_ += n;
    changed_.notify_all();
  }
  // Waits until at least `n` judgements are held; false when that did not happen within `deadline`.
  bool wait_until_held(int n, std::chrono::seconds deadline = std::chrono::seconds(20)) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, deadline, [&] { return held_ >= n; });
  }
  int most_held() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return most_held_;
  }

 private:
  search::KernelJudge& inner_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int held_ = 0, most_held_ = 0, passes_ = 0;
};

}  // namespace eok::testing
