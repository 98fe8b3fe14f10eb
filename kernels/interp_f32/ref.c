// Reference: bilinear resize with half-pixel centres (NCNN Interp resize_type 2, align_corner 0), in double.
// Output index d maps to the source coordinate f = (d + 0.5) * in / out - 0.5; f below 0 is taken as 0,
// and from in - 1 on only the last pixel counts. The value is interpolated between the taps floor(f) and
// floor(f) + 1 with weight f - floor(f), along w and then along h; rounded once to float.
#include <stddef.h>

static void tap(int in, int out, int d, int *i0, int *i1, double *a) {
  double f = (d + 0.5) * ((double)in / out) - 0.5;
  if (f < 0) f = 0;
  int s = (int)f;  // floor, f >= 0
  if (s >= in - 1) {
    *i0 = *i1 = in - 1;
    *a = 0.0;
  } else {
    *i0 = s;
    *i1 = s + 1;
    *a = f - s;
  }
}

void interp_f32(const float *x, float *out, int c, int h, int w, int oh, int ow) {
  for (int q = 0; q < c; q++) {
    const float *p = x + (size_t)q * h * w;
    for (int dy = 0; dy < oh; dy++) {
      int y0, y1;
      double b;
      tap(h, oh, dy, &y0, &y1, &b);
      for (int dx = 0; dx < ow; dx++) {
        int x0, x1;
        double a;
        tap(w, ow, dx, &x0, &x1, &a);
        double top = (1 - a) * p[(size_t)y0 * w + x0] + a * p[(size_t)y0 * w + x1];
        double bot = (1 - a) * p[(size_t)y1 * w + x0] + a * p[(size_t)y1 * w + x1];
        out[((size_t)q * oh + dy) * ow + dx] = (float)((1 - b) * top + b * bot);
      }
    }
  }
}
