/*
 * Reading guest memory from the plugin. In qemu-user a guest address is a host address plus a fixed
 * offset (guest_base); the offset is learned from the first translated instruction (its host address
 * minus its guest address, verified against the instruction's bytes). Reads are allowed only inside
 * ranges the guest mapped itself (tracked from its mmap/munmap system calls), so a layout the guest broke
 * is reported instead of faulting the emulator.
 */
#ifndef EOK_GUEST_MEMORY_H
#define EOK_GUEST_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

struct qemu_plugin_insn;

/* Learns guest_base from an instruction (call on the first translation). */
void guest_memory_learn(const struct qemu_plugin_insn* insn);
bool guest_memory_ok(void);

/* Host pointer to guest address `vaddr` (only valid when guest_memory_ok()). */
const uint8_t* guest_ptr(uint64_t vaddr);

/* Mapping bookkeeping, fed from the guest's system calls (before and after the emulator runs them). */
void guest_memory_syscall(int64_t num, uint64_t a1, uint64_t a2, uint64_t a3);
void guest_memory_syscall_ret(int64_t num, int64_t ret);

/* [vaddr, vaddr + len) lies inside memory the guest mapped with mmap and has not unmapped. */
bool guest_range_mapped(uint64_t vaddr, uint64_t len);

#endif
