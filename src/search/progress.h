// Progress of a search: a live status line on a terminal (counts, best speedup, elapsed, ETA), plain log
// lines otherwise. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace eok::search {

class Progress {
 public:
  // `planned`: proposals the run expects to make (for the ETA); `terminal`: redraw one line on stderr.
  Progress(int64_t planned, bool terminal);
  ~Progress();

  void phase(const std::string& text);  // "iteration 1/2"
  void plan(int64_t planned);           // a better estimate of the proposals to come
  // One proposal finished: `where` ("iter 1 search 0 M1"), `outcome` ("ok 1.13x", "wrong_answer",
  // "no kernel: HTTP 500 ..."), whether it produced a correct kernel, and its speedup.
  void proposal(const std::string& where, const std::string& outcome, bool correct, double speedup);
  // One proposal's evaluation failed in eok or the board (infra_error): counted apart from the kernels'
  // failures and always logged as a line of its own, even on a terminal.
  void infra_error(const std::string& where, const std::string& outcome);
  void llm_call(bool ok, bool cache_hit);
  void note(const std::string& line);  // a log line that does not disturb the status line
  void baseline(double speedup);       // the speedup to beat (ker0's, about 1)
  void finish();

  double best_speedup() const;

 private:
  void redraw_locked();
  std::string status_locked() const;

  mutable std::mutex mutex_;
  int64_t planned_;
  const bool terminal_;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  std::string phase_;
  std::string last_;  // the latest proposal, e.g. "iter 1 search 2 gen 1 M1: kernel #12 ok 1.020x"
  int64_t done_ = 0, correct_ = 0, failed_ = 0, infra_ = 0;
  int64_t calls_ = 0, cached_ = 0, call_failures_ = 0;
  double best_ = 0;
  bool drawn_ = false;
};

// "1:05", "12:30", "1:02:03"
std::string format_duration(double seconds);

// `text` as one terminal line of at most `width` - 1 columns: control characters (escapes, line breaks)
// become spaces, and a longer text is cut (never inside a UTF-8 sequence) and ends in "...".
std::string fit_status_line(const std::string& text, size_t width);

}  // namespace eok::search
