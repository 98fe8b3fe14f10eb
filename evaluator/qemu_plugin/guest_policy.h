/*
 * The allow-list of system calls the guest may make, by phase. The guest is the harness plus the
 * candidate; a call is checked before the emulator carries it out, with its arguments.
 *  - startup (before the first kernel call): what the C runtime and the harness's setup need;
 *  - harness (between and after calls): reading the plan, writing records, mapping buffers, exiting;
 *  - call (inside a kernel call): writing a fault record and exiting, nothing else: a kernel computes;
 *  - program (`eok measure` of a whole program): what startup allows, for the whole run.
 * Nothing opens a file, a descriptor other than 0, 1 and 2 is never touched, no memory becomes
 * executable, and a signal can only go to the guest itself.
 */
#ifndef EOK_GUEST_POLICY_H
#define EOK_GUEST_POLICY_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PHASE_STARTUP, PHASE_HARNESS, PHASE_CALL, PHASE_PROGRAM } guest_phase_t;

/* NULL when allowed; otherwise writes why into `why` and returns it. */
const char* guest_policy_check(guest_phase_t phase, int64_t num, const uint64_t args[6], char* why, size_t whylen);

/* "write", "openat", ... or NULL for numbers the table does not name. */
const char* guest_syscall_name(int64_t num);

#endif
