// Telling the machine's failures from the kernel's: a compiler or linker that ran out of disk or memory,
// hit an I/O error or was killed failed because of the machine, and its verdict must be infra_error
// (never cached, never held against the kernel), not compile_error.
#pragma once

#include <filesystem>
#include <string>

#include "src/common/subprocess.h"

namespace eok::evaluator {

// "" when `p` (a toolchain process) and its `messages` show nothing of the machine; else why the machine
// failed, in words a user can act on. Lines that name the source (`source_file`:...) and the indented
// source lines quoted under them are the compiler speaking about the kernel and are never taken for the
// machine's, so a kernel cannot pass its own error off as eok's with an #error line.
std::string environment_failure(const ProcessResult& p, const std::string& messages, const std::string& source_file);

// "" when `dir` still takes a write of `probe_bytes`; else why it does not (a full disk, an I/O error, a
// read-only file system), in words a user can act on. A run that failed while its directory cannot be
// written to failed because of the machine: its program could not write what it computed. The probe file
// is removed again.
std::string storage_failure(const std::filesystem::path& dir, size_t probe_bytes = size_t{1} << 20);

}  // namespace eok::evaluator
