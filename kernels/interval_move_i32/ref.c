// Reference: interval k copies input[gather[k] + j] to out[scatter[k] + j] for j < its length
// (next scatter start - scatter[k]; the last runs to count).
#include <stdint.h>

void interval_move_i32(int count, const int32_t *scatter, const int32_t *gather, int nint, const int32_t *input, int nin,
                       int32_t *out) {
  (void)nin;
  for (int k = 0; k < nint; k++) {
    int end = k + 1 < nint ? scatter[k + 1] : count;
    for (int j = 0; scatter[k] + j < end; j++) out[scatter[k] + j] = input[gather[k] + j];
  }
}
