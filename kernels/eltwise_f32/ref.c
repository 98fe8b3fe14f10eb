// Reference: NCNN Eltwise over three same-shape inputs, op_type 0 = product a*b*c, 1 = weighted sum
// coeff0*a + coeff1*b + coeff2*c, 2 = maximum (NaN operands ignored, fmax, as vfmax); computed in double
// and rounded once to float.
#include <math.h>
#include <stddef.h>

void eltwise_f32(const float *a, const float *b, const float *c, float *out, size_t n, int op_type, float coeff0,
                 float coeff1, float coeff2) {
  for (size_t i = 0; i < n; i++) {
    double x = a[i], y = b[i], z = c[i], r;
    if (op_type == 0) r = x * y * z;
    else if (op_type == 1) r = (double)coeff0 * x + (double)coeff1 * y + (double)coeff2 * z;
    else r = fmax(fmax(x, y), z);
    out[i] = (float)r;
  }
}
