// Reference: row-major C = A B (A is MxK, B is KxN), each dot product accumulated in double.
#include <stddef.h>

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K) {
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < N; j++) {
      double acc = 0.0;
      for (int k = 0; k < K; k++) acc += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
      C[(size_t)i * N + j] = (float)acc;
    }
  }
}
