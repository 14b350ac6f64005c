/*
** lapack.c -- numpy.linalg's decompositions and solvers (inv, solve, det, slogdet, cholesky,
** eigh, svd, qr, lstsq) on stacked matrices, through the LAPACK routines NumPy's umath_linalg
** calls (gesv, getrf, potrf, syevd, gesdd, geqrf/orgqr, gelsd).  The routines come from
** OpenBLAS (which exports LAPACK's Fortran symbols) or the reference liblapack, bound with
** dlopen on first use like blas.c's CBLAS, so start-up does not pay for loading them.  Each
** matrix is copied into a column-major float64 scratch buffer (LAPACK's layout), factored, and
** its results copied back into C-contiguous tensors; float32 results are cast at the end, as
** NumPy computes in float64 too.
*/
#include "lapack.h"

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <string.h>

/* LAPACK's Fortran interface: every argument by reference, character arguments followed by
   their hidden lengths at the end. */
typedef void (*Gesv)(const int *, const int *, double *, const int *, int *, double *,
                     const int *, int *);
typedef void (*Getrf)(const int *, const int *, double *, const int *, int *, int *);
typedef void (*Potrf)(const char *, const int *, double *, const int *, int *, size_t);
typedef void (*Syevd)(const char *, const char *, const int *, double *, const int *, double *,
                      double *, const int *, int *, const int *, int *, size_t, size_t);
typedef void (*Gesdd)(const char *, const int *, const int *, double *, const int *, double *,
                      double *, const int *, double *, const int *, double *, const int *,
                      int *, int *, size_t);
typedef void (*Gelsd)(const int *, const int *, const int *, double *, const int *, double *,
                      const int *, double *, const double *, int *, double *, const int *,
                      int *, int *);
typedef void (*Geqrf)(const int *, const int *, double *, const int *, double *, double *,
                      const int *, int *);
typedef void (*Orgqr)(const int *, const int *, const int *, double *, const int *,
                      const double *, double *, const int *, int *);

static struct {
  Gesv gesv; Getrf getrf; Potrf potrf; Syevd syevd; Gesdd gesdd; Gelsd gelsd; Geqrf geqrf;
  Orgqr orgqr;
} lp;
static pthread_once_t lp_once = PTHREAD_ONCE_INIT;

/* Process-wide, loaded once, never closed (as a linked library would be). */
static void lp_load(void) {
  static const char *const names[] = {"libopenblas.so.0", "libopenblas.so", "liblapack.so.3"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    lp.gesv = (Gesv)dlsym(h, "dgesv_");
    lp.getrf = (Getrf)dlsym(h, "dgetrf_");
    lp.potrf = (Potrf)dlsym(h, "dpotrf_");
    lp.syevd = (Syevd)dlsym(h, "dsyevd_");
    lp.gesdd = (Gesdd)dlsym(h, "dgesdd_");
    lp.gelsd = (Gelsd)dlsym(h, "dgelsd_");
    lp.geqrf = (Geqrf)dlsym(h, "dgeqrf_");
    lp.orgqr = (Orgqr)dlsym(h, "dorgqr_");
    if (lp.gesv && lp.getrf && lp.potrf && lp.syevd && lp.gesdd && lp.gelsd && lp.geqrf &&
        lp.orgqr)
      return;
    memset(&lp, 0, sizeof lp);
  }
}

/* 0 when LAPACK is loaded, else RuntimeError. */
static int lp_ready(Ctx *c) {
  pthread_once(&lp_once, lp_load);
  if (lp.gesv) return 0;
  return ERR_RUNTIME(c, "LAPACK is not available (neither libopenblas nor liblapack loads)");
}

int lapack_check_stacked(Ctx *c, const Tensor *t, bool square) {
  if (t->ndim < 2)
    return ERR_LINALG(c, "%d-dimensional array given. Array must be at least two-dimensional",
                      t->ndim);
  if (square && t->shape[t->ndim - 1] != t->shape[t->ndim - 2])
    return ERR_LINALG(c, "Last 2 dimensions of the array must be square");
  return 0;
}

/* A stack of matrices as float64 C-contiguous data: nb matrices of m x n. */
typedef struct Stack {
  Tensor *t;          /* owned reference */
  const double *p;
  int64_t nb, m, n;
  int bnd;            /* batch dims: t->shape[0..bnd) */
} Stack;

