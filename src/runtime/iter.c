/*
** iter.c -- the iteration engine every elementwise kernel runs on (NumPy's raw-array
** iteration recipe): drop size-1 dims, order dims by stride, coalesce dims that are contiguous
** with each other, then call the kernel's inner loop on runs of the innermost dim.
*/
#include "rt.h"

#include <string.h>

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
    return ctx_work(c, 1, WORK_ELEMENT);
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
        if (ctx_work(c, done, WORK_ELEMENT) < 0) return -1;
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
  return ctx_work(c, (uint64_t)done, WORK_ELEMENT);   /* the last chunk's elements */
}

int iter_run_parallel(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux) {
  return iter_run_parallel_from(c, nop, ops, loop, aux, ITER_PAR_MIN);
}

int iter_run_parallel_from(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux,
                           int64_t min_elements) {
  if (c->nthreads <= 1 || nop < 1 || tensor_size(ops[0]) < min_elements)
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
  return pool_parallel_for_polled(c, outer, grain, walk_task, &w, per * WORK_ELEMENT);
}

/* ------------------------------------------------------------------------------------------
** Staged runs: the output shares memory with some inputs (u[1:-1, 1:-1] = 0.25 * (u[:-2,
** 1:-1] + ...)).  NumPy's rule is "evaluate fully, then write", which a temporary the size of
** the output gives at the price of a second pass over memory.  Here the output is computed
** band by band (a band: a range of the walk's outermost index) into small buffers that stay
** in cache, and each band is written back only when no later read can touch it.
**
** The overlapping inputs must step through memory exactly as the output does (same strides:
** shifted copies, as stencils are), so that input k at outer index q reads the output's
** memory within R outer indices of q.  Bands are at least R long, so band i-1 can be written
** once band i is computed: later bands read no further back than band i.  Each thread takes a
** chunk of bands; the first band of a chunk (read by the previous chunk's last band) and its
** last band (read by the next chunk's first band) are held and written by the caller after
** all threads are done.
*/
#define STAGE_BAND_BYTES ((int64_t)64 << 10)   /* a band's buffer: a few stay in L2 */

typedef struct Staged {
  Walk w;                      /* op 0: the output */
  int64_t bstride[TSR_MAXDIMS];   /* a band buffer's byte strides, walk order, contiguous */
  int64_t outer, band, per_chunk, nchunk, band_bytes, isz;
  char *bufs;                  /* 3 band buffers per chunk: two in turn and the first band's */
  InnerLoop check_loop;        /* recompute a band whose FPU flags were raised (or NULL) */
  void *check_aux;
  struct { int64_t lo, hi; char *buf; } held[2 * 64];   /* per chunk: first and last band */
} Staged;

static void stage_copy_loop(char **d, const int64_t *s, int64_t n, void *aux) {
  int64_t isz = *(const int64_t *)aux;
  if (s[0] == isz && s[1] == isz) { memcpy(d[0], d[1], (size_t)(n * isz)); return; }
  for (int64_t i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], (size_t)isz);
}

/* Outer indices [lo, hi) of the output from buf (holding the band that starts at lo). */
static void stage_write(const Staged *st, int64_t lo, int64_t hi, char *buf) {
  Walk wc;
  wc.nop = 2;
  wc.n = st->w.n;
  memcpy(wc.shape, st->w.shape, sizeof wc.shape);
  for (int d = 0; d < wc.n; d++) {
    wc.strides[0][d] = st->w.strides[0][d];
    wc.strides[1][d] = st->bstride[d];
  }
  wc.data[0] = st->w.data[0];
  wc.data[1] = buf - lo * st->bstride[st->w.n - 1];
  wc.loop = stage_copy_loop;
  wc.aux = (void *)&st->isz;
  walk_range(&wc, lo, hi);
}

/* Computes outer indices [lo, hi) into buf. */
static void stage_compute(const Staged *st, int64_t lo, int64_t hi, char *buf) {
  Walk wb = st->w;
  for (int d = 0; d < wb.n; d++) wb.strides[0][d] = st->bstride[d];
  wb.data[0] = buf - lo * st->bstride[wb.n - 1];
  if (st->check_loop) fperr_clear();
  walk_range(&wb, lo, hi);
  if (st->check_loop && fperr_test()) {
    /* the band's inputs are untouched yet: compute it again, attributing the flags */
    wb.loop = st->check_loop;
    wb.aux = st->check_aux;
    walk_range(&wb, lo, hi);
    fperr_clear();
  }
}

static void stage_task(void *arg, int64_t lo, int64_t hi) {
  Staged *st = arg;
  for (int64_t t = lo; t < hi; t++) {
    int64_t r0 = t * st->per_chunk, r1 = r0 + st->per_chunk;
    if (r1 > st->outer) r1 = st->outer;
    char *ring[2], *first = st->bufs + (3 * t + 2) * st->band_bytes;
    ring[0] = st->bufs + 3 * t * st->band_bytes;
    ring[1] = ring[0] + st->band_bytes;
    int64_t plo = -1, phi = -1;
    char *pbuf = NULL;
    for (int64_t b = r0, i = 0; b < r1; b += st->band, i++) {
      int64_t e = b + st->band < r1 ? b + st->band : r1;
      char *buf = i == 0 ? first : ring[i & 1];
      stage_compute(st, b, e, buf);
      if (i >= 2) stage_write(st, plo, phi, pbuf);   /* band i-1; band 0 is held */
      plo = b; phi = e; pbuf = buf;
    }
    st->held[2 * t].lo = r0;
    st->held[2 * t].hi = r0 + st->band < r1 ? r0 + st->band : r1;
    st->held[2 * t].buf = first;
    st->held[2 * t + 1].lo = plo;   /* the last band (the first again when there is one) */
    st->held[2 * t + 1].hi = phi;
    st->held[2 * t + 1].buf = pbuf;
  }
}

