#include "evaluator/environment_failure.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sstream>
#include <string_view>
#include <vector>

namespace eok::evaluator {
namespace {

struct Sign {
  std::string_view text, advice;
};

// The machine's failures as the C library words them (strerror), with what the user can do about each.
constexpr std::array<Sign, 7> kSigns = {{
    {"No space left on device", "the disk is full: free space where the workspace lives (df -h), then resume"},
    {"Disk quota exceeded", "the disk quota is used up: free space, then resume"},
    {"Input/output error", "the disk reported an I/O error: check it (dmesg), then resume"},
    {"Read-only file system", "the workspace's file system became read-only: check it (dmesg), then resume"},
    {"Cannot allocate memory", "the machine ran out of memory: close other work or lower search.eval_concurrency"},
    {"Too many open files", "the process ran out of file descriptors: raise ulimit -n"},
    {"Bus error", "a file the toolchain was reading changed size or could not be paged in (a full disk?)"},
}};

std::string explain(std::string_view text) {
  for (const auto& s : kSigns) {
    if (text.find(s.text) != std::string_view::npos) return std::string(s.text) + ": " + std::string(s.advice);
  }
  return "";
}

}  // namespace

std::string environment_failure(const ProcessResult& p, const std::string& messages, const std::string& source_file) {
  std::istringstream lines(messages);
  std::string line;
  while (std::getline(lines, line)) {
    // The kernel's own: a diagnostic at a place in the source, or the source lines clang quotes under it
    // (indented); the toolchain's own complaints start at the margin.
    if (!source_file.empty() && line.find(source_file + ":") != std::string::npos) continue;
    if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) continue;
    if (std::string why = explain(line); !why.empty()) return why;
  }
  if (!p.timed_out && (p.term_signal == SIGBUS || p.term_signal == SIGKILL)) {
    return "the toolchain was " + p.describe() +
           " (the system killed it: out of memory, or a file it read vanished); check free memory and disk, then "
           "resume";
  }
  return "";
}

std::string storage_failure(const std::filesystem::path& dir, size_t probe_bytes) {
  const std::string path = (dir / ".eok-write-probe").string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  // A directory that is gone or was never ours says nothing of the disk: only the machine's errors count.
  if (fd < 0) return explain(std::strerror(errno));
  const std::vector<char> block(64 * 1024, 0);
  int err = 0;
  for (size_t written = 0; written < probe_bytes && err == 0;) {
    const ssize_t w = ::write(fd, block.data(), std::min(block.size(), probe_bytes - written));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0)
      err = w < 0 ? errno : ENOSPC;
    else
      written += static_cast<size_t>(w);
  }
  if (::close(fd) != 0 && err == 0) err = errno;
  ::unlink(path.c_str());
  if (err == 0) return "";
  const std::string why = explain(std::strerror(err));
  return why.empty() ? std::string("the workspace cannot be written to: ") + std::strerror(err) : why;
}

}  // namespace eok::evaluator
