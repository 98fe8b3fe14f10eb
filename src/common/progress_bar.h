// A progress bar for long work with a known amount: "[walk] ######....  4,210/8,786  1,950/s  ETA 0:02"
// redrawn on a terminal (stderr), one log line every few seconds otherwise. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace eok {

class ProgressBar {
 public:
  ProgressBar(std::string label, int64_t total, bool terminal);
  ~ProgressBar();
  void update(int64_t done, int64_t total = -1);  // total < 0 keeps the previous total
  void finish(const std::string& summary = "");   // the final line, e.g. "8,786 commits, 1,204 kept"

 private:
  void draw_locked(bool force);

  std::mutex mutex_;
  std::string label_;
  int64_t total_, done_ = 0;
  bool terminal_, finished_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace eok
