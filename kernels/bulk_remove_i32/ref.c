// Reference: copy source to dest skipping every position listed in the sorted indices (duplicates allowed);
// returns the number of elements kept. dest past the count is left untouched.
#include <stdint.h>

int32_t bulk_remove_i32(const int32_t *source, int n, const int32_t *indices, int ni, int32_t *dest) {
  int j = 0, k = 0;
  for (int i = 0; i < n; i++) {
    int removed = 0;
    while (j < ni && indices[j] == i) {
      removed = 1;
      j++;
    }
    if (!removed) dest[k++] = source[i];
  }
  return k;
}