/* Opens t (already checked) as a stack; ValueError when a dim exceeds LAPACK's int. */
static int stack_open(Ctx *c, Tensor *t, Stack *s) {
  s->m = t->shape[t->ndim - 2];
  s->n = t->shape[t->ndim - 1];
  s->bnd = t->ndim - 2;
  s->nb = 1;
  for (int i = 0; i < s->bnd; i++) s->nb *= t->shape[i];
  if (s->m >= INT_MAX / 8 || s->n >= INT_MAX / 8) {
    s->t = NULL;
    return ERR_VALUE(c, "array is too big for LAPACK");
  }
  if (!(s->t = tensor_contiguous(c, t, TSR_FLOAT64))) return -1;
  s->p = (const double *)tensor_data(s->t);
  return 0;
}

/* The result dtype of operands: float32 when all are float32, else float64. */
static DType result_dtype(const Tensor *a, const Tensor *b) {
  return a->dtype == TSR_FLOAT32 && (!b || b->dtype == TSR_FLOAT32) ? TSR_FLOAT32 : TSR_FLOAT64;
}

/* A new float64 tensor of shape batch[0..bnd) + core[0..ncore). */
static Tensor *new_out(Ctx *c, int bnd, const int64_t *batch, int ncore, int64_t d0,
                       int64_t d1) {
  int64_t shape[TSR_MAXDIMS];
  memcpy(shape, batch, sizeof(int64_t) * (size_t)bnd);
  if (ncore > 0) shape[bnd] = d0;
  if (ncore > 1) shape[bnd + 1] = d1;
  return tensor_empty(c, TSR_FLOAT64, bnd + ncore, shape);
}

/* Casts *t (float64) to dt in place of the reference; 0 or -1 (then *t is released, NULL). */
static int finish(Ctx *c, Tensor **t, DType dt) {
  if (!*t || (*t)->dtype == dt) return *t ? 0 : -1;
  Tensor *r = tensor_astype(c, *t, dt);
  tensor_release(*t);
  *t = r;
  return r ? 0 : -1;
}

static void release(Tensor **t) {
  if (*t) tensor_release(*t);
  *t = NULL;
}

/* Row-major m x n src -> column-major dst with leading dimension ld. */
static void to_fortran(double *dst, int64_t ld, const double *src, int64_t m, int64_t n) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) dst[i + j * ld] = src[i * n + j];
}

/* Column-major src (leading dimension ld) -> row-major m x n dst. */
static void from_fortran(double *dst, const double *src, int64_t ld, int64_t m, int64_t n) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) dst[i * n + j] = src[i + j * ld];
}

static int imax1(int64_t v) { return v < 1 ? 1 : (int)v; }

/* Scratch memory of one call: nd doubles and ni ints from the Ctx allocator. */
typedef struct Scratch { double *d; int *i; size_t dbytes, ibytes; } Scratch;

static int scratch_get(Ctx *c, Scratch *s, int64_t nd, int64_t ni) {
  s->dbytes = (size_t)(nd < 1 ? 1 : nd) * sizeof(double);
  s->ibytes = (size_t)(ni < 1 ? 1 : ni) * sizeof(int);
  s->d = ctx_malloc(c, s->dbytes);
  s->i = s->d ? ctx_malloc(c, s->ibytes) : NULL;
  if (s->i) return 0;
  if (s->d) ctx_free(c, s->d, s->dbytes);
  s->d = NULL;
  return -1;
}

static void scratch_free(Ctx *c, Scratch *s) {
  if (s->d) ctx_free(c, s->d, s->dbytes);
  if (s->i) ctx_free(c, s->i, s->ibytes);
  s->d = NULL;
  s->i = NULL;
}

/* The iterative decompositions (SVD, symmetric eigenproblem, least squares through an SVD)
   take about this many times the time of an m n k product (measured on 1000x200 and 500x200,
   OpenBLAS threads included). */
#define ITERATIVE_COST 16

/* Charges the O(m n k) work of one factorisation. */
static int poll_matrix(Ctx *c, int64_t m, int64_t n, int64_t k) {
  return ctx_work(c, m * n * (k + 1), WORK_FLOP);
}

/* Opens a square stack after the checks every square-matrix function makes. */
static int open_square(Ctx *c, Tensor *a, Stack *st) {
  st->t = NULL;
  if (lp_ready(c) || lapack_check_stacked(c, a, true)) return -1;
  return stack_open(c, a, st);
}

