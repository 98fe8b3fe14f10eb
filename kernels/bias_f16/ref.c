// Reference: NCNN Bias on planar [c][hw]: x[q][i] += bias[q] in place, on the decoded half values, in
// double, rounded once to half.
#include <stddef.h>

void bias_f16(_Float16 *x, const _Float16 *bias, int c, int hw) {
  for (int q = 0; q < c; q++)
    for (int i = 0; i < hw; i++) {
      _Float16 *p = &x[(size_t)q * hw + i];
      *p = (_Float16)((double)*p + (double)bias[q]);
    }
}
