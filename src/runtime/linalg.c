/*
** linalg.c -- BLAS glue: numpy.matmul and numpy.dot, and the product kernel einsum shares
** (product.h).  float32/float64 products go to CBLAS
** (OpenBLAS, the library NumPy itself uses here) through the same routine NumPy 1.24 picks for
** the same shapes and strides (dot, gemv, gemm or syrk), so results agree bit for bit; other
** dtypes use plain loops with wrapping integer arithmetic.
*/
#include "product.h"

#include <cblas.h>
#include <limits.h>
#include <string.h>

static void release(Tensor *t) { if (t) tensor_release(t); }

/* NumPy's is_blasable2d in elements: unit inner stride, outer stride covering the inner dim. */
static bool blasable2d(int64_t s_outer, int64_t s_inner, int64_t d_inner) {
  return s_inner == 1 && s_outer >= d_inner && s_outer <= INT_MAX;
}
static bool vec_blasable(int64_t s) { return s >= 1 && s <= INT_MAX; }

/* The float kernels: the decision tree of NumPy's matmul inner loop.  The plain loop
   (NumPy's "noblas") accumulates each element in the dtype in k order. */
#define DEFINE_MATMUL_FLOAT(NAME, T, P)                                                    \
  static void NAME##_noblas(const MatMul *m) {                                             \
    for (int64_t i = 0; i < m->M; i++)                                                     \
      for (int64_t j = 0; j < m->N; j++) {                                                 \
        T acc = 0;                                                                         \
        for (int64_t k = 0; k < m->K; k++)                                                 \
          acc += ((const T *)m->A)[i * m->am + k * m->ak] *                                \
                 ((const T *)m->B)[k * m->bk + j * m->bn];                                 \
        ((T *)m->C)[i * m->cm + j] = acc;                                                  \
      }                                                                                    \
  }                                                                                        \
  static void NAME##_dot(const T *x, int64_t sx, const T *y, int64_t sy, int64_t n, T *out) { \
    if (vec_blasable(sx) && vec_blasable(sy) && n <= INT_MAX) {                            \
      *out = (T)cblas_##P##dot((int)n, x, (int)sx, y, (int)sy);                            \
    } else {                                                                               \
      T acc = 0;                                                                           \
      for (int64_t k = 0; k < n; k++) acc += x[k * sx] * y[k * sy];                        \
      *out = acc;                                                                          \
    }                                                                                      \
  }                                                                                        \
  /* y (stride sy) = A x for an m x n matrix A (strides sm, sn), as NumPy's gemv. */       \
  static void NAME##_gemv(const T *a, int64_t sm, int64_t sn, const T *x, int64_t sx,      \
                          T *y, int64_t sy, int64_t mm, int64_t nn) {                      \
    if (blasable2d(sm, sn, nn))                                                            \
      cblas_##P##gemv(CblasColMajor, CblasTrans, (int)nn, (int)mm, 1, a, (int)sm, x,       \
                      (int)sx, 0, y, (int)sy);                                             \
    else                                                                                   \
      cblas_##P##gemv(CblasRowMajor, CblasTrans, (int)nn, (int)mm, 1, a, (int)sn, x,       \
                      (int)sx, 0, y, (int)sy);                                             \
  }                                                                                        \
  static void NAME(const MatMul *m) {                                                      \
    int64_t M = m->M, N = m->N, K = m->K;                                                  \
    const T *A = (const T *)m->A, *B = (const T *)m->B;                                    \
    T *C = (T *)m->C;                                                                      \
    bool a_c = blasable2d(m->am, m->ak, K), a_f = blasable2d(m->ak, m->am, M);             \
    bool b_c = blasable2d(m->bk, m->bn, N), b_f = blasable2d(m->bn, m->bk, K);             \
    bool too_big = M > INT_MAX || N > INT_MAX || K > INT_MAX || m->cm > INT_MAX;           \
    if (too_big || M == 0 || N == 0 || K == 0) { NAME##_noblas(m); return; }               \
    if (M == 1 || N == 1 || K == 1) {                                                      \
      if (M == 1 && N == 1) NAME##_dot(A, m->ak, B, m->bk, K, C);                          \
      else if (K == 1) NAME##_noblas(m);                                                   \
      else if (M == 1 && (b_c || b_f) && vec_blasable(m->ak))                              \
        NAME##_gemv(B, m->bn, m->bk, A, m->ak, C, 1, N, K);                                \
      else if (N == 1 && (a_c || a_f) && vec_blasable(m->bk))                              \
        NAME##_gemv(A, m->am, m->ak, B, m->bk, C, m->cm, M, K);                            \
      else NAME##_noblas(m);                                                               \
      return;                                                                              \
    }                                                                                      \
    if (!(a_c || a_f) || !(b_c || b_f)) { NAME##_noblas(m); return; }                      \
    CBLAS_TRANSPOSE ta = a_c ? CblasNoTrans : CblasTrans;                                  \
    CBLAS_TRANSPOSE tb = b_c ? CblasNoTrans : CblasTrans;                                  \
    int lda = (int)(a_c ? m->am : m->ak), ldb = (int)(b_c ? m->bk : m->bn);                \
    if (A == B && M == N && m->am == m->bn && m->ak == m->bk && ta != tb) {                \
      /* A @ A.T: a symmetric rank-k update, the lower triangle mirrored */                \
      cblas_##P##syrk(CblasRowMajor, CblasUpper, ta, (int)N, (int)K, 1, A,                 \
                      ta == CblasNoTrans ? lda : ldb, 0, C, (int)m->cm);                   \
      for (int64_t i = 0; i < N; i++)                                                      \
        for (int64_t j = i + 1; j < N; j++) C[j * m->cm + i] = C[i * m->cm + j];           \
      return;                                                                              \
    }                                                                                      \
    cblas_##P##gemm(CblasRowMajor, ta, tb, (int)M, (int)N, (int)K, 1, A, lda, B, ldb, 0,   \
                    C, (int)m->cm);                                                        \
  }
