// Reference: NCNN BNLL, y = x > 0 ? x + log(1 + exp(-x)) : log(1 + exp(x)), in double, rounded once to float.
#include <math.h>
#include <stddef.h>

void bnll_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(v > 0 ? v + log1p(exp(-v)) : log1p(exp(v)));
  }
}
