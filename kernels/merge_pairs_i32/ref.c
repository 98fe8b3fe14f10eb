// Reference: stable two-way merge of sorted key/value pairs; on equal keys A's pairs come first.
#include <stdint.h>

void merge_pairs_i32(const int32_t *a, const int32_t *va, int na, const int32_t *b, const int32_t *vb, int nb,
                     int32_t *keys, int32_t *vals) {
  int i = 0, j = 0, k = 0;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && a[i] <= b[j])) {
      keys[k] = a[i];
      vals[k] = va[i];
      i++;
    } else {
      keys[k] = b[j];
      vals[k] = vb[j];
      j++;
    }
    k++;
  }
}
