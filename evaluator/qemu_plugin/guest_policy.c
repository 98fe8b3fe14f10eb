#include "guest_policy.h"

#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "evaluator/target/harness_protocol.h"

/* riscv64 (asm-generic) numbers: the guest's, not the host's. */
enum {
  G_IOCTL = 29,
  G_OPENAT = 56,
  G_CLOSE = 57,
  G_READ = 63,
  G_WRITE = 64,
  G_READLINKAT = 78,
  G_NEWFSTATAT = 79,
  G_FSTAT = 80,
  G_EXIT = 93,
  G_EXIT_GROUP = 94,
  G_SET_TID_ADDRESS = 96,
  G_SET_ROBUST_LIST = 99,
  G_CLOCK_GETTIME = 113,
  G_SYSINFO = 179,
  G_KILL = 129,
  G_TKILL = 130,
  G_TGKILL = 131,
  G_SIGALTSTACK = 132,
  G_RT_SIGACTION = 134,
  G_RT_SIGPROCMASK = 135,
  G_RT_SIGRETURN = 139,
  G_UNAME = 160,
  G_GETPID = 172,
  G_GETTID = 178,
  G_BRK = 214,
  G_MUNMAP = 215,
  G_MMAP = 222,
  G_MPROTECT = 226,
  G_MADVISE = 233,
  G_PRLIMIT64 = 261,
  G_GETRANDOM = 278,
  G_RSEQ = 293
};

enum {
  G_PROT_EXEC = 4,
  G_MAP_FIXED = 0x10,
  G_MAP_ANONYMOUS = 0x20,
  G_MAP_FIXED_NOREPLACE = 0x100000,
  G_TCGETS = 0x5401,
  G_AT_EMPTY_PATH = 0x1000
};

/* Guest memory is host memory: the emulator's own mappings (its binary, its heap, the plugin) lie high in
 * the same address space. The guest may name memory only far below them, and never ask for an address it
 * cannot have (MAP_FIXED), so it can neither replace the emulator's pages nor probe where they are. */
#define G_ADDRESS_LIMIT 0x100000000000ull /* 16 TiB: the guest's own mappings are below 1 TiB */

static const struct {
  int num;
  const char* name;
} kNames[] = {
    {G_IOCTL, "ioctl"},
    {G_OPENAT, "openat"},
    {G_CLOSE, "close"},
    {G_READ, "read"},
    {G_WRITE, "write"},
    {G_READLINKAT, "readlinkat"},
    {G_NEWFSTATAT, "newfstatat"},
    {G_FSTAT, "fstat"},
    {G_EXIT, "exit"},
    {G_EXIT_GROUP, "exit_group"},
    {G_SET_TID_ADDRESS, "set_tid_address"},
    {G_SET_ROBUST_LIST, "set_robust_list"},
    {G_CLOCK_GETTIME, "clock_gettime"},
    {G_KILL, "kill"},
    {G_TKILL, "tkill"},
    {G_TGKILL, "tgkill"},
    {G_SIGALTSTACK, "sigaltstack"},
    {G_RT_SIGACTION, "rt_sigaction"},
    {G_RT_SIGPROCMASK, "rt_sigprocmask"},
    {G_RT_SIGRETURN, "rt_sigreturn"},
    {G_UNAME, "uname"},
    {G_GETPID, "getpid"},
    {G_GETTID, "gettid"},
    {G_BRK, "brk"},
    {G_MUNMAP, "munmap"},
    {G_MMAP, "mmap"},
    {G_MPROTECT, "mprotect"},
    {G_MADVISE, "madvise"},
    {G_PRLIMIT64, "prlimit64"},
    {G_GETRANDOM, "getrandom"},
    {G_RSEQ, "rseq"},
    {G_SYSINFO, "sysinfo"},
    /* Often tried, never allowed: named so that the evidence reads well. */
    {25, "fcntl"},
    {23, "dup"},
    {24, "dup3"},
    {33, "mknodat"},
    {34, "mkdirat"},
    {35, "unlinkat"},
    {37, "linkat"},
    {38, "renameat"},
    {48, "faccessat"},
    {49, "chdir"},
    {52, "fchmodat"},
    {53, "fchownat"},
    {59, "pipe2"},
    {62, "lseek"},
    {66, "writev"},
    {67, "pread64"},
    {68, "pwrite64"},
    {71, "sendfile"},
    {88, "utimensat"},
    {5, "setxattr"},
    {6, "lsetxattr"},
    {7, "fsetxattr"},
    {101, "nanosleep"},
    {117, "ptrace"},
    {198, "socket"},
    {203, "connect"},
    {220, "clone"},
    {221, "execve"},
    {270, "process_vm_readv"},
    {271, "process_vm_writev"},
    {279, "memfd_create"},
    {281, "execveat"},
    {424, "pidfd_send_signal"},
    {434, "pidfd_open"},
    {435, "clone3"},
    {438, "pidfd_getfd"},
    {437, "openat2"},
};

