// Reference: NCNN GRU, one layer, forward direction, initial hidden state 0, computed in double.
// Gates in NCNN's order: rows [0, H) of weight_xc / weight_hc are the reset gate R, [H, 2H) the update
// gate U, [2H, 3H) the new gate N; bias_c rows: 0 = R, 1 = U, 2 = WN (new gate, input part), 3 = BN (new
// gate, hidden part). For each step t, with h the previous hidden state:
//   R = sigmoid(bias_R + Wx_R x + Wh_R h), U = sigmoid(bias_U + Wx_U x + Wh_U h)
//   N = tanh(bias_WN + Wx_N x + R * (bias_BN + Wh_N h))       (the reset gate scales W_hn h + b_hn)
//   h = (1 - U) * N + U * h, out[t] = h
#include <math.h>
#include <stddef.h>

void gru_f32(const float *x, const float *weight_xc, const float *weight_hc, const float *bias_c, float *out, int T,
             int I, int H) {
  if (H <= 0) return;
  double h[H], hn[H];
  for (int q = 0; q < H; q++) h[q] = 0.0;
  for (int t = 0; t < T; t++) {
    const float *xt = x + (size_t)t * I;
    for (int q = 0; q < H; q++) {
      double r = bias_c[q], u = bias_c[H + q], nx = bias_c[2 * H + q], nh = bias_c[3 * H + q];
      for (int i = 0; i < I; i++) {
        r += (double)weight_xc[(size_t)q * I + i] * xt[i];
        u += (double)weight_xc[(size_t)(H + q) * I + i] * xt[i];
        nx += (double)weight_xc[(size_t)(2 * H + q) * I + i] * xt[i];
      }
      for (int j = 0; j < H; j++) {
        r += (double)weight_hc[(size_t)q * H + j] * h[j];
        u += (double)weight_hc[(size_t)(H + q) * H + j] * h[j];
        nh += (double)weight_hc[(size_t)(2 * H + q) * H + j] * h[j];
      }
      r = 1.0 / (1.0 + exp(-r));
      u = 1.0 / (1.0 + exp(-u));
      const double n = tanh(nx + r * nh);
      hn[q] = (1.0 - u) * n + u * h[q];
    }
    for (int q = 0; q < H; q++) {
      h[q] = hn[q];
      out[(size_t)t * H + q] = (float)hn[q];
    }
  }
}
