/*
 * The harness linked with every candidate (and with ref.c) and run on the board.
 *
 * For each case of the plan on stdin it maps fresh buffers where the plan says (guard zones and an
 * unmapped page behind each), fills inputs from the case seed, poisons outputs, and calls the entry
 * function through the generated glue (eok_invoke) between the two measurement markers. It reports
 * nothing about the call: it shares its process with the candidate, so the trusted observer (the board's
 * plugin) reads the buffers itself when the call ends. The only record it writes is a fault's evidence.
 * The plan puts the warm-up and timed calls first (the board's timing protocol), then the checks; every
 * call has fresh inputs, so no call can reuse what an earlier one computed.
 *
 * Built with EOK_BOARD_TIMING it is a real board's harness: it pins itself, picks a timer, installs its own
 * seccomp filter, and times every call itself (records in harness_protocol.h).
 */
#ifdef EOK_BOARD_TIMING
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef EOK_BOARD_TIMING
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#endif

#include "eok_markers.h"
#include "harness_protocol.h"
#include "input_values.h"

/* Generated per task from task.toml: casts the buffers and scalars and calls the entry function. */
void eok_invoke(void* const* bufs, const uint64_t* scalars, uint64_t* ret);

typedef struct {
  int is_buffer;
  char access; /* 'i', 'o', 'b' */
  int type;
  uint64_t count;
  int dist; /* enum eok_dist */
  double lo, hi;
  unsigned specials;
  int tight;
  uint64_t map_addr;
  uint64_t scalar_bits;
  /* allocation */
  unsigned char* map;
  size_t map_bytes;
  unsigned char* data;
  size_t bytes;
} arg_t;

static arg_t g_args[EOK_MAX_ARGS];
static int g_nargs;
static int g_case = -1;
static uint64_t* g_ret_slot;

/* ---- output ---------------------------------------------------------------------------------------- */

static void put(const void* p, size_t n) {
  const unsigned char* c = p;
  while (n > 0) {
    ssize_t w = write(1, c, n);
    if (w <= 0) _exit(4);
    c += w;
    n -= (size_t)w;
  }
}

/* ---- fault reporting ------------------------------------------------------------------------------- */

static void on_fault(int signo, siginfo_t* info, void* ctx) {
  (void)ctx;
  struct eok_signal_record r = {EOK_REC_SIGNAL, signo, (uint64_t)(uintptr_t)info->si_addr, g_case, -1, 0, 0};
  uint64_t best = UINT64_MAX;
  for (int i = 0; i < g_nargs; ++i) {
    if (!g_args[i].is_buffer || !g_args[i].map) continue;
    uint64_t start = (uint64_t)(uintptr_t)g_args[i].data;
    uint64_t end = start + g_args[i].bytes;
    uint64_t a = r.fault_addr;
    uint64_t dist = a < start ? start - a : (a >= end ? a - end : 0);
    if (dist < best) {
      best = dist;
      r.arg_index = i;
      r.offset = (int64_t)(a - start);
      r.buf_bytes = g_args[i].bytes;
    }
  }
  put(&r, sizeof r);
  _exit(3);
}

static void install_fault_handlers(void) {
  static unsigned char alt_stack[1 << 16];
  stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};
  for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) sigaction(sigs[i], &sa, NULL);
}

/* ---- inputs: input_values.h, shared with the host (which recomputes the inputs behind a mismatch) --- */

static void fill_input(arg_t* a, uint64_t seed, int timed) {
  const struct eok_input_spec spec = {a->type, a->dist, a->lo, a->hi, a->specials, a->count};
  if (eok_fill_input(&spec, a->data, seed, timed) != 0) _exit(5);
}

/* ---- buffers --------------------------------------------------------------------------------------- */

static unsigned char guard_byte(size_t k) {
  return (unsigned char)(0xa5u ^ (k * 29u));
}

