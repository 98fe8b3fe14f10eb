// Reference: constant padding. out[q][y][i] = x[q][y - top][i - left] inside, value on the border.
#include <stddef.h>

void padding_f32(const float *x, float *out, int c, int h, int w, int top, int bottom, int left, int right,
                 float value) {
  int oh = h + top + bottom, ow = w + left + right;
  for (int q = 0; q < c; q++)
    for (int y = 0; y < oh; y++)
      for (int i = 0; i < ow; i++) {
        int sy = y - top, sx = i - left;
        int inside = sy >= 0 && sy < h && sx >= 0 && sx < w;
        out[((size_t)q * oh + y) * ow + i] = inside ? x[((size_t)q * h + sy) * w + sx] : value;
      }
}
