// Reference: |x| in place, in double (exact); NaN stays NaN.
#include <math.h>
#include <stddef.h>

void absval_f32(float *x, size_t n) {
  for (size_t i = 0; i < n; i++) x[i] = (float)fabs((double)x[i]);
}
