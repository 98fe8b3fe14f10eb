#include "src/search/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "src/common/log.h"

namespace eok::search {

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

Progress::Progress(int64_t planned, bool terminal)
    : planned_(planned), terminal_(terminal), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  finish();
}

std::string Progress::status_locked() const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[400];
  std::string eta = "";
  if (done_ > 0 && planned_ > done_)
    eta =
        ", ~" + format_duration(elapsed * static_cast<double>(planned_ - done_) / static_cast<double>(done_)) + " left";
  const std::string infra = infra_ > 0 ? ", " + std::to_string(infra_) + " infra_error" : "";
  std::snprintf(buf, sizeof buf,
                "%s | %lld/%lld proposals (%lld correct, %lld failed%s) | LLM %lld calls (%lld cached, %lld failed) | "
                "best %.3fx | %s%s%s",
                phase_.c_str(), static_cast<long long>(done_), static_cast<long long>(planned_),
                static_cast<long long>(correct_), static_cast<long long>(failed_), infra.c_str(),
                static_cast<long long>(calls_), static_cast<long long>(cached_), static_cast<long long>(call_failures_),
                best_, format_duration(elapsed).c_str(), eta.c_str(), last_.empty() ? "" : (" | " + last_).c_str());
  return buf;
}

std::string fit_status_line(const std::string& text, size_t width) {
  std::string out;
  for (char c : text) out += static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c;  // no escapes, no breaks
  if (width < 8 || out.size() < width) return out;
  // Cut at width - 1 (a full line would wrap on some terminals), not inside a UTF-8 sequence.
  size_t cut = width - 4;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xc0) == 0x80) --cut;
  return out.substr(0, cut) + "...";
}

size_t terminal_width() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* cols = std::getenv("COLUMNS")) {
    const long n = std::strtol(cols, nullptr, 10);
    if (n > 0) return static_cast<size_t>(n);
  }
  return 80;
}

void Progress::redraw_locked() {
  if (!terminal_) return;
  log::set_status_line(fit_status_line(status_locked(), terminal_width()));
  drawn_ = true;
  last_draw_ = std::chrono::steady_clock::now();
}

void Progress::phase(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  phase_ = text;
  if (!terminal_) log::info("{}", text);
  redraw_locked();
}

void Progress::proposal(const std::string& where, const std::string& outcome, bool correct, double speedup) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  if (correct) {
    ++correct_;
    if (speedup > best_) best_ = speedup;
  } else {
    ++failed_;
  }
  if (terminal_) {
    last_ = where + ": " + outcome;
    redraw_locked();
  } else {
    log::info("{}: {} (best {:.3f}x, {}/{} proposals)", where, outcome, best_, done_, planned_);
  }
}

void Progress::infra_error(const std::string& where, const std::string& outcome) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  ++infra_;
  log::warn("{}: {}", where, outcome);
  if (terminal_) {
    last_ = where + ": infra_error";
    redraw_locked();
  }
}

void Progress::llm_call(bool ok, bool cache_hit) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++calls_;
  if (cache_hit) ++cached_;
  if (!ok) ++call_failures_;
  if (terminal_ && std::chrono::steady_clock::now() - last_draw_ > std::chrono::milliseconds(100)) redraw_locked();
}

void Progress::note(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  log::info("{}", line);
  redraw_locked();
}

void Progress::plan(int64_t planned) {
  std::lock_guard<std::mutex> lock(mutex_);
  planned_ = planned;
}

void Progress::baseline(double speedup) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (speedup > best_) best_ = speedup;
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && drawn_) {
    log::set_status_line("");
    std::fprintf(stderr, "%s\n", fit_status_line(status_locked(), terminal_width()).c_str());
    drawn_ = false;
  }
}

double Progress::best_speedup() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return best_;
}

}  // namespace eok::search
