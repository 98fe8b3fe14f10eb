// Reference: NCNN UnaryOp in place, op_type in NCNN's numbering, each value computed in double with the C
// library and rounded once to half. round is round-half-to-even (NCNN uses nearbyint in FE_TONEAREST);
// out-of-domain inputs give what libm gives (NaN for sqrt/log of negatives and asin/acos beyond 1,
// -inf for log(0), +-inf for 1/+-0).
#include <math.h>
#include <stddef.h>

static double unary(double v, int op) {
  switch (op) {
    case 0: return fabs(v);
    case 1: return -v;
    case 2: return floor(v);
    case 3: return ceil(v);
    case 4: return v * v;
    case 5: return sqrt(v);
    case 6: return 1.0 / sqrt(v);
    case 7: return exp(v);
    case 8: return log(v);
    case 9: return sin(v);
    case 10: return cos(v);
    case 11: return tan(v);
    case 12: return asin(v);
    case 13: return acos(v);
    case 14: return atan(v);
    case 15: return 1.0 / v;
    case 16: return tanh(v);
    case 17: return log10(v);
    case 18: return rint(v);
    case 19: return trunc(v);
    default: return v;
  }
}

void unaryop_f16(_Float16 *x, size_t n, int op_type) {
  if (op_type < 0 || op_type > 19) return;
  for (size_t i = 0; i < n; i++) x[i] = (_Float16)unary((double)x[i], op_type);
}
