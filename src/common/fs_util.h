// Small file-system helpers with errors that name the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace eok {

namespace fs = std::filesystem;

// How large a file a user names may be, by what it is for. Larger files are refused without being read.
inline constexpr uintmax_t kKernelSourceMaxBytes = 256 * 1024;  // the evaluator's limit on a candidate's source
inline constexpr uintmax_t kSettingsFileMaxBytes = 4u << 20;    // TOML settings, task definitions, prompts
inline constexpr uintmax_t kDocumentMaxBytes = 32u << 20;       // a document for retrieval (eok rag build --docs)
inline constexpr uintmax_t kDataFileMaxBytes = 256u << 20;      // an idea pool, an asv result file or log

// The whole of a file that a user named, on the command line or in configuration. Refuses, without
// reading it and without blocking, anything that is not a regular file (a FIFO, a device such as
// /dev/zero, a socket, a folder, a file of /proc or /sys) and any file larger than `max_bytes` (also when
// it grows while being read). A symbolic link to a regular file is fine. `what` names the file's purpose
// in messages ("kernel source", "settings file"). Throws NotFoundError (missing, or not readable) or
// ConfigError (not a regular file, too large), each naming the path and what to do.
std::string read_regular_file(const fs::path& path, uintmax_t max_bytes, std::string_view what);

// Whole file as bytes, for files eok itself wrote or ships (no size limit). Refuses what is not a regular
// file, as read_regular_file does, so that a FIFO never hangs eok. Throws NotFoundError (missing or
// unreadable) or ConfigError (not a regular file) naming the path.
std::string read_file(const fs::path& path);

// "512 bytes", "256 KiB", "24.0 GiB".
std::string byte_size_text(uintmax_t bytes);

// Writes through a temporary file and rename(), so readers never see a half-written file. Throws
// StorageError when the disk fails (full, read-only, I/O error), Error otherwise.
void write_file_atomic(const fs::path& path, std::string_view data);

// What the user can do when the disk failed with `err` (an errno for which is_storage_errno holds):
// " (free space where it lives, then run the command again)" and the like, to append to a message.
std::string storage_advice(int err);

// A fresh private directory (mode 0700) removed with everything in it on destruction unless keep() was
// called. Candidates run inside one; nothing they write survives the evaluation.
class TempDir {
 public:
  explicit TempDir(const fs::path& parent, std::string_view prefix = "eok-");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  fs::path path_;
  bool keep_ = false;
};

}  // namespace eok
