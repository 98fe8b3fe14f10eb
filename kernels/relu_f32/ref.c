// Reference: relu in place; NaN and -0 become +0 (like vfmax with 0.0).
#include <stddef.h>

void relu_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
