// Reference: every segment [offsets[s], offsets[s+1]) (the last one up to n) sorted stably by key
// (insertion sort, moving an element only past strictly greater keys); the result is then copied to
// keys_out/vals_out.
#include <stdint.h>

void segsort_pairs_i32(int32_t *keys, int32_t *vals, int32_t *keys_out, int32_t *vals_out, int n,
                       const int32_t *offsets, int nseg) {
  for (int s = 0; s < nseg; s++) {
    int lo = offsets[s], hi = s + 1 < nseg ? offsets[s + 1] : n;
    for (int i = lo + 1; i < hi; i++) {
      int32_t k = keys[i], v = vals[i];
      int j = i - 1;
      while (j >= lo && keys[j] > k) {
        keys[j + 1] = keys[j];
        vals[j + 1] = vals[j];
        j--;
      }
      keys[j + 1] = k;
      vals[j + 1] = v;
    }
  }
  for (int i = 0; i < n; i++) {
    keys_out[i] = keys[i];
    vals_out[i] = vals[i];
  }
}