/* ---- inv and solve ---- */

/* Solves A X = B for each matrix of the stack: A n x n at a, B n x k at b (row-major), X into
   x (row-major n x k).  LinAlgError "Singular matrix". */
static int gesv_stack(Ctx *c, const double *a, const double *b, double *x, int64_t nb,
                      int64_t n, int64_t k, int64_t bstride_a, int64_t bstride_b, bool eye) {
  Scratch sc;
  int64_t ld = imax1(n);
  if (scratch_get(c, &sc, ld * n + ld * k, n)) return -1;
  double *fa = sc.d, *fb = sc.d + ld * n;
  int N = (int)n, K = (int)k, LD = (int)ld, info = 0;
  for (int64_t t = 0; t < nb; t++) {
    to_fortran(fa, ld, a + t * bstride_a, n, n);
    if (eye) {
      memset(fb, 0, sizeof(double) * (size_t)(ld * k));
      for (int64_t i = 0; i < n; i++) fb[i + i * ld] = 1;
    } else {
      to_fortran(fb, ld, b + t * bstride_b, n, k);
    }
    lp.gesv(&N, &K, fa, &LD, sc.i, fb, &LD, &info);
    if (info > 0) {
      scratch_free(c, &sc);
      return ERR_LINALG(c, "Singular matrix");
    }
    from_fortran(x + t * n * k, fb, ld, n, k);
    if (poll_matrix(c, n, n, n + k)) { scratch_free(c, &sc); return -1; }
  }
  scratch_free(c, &sc);
  return 0;
}

Tensor *lapack_inv(Ctx *c, Tensor *a) {
  Stack st;
  Tensor *out = NULL;
  if (open_square(c, a, &st)) return NULL;
  if (!(out = new_out(c, st.bnd, a->shape, 2, st.n, st.n)) ||
      gesv_stack(c, st.p, NULL, (double *)tensor_data(out), st.nb, st.n, st.n, st.n * st.n, 0,
                 true) ||
      finish(c, &out, result_dtype(a, NULL)))
    release(&out);
  release(&st.t);
  return out;
}

Tensor *lapack_solve(Ctx *c, Tensor *a, Tensor *b) {
  if (lp_ready(c) || lapack_check_stacked(c, a, true)) return NULL;
  bool vec = b->ndim == a->ndim - 1;
  const char *name = vec ? "solve1" : "solve";
  const char *sig = vec ? "(m,m),(m)->(m)" : "(m,m),(m,n)->(m,n)";
  int core = vec ? 1 : 2;
  if (b->ndim < core) {
    ERR_VALUE(c, "%s: Input operand 1 does not have enough dimensions (has %d, gufunc core "
              "with signature %s requires %d)", name, b->ndim, sig, core);
    return NULL;
  }
  int64_t n = a->shape[a->ndim - 1];
  int64_t mb = b->shape[b->ndim - core], k = vec ? 1 : b->shape[b->ndim - 1];
  if (mb != n) {
    ERR_VALUE(c, "%s: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
              "signature %s (size %lld is different from %lld)", name, sig, (long long)mb,
              (long long)n);
    return NULL;
  }
  int abn = a->ndim - 2, bbn = b->ndim - core, bnd = abn > bbn ? abn : bbn;
  int64_t shape[TSR_MAXDIMS];
  for (int i = 0; i < bnd; i++) {
    int ia = i - (bnd - abn), ib = i - (bnd - bbn);
    int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
    if (da != db && da != 1 && db != 1) {
      ERR_VALUE(c, "%s: operands could not be broadcast together (batch dimension %d: %lld "
                "and %lld)", name, i, (long long)da, (long long)db);
      return NULL;
    }
    shape[i] = da == 1 ? db : da;
  }
  if (bnd + 2 > TSR_MAXDIMS) {
    ERR_VALUE(c, "solve: too many dimensions");
    return NULL;
  }
  Tensor *ab = NULL, *bb = NULL, *out = NULL;
  Stack sa = {0}, sb = {0};
  shape[bnd] = n;
  shape[bnd + 1] = n;
  if (!(ab = tensor_broadcast_to(c, a, bnd + 2, shape))) goto fail;
  shape[bnd + 1] = k;
  if (!(bb = tensor_broadcast_to(c, b, bnd + core, shape))) goto fail;
  if (stack_open(c, ab, &sa)) goto fail;
  if (!(sb.t = tensor_contiguous(c, bb, TSR_FLOAT64))) goto fail;
  if (!(out = tensor_empty(c, TSR_FLOAT64, bnd + core, shape))) goto fail;
  if (gesv_stack(c, sa.p, (const double *)tensor_data(sb.t), (double *)tensor_data(out), sa.nb,
                 n, k, n * n, n * k, false) ||
      finish(c, &out, result_dtype(a, b)))
    goto fail;
  release(&ab);
  release(&bb);
  release(&sa.t);
  release(&sb.t);
  return out;
fail:
  release(&ab);
  release(&bb);
  release(&sa.t);
  release(&sb.t);
  release(&out);
  return NULL;
}

