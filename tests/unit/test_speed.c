/*
** test_speed.c -- unit tests of the speed machinery: the thread pool (every item once, any
** width), the buffer cache (reuse, accounting, the memory cap, flushing), threaded
** elementwise and reduction kernels (the same bits for 1, 2 and 3 threads) and fused
** programs against their unfused evaluation, also when they store into memory they read
** (fuse_run_into's staged path).
*/
#include "runtime/fuse.h"
#include "runtime/rt.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

static int64_t *hits;

static void count_task(void *arg, int64_t lo, int64_t hi) {
  (void)arg;
  for (int64_t i = lo; i < hi; i++) hits[i]++;
}

static void pool_cases(void) {
  for (int threads = 1; threads <= 4; threads++) {
    Ctx c;
    ctx_init(&c, NULL, NULL);
    ctx_open_speedups(&c, threads);
    CHECK(c.nthreads == threads);
    int64_t sizes[] = {0, 1, 7, 100, 1000, 99999};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      int64_t n = sizes[k];
      hits = calloc((size_t)n + 1, sizeof *hits);
      for (int rep = 0; rep < 3; rep++) pool_parallel_for(&c, n, 10, count_task, NULL);
      bool ok = true;
      for (int64_t i = 0; i < n; i++) ok = ok && hits[i] == 3;
      CHECK(ok);
      free(hits);
    }
    CHECK(pool_width(&c, 5, 10) == 1);
    CHECK(pool_width(&c, 1000, 10) == threads);
    ctx_close_speedups(&c);
    CHECK(c.pool == NULL && c.mem_used == 0);
  }
}

static void cache_cases(void) {
  Ctx c;
  ctx_init(&c, NULL, NULL);
  ctx_open_speedups(&c, 1);
  size_t big = (size_t)1 << 20;
  char *p = ctx_alloc_aligned(&c, big);
  CHECK(p && ((uintptr_t)p & 63) == 0);
  size_t used = c.mem_used;
  CHECK(used >= big);
  p[0] = 1; p[big - 1] = 2;
  ctx_free_aligned(&c, p, big);
  CHECK(c.mem_used == 0 && c.ncached == 1 && c.cache_bytes == used);
  /* the same size comes back from the cache, accounted again */
  char *q = ctx_alloc_aligned(&c, big);
  CHECK(q == p && c.ncached == 0 && c.mem_used == used);
  /* a slightly smaller request may take a cached block; a much smaller one may not */
  ctx_free_aligned(&c, q, big);
  char *r = ctx_alloc_aligned(&c, big - 1000);
  CHECK(r == p && c.ncached == 0);
  ctx_free_aligned(&c, r, big - 1000);
  char *s = ctx_alloc_aligned(&c, big / 2);
  CHECK(s != NULL && c.ncached == 1);
  ctx_free_aligned(&c, s, big / 2);
  CHECK(c.ncached == 2 && c.mem_used == 0);
  /* small blocks are never cached */
  char *t = ctx_alloc_aligned(&c, 100);
  ctx_free_aligned(&c, t, 100);
  CHECK(c.ncached == 2);
  /* the cap counts cached blocks: a new allocation flushes them rather than pass it */
  c.mem_max = used + used / 2;
  char *u = ctx_alloc_aligned(&c, big / 4 * 3);
  CHECK(u != NULL && c.ncached <= 1 && c.mem_used + c.cache_bytes <= c.mem_max);
  ctx_free_aligned(&c, u, big / 4 * 3);
  /* at most CTX_CACHE_SLOTS blocks */
  c.mem_max = 0;
  char *many[CTX_CACHE_SLOTS + 3];
  for (int i = 0; i < CTX_CACHE_SLOTS + 3; i++) many[i] = ctx_alloc_aligned(&c, big * 2 + (size_t)i * big);
  for (int i = 0; i < CTX_CACHE_SLOTS + 3; i++) ctx_free_aligned(&c, many[i], big * 2 + (size_t)i * big);
  CHECK(c.ncached == CTX_CACHE_SLOTS && c.mem_used == 0);
  ctx_cache_flush(&c);
  CHECK(c.ncached == 0 && c.cache_bytes == 0);
  /* without ctx_open_speedups nothing is cached */
  Ctx d;
  ctx_init(&d, NULL, NULL);
  char *v = ctx_alloc_aligned(&d, big);
  ctx_free_aligned(&d, v, big);
  CHECK(d.ncached == 0 && d.mem_used == 0);
  ctx_close_speedups(&c);
  CHECK(c.mem_used == 0 && c.ncached == 0);
}

