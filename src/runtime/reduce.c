/*
** reduce.c -- reductions (sum prod mean max min all any argmax argmin), var/std and the
** cumulative sums and products.  Float sums reproduce NumPy 1.24's order of additions bit for
** bit (pairwise sums over runs of at most 8192 elements along the innermost memory axis,
** sequential accumulation otherwise; see shared/notes/numpy-sums.md).
*/
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "align-loops=64")
#endif
#include "rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The reduction iterator hands the inner loop at most this many elements at a time. */
#define CHUNK 8192
/* Elements between two interrupt polls. */
#define POLL_EVERY 65536

static const char *const reduction_names[RED_COUNT] = {
#define X_NAME(name, str) str,
  REDUCTIONS(X_NAME)
#undef X_NAME
};

/* ------------------------------------------------------------------------------------------
** Pairwise summation (NumPy's pairwise_sum): below 8 elements a plain loop from -0.0, up to 128
** eight accumulators combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), above that split in two
** halves, the first a multiple of 8 long.  One contiguous and one strided (byte stride s)
** variant per float type.
*/
#define DEFINE_PAIRWISE(NAME, T, AT)                                                       \
  KERNEL_CLONES static T NAME(const char *a, int64_t n, int64_t s) {                                     \
    (void)s;                                                                               \
    if (n < 8) {                                                                           \
      T r = -(T)0.0;                                                                       \
      for (int64_t i = 0; i < n; i++) r += AT(i);                                          \
      return r;                                                                            \
    }                                                                                      \
    if (n <= 128) {                                                                        \
      T r[8];                                                                              \
      for (int j = 0; j < 8; j++) r[j] = AT(j);                                            \
      int64_t i;                                                                           \
      for (i = 8; i < n - n % 8; i += 8)                                                   \
        for (int j = 0; j < 8; j++) r[j] += AT(i + j);                                     \
      T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));           \
      for (; i < n; i++) res += AT(i);                                                     \
      return res;                                                                          \
    }                                                                                      \
    int64_t n2 = n / 2;                                                                    \
    n2 -= n2 % 8;                                                                          \
    T lo = NAME(a, n2, s);                                                                 \
    return lo + NAME((const char *)&AT(n2), n - n2, s);                                   \
  }
#define AT_F32(i) (((const float *)a)[i])
#define AT_F32S(i) (*(const float *)(a + (i) * s))
#define AT_F64(i) (((const double *)a)[i])
#define AT_F64S(i) (*(const double *)(a + (i) * s))
DEFINE_PAIRWISE(pw_f32, float, AT_F32)
DEFINE_PAIRWISE(pw_f32s, float, AT_F32S)
DEFINE_PAIRWISE(pw_f64, double, AT_F64)
DEFINE_PAIRWISE(pw_f64s, double, AT_F64S)

/* ------------------------------------------------------------------------------------------
** Run kernels.  A kernel folds n input elements (in, byte stride is) into the accumulator: when
** os == 0 all of them into the one element at out (the reduced axis is the innermost one),
** else element i into out + i * os (the innermost axis is kept).  n <= CHUNK.
*/
typedef void (*RunKernel)(const char *in, int64_t is, char *out, int64_t os, int64_t n);

/* out[i] = F(out[i], in[i]); the contiguous case is unrolled by 4 so that the compiler's SLP
   vectorizer turns it into SIMD code (the accumulator never aliases the input). */
#define ELEMWISE(T, F)                                                                     \
  do {                                                                                     \
    if (is == (int64_t)sizeof(T) && os == (int64_t)sizeof(T)) {                            \
      T *restrict o_ = (T *)out;                                                           \
      const T *restrict x_ = (const T *)in;                                                \
      int64_t i = 0;                                                                       \
      for (; i + 4 <= n; i += 4) {                                                         \
        o_[i] = F(o_[i], x_[i]);                                                           \
        o_[i + 1] = F(o_[i + 1], x_[i + 1]);                                               \
        o_[i + 2] = F(o_[i + 2], x_[i + 2]);                                               \
        o_[i + 3] = F(o_[i + 3], x_[i + 3]);                                               \
      }                                                                                    \
      for (; i < n; i++) o_[i] = F(o_[i], x_[i]);                                          \
    } else {                                                                               \
      for (int64_t i = 0; i < n; i++) {                                                    \
        T *o_ = (T *)(out + i * os);                                                       \
        *o_ = F(*o_, *(const T *)(in + i * is));                                           \
      }                                                                                    \
    }                                                                                      \
  } while (0)

/* Sequential fold of a run into one accumulator (float products). */
#define FOLD(T, F)                                                                         \
  do {                                                                                     \
    T acc_ = *(T *)out;                                                                    \
    if (is == (int64_t)sizeof(T)) {                                                        \
      const T *x_ = (const T *)in;                                                         \
      for (int64_t i = 0; i < n; i++) acc_ = F(acc_, x_[i]);                               \
    } else {                                                                               \
      for (int64_t i = 0; i < n; i++) acc_ = F(acc_, *(const T *)(in + i * is));           \
    }                                                                                      \
    *(T *)out = acc_;                                                                      \
  } while (0)

/* The same for associative folds whose result does not depend on the order (integer sums and
   products, max, min): contiguous runs use 8 independent lanes. */
#define FOLD_LANES(T, F)                                                                   \
  do {                                                                                     \
    if (is == (int64_t)sizeof(T) && n >= 32) {                                             \
      const T *x_ = (const T *)in;                                                         \
      T l_[8];                                                                             \
      int64_t i = 8;                                                                       \
      for (int j = 0; j < 8; j++) l_[j] = x_[j];                                           \
      for (; i + 8 <= n; i += 8)                                                           \
        for (int j = 0; j < 8; j++) l_[j] = F(l_[j], x_[i + j]);                           \
      T acc_ = *(T *)out;                                                                  \
      for (int j = 0; j < 8; j++) acc_ = F(acc_, l_[j]);                                   \
      for (; i < n; i++) acc_ = F(acc_, x_[i]);                                            \
      *(T *)out = acc_;                                                                    \
    } else {                                                                               \
      FOLD(T, F);                                                                          \
    }                                                                                      \
  } while (0)

#define OP_ADD(a, b) ((a) + (b))
#define OP_MUL(a, b) ((a) * (b))

KERNEL_CLONES static void k_sum_f32(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0)
    *(float *)out += is == 4 ? pw_f32(in, n, is) : pw_f32s(in, n, is);
  else
    ELEMWISE(float, OP_ADD);
}
KERNEL_CLONES static void k_sum_f64(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0)
    *(double *)out += is == 8 ? pw_f64(in, n, is) : pw_f64s(in, n, is);
  else
    ELEMWISE(double, OP_ADD);
}
/* Integer sums and products wrap: uint64_t arithmetic on the bits of int64 or uint64. */
KERNEL_CLONES static void k_sum_u64(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) FOLD_LANES(uint64_t, OP_ADD); else ELEMWISE(uint64_t, OP_ADD);
}
KERNEL_CLONES static void k_prod_f32(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) FOLD(float, OP_MUL); else ELEMWISE(float, OP_MUL);
}
KERNEL_CLONES static void k_prod_f64(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) FOLD(double, OP_MUL); else ELEMWISE(double, OP_MUL);
}
KERNEL_CLONES static void k_prod_u64(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) FOLD_LANES(uint64_t, OP_MUL); else ELEMWISE(uint64_t, OP_MUL);
}

