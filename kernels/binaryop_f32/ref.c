// Reference: NCNN BinaryOp on two same-shape arrays, c[i] = op(a[i], b[i]), op_type in NCNN's numbering
// (0 add, 1 sub, 2 mul, 3 div, 4 max, 5 min, 6 pow, 7 rsub = b - a, 8 rdiv = b / a), computed in double
// and rounded once to float. max/min ignore a NaN operand (fmax/fmin, as vfmax/vfmin and NCNN's
// std::max(a, b) with NaN in b do).
#include <math.h>
#include <stddef.h>

static double binary(double x, double y, int op) {
  switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return fmax(x, y);
    case 5: return fmin(x, y);
    case 6: return pow(x, y);
    case 7: return y - x;
    case 8: return y / x;
    default: return 0.0;
  }
}

void binaryop_f32(const float *a, const float *b, float *c, size_t n, int op_type) {
  if (op_type < 0 || op_type > 8) return;
  for (size_t i = 0; i < n; i++) c[i] = (float)binary((double)a[i], (double)b[i], op_type);
}
