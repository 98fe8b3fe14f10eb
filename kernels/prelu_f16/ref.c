// Reference: NCNN PReLU on planar [c][hw] with one slope per channel, in place, on the decoded half values,
// in double, rounded once to half: negative values are multiplied by the slope, the rest (NaN included)
// stay as they are.
#include <stddef.h>

void prelu_f16(_Float16 *x, const _Float16 *slope, int c, int hw) {
  for (int q = 0; q < c; q++)
    for (int i = 0; i < hw; i++) {
      _Float16 *p = &x[(size_t)q * hw + i];
      double v = (double)*p;
      if (v < 0.0) *p = (_Float16)(v * (double)slope[q]);
    }
}