static void k_all(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) {
    if (!*(bool *)out) return;
    for (int64_t i = 0; i < n; i++)
      if (!*(const bool *)(in + i * is)) { *(bool *)out = false; return; }
  } else {
    for (int64_t i = 0; i < n; i++) {
      bool *o = (bool *)(out + i * os);
      *o = *o && *(const bool *)(in + i * is);
    }
  }
}
static void k_any(const char *in, int64_t is, char *out, int64_t os, int64_t n) {
  if (os == 0) {
    if (*(bool *)out) return;
    for (int64_t i = 0; i < n; i++)
      if (*(const bool *)(in + i * is)) { *(bool *)out = true; return; }
  } else {
    for (int64_t i = 0; i < n; i++) {
      bool *o = (bool *)(out + i * os);
      *o = *o || *(const bool *)(in + i * is);
    }
  }
}

/* max/min keep the later of two equal values, as NumPy does (max(0.0, -0.0) is -0.0), and
   let a NaN win. */
#define OP_MAX_I(a, b) ((a) > (b) ? (a) : (b))
#define OP_MIN_I(a, b) ((a) < (b) ? (a) : (b))
#define IS_NAN(x) ((x) != (x))
#define OP_MAX_F(a, b) ((a) > (b) || IS_NAN(a) ? (a) : (b))
#define OP_MIN_F(a, b) ((a) < (b) || IS_NAN(a) ? (a) : (b))
#define DEFINE_MAXMIN(ENUM, T, NAME, KIND)                                                 \
  KERNEL_CLONES static void k_max_##T(const char *in, int64_t is, char *out, int64_t os, int64_t n) {   \
    if (KIND == 'f') { if (os == 0) FOLD_LANES(T, OP_MAX_F); else ELEMWISE(T, OP_MAX_F); }  \
    else { if (os == 0) FOLD_LANES(T, OP_MAX_I); else ELEMWISE(T, OP_MAX_I); }              \
  }                                                                                        \
  KERNEL_CLONES static void k_min_##T(const char *in, int64_t is, char *out, int64_t os, int64_t n) {   \
    if (KIND == 'f') { if (os == 0) FOLD_LANES(T, OP_MIN_F); else ELEMWISE(T, OP_MIN_F); }  \
    else { if (os == 0) FOLD_LANES(T, OP_MIN_I); else ELEMWISE(T, OP_MIN_I); }              \
  }
DTYPE_TABLE(DEFINE_MAXMIN)
#define X_KMAX(ENUM, T, NAME, KIND) [ENUM] = k_max_##T,
#define X_KMIN(ENUM, T, NAME, KIND) [ENUM] = k_min_##T,
static const RunKernel k_max[DTYPE_COUNT] = { DTYPE_TABLE(X_KMAX) };
static const RunKernel k_min[DTYPE_COUNT] = { DTYPE_TABLE(X_KMIN) };

/* ------------------------------------------------------------------------------------------
** Row kernels: out[j] = F(...F(F(out[j], row0[j]), row1[j])..., row_{m-1}[j]) for j < n, the rows
** rs bytes apart, everything contiguous.  The rows are added in order (NumPy's order for a
** reduced axis outside the innermost one), four at a time so that out is loaded and stored
** once per four rows.
*/
typedef void (*RowKernel)(const char *in, int64_t rs, char *out, int64_t nrows, int64_t n);
#define DEFINE_ROWS(NAME, T, F)                                                            \
  KERNEL_CLONES static void NAME(const char *in, int64_t rs, char *out, int64_t nrows, int64_t n) {      \
    T *restrict o = (T *)out;                                                              \
    int64_t r = 0;                                                                         \
    for (; r + 4 <= nrows; r += 4) {                                                       \
      const T *restrict x0 = (const T *)(in + r * rs), *restrict x1 = (const T *)(in + (r + 1) * rs); \
      const T *restrict x2 = (const T *)(in + (r + 2) * rs), *restrict x3 = (const T *)(in + (r + 3) * rs); \
      for (int64_t j = 0; j < n; j++) {                                                    \
        T v = o[j];                                                                        \
        v = F(v, x0[j]); v = F(v, x1[j]); v = F(v, x2[j]); v = F(v, x3[j]);               \
        o[j] = v;                                                                          \
      }                                                                                    \
    }                                                                                      \
    for (; r < nrows; r++) {                                                               \
      const T *restrict x = (const T *)(in + r * rs);                                      \
      for (int64_t j = 0; j < n; j++) o[j] = F(o[j], x[j]);                                \
    }                                                                                      \
  }
