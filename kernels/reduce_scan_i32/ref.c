// Reference: exclusive prefix sum in place; returns the total.
#include <stdint.h>

int32_t reduce_scan_i32(int32_t *x, int n) {
  int32_t sum = 0;
  for (int i = 0; i < n; i++) {
    int32_t v = x[i];
    x[i] = sum;
    sum += v;
  }
  return sum;
}