/* A float64 tensor of n elements with awkward values. */
static Tensor *wobbly(Ctx *c, int ndim, const int64_t *shape, double k) {
  Tensor *t = tensor_empty(c, TSR_FLOAT64, ndim, shape);
  int64_t n = tensor_size(t);
  double *p = (double *)tensor_data(t);
  for (int64_t i = 0; i < n; i++) p[i] = sin((double)i * k) * 1e3 + 1.0 / (double)(i + 3);
  return t;
}

static bool same_bits(Tensor *a, Tensor *b) {
  return a && b && a->dtype == b->dtype && tensor_size(a) == tensor_size(b) &&
         memcmp(tensor_data(a), tensor_data(b), (size_t)tensor_size(a) * dtype_size(a->dtype)) == 0;
}

/* A result copied out of its Ctx: bytes and size. */
typedef struct { char *bytes; size_t n; } Blob;

static Blob blob(Tensor *t) {
  Blob b = {NULL, 0};
  if (!t) return b;
  b.n = (size_t)tensor_size(t) * dtype_size(t->dtype);
  b.bytes = malloc(b.n ? b.n : 1);
  memcpy(b.bytes, tensor_data(t), b.n);
  tensor_release(t);
  return b;
}

#define NRESULTS 8
/* Runs reductions and elementwise work with `threads` threads; copies the results out. */
static void threaded_results(int threads, Blob *out) {
  Ctx c;
  ctx_init(&c, NULL, NULL);
  ctx_open_speedups(&c, threads);
  int64_t shape[2] = {700, 600};
  Tensor *a = wobbly(&c, 2, shape, 0.37), *b = wobbly(&c, 2, shape, 1.91);
  int ax0 = 0, ax1 = 1;
  Tensor *at = tensor_transpose(&c, a, NULL), *bt = tensor_transpose(&c, b, NULL);
  out[0] = blob(reduce(&c, RED_SUM, a, NULL, -1, false, -1));
  out[1] = blob(reduce(&c, RED_SUM, a, &ax0, 1, false, -1));
  out[2] = blob(reduce(&c, RED_SUM, a, &ax1, 1, false, -1));
  out[3] = blob(reduce(&c, RED_MAX, a, &ax0, 1, false, -1));
  out[4] = blob(reduce(&c, RED_SUM, at, &ax0, 1, false, -1));
  out[5] = blob(ufunc_binary(&c, UF_ADD, at, bt, NULL));
  out[6] = blob(reduce(&c, RED_PROD, a, &ax1, 1, false, -1));
  out[7] = blob(reduce(&c, RED_MIN, a, NULL, -1, false, -1));
  tensor_release(a);
  tensor_release(b);
  tensor_release(at);
  tensor_release(bt);
  ctx_close_speedups(&c);
  CHECK(c.mem_used == 0);
}

static void thread_independence(void) {
  Blob r1[NRESULTS], r2[NRESULTS], r3[NRESULTS];
  threaded_results(1, r1);
  threaded_results(2, r2);
  threaded_results(3, r3);
  for (int i = 0; i < NRESULTS; i++) {
    CHECK(r1[i].bytes && r1[i].n == r2[i].n && !memcmp(r1[i].bytes, r2[i].bytes, r1[i].n));
    CHECK(r1[i].bytes && r1[i].n == r3[i].n && !memcmp(r1[i].bytes, r3[i].bytes, r1[i].n));
    free(r1[i].bytes); free(r2[i].bytes); free(r3[i].bytes);
  }
}

