// Reference: NCNN Deconvolution (transposed convolution), one image, fp16 storage: the decoded half
// values accumulated in double, each output rounded once to half.
// NCNN scatters: out_full[oc][iy*stride + ky*dilation][ix*stride + kx*dilation] += in[ic][iy][ix] *
// weight[oc][ic][ky][kx], then cuts pad from every border. Here each output gathers the same terms: input
// row iy meets output row oy through ky exactly when iy*stride + ky*dilation - pad == oy (columns alike).
#include <stddef.h>

void deconv_f16(const _Float16 *in, const _Float16 *weight, const _Float16 *bias, _Float16 *out, int inc, int h,
                int w, int outc, int kernel, int stride, int dilation, int pad) {
  const int outh = (h - 1) * stride + dilation * (kernel - 1) + 1 - 2 * pad;
  const int outw = (w - 1) * stride + dilation * (kernel - 1) + 1 - 2 * pad;
  for (int oc = 0; oc < outc; oc++) {
    for (int oy = 0; oy < outh; oy++) {
      for (int ox = 0; ox < outw; ox++) {
        double acc = (double)bias[oc];
        for (int ic = 0; ic < inc; ic++) {
          for (int ky = 0; ky < kernel; ky++) {
            const int ty = oy + pad - ky * dilation;
            if (ty < 0 || ty % stride != 0 || ty / stride >= h) continue;
            const int iy = ty / stride;
            for (int kx = 0; kx < kernel; kx++) {
              const int tx = ox + pad - kx * dilation;
              if (tx < 0 || tx % stride != 0 || tx / stride >= w) continue;
              const int ix = tx / stride;
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
