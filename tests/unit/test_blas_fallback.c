/*
** test_blas_fallback.c -- the C loops that stand in for BLAS when no library loads
** (src/runtime/blas.c, forced with TSR_BLAS=none): matmul, dot, gemv and the A @ A.T (syrk)
** path, in both dtypes and with transposed operands, against plain triple loops.  The values
** are small integers, so every product is exact.
*/
#include "runtime/rt.h"
#include "check.h"

#include <stdlib.h>

static Ctx ctx, *c = &ctx;

static Tensor *ints(DType dt, int64_t m, int64_t n, int seed) {
  int64_t shape[2] = {m, n};
  Tensor *t = tensor_empty(c, dt, 2, shape);
  for (int64_t i = 0; i < m * n; i++) {
    double v = (double)((i * 7 + seed * 3) % 11) - 5;
    dtype_set_f64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v);
  }
  return t;
}

static double at2(Tensor *t, int64_t i, int64_t j) {
  int64_t idx[2] = {i, j};
  return dtype_get_f64(t->dtype, tensor_at(t, idx));
}

/* r == a @ b, both 2-d (b may be a view) */
static bool product_ok(Tensor *a, Tensor *b, Tensor *r) {
  if (!r || r->ndim != 2 || r->shape[0] != a->shape[0] || r->shape[1] != b->shape[1]) return false;
  for (int64_t i = 0; i < a->shape[0]; i++)
    for (int64_t j = 0; j < b->shape[1]; j++) {
      double acc = 0;
      for (int64_t k = 0; k < a->shape[1]; k++) acc += at2(a, i, k) * at2(b, k, j);
      if (acc != at2(r, i, j)) return false;
    }
  return true;
}

int main(void) {
  setenv("TSR_BLAS", "none", 1);
  ctx_init(c, NULL, NULL);
  DType dts[2] = {TSR_FLOAT64, TSR_FLOAT32};
  for (int d = 0; d < 2; d++) {
    DType dt = dts[d];
    Tensor *a = ints(dt, 5, 7, 1), *b = ints(dt, 7, 4, 2), *bt = ints(dt, 4, 7, 3);
    Tensor *btv = tensor_transpose(c, bt, NULL);         /* (7, 4), Fortran order */
    Tensor *a2 = ints(dt, 7, 5, 4), *av = tensor_transpose(c, a2, NULL);   /* (5, 7) view */
    Tensor *r1 = linalg_matmul(c, a, b);                 /* gemm, no transposes */
    Tensor *r2 = linalg_matmul(c, a, btv);               /* gemm, b transposed */
    Tensor *r3 = linalg_matmul(c, av, b);                /* gemm, a transposed */
    Tensor *at = tensor_transpose(c, a, NULL);
    Tensor *r4 = linalg_matmul(c, a, at);                /* syrk */
    CHECK(product_ok(a, b, r1));
    CHECK(product_ok(a, btv, r2));
    CHECK(product_ok(av, b, r3));
    CHECK(product_ok(a, at, r4));
    /* gemv: a matrix times a vector (as a (7, 1) column), and a row vector times b */
    int64_t one = 7;
    Tensor *row2 = ints(dt, 1, 7, 5), *row = tensor_reshape(c, row2, 1, &one);
    Tensor *r5 = linalg_matmul(c, a, row);
    Tensor *r6 = linalg_matmul(c, row, b);
    Tensor *r7 = linalg_matmul(c, row, row);              /* dot */
    bool ok5 = r5 && r5->ndim == 1, ok6 = r6 && r6->ndim == 1;
    for (int64_t i = 0; ok5 && i < 5; i++) {
      double acc = 0;
      for (int64_t k = 0; k < 7; k++) {
        int64_t kk = k;
        acc += at2(a, i, k) * dtype_get_f64(dt, tensor_at(row, &kk));
      }
      int64_t ii = i;
      ok5 = acc == dtype_get_f64(dt, tensor_at(r5, &ii));
    }
    for (int64_t j = 0; ok6 && j < 4; j++) {
      double acc = 0;
      for (int64_t k = 0; k < 7; k++) {
        int64_t kk = k;
        acc += dtype_get_f64(dt, tensor_at(row, &kk)) * at2(b, k, j);
      }
      int64_t jj = j;
      ok6 = acc == dtype_get_f64(dt, tensor_at(r6, &jj));
    }
    CHECK(ok5);
    CHECK(ok6);
    double dot = 0;
    for (int64_t k = 0; k < 7; k++) {
      int64_t kk = k;
      double v = dtype_get_f64(dt, tensor_at(row, &kk));
      dot += v * v;
    }
    CHECK(r7 && r7->ndim == 0 && dtype_get_f64(dt, tensor_data(r7)) == dot);
    Tensor *all[] = {a, b, bt, btv, a2, av, row2, r1, r2, r3, at, r4, row, r5, r6, r7};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) if (all[i]) tensor_release(all[i]);
  }
  CHECK(ctx.mem_used == 0);
  if (ctx.mem_used) fprintf(stderr, "leaked %zu bytes\n", ctx.mem_used);
  return CHECK_DONE("blas_fallback");
}
