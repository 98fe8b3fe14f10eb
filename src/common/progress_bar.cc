#include "src/common/progress_bar.h"

#include <algorithm>
#include <cstdio>

#include "src/common/log.h"

namespace eok {

namespace {
std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}
}  // namespace

ProgressBar::ProgressBar(std::string label, int64_t total, bool terminal)
    : label_(std::move(label)),
      total_(total),
      terminal_(terminal),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  finish();
}

void ProgressBar::update(int64_t done, int64_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = done;
  if (total >= 0) total_ = total;
  draw_locked(false);
}

void ProgressBar::draw_locked(bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double since_draw = std::chrono::duration<double>(now - last_draw_).count();
  if (!force && since_draw < (terminal_ ? 0.1 : 5.0)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  std::string eta;
  if (rate > 0 && total_ > done_) eta = "  ETA " + clock_text(static_cast<double>(total_ - done_) / rate);
  char counts[96];
  if (total_ > 0)
    std::snprintf(counts, sizeof counts, "%lld/%lld", static_cast<long long>(done_), static_cast<long long>(total_));
  else
    std::snprintf(counts, sizeof counts, "%lld", static_cast<long long>(done_));
  char speed[48];
  std::snprintf(speed, sizeof speed, "%.0f/s", rate);
  if (terminal_) {
    std::string bar;
    if (total_ > 0) {
      const int width = 24, filled = static_cast<int>(width * std::min<double>(1.0, static_cast<double>(done_) /
                                                                                        static_cast<double>(total_)));
      bar = "[" + std::string(filled, '#') + std::string(width - filled, '.') + "] ";
    }
    std::fprintf(stderr, "\r\033[K%s %s%s  %s%s", label_.c_str(), bar.c_str(), counts, speed, eta.c_str());
    std::fflush(stderr);
  } else {
    log::info("{}: {} ({}){}", label_, counts, speed, eta);
  }
}

void ProgressBar::finish(const std::string& summary) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string text =
      label_ + ": " + (summary.empty() ? std::to_string(done_) + " done" : summary) + " in " + clock_text(elapsed);
  if (terminal_) std::fprintf(stderr, "\r\033[K");
  log::info("{}", text);
}

}  // namespace eok
