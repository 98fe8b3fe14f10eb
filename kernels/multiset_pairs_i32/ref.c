// Reference: std::set_intersection (op 0), set_union (1), set_difference (2) and
// set_symmetric_difference (3) on sorted multisets of keys a[na] / b[nb] with their values, written
// literally as the C++ standard library's algorithms (an element is taken with its own value: on equal
// keys std::set_* takes A's element where it takes one). Returns the number of pairs written.
#include <stdint.h>

int32_t multiset_pairs_i32(const int32_t *a, const int32_t *va, int na, const int32_t *b, const int32_t *vb, int nb,
                           int op, int32_t *keys, int32_t *vals) {
  int i = 0, j = 0, k = 0;
  switch (op) {
    case 0:  // intersection
      while (i < na && j < nb) {
        if (a[i] < b[j]) i++;
        else {
          if (!(b[j] < a[i])) { keys[k] = a[i]; vals[k++] = va[i++]; }
          j++;
        }
      }
      break;
    case 1:  // union
      for (; i < na; k++) {
        if (j == nb) break;
        if (b[j] < a[i]) { keys[k] = b[j]; vals[k] = vb[j++]; }
        else {
          keys[k] = a[i];
          vals[k] = va[i];
          if (!(a[i] < b[j])) j++;
          i++;
        }
      }
      for (; i < na; i++, k++) { keys[k] = a[i]; vals[k] = va[i]; }
      for (; j < nb; j++, k++) { keys[k] = b[j]; vals[k] = vb[j]; }
      break;
    case 2:  // difference A \ B
      while (i < na) {
        if (j == nb) { for (; i < na; i++, k++) { keys[k] = a[i]; vals[k] = va[i]; } break; }
        if (a[i] < b[j]) { keys[k] = a[i]; vals[k++] = va[i++]; }
        else {
          if (!(b[j] < a[i])) i++;
          j++;
        }
      }
      break;
    case 3:  // symmetric difference
      while (i < na) {
        if (j == nb) { for (; i < na; i++, k++) { keys[k] = a[i]; vals[k] = va[i]; } break; }
        if (a[i] < b[j]) { keys[k] = a[i]; vals[k++] = va[i++]; }
        else {
          if (b[j] < a[i]) { keys[k] = b[j]; vals[k++] = vb[j]; }
          else i++;
          j++;
        }
      }
      for (; j < nb; j++, k++) { keys[k] = b[j]; vals[k] = vb[j]; }
      break;
  }
  return k;
}
