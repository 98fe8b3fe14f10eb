// Reference: Flatten. Channel q of x starts at q*cstep, cstep = h*w rounded up to a multiple of 4 (NCNN's
// 16-byte channel alignment); out is the dense c*h*w vector of the channels one after another.
#include <stddef.h>

void flatten_f32(const float *x, float *out, int c, int h, int w) {
  size_t hw = (size_t)h * w, cstep = (hw + 3) / 4 * 4;
  for (int q = 0; q < c; q++)
    for (size_t i = 0; i < hw; i++) out[q * hw + i] = x[q * cstep + i];
}
