// Reference: x = fmin(fmax(x, min), max) in place, in double. fmax/fmin return the number when the other
// operand is NaN (IEEE maxNum, as vfmax/vfmin do), so NaN becomes min.
#include <math.h>
#include <stddef.h>

void clip_f32(float *x, size_t n, float min, float max) {
  for (size_t i = 0; i < n; i++) x[i] = (float)fmin(fmax((double)x[i], (double)min), (double)max);
}