DEFINE_ROWS(rows_sum_f32, float, OP_ADD)
DEFINE_ROWS(rows_sum_f64, double, OP_ADD)
DEFINE_ROWS(rows_sum_u64, uint64_t, OP_ADD)
#define DEFINE_ROWS_MAXMIN(ENUM, T, NAME, KIND)                                            \
  DEFINE_ROWS(rows_max_i_##T, T, OP_MAX_I) DEFINE_ROWS(rows_min_i_##T, T, OP_MIN_I)         \
  DEFINE_ROWS(rows_max_f_##T, T, OP_MAX_F) DEFINE_ROWS(rows_min_f_##T, T, OP_MIN_F)
DTYPE_TABLE(DEFINE_ROWS_MAXMIN)
#define X_RMAX(ENUM, T, NAME, KIND) [ENUM] = KIND == 'f' ? rows_max_f_##T : rows_max_i_##T,
#define X_RMIN(ENUM, T, NAME, KIND) [ENUM] = KIND == 'f' ? rows_min_f_##T : rows_min_i_##T,
static const RowKernel rows_max[DTYPE_COUNT] = { DTYPE_TABLE(X_RMAX) };
static const RowKernel rows_min[DTYPE_COUNT] = { DTYPE_TABLE(X_RMIN) };

/* ------------------------------------------------------------------------------------------
** The reduction plan: the input's dims of size > 1 ordered as NumPy's iterator orders them
** (largest |stride| outermost; zero strides do not constrain the order; ties keep the logical
** order), with neighbours coalesced when both are reduced or both kept and contiguous with each
** other in input and accumulator.  Strides are in bytes; os is 0 on reduced dims.
*/
typedef struct Plan {
  int nd;
  int64_t n[TSR_MAXDIMS], is[TSR_MAXDIMS], os[TSR_MAXDIMS];
  bool red[TSR_MAXDIMS];
} Plan;

static void release(Tensor *t) { if (t) tensor_release(t); }

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

static void plan_init(Plan *p, int ndim, const int64_t *shape, const int64_t *is,
                      const int64_t *os, const bool *red) {
  int ord[TSR_MAXDIMS], k = 0;
  for (int i = 0; i < ndim; i++)
    if (shape[i] != 1) ord[k++] = i;
  for (int i = 1; i < k; i++) {
    int ax = ord[i], pos = i;
    for (int j = i - 1; j >= 0; j--) {
      int64_t s_outer = abs64(is[ord[j]]), s_ax = abs64(is[ax]);
      if (s_outer == 0 || s_ax == 0) continue;
      if (s_outer < s_ax) pos = j;
      else break;
    }
    if (pos != i) {
      memmove(&ord[pos + 1], &ord[pos], (size_t)(i - pos) * sizeof *ord);
      ord[pos] = ax;
    }
  }
  p->nd = 0;
  for (int i = 0; i < k; i++) {
    int ax = ord[i];
    if (p->nd > 0) {
      int q = p->nd - 1;
      /* merge the new inner dim into the previous one when they tile each other */
      if (p->red[q] == red[ax] && p->is[q] == is[ax] * shape[ax] &&
          p->os[q] == os[ax] * shape[ax]) {
        p->n[q] *= shape[ax];
        p->is[q] = is[ax];
        p->os[q] = os[ax];
        continue;
      }
    }
    p->n[p->nd] = shape[ax];
    p->is[p->nd] = is[ax];
    p->os[p->nd] = os[ax];
    p->red[p->nd] = red[ax];
    p->nd++;
  }
  if (p->nd == 0) {
    p->nd = 1;
    p->n[0] = 1; p->is[0] = 0; p->os[0] = 0; p->red[0] = true;
  }
}

/* Elements from which a reduction uses the thread pool, and per thread at the least. */
#define RED_PAR_MIN 131072
#define RED_PAR_GRAIN 32768

/* A reduction without casts: kernel k (and row kernel rk, or NULL) over plan p. */
typedef struct Fast {
  Plan p;
  const char *in;
  char *out;
  RunKernel k;
  RowKernel rk;
  int split;          /* the plan dim cut between threads */
  bool partials;      /* may a full reduction fold chunks separately (not float prod)? */
} Fast;

/* Runs f over the whole of its plan (no casts, no polling).  The innermost run is cut into
   CHUNK-element runs, as NumPy's iterator hands them over; when the innermost dim is kept and
   the next one reduced, the row kernel takes both at once. */
static void fast_run(const Fast *f, const char *in, char *out, const int64_t *ns) {
  const Plan *p = &f->p;
  int nd = p->nd, inner = nd - 1;
  int64_t idx[TSR_MAXDIMS] = {0};
  bool rows = f->rk && nd >= 2 && !p->red[nd - 1] && p->red[nd - 2] && p->os[nd - 2] == 0;
  if (rows) inner = nd - 2;
  int64_t n = ns[nd - 1], is = p->is[nd - 1], os = p->os[nd - 1];
  for (;;) {
    if (rows) {
      f->rk(in, p->is[nd - 2], out, ns[nd - 2], n);
    } else {
      for (int64_t s = 0; s < n; s += CHUNK) {
        int64_t m = n - s < CHUNK ? n - s : CHUNK;
        f->k(in + s * is, is, out + s * os, os, m);
      }
    }
    int d = inner - 1;
    for (; d >= 0; d--) {
      in += p->is[d];
      out += p->os[d];
      if (++idx[d] < ns[d]) break;
      in -= p->is[d] * ns[d];
      out -= p->os[d] * ns[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
}

/* Pool task: the part [lo, hi) of the kept dim f->split. */
static void fast_task(void *arg, int64_t lo, int64_t hi) {
  const Fast *f = arg;
  int64_t ns[TSR_MAXDIMS];
  for (int i = 0; i < f->p.nd; i++) ns[i] = f->p.n[i];
  ns[f->split] = hi - lo;
  fast_run(f, f->in + lo * f->p.is[f->split], f->out + lo * f->p.os[f->split], ns);
}

/* A full reduction of one run (plan of one reduced dim): the CHUNK-element pieces are folded
   into private accumulators in parallel, then into out one after the other, in order: the
   same additions as the serial loop. */
typedef struct Partials {
  const Fast *f;
  char *acc;          /* one accumulator per chunk of the round, each starting as out's
                         initial value */
  int64_t csz;
  int64_t first;      /* the round's first chunk */
} Partials;

static void partials_task(void *arg, int64_t lo, int64_t hi) {
  const Partials *q = arg;
  const Fast *f = q->f;
  int64_t n = f->p.n[0], is = f->p.is[0];
  for (int64_t j = lo; j < hi; j++) {
    int64_t s = (q->first + j) * CHUNK, m = n - s < CHUNK ? n - s : CHUNK;
    f->k(f->in + s * is, is, q->acc + j * q->csz, 0, m);
  }
}

/* Runs a cast-free reduction, on the pool when large.  Returns 0 or -1 (interrupt, memory). */
static int fast_reduce(Ctx *c, Fast *f, int64_t csz) {
  const Plan *p = &f->p;
  int64_t total = 1;
  for (int i = 0; i < p->nd; i++) total *= p->n[i];
  if (c->nthreads > 1 && total >= RED_PAR_MIN) {
    int best = -1;
    for (int i = 0; i < p->nd; i++)
      if (!p->red[i] && (best < 0 || p->n[i] > p->n[best])) best = i;
    /* split along a kept dim only when one item's work is small enough to poll between
       rounds; else the serial loop below, which polls inside the reduced dims */
    if (best >= 0 && p->n[best] >= 2 && total / p->n[best] <= ((int64_t)1 << 22)) {
      f->split = best;
      int64_t grain = RED_PAR_GRAIN / (total / p->n[best]) + 1;
      if (pool_width(c, p->n[best], grain) > 1) {
        return pool_parallel_for_polled(c, p->n[best], grain, fast_task, f,
                                        total / p->n[best] * WORK_ELEMENT);
      }
    } else if (best < 0 && p->nd == 1 && f->partials) {
      /* rounds of ROUND_CHUNKS chunks: bounded scratch, and a poll after each round */
      enum { ROUND_CHUNKS = 512 };
      int64_t nchunks = (p->n[0] + CHUNK - 1) / CHUNK;
      int64_t rchunks = nchunks < ROUND_CHUNKS ? nchunks : ROUND_CHUNKS;
      Partials q = {f, NULL, csz, 0};
      /* rchunks accumulators, then out's initial value (each accumulator starts from it) */
      if (!(q.acc = ctx_malloc(c, (size_t)((rchunks + 1) * csz)))) return -1;
      char *init = q.acc + rchunks * csz;
      memcpy(init, f->out, (size_t)csz);
      int rc = 0;
      for (int64_t first = 0; first < nchunks && rc == 0; first += rchunks) {
        int64_t m = nchunks - first < rchunks ? nchunks - first : rchunks;
        q.first = first;
        for (int64_t i = 0; i < m; i++) memcpy(q.acc + i * csz, init, (size_t)csz);
        pool_parallel_for(c, m, RED_PAR_GRAIN / CHUNK, partials_task, &q);
        for (int64_t i = 0; i < m; i++) f->k(q.acc + i * csz, csz, f->out, 0, 1);
        rc = ctx_work(c, m * CHUNK, WORK_ELEMENT);
      }
      ctx_free(c, q.acc, (size_t)((rchunks + 1) * csz));
      return rc;
    }
  }
  /* serial: slices of the outermost dim, polling in between (a one-dim plan is cut at
     multiples of CHUNK so that the chunks stay NumPy's) */
  int64_t ns[TSR_MAXDIMS];
  for (int i = 0; i < p->nd; i++) ns[i] = p->n[i];
  int64_t per = total / (p->n[0] ? p->n[0] : 1), step = POLL_EVERY * 16 / (per ? per : 1) + 1;
  if (p->nd == 1) step = (step + CHUNK - 1) / CHUNK * CHUNK;
  for (int64_t lo = 0; lo < p->n[0]; lo += step) {
    ns[0] = p->n[0] - lo < step ? p->n[0] - lo : step;
    fast_run(f, f->in + lo * p->is[0], f->out + lo * p->os[0], ns);
    if (ctx_work(c, ns[0] * per, WORK_ELEMENT)) return -1;
  }
  return 0;
}

/* A float sum over every dim of a plan that does not coalesce into one run: NumPy's buffered
   iterator copies the elements, in iteration order, into CHUNK-element buffers that run across
   the rows, and sums each buffer pairwise.  tmp holds CHUNK elements of cdt.  Polls c. */
static int gather_sum(Ctx *c, const Plan *p, const char *in, DType in_dt, char *out, DType cdt,
                      RunKernel k, char *tmp) {
  int nd = p->nd;
  int64_t idx[TSR_MAXDIMS] = {0};
  int64_t n = p->n[nd - 1], is = p->is[nd - 1], csz = (int64_t)dtype_size(cdt), fill = 0;
  uint64_t work = 0;
  for (;;) {
    for (int64_t s = 0; s < n;) {
      int64_t m = n - s < CHUNK - fill ? n - s : CHUNK - fill;
      dtype_cast_strided(cdt, tmp + fill * csz, csz, in_dt, in + s * is, is, m);
      fill += m;
      s += m;
      if (fill == CHUNK) { k(tmp, csz, out, 0, CHUNK); fill = 0; }
    }
    work += (uint64_t)n;
    if (work >= POLL_EVERY) {
      if (ctx_work(c, work, WORK_ELEMENT)) return -1;
      work %= 4096;
    }
    int d = nd - 2;
    for (; d >= 0; d--) {
      in += p->is[d];
      if (++idx[d] < p->n[d]) break;
      in -= p->is[d] * p->n[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  if (fill) k(tmp, csz, out, 0, fill);
  return ctx_work(c, work, WORK_ELEMENT);
}

/* Runs kernel k over the plan: every innermost run is cut into chunks of at most CHUNK
   elements, cast to the accumulator dtype cdt through tmp (CHUNK elements) when the input
   dtype differs.  Polls c.  Returns 0 or -1. */
static int plan_run(Ctx *c, const Plan *p, const char *in, DType in_dt, char *out, DType cdt,
                    RunKernel k, char *tmp) {
  int nd = p->nd;
  int64_t idx[TSR_MAXDIMS] = {0};
  int64_t n = p->n[nd - 1], is = p->is[nd - 1], os = p->os[nd - 1];
  bool cast = in_dt != cdt;
  int64_t csz = (int64_t)dtype_size(cdt);
  uint64_t work = 0;
  for (;;) {
    for (int64_t s = 0; s < n; s += CHUNK) {
      int64_t m = n - s < CHUNK ? n - s : CHUNK;
      const char *src = in + s * is;
      if (cast) {
        dtype_cast_strided(cdt, tmp, csz, in_dt, src, is, m);
        k(tmp, csz, out + s * os, os, m);
      } else {
        k(src, is, out + s * os, os, m);
      }
      work += (uint64_t)m;   /* poll per chunk: one long run must stop on an interrupt too */
      if (work >= POLL_EVERY) {
        if (ctx_work(c, work, WORK_ELEMENT)) return -1;
        work %= 4096;
      }
    }
    int d = nd - 2;
    for (; d >= 0; d--) {
      in += p->is[d];
      out += p->os[d];
      if (++idx[d] < p->n[d]) break;
      in -= p->is[d] * p->n[d];
      out -= p->os[d] * p->n[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return ctx_work(c, work, WORK_ELEMENT);
}

/* ------------------------------------------------------------------------------------------
** Axes and dtypes.
*/

/* Fills red[] from (axes, naxes) (naxes -1 = all).  AxisError or ValueError "duplicate value
   in 'axis'".  Returns 0 or -1. */
static int axes_mask(Ctx *c, int ndim, const int *axes, int naxes, bool *red) {
  for (int i = 0; i < ndim; i++) red[i] = naxes < 0;
  for (int i = 0; i < naxes; i++) {
    int ax;
    if (axis_normalize(c, axes[i], ndim, &ax)) return -1;
    if (red[ax]) return ERR_VALUE(c, "duplicate value in 'axis'");
    red[ax] = true;
  }
  return 0;
}

/* NumPy's default dtype of sum/prod: bool and small ints widen to int64/uint64. */
static DType sum_dtype(DType d) {
  if (d == TSR_BOOL || (dtype_is_int(d) && !dtype_is_unsigned(d))) return TSR_INT64;
  if (dtype_is_unsigned(d)) return TSR_UINT64;
  return d;
}

/* The dtype the accumulator holds (and the input is cast to) for sums and products in dtype
   sdt: floats as themselves, integers and bool as 64-bit integers of the same signedness. */
static DType acc_dtype(DType sdt) {
  if (dtype_is_float(sdt)) return sdt;
  return dtype_is_unsigned(sdt) ? TSR_UINT64 : TSR_INT64;
}

/* Must the elements (of dtype dt) be cast to the sum's dtype sdt before they are added in
   acc_dtype(sdt)?  For bool (logical sums) and for floats summed in a narrower integer, whose
   out-of-range casts differ from a cast through the 64-bit accumulator (NumPy casts each
   element to sdt). */
static bool cast_first(DType dt, DType sdt) {
  return dt != sdt && (sdt == TSR_BOOL || (dtype_is_float(dt) && acc_dtype(sdt) != sdt));
}

/* Fills the C-contiguous accumulator a with the identity (or the starting value) of op. */
static void acc_fill(Tensor *a, Reduction op) {
  int64_t n = tensor_size(a);
  char *p = tensor_data(a);
  size_t sz = dtype_size(a->dtype);
  DType dt = a->dtype;
  for (int64_t i = 0; i < n; i++, p += sz) {
    switch (op) {
    case RED_PROD: dtype_set_i64(dt, p, 1); break;
    case RED_ALL: *(bool *)p = true; break;
    case RED_MAX:
    case RED_MIN: {
      bool mx = op == RED_MAX;
      if (dtype_is_float(dt)) dtype_set_f64(dt, p, mx ? -INFINITY : INFINITY);
      else if (dt == TSR_BOOL) *(bool *)p = !mx;
      else if (dtype_is_unsigned(dt)) dtype_set_u64(dt, p, mx ? 0 : UINT64_MAX);
      else {
        int bits = (int)sz * 8;
        int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        dtype_set_i64(dt, p, mx ? lo : -(lo + 1));
      }
      break;
    }
    default: memset(p, 0, sz); break;
    }
  }
}

/* Shape of the result: the kept dims (or all dims, reduced ones as 1, with keepdims). */
static int out_shape(const Tensor *t, const bool *red, bool keepdims, int64_t *shape) {
  int nd = 0;
  for (int i = 0; i < t->ndim; i++) {
    if (!red[i]) shape[nd++] = t->shape[i];
    else if (keepdims) shape[nd++] = 1;
  }
  return nd;
}

/* Runs op (SUM, PROD, MAX, MIN, ALL, ANY) of t over red[] into a new accumulator of dtype cdt
   and the result shape; t is cast to cdt run by run.  Returns a new reference or NULL. */
static Tensor *reduce_into(Ctx *c, Reduction op, Tensor *t, const bool *red, bool keepdims,
                           DType cdt) {
  int64_t oshape[TSR_MAXDIMS], is[TSR_MAXDIMS], os[TSR_MAXDIMS];
  int ond = out_shape(t, red, keepdims, oshape);
  char *tmp = NULL;
  Tensor *acc = tensor_empty(c, cdt, ond, oshape);
  if (!acc) return NULL;
  acc_fill(acc, op);
  if (tensor_size(t) == 0 || tensor_size(acc) == 0) return acc;

  int64_t ostr[TSR_MAXDIMS];
  strides_c_order(ond, oshape, ostr);
  size_t isz = dtype_size(t->dtype), csz = dtype_size(cdt);
  for (int i = 0, o = 0; i < t->ndim; i++) {
    is[i] = t->strides[i] * (int64_t)isz;
    if (red[i]) { os[i] = 0; if (keepdims) o++; }
    else os[i] = ostr[o++] * (int64_t)csz;
  }
  Plan p;
  plan_init(&p, t->ndim, t->shape, is, os, red);

  RunKernel k = NULL;
  switch (op) {
  case RED_SUM: k = cdt == TSR_FLOAT32 ? k_sum_f32 : cdt == TSR_FLOAT64 ? k_sum_f64 : k_sum_u64;
    break;
  case RED_PROD:
    k = cdt == TSR_FLOAT32 ? k_prod_f32 : cdt == TSR_FLOAT64 ? k_prod_f64 : k_prod_u64;
    break;
  case RED_MAX: k = k_max[cdt]; break;
  case RED_MIN: k = k_min[cdt]; break;
  case RED_ALL: k = k_all; break;
  case RED_ANY: k = k_any; break;
  default: break;
  }
  bool all_reduced = true;
  for (int i = 0; i < p.nd; i++) all_reduced = all_reduced && p.red[i];
  if (op == RED_SUM && dtype_is_float(cdt) && all_reduced && p.nd > 1) {
    int rc;
    if (!(tmp = ctx_malloc(c, CHUNK * csz))) goto fail;
    rc = gather_sum(c, &p, tensor_data(t), t->dtype, tensor_data(acc), cdt, k, tmp);
    ctx_free(c, tmp, CHUNK * csz);
    if (rc) { tensor_release(acc); return NULL; }
    return acc;
  }
  if (t->dtype == cdt && op != RED_ALL && op != RED_ANY) {
    bool flt = dtype_is_float(cdt);
    Fast f = {p, tensor_data(t), tensor_data(acc), k, NULL, 0, !(op == RED_PROD && flt)};
    switch (op) {
    case RED_SUM: f.rk = cdt == TSR_FLOAT32 ? rows_sum_f32 : flt ? rows_sum_f64 : rows_sum_u64; break;
    case RED_MAX: f.rk = rows_max[cdt]; break;
    case RED_MIN: f.rk = rows_min[cdt]; break;
    default: break;
    }
    /* the row kernels walk contiguous rows: the kept inner dim must be dense on both sides
       (a broadcast input has stride 0 there) */
    if (p.nd < 2 || p.is[p.nd - 1] != (int64_t)csz || p.os[p.nd - 1] != (int64_t)csz)
      f.rk = NULL;
    if (fast_reduce(c, &f, (int64_t)csz)) goto fail;
    return acc;
  }
  if (t->dtype != cdt && !(tmp = ctx_malloc(c, CHUNK * csz))) goto fail;
  if (plan_run(c, &p, tensor_data(t), t->dtype, tensor_data(acc), cdt, k, tmp)) goto fail;
  if (tmp) ctx_free(c, tmp, CHUNK * csz);
  return acc;
fail:
  if (tmp) ctx_free(c, tmp, CHUNK * csz);
  tensor_release(acc);
  return NULL;
}

/* Number of elements each result element reduces. */
static int64_t reduced_count(const Tensor *t, const bool *red) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    if (red[i]) n *= t->shape[i];
  return n;
}

/* Divides the float accumulator s in place by n the way NumPy's _mean/_var do: a 0-d result
   (a NumPy scalar) divides in float64 and rounds back; an array divides in its own dtype. */
static void divide_by_count(Tensor *s, int64_t n) {
  int64_t size = tensor_size(s);
  if (s->dtype == TSR_FLOAT32) {
    float *p = (float *)tensor_data(s);
    if (s->ndim == 0) p[0] = (float)((double)p[0] / (double)n);
    else for (int64_t i = 0; i < size; i++) p[i] = p[i] / (float)n;
  } else {
    double *p = (double *)tensor_data(s);
    for (int64_t i = 0; i < size; i++) p[i] = p[i] / (double)n;
  }
}

/* ------------------------------------------------------------------------------------------
** argmax / argmin: index of the first maximum (minimum) along a run; the first NaN wins.
*/
typedef int64_t (*ArgKernel)(const char *p, int64_t n, int64_t s);
#define DEFINE_ARG(ENUM, T, NAME, KIND)                                                    \
  static int64_t k_argmax_##T(const char *p, int64_t n, int64_t s) {                      \
    T best = *(const T *)p;                                                                \
    int64_t bi = 0;                                                                        \
    if (KIND == 'f' && IS_NAN(best)) return 0;                                             \
    for (int64_t i = 1; i < n; i++) {                                                      \
      T v = *(const T *)(p + i * s);                                                       \
      if (KIND == 'f' && IS_NAN(v)) return i;                                              \
      if (v > best) { best = v; bi = i; }                                                  \
    }                                                                                      \
    return bi;                                                                             \
  }                                                                                        \
  static int64_t k_argmin_##T(const char *p, int64_t n, int64_t s) {                      \
    T best = *(const T *)p;                                                                \
    int64_t bi = 0;                                                                        \
    if (KIND == 'f' && IS_NAN(best)) return 0;                                             \
    for (int64_t i = 1; i < n; i++) {                                                      \
      T v = *(const T *)(p + i * s);                                                       \
      if (KIND == 'f' && IS_NAN(v)) return i;                                              \
      if (v < best) { best = v; bi = i; }                                                  \
    }                                                                                      \
    return bi;                                                                             \
  }
DTYPE_TABLE(DEFINE_ARG)
#define X_KARGMAX(ENUM, T, NAME, KIND) [ENUM] = k_argmax_##T,
#define X_KARGMIN(ENUM, T, NAME, KIND) [ENUM] = k_argmin_##T,
static const ArgKernel k_argmax[DTYPE_COUNT] = { DTYPE_TABLE(X_KARGMAX) };
static const ArgKernel k_argmin[DTYPE_COUNT] = { DTYPE_TABLE(X_KARGMIN) };

/* numpy.argmax / argmin with axis None (naxes -1: the flattened C order) or one axis; the
   result is int64.  TypeError for a tuple of axes, ValueError "attempt to get argmax of an
   empty sequence" for an empty selection. */
static Tensor *arg_reduce(Ctx *c, Reduction op, Tensor *t, const int *axes, int naxes,
                          bool keepdims) {
  ArgKernel k = op == RED_ARGMAX ? k_argmax[t->dtype] : k_argmin[t->dtype];
  int64_t oshape[TSR_MAXDIMS];
  Tensor *src = NULL, *out = NULL;
  if (naxes > 1) {
    ERR_TYPE(c, "'tuple' object cannot be interpreted as an integer");
    return NULL;
  }
  if (naxes < 0) {
    int64_t n = tensor_size(t);
    if (n == 0) goto empty;
    for (int i = 0; i < t->ndim; i++) oshape[i] = 1;
    if (!(src = tensor_contiguous(c, t, t->dtype))) return NULL;
    if (!(out = tensor_empty(c, TSR_INT64, keepdims ? t->ndim : 0, oshape))) goto fail;
    /* in pieces of POLL_EVERY, polling between them; a piece's winner is played against the
       best so far with the kernel itself on the pair (stride = their distance), so ties keep
       the first index and the first NaN wins, as in one pass */
    const char *d = tensor_data(src);
    int64_t esz = (int64_t)dtype_size(t->dtype), best = 0;
    for (int64_t lo = 0; lo < n; lo += POLL_EVERY) {
      int64_t m = n - lo < POLL_EVERY ? n - lo : POLL_EVERY;
      int64_t w = lo + k(d + lo * esz, m, esz);
      if (lo == 0) best = w;
      else if (w != best && k(d + best * esz, 2, (w - best) * esz) == 1) best = w;
      if (ctx_work(c, m, WORK_ELEMENT)) { release(src); tensor_release(out); return NULL; }
    }
    *(int64_t *)tensor_data(out) = best;
    tensor_release(src);
    return out;
  }
  int ax;
  if (axis_normalize(c, axes[0], t->ndim, &ax)) return NULL;
  int ond = 0, dims[TSR_MAXDIMS], nd = 0;
  int64_t osize = 1;
  for (int i = 0; i < t->ndim; i++) {
    if (i != ax) { oshape[ond++] = t->shape[i]; dims[nd++] = i; osize *= t->shape[i]; }
    else if (keepdims) oshape[ond++] = 1;
  }
  int64_t n = t->shape[ax];
  if (n == 0) goto empty;   /* even when the result is empty too, as NumPy */
  if (!(out = tensor_empty(c, TSR_INT64, ond, oshape))) return NULL;
  {
    int64_t isz = (int64_t)dtype_size(t->dtype), s = t->strides[ax] * isz;
    int64_t *o = (int64_t *)tensor_data(out), idx[TSR_MAXDIMS] = {0};
    const char *p = tensor_data(t);
    uint64_t work = 0;
    for (int64_t j = 0; j < osize; j++) {
      o[j] = k(p, n, s);
      work += (uint64_t)n;
      if (work >= POLL_EVERY) {
        if (ctx_work(c, work, WORK_ELEMENT)) goto fail;
        work %= 4096;
      }
      for (int d = nd - 1; d >= 0; d--) {
        p += t->strides[dims[d]] * isz;
        if (++idx[d] < t->shape[dims[d]]) break;
        p -= t->strides[dims[d]] * isz * t->shape[dims[d]];
        idx[d] = 0;
      }
    }
  }
  return out;
empty:
  ERR_VALUE(c, "attempt to get %s of an empty sequence", reduction_names[op]);
  return NULL;
fail:
  release(src);
  release(out);
  return NULL;
}

/* ------------------------------------------------------------------------------------------
** The public entry points.
*/

/* numpy.sum / prod / mean / amax / amin / all / any / argmax / argmin of t over axes (naxes
   -1 = all), keepdims, dtype (-1 = NumPy's default; see rt.h).  Returns a new tensor (0-d for
   a full reduction without keepdims) or NULL with AxisError, ValueError "duplicate value in
   'axis'", "zero-size array to reduction operation maximum which has no identity", ... */
/* Floating-point errors of a float sum or product (fperr.c): is the accumulation checked,
   and what it raised after fperr_clear, reported as NumPy reports them for add.reduce
   ("overflow encountered in reduce") or add.accumulate.  fp_done returns r, or NULL (r
   released) when the report raised FloatingPointError. */
static bool fp_checked(Ctx *c, DType acc) {
  if (!dtype_is_float(acc) || !fperr_active(c)) return false;
  fperr_clear();
  return true;
}

static Tensor *fp_done(Ctx *c, Tensor *r, const char *name) {
  int f = fperr_test();
  if (f && fperr_report(c, f, name) < 0) { tensor_release(r); return NULL; }
  return r;
}

Tensor *reduce(Ctx *c, Reduction op, Tensor *t, const int *axes, int naxes, bool keepdims,
               int dtype) {
  bool red[TSR_MAXDIMS];
  Tensor *src = NULL, *acc = NULL, *res = NULL;
  if (op == RED_ARGMAX || op == RED_ARGMIN) return arg_reduce(c, op, t, axes, naxes, keepdims);
  if (axes_mask(c, t->ndim, axes, naxes, red)) return NULL;
  switch (op) {
  case RED_SUM:
  case RED_PROD: {
    DType sdt = dtype >= 0 ? (DType)dtype : sum_dtype(t->dtype);
    src = t;
    if (cast_first(t->dtype, sdt) && !(src = tensor_astype(c, t, sdt))) return NULL;
    bool check = fp_checked(c, acc_dtype(sdt));
    acc = reduce_into(c, op, src, red, keepdims, acc_dtype(sdt));
    if (src != t) tensor_release(src);
    if (acc && check) acc = fp_done(c, acc, "reduce");
    if (!acc) return NULL;
    if (acc->dtype == sdt) return acc;
    res = tensor_astype(c, acc, sdt);
    tensor_release(acc);
    return res;
  }
  case RED_MEAN: {
    DType sdt = dtype >= 0 ? (DType)dtype : dtype_is_float(t->dtype) ? t->dtype : TSR_FLOAT64;
    int64_t n = reduced_count(t, red);
    bool check = fp_checked(c, acc_dtype(sdt));
    src = t;
    if (cast_first(t->dtype, sdt) && !(src = tensor_astype(c, t, sdt))) return NULL;
    acc = reduce_into(c, RED_SUM, src, red, keepdims, acc_dtype(sdt));
    if (src != t) tensor_release(src);
    if (acc && check) acc = fp_done(c, acc, "reduce");
    if (!acc) return NULL;
    if (!dtype_is_float(acc->dtype)) {
      /* integer mean: the sum wraps in sdt (the elements were cast to it), then NumPy's
         true_divide divides in float64 and the result is cast back */
      if (acc->dtype != sdt) {
        res = tensor_astype(c, acc, sdt);
        tensor_release(acc);
        if (!(acc = res)) return NULL;
      }
      res = tensor_astype(c, acc, TSR_FLOAT64);
      tensor_release(acc);
      if (!(acc = res)) return NULL;
    }
    divide_by_count(acc, n);
    if (acc->dtype == sdt) return acc;
    res = tensor_astype(c, acc, sdt);
    tensor_release(acc);
    return res;
  }
  case RED_MAX:
  case RED_MIN:
    if (tensor_size(t) == 0) {
      /* NumPy's rule: a reduced axis of length 0, even when the result is empty too
         (zeros((0, 0)).max(axis=0) fails, zeros((2, 0, 3)).max(axis=(0, 2)) is empty) */
      bool empty_axis = false;
      for (int i = 0; i < t->ndim; i++) empty_axis |= red[i] && t->shape[i] == 0;
      if (empty_axis) {
        ERR_VALUE(c, "zero-size array to reduction operation %s which has no identity",
                  op == RED_MAX ? "maximum" : "minimum");
        return NULL;
      }
    }
    return reduce_into(c, op, t, red, keepdims, t->dtype);
  case RED_ALL:
  case RED_ANY:
    return reduce_into(c, op, t, red, keepdims, TSR_BOOL);
  default:
    ERR_VALUE(c, "unknown reduction");
    return NULL;
  }
}

/* x = (t - mean)**2 elementwise, in dtype x->dtype (float32 or float64); mean has t's ndim with
   size 1 on the reduced dims (it broadcasts).  tmp holds one row of t cast to x's dtype. */
#define DEFINE_SQDEV(NAME, T)                                                              \
  static void NAME(const T *row, int64_t n, const char *m, int64_t ms, char *x, int64_t xs) { \
    for (int64_t i = 0; i < n; i++) {                                                      \
      T d = row[i] - *(const T *)(m + i * ms);                                             \
      *(T *)(x + i * xs) = d * d;                                                          \
    }                                                                                      \
  }
DEFINE_SQDEV(sqdev_f32, float)
DEFINE_SQDEV(sqdev_f64, double)

static int squared_deviations(Ctx *c, Tensor *t, Tensor *mean, Tensor *x, char *tmp) {
  int nd = t->ndim;
  if (tensor_size(t) == 0) return 0;
  int64_t n = nd ? t->shape[nd - 1] : 1;
  int64_t tsz = (int64_t)dtype_size(t->dtype), xsz = (int64_t)dtype_size(x->dtype);
  int64_t ts = nd ? t->strides[nd - 1] * tsz : 0, xs = nd ? x->strides[nd - 1] * xsz : 0;
  int64_t ms = nd && mean->shape[nd - 1] != 1 ? mean->strides[nd - 1] * xsz : 0;
  int64_t idx[TSR_MAXDIMS] = {0};
  const char *tp = tensor_data(t), *mp = tensor_data(mean);
  char *xp = tensor_data(x);
  uint64_t work = 0;
  for (;;) {
    for (int64_t s = 0; s < n; s += CHUNK) {
      int64_t m = n - s < CHUNK ? n - s : CHUNK;
      dtype_cast_strided(x->dtype, tmp, xsz, t->dtype, tp + s * ts, ts, m);
      if (x->dtype == TSR_FLOAT32)
        sqdev_f32((const float *)tmp, m, mp + s * ms, ms, xp + s * xs, xs);
      else
        sqdev_f64((const double *)tmp, m, mp + s * ms, ms, xp + s * xs, xs);
      work += (uint64_t)m;   /* poll per chunk, as plan_run */
      if (work >= POLL_EVERY) {
        if (ctx_work(c, work, WORK_ELEMENT)) return -1;
        work %= 4096;
      }
    }
    int d = nd - 2;
    for (; d >= 0; d--) {
      int64_t mstr = mean->shape[d] != 1 ? mean->strides[d] * xsz : 0;
      tp += t->strides[d] * tsz; xp += x->strides[d] * xsz; mp += mstr;
      if (++idx[d] < t->shape[d]) break;
      tp -= t->strides[d] * tsz * t->shape[d];
      xp -= x->strides[d] * xsz * t->shape[d];
      mp -= mstr * t->shape[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return ctx_work(c, work, WORK_ELEMENT);
}

/* s / n in place as NumPy's true_divide(s, n, out=s, casting='unsafe'): in s's dtype for
   floats, else in float64 and cast back.  Returns s, or NULL (s released). */
static Tensor *divide_unsafe(Ctx *c, Tensor *s, int64_t n) {
  if (dtype_is_float(s->dtype)) {
    divide_by_count(s, n);
    return s;
  }
  Tensor *f = tensor_astype(c, s, TSR_FLOAT64), *r = NULL;
  if (f) {
    divide_by_count(f, n);
    r = tensor_astype(c, f, s->dtype);
    tensor_release(f);
  }
  tensor_release(s);
  return r;
}

/* numpy.var / std of t in a dtype dt that is not its default, step for step as NumPy's _var:
   mean = sum(t, dtype=dt, keepdims) / n (cast back to dt); x = t - mean in the promoted
   dtype of the two; x *= x; sum(x, dtype=dt) / max(n - ddof, 0) cast to dt.  For std, the
   square root in floating point, cast back to an integer dt only for a scalar (0-d) result:
   NumPy's sqrt(ret, out=ret) refuses an integer array. */
static Tensor *var_in_dtype(Ctx *c, Tensor *t, const int *axes, int naxes, bool keepdims,
                            int64_t n, int ddof, bool take_sqrt, DType dt) {
  Tensor *mean = NULL, *x = NULL, *ret = NULL;
  if (!(mean = reduce(c, RED_SUM, t, axes, naxes, true, (int)dt)) ||
      !(mean = divide_unsafe(c, mean, n)) ||
      !(x = ufunc_binary(c, UF_SUBTRACT, t, mean, NULL)) ||
      !ufunc_binary(c, UF_MULTIPLY, x, x, x))
    goto fail;
  tensor_release(x);   /* ufunc_binary's new reference to out */
  if (!(ret = reduce(c, RED_SUM, x, axes, naxes, keepdims, (int)dt)) ||
      !(ret = divide_unsafe(c, ret, n - ddof > 0 ? n - ddof : 0)))
    goto fail;
  if (take_sqrt && dtype_is_float(dt)) {
    int64_t m = tensor_size(ret);
    char *p = tensor_data(ret);
    for (int64_t i = 0; i < m; i++) {
      if (dt == TSR_FLOAT32) ((float *)p)[i] = sqrtf(((float *)p)[i]);
      else ((double *)p)[i] = sqrt(((double *)p)[i]);
    }
  } else if (take_sqrt) {
    if (ret->ndim > 0) {   /* the loop NumPy's sqrt picks for the integer dtype */
      size_t sz = dtype_size(dt);
      ERR_OUTPUT_CAST(c, "sqrt", sz == 1 ? "float16" : sz == 2 ? "float32" : "float64",
                      dtype_name(dt));
      goto fail;
    }
    Tensor *f = tensor_astype(c, ret, TSR_FLOAT64);
    if (!f) goto fail;
    double *p = (double *)tensor_data(f);
    p[0] = sqrt(p[0]);
    tensor_release(ret);
    ret = tensor_astype(c, f, dt);
    tensor_release(f);
    if (!ret) goto fail;
  }
  tensor_release(mean);
  tensor_release(x);
  return ret;
fail:
  release(mean);
  release(x);
  release(ret);
  return NULL;
}

/* numpy.var / numpy.std (take_sqrt) of t over axes with ddof, computed as NumPy's _var does:
   the mean (a keepdims sum divided in the array's dtype), the squared deviations in a
   temporary laid out like t, their sum, divided by max(n - ddof, 0).  float64 for integer and
   bool input, else t's dtype; another dtype (var_in_dtype) as NumPy's dtype=.  Returns a new
   tensor or NULL. */
Tensor *reduce_var(Ctx *c, Tensor *t, const int *axes, int naxes, bool keepdims, int ddof,
                   bool take_sqrt, int dtype) {
  bool red[TSR_MAXDIMS];
  Tensor *mean = NULL, *xs = NULL, *x = NULL, *ret = NULL;
  char *tmp = NULL;
  if (axes_mask(c, t->ndim, axes, naxes, red)) return NULL;
  DType sdt = dtype_is_float(t->dtype) ? t->dtype : TSR_FLOAT64;
  if (dtype >= 0 && (DType)dtype != sdt)
    return var_in_dtype(c, t, axes, naxes, keepdims, reduced_count(t, red), ddof, take_sqrt,
                        (DType)dtype);
  size_t sz = dtype_size(sdt);
  int64_t n = reduced_count(t, red);

  if (!(mean = reduce_into(c, RED_SUM, t, red, true, sdt))) goto fail;
  {
    int64_t m = tensor_size(mean);
    char *p = tensor_data(mean);
    for (int64_t i = 0; i < m; i++) {
      if (sdt == TSR_FLOAT32) ((float *)p)[i] /= (float)n;
      else ((double *)p)[i] /= (double)n;
    }
  }
  {
    int ord[TSR_MAXDIMS];
    int64_t pshape[TSR_MAXDIMS], pstr[TSR_MAXDIMS], xstr[TSR_MAXDIMS];
    tensor_memory_order(t, ord);
    for (int i = 0; i < t->ndim; i++) pshape[i] = t->shape[ord[i]];
    if (!(xs = tensor_empty(c, sdt, t->ndim, pshape))) goto fail;
    strides_c_order(t->ndim, pshape, pstr);
    for (int i = 0; i < t->ndim; i++) xstr[ord[i]] = pstr[i];
    if (!(x = tensor_view(xs, t->ndim, t->shape, xstr, 0))) goto fail;
  }
  if (!(tmp = ctx_malloc(c, CHUNK * sz))) goto fail;
  if (squared_deviations(c, t, mean, x, tmp)) goto fail;
  if (!(ret = reduce_into(c, RED_SUM, x, red, keepdims, sdt))) goto fail;
  {
    int64_t dof = n - ddof > 0 ? n - ddof : 0;
    int64_t m = tensor_size(ret);
    divide_by_count(ret, dof);
    if (take_sqrt) {
      char *p = tensor_data(ret);
      for (int64_t i = 0; i < m; i++) {
        if (sdt == TSR_FLOAT32) ((float *)p)[i] = sqrtf(((float *)p)[i]);
        else ((double *)p)[i] = sqrt(((double *)p)[i]);
      }
    }
  }
  ctx_free(c, tmp, CHUNK * sz);
  tensor_release(x);
  tensor_release(xs);
  tensor_release(mean);
  return ret;
fail:
  if (tmp) ctx_free(c, tmp, CHUNK * sz);
  release(x);
  release(xs);
  release(mean);
  release(ret);
  return NULL;
}

/* In-place running sum / product along the middle axis of a C-contiguous (outer, n, inner)
   block of dtype T: row i becomes op(row i-1, row i), as NumPy's add.accumulate does.  Integers
   wrap (the arithmetic is done on uint64_t); bool sums are logical or, products logical and. */
#define WRAP_ADD(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define WRAP_MUL(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define PLAIN_ADD(T, a, b) ((a) + (b))
#define PLAIN_MUL(T, a, b) ((a) * (b))
#define DEFINE_ACCUMULATE(T, ADD, MUL)                                                     \
  static void accumulate_##T(char *data, int64_t outer, int64_t n, int64_t inner, bool mul) { \
    T *p = (T *)data;                                                                      \
    for (int64_t o = 0; o < outer; o++, p += n * inner)                                    \
      for (int64_t i = 1; i < n; i++) {                                                    \
        T *cur = p + i * inner, *prev = cur - inner;                                       \
        if (mul) for (int64_t j = 0; j < inner; j++) cur[j] = MUL(T, prev[j], cur[j]);     \
        else for (int64_t j = 0; j < inner; j++) cur[j] = ADD(T, prev[j], cur[j]);         \
      }                                                                                    \
  }
#define BOOL_OR(T, a, b) ((a) || (b))
#define BOOL_AND(T, a, b) ((a) && (b))
DEFINE_ACCUMULATE(bool, BOOL_OR, BOOL_AND)
DEFINE_ACCUMULATE(int8_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(int16_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(int32_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(int64_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(uint8_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(uint16_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(uint32_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(uint64_t, WRAP_ADD, WRAP_MUL)
DEFINE_ACCUMULATE(float, PLAIN_ADD, PLAIN_MUL)
DEFINE_ACCUMULATE(double, PLAIN_ADD, PLAIN_MUL)
typedef void (*AccumulateFn)(char *, int64_t, int64_t, int64_t, bool);
#define X_ACC(ENUM, T, NAME, KIND) [ENUM] = accumulate_##T,
static const AccumulateFn accumulate_fns[DTYPE_COUNT] = { DTYPE_TABLE(X_ACC) };

/* Runs fn over the (outer, n, inner) block of data in pieces of about POLL_EVERY elements,
   polling c between them.  A piece along n restarts at the row before it, already
   accumulated, so every element gets the same single addition as in one pass.  0 or -1. */
static int accumulate_polled(Ctx *c, char *data, int64_t esz, int64_t outer, int64_t n,
                             int64_t inner, bool mul,
                             void (*fn)(char *, int64_t, int64_t, int64_t, bool)) {
  int64_t block = n * inner;
  if (block < POLL_EVERY && outer > 1) {   /* whole blocks, several per piece */
    int64_t g = POLL_EVERY / block + 1;
    for (int64_t o = 0; o < outer; o += g) {
      int64_t m = outer - o < g ? outer - o : g;
      fn(data + o * block * esz, m, n, inner, mul);
      if (ctx_work(c, m * block, WORK_ELEMENT)) return -1;
    }
    return 0;
  }
  int64_t rows = POLL_EVERY / inner + 1;
  for (int64_t o = 0; o < outer; o++) {
    char *b = data + o * block * esz;
    for (int64_t lo = 0; lo < n; lo += rows) {
      int64_t hi = n - lo < rows ? n : lo + rows, start = lo ? lo - 1 : 0;
      fn(b + start * inner * esz, 1, hi - start, inner, mul);
      if (ctx_work(c, (hi - lo) * inner, WORK_ELEMENT)) return -1;
    }
  }
  return 0;
}

/* numpy.cumsum / numpy.cumprod (op RED_SUM / RED_PROD) of t along axis (INT32_MIN: over the
   flattened C order, giving a 1-d result) in dtype (-1: sum's default promotion).  Returns a
   new C-contiguous tensor or NULL (AxisError). */
Tensor *reduce_cumulative(Ctx *c, Reduction op, Tensor *t, int axis, int dtype) {
  DType odt = dtype >= 0 ? (DType)dtype : sum_dtype(t->dtype);
  Tensor *r = NULL, *flat = NULL;
  int ax = 0;
  if (op != RED_SUM && op != RED_PROD) {
    ERR_VALUE(c, "cumulative reduction must be sum or prod");
    return NULL;
  }
  if (axis != INT32_MIN && axis_normalize(c, axis, t->ndim, &ax)) return NULL;
  if (!(r = tensor_astype(c, t, odt))) return NULL;
  if (axis == INT32_MIN) {
    int64_t n = tensor_size(r), one = 1;
    flat = tensor_view(r, 1, &n, &one, r->offset);
    tensor_release(r);
    if (!(r = flat)) return NULL;
  }
  int64_t outer = 1, inner = 1, n = r->shape[ax];
  for (int i = 0; i < ax; i++) outer *= r->shape[i];
  for (int i = ax + 1; i < r->ndim; i++) inner *= r->shape[i];
  bool check = fp_checked(c, odt);
  if (n > 0 && inner > 0 && outer > 0 &&
      accumulate_polled(c, tensor_data(r), (int64_t)dtype_size(odt), outer, n, inner,
                        op == RED_PROD, accumulate_fns[odt]) < 0) {
    tensor_release(r);
    return NULL;
  }
  return check ? fp_done(c, r, "accumulate") : r;
}
