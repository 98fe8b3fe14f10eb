// Reference: InstanceNorm, per channel q of planar x[c][hw], in place, in double from the decoded half
// values: mean and biased variance (two passes), then x = gamma[q] * (x - mean) / sqrt(var + eps) + beta[q],
// rounded once to half.
#include <math.h>
#include <stddef.h>

void instancenorm_f16(_Float16 *x, const _Float16 *gamma, const _Float16 *beta, float eps, int c, int hw) {
  for (int q = 0; q < c; q++) {
    _Float16 *p = x + (size_t)q * hw;
    double sum = 0.0;
    for (int i = 0; i < hw; i++) sum += (double)p[i];
    double mean = sum / hw;
    double sq = 0.0;
    for (int i = 0; i < hw; i++) sq += ((double)p[i] - mean) * ((double)p[i] - mean);
    double var = sq / hw;
    double s = sqrt(var + (double)eps);
    for (int i = 0; i < hw; i++) p[i] = (_Float16)((double)gamma[q] * ((double)p[i] - mean) / s + (double)beta[q]);
  }
}
