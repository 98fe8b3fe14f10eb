// Reference: NCNN TanH, y = tanh(x), on the decoded half value, in double, rounded once to half.
#include <math.h>
#include <stddef.h>

void tanh_f16(_Float16 *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (_Float16)tanh((double)x[i]);
}
