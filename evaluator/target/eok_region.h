/*
 * eok_region.h: mark the regions of any riscv64 program that `eok measure` should time.
 *
 *   #include "eok_region.h"
 *   EOK_REGION_BEGIN();
 *   work();                 // modeled cycles, instructions and profile of everything executed here
 *   EOK_REGION_END();
 *
 * `eok measure --board k1 -- ./program` runs the (statically linked) program on the virtual board and
 * reports every region in the order it ended. Regions do not nest. Caches carry over from one region to the
 * next, and from the code between regions, as they would on the board.
 *
 * A marker is `slti zero, zero, IMM`, a HINT encoding: on real hardware and on any other emulator it does
 * nothing, so a program keeps these markers when it runs on a real K1. On other architectures the macros
 * expand to nothing. The "memory" clobber keeps the compiler from moving memory accesses across a marker.
 */
#ifndef EOK_REGION_H
#define EOK_REGION_H

#define EOK_REGION_BEGIN_IMM 1250 /* 0x4e2 */
#define EOK_REGION_END_IMM 1251   /* 0x4e3 */

#if defined(__riscv)
#define EOK_REGION_STR2(x) #x
#define EOK_REGION_STR(x) EOK_REGION_STR2(x)
#define EOK_REGION_BEGIN() __asm__ volatile("slti zero, zero, " EOK_REGION_STR(EOK_REGION_BEGIN_IMM)::: "memory")
#define EOK_REGION_END() __asm__ volatile("slti zero, zero, " EOK_REGION_STR(EOK_REGION_END_IMM)::: "memory")
#else
#define EOK_REGION_BEGIN() ((void)0)
#define EOK_REGION_END() ((void)0)
#endif

#endif
