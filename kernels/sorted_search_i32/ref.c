// Reference: a plain binary search for each needle's lower bound.
#include <stdint.h>

void sorted_search_i32(const int32_t *needles, int nn, const int32_t *haystack, int nh, int32_t *out) {
  for (int i = 0; i < nn; i++) {
    int lo = 0, hi = nh;  // the answer is in [lo, hi]
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (haystack[mid] < needles[i]) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
}
