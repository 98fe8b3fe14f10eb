// Reference: InnerProduct (GEMV) out[o] = bias[o] + sum_i W[o][i] x[i], each row accumulated in double.
#include <stddef.h>

void innerproduct_f32(const float *x, const float *W, const float *bias, float *out, int num_input, int num_output) {
  for (int o = 0; o < num_output; o++) {
    double acc = bias[o];
    for (int i = 0; i < num_input; i++) acc += (double)W[(size_t)o * num_input + i] * x[i];
    out[o] = (float)acc;
  }
}
