/*
** blas.c -- the CBLAS routines tsr calls, bound to OpenBLAS on first use (dlopen) instead of at
** process start: loading OpenBLAS costs more than the rest of tsr's start-up (its constructor
** maps buffers and starts threads), and most scripts never multiply matrices.  Each routine
** here has CBLAS's signature and forwards to the library's; should no BLAS library load (or
** TSR_BLAS=none be set), a plain C loop computes the same product.  Routines not listed here link to -lopenblas as
** usual (the Makefile links it --as-needed).
*/
#include "rt.h"

#include <cblas.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef void (*GemmD)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint,
                      double, const double *, blasint, const double *, blasint, double, double *,
                      blasint);
typedef void (*GemmS)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint,
                      float, const float *, blasint, const float *, blasint, float, float *,
                      blasint);
typedef void (*GemvD)(CBLAS_ORDER, CBLAS_TRANSPOSE, blasint, blasint, double, const double *,
                      blasint, const double *, blasint, double, double *, blasint);
typedef void (*GemvS)(CBLAS_ORDER, CBLAS_TRANSPOSE, blasint, blasint, float, const float *,
                      blasint, const float *, blasint, float, float *, blasint);
typedef void (*SyrkD)(CBLAS_ORDER, CBLAS_UPLO, CBLAS_TRANSPOSE, blasint, blasint, double,
                      const double *, blasint, double, double *, blasint);
typedef void (*SyrkS)(CBLAS_ORDER, CBLAS_UPLO, CBLAS_TRANSPOSE, blasint, blasint, float,
                      const float *, blasint, float, float *, blasint);
typedef double (*DotD)(blasint, const double *, blasint, const double *, blasint);
typedef void (*SetThreads)(int);
typedef int (*GetThreads)(void);
typedef float (*DotS)(blasint, const float *, blasint, const float *, blasint);

static struct {
  GemmD dgemm; GemmS sgemm; GemvD dgemv; GemvS sgemv; SyrkD dsyrk; SyrkS ssyrk;
  DotD ddot; DotS sdot;
  SetThreads set_threads; GetThreads get_threads;   /* OpenBLAS's own, when it has them */
} blas;
static pthread_once_t blas_once = PTHREAD_ONCE_INIT;

/* Process-wide and loaded once: the library handle is shared by every state and never
   closed (as a linked library would be). */
static void blas_load(void) {
  static const char *const names[] = {"libopenblas.so.0", "libopenblas.so", "libcblas.so.3",
                                      "libblas.so.3"};
  void *h = NULL;
  const char *env = getenv("TSR_BLAS");   /* "none": the C loops (tests use it) */
  if (env && strcmp(env, "none") == 0) return;
  for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++)
    h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h) return;
  blas.dgemm = (GemmD)dlsym(h, "cblas_dgemm");
  blas.sgemm = (GemmS)dlsym(h, "cblas_sgemm");
  blas.dgemv = (GemvD)dlsym(h, "cblas_dgemv");
  blas.sgemv = (GemvS)dlsym(h, "cblas_sgemv");
  blas.dsyrk = (SyrkD)dlsym(h, "cblas_dsyrk");
  blas.ssyrk = (SyrkS)dlsym(h, "cblas_ssyrk");
  blas.ddot = (DotD)dlsym(h, "cblas_ddot");
  blas.sdot = (DotS)dlsym(h, "cblas_sdot");
  blas.set_threads = (SetThreads)dlsym(h, "openblas_set_num_threads");
  blas.get_threads = (GetThreads)dlsym(h, "openblas_get_num_threads");
  if (!blas.set_threads || !blas.get_threads) blas.set_threads = NULL, blas.get_threads = NULL;
}

/* blas_serial_begin/end: a count of the callers inside, process-wide, so that states on
   several host threads restore OpenBLAS's thread count only when the last one leaves. */
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;
static int serial_users, serial_saved;

bool blas_serial_begin(void) {
  pthread_once(&blas_once, blas_load);
  if (!blas.set_threads) return false;
  pthread_mutex_lock(&serial_lock);
  if (serial_users++ == 0) {
    serial_saved = blas.get_threads();
    if (serial_saved > 1) blas.set_threads(1);
  }
  pthread_mutex_unlock(&serial_lock);
  return true;
}

void blas_serial_end(void) {
  pthread_mutex_lock(&serial_lock);
  if (--serial_users == 0 && serial_saved > 1) blas.set_threads(serial_saved);
  pthread_mutex_unlock(&serial_lock);
}

/* Element (i, j) of an (order, trans, ld) operand as the routine sees it (op applied). */
#define AT(p, order, trans, ld, i, j)                                                       \
  (((order) == CblasRowMajor) == ((trans) == CblasNoTrans) ? (p)[(int64_t)(i) * (ld) + (j)] \
                                                           : (p)[(int64_t)(j) * (ld) + (i)])
#define OUTP(p, order, ld, i, j) \
  ((order) == CblasRowMajor ? &(p)[(int64_t)(i) * (ld) + (j)] : &(p)[(int64_t)(j) * (ld) + (i)])

