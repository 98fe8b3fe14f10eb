// Reference: NCNN Convolution1D, single blob, input [inh][w] (inh channels of length w) -> [outh][outw],
// weights [outh][inh][kernel], bias [outh], stride, dilation, zero padding pad at both ends; every output
// accumulated in double.
#include <stddef.h>

void conv1d_f32(const float *in, const float *weight, const float *bias, float *out, int inh, int w, int outh,
                int kernel, int stride, int dilation, int pad) {
  const int outw = (w + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
  for (int oc = 0; oc < outh; oc++) {
    for (int ox = 0; ox < outw; ox++) {
      double acc = bias[oc];
      for (int ic = 0; ic < inh; ic++) {
        for (int kx = 0; kx < kernel; kx++) {
          const int ix = ox * stride - pad + kx * dilation;
          if (ix < 0 || ix >= w) continue;
          acc += (double)in[(size_t)ic * w + ix] * (double)weight[((size_t)oc * inh + ic) * kernel + kx];
        }
      }
      out[(size_t)oc * outw + ox] = (float)acc;
    }
  }
}
