#define _GNU_SOURCE
#include "host_filter.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct sock_filter* g_prog;
static size_t g_len;

bool host_filter_load(const char* path, char* err, size_t errlen) {
  FILE* f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot read the seccomp filter %s", path);
    return false;
  }
  size_t cap = 256;
  g_prog = malloc(cap * sizeof *g_prog);
  if (!g_prog) abort();
  size_t n;
  while ((n = fread(g_prog + g_len, sizeof *g_prog, cap - g_len, f)) > 0) {
    g_len += n;
    if (g_len == cap) {
      cap *= 2;
      g_prog = realloc(g_prog, cap * sizeof *g_prog);
      if (!g_prog) abort();
    }
  }
  fclose(f);
  if (g_len == 0 || g_len > BPF_MAXINSNS) {
    snprintf(err, errlen, "the seccomp filter %s is empty or too long", path);
    return false;
  }
  return true;
}

bool host_filter_install(void) {
  if (g_len == 0) return false;
  struct sock_fprog fprog = {.len = (unsigned short)g_len, .filter = g_prog};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog) == 0;
}
