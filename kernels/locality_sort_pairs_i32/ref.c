// Reference: stable sort of (key, value) pairs by key (bottom-up merge sort through keys_out/vals_out);
// the sorted pairs end in both keys/vals and keys_out/vals_out.
#include <stdint.h>
#include <string.h>

void locality_sort_pairs_i32(int32_t *keys, int32_t *vals, int32_t *keys_out, int32_t *vals_out, int n) {
  int32_t *sk = keys, *sv = vals, *dk = keys_out, *dv = vals_out;
  for (int w = 1; w < n; w *= 2) {
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int i = lo, j = mid, k = lo;
      while (k < hi) {
        if (j >= hi || (i < mid && sk[i] <= sk[j])) {  // equal keys: the earlier run first
          dk[k] = sk[i];
          dv[k++] = sv[i++];
        } else {
          dk[k] = sk[j];
          dv[k++] = sv[j++];
        }
      }
    }
    int32_t *tk = sk, *tv = sv;
    sk = dk, sv = dv, dk = tk, dv = tv;
  }
  if (n > 0) {  // the result is in sk/sv; copy it to the other pair
    memcpy(dk, sk, (size_t)n * sizeof *dk);
    memcpy(dv, sv, (size_t)n * sizeof *dv);
  }
}