DEFINE_MATMUL_FLOAT(matmul_f32, float, s)
DEFINE_MATMUL_FLOAT(matmul_f64, double, d)

/* Integer kernels: row i of C accumulates a[i,k] * b[k,:] in uint64_t (wrapping, exact modulo
   2**64, so the final truncation to T equals NumPy's wrapped result); when only A's columns
   are contiguous (a transposed A, as einsum's pairs often are), column j accumulates
   a[:,k] * b[k,j] instead.  The order of the additions cannot change an exact result. */
#define DEFINE_MATMUL_INT(NAME, T)                                                         \
  static void NAME(const MatMul *m, uint64_t *row) {                                       \
    const T *A = (const T *)m->A, *B = (const T *)m->B;                                    \
    T *C = (T *)m->C;                                                                      \
    if (m->bn != 1 && m->am == 1 && m->M > 1) {                                            \
      for (int64_t j = 0; j < m->N; j++) {                                                 \
        memset(row, 0, (size_t)m->M * sizeof *row);                                        \
        for (int64_t k = 0; k < m->K; k++) {                                               \
          uint64_t b = (uint64_t)B[k * m->bk + j * m->bn];                                 \
          if (b == 0) continue;                                                            \
          const T *a = A + k * m->ak;                                                      \
          for (int64_t i = 0; i < m->M; i++) row[i] += (uint64_t)a[i] * b;                 \
        }                                                                                  \
        for (int64_t i = 0; i < m->M; i++) C[i * m->cm + j] = (T)row[i];                   \
      }                                                                                    \
      return;                                                                              \
    }                                                                                      \
    for (int64_t i = 0; i < m->M; i++) {                                                   \
      memset(row, 0, (size_t)m->N * sizeof *row);                                          \
      for (int64_t k = 0; k < m->K; k++) {                                                 \
        uint64_t a = (uint64_t)A[i * m->am + k * m->ak];                                   \
        if (a == 0) continue;                                                              \
        const T *b = B + k * m->bk;                                                        \
        if (m->bn == 1)                                                                    \
          for (int64_t j = 0; j < m->N; j++) row[j] += a * (uint64_t)b[j];                 \
        else                                                                               \
          for (int64_t j = 0; j < m->N; j++) row[j] += a * (uint64_t)b[j * m->bn];         \
      }                                                                                    \
      for (int64_t j = 0; j < m->N; j++) C[i * m->cm + j] = (T)row[j];                     \
    }                                                                                      \
  }
