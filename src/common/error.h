// Typed errors thrown where bad input enters the program. Each message says what went wrong and what
// the user can do about it; the CLI prints it and exits with the error's exit code. Every command's exit
// codes (src/cli/main.cc prints the table in --help): 0 done; 1 the judged kernel (or board check) is not
// ok; 2 usage or configuration; 3 not found; 4 toolchain; 5 damaged data; 6 infra_error; 7 a search
// stopped early; 8 a search failed; 9 eok could not finish (a file or the workspace); 70 internal error;
// 130 interrupted twice.
//
// A bad candidate kernel is never an error: it is an EvalStatus with evidence (evaluator/eval_result.h).
#pragma once

#include <cerrno>
#include <stdexcept>
#include <string>

namespace eok {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  // 9: not the kernel's verdict (1), but eok could not finish (a file, the disk, the workspace).
  virtual int exit_code() const { return 9; }
  virtual const char* kind() const { return "error"; }
};

// A flag, a configuration file or a task definition is wrong.
class ConfigError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 2; }
  const char* kind() const override { return "config"; }
};

// A user-named thing (task, file, board) does not exist or cannot be read.
class NotFoundError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 3; }
  const char* kind() const override { return "not_found"; }
};

// A tool eok needs (compiler, emulator, plugin) is missing or broken. The message names the fix.
class ToolchainError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 4; }
  const char* kind() const override { return "toolchain"; }
};

// A file eok wrote earlier is damaged (cache, results).
class CorruptDataError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 5; }
  const char* kind() const override { return "corrupt_data"; }
};

// eok or the board failed at something a kernel's verdict needs (the reference or ker0 could not be run):
// the same infra_error a candidate's evaluation can end in, as an error of a whole command.
class InfraError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 6; }
  const char* kind() const override { return "infra"; }
};

// The machine's storage failed eok (a full disk, a quota, an I/O error, a read-only file system): nothing
// about the user's input is wrong, and the same command succeeds once the disk is fixed. Exit code 9, like
// any other failure to finish, but callers can tell it apart (a search stops, resumable, instead of failing).
class StorageError : public Error {
 public:
  using Error::Error;
  const char* kind() const override { return "storage"; }
};

// A promise inside eok broke: a bug, never the user's input or the kernel's doing. Exit code 70; the
// message names the condition and the source line, for a bug report.
class InternalError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 70; }
  const char* kind() const override { return "internal"; }
};

[[noreturn]] inline void fail_assertion(const char* condition, const std::string& why, const char* file, int line) {
  throw InternalError(std::string(file) + ":" + std::to_string(line) + ": " + condition + " does not hold (" + why +
                      "); please report this bug");
}

// Checks an invariant of eok's own code in every build type (unlike assert): a broken one throws
// InternalError instead of running on with wrong state.
#define EOK_ASSERT(condition, why)                                                  \
  do {                                                                              \
    if (!(condition)) ::eok::fail_assertion(#condition, (why), __FILE__, __LINE__); \
  } while (false)

// Whether `err` (an errno) is the storage's failure rather than a wrong path or permission.
inline bool is_storage_errno(int err) {
  return err == ENOSPC || err == EDQUOT || err == EIO || err == EROFS;
}

}  // namespace eok
