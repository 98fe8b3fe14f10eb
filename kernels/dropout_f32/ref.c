// Reference: Dropout at inference, x = x * scale in place, in double, rounded once to float (NCNN skips the
// pass when scale == 1, which gives the same values).
#include <stddef.h>

void dropout_f32(float *x, size_t n, float scale) {
  for (size_t i = 0; i < n; i++) x[i] = (float)((double)x[i] * (double)scale);
}
