// Reference: out[i] = the last s with seg[s] <= i (seg sorted, seg[0] = 0), for every i < count.
#include <stdint.h>

void load_balance_search_i32(int count, const int32_t *seg, int nseg, int32_t *out) {
  int s = 0;
  for (int i = 0; i < count; i++) {
    while (s + 1 < nseg && seg[s + 1] <= i) s++;
    out[i] = s;
  }
}
