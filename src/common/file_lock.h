// An exclusive, non-blocking lock on a file (flock): held by one object in one process at a time across
// every process of the machine, and released when the object goes or the process dies (even by kill -9).
#pragma once

#include <filesystem>

namespace eok {

class FileLock {
 public:
  // Creates `file` when missing and tries to lock it; held() says whether it got the lock. Throws Error
  // when the file cannot be opened (naming it).
  explicit FileLock(const std::filesystem::path& file);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace eok