#define DEFINE_FALLBACKS(T, P)                                                              \
  static void P##gemm_c(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m,    \
                        blasint n, blasint k, T alpha, const T *a, blasint lda, const T *b,  \
                        blasint ldb, T beta, T *c, blasint ldc) {                            \
    for (blasint i = 0; i < m; i++)                                                          \
      for (blasint j = 0; j < n; j++) {                                                      \
        T acc = 0;                                                                           \
        for (blasint l = 0; l < k; l++) acc += AT(a, o, ta, lda, i, l) * AT(b, o, tb, ldb, l, j); \
        T *cp = OUTP(c, o, ldc, i, j);                                                       \
        *cp = alpha * acc + (beta == 0 ? 0 : beta * *cp);                                    \
      }                                                                                      \
  }                                                                                          \
  static void P##gemv_c(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blasint m, blasint n, T alpha,     \
                        const T *a, blasint lda, const T *x, blasint incx, T beta, T *y,     \
                        blasint incy) {                                                      \
    blasint rows = t == CblasNoTrans ? m : n, cols = t == CblasNoTrans ? n : m;              \
    for (blasint i = 0; i < rows; i++) {                                                     \
      T acc = 0;                                                                             \
      for (blasint j = 0; j < cols; j++)                                                     \
        acc += AT(a, o, t, lda, i, j) * x[(incx >= 0 ? j : j - cols + 1) * (int64_t)incx];   \
      T *yp = &y[(incy >= 0 ? i : i - rows + 1) * (int64_t)incy];                            \
      *yp = alpha * acc + (beta == 0 ? 0 : beta * *yp);                                      \
    }                                                                                        \
  }                                                                                          \
  static void P##syrk_c(CBLAS_ORDER o, CBLAS_UPLO u, CBLAS_TRANSPOSE t, blasint n, blasint k, \
                        T alpha, const T *a, blasint lda, T beta, T *c, blasint ldc) {       \
    CBLAS_TRANSPOSE t2 = t == CblasNoTrans ? CblasTrans : CblasNoTrans;                      \
    for (blasint i = 0; i < n; i++)                                                          \
      for (blasint j = 0; j < n; j++) {                                                      \
        if (u == CblasUpper ? j < i : j > i) continue;                                       \
        T acc = 0;                                                                           \
        for (blasint l = 0; l < k; l++) acc += AT(a, o, t, lda, i, l) * AT(a, o, t2, lda, l, j); \
        T *cp = OUTP(c, o, ldc, i, j);                                                       \
        *cp = alpha * acc + (beta == 0 ? 0 : beta * *cp);                                    \
      }                                                                                      \
  }                                                                                          \
  static T P##dot_c(blasint n, const T *x, blasint incx, const T *y, blasint incy) {        \
    T acc = 0;                                                                               \
    for (blasint i = 0; i < n; i++)                                                          \
      acc += x[(incx >= 0 ? i : i - n + 1) * (int64_t)incx] *                                \
             y[(incy >= 0 ? i : i - n + 1) * (int64_t)incy];                                 \
    return acc;                                                                              \
  }
DEFINE_FALLBACKS(double, d)
DEFINE_FALLBACKS(float, s)

void cblas_dgemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
                 blasint k, double alpha, const double *a, blasint lda, const double *b,
                 blasint ldb, double beta, double *c, blasint ldc) {
  pthread_once(&blas_once, blas_load);
  (blas.dgemm ? blas.dgemm : dgemm_c)(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_sgemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
                 blasint k, float alpha, const float *a, blasint lda, const float *b,
                 blasint ldb, float beta, float *c, blasint ldc) {
  pthread_once(&blas_once, blas_load);
  (blas.sgemm ? blas.sgemm : sgemm_c)(o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void cblas_dgemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blasint m, blasint n, double alpha,
                 const double *a, blasint lda, const double *x, blasint incx, double beta,
                 double *y, blasint incy) {
  pthread_once(&blas_once, blas_load);
  (blas.dgemv ? blas.dgemv : dgemv_c)(o, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void cblas_sgemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blasint m, blasint n, float alpha,
                 const float *a, blasint lda, const float *x, blasint incx, float beta,
                 float *y, blasint incy) {
  pthread_once(&blas_once, blas_load);
  (blas.sgemv ? blas.sgemv : sgemv_c)(o, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void cblas_dsyrk(CBLAS_ORDER o, CBLAS_UPLO u, CBLAS_TRANSPOSE t, blasint n, blasint k,
                 double alpha, const double *a, blasint lda, double beta, double *c,
                 blasint ldc) {
  pthread_once(&blas_once, blas_load);
  (blas.dsyrk ? blas.dsyrk : dsyrk_c)(o, u, t, n, k, alpha, a, lda, beta, c, ldc);
}

void cblas_ssyrk(CBLAS_ORDER o, CBLAS_UPLO u, CBLAS_TRANSPOSE t, blasint n, blasint k,
                 float alpha, const float *a, blasint lda, float beta, float *c, blasint ldc) {
  pthread_once(&blas_once, blas_load);
  (blas.ssyrk ? blas.ssyrk : ssyrk_c)(o, u, t, n, k, alpha, a, lda, beta, c, ldc);
}

double cblas_ddot(blasint n, const double *x, blasint incx, const double *y, blasint incy) {
  pthread_once(&blas_once, blas_load);
  return (blas.ddot ? blas.ddot : ddot_c)(n, x, incx, y, incy);
}

float cblas_sdot(blasint n, const float *x, blasint incx, const float *y, blasint incy) {
  pthread_once(&blas_once, blas_load);
  return (blas.sdot ? blas.sdot : sdot_c)(n, x, incx, y, incy);
}
