// Reference: NCNN Bias on planar [c][hw]: x[q][i] += bias[q] in place, in double, rounded once to float.
#include <stddef.h>

void bias_f32(float *x, const float *bias, int c, int hw) {
  for (int q = 0; q < c; q++)
    for (int i = 0; i < hw; i++) {
      float *p = &x[(size_t)q * hw + i];
      *p = (float)((double)*p + (double)bias[q]);
    }
}
