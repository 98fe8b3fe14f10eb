// Reference: softmax over the middle axis of x[outer][axis_len][inner], in place, computed in double.
#include <math.h>
#include <stddef.h>

void softmax_f32(float *x, int outer, int axis_len, int inner) {
  for (int o = 0; o < outer; o++) {
    for (int i = 0; i < inner; i++) {
      float *p = x + (size_t)o * axis_len * inner + i;
      double max = -INFINITY;
      for (int a = 0; a < axis_len; a++)
        if (p[(size_t)a * inner] > max) max = p[(size_t)a * inner];
      double sum = 0.0;
      for (int a = 0; a < axis_len; a++) sum += exp(p[(size_t)a * inner] - max);
      for (int a = 0; a < axis_len; a++) p[(size_t)a * inner] = (float)(exp(p[(size_t)a * inner] - max) / sum);
    }
  }
}
