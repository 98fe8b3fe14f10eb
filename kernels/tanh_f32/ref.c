// Reference: NCNN TanH, y = tanh(x), in double, rounded once to float.
#include <math.h>
#include <stddef.h>

void tanh_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (float)tanh((double)x[i]);
}
