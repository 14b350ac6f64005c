/*
** test_speed.c -- unit tests of the speed machinery: the thread pool (every item once, any
** width), the buffer cache (reuse, accounting, the memory cap, flushing), threaded
** elementwise and reduction kernels (the same bits for 1, 2 and 3 threads) and fused
** programs against their unfused evaluation.
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

int main(void) {
  pool_cases();
  cache_cases();
  thread_independence();
  fused_cases();
  return CHECK_DONE("speed");
}
