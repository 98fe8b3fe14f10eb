// Reference: InnerProduct (GEMV) out[o] = bias[o] + sum_i W[o][i] x[i] on the decoded half values, each row
// accumulated in double and rounded once to half.
#include <stddef.h>

void innerproduct_f16(const _Float16 *x, const _Float16 *W, const _Float16 *bias, _Float16 *out, int num_input,
                      int num_output) {
  for (int o = 0; o < num_output; o++) {
    double acc = (double)bias[o];
    for (int i = 0; i < num_input; i++) acc += (double)W[(size_t)o * num_input + i] * (double)x[i];
    out[o] = (_Float16)acc;
  }
}