/* ---- det and slogdet ---- */

/* sign and log|det| of each matrix: getrf, then the pivot parity and the factored diagonal
   (a failed factorisation, i.e. an exactly singular matrix, gives 0 and -inf). */
static int slogdet_stack(Ctx *c, const Stack *st, double *sign, double *logdet) {
  Scratch sc;
  int64_t n = st->n, ld = imax1(n);
  if (scratch_get(c, &sc, ld * n, n)) return -1;
  int N = (int)n, LD = (int)ld, info = 0;
  for (int64_t t = 0; t < st->nb; t++) {
    to_fortran(sc.d, ld, st->p + t * n * n, n, n);
    lp.getrf(&N, &N, sc.d, &LD, sc.i, &info);
    if (info == 0) {
      int swaps = 0;
      for (int i = 0; i < N; i++) swaps += sc.i[i] != i + 1;
      double s = swaps % 2 ? -1.0 : 1.0, acc = 0;
      for (int64_t i = 0; i < n; i++) {
        double d = sc.d[i + i * ld];
        if (d < 0) { s = -s; d = -d; }
        acc += log(d);
      }
      sign[t] = s;
      logdet[t] = acc;
    } else {
      sign[t] = 0;
      logdet[t] = -INFINITY;
    }
    if (poll_matrix(c, n, n, n)) { scratch_free(c, &sc); return -1; }
  }
  scratch_free(c, &sc);
  return 0;
}

int lapack_slogdet(Ctx *c, Tensor *a, Tensor **sign, Tensor **logdet) {
  Stack st;
  Tensor *s = NULL, *l = NULL;
  if (open_square(c, a, &st)) return -1;
  DType rdt = result_dtype(a, NULL);
  if (!(s = new_out(c, st.bnd, a->shape, 0, 0, 0)) ||
      !(l = new_out(c, st.bnd, a->shape, 0, 0, 0)) ||
      slogdet_stack(c, &st, (double *)tensor_data(s), (double *)tensor_data(l)) ||
      finish(c, &s, rdt) || finish(c, &l, rdt)) {
    release(&s);
    release(&l);
    release(&st.t);
    return -1;
  }
  release(&st.t);
  *sign = s;
  *logdet = l;
  return 0;
}

Tensor *lapack_det(Ctx *c, Tensor *a) {
  Tensor *s, *l;
  if (lapack_slogdet(c, a, &s, &l)) return NULL;
  /* recompute in float64 when the parts were cast: NumPy casts det, not its parts */
  Tensor *out = NULL;
  if (s->dtype == TSR_FLOAT64) {
    double *ps = (double *)tensor_data(s);
    const double *pl = (const double *)tensor_data(l);
    for (int64_t i = 0, n = tensor_size(s); i < n; i++) ps[i] = ps[i] * exp(pl[i]);
    out = tensor_retain(s);
  } else {
    Stack st;
    Tensor *s64 = NULL, *l64 = NULL;
    if (stack_open(c, a, &st) == 0 && (s64 = new_out(c, st.bnd, a->shape, 0, 0, 0)) &&
        (l64 = new_out(c, st.bnd, a->shape, 0, 0, 0)) &&
        slogdet_stack(c, &st, (double *)tensor_data(s64), (double *)tensor_data(l64)) == 0) {
      double *ps = (double *)tensor_data(s64);
      const double *pl = (const double *)tensor_data(l64);
      for (int64_t i = 0; i < st.nb; i++) ps[i] = ps[i] * exp(pl[i]);
      out = tensor_astype(c, s64, TSR_FLOAT32);
    }
    release(&st.t);
    release(&s64);
    release(&l64);
  }
  tensor_release(s);
  tensor_release(l);
  return out;
}

