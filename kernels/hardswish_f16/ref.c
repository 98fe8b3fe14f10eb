// Reference: y = x * fmin(fmax(alpha*x + beta, 0), 1) in place on the decoded half value, in double with
// the float alpha/beta, rounded once to half. NaN stays NaN (the gate becomes 0, NaN * 0 is NaN).
#include <math.h>
#include <stddef.h>

void hardswish_f16(_Float16 *x, size_t n, float alpha, float beta) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)x[i];
    double gate = fmin(fmax((double)alpha * v + (double)beta, 0.0), 1.0);
    x[i] = (_Float16)(v * gate);
  }
}