DEFINE_MATMUL_INT(matmul_i8, int8_t)
DEFINE_MATMUL_INT(matmul_i16, int16_t)
DEFINE_MATMUL_INT(matmul_i32, int32_t)
DEFINE_MATMUL_INT(matmul_i64, int64_t)
DEFINE_MATMUL_INT(matmul_u8, uint8_t)
DEFINE_MATMUL_INT(matmul_u16, uint16_t)
DEFINE_MATMUL_INT(matmul_u32, uint32_t)
DEFINE_MATMUL_INT(matmul_u64, uint64_t)

/* bool: C[i,j] = any over k of (A[i,k] and B[k,j]). */
static void matmul_bool(const MatMul *m) {
  const bool *A = (const bool *)m->A, *B = (const bool *)m->B;
  bool *C = (bool *)m->C;
  for (int64_t i = 0; i < m->M; i++)
    for (int64_t j = 0; j < m->N; j++) {
      bool v = false;
      for (int64_t k = 0; k < m->K && !v; k++)
        v = A[i * m->am + k * m->ak] && B[k * m->bk + j * m->bn];
      C[i * m->cm + j] = v;
    }
}

void linalg_product(DType dt, const MatMul *m, uint64_t *row) {
  switch (dt) {
  case TSR_FLOAT32: matmul_f32(m); break;
  case TSR_FLOAT64: matmul_f64(m); break;
  case TSR_BOOL: matmul_bool(m); break;
  case TSR_INT8: matmul_i8(m, row); break;
  case TSR_INT16: matmul_i16(m, row); break;
  case TSR_INT32: matmul_i32(m, row); break;
  case TSR_INT64: matmul_i64(m, row); break;
  case TSR_UINT8: matmul_u8(m, row); break;
  case TSR_UINT16: matmul_u16(m, row); break;
  case TSR_UINT32: matmul_u32(m, row); break;
  case TSR_UINT64: matmul_u64(m, row); break;
  }
}

/* Converts *t to dtype dt in place of the reference (a no-op when it already has it). */
static int convert(Ctx *c, Tensor **t, DType dt) {
  if ((*t)->dtype == dt) { tensor_retain(*t); return 0; }
  Tensor *r = tensor_astype(c, *t, dt);
  if (!r) return -1;
  *t = r;
  return 0;
}

/* Appends "(2,3,4)->(2,newaxis,newaxis)" for NumPy's matmul broadcast error. */
static void remapped(Buf *b, const Tensor *t, int core) {
  shape_format_compact(b, t->ndim, t->shape);
  buf_puts(b, "->(");
  for (int i = 0; i < t->ndim - core; i++) buf_printf(b, "%lld,", (long long)t->shape[i]);
  for (int i = 0; i < core; i++) buf_puts(b, i ? ",newaxis" : "newaxis");
  buf_putc(b, ')');
}

/* numpy.matmul(a, b).  1-d operands gain a dim (a: leading, b: trailing) that the result
   drops; batch dims broadcast.  The result dtype is promote(a, b).  Returns a new C-contiguous
   tensor or NULL with NumPy's ValueError texts. */
