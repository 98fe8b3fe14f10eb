// Reference: NCNN ConvolutionDepthWise with group = channels, single image, planar [channels][h][w] ->
// [channels][outh][outw], weights [channels][kernel][kernel], bias [channels], square kernel of size kernel, stride, dilation,
// zero padding pad on all four sides; every output accumulated in double.
#include <stddef.h>

void convdw_f32(const float *in, const float *weight, const float *bias, float *out, int channels, int h, int w,
                int kernel, int stride, int dilation, int pad) {
  const int outh = (h + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  const int outw = (w + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  for (int ch = 0; ch < channels; ch++) {
    for (int oy = 0; oy < outh; oy++) {
      for (int ox = 0; ox < outw; ox++) {
        double acc = bias[ch];
        for (int ky = 0; ky < kernel; ky++) {
          const int iy = oy * stride - pad + ky * dilation;
          if (iy < 0 || iy >= h) continue;
          for (int kx = 0; kx < kernel; kx++) {
            const int ix = ox * stride - pad + kx * dilation;
            if (ix < 0 || ix >= w) continue;
            acc +=
                (double)in[((size_t)ch * h + iy) * w + ix] * (double)weight[((size_t)ch * kernel + ky) * kernel + kx];
          }
        }
        out[((size_t)ch * outh + oy) * outw + ox] = (float)acc;
      }
    }
  }
}
