// Reference: NCNN Pooling on a planar [c][h][w] input, square kernel k, stride s, padding p on all four
// sides, NCNN's pad_mode 1 (floor): outh = (h + 2p - k) / s + 1, outw = (w + 2p - k) / s + 1 (p < k).
// pooling_type 0: maximum over the window's input elements (padding never wins); 1: average over the
// window's input elements only (avgpool_count_include_pad = 0), summed in double and rounded once.
#include <stddef.h>

void pooling_f32(const float *x, float *y, int c, int h, int w, int k, int s, int p, int pooling_type) {
  const int outh = (h + 2 * p - k) / s + 1, outw = (w + 2 * p - k) / s + 1;
  for (int q = 0; q < c; q++) {
    const float *xc = x + (size_t)q * h * w;
    float *yc = y + (size_t)q * outh * outw;
    for (int i = 0; i < outh; i++) {
      for (int j = 0; j < outw; j++) {
        double mx = 0.0, sum = 0.0;
        int area = 0;
        for (int ki = 0; ki < k; ki++) {
          const int iy = i * s - p + ki;
          if (iy < 0 || iy >= h) continue;
          for (int kj = 0; kj < k; kj++) {
            const int ix = j * s - p + kj;
            if (ix < 0 || ix >= w) continue;
            const double v = xc[(size_t)iy * w + ix];
            if (area == 0 || v > mx) mx = v;
            sum += v;
            area++;
          }
        }
        yc[(size_t)i * outw + j] = (float)(pooling_type == 0 ? mx : sum / area);
      }
    }
  }
}