Tensor *linalg_matmul(Ctx *c, Tensor *a, Tensor *b) {
  Tensor *ca = NULL, *cb = NULL, *out = NULL;
  uint64_t *row = NULL;
  size_t row_bytes = 0;
  for (int op = 0; op < 2; op++) {
    Tensor *t = op ? b : a;
    if (t->ndim == 0) {
      ERR_VALUE(c, "matmul: Input operand %d does not have enough dimensions (has 0, gufunc "
                "core with signature (n?,k),(k,m?)->(n?,m?) requires 1)", op);
      return NULL;
    }
  }
  bool a1 = a->ndim == 1, b1 = b->ndim == 1;
  int ab = a->ndim - (a1 ? 1 : 2), bb = b->ndim - (b1 ? 1 : 2);
  int64_t M = a1 ? 1 : a->shape[a->ndim - 2], K = a->shape[a->ndim - 1];
  int64_t Kb = b1 ? b->shape[0] : b->shape[b->ndim - 2], N = b1 ? 1 : b->shape[b->ndim - 1];
  if (K != Kb) {
    ERR_VALUE(c, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
              "signature (n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
              (long long)Kb, (long long)K);
    return NULL;
  }
  int nbatch = ab > bb ? ab : bb, ond = 0;
  int64_t oshape[TSR_MAXDIMS];
  for (int i = 0; i < nbatch; i++) {
    int ia = i - (nbatch - ab), ib = i - (nbatch - bb);
    int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      Buf m;
      buf_init(&m, c);
      buf_puts(&m, "operands could not be broadcast together with remapped shapes "
                   "[original->remapped]: ");
      remapped(&m, a, a1 ? 1 : 2);
      buf_putc(&m, ' ');
      remapped(&m, b, b1 ? 1 : 2);
      buf_puts(&m, "  and requested shape (");
      if (!a1) buf_printf(&m, "%lld%s", (long long)M, b1 ? "" : ",");
      if (!b1) buf_printf(&m, "%lld", (long long)N);
      buf_putc(&m, ')');
      ERR_VALUE(c, "%s", buf_str(&m));
      buf_free(&m);
      return NULL;
    }
    oshape[ond++] = da == 1 ? db : da;
  }
  if (ond + 2 > TSR_MAXDIMS) {
    ERR_VALUE(c, "matmul: too many dimensions");
    return NULL;
  }
  if (!a1) oshape[ond++] = M;
  if (!b1) oshape[ond++] = N;
  DType dt = dtype_promote(a->dtype, b->dtype);
  if (convert(c, &a, dt)) return NULL;
  ca = a;
  if (convert(c, &b, dt)) goto fail;
  cb = b;
  if (!(out = tensor_empty(c, dt, ond, oshape))) goto fail;
  int64_t total = tensor_size(out);
  if (total == 0) goto done;
  row_bytes = (size_t)(M > N ? M : N) * sizeof *row;
  if (dtype_is_int(dt) && !(row = ctx_malloc(c, row_bytes))) goto fail;
  {
    int64_t isz = (int64_t)dtype_size(dt);
    MatMul m = { M, N, K, NULL, a1 ? 0 : a->strides[a->ndim - 2], a->strides[a->ndim - 1],
                 NULL, b1 ? b->strides[0] : b->strides[b->ndim - 2],
                 b1 ? 0 : b->strides[b->ndim - 1], NULL, N };
    int64_t sa[TSR_MAXDIMS], sb[TSR_MAXDIMS], idx[TSR_MAXDIMS] = {0};
    for (int i = 0; i < nbatch; i++) {
      int ia = i - (nbatch - ab), ib = i - (nbatch - bb);
      sa[i] = ia >= 0 && a->shape[ia] != 1 ? a->strides[ia] * isz : 0;
      sb[i] = ib >= 0 && b->shape[ib] != 1 ? b->strides[ib] * isz : 0;
    }
    const char *pa = tensor_data(a), *pb = tensor_data(b);
    char *pc = tensor_data(out);
    int64_t nb = total / (M * N);
    for (int64_t n = 0; n < nb; n++) {
      m.A = pa; m.B = pb; m.C = pc;
      linalg_product(dt, &m, row);
      if (ctx_work(c, M * N * (K + 1), WORK_FLOP)) goto fail;
      pc += M * N * isz;
      for (int d = nbatch - 1; d >= 0; d--) {
        pa += sa[d]; pb += sb[d];
        if (++idx[d] < oshape[d]) break;
        pa -= sa[d] * oshape[d]; pb -= sb[d] * oshape[d];
        idx[d] = 0;
      }
    }
  }
done:
  if (row) ctx_free(c, row, row_bytes);
  release(ca);
  release(cb);
  return out;