/* a * b + c / 3 - (-a) fused, against the unfused ufunc calls, for a few sizes and dtypes. */
static void fused_cases(void) {
  Ctx c;
  ctx_init(&c, NULL, NULL);
  ctx_open_speedups(&c, 2);
  int64_t sizes[] = {1, 5, 511, 512, 513, 4096, 200000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int64_t n = sizes[k];
    Tensor *a = wobbly(&c, 1, &n, 0.3), *b0 = wobbly(&c, 1, &n, 0.7);
    Tensor *b = tensor_astype(&c, b0, TSR_FLOAT32);
    int64_t one = 1;
    Tensor *cc = wobbly(&c, 1, &one, 0.1);
    Tensor *three = tensor_scalar_i64(&c, TSR_INT64, 3);
    three->weak = WEAK_INT;
    /* unfused */
    Tensor *t1 = ufunc_binary(&c, UF_MULTIPLY, a, b, NULL);
    Tensor *t2 = ufunc_binary(&c, UF_TRUE_DIVIDE, cc, three, NULL);
    Tensor *t3 = ufunc_binary(&c, UF_ADD, t1, t2, NULL);
    Tensor *t4 = ufunc_unary(&c, UF_NEGATIVE, a, NULL);
    Tensor *want = ufunc_binary(&c, UF_SUBTRACT, t3, t4, NULL);
    /* fused */
    FuseProg *p = malloc(sizeof *p);
    fuse_init(p);
    int na = fuse_leaf(p, tensor_retain(a)), nb = fuse_leaf(p, tensor_retain(b));
    int m1 = fuse_binary(&c, p, UF_MULTIPLY, na, nb);
    int nc = fuse_leaf(p, tensor_retain(cc)), n3 = fuse_leaf(p, tensor_retain(three));
    int m2 = fuse_binary(&c, p, UF_TRUE_DIVIDE, nc, n3);
    int m3 = fuse_binary(&c, p, UF_ADD, m1, m2);
    int na2 = fuse_leaf(p, tensor_retain(a));
    int m4 = fuse_unary(&c, p, UF_NEGATIVE, na2);
    int root = fuse_binary(&c, p, UF_SUBTRACT, m3, m4);
    CHECK(root >= 0);
    Tensor *got = root >= 0 ? fuse_run(&c, p, root) : NULL;
    CHECK(same_bits(got, want));
    /* a failing check leaves the program usable and reports NumPy's error */
    int64_t two = 2;
    Tensor *bad = wobbly(&c, 1, &two, 1.0);
    int nbad = fuse_leaf(p, bad);
    if (n > 2) {
      CHECK(fuse_binary(&c, p, UF_ADD, root, nbad) == -1);
      CHECK(c.status == TSR_ERR_VALUE);
      ctx_clear(&c);
    }
    fuse_free(p);
    free(p);
    Tensor *all[] = {a, b0, b, cc, three, t1, t2, t3, t4, want, got};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) if (all[i]) tensor_release(all[i]);
  }
  /* more leaves than one pass takes: the program computes parts first */
  FuseProg *p = malloc(sizeof *p);
  fuse_init(p);
  int64_t n = 1000;
  Tensor *x = wobbly(&c, 1, &n, 0.5);
  int acc = fuse_leaf(p, tensor_retain(x));
  Tensor *want = tensor_retain(x);
  for (int i = 0; i < 12; i++) {
    acc = fuse_binary(&c, p, UF_ADD, acc, fuse_leaf(p, tensor_retain(x)));
    Tensor *w2 = ufunc_binary(&c, UF_ADD, want, x, NULL);
    tensor_release(want);
    want = w2;
  }
  CHECK(acc >= 0);
  Tensor *got = fuse_run(&c, p, acc);
  CHECK(same_bits(got, want));
  tensor_release(got);
  tensor_release(want);
  tensor_release(x);
  fuse_free(p);
  free(p);
  ctx_close_speedups(&c);
  CHECK(c.mem_used == 0);
  if (c.mem_used) fprintf(stderr, "leaked %zu bytes\n", c.mem_used);
}

/* ---- fuse_run_into with outputs that share memory with inputs (iter_run_staged) ---------- */

/* A view of base: shape and strides in elements, offset in elements from base's. */
static Tensor *view_of(Tensor *base, int nd, const int64_t *shape, const int64_t *strides,
                       int64_t off) {
  return tensor_view(base, nd, shape, strides, base->offset + off);
}

/* One overlapping assignment: dst = expr(leaves), every tensor a view of one base. */
typedef struct {
  const char *name;
  int bnd;
  int64_t bshape[3];
  DType dt;
  int nd;
  int64_t shape[3];
  int64_t dst_off;
  int nleaf;
  int64_t leaf_off[4];
  int64_t leaf_strides[4][3];   /* all zero: the base's C strides */
  int expect;                   /* fuse_run_into's answer: 0 staged, 1 declined */
} Overlap;

static const Overlap overlaps[] = {
  /* u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]) */
  {"jacobi", 2, {700, 500}, TSR_FLOAT64, 2, {698, 498}, 501, 4, {1, 1001, 500, 502}, {{0}}, 0},
  /* x[1:] = x[:-1] * 0.5 + x[1:] */
  {"shift back 1", 1, {400000}, TSR_FLOAT64, 1, {399999}, 1, 2, {0, 1}, {{0}}, 0},
  /* x[5000:] = x[:-5000] ... + x[5000:] (a reach of many rows of a band) */
  {"shift back 5000", 1, {400000}, TSR_FLOAT64, 1, {395000}, 5000, 2, {0, 5000}, {{0}}, 0},
  /* x[:-7] = x[7:] ... + x[:-7] */
  {"shift forward 7", 1, {400000}, TSR_FLOAT64, 1, {399993}, 0, 2, {7, 0}, {{0}}, 0},
  /* u[3:, :] = u[:-3, :] ... + u[3:, :] */
  {"rows back 3", 2, {900, 400}, TSR_FLOAT64, 2, {897, 400}, 1200, 2, {0, 1200}, {{0}}, 0},
  /* v[1:-1, 1:-1, 1:-1] from its six neighbours' first two */
  {"3-d", 3, {40, 90, 100}, TSR_FLOAT64, 3, {38, 88, 98}, 9101, 2, {101, 18101}, {{0}}, 0},
  /* int64 x[1:-1] = x[:-2] ... + x[2:] (wrapping) */
  {"int64", 1, {300000}, TSR_INT64, 1, {299998}, 1, 2, {0, 2}, {{0}}, 0},
  /* u = u.T ... + u: strides differ, declined */
  {"transposed", 2, {600, 600}, TSR_FLOAT64, 2, {600, 600}, 0, 2, {0, 0}, {{1, 600}, {0}}, 1},
  /* a small output: a temporary is cheaper, declined */
  {"small", 1, {1000}, TSR_FLOAT64, 1, {999}, 1, 2, {0, 1}, {{0}}, 1},
};

