// Reference: NCNN CELU, y = max(0, x) + min(0, alpha (exp(x / alpha) - 1)), in double, rounded once to float.
// NaN in gives NaN out (C's fmax/fmin would drop it).
#include <math.h>
#include <stddef.h>

void celu_f32(float *x, size_t n, float alpha) {
  const double a = alpha;
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = isnan(v) ? x[i] : (float)(fmax(0.0, v) + fmin(0.0, a * (exp(v / a) - 1.0)));
  }
}