fail:
  if (row) ctx_free(c, row, row_bytes);
  release(ca);
  release(cb);
  release(out);
  return NULL;
}

/* NumPy's dot copies an operand BLAS cannot take (negative, zero or non-unit strides on both
   axes) to C order first. */
static bool dot_blasable(const Tensor *t) {
  if (t->ndim == 1) return t->shape[0] <= 1 || vec_blasable(t->strides[0]);
  return blasable2d(t->strides[0], t->strides[1], t->shape[1]) ||
         blasable2d(t->strides[1], t->strides[0], t->shape[0]) ||
         t->shape[0] <= 1 || t->shape[1] <= 1;
}

/* numpy.dot(a, b) but for the zeros of its scalar case (linalg_dot): a scalar operand
   multiplies; otherwise the sum over the last axis of a and the second-to-last of b (the only
   one of a 1-d b).  Result shape a.shape[:-1] + b.shape[:-2] + b.shape[-1:].  ValueError
   "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)".  Returns a new tensor or
   NULL. */
static Tensor *dot_product(Ctx *c, Tensor *a, Tensor *b) {
  Tensor *ca = NULL, *cb = NULL, *out = NULL;
  uint64_t *row = NULL;
  size_t row_bytes = 0;
  if (a->ndim == 0 || b->ndim == 0) return ufunc_binary(c, UF_MULTIPLY, a, b, NULL);
  int kb = b->ndim == 1 ? 0 : b->ndim - 2;
  int64_t K = a->shape[a->ndim - 1];
  if (K != b->shape[kb]) {
    Buf m;
    buf_init(&m, c);
    buf_puts(&m, "shapes ");
    shape_format_compact(&m, a->ndim, a->shape);
    buf_puts(&m, " and ");
    shape_format_compact(&m, b->ndim, b->shape);
    buf_printf(&m, " not aligned: %lld (dim %d) != %lld (dim %d)", (long long)K, a->ndim - 1,
               (long long)b->shape[kb], kb);
    ERR_VALUE(c, "%s", buf_str(&m));
    buf_free(&m);
    return NULL;
  }
  if (a->ndim + b->ndim - 2 > TSR_MAXDIMS) {
    ERR_VALUE(c, "dot: too many dimensions");
    return NULL;
  }
  int64_t oshape[TSR_MAXDIMS];
  int ond = 0;
  for (int i = 0; i < a->ndim - 1; i++) oshape[ond++] = a->shape[i];
  for (int i = 0; i < b->ndim; i++)
    if (i != kb) oshape[ond++] = b->shape[i];
  DType dt = dtype_promote(a->dtype, b->dtype);
  bool small = a->ndim <= 2 && b->ndim <= 2;
  if (small && dt == a->dtype && !dot_blasable(a)) {
    if (!(ca = tensor_copy(c, a))) goto fail;
  } else if (convert(c, &a, dt)) {
    goto fail;
  } else {
    ca = a;
  }
  a = ca;
  if (small && dt == b->dtype && !dot_blasable(b)) {
    if (!(cb = tensor_copy(c, b))) goto fail;
  } else if (convert(c, &b, dt)) {
    goto fail;
  } else {
    cb = b;
  }
  b = cb;
  if (!(out = tensor_empty(c, dt, ond, oshape))) goto fail;
  if (tensor_size(out) == 0) goto done;
  int64_t isz = (int64_t)dtype_size(dt);
  if (small) {
    MatMul m = { a->ndim == 1 ? 1 : a->shape[0], b->ndim == 1 ? 1 : b->shape[1], K,
                 tensor_data(a), a->ndim == 1 ? 0 : a->strides[0], a->strides[a->ndim - 1],
                 tensor_data(b), b->strides[0], b->ndim == 1 ? 0 : b->strides[1],
                 tensor_data(out), b->ndim == 1 ? 1 : b->shape[1] };
    row_bytes = (size_t)(m.M > m.N ? m.M : m.N) * sizeof *row;
    if (dtype_is_int(dt) && !(row = ctx_malloc(c, row_bytes))) goto fail;
    linalg_product(dt, &m, row);
    if (ctx_work(c, m.M * m.N * (K + 1), WORK_FLOP)) goto fail;
    goto done;
  }
  /* N-d: NumPy takes one dot product per output element. */
  row_bytes = sizeof *row;
  if (dtype_is_int(dt) && !(row = ctx_malloc(c, row_bytes))) goto fail;
  {
    int na = a->ndim - 1, nbo = b->ndim - 1, bdims[TSR_MAXDIMS];
    for (int i = 0, j = 0; i < b->ndim; i++)
      if (i != kb) bdims[j++] = i;
    int64_t ia[TSR_MAXDIMS] = {0}, ib[TSR_MAXDIMS] = {0};
    const char *pa = tensor_data(a);
    char *pc = tensor_data(out);
    MatMul m = { 1, 1, K, NULL, 0, a->strides[a->ndim - 1], NULL, b->strides[kb], 0, NULL, 1 };
    uint64_t work = 0;
    for (;;) {
      const char *pb = tensor_data(b);
      for (;;) {
        m.A = pa; m.B = pb; m.C = pc;
        linalg_product(dt, &m, row);
        pc += isz;
        work += (uint64_t)K + 1;
        if (work >= 65536) {
          if (ctx_work(c, work, WORK_FLOP)) goto fail;
          work = 0;
        }
        int d = nbo - 1;
        for (; d >= 0; d--) {
          int ax = bdims[d];
          pb += b->strides[ax] * isz;
          if (++ib[d] < b->shape[ax]) break;
          pb -= b->strides[ax] * isz * b->shape[ax];
          ib[d] = 0;
        }
        if (d < 0) break;
      }
      int d = na - 1;
      for (; d >= 0; d--) {
        pa += a->strides[d] * isz;
        if (++ia[d] < a->shape[d]) break;
        pa -= a->strides[d] * isz * a->shape[d];
        ia[d] = 0;
      }
      if (d < 0) break;
    }
    if (ctx_work(c, work, WORK_FLOP)) goto fail;
  }
done:
  if (row) ctx_free(c, row, row_bytes);
  release(ca);
  release(cb);
  return out;
fail:
  if (row) ctx_free(c, row, row_bytes);
  release(ca);
  release(cb);
  release(out);
  return NULL;
}

