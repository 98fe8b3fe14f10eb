// Small file-system helpers with errors that name the file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace eok {

namespace fs = std::filesystem;

// Whole file as bytes. Throws NotFoundError (missing) or Error (unreadable) naming the path.
std::string read_file(const fs::path& path);

// Writes through a temporary file and rename(), so readers never see a half-written file.
void write_file_atomic(const fs::path& path, std::string_view data);

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