/* ---- cholesky ---- */

Tensor *lapack_cholesky(Ctx *c, Tensor *a) {
  Stack st;
  Scratch sc = {0};
  Tensor *out = NULL;
  if (open_square(c, a, &st)) return NULL;
  int64_t n = st.n, ld = imax1(n);
  if (!(out = new_out(c, st.bnd, a->shape, 2, n, n)) || scratch_get(c, &sc, ld * n, 1))
    goto fail;
  int N = (int)n, LD = (int)ld, info = 0;
  double *o = (double *)tensor_data(out);
  for (int64_t t = 0; t < st.nb; t++) {
    to_fortran(sc.d, ld, st.p + t * n * n, n, n);
    lp.potrf("L", &N, sc.d, &LD, &info, 1);
    if (info > 0) {
      ERR_LINALG(c, "Matrix is not positive definite");
      goto fail;
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) o[t * n * n + i * n + j] = j <= i ? sc.d[i + j * ld] : 0;
    if (poll_matrix(c, n, n, n)) goto fail;
  }
  scratch_free(c, &sc);
  release(&st.t);
  if (finish(c, &out, result_dtype(a, NULL))) return NULL;
  return out;
fail:
  scratch_free(c, &sc);
  release(&st.t);
  release(&out);
  return NULL;
}

/* ---- eigh ---- */

int lapack_eigh(Ctx *c, Tensor *a, char uplo, Tensor **w, Tensor **v) {
  Stack st;
  Scratch sc = {0};
  Tensor *tw = NULL, *tv = NULL;
  double *work = NULL;
  size_t work_bytes = 0;
  if (open_square(c, a, &st)) return -1;
  int64_t n = st.n, ld = imax1(n);
  char jobz = v ? 'V' : 'N';
  int N = (int)n, LD = (int)ld, info = 0, lwork = -1, liwork = -1, iq = 0;
  double wq = 0;
  if (!(tw = new_out(c, st.bnd, a->shape, 1, n, 0))) goto fail;
  if (v && !(tv = new_out(c, st.bnd, a->shape, 2, n, n))) goto fail;
  if (scratch_get(c, &sc, ld * n + n, 1)) goto fail;
  lp.syevd(&jobz, &uplo, &N, sc.d, &LD, sc.d + ld * n, &wq, &lwork, &iq, &liwork, &info, 1, 1);
  lwork = imax1((int64_t)wq);
  liwork = imax1(iq);
  scratch_free(c, &sc);
  if (scratch_get(c, &sc, ld * n + n, liwork)) goto fail;
  work_bytes = (size_t)lwork * sizeof(double);
  if (!(work = ctx_malloc(c, work_bytes))) goto fail;
  for (int64_t t = 0; t < st.nb; t++) {
    to_fortran(sc.d, ld, st.p + t * n * n, n, n);
    lp.syevd(&jobz, &uplo, &N, sc.d, &LD, sc.d + ld * n, work, &lwork, sc.i, &liwork, &info,
             1, 1);
    if (info > 0) {
      ERR_LINALG(c, "Eigenvalues did not converge");
      goto fail;
    }
    memcpy((double *)tensor_data(tw) + t * n, sc.d + ld * n, sizeof(double) * (size_t)n);
    if (tv) from_fortran((double *)tensor_data(tv) + t * n * n, sc.d, ld, n, n);
    if (poll_matrix(c, n, n, ITERATIVE_COST * n)) goto fail;
  }
  ctx_free(c, work, work_bytes);
  scratch_free(c, &sc);
  release(&st.t);
  DType rdt = result_dtype(a, NULL);
  if (finish(c, &tw, rdt) || (tv && finish(c, &tv, rdt))) {
    release(&tw);
    release(&tv);
    return -1;
  }
  *w = tw;
  if (v) *v = tv;
  return 0;
fail:
  if (work) ctx_free(c, work, work_bytes);
  scratch_free(c, &sc);
  release(&st.t);
  release(&tw);
  release(&tv);
  return -1;
}

/* ---- svd ---- */

