// Reference: idx[i] = the number of haystack keys < needles[i] (lower bound), by binary search.
#include <stdint.h>

void sorted_search_i32(const int32_t *needles, int nn, const int32_t *haystack, int nh, int32_t *idx) {
  for (int i = 0; i < nn; i++) {
    int lo = 0, hi = nh;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (haystack[mid] < needles[i]) lo = mid + 1;
      else hi = mid;
    }
    idx[i] = lo;
  }
}
