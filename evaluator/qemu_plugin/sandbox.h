/*
 * Seccomp filter that the plugin installs in the qemu-riscv64 process once the guest program is loaded.
 *
 * qemu-user passes the guest's system calls through to the host, so a candidate that reaches a system call
 * (despite the static checks) would act on the host. After installation, system calls that touch files,
 * processes or the network kill the whole process with SIGSYS; what the emulator itself needs while the
 * guest runs (memory management, signals, read/write on open descriptors, clocks, exit) stays allowed.
 */
#ifndef EOK_SANDBOX_H
#define EOK_SANDBOX_H

#include <stdbool.h>

/* Returns true when the filter is active for every thread of the process. */
bool sandbox_install(void);

#endif