int lapack_svd(Ctx *c, Tensor *a, bool full_matrices, Tensor **u, Tensor **s, Tensor **vh) {
  Stack st = {0};
  Scratch sc = {0};
  Tensor *tu = NULL, *ts = NULL, *tvh = NULL;
  double *work = NULL;
  size_t work_bytes = 0;
  if (lp_ready(c) || lapack_check_stacked(c, a, false) || stack_open(c, a, &st)) goto fail;
  int64_t m = st.m, n = st.n, k = m < n ? m : n;
  int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  int64_t lda = imax1(m), ldu = u ? imax1(m) : 1, ldvt = u ? imax1(vrows) : 1;
  char jobz = !u ? 'N' : full_matrices ? 'A' : 'S';
  int M = (int)m, N = (int)n, LDA = (int)lda, LDU = (int)ldu, LDVT = (int)ldvt, info = 0;
  int lwork = -1;
  double wq = 0;
  if (!(ts = new_out(c, st.bnd, a->shape, 1, k, 0))) goto fail;
  if (u && (!(tu = new_out(c, st.bnd, a->shape, 2, m, ucols)) ||
            !(tvh = new_out(c, st.bnd, a->shape, 2, vrows, n))))
    goto fail;
  int64_t usz = u ? ldu * ucols : 1, vsz = u ? ldvt * n : 1;
  if (scratch_get(c, &sc, lda * n + k + usz + vsz, 8 * k)) goto fail;
  double *fa = sc.d, *fs = fa + lda * n, *fu = fs + k, *fv = fu + usz;
  if (k > 0) {
    lp.gesdd(&jobz, &M, &N, fa, &LDA, fs, fu, &LDU, fv, &LDVT, &wq, &lwork, sc.i, &info, 1);
    lwork = imax1((int64_t)wq);
    work_bytes = (size_t)lwork * sizeof(double);
    if (!(work = ctx_malloc(c, work_bytes))) goto fail;
  }
  for (int64_t t = 0; t < st.nb; t++) {
    if (k == 0) {   /* LAPACK returns at once; NumPy gives identities */
      memset(fu, 0, sizeof(double) * (size_t)usz);
      memset(fv, 0, sizeof(double) * (size_t)vsz);
      for (int64_t i = 0; u && i < ucols; i++) fu[i + i * ldu] = 1;
      for (int64_t i = 0; u && i < vrows; i++) fv[i + i * ldvt] = 1;
    } else {
      to_fortran(fa, lda, st.p + t * m * n, m, n);
      lp.gesdd(&jobz, &M, &N, fa, &LDA, fs, fu, &LDU, fv, &LDVT, work, &lwork, sc.i, &info, 1);
      if (info > 0) {
        ERR_LINALG(c, "SVD did not converge");
        goto fail;
      }
    }
    memcpy((double *)tensor_data(ts) + t * k, fs, sizeof(double) * (size_t)k);
    if (u) {
      from_fortran((double *)tensor_data(tu) + t * m * ucols, fu, ldu, m, ucols);
      from_fortran((double *)tensor_data(tvh) + t * vrows * n, fv, ldvt, vrows, n);
    }
    if (poll_matrix(c, m, n, ITERATIVE_COST * k)) goto fail;
  }
  if (work) ctx_free(c, work, work_bytes);
  work = NULL;
  scratch_free(c, &sc);
  release(&st.t);
  DType rdt = result_dtype(a, NULL);
  if (finish(c, &ts, rdt) || (u && (finish(c, &tu, rdt) || finish(c, &tvh, rdt)))) goto fail;
  *s = ts;
  if (u) { *u = tu; *vh = tvh; }
  return 0;
fail:
  if (work) ctx_free(c, work, work_bytes);
  scratch_free(c, &sc);
  release(&st.t);
  release(&tu);
  release(&ts);
  release(&tvh);
  return -1;
}

/* ---- qr ---- */

