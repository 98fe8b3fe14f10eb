// Reference: sigmoid(x) = 1 / (1 + exp(-x)) on the decoded half value, in double, rounded once to half.
#include <math.h>
#include <stddef.h>

void sigmoid_f16(_Float16 *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = (double)x[i];
    x[i] = (_Float16)(1.0 / (1.0 + exp(-v)));
  }
}
