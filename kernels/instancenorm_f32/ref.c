// Reference: InstanceNorm, per channel q of planar x[c][hw], in place, in double: mean and biased
// variance (two passes) of the channel, then x = gamma[q] * (x - mean) / sqrt(var + eps) + beta[q],
// rounded once to float.
#include <math.h>
#include <stddef.h>

void instancenorm_f32(float *x, const float *gamma, const float *beta, float eps, int c, int hw) {
  for (int q = 0; q < c; q++) {
    float *p = x + (size_t)q * hw;
    double sum = 0.0;
    for (int i = 0; i < hw; i++) sum += p[i];
    double mean = sum / hw;
    double sq = 0.0;
    for (int i = 0; i < hw; i++) sq += ((double)p[i] - mean) * ((double)p[i] - mean);
    double var = sq / hw;
    double s = sqrt(var + (double)eps);
    for (int i = 0; i < hw; i++) p[i] = (float)((double)gamma[q] * ((double)p[i] - mean) / s + (double)beta[q]);
  }
}