/* The program sum_k leaf_k * w_k, as (((l0 * w0) + l1 * w1) + ...): mixed weights so that
   no two orders give the same bits. */
static int overlap_prog(Ctx *c, FuseProg *p, const Overlap *o, Tensor *base) {
  int64_t cs[3];
  cs[o->bnd - 1] = 1;
  for (int d = o->bnd - 2; d >= 0; d--) cs[d] = cs[d + 1] * o->bshape[d + 1];
  int acc = -1;
  for (int k = 0; k < o->nleaf; k++) {
    const int64_t *st = o->leaf_strides[k][0] ? o->leaf_strides[k] : cs;
    int leaf = fuse_leaf(p, view_of(base, o->nd, o->shape, st, o->leaf_off[k]));
    Tensor *w = o->dt == TSR_INT64 ? tensor_scalar_i64(c, TSR_INT64, 3 + k)
                                   : tensor_scalar_f64(c, TSR_FLOAT64, 0.25 + 0.125 * k);
    w->weak = o->dt == TSR_INT64 ? WEAK_INT : WEAK_FLOAT;
    int term = fuse_binary(c, p, UF_MULTIPLY, leaf, fuse_leaf(p, w));
    acc = acc < 0 ? term : fuse_binary(c, p, UF_ADD, acc, term);
  }
  return acc;
}

static void staged_cases(void) {
  for (int threads = 1; threads <= 3; threads++) {
    Ctx c;
    ctx_init(&c, NULL, NULL);
    ctx_open_speedups(&c, threads);
    for (size_t i = 0; i < sizeof overlaps / sizeof *overlaps; i++) {
      const Overlap *o = &overlaps[i];
      int64_t cs[3];
      cs[o->bnd - 1] = 1;
      for (int d = o->bnd - 2; d >= 0; d--) cs[d] = cs[d + 1] * o->bshape[d + 1];
      Tensor *w = wobbly(&c, o->bnd, o->bshape, 0.01);
      Tensor *ref = o->dt == TSR_FLOAT64 ? tensor_copy(&c, w) : tensor_astype(&c, w, o->dt);
      Tensor *live = tensor_copy(&c, ref);
      /* reference: the value from a snapshot, then stored */
      FuseProg *p = malloc(sizeof *p);
      fuse_init(p);
      Tensor *snap = tensor_copy(&c, ref);
      int root = overlap_prog(&c, p, o, snap);
      Tensor *val = root >= 0 ? fuse_run(&c, p, root) : NULL;
      Tensor *dref = view_of(ref, o->nd, o->shape, cs, o->dst_off);
      CHECK(val && tensor_assign(&c, dref, val) == 0);
      fuse_free(p);
      /* staged: straight into the live array */
      fuse_init(p);
      root = overlap_prog(&c, p, o, live);
      Tensor *dlive = view_of(live, o->nd, o->shape, cs, o->dst_off);
      int rc = root >= 0 ? fuse_run_into(&c, p, root, dlive) : -1;
      if (rc != o->expect)
        fprintf(stderr, "%s, %d threads: fuse_run_into gave %d, want %d\n", o->name, threads,
                rc, o->expect);
      CHECK(rc == o->expect);
      if (rc == 1) {   /* declined: the caller's way */
        Tensor *v2 = fuse_run(&c, p, root);
        CHECK(v2 && tensor_assign(&c, dlive, v2) == 0);
        if (v2) tensor_release(v2);
      }
      bool same = same_bits(ref, live);
      if (!same) fprintf(stderr, "%s, %d threads: results differ\n", o->name, threads);
      CHECK(same);
      fuse_free(p);
      free(p);
      Tensor *all[] = {w, ref, live, snap, val, dref, dlive};
      for (size_t k = 0; k < sizeof all / sizeof *all; k++) if (all[k]) tensor_release(all[k]);
    }
    ctx_close_speedups(&c);
    CHECK(c.mem_used == 0);
  }
}

int main(void) {
  pool_cases();
  cache_cases();
  thread_independence();
  fused_cases();
  staged_cases();
  return CHECK_DONE("speed");
}
