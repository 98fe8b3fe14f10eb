// Reference: NCNN SELU, y = x < 0 ? lambda alpha (exp(x) - 1) : lambda x, in double, rounded once to float.
#include <math.h>
#include <stddef.h>

void selu_f32(float *x, size_t n, float alpha, float lambda) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(v < 0 ? (double)lambda * (double)alpha * (exp(v) - 1.0) : (double)lambda * v);
  }
}
