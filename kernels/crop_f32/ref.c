// Reference: Crop of planar x[c][h][w] to out[c][oh][ow]: out[q][y][i] = x[q][hoff + y][woff + i].
#include <stddef.h>

void crop_f32(const float *x, float *out, int c, int h, int w, int woff, int hoff, int ow, int oh) {
  for (int q = 0; q < c; q++)
    for (int y = 0; y < oh; y++)
      for (int i = 0; i < ow; i++)
        out[((size_t)q * oh + y) * ow + i] = x[((size_t)q * h + hoff + y) * w + woff + i];
}
