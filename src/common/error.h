// Typed errors thrown where bad input enters the program. Each message says what went wrong and what
// the user can do about it; the CLI prints it and exits with the error's exit code.
//
// A bad candidate kernel is never an error: it is an EvalStatus with evidence (evaluator/eval_result.h).
#pragma once

#include <stdexcept>
#include <string>

namespace eok {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  virtual int exit_code() const { return 1; }
};

// A flag, a configuration file or a task definition is wrong.
class ConfigError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 2; }
};

// A user-named thing (task, file, board) does not exist or cannot be read.
class NotFoundError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 3; }
};

// A tool eok needs (compiler, emulator, plugin) is missing or broken. The message names the fix.
class ToolchainError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 4; }
};

// A file eok wrote earlier is damaged (cache, results).
class CorruptDataError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 5; }
};

}  // namespace eok
