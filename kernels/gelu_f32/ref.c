// Reference: NCNN GELU (fast_gelu = 0), y = 0.5 x (1 + erf(x / sqrt(2))), in double, rounded once to float.
#include <math.h>
#include <stddef.h>

void gelu_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(0.5 * v * (1.0 + erf(v * 0.70710678118654752440)));
  }
}
