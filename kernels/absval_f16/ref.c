// Reference: |x| in place on the decoded half value, in double, rounded once to half (exact); NaN stays NaN.
#include <math.h>
#include <stddef.h>

void absval_f16(_Float16 *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (_Float16)fabs((double)x[i]);
}
