// Reference: BatchNorm at inference, per channel q of planar x[c][hw], in place, in double from the decoded
// half values: x = slope[q] * (x - mean[q]) / sqrt(var[q] + eps) + bias[q], rounded once to half.
#include <math.h>
#include <stddef.h>

void batchnorm_f16(_Float16 *x, const _Float16 *slope, const _Float16 *mean, const _Float16 *var,
                   const _Float16 *bias, float eps, int c, int hw) {
  for (int q = 0; q < c; q++) {
    double s = sqrt((double)var[q] + (double)eps);
    for (int i = 0; i < hw; i++) {
      _Float16 *p = x + (size_t)q * hw + i;
      *p = (_Float16)((double)slope[q] * ((double)*p - (double)mean[q]) / s + (double)bias[q]);
    }
  }
}