static void poison(arg_t* a) {
  const size_t es = eok_type_size(a->type);
  for (uint64_t i = 0; i < a->count; ++i) {
    unsigned char* p = a->data + i * es;
    switch (a->type) {
      case EOK_T_F16: {
        uint16_t v = 0x7e5au;
        memcpy(p, &v, 2);
        break;
      }
      case EOK_T_F32: {
        uint32_t v = 0x7fe5a5a5u;
        memcpy(p, &v, 4);
        break;
      }
      case EOK_T_F64: {
        uint64_t v = 0x7ffa5a5a5a5a5a5aull;
        memcpy(p, &v, 8);
        break;
      }
      default:
        memset(p, 0xa5, es);
        break;
    }
  }
}

/* Maps `bytes` bytes at `addr` exactly (the plugin reads the buffers there). */
static unsigned char* map_at(uint64_t addr, size_t bytes) {
  void* m = mmap((void*)(uintptr_t)addr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  if ((uint64_t)(uintptr_t)m != addr) {
    munmap(m, bytes);
    return NULL;
  }
  return m;
}

/* The mapping eok_layout_buffer() describes, with its guard bytes written. */
static int allocate(arg_t* a) {
  a->bytes = (size_t)a->count * eok_type_size(a->type);
  const struct eok_buffer_layout l = eok_layout_buffer(a->bytes, a->tight);
  a->map_bytes = l.map_bytes;
  a->map = map_at(a->map_addr, a->map_bytes);
  if (!a->map) return 0;
  if (mprotect(a->map + a->map_bytes - EOK_PAGE_BYTES, EOK_PAGE_BYTES, PROT_NONE) != 0) return 0;
  a->data = a->map + l.data_offset;
  for (size_t k = 1; k <= EOK_GUARD_BYTES; ++k) a->data[-(ptrdiff_t)k] = guard_byte(k);
  for (size_t k = 0; k < l.guard_after; ++k) a->data[a->bytes + k] = guard_byte(k + 1000);
  return 1;
}

static void release(arg_t* a) {
  if (a->map) munmap(a->map, a->map_bytes);
  a->map = NULL;
}

/* ---- a real board's timer, pinning and seccomp filter (EOK_BOARD_TIMING) ---------------------------- */

#ifdef EOK_BOARD_TIMING
static int g_timer;
static int g_perf_fd = -1;
static unsigned char* g_flush;
static size_t g_flush_bytes;
static sigjmp_buf g_probe_jmp;

static void on_probe_sigill(int signo) {
  (void)signo;
  siglongjmp(g_probe_jmp, 1);
}

static uint64_t rdcycle(void) {
  uint64_t v;
  __asm__ volatile("csrr %0, 0xc00" : "=r"(v)); /* cycle */
  return v;
}

/* Linux 6.6+ may make the cycle CSR trap in user space: try it once under a SIGILL handler. */
static int rdcycle_works(void) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_probe_sigill;
  sigaction(SIGILL, &sa, &old);
  int ok = 0;
  if (sigsetjmp(g_probe_jmp, 1) == 0) {
    uint64_t a = rdcycle(), b = rdcycle();
    ok = b >= a;
  }
  sigaction(SIGILL, &old, NULL);
  return ok;
}

static uint64_t now_ticks(void) {
  if (g_timer == EOK_TIMER_PERF_CYCLES) {
    uint64_t v = 0;
    if (read(g_perf_fd, &v, sizeof v) != (ssize_t)sizeof v) _exit(6);
    return v;
  }
  if (g_timer == EOK_TIMER_RDCYCLE) return rdcycle();
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Allowed after set-up: what the harness itself needs (stdio, buffers, signals, the timer). Anything else
 * (files, processes, network) kills the process: the board is someone's machine. */
static int install_seccomp(void) {
  static const int allowed[] = {
      SYS_read,          SYS_write,      SYS_exit,         SYS_exit_group,   SYS_mmap,           SYS_munmap,
      SYS_mprotect,      SYS_brk,        SYS_rt_sigreturn, SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_sigaltstack,
      SYS_clock_gettime, SYS_newfstatat, SYS_fstat,        SYS_madvise,      SYS_getrandom,      SYS_futex};
  enum { N = sizeof allowed / sizeof allowed[0] };
  struct sock_filter f[4 + 2 * N + 1];
  int k = 0;
  f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_RISCV64, 1, 0);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  for (int i = 0; i < N; ++i) {
    f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)allowed[i], 0, 1);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  struct sock_fprog prog = {(unsigned short)k, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) return errno;
  return 0;
}

