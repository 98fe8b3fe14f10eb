// Reference: relu in place on the decoded half value; NaN and -0 become +0 (like vfmax with 0.0).
#include <stddef.h>

void relu_f16(_Float16 *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)x[i];
    x[i] = (_Float16)(v > 0.0 ? v : 0.0);
  }
}
