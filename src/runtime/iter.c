/*
** iter.c -- the iteration engine every elementwise kernel runs on (NumPy's raw-array
** iteration recipe): drop size-1 dims, order dims by stride, coalesce dims that are contiguous
** with each other, then call the kernel's inner loop on runs of the innermost dim.
*/
#include "rt.h"

#define ITER_MAXOP 8
#define ITER_CHUNK 65536   /* elements between interrupt polls */
#define ITER_PAR_MIN 131072   /* elements from which iter_run_parallel uses threads */
#define ITER_PAR_GRAIN 32768  /* elements per thread at the least */

/* Should axis a be iterated inside (faster than) axis b?  The first operand whose strides on
   both axes are nonzero and differ decides; otherwise C order (later axis inside). */
static bool axis_inner(int nop, const int64_t (*st)[TSR_MAXDIMS], int a, int b) {
  for (int k = 0; k < nop; k++) {
    int64_t sa = st[k][a] < 0 ? -st[k][a] : st[k][a];
    int64_t sb = st[k][b] < 0 ? -st[k][b] : st[k][b];
    if (sa == 0 || sb == 0 || sa == sb) continue;
    return sa < sb;
  }
  return a > b;
}

/* The prepared iteration: coalesced dims (0 innermost), byte strides per operand. */
typedef struct Walk {
  int nop, n;
  int64_t shape[TSR_MAXDIMS], strides[ITER_MAXOP][TSR_MAXDIMS];
  char *data[ITER_MAXOP];
  InnerLoop loop;
  void *aux;
} Walk;

/* Fills w for ops (all of ops[0]'s shape).  Returns 0, 1 when there is nothing to iterate
   (an empty tensor), or -1 (too many operands). */
static int walk_prepare(Ctx *c, Walk *w, int nop, Tensor *const *ops) {
  int64_t st[ITER_MAXOP][TSR_MAXDIMS];   /* byte strides per operand, per original axis */
  int perm[TSR_MAXDIMS];
  const Tensor *t0 = ops[0];

  if (nop < 1 || nop > ITER_MAXOP)
    return ERR_RUNTIME(c, "iter_run: %d operands (at most %d)", nop, ITER_MAXOP);
  w->nop = nop;
  for (int k = 0; k < nop; k++) {
    int64_t isz = (int64_t)dtype_size(ops[k]->dtype);
    w->data[k] = tensor_data(ops[k]);
    for (int i = 0; i < t0->ndim; i++) st[k][i] = ops[k]->strides[i] * isz;
  }

  /* drop size-1 dims; an empty tensor has nothing to iterate */
  int nd = 0;
  for (int i = 0; i < t0->ndim; i++) {
    if (t0->shape[i] == 0) return 1;
    if (t0->shape[i] != 1) perm[nd++] = i;
  }
  /* order: insertion sort, innermost first (perm[0] is the fastest axis) */
  for (int i = 0; i < nd / 2; i++) { int x = perm[i]; perm[i] = perm[nd - 1 - i]; perm[nd - 1 - i] = x; }
  for (int i = 1; i < nd; i++) {
    int x = perm[i], j = i;
    while (j > 0 && axis_inner(nop, (const int64_t (*)[TSR_MAXDIMS])st, x, perm[j - 1])) {
      perm[j] = perm[j - 1];
      j--;
    }
    perm[j] = x;
  }
  /* coalesce: axis i+1 (outer) folds into axis i when every operand steps over it by
     exactly the extent of axis i */
  int n = 0;
  for (int i = 0; i < nd; i++) {
    int ax = perm[i];
    if (n > 0) {
      bool ok = true;
      for (int k = 0; k < nop && ok; k++)
        ok = st[k][ax] == w->strides[k][n - 1] * w->shape[n - 1];
      if (ok) { w->shape[n - 1] *= t0->shape[ax]; continue; }
    }
    w->shape[n] = t0->shape[ax];
    for (int k = 0; k < nop; k++) w->strides[k][n] = st[k][ax];
    n++;
  }
  w->n = n;
  return 0;
}

/* Runs w's loop over the elements whose outermost index lies in [lo, hi) (for one dim: the
   inner index), without polling. */
