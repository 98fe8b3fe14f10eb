// The seccomp allow-lists of the evaluation sandbox, built with libseccomp as raw BPF programs.
//
// Three lists, from loose to strict:
//  - toolchain: clang, lld and llvm-objcopy (file work inside the sandbox, threads, running lld); network,
//    ptrace, mounts, namespaces, keyrings, kernel modules and the like fail with EPERM;
//  - emulator_startup: qemu-riscv64 until the guest's first instruction (loading libraries, the plugin and
//    the guest program); bubblewrap installs it right before it runs qemu;
//  - emulator_guest: qemu-riscv64 while the guest runs; the plugin installs it on top of the first
//    (evaluator/qemu_plugin/host_filter.h). No file can be opened, no process created or signalled
//    outside the sandbox, no descriptor passed; anything else kills the emulator with SIGSYS.
#pragma once

#include <string>

namespace eok::evaluator::sandbox {

enum class SeccompProfile { toolchain, emulator_startup, emulator_guest };

// The profile as a BPF program for this host's architecture (struct sock_filter array bytes), ready for
// bubblewrap's --seccomp or the plugin's filter= file. Throws ToolchainError if libseccomp fails.
std::string seccomp_program(SeccompProfile profile);

const char* profile_name(SeccompProfile profile);

}  // namespace eok::evaluator::sandbox
