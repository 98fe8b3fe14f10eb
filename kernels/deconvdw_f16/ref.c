// Reference: NCNN DeconvolutionDepthWise with group = channels (each channel deconvolved by its own
// k x k kernel), one image, fp16 storage: the decoded half values accumulated in double, each output rounded
// once to half. NCNN scatters out_full[c][iy*stride + ky*dilation][ix*stride +
// kx*dilation] += in[c][iy][ix] * weight[c][ky][kx], then cuts pad from every border. Here each output
// gathers the same terms: input row iy meets output row oy through ky exactly when
// iy*stride + ky*dilation - pad == oy (columns alike).
#include <stddef.h>

void deconvdw_f16(const _Float16 *in, const _Float16 *weight, const _Float16 *bias, _Float16 *out, int channels,
                  int h, int w, int kernel, int stride, int dilation, int pad) {
  const int outh = (h - 1) * stride + dilation * (kernel - 1) + 1 - 2 * pad;
  const int outw = (w - 1) * stride + dilation * (kernel - 1) + 1 - 2 * pad;
  for (int c = 0; c < channels; c++) {
    for (int oy = 0; oy < outh; oy++) {
      for (int ox = 0; ox < outw; ox++) {
        double acc = (double)bias[c];
        for (int ky = 0; ky < kernel; ky++) {
          const int ty = oy + pad - ky * dilation;
          if (ty < 0 || ty % stride != 0 || ty / stride >= h) continue;
          const int iy = ty / stride;
          for (int kx = 0; kx < kernel; kx++) {
            const int tx = ox + pad - kx * dilation;
            if (tx < 0 || tx % stride != 0 || tx / stride >= w) continue;
            const int ix = tx / stride;
            acc += (double)in[((size_t)c * h + iy) * w + ix] *
                   (double)weight[((size_t)c * kernel + ky) * kernel + kx];
          }
        }
        out[((size_t)c * outh + oy) * outw + ox] = (_Float16)acc;
      }
    }
  }
}