/* Before the first case: pin, pick the timer, map the flush buffer, then lock the process down. */
static void board_setup(int core, size_t flush_bytes) {
  struct eok_board_record r;
  memset(&r, 0, sizeof r);
  r.magic = EOK_REC_BOARD;
  r.pinned_core = -1;
  if (core >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    r.pinned_core = sched_setaffinity(0, sizeof set, &set) == 0 ? core : -errno;
  }
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  g_perf_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  uint64_t probe;
  if (g_perf_fd >= 0 && read(g_perf_fd, &probe, sizeof probe) == (ssize_t)sizeof probe) {
    g_timer = EOK_TIMER_PERF_CYCLES;
  } else {
    r.perf_errno = (uint64_t)(g_perf_fd < 0 ? errno : EIO);
    g_timer = rdcycle_works() ? EOK_TIMER_RDCYCLE : EOK_TIMER_MONOTONIC_NS;
  }
  r.timer = g_timer;
  if (flush_bytes > 0) {
    void* m = mmap(NULL, flush_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) _exit(5);
    g_flush = m;
    g_flush_bytes = flush_bytes;
    memset(g_flush, 1, g_flush_bytes);
  }
  r.overhead = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    uint64_t a = now_ticks(), b = now_ticks();
    if (b - a < r.overhead) r.overhead = b - a;
  }
  r.seccomp_errno = install_seccomp();
  put(&r, sizeof r);
}

/* Evicts the caches the kernel's data might sit in: writes, then reads, a buffer twice the L2's size. */
static void flush_caches(void) {
  volatile unsigned char sink = 0;
  for (size_t i = 0; i < g_flush_bytes; i += 64) g_flush[i] = (unsigned char)(g_flush[i] + 1);
  for (size_t i = 0; i < g_flush_bytes; i += 64) sink ^= g_flush[i];
  (void)sink;
}
#endif

/* ---- the call -------------------------------------------------------------------------------------- */

/* Every call runs between the markers; eok tells the plugin their two addresses, and the plugin honours
 * markers nowhere else. */
__attribute__((noinline)) void eok_harness_call(void* const* bufs, const uint64_t* scalars, uint64_t* ret) {
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_BEGIN_IMM) : "memory");
  eok_invoke(bufs, scalars, ret);
  __asm__ volatile("slti zero, zero, %0" ::"i"(EOK_MARK_END_IMM) : "memory");
}

static int parse_arg(arg_t* a) {
  char kind[8];
  memset(a, 0, sizeof *a);
  if (scanf("%7s", kind) != 1) return 0;
  if (strcmp(kind, "scal") == 0) {
    unsigned long long bits;
    if (scanf("%llu", &bits) != 1) return 0;
    a->scalar_bits = bits;
    return 1;
  }
  if (strcmp(kind, "buf") != 0) return 0;
  char access;
  unsigned long long count;
  unsigned long long map_addr;
  if (scanf(" %c %d %llu %d %lf %lf %u %d %llx", &access, &a->type, &count, &a->dist, &a->lo, &a->hi, &a->specials,
            &a->tight, &map_addr) != 9)
    return 0;
  a->map_addr = map_addr;
  a->is_buffer = 1;
  a->access = access;
  a->count = count;
  return a->type >= EOK_T_F16 && a->type <= EOK_T_U64 && (access == 'i' || access == 'o' || access == 'b') &&
         a->dist >= EOK_DIST_UNIFORM && a->dist <= EOK_DIST_OFFSETS;
}

