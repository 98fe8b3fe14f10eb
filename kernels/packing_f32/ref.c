// Reference: Packing elempack 1 -> 4. x is planar [c][hw]; out is [c/4][hw][4]: the 4 channels of a group
// interleaved element by element, out[(q*hw + i)*4 + k] = x[(4q + k)*hw + i].
#include <stddef.h>

void packing_f32(const float *x, float *out, int c, int hw) {
  for (int q = 0; q < c / 4; q++)
    for (int i = 0; i < hw; i++)
      for (int k = 0; k < 4; k++) out[((size_t)q * hw + i) * 4 + k] = x[((size_t)q * 4 + k) * hw + i];
}
