// Reference: NCNN Convolution, fp16, single image, planar [inc][h][w] -> [outc][outh][outw], square kernel
// kernel, stride, dilation, zero padding pad on all four sides, bias; every output accumulated in double from
// the half inputs and rounded once to half.
#include <stddef.h>

void conv_f16(const _Float16 *in, const _Float16 *weight, const _Float16 *bias, _Float16 *out, int inc, int h, int w,
              int outc, int kernel, int stride, int dilation, int pad) {
  const int outh = (h + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  const int outw = (w + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  for (int oc = 0; oc < outc; oc++) {
    for (int oy = 0; oy < outh; oy++) {
      for (int ox = 0; ox < outw; ox++) {
        double acc = bias[oc];
        for (int ic = 0; ic < inc; ic++) {
          for (int ky = 0; ky < kernel; ky++) {
            const int iy = oy * stride - pad + ky * dilation;
            if (iy < 0 || iy >= h) continue;
            for (int kx = 0; kx < kernel; kx++) {
              const int ix = ox * stride - pad + kx * dilation;
              if (ix < 0 || ix >= w) continue;
              acc += (double)in[((size_t)ic * h + iy) * w + ix] *
                     (double)weight[(((size_t)oc * inc + ic) * kernel + ky) * kernel + kx];
            }
          }
        }
        out[((size_t)oc * outh + oy) * outw + ox] = (_Float16)acc;
      }
    }
  }
}
