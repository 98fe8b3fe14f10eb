// Reference: NCNN Swish, y = x / (1 + exp(-x)), in double, rounded once to float.
#include <math.h>
#include <stddef.h>

void swish_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(v / (1.0 + exp(-v)));
  }
}
