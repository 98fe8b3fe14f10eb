// Reference: mish(x) = x * tanh(log1p(exp(x))) on the decoded half value, in double, rounded once to half.
#include <math.h>
#include <stddef.h>

void mish_f16(_Float16 *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)x[i];
    x[i] = (_Float16)(v * tanh(log1p(exp(v))));
  }
}
