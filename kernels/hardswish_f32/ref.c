// Reference: y = x * fmin(fmax(alpha*x + beta, 0), 1) in place, in double, rounded once to float.
// NaN stays NaN (the gate becomes 0, NaN * 0 is NaN).
#include <math.h>
#include <stddef.h>

void hardswish_f32(float *x, size_t n, float alpha, float beta) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)x[i];
    double gate = fmin(fmax((double)alpha * v + (double)beta, 0.0), 1.0);
    x[i] = (float)(v * gate);
  }
}
