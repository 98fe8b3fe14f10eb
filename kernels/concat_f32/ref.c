// Reference: Concat of planar a[ca][h][wa] and b[cb][h][wb]. axis 0 (wa == wb): out[ca+cb][h][wa] is a's
// channels then b's. axis 2 (ca == cb): out[ca][h][wa+wb], each output row is a's row then b's row.
#include <stddef.h>

void concat_f32(const float *a, const float *b, float *out, int ca, int cb, int h, int wa, int wb, int axis) {
  if (axis == 0) {
    size_t na = (size_t)ca * h * wa, nb = (size_t)cb * h * wb;
    for (size_t i = 0; i < na; i++) out[i] = a[i];
    for (size_t i = 0; i < nb; i++) out[na + i] = b[i];
    return;
  }
  for (int q = 0; q < ca; q++) {
    for (int y = 0; y < h; y++) {
      const float *ra = a + ((size_t)q * h + y) * wa;
      const float *rb = b + ((size_t)q * h + y) * wb;
      float *ro = out + ((size_t)q * h + y) * (wa + wb);
      for (int x = 0; x < wa; x++) ro[x] = ra[x];
      for (int x = 0; x < wb; x++) ro[wa + x] = rb[x];
    }
  }
}
