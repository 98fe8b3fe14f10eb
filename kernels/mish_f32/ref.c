// Reference: mish(x) = x * tanh(log1p(exp(x))), computed in double and rounded once to float.
#include <math.h>
#include <stddef.h>

void mish_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(v * tanh(log1p(exp(v))));
  }
}
