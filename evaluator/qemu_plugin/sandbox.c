#define _GNU_SOURCE
#include "sandbox.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define EOK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define EOK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* System calls a kernel never needs and an attacker always wants. */
static const int kDenied[] = {
#ifdef SYS_open
    SYS_open,
#endif
#ifdef SYS_creat
    SYS_creat,
#endif
#ifdef SYS_unlink
    SYS_unlink,
#endif
#ifdef SYS_rename
    SYS_rename,
#endif
#ifdef SYS_mkdir
    SYS_mkdir,
#endif
#ifdef SYS_rmdir
    SYS_rmdir,
#endif
#ifdef SYS_link
    SYS_link,
#endif
#ifdef SYS_symlink
    SYS_symlink,
#endif
#ifdef SYS_chmod
    SYS_chmod,
#endif
#ifdef SYS_chown
    SYS_chown,
#endif
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
#ifdef SYS_clone3
    SYS_clone3,
#endif
#ifdef SYS_openat2
    SYS_openat2,
#endif
    SYS_openat,      SYS_unlinkat,    SYS_renameat,   SYS_renameat2,  SYS_mkdirat,     SYS_linkat,
    SYS_symlinkat,   SYS_fchmodat,    SYS_fchownat,   SYS_truncate,   SYS_clone,       SYS_execve,
    SYS_execveat,    SYS_ptrace,      SYS_process_vm_writev, SYS_process_vm_readv, SYS_socket, SYS_socketpair,
    SYS_connect,     SYS_bind,        SYS_listen,     SYS_accept,     SYS_accept4,     SYS_mount,
    SYS_umount2,     SYS_chdir,       SYS_fchdir,     SYS_chroot,     SYS_setuid,      SYS_setgid,
    SYS_memfd_create, SYS_name_to_handle_at, SYS_open_by_handle_at,
};

bool sandbox_install(void) {
#ifndef EOK_AUDIT_ARCH
  return false;
#else
  enum { kMax = 192 };
  struct sock_filter prog[kMax];
  unsigned n = 0;
  const unsigned ndeny = sizeof kDenied / sizeof kDenied[0];
  /* Wrong architecture (e.g. an x32 call): kill. */
  prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EOK_AUDIT_ARCH, 1, 0);
  prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  /* kill/tgkill: the emulator signals itself to die of a guest's fatal signal; other targets are denied. */
  const unsigned self = (unsigned)getpid();
  const int self_signalling[] = {SYS_kill, SYS_tgkill};
  for (unsigned i = 0; i < 2; ++i) {
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)self_signalling[i], 0, 4);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  }
  for (unsigned i = 0; i < ndeny && n + 2 < kMax; ++i) {
    /* if nr == denied: fall through to kill, else skip it */
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)kDenied[i], 0, 1);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  }
  prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog fprog = {.len = (unsigned short)n, .filter = prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog) == 0;
#endif
}
