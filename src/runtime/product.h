/*
** product.h -- the matrix-product kernel shared by numpy.matmul/dot (linalg.c) and einsum's
** pairwise contractions (einsum.c): one product C = A @ B of a dtype, strides in elements.
*/
#ifndef TSR_PRODUCT_H
#define TSR_PRODUCT_H

#include "rt.h"

/* One matrix product C = A @ B of an M x K matrix A (element strides am, ak) and a K x N
   matrix B (strides bk, bn) into C (strides cm, 1), all of one dtype.  Pointers borrowed. */
typedef struct MatMul {
  int64_t M, N, K;
  const char *A; int64_t am, ak;
  const char *B; int64_t bk, bn;
  char *C; int64_t cm;
} MatMul;

/* Runs one product in dtype dt.  float32/float64 take the CBLAS routine NumPy 1.24's matmul
   picks for the same shapes and strides (dot, gemv, gemm, or syrk for A @ A.T) or its plain
   loop; integers accumulate rows (or columns) exactly modulo 2**64 (NumPy's wrapped results)
   in row, a scratch of max(M, N) uint64_t (unused for float and bool); bool is
   any(A[i,k] and B[k,j]). */
RT_HIDDEN void linalg_product(DType dt, const MatMul *m, uint64_t *row);

#endif