int iter_run_staged(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux,
                    InnerLoop check_loop, void *check_aux) {
  /* three band buffers take more than 96 KiB (a band holds 64 KiB less one row, or a row of
     more than 32 KiB): a smaller output is cheaper through a temporary */
  if (nop < 1 || tensor_size(ops[0]) * (int64_t)dtype_size(ops[0]->dtype) <= 3 * (STAGE_BAND_BYTES / 2))
    return 1;
  Staged *st = ctx_malloc(c, sizeof *st);
  if (!st) return -1;
  int rc = walk_prepare(c, &st->w, nop, ops);
  if (rc) { ctx_free(c, st, sizeof *st); return rc < 0 ? -1 : 0; }
  Walk *w = &st->w;
  int n = w->n;
  int64_t isz = (int64_t)dtype_size(ops[0]->dtype);
  if (n == 0) {   /* one element: read it, then write it */
    ctx_free(c, st, sizeof *st);
    return 1;
  }
  /* the output's rows: outer stride S > 0, each row's bytes within [0, span) with span <= S */
  int64_t S = w->strides[0][n - 1], span = isz, inner = 1;
  for (int d = 0; d < n - 1; d++) {
    int64_t a = w->strides[0][d] < 0 ? -w->strides[0][d] : w->strides[0][d];
    span += (w->shape[d] - 1) * a;
    inner *= w->shape[d];
  }
  bool ok = S > 0 && span <= S && (n > 1 || S >= isz);
  /* R: how many outer indices away an overlapping input reads the output's memory */
  int64_t R = 1;
  for (int k = 1; k < nop && ok; k++) {
    if (!tensor_may_overlap(ops[0], ops[k])) continue;
    ok = ops[k]->dtype == ops[0]->dtype;
    for (int d = 0; d < n && ok; d++) ok = w->strides[k][d] == w->strides[0][d];
    int64_t off = w->data[k] - w->data[0];
    if (off < 0) off = -off;
    int64_t r = (off + span) / S + 1;
    if (r > R) R = r;
  }
  if (!ok) { ctx_free(c, st, sizeof *st); return 1; }
  st->isz = isz;
  st->outer = w->shape[n - 1];
  st->bstride[0] = isz;
  for (int d = 1; d < n; d++) st->bstride[d] = st->bstride[d - 1] * w->shape[d - 1];
  int64_t row_bytes = inner * isz;
  int64_t band = STAGE_BAND_BYTES / row_bytes;
  if (band < R) band = R;
  if (band < 1) band = 1;
  st->band = band;
  /* chunks of whole bands, at least two bands each, one per thread */
  int64_t nb = (st->outer + band - 1) / band;
  int64_t nchunk = c->nthreads > 1 && tensor_size(ops[0]) >= ITER_PAR_MIN ? c->nthreads : 1;
  if (nchunk > nb / 2) nchunk = nb / 2;
  if (nchunk > 64) nchunk = 64;
  if (nchunk < 1) nchunk = 1;
  st->per_chunk = (nb + nchunk - 1) / nchunk * band;
  st->nchunk = (st->outer + st->per_chunk - 1) / st->per_chunk;
  if (band > (INT64_MAX / 4) / row_bytes) { ctx_free(c, st, sizeof *st); return 1; }
  st->band_bytes = (band * row_bytes + 63) & ~(int64_t)63;
  size_t total = (size_t)st->nchunk * 3 * (size_t)st->band_bytes;
  if (total >= (size_t)(tensor_size(ops[0]) * isz)) {   /* no smaller than a temporary */
    ctx_free(c, st, sizeof *st);
    return 1;
  }
  st->bufs = ctx_alloc_aligned(c, total);
  if (!st->bufs) { ctx_free(c, st, sizeof *st); return -1; }
  w->loop = loop;
  w->aux = aux;
  st->check_loop = check_loop;
  st->check_aux = check_aux;
  pool_parallel_for(c, st->nchunk, 1, stage_task, st);
  for (int64_t t = 0; t < st->nchunk; t++) {
    stage_write(st, st->held[2 * t].lo, st->held[2 * t].hi, st->held[2 * t].buf);
    if (st->held[2 * t + 1].lo != st->held[2 * t].lo)
      stage_write(st, st->held[2 * t + 1].lo, st->held[2 * t + 1].hi, st->held[2 * t + 1].buf);
  }
  ctx_free_aligned(c, st->bufs, total);
  ctx_free(c, st, sizeof *st);
  return ctx_work(c, tensor_size(ops[0]), WORK_ELEMENT);
}