static void walk_range(const Walk *w, int64_t lo, int64_t hi) {
  int n = w->n, nop = w->nop;
  char *data[ITER_MAXOP], *ptr[ITER_MAXOP];
  int64_t steps[ITER_MAXOP], idx[TSR_MAXDIMS] = {0};
  for (int k = 0; k < nop; k++) steps[k] = w->strides[k][0];
  if (n == 1) {
    for (int k = 0; k < nop; k++) ptr[k] = w->data[k] + lo * steps[k];
    w->loop(ptr, steps, hi - lo, w->aux);
    return;
  }
  for (int k = 0; k < nop; k++) data[k] = w->data[k] + lo * w->strides[k][n - 1];
  int64_t inner = w->shape[0];
  int64_t outer_left = hi - lo;
  for (;;) {
    w->loop(data, steps, inner, w->aux);
    int d = 1;
    for (; d < n; d++) {
      for (int k = 0; k < nop; k++) data[k] += w->strides[k][d];
      if (d == n - 1) { if (--outer_left > 0) break; continue; }
      if (++idx[d] < w->shape[d]) break;
      for (int k = 0; k < nop; k++) data[k] -= w->strides[k][d] * w->shape[d];
      idx[d] = 0;
    }
    if (d >= n) break;
  }
}

static void walk_task(void *arg, int64_t lo, int64_t hi) { walk_range(arg, lo, hi); }

/* Runs loop over ops[0]'s shape (all operands of the same shape).  Never allocates.  Inner
   runs longer than ITER_CHUNK are split so that c is polled at least every ITER_CHUNK
   elements. */
int iter_run(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux) {
  Walk w;
  int rc = walk_prepare(c, &w, nop, ops);
  if (rc) return rc < 0 ? -1 : 0;
  int n = w.n;
  char **data = w.data;
  int64_t steps[ITER_MAXOP];
  if (n == 0) {   /* 0-d or all size-1: one element */
    for (int k = 0; k < nop; k++) steps[k] = 0;
    loop(data, steps, 1, aux);
    return ctx_poll(c, 0);
  }

  int64_t inner = w.shape[0], done = 0;
  int64_t idx[TSR_MAXDIMS] = {0};
  char *ptr[ITER_MAXOP];
  for (int k = 0; k < nop; k++) steps[k] = w.strides[k][0];
  for (;;) {
    for (int64_t j = 0; j < inner; j += ITER_CHUNK) {
      int64_t m = inner - j < ITER_CHUNK ? inner - j : ITER_CHUNK;
      for (int k = 0; k < nop; k++) ptr[k] = data[k] + j * steps[k];
      loop(ptr, steps, m, aux);
      done += m;
      if (done >= ITER_CHUNK) {
        if (ctx_poll(c, (uint64_t)done / 4096) < 0) return -1;
        done = 0;
      }
    }
    /* advance the outer index (odometer) */
    int d = 1;
    for (; d < n; d++) {
      for (int k = 0; k < nop; k++) data[k] += w.strides[k][d];
      if (++idx[d] < w.shape[d]) break;
      for (int k = 0; k < nop; k++) data[k] -= w.strides[k][d] * w.shape[d];
      idx[d] = 0;
    }
    if (d >= n) break;
  }
  return 0;
}

int iter_run_parallel(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux) {
  if (c->nthreads <= 1 || nop < 1 || tensor_size(ops[0]) < ITER_PAR_MIN)
    return iter_run(c, nop, ops, loop, aux);
  Walk w;
  int rc = walk_prepare(c, &w, nop, ops);
  if (rc) return rc < 0 ? -1 : 0;
  if (w.n == 0) return iter_run(c, nop, ops, loop, aux);
  w.loop = loop;
  w.aux = aux;
  int64_t total = tensor_size(ops[0]);
  int64_t outer = w.shape[w.n - 1];
  int64_t per = total / outer;          /* elements per outer index */
  int64_t grain = ITER_PAR_GRAIN / per + 1;
  /* a walk whose outermost dim is too short to split runs its inner dims in chunks */
  if (w.n > 1 && outer < 2 * (int64_t)c->nthreads) return iter_run(c, nop, ops, loop, aux);
  if (w.n == 1) grain = ITER_PAR_GRAIN;
  return pool_parallel_for_polled(c, outer, grain, walk_task, &w, per);
}