int lapack_qr(Ctx *c, Tensor *a, const char *mode, Tensor **q, Tensor **r) {
  bool complete = strcmp(mode, "complete") == 0, only_r = strcmp(mode, "r") == 0;
  bool raw = strcmp(mode, "raw") == 0;
  if (!complete && !only_r && !raw && strcmp(mode, "reduced") != 0)
    return ERR_VALUE(c, "Unrecognized mode '%s'", mode);
  Stack st = {0};
  Scratch sc = {0};
  Tensor *tq = NULL, *tr = NULL;
  double *work = NULL;
  size_t work_bytes = 0;
  if (lp_ready(c) || lapack_check_stacked(c, a, false) || stack_open(c, a, &st)) goto fail;
  int64_t m = st.m, n = st.n, k = m < n ? m : n, lda = imax1(m);
  int64_t mc = complete && m > n ? m : k;     /* columns of q, rows of r */
  int64_t qcols = mc > n ? mc : n;            /* the factored matrix, widened for q */
  int M = (int)m, N = (int)n, K = (int)k, MC = (int)mc, LDA = (int)lda, info = 0, lwork = -1;
  double wq = 0, wq2 = 0;
  if (scratch_get(c, &sc, lda * qcols + (k > 0 ? k : 1), 1)) goto fail;
  double *fa = sc.d, *tau = sc.d + lda * qcols;
  lp.geqrf(&M, &N, fa, &LDA, tau, &wq, &lwork, &info);
  if (!only_r && !raw) lp.orgqr(&M, &MC, &K, fa, &LDA, tau, &wq2, &lwork, &info);
  lwork = imax1((int64_t)(wq > wq2 ? wq : wq2));
  if (lwork < (int)qcols) lwork = (int)qcols;
  work_bytes = (size_t)lwork * sizeof(double);
  if (!(work = ctx_malloc(c, work_bytes))) goto fail;
  if (raw) {
    if (!(tq = new_out(c, st.bnd, a->shape, 2, m, n)) ||
        !(tr = new_out(c, st.bnd, a->shape, 1, k, 0)))
      goto fail;
  } else {
    if (!(tr = new_out(c, st.bnd, a->shape, 2, mc, n))) goto fail;
    if (!only_r && !(tq = new_out(c, st.bnd, a->shape, 2, m, mc))) goto fail;
  }
  for (int64_t t = 0; t < st.nb; t++) {
    to_fortran(fa, lda, st.p + t * m * n, m, n);
    lp.geqrf(&M, &N, fa, &LDA, tau, work, &lwork, &info);
    if (raw) {   /* the factored matrix (NumPy's a after geqrf) and tau */
      from_fortran((double *)tensor_data(tq) + t * m * n, fa, lda, m, n);
      memcpy((double *)tensor_data(tr) + t * k, tau, sizeof(double) * (size_t)k);
      if (poll_matrix(c, m, n, k)) goto fail;
      continue;
    }
    double *ro = (double *)tensor_data(tr) + t * mc * n;
    for (int64_t i = 0; i < mc; i++)
      for (int64_t j = 0; j < n; j++) ro[i * n + j] = j >= i && i < m ? fa[i + j * lda] : 0;
    if (tq) {
      lp.orgqr(&M, &MC, &K, fa, &LDA, tau, work, &lwork, &info);
      from_fortran((double *)tensor_data(tq) + t * m * mc, fa, lda, m, mc);
    }
    if (poll_matrix(c, m, n, k)) goto fail;
  }
  ctx_free(c, work, work_bytes);
  work = NULL;
  scratch_free(c, &sc);
  release(&st.t);
  DType rdt = result_dtype(a, NULL);
  if (finish(c, &tr, rdt) || (tq && finish(c, &tq, rdt))) goto fail;
  if (raw) {   /* NumPy returns transpose(a): every axis reversed */
    Tensor *h = tensor_transpose(c, tq, NULL);
    release(&tq);
    if (!(tq = h)) goto fail;
  }
  *q = tq;
  *r = tr;
  return 0;
fail:
  if (work) ctx_free(c, work, work_bytes);
  scratch_free(c, &sc);
  release(&st.t);
  release(&tq);
  release(&tr);
  return -1;
}

/* ---- lstsq ---- */

