// Bulk remove (moderngpu's bulk_remove), int32: dest = source without the positions in sorted indices.
// Blocked flag compaction. The source is cut into blocks of BLK positions; the indices that fall in a
// block are a contiguous run of `indices` (they are sorted). They are scattered as 1-bytes into a zeroed
// flag array on the stack (vsuxei32, masked by "index < block end"; duplicates write the same byte
// twice), and the flags become a keep bitmap in one e8m8 pass (vmseq + vsm) that also counts the kept
// elements. Each LMUL-1 strip of source is then compacted with vcompress under its bitmap bits (vlm) and
// stored at the output cursor, which advances by vcpop. vcompress is cheap only at LMUL 1 on the X60
// (3 cycles; 10 at m2, 36 at m4); four strips per iteration, loads, counts, compresses and stores
// grouped so the in-order core overlaps their chains. Stores use the full vl while the block's known kept count leaves room
// (the surplus lanes are overwritten by the next strip), so no vsetvl waits on vcpop; the last strips of
// a block store exactly. A block without any index is a plain LMUL-8 copy. If vlmax is not a multiple of
// 8 (bitmap bytes would not align with strips) the strips read the byte flags instead.
#include <riscv_vector.h>
#include <stddef.h>
#include <stdint.h>

// No LMUL knob: the strips must stay at LMUL 1 (vcompress/vrgather cost), and the LMUL-8 copy and
// e8m8 passes cannot be scaled up. The block size (positions per flag array on the stack) is a knob.
// eok-knob: BLK = 2048 in {512, 1024, 2048, 4096}
#ifndef BLK
#define BLK 2048
#endif
#if BLK % 256 != 0
#error "BLK must be a multiple of 256"
#endif

int32_t bulk_remove_i32(const int32_t *source, int n, const int32_t *indices, int ni, int32_t *dest) {
  uint8_t flags[BLK];
  uint8_t bits[BLK / 8];
  const size_t N = n > 0 ? (size_t)n : 0, NI = ni > 0 ? (size_t)ni : 0;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  size_t j = 0;
  int32_t *out = dest;
  for (size_t base = 0; base < N; base += BLK) {
    const size_t len = N - base < BLK ? N - base : BLK;
    const int32_t *src = source + base;
    if (j >= NI || (size_t)indices[j] >= base + len) {  // nothing removed here: straight copy
      for (size_t i = 0, vl; i < len; i += vl, out += vl) {
        vl = __riscv_vsetvl_e32m8(len - i);
        __riscv_vse32_v_i32m8(out, __riscv_vle32_v_i32m8(src + i, vl), vl);
      }
      continue;
    }
    for (size_t i = 0, vl; i < len; i += vl) {
      vl = __riscv_vsetvl_e8m8(len - i);
      __riscv_vse8_v_u8m8(flags + i, __riscv_vmv_v_x_u8m8(0, vl), vl);
    }
    // Scatter this block's indices (a prefix of indices[j..]): flag[idx - base] = 1.
    const uint32_t lim = (uint32_t)(base + len);
    while (j < NI) {
      size_t vl = __riscv_vsetvl_e32m4(NI - j);
      vuint32m4_t ix = __riscv_vle32_v_u32m4((const uint32_t *)indices + j, vl);
      vbool8_t in = __riscv_vmsltu_vx_u32m4_b8(ix, lim, vl);
      ix = __riscv_vsub_vx_u32m4(ix, (uint32_t)base, vl);
      __riscv_vsuxei32_v_u8m1_m(in, flags, ix, __riscv_vmv_v_x_u8m1(1, vl), vl);
      size_t c = __riscv_vcpop_m_b8(in, vl);
      j += c;
      if (c < vl) break;
    }
    // Flags -> keep bitmap (bit i = position base + i survives), and the block's kept count.
    size_t kept = 0;
    for (size_t i = 0, vl; i < len; i += vl) {
      vl = __riscv_vsetvl_e8m8(len - i);
      vbool1_t k = __riscv_vmseq_vx_u8m8_b1(__riscv_vle8_v_u8m8(flags + i, vl), 0, vl);
      __riscv_vsm_v_b1(bits + i / 8, k, vl);
      kept += __riscv_vcpop_m_b1(k, vl);
    }
    int32_t *const out_end = out + kept;
    size_t i = 0;
    if (vlmax % 8 == 0) {
      // Four full strips per iteration, stored at full vl while at least 4 * vlmax outputs of this block
      // remain to be written (each strip's surplus lanes are overwritten by the next strip). The loads,
      // compresses, counts and stores are grouped so the in-order core overlaps the four chains.
      const size_t q = 4 * vlmax;
      for (; i + q <= len && out + q <= out_end; i += q) {
        const uint8_t *b = bits + i / 8;
        const int32_t *s = src + i;
        vbool32_t k0 = __riscv_vlm_v_b32(b, vlmax);
        vbool32_t k1 = __riscv_vlm_v_b32(b + vlmax / 8, vlmax);
        vbool32_t k2 = __riscv_vlm_v_b32(b + 2 * vlmax / 8, vlmax);
        vbool32_t k3 = __riscv_vlm_v_b32(b + 3 * vlmax / 8, vlmax);
        vint32m1_t v0 = __riscv_vle32_v_i32m1(s, vlmax);
        vint32m1_t v1 = __riscv_vle32_v_i32m1(s + vlmax, vlmax);
        vint32m1_t v2 = __riscv_vle32_v_i32m1(s + 2 * vlmax, vlmax);
        vint32m1_t v3 = __riscv_vle32_v_i32m1(s + 3 * vlmax, vlmax);
        size_t c0 = __riscv_vcpop_m_b32(k0, vlmax);
        size_t c1 = __riscv_vcpop_m_b32(k1, vlmax);
        size_t c2 = __riscv_vcpop_m_b32(k2, vlmax);
        size_t c3 = __riscv_vcpop_m_b32(k3, vlmax);
        v0 = __riscv_vcompress_vm_i32m1(v0, k0, vlmax);
        v1 = __riscv_vcompress_vm_i32m1(v1, k1, vlmax);
        v2 = __riscv_vcompress_vm_i32m1(v2, k2, vlmax);
        v3 = __riscv_vcompress_vm_i32m1(v3, k3, vlmax);
        __riscv_vse32_v_i32m1(out, v0, vlmax);
        out += c0;
        __riscv_vse32_v_i32m1(out, v1, vlmax);
        out += c1;
        __riscv_vse32_v_i32m1(out, v2, vlmax);
        out += c2;
        __riscv_vse32_v_i32m1(out, v3, vlmax);
        out += c3;
      }
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m1(len - i);
        vbool32_t keep = __riscv_vlm_v_b32(bits + i / 8, vl);
        vint32m1_t v = __riscv_vcompress_vm_i32m1(__riscv_vle32_v_i32m1(src + i, vl), keep, vl);
        size_t c = __riscv_vcpop_m_b32(keep, vl);
        __riscv_vse32_v_i32m1(out, v, c);
        out += c;
      }
    } else {
      for (size_t vl; i < len; i += vl) {
        vl = __riscv_vsetvl_e32m1(len - i);
        vbool32_t keep = __riscv_vmseq_vx_u8mf4_b32(__riscv_vle8_v_u8mf4(flags + i, vl), 0, vl);
        vint32m1_t v = __riscv_vcompress_vm_i32m1(__riscv_vle32_v_i32m1(src + i, vl), keep, vl);
        size_t c = __riscv_vcpop_m_b32(keep, vl);
        __riscv_vse32_v_i32m1(out, v, c);
        out += c;
      }
    }
  }
  return (int32_t)(out - dest);
}
