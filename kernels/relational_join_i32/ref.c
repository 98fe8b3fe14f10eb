// Reference: inner join of sorted keys: every pair (i, j) with a[i] == b[j], ordered by i then j; the
// first min(total, cap) pairs go to out_i/out_j; returns the total number of pairs.
#include <stdint.h>

int32_t relational_join_i32(const int32_t *a, int na, const int32_t *b, int nb, int32_t *out_i, int32_t *out_j,
                            int cap) {
  int64_t total = 0;
  int lo = 0;  // first b >= a[i]
  for (int i = 0; i < na; i++) {
    while (lo < nb && b[lo] < a[i]) lo++;
    for (int j = lo; j < nb && b[j] == a[i]; j++) {
      if (total < cap) {
        out_i[total] = i;
        out_j[total] = j;
      }
      total++;
    }
  }
  return (int32_t)total;
}
