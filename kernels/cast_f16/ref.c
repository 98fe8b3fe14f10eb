// Reference: NCNN Cast fp16 -> fp32, the C conversion (exact for every half: normals, subnormals, +-0,
// +-inf; NaN stays NaN).
#include <stddef.h>

void cast_f16(const _Float16 *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = (float)x[i];
}