/* Is t a single element to NumPy's BLAS dot (0-d, (1,) or (1, 1))? */
static bool dot_scalar_shaped(const Tensor *t) {
  return t->ndim == 0 || (t->ndim <= 2 && tensor_size(t) == 1 && t->shape[0] == 1);
}

Tensor *linalg_dot(Ctx *c, Tensor *a, Tensor *b) {
  Tensor *r = dot_product(c, a, b);
  if (!r || !dtype_is_float(r->dtype) || a->ndim > 2 || b->ndim > 2 ||
      !(dot_scalar_shaped(a) || dot_scalar_shaped(b)))
    return r;
  int64_t n = tensor_size(r);
  if (n == 1 && tensor_size(a) == 1 && tensor_size(b) == 1) {
    double p = dtype_get_f64(a->dtype, tensor_data(a)) * dtype_get_f64(b->dtype, tensor_data(b));
    if (p == 0) dtype_set_f64(r->dtype, tensor_data(r), p);
  } else if (n > 1) {
    char *d = tensor_data(r);   /* C-contiguous: dot_product's own result */
    size_t sz = dtype_size(r->dtype);
    for (int64_t i = 0; i < n; i++)
      if (dtype_get_f64(r->dtype, d + i * sz) == 0) dtype_set_f64(r->dtype, d + i * sz, 0.0);
  }
  return r;
}

Tensor *linalg_vdot(Ctx *c, Tensor *a, Tensor *b) {
  Tensor *fa = tensor_ravel(c, a), *fb = fa ? tensor_ravel(c, b) : NULL, *r = NULL;
  if (fb) r = dot_product(c, fa, fb);
  if (fa) tensor_release(fa);
  if (fb) tensor_release(fb);
  return r;
}
