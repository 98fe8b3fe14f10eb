// Reference: sigmoid(x) = 1 / (1 + exp(-x)), computed in double and rounded once to float.
#include <math.h>
#include <stddef.h>

void sigmoid_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    x[i] = (float)(1.0 / (1.0 + exp(-v)));
  }
}
