#include "evaluator/environment_failure.h"

#include <array>
#include <csignal>
#include <sstream>
#include <string_view>

namespace eok::evaluator {

std::string environment_failure(const ProcessResult& p, const std::string& messages, const std::string& source_file) {
  struct Sign {
    std::string_view text, advice;
  };
  static constexpr std::array<Sign, 7> kSigns = {{
      {"No space left on device", "the disk is full: free space where the workspace lives (df -h), then resume"},
      {"Disk quota exceeded", "the disk quota is used up: free space, then resume"},
      {"Input/output error", "the disk reported an I/O error: check it (dmesg), then resume"},
      {"Read-only file system", "the workspace's file system became read-only: check it (dmesg), then resume"},
      {"Cannot allocate memory", "the machine ran out of memory: close other work or lower search.eval_concurrency"},
      {"Too many open files", "the process ran out of file descriptors: raise ulimit -n"},
      {"Bus error", "a file the toolchain was reading changed size or could not be paged in (a full disk?)"},
  }};
  std::istringstream lines(messages);
  std::string line;
  while (std::getline(lines, line)) {
    // The kernel's own: a diagnostic at a place in the source, or the source lines clang quotes under it
    // (indented); the toolchain's own complaints start at the margin.
    if (!source_file.empty() && line.find(source_file + ":") != std::string::npos) continue;
    if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) continue;
    for (const auto& s : kSigns) {
      if (line.find(s.text) != std::string::npos) return std::string(s.text) + ": " + std::string(s.advice);
    }
  }
  if (!p.timed_out && (p.term_signal == SIGBUS || p.term_signal == SIGKILL)) {
    return "the toolchain was " + p.describe() +
           " (the system killed it: out of memory, or a file it read vanished); check free memory and disk, then resume";
  }
  return "";
}

}  // namespace eok::evaluator
