/*
 * The emulator's own seccomp allow-list, installed by the plugin once the guest is loaded and before its
 * first instruction runs. eok builds the filter (evaluator/sandbox/seccomp_profiles.cc) and passes it as a
 * file of raw BPF instructions; from then on the whole emulator process (every thread) may make only the
 * system calls an emulated kernel run needs, and anything else kills it with SIGSYS. This is a second
 * wall behind the guest policy (guest_policy.h), for the case where guest code escapes the emulation.
 */
#ifndef EOK_HOST_FILTER_H
#define EOK_HOST_FILTER_H

#include <stdbool.h>
#include <stddef.h>

/* Reads the filter from `path` now (the file cannot be opened once the filter is active). */
bool host_filter_load(const char* path, char* err, size_t errlen);

/* Installs the loaded filter for every thread. false: none loaded, or the kernel refused it. */
bool host_filter_install(void);

#endif