const char* guest_syscall_name(int64_t num) {
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    if (kNames[i].num == num) return kNames[i].name;
  }
  return NULL;
}

static bool std_fd(uint64_t fd) {
  return fd <= 2;
}

static bool low(uint64_t addr, uint64_t len) {
  return addr < G_ADDRESS_LIMIT && len <= G_ADDRESS_LIMIT - addr;
}

/* A signal to anything but the guest itself (the emulator's own process) is refused. */
static bool to_self(uint64_t pid) {
  return (int64_t)pid == (int64_t)getpid();
}

static bool allowed(guest_phase_t phase, int64_t num, const uint64_t* a) {
  /* Inside a kernel call: the harness's fault handler writes its one record and exits. */
  if (num == G_WRITE) {
    if (phase == PHASE_CALL) return a[0] == 1 && a[2] == sizeof(struct eok_signal_record);
    return a[0] == 1 || a[0] == 2;
  }
  if (num == G_EXIT_GROUP || num == G_EXIT) return true;
  if (phase == PHASE_CALL) return false;

  switch (num) {
    case G_READ:
      return a[0] == 0;
    case G_MMAP:
      return !(a[2] & G_PROT_EXEC) && (a[3] & G_MAP_ANONYMOUS) && !(a[3] & (G_MAP_FIXED | G_MAP_FIXED_NOREPLACE)) &&
             (int64_t)a[4] == -1 && low(a[0], a[1]);
    case G_MPROTECT:
      return !(a[2] & G_PROT_EXEC) && low(a[0], a[1]);
    case G_MUNMAP:
    case G_MADVISE:
      return low(a[0], a[1]);
    case G_BRK:
      return low(a[0], 0);
    case G_RT_SIGPROCMASK:
    case G_GETPID:
    case G_GETTID:
    case G_SYSINFO: /* qsort (the harness sorts inputs) asks how much memory there is */
      return true;
    case G_KILL:
    case G_TKILL:
      return to_self(a[0]); /* abort() in the harness raises SIGABRT */
    case G_TGKILL:
      return to_self(a[0]);
    default:
      break;
  }
  if (phase != PHASE_STARTUP && phase != PHASE_PROGRAM) return false;
  /* The C runtime's start, stdio's first look at fd 0, and the harness's signal handlers. */
  switch (num) {
    case G_SET_TID_ADDRESS:
    case G_SET_ROBUST_LIST:
    case G_RSEQ:
    case G_READLINKAT:
    case G_UNAME:
    case G_RT_SIGACTION:
    case G_SIGALTSTACK:
    case G_GETRANDOM:
    case G_CLOCK_GETTIME:
      return true;
    case G_NEWFSTATAT:
      return std_fd(a[0]) && (a[3] & G_AT_EMPTY_PATH);
    case G_FSTAT:
      return std_fd(a[0]);
    case G_IOCTL:
      return std_fd(a[0]) && a[1] == G_TCGETS;
    case G_PRLIMIT64:
      return a[0] == 0 && a[2] == 0; /* reading its own limits only */
    default:
      return false;
  }
}

const char* guest_policy_check(guest_phase_t phase, int64_t num, const uint64_t args[6], char* why, size_t whylen) {
  if (allowed(phase, num, args)) return NULL;
  const char* name = guest_syscall_name(num);
  const char* where = phase == PHASE_CALL      ? "inside the kernel call"
                      : phase == PHASE_STARTUP ? "before the first call"
                      : phase == PHASE_PROGRAM ? "in a measured program (it may compute, allocate memory and write to "
                                                 "stdout/stderr; it opens no file)"
                                               : "between kernel calls";
  char label[32];
  if (!name) {
    snprintf(label, sizeof label, "number %lld", (long long)num);
    name = label;
  }
  snprintf(why, whylen, "system call %s(0x%llx, 0x%llx, 0x%llx, ...) %s%s", name, (unsigned long long)args[0],
           (unsigned long long)args[1], (unsigned long long)args[2], where,
           phase == PHASE_PROGRAM ? "" : "; a kernel may make no system calls");
  return why;
}
