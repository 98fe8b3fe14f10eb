// Reference: merge a into b; a[i] goes right before b[pos[i]] (pos sorted in [0, nb]; a[i] with
// pos[i] == nb go after all of b), and a elements with equal positions keep their order.
#include <stdint.h>

void bulk_insert_i32(const int32_t *a, const int32_t *pos, int na, const int32_t *b, int nb, int32_t *out) {
  int i = 0, k = 0;
  for (int j = 0; j < nb; j++) {
    while (i < na && pos[i] <= j) out[k++] = a[i++];
    out[k++] = b[j];
  }
  while (i < na) out[k++] = a[i++];
}