int lapack_lstsq(Ctx *c, Tensor *a, Tensor *b, double rcond, Tensor **x, Tensor **residuals,
                 Tensor **rank, Tensor **s) {
  if (lp_ready(c)) return -1;
  bool is1d = b->ndim == 1;
  int bnd = is1d ? 2 : b->ndim;
  if (a->ndim != 2 || bnd != 2)
    return ERR_LINALG(c, "%d-dimensional array given. Array must be two-dimensional",
                      a->ndim != 2 ? a->ndim : bnd);
  int64_t m = a->shape[0], n = a->shape[1], nrhs = is1d ? 1 : b->shape[1];
  if (b->shape[0] != m) return ERR_LINALG(c, "Incompatible dimensions");
  if (m >= INT_MAX / 8 || n >= INT_MAX / 8 || nrhs >= INT_MAX / 8)
    return ERR_VALUE(c, "array is too big for LAPACK");
  Tensor *ta = NULL, *tb = NULL, *tx = NULL, *tres = NULL, *trank = NULL, *tsv = NULL;
  Scratch sc = {0};
  double *work = NULL;
  size_t work_bytes = 0;
  int64_t k = m < n ? m : n, ldb = imax1(m > n ? m : n), lda = imax1(m);
  int64_t kr = nrhs > 0 ? nrhs : 1;   /* LAPACK cannot take zero right-hand sides */
  int M = (int)m, N = (int)n, NR = (int)kr, LDA = (int)lda, LDB = (int)ldb, info = 0;
  int rk = 0, lwork = -1;
  double wq = 0;
  int iq = 0;
  if (!(ta = tensor_contiguous(c, a, TSR_FLOAT64)) ||
      !(tb = tensor_contiguous(c, b, TSR_FLOAT64)))
    goto fail;
  if (scratch_get(c, &sc, lda * n + ldb * kr + k, 1)) goto fail;
  double *fa = sc.d, *fb = fa + lda * n, *fs = fb + ldb * kr;
  lp.gelsd(&M, &N, &NR, fa, &LDA, fb, &LDB, fs, &rcond, &rk, &wq, &lwork, &iq, &info);
  lwork = imax1((int64_t)wq);
  int liwork = imax1(iq);
  scratch_free(c, &sc);
  if (scratch_get(c, &sc, lda * n + ldb * kr + k, liwork)) goto fail;
  fa = sc.d;
  fb = fa + lda * n;
  fs = fb + ldb * kr;
  work_bytes = (size_t)lwork * sizeof(double);
  if (!(work = ctx_malloc(c, work_bytes))) goto fail;
  to_fortran(fa, lda, (const double *)tensor_data(ta), m, n);
  memset(fb, 0, sizeof(double) * (size_t)(ldb * kr));
  if (nrhs > 0) to_fortran(fb, ldb, (const double *)tensor_data(tb), m, nrhs);
  /* charged before it runs (one call, no poll inside): an SVD, then the right-hand sides */
  if (poll_matrix(c, m, n, ITERATIVE_COST * (k + kr))) goto fail;
  if (m > 0 && n > 0) {
    lp.gelsd(&M, &N, &NR, fa, &LDA, fb, &LDB, fs, &rcond, &rk, work, &lwork, sc.i, &info);
    if (info > 0) {
      ERR_LINALG(c, "SVD did not converge in Linear Least Squares");
      goto fail;
    }
  } else {
    rk = 0;   /* LAPACK returns at once: b stays (zero rows when m == 0: x is 0, as NumPy's) */
  }
  int64_t xshape[2] = {n, nrhs}, sshape[1] = {k};
  int64_t nres = rk == n && m > n ? nrhs : 0;
  if (!(tx = tensor_empty(c, TSR_FLOAT64, is1d ? 1 : 2, xshape)) ||
      !(tres = tensor_empty(c, TSR_FLOAT64, 1, &nres)) ||
      !(tsv = tensor_empty(c, TSR_FLOAT64, 1, sshape)) ||
      !(trank = tensor_scalar_i64(c, TSR_INT32, rk)))
    goto fail;
  from_fortran((double *)tensor_data(tx), fb, ldb, n, nrhs);
  memcpy(tensor_data(tsv), fs, sizeof(double) * (size_t)k);
  for (int64_t j = 0; j < nres; j++) {
    double acc = 0;
    for (int64_t i = n; i < m; i++) acc += fb[i + j * ldb] * fb[i + j * ldb];
    ((double *)tensor_data(tres))[j] = acc;
  }
  ctx_free(c, work, work_bytes);
  work = NULL;
  scratch_free(c, &sc);
  release(&ta);
  release(&tb);
  DType rdt = result_dtype(a, b);
  if (finish(c, &tx, rdt) || finish(c, &tres, rdt) || finish(c, &tsv, rdt)) goto fail;
  *x = tx;
  *residuals = tres;
  *rank = trank;
  *s = tsv;
  return 0;
fail:
  if (work) ctx_free(c, work, work_bytes);
  scratch_free(c, &sc);
  release(&ta);
  release(&tb);
  release(&tx);
  release(&tres);
  release(&trank);
  release(&tsv);
  return -1;
}
