// Reference: NCNN PReLU on planar [c][hw] with one slope per channel, in place, in double, rounded once to
// float: negative values are multiplied by the slope, the rest (NaN included) stay as they are.
#include <stddef.h>

void prelu_f32(float *x, const float *slope, int c, int hw) {
  for (int q = 0; q < c; q++)
    for (int i = 0; i < hw; i++) {
      float *p = &x[(size_t)q * hw + i];
      double v = (double)*p;
      if (v < 0.0) *p = (float)(v * (double)slope[q]);
    }
}