static void run_case(int index, int timed, uint64_t seed) {
  /* A kernel may leave the FP rounding mode or flags changed: inputs are drawn under the defaults. */
  __asm__ volatile("fscsr zero" ::: "memory");
  void* bufs[EOK_MAX_ARGS] = {0};
  uint64_t scalars[EOK_MAX_ARGS] = {0};
  for (int i = 0; i < g_nargs; ++i) {
    arg_t* a = &g_args[i];
    if (!a->is_buffer) {
      scalars[i] = a->scalar_bits;
      continue;
    }
    if (!allocate(a)) {
      fprintf(stderr, "harness: cannot map %llu elements for argument %d at 0x%llx\n", (unsigned long long)a->count, i,
              (unsigned long long)a->map_addr);
      _exit(5);
    }
    if (a->access == 'o')
      poison(a);
    else
      fill_input(a, eok_input_seed(seed, i), timed);
    bufs[i] = a->data;
  }
  g_case = index;
  *g_ret_slot = 0;
#ifdef EOK_BOARD_TIMING
  if (timed && g_flush) flush_caches();
  const uint64_t t0 = now_ticks();
  eok_harness_call(bufs, scalars, g_ret_slot);
  const uint64_t t1 = now_ticks();
  struct eok_time_record tr = {EOK_REC_TIME, index, t1 - t0};
  put(&tr, sizeof tr);
#else
  (void)timed;
  eok_harness_call(bufs, scalars, g_ret_slot);
#endif
  for (int i = 0; i < g_nargs; ++i) release(&g_args[i]);
}

int main(int argc, char** argv) {
#ifdef EOK_BOARD_TIMING
  /* eok's remote script passes: --core N (or -1) --flush BYTES (or 0). */
  int core = -1;
  size_t flush_bytes = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--core") == 0)
      core = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--flush") == 0)
      flush_bytes = (size_t)strtoull(argv[i + 1], NULL, 10);
  }
  install_fault_handlers(); /* before the filter: it needs sigaltstack */
  board_setup(core, flush_bytes);
#else
  (void)argc;
  (void)argv;
  install_fault_handlers();
#endif
  char magic[32];
  int version;
  unsigned long long ret_addr;
  if (scanf("%31s %d", magic, &version) != 2 || strcmp(magic, "eok-plan") != 0 || version != EOK_PLAN_VERSION) {
    fprintf(stderr, "harness: stdin is not an eok plan (version %d)\n", EOK_PLAN_VERSION);
    return 2;
  }
  if (sysconf(_SC_PAGESIZE) != EOK_PAGE_BYTES) {
    fprintf(stderr, "harness: the page size is not %u bytes\n", EOK_PAGE_BYTES);
    return 2;
  }
  char word[16];
  if (scanf("%15s %llx", word, &ret_addr) != 2 || strcmp(word, "ret") != 0 ||
      !(g_ret_slot = (uint64_t*)map_at(ret_addr, EOK_PAGE_BYTES))) {
    fprintf(stderr, "harness: no return slot\n");
    return 2;
  }
  int ncases = 0;
  while (scanf("%15s", word) == 1) {
    int timed;
    unsigned long long seed;
    if (strcmp(word, "case") != 0 || scanf("%d %llu %d", &timed, &seed, &g_nargs) != 3 || g_nargs < 0 ||
        g_nargs > EOK_MAX_ARGS) {
      fprintf(stderr, "harness: malformed plan at case %d\n", ncases);
      return 2;
    }
    for (int i = 0; i < g_nargs; ++i) {
      if (!parse_arg(&g_args[i])) {
        fprintf(stderr, "harness: malformed argument %d of case %d\n", i, ncases);
        return 2;
      }
    }
    run_case(ncases++, timed, seed);
  }
  return 0;
}
