// Reference: out[i] = values[s] with s the last segment whose start seg[s] <= i (seg sorted, seg[0] = 0).
#include <stdint.h>

void interval_expand_i32(int count, const int32_t *seg, const int32_t *values, int nseg, int32_t *out) {
  int s = 0;
  for (int i = 0; i < count; i++) {
    while (s + 1 < nseg && seg[s + 1] <= i) s++;
    out[i] = values[s];
  }
}
