#include "src/common/fs_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>

#include "src/common/error.h"
#include "src/common/unique_fd.h"

namespace eok {

namespace {

constexpr uintmax_t kNoLimit = UINTMAX_MAX;

// Magic numbers of the pseudo file systems whose "regular" files are made up when read (linux/magic.h).
constexpr unsigned long kProcSuperMagic = 0x9fa0;
constexpr unsigned long kSysfsMagic = 0x62656572;

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// "kernel source /dev/zero", or just the path when there is no purpose to name.
std::string named(const fs::path& path, std::string_view what) {
  return what.empty() ? path.string() : std::string(what) + " " + path.string();
}

[[noreturn]] void refuse_kind(const fs::path& path, std::string_view what, mode_t mode) {
  throw ConfigError(
      named(path, what) + " is " + kind_of(mode) +
      ", not a regular file: eok reads only regular files here; name a regular file (a link to one is fine)");
}

// `grew`: the file passed the limit while being read (its size is then unknown).
[[noreturn]] void refuse_size(const fs::path& path, std::string_view what, uintmax_t size, uintmax_t max_bytes,
                              bool grew = false) {
  const std::string limit = byte_size_text(max_bytes);
  std::string shown = byte_size_text(size);
  if (shown == limit) shown = std::to_string(size) + " bytes";  // "1 KiB, over the limit of 1 KiB" would puzzle
  throw ConfigError(named(path, what) + (grew ? " grew past " : " is " + shown + ", over ") + "eok's limit of " +
                    limit + " for it: check that the path names the file you meant");
}

[[noreturn]] void cannot_open(const fs::path& path, std::string_view what, int err) {
  if (err == ENOENT || err == ENOTDIR) {
    throw NotFoundError("no such file: " + path.string() + (what.empty() ? "" : " (the " + std::string(what) + ")"));
  }
  if (err == ENXIO)
    throw ConfigError(named(path, what) +
                      " is a socket or a device without a reader, not a regular file: name a regular file");
  throw NotFoundError("cannot read " + named(path, what) + ": " + std::strerror(err));
}

// The one reader behind read_regular_file and read_file. `refuse_pseudo`: refuse files of /proc and /sys.
std::string read_checked(const fs::path& path, uintmax_t max_bytes, std::string_view what, bool refuse_pseudo) {
  // Look before opening: opening a device can have effects of its own (a tape rewinds, a terminal attaches).
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) cannot_open(path, what, errno);
  if (!S_ISREG(st.st_mode)) refuse_kind(path, what, st.st_mode);
  if (static_cast<uintmax_t>(st.st_size) > max_bytes)
    refuse_size(path, what, static_cast<uintmax_t>(st.st_size), max_bytes);

  // The name may point elsewhere by now: what counts is what the descriptor opened. O_NONBLOCK so that a
  // FIFO put in the file's place cannot block the open; O_NOCTTY so that a terminal cannot attach.
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (raw < 0) cannot_open(path, what, errno);
  const UniqueFd fd(raw);
  if (::fstat(fd.get(), &st) != 0) cannot_open(path, what, errno);
  if (!S_ISREG(st.st_mode)) refuse_kind(path, what, st.st_mode);
  if (refuse_pseudo) {
    struct statfs sfs{};
    if (::fstatfs(fd.get(), &sfs) == 0) {
      const auto type = static_cast<unsigned long>(sfs.f_type);
      if (type == kProcSuperMagic || type == kSysfsMagic) {
        throw ConfigError(named(path, what) +
                          " is a file of /proc or /sys, made up by the kernel when read, not a regular "
                          "file: copy what you need into a regular file and name that");
      }
    }
  }
  if (static_cast<uintmax_t>(st.st_size) > max_bytes)
    refuse_size(path, what, static_cast<uintmax_t>(st.st_size), max_bytes);

  // Read at most max_bytes + 1: a file that grew past its limit since the fstat is refused, not read whole.
  std::string data;
  data.reserve(static_cast<size_t>(std::min<uintmax_t>(static_cast<uintmax_t>(st.st_size), max_bytes)) + 1);
  char buf[1 << 16];
  for (;;) {
    const uintmax_t room =
        max_bytes == kNoLimit ? sizeof buf : std::min<uintmax_t>(sizeof buf, max_bytes + 1 - data.size());
    if (room == 0) break;
    const ssize_t n = ::read(fd.get(), buf, static_cast<size_t>(room));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw NotFoundError("cannot read " + named(path, what) + ": " + std::strerror(errno));
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  if (data.size() > max_bytes) refuse_size(path, what, data.size(), max_bytes, true);
  return data;
}

}  // namespace

std::string byte_size_text(uintmax_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) {
    v /= 1024;
    ++u;
  }
  char out[32];
  std::snprintf(out, sizeof out, "%.1f", v);
  std::string text = out;
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " " + units[u];
}

std::string read_regular_file(const fs::path& path, uintmax_t max_bytes, std::string_view what) {
  return read_checked(path, max_bytes, what, true);
}

std::string read_file(const fs::path& path) {
  return read_checked(path, kNoLimit, "", false);
}

namespace {

// fs::create_directories, failing with eok's errors (a full disk is a StorageError) instead of
// std::filesystem_error, which would reach the user as an internal error.
void ensure_directory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec) return;
  const std::string what = "cannot create the directory " + dir.string() + ": " + ec.message();
  if (is_storage_errno(ec.value())) throw StorageError(what + storage_advice(ec.value()));
  throw Error(what);
}

}  // namespace

std::string storage_advice(int err) {
  if (err == EROFS)
    return " (the file system is read-only: set EOK_HOME to a writable directory; runs, leaderboard, "
           "kernels, show and report can still read this workspace)";
  if (err == EIO) return " (the disk reported an I/O error: check it, e.g. dmesg, then run the command again)";
  return " (free space where it lives, then run the command again)";
}

void write_file_atomic(const fs::path& path, std::string_view data) {
  if (path.has_parent_path()) ensure_directory(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  const auto fail = [&](int err) {
    ::unlink(tmp.c_str());  // no half-written file is left behind
    const std::string what = "cannot write " + path.string() + ": " + std::strerror(err);
    if (is_storage_errno(err)) throw StorageError(what + storage_advice(err));
    throw Error(what);
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(errno);
  for (size_t done = 0; done < data.size();) {
    const ssize_t w = ::write(fd, data.data() + done, data.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int err = w < 0 ? errno : ENOSPC;
      ::close(fd);
      fail(err);
    }
    done += static_cast<size_t>(w);
  }
  // close() is where some file systems (NFS, a full quota) first report that the data did not fit.
  if (::close(fd) != 0) fail(errno);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) fail(ec.value());
}

TempDir::TempDir(const fs::path& parent, std::string_view prefix) {
  ensure_directory(parent);
  std::string templ = (parent / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) {
    const int err = errno;
    const std::string what = "cannot create a temporary directory under " + parent.string() + ": " + std::strerror(err);
    if (is_storage_errno(err)) throw StorageError(what + storage_advice(err));
    throw Error(what);
  }
  path_ = templ;
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace eok
