// Reference: NCNN Cast fp32 -> fp16, the C conversion: round to nearest even, overflow to +-inf, NaN stays
// NaN, small values to subnormals or +-0.
#include <stddef.h>

void cast_f32(const float *x, _Float16 *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = (_Float16)x[i];
}
