// Reference: y = fmin(fmax(alpha*x + beta, 0), 1) in place, in double, rounded once to float. NaN becomes 0
// (fmax returns the number when the other operand is NaN, as vfmax does).
#include <math.h>
#include <stddef.h>

void hardsigmoid_f32(float *x, size_t n, float alpha, float beta) {
  for (size_t i = 0; i < n; i++) {
    double t = (double)alpha * (double)x[i] + (double)beta;
    x[i] = (float)fmin(fmax(t, 0.0), 1.0);
  }
}
