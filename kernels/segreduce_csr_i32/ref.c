// Reference: out[r] = sum of values[rows[r] .. end) with end = rows[r+1] (last row: n), in wrapping
// int32 arithmetic (accumulated in uint32 so overflow is defined); empty rows give 0.
#include <stdint.h>

void segreduce_csr_i32(const int32_t *values, int n, const int32_t *rows, int nrows, int32_t *out) {
  for (int r = 0; r < nrows; r++) {
    int end = r + 1 < nrows ? rows[r + 1] : n;
    uint32_t sum = 0;
    for (int i = rows[r]; i < end; i++) sum += (uint32_t)values[i];
    out[r] = (int32_t)sum;
  }
}
