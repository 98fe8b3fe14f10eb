// Reference: x = fmin(fmax(x, min), max) in place on the decoded half value, in double, rounded once to
// half. fmax/fmin return the number when the other operand is NaN (IEEE maxNum, as vfmax/vfmin do), so NaN
// becomes min (rounded to half).
#include <math.h>
#include <stddef.h>

void clip_f16(_Float16 *x, size_t n, float min, float max) {
  for (size_t i = 0; i < n; i++) x[i] = (_Float16)fmin(fmax((double)x[i], (double)min), (double)max);
}
