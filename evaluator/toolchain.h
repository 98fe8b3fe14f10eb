// The external tools the evaluator needs, found once, with the command that installs each missing piece.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "evaluator/board.h"

namespace eok::evaluator {

struct Toolchain {
  std::filesystem::path clang;    // clang-22: compiles candidates for riscv64
  std::filesystem::path objcopy;  // llvm-objcopy-22: hides every global of a candidate but its entry
  std::filesystem::path qemu;     // qemu-riscv64 (dynamically linked: it loads TCG plugins)
  std::filesystem::path plugin;   // eok-k1-plugin.so, built next to the eok program
  std::string clang_version;      // first line of clang --version: part of every object cache key
  std::string qemu_version;
};

// Finds every tool for `board`. Throws ToolchainError naming the first missing piece and its fix
// ("apt-get install clang-22"); `eok doctor` lists all of them at once. With `versions_cache` (a JSON file
// in the workspace, read once per call: tool_versions.h), a tool's --version is asked once per installed
// binary (by its inode, size and modification time) instead of once per command.
Toolchain find_toolchain(const BoardProfile& board, const std::filesystem::path& versions_cache = {});

// Where the plugin is: $EOK_PLUGIN, else next to the running program.
std::filesystem::path plugin_path();

// Every host path the sandboxed tools need, read-only: the toolchain's (compiler.h) and the emulator.
std::vector<std::filesystem::path> sandbox_system_paths(const Toolchain& tools);

struct DoctorCheck {
  std::string name;
  bool ok = false;
  bool optional = false;  // missing optional pieces are warnings (e.g. llvm-mca for cross-checks)
  std::string detail;     // version or what went wrong
  std::string fix;        // the command that fixes it
};

// Checks everything the evaluator needs, each independently, by actually using it (compile, link, run
// under qemu, load the plugin). Never throws.
std::vector<DoctorCheck> run_doctor(const std::filesystem::path& root, const std::string& board_name,
                                    const std::filesystem::path& scratch_dir);

}  // namespace eok::evaluator
