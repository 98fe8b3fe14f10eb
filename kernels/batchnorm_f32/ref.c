// Reference: BatchNorm at inference, per channel q of planar x[c][hw], in place, in double:
// x = slope[q] * (x - mean[q]) / sqrt(var[q] + eps) + bias[q], rounded once to float.
#include <math.h>
#include <stddef.h>

void batchnorm_f32(float *x, const float *slope, const float *mean, const float *var, const float *bias, float eps,
                   int c, int hw) {
  for (int q = 0; q < c; q++) {
    double s = sqrt((double)var[q] + (double)eps);
    for (int i = 0; i < hw; i++) {
      float *p = x + (size_t)q * hw + i;
      *p = (float)((double)slope[q] * ((double)*p - (double)mean[q]) / s + (double)bias[q]);
    }
  }
}
