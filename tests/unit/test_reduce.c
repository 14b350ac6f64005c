/*
** test_reduce.c -- unit tests of src/runtime/reduce.c: float sums, means, variances and
** cumulative sums bit for bit against NumPy 1.24, plus integer reductions, max/min/arg*,
** all/any, keepdims, dtypes and the error texts.
**
** The data come from a 32-bit LCG (s = s * 1664525 + 1013904223), turned into floats exactly
** (24- or 53-bit integers times a power of two), so C and Python see identical inputs.  The
** expected results are FNV-1a 64-bit hashes of the C-order bytes of NumPy's results, produced
** by /usr/bin/python3 (NumPy 1.24) from the same formulas; the cases run in table order.
*/
#include <math.h>
#include <stdlib.h>
#include "runtime/rt.h"
#include "check.h"

typedef struct { const char *name; int64_t size; uint64_t hash; } Expect;
static const Expect expected[] = {
  {"f32 sum n=1", 1, 0x0dfaff00924c7b0cULL},
  {"f32 sum n=7", 1, 0xd5aabca39d224c32ULL},
  {"f32 sum n=8", 1, 0x75ee5f071f80aa7fULL},
  {"f32 sum n=9", 1, 0xf95b84a3a7981ab5ULL},
  {"f32 sum n=16", 1, 0xe4c2c22cb9630777ULL},
  {"f32 sum n=127", 1, 0x1768d92ebc3ad007ULL},
  {"f32 sum n=128", 1, 0xca34906b6f5b5d44ULL},
  {"f32 sum n=129", 1, 0xf83cbe6d3c5f8d41ULL},
  {"f32 sum n=1000", 1, 0xbf640e0da4395a24ULL},
  {"f32 sum n=8191", 1, 0xc20f29df60f84a12ULL},
  {"f32 sum n=8192", 1, 0xabe05698be9d4161ULL},
  {"f32 sum n=8193", 1, 0x31fe0880ba6a2873ULL},
  {"f32 sum n=20000", 1, 0x4a6467dd15f785fcULL},
  {"f32 sum n=100003", 1, 0xe950ee64fad78660ULL},
  {"f32 sum n=200000", 1, 0xc25badc35f2f3936ULL},
  {"f32 sum (3,10000) axis=1", 3, 0x3dacb9f6941cb119ULL},
  {"f32 sum (3,10000) axis=0", 10000, 0xd3c1deb77f1165cbULL},
  {"f32 sum (3,10000) all", 1, 0x390ced45d3c79620ULL},
  {"f32 sum (3,10000).T axis=1", 10000, 0xd3c1deb77f1165cbULL},
  {"f32 sum (3,10000).T all", 1, 0x390ced45d3c79620ULL},
  {"f32 mean (3,10000) axis=1", 3, 0x827a9e7bb9e904b2ULL},
  {"f32 mean (3,10000) all", 1, 0xb13c4e2a24ff63f3ULL},
  {"f32 var (3,10000) axis=0", 10000, 0x9f625d2cc11036c9ULL},
  {"f32 std (3,10000) all ddof1", 1, 0x83d07e3d68d0c4b5ULL},
  {"f32 sum (37,129) axis=1", 37, 0x89ce5cf9494a1ac5ULL},
  {"f32 sum (37,129) axis=0", 129, 0x1a895af0263abb3eULL},
  {"f32 sum (37,129) all", 1, 0xb3f0d3df82a12ce0ULL},
  {"f32 sum (37,129).T axis=1", 129, 0x1a895af0263abb3eULL},
  {"f32 sum (37,129).T all", 1, 0xb3f0d3df82a12ce0ULL},
  {"f32 mean (37,129) axis=1", 37, 0x8869459a89e5975bULL},
  {"f32 mean (37,129) all", 1, 0x1946463c34aaf1c8ULL},
  {"f32 var (37,129) axis=0", 129, 0x6da5cdeb34b885d9ULL},
  {"f32 std (37,129) all ddof1", 1, 0xf8d0cbd6b58ec96bULL},
  {"f32 sum (1000,3) axis=1", 1000, 0xbef5722ba1d391b3ULL},
  {"f32 sum (1000,3) axis=0", 3, 0x75a075a264af4969ULL},
  {"f32 sum (1000,3) all", 1, 0xca18fd9c4c5db182ULL},
  {"f32 sum (1000,3).T axis=1", 3, 0x75a075a264af4969ULL},
  {"f32 sum (1000,3).T all", 1, 0xca18fd9c4c5db182ULL},
  {"f32 mean (1000,3) axis=1", 1000, 0xe7089ffd72946f97ULL},
  {"f32 mean (1000,3) all", 1, 0x8cce6bd7d7e6ccc8ULL},
  {"f32 var (1000,3) axis=0", 3, 0x34135717a5799cfcULL},
  {"f32 std (1000,3) all ddof1", 1, 0x22af5bc1e3dd4931ULL},
  {"f32 sum (5,20000) axis=1", 5, 0xd131fabdd1f3d4b3ULL},
  {"f32 sum (5,20000) axis=0", 20000, 0x81509d27e5b01513ULL},
  {"f32 sum (5,20000) all", 1, 0x754f1d6db6315067ULL},
  {"f32 sum (5,20000).T axis=1", 20000, 0x81509d27e5b01513ULL},
  {"f32 sum (5,20000).T all", 1, 0x754f1d6db6315067ULL},
  {"f32 mean (5,20000) axis=1", 5, 0x3d1c69121bfbc12cULL},
  {"f32 mean (5,20000) all", 1, 0x081aa95cef991ac1ULL},
  {"f32 var (5,20000) axis=0", 20000, 0xeb11b138ef37f375ULL},
  {"f32 std (5,20000) all ddof1", 1, 0xd0914afff10b008aULL},
  {"f32 sum (40,30,50) axis=(0,2)", 30, 0x0106f436f4face3eULL},
  {"f32 sum (40,30,50) axis=(1,2)", 40, 0x2aa88f7396abe477ULL},
  {"f32 sum (40,30,50) axis=(0,1)", 50, 0x2c3df7fa61e44050ULL},
  {"f32 sum (40,30,50) axis=-1 keep", 1200, 0x4cdd00316bc0f553ULL},
  {"f32 sum rev", 1, 0x0586803d4b100e20ULL},
  {"f32 sum step3", 1, 0x78209093a41c0f0aULL},
  {"f32 sum (40,30,50)[:, ::-1, ::2] axis=(0,2)", 30, 0x69cef17d0ec47076ULL},
  {"f32 cumsum n=1000", 1000, 0x57acbf4a82350ed8ULL},
  {"f32 cumprod (40,30,50)/1000 axis=1", 60000, 0xcab2607a40775884ULL},
  {"f32 prod n=100 /1000", 1, 0x4b72877f9c5c9c58ULL},
  {"f32 mean f64 dtype", 1, 0x2edb3adca76468f4ULL},
  {"f64 sum n=1", 1, 0x09983be54066cc24ULL},
  {"f64 sum n=7", 1, 0x45c633f3d56ea371ULL},
  {"f64 sum n=8", 1, 0x2640803be17e2e11ULL},
  {"f64 sum n=9", 1, 0x4aadbb9648172bdfULL},
  {"f64 sum n=16", 1, 0xc0628dbffafad247ULL},
  {"f64 sum n=127", 1, 0x0516307e20373077ULL},
  {"f64 sum n=128", 1, 0xacbd4f43a9c97404ULL},
  {"f64 sum n=129", 1, 0xe659b8ae1ce0db73ULL},
  {"f64 sum n=1000", 1, 0xd2057d79ed2738e8ULL},
  {"f64 sum n=8191", 1, 0x041db285d6a32b7fULL},
  {"f64 sum n=8192", 1, 0x2a48e31a3c5639a8ULL},
  {"f64 sum n=8193", 1, 0x27f9ec353323b6e5ULL},
  {"f64 sum n=20000", 1, 0x9e9c379da6c305e0ULL},
  {"f64 sum n=100003", 1, 0x8ad78db852f66807ULL},
  {"f64 sum n=200000", 1, 0xe8d379ea20d3d519ULL},
  {"f64 sum (3,10000) axis=1", 3, 0x003dd8ed33fce09aULL},
  {"f64 sum (3,10000) axis=0", 10000, 0x5366e1d6e8a782beULL},
  {"f64 sum (3,10000) all", 1, 0x7d92da7e71017652ULL},
  {"f64 sum (3,10000).T axis=1", 10000, 0x5366e1d6e8a782beULL},
  {"f64 sum (3,10000).T all", 1, 0x7d92da7e71017652ULL},
  {"f64 mean (3,10000) axis=1", 3, 0x19a91a93f236c2e9ULL},
  {"f64 mean (3,10000) all", 1, 0xb0c329f9c3c9518eULL},
  {"f64 var (3,10000) axis=0", 10000, 0xe5dc6bf72a7ee5e8ULL},
  {"f64 std (3,10000) all ddof1", 1, 0x02ff555bf1218533ULL},
  {"f64 sum (37,129) axis=1", 37, 0xab2ff6ecc6c9988dULL},
  {"f64 sum (37,129) axis=0", 129, 0x4aee9493157609e1ULL},
  {"f64 sum (37,129) all", 1, 0x10317f39d793e3d9ULL},
  {"f64 sum (37,129).T axis=1", 129, 0x4aee9493157609e1ULL},
  {"f64 sum (37,129).T all", 1, 0x10317f39d793e3d9ULL},
  {"f64 mean (37,129) axis=1", 37, 0x45adac0c34bc4fdaULL},
  {"f64 mean (37,129) all", 1, 0x4490668ac7a4ef8bULL},
  {"f64 var (37,129) axis=0", 129, 0xadb14a1aef0192c9ULL},
  {"f64 std (37,129) all ddof1", 1, 0x6ca7b277774b5317ULL},
  {"f64 sum (1000,3) axis=1", 1000, 0xe43624e0f12222edULL},
  {"f64 sum (1000,3) axis=0", 3, 0x2090cc4bfae72707ULL},
  {"f64 sum (1000,3) all", 1, 0x045cb948c28df5ceULL},
  {"f64 sum (1000,3).T axis=1", 3, 0x2090cc4bfae72707ULL},
  {"f64 sum (1000,3).T all", 1, 0x045cb948c28df5ceULL},
  {"f64 mean (1000,3) axis=1", 1000, 0x75c8957ab572f936ULL},
  {"f64 mean (1000,3) all", 1, 0x21e2afcebbf58d73ULL},
  {"f64 var (1000,3) axis=0", 3, 0x5a7e83fccf291caaULL},
  {"f64 std (1000,3) all ddof1", 1, 0x3cddfe09a9f78fc2ULL},
  {"f64 sum (5,20000) axis=1", 5, 0x084a33872aa5f407ULL},
  {"f64 sum (5,20000) axis=0", 20000, 0xbbfc8c61bc553d3aULL},
  {"f64 sum (5,20000) all", 1, 0xa4db1d97be73e148ULL},
  {"f64 sum (5,20000).T axis=1", 20000, 0xbbfc8c61bc553d3aULL},
  {"f64 sum (5,20000).T all", 1, 0xa4db1d97be73e148ULL},
  {"f64 mean (5,20000) axis=1", 5, 0xb7f401b1d2b2f093ULL},
  {"f64 mean (5,20000) all", 1, 0xe524b8d4ffb9084eULL},
  {"f64 var (5,20000) axis=0", 20000, 0x9a6ecadefee07aeaULL},
  {"f64 std (5,20000) all ddof1", 1, 0xe6d7bf653ff52e14ULL},
  {"f64 sum (40,30,50) axis=(0,2)", 30, 0xfcae6c3b304adadaULL},
  {"f64 sum (40,30,50) axis=(1,2)", 40, 0xdbd329def121c891ULL},
  {"f64 sum (40,30,50) axis=(0,1)", 50, 0x595c1afab8436c64ULL},
  {"f64 sum (40,30,50) axis=-1 keep", 1200, 0xccf926d46c56545aULL},
  {"f64 sum rev", 1, 0x093ef6a973aa8eeaULL},
  {"f64 sum step3", 1, 0xfbea2ee504e5ea40ULL},
  {"f64 sum (40,30,50)[:, ::-1, ::2] axis=(0,2)", 30, 0x4b42f09badee491cULL},
  {"f64 cumsum n=1000", 1000, 0x585f2ec379eba036ULL},
  {"f64 cumprod (40,30,50)/1000 axis=1", 60000, 0x84c34a2e3c156e47ULL},
  {"f64 prod n=100 /1000", 1, 0x687a42bfa60625b2ULL},
  {"f64 mean f64 dtype", 1, 0xb0c329f9c3c9518eULL},
  {"i64 mean n=30000", 1, 0x29f12a8cd1c0328aULL},
  {"i64 var (100,300) axis=1", 100, 0x0087acc88fe7be28ULL},
  {"i64 sum (100,300) axis=0", 300, 0x032edc8d42a0122eULL},
  {"i32 sum dtype int8", 1, 0xaf63db4c8601ead9ULL},
  {"i16 prod (100,300) axis=1", 100, 0x14d5bceae7b5b1a5ULL},
  {"u8 sum", 1, 0x380cd6ba62d3f589ULL},
  {"i64 max (100,300) axis=1", 100, 0x6a88fa5a4d6b0d75ULL},
  {"i64 min (100,300) axis=0", 300, 0x103ca0b3be92a6c5ULL},
  {"i64 argmax (100,300) axis=1", 100, 0x55928ea81fe93e20ULL},
  {"i64 argmin (100,300) axis=0", 300, 0x5b85ac53d0602782ULL},
  {"i64 argmax all T", 1, 0x9fa5ed3af300efe0ULL},
  {"i32 cumsum (100,300) axis=0", 30000, 0x4eda9e95ef382605ULL},
};
static int next_case;
static Ctx ctx;
static Ctx *c = &ctx;

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  return h;
}

/* Checks result r (a new reference, released here) against the next table entry. */
static void expect(const char *name, Tensor *r) {
  const Expect *e = &expected[next_case++];
  if (!r) {
    fprintf(stderr, "case %s: error %s: %s\n", name, ctx.kind, ctx.msg);
    ctx_clear(c);
    CHECK(r != NULL);
    return;
  }
  Tensor *cc = tensor_contiguous(c, r, r->dtype);
  uint64_t h = fnv((const unsigned char *)tensor_data(cc),
                   (size_t)tensor_size(cc) * dtype_size(cc->dtype));
  if (strcmp(e->name, name) != 0 || e->size != tensor_size(r) || e->hash != h)
    fprintf(stderr, "case %s (table: %s): size %lld hash %016llx, want %lld %016llx\n", name,
            e->name, (long long)tensor_size(r), (unsigned long long)h, (long long)e->size,
            (unsigned long long)e->hash);
  CHECK(strcmp(e->name, name) == 0 && e->size == tensor_size(r) && e->hash == h);
  tensor_release(cc);
  tensor_release(r);
}

static void lcg(uint64_t *u, int64_t n, uint32_t seed) {
  uint32_t s = seed;
  for (int64_t i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; u[i] = s; }
}

static Tensor *make_data(DType dt, int64_t n, uint32_t seed) {
  Tensor *t = tensor_empty(c, dt, 1, &n);
  uint64_t *u = malloc((size_t)n * 8), *v = malloc((size_t)n * 8);
  lcg(u, n, seed);
  lcg(v, n, seed ^ 0x9e3779b9u);
  for (int64_t i = 0; i < n; i++) {
    if (dt == TSR_FLOAT32) {
      ((float *)tensor_data(t))[i] = (float)((int64_t)(u[i] >> 8) - (1 << 23)) * 0x1p-10f;
    } else {
      uint64_t m = ((u[i] << 21) ^ v[i]) & ((UINT64_C(1) << 53) - 1);
      ((double *)tensor_data(t))[i] = (double)((int64_t)m - (INT64_C(1) << 52)) * 0x1p-40;
    }
  }
  free(u);
  free(v);
  return t;
}

static Tensor *view(Tensor *t, int nd, const int64_t *shape, const int64_t *strides,
                    int64_t offset) {
  return tensor_view(t, nd, shape, strides, t->offset + offset);
}

static Tensor *reshaped(Tensor *t, int nd, const int64_t *shape) {
  int64_t st[TSR_MAXDIMS];
  strides_c_order(nd, shape, st);
  return view(t, nd, shape, st, 0);
}

static Tensor *transposed2(Tensor *t) {
  int64_t sh[2] = { t->shape[1], t->shape[0] }, st[2] = { t->strides[1], t->strides[0] };
  return view(t, 2, sh, st, 0);
}

/* Elementwise x / 1000 in x's float type (NumPy's x / 1000). */
static Tensor *div1000(Tensor *x) {
  Tensor *r = tensor_contiguous(c, x, x->dtype);
  Tensor *o = tensor_copy(c, r);
  int64_t n = tensor_size(o);
  for (int64_t i = 0; i < n; i++) {
    if (o->dtype == TSR_FLOAT32) ((float *)tensor_data(o))[i] /= 1000.0f;
    else ((double *)tensor_data(o))[i] /= 1000.0;
  }
  tensor_release(r);
  return o;
}

#define ALL_AXES NULL, -1
static int ax1[1], ax2[2];
static const int *axes1(int a) { ax1[0] = a; return ax1; }
static const int *axes2(int a, int b) { ax2[0] = a; ax2[1] = b; return ax2; }

static void float_cases(DType dt, const char *tag) {
  char name[128];
  int64_t N = 200000;
  Tensor *x = make_data(dt, N, 12345);
  static const int64_t ns[] = { 1, 7, 8, 9, 16, 127, 128, 129, 1000, 8191, 8192, 8193, 20000,
                                100003, 200000 };
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    Tensor *v = reshaped(x, 1, &ns[i]);
    snprintf(name, sizeof name, "%s sum n=%lld", tag, (long long)ns[i]);
    expect(name, reduce(c, RED_SUM, v, ALL_AXES, false, -1));
    tensor_release(v);
  }
  static const int64_t rc[][2] = { {3, 10000}, {37, 129}, {1000, 3}, {5, 20000} };
  for (size_t i = 0; i < 4; i++) {
    long long R = rc[i][0], C = rc[i][1];
    Tensor *m = reshaped(x, 2, rc[i]), *mt = transposed2(m);
#define CASE(fmt, expr) \
    snprintf(name, sizeof name, "%s " fmt, tag, R, C); expect(name, expr)
    CASE("sum (%lld,%lld) axis=1", reduce(c, RED_SUM, m, axes1(1), 1, false, -1));
    CASE("sum (%lld,%lld) axis=0", reduce(c, RED_SUM, m, axes1(0), 1, false, -1));
    CASE("sum (%lld,%lld) all", reduce(c, RED_SUM, m, ALL_AXES, false, -1));
    CASE("sum (%lld,%lld).T axis=1", reduce(c, RED_SUM, mt, axes1(1), 1, false, -1));
    CASE("sum (%lld,%lld).T all", reduce(c, RED_SUM, mt, ALL_AXES, false, -1));
    CASE("mean (%lld,%lld) axis=1", reduce(c, RED_MEAN, m, axes1(1), 1, false, -1));
    CASE("mean (%lld,%lld) all", reduce(c, RED_MEAN, m, ALL_AXES, false, -1));
    CASE("var (%lld,%lld) axis=0", reduce_var(c, m, axes1(0), 1, false, 0, false, -1));
    CASE("std (%lld,%lld) all ddof1", reduce_var(c, m, ALL_AXES, false, 1, true, -1));
#undef CASE
    tensor_release(mt);
    tensor_release(m);
  }
  int64_t s3[3] = { 40, 30, 50 };
  Tensor *t = reshaped(x, 3, s3);
  snprintf(name, sizeof name, "%s sum (40,30,50) axis=(0,2)", tag);
  expect(name, reduce(c, RED_SUM, t, axes2(0, 2), 2, false, -1));
  snprintf(name, sizeof name, "%s sum (40,30,50) axis=(1,2)", tag);
  expect(name, reduce(c, RED_SUM, t, axes2(1, 2), 2, false, -1));
  snprintf(name, sizeof name, "%s sum (40,30,50) axis=(0,1)", tag);
  expect(name, reduce(c, RED_SUM, t, axes2(0, 1), 2, false, -1));
  snprintf(name, sizeof name, "%s sum (40,30,50) axis=-1 keep", tag);
  Tensor *r = reduce(c, RED_SUM, t, axes1(-1), 1, true, -1);
  CHECK(r && r->ndim == 3 && r->shape[0] == 40 && r->shape[1] == 30 && r->shape[2] == 1);
  expect(name, r);

  int64_t n20k = 20000, m1 = -1, n3 = (N + 2) / 3, st3 = 3;
  Tensor *rev = view(x, 1, &n20k, &m1, 19999);
  snprintf(name, sizeof name, "%s sum rev", tag);
  expect(name, reduce(c, RED_SUM, rev, ALL_AXES, false, -1));
  tensor_release(rev);
  Tensor *s = view(x, 1, &n3, &st3, 0);
  snprintf(name, sizeof name, "%s sum step3", tag);
  expect(name, reduce(c, RED_SUM, s, ALL_AXES, false, -1));
  tensor_release(s);
  int64_t shp[3] = { 40, 30, 25 }, str[3] = { 1500, -50, 2 };
  Tensor *tv = view(x, 3, shp, str, 29 * 50);
  snprintf(name, sizeof name, "%s sum (40,30,50)[:, ::-1, ::2] axis=(0,2)", tag);
  expect(name, reduce(c, RED_SUM, tv, axes2(0, 2), 2, false, -1));
  tensor_release(tv);

  int64_t n1000 = 1000, n100 = 100, n30k = 30000;
  Tensor *x1000 = reshaped(x, 1, &n1000);
  snprintf(name, sizeof name, "%s cumsum n=1000", tag);
  expect(name, reduce_cumulative(c, RED_SUM, x1000, INT32_MIN, -1));
  tensor_release(x1000);
  Tensor *td = div1000(t);
  snprintf(name, sizeof name, "%s cumprod (40,30,50)/1000 axis=1", tag);
  expect(name, reduce_cumulative(c, RED_PROD, td, 1, -1));
  tensor_release(td);
  Tensor *x100 = reshaped(x, 1, &n100), *x100d = div1000(x100);
  snprintf(name, sizeof name, "%s prod n=100 /1000", tag);
  expect(name, reduce(c, RED_PROD, x100d, ALL_AXES, false, -1));
  tensor_release(x100d);
  tensor_release(x100);
  Tensor *x30k = reshaped(x, 1, &n30k);
  snprintf(name, sizeof name, "%s mean f64 dtype", tag);
  expect(name, reduce(c, RED_MEAN, x30k, ALL_AXES, false, TSR_FLOAT64));
  tensor_release(x30k);
  tensor_release(t);
  tensor_release(x);
}

static void int_cases(void) {
  int64_t n = 30000, s2[2] = { 100, 300 };
  uint64_t *u = malloc((size_t)n * 8);
  lcg(u, n, 7);
  Tensor *xi = tensor_empty(c, TSR_INT64, 1, &n);
  for (int64_t i = 0; i < n; i++) ((int64_t *)tensor_data(xi))[i] = (int64_t)(u[i] >> 16) - 32768;
  free(u);
  Tensor *m = reshaped(xi, 2, s2);
  Tensor *i32 = tensor_astype(c, xi, TSR_INT32), *i16 = tensor_astype(c, m, TSR_INT16);
  Tensor *u8 = tensor_astype(c, xi, TSR_UINT8), *m32 = reshaped(i32, 2, s2);
  Tensor *mt = transposed2(m);
  expect("i64 mean n=30000", reduce(c, RED_MEAN, xi, ALL_AXES, false, -1));
  expect("i64 var (100,300) axis=1", reduce_var(c, m, axes1(1), 1, false, 0, false, -1));
  expect("i64 sum (100,300) axis=0", reduce(c, RED_SUM, m, axes1(0), 1, false, -1));
  expect("i32 sum dtype int8", reduce(c, RED_SUM, i32, ALL_AXES, false, TSR_INT8));
  expect("i16 prod (100,300) axis=1", reduce(c, RED_PROD, i16, axes1(1), 1, false, -1));
  Tensor *r = reduce(c, RED_SUM, u8, ALL_AXES, false, -1);
  CHECK(r && r->dtype == TSR_UINT64);
  expect("u8 sum", r);
  expect("i64 max (100,300) axis=1", reduce(c, RED_MAX, m, axes1(1), 1, false, -1));
  expect("i64 min (100,300) axis=0", reduce(c, RED_MIN, m, axes1(0), 1, false, -1));
  expect("i64 argmax (100,300) axis=1", reduce(c, RED_ARGMAX, m, axes1(1), 1, false, -1));
  expect("i64 argmin (100,300) axis=0", reduce(c, RED_ARGMIN, m, axes1(0), 1, false, -1));
  expect("i64 argmax all T", reduce(c, RED_ARGMAX, mt, ALL_AXES, false, -1));
  expect("i32 cumsum (100,300) axis=0", reduce_cumulative(c, RED_SUM, m32, 0, -1));
  tensor_release(mt);
  tensor_release(m32);
  tensor_release(u8);
  tensor_release(i16);
  tensor_release(i32);
  tensor_release(m);
  tensor_release(xi);
}

static Tensor *from_f64(DType dt, int64_t n, const double *v) {
  Tensor *t = tensor_empty(c, dt, 1, &n);
  for (int64_t i = 0; i < n; i++)
    dtype_set_f64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v[i]);
  return t;
}

static double scalar(Tensor *r) {
  double v = r ? dtype_get_f64(r->dtype, tensor_data(r)) : -12345.0;
  if (r) tensor_release(r);
  return v;
}

static void check_error(Tensor *r, const char *kind, const char *msg) {
  CHECK(r == NULL);
  if (r) tensor_release(r);
  CHECK_STR(ctx.kind, kind);
  CHECK_STR(ctx.msg, msg);
  ctx_clear(c);
}

static void small_cases(void) {
  double nanv[] = { 1, NAN, NAN, 2 }, zeros[] = { 0.0, -0.0 };
  Tensor *a = from_f64(TSR_FLOAT64, 4, nanv);
  CHECK(isnan(scalar(reduce(c, RED_MAX, a, ALL_AXES, false, -1))));
  CHECK(isnan(scalar(reduce(c, RED_MIN, a, ALL_AXES, false, -1))));
  CHECK(scalar(reduce(c, RED_ARGMAX, a, ALL_AXES, false, -1)) == 1);
  CHECK(scalar(reduce(c, RED_ARGMIN, a, ALL_AXES, false, -1)) == 1);
  CHECK(scalar(reduce(c, RED_ALL, a, ALL_AXES, false, -1)) == 1);
  tensor_release(a);
  /* np.max([0.0, -0.0]) is -0.0; np.sum([-0.0]) is 0.0; np.prod([-0.0]) is -0.0 */
  a = from_f64(TSR_FLOAT64, 2, zeros);
  CHECK(signbit(scalar(reduce(c, RED_MAX, a, ALL_AXES, false, -1))));
  int64_t one = 1, st = 1;
  Tensor *neg = tensor_view(a, 1, &one, &st, 1);
  CHECK(!signbit(scalar(reduce(c, RED_SUM, neg, ALL_AXES, false, -1))));
  CHECK(signbit(scalar(reduce(c, RED_PROD, neg, ALL_AXES, false, -1))));
  CHECK(scalar(reduce(c, RED_ANY, neg, ALL_AXES, false, -1)) == 0);
  tensor_release(neg);
  tensor_release(a);

  /* empty reductions */
  int64_t e[2] = { 0, 3 };
  Tensor *z = tensor_zeros(c, TSR_FLOAT64, 2, e);
  check_error(reduce(c, RED_MAX, z, ALL_AXES, false, -1), "ValueError",
              "zero-size array to reduction operation maximum which has no identity");
  check_error(reduce(c, RED_MIN, z, axes1(0), 1, false, -1), "ValueError",
              "zero-size array to reduction operation minimum which has no identity");
  check_error(reduce(c, RED_ARGMAX, z, ALL_AXES, false, -1), "ValueError",
              "attempt to get argmax of an empty sequence");
  check_error(reduce(c, RED_ARGMIN, z, axes1(0), 1, false, -1), "ValueError",
              "attempt to get argmin of an empty sequence");
  Tensor *r = reduce(c, RED_MAX, z, axes1(1), 1, false, -1);
  CHECK(r && r->ndim == 1 && r->shape[0] == 0);
  tensor_release(r);
  r = reduce(c, RED_ARGMAX, z, axes1(1), 1, false, -1);
  CHECK(r && r->ndim == 1 && r->shape[0] == 0 && r->dtype == TSR_INT64);
  tensor_release(r);
  CHECK(scalar(reduce(c, RED_SUM, z, ALL_AXES, false, -1)) == 0);
  CHECK(scalar(reduce(c, RED_PROD, z, ALL_AXES, false, -1)) == 1);
  CHECK(isnan(scalar(reduce(c, RED_MEAN, z, ALL_AXES, false, -1))));
  CHECK(scalar(reduce(c, RED_ALL, z, ALL_AXES, false, -1)) == 1);
  r = reduce(c, RED_MEAN, z, axes1(0), 1, false, -1);
  CHECK(r && r->shape[0] == 3 && isnan(((double *)tensor_data(r))[2]));
  tensor_release(r);

  /* axis errors */
  check_error(reduce(c, RED_SUM, z, axes2(0, -2), 2, false, -1), "ValueError",
              "duplicate value in 'axis'");
  check_error(reduce(c, RED_SUM, z, axes1(2), 1, false, -1), "AxisError (ValueError)",
              "axis 2 is out of bounds for array of dimension 2");
  check_error(reduce(c, RED_ARGMAX, z, axes2(0, 1), 2, false, -1), "TypeError",
              "'tuple' object cannot be interpreted as an integer");
  check_error(reduce_cumulative(c, RED_SUM, z, -3, -1), "AxisError (ValueError)",
              "axis -3 is out of bounds for array of dimension 2");
  tensor_release(z);

  /* dtypes: np.sum(bool) is int64, np.mean(int32, dtype=float32) is float32,
     np.mean(arange(5), dtype=int64) == 2, np.var(ones(3), ddof=5) is nan */
  double b[] = { 1, 0, 1 }, ar[] = { 0, 1, 2, 3, 4 }, ones[] = { 1, 1, 1 };
  Tensor *tb = from_f64(TSR_BOOL, 3, b), *ti = from_f64(TSR_INT64, 5, ar);
  r = reduce(c, RED_SUM, tb, ALL_AXES, false, -1);
  CHECK(r && r->dtype == TSR_INT64 && *(int64_t *)tensor_data(r) == 2);
  tensor_release(r);
  r = reduce(c, RED_MAX, tb, ALL_AXES, false, -1);
  CHECK(r && r->dtype == TSR_BOOL && *(bool *)tensor_data(r));
  tensor_release(r);
  r = reduce(c, RED_MEAN, ti, ALL_AXES, false, TSR_FLOAT32);
  CHECK(r && r->dtype == TSR_FLOAT32 && *(float *)tensor_data(r) == 2.0f);
  tensor_release(r);
  r = reduce(c, RED_MEAN, ti, ALL_AXES, false, TSR_INT64);
  CHECK(r && r->dtype == TSR_INT64 && *(int64_t *)tensor_data(r) == 2);
  tensor_release(r);
  r = reduce_cumulative(c, RED_SUM, tb, INT32_MIN, -1);
  CHECK(r && r->dtype == TSR_INT64 && ((int64_t *)tensor_data(r))[2] == 2);
  tensor_release(r);
  tensor_release(tb);
  tensor_release(ti);
  Tensor *to = from_f64(TSR_FLOAT64, 3, ones);
  CHECK(isnan(scalar(reduce_var(c, to, ALL_AXES, false, 5, false, -1))));
  tensor_release(to);
}

int main(void) {
  ctx_init(c, NULL, NULL);
  float_cases(TSR_FLOAT32, "f32");
  float_cases(TSR_FLOAT64, "f64");
  int_cases();
  CHECK(next_case == (int)(sizeof expected / sizeof expected[0]));
  small_cases();
  CHECK(ctx.mem_used == 0);
  if (ctx.mem_used) fprintf(stderr, "leaked %zu bytes\n", ctx.mem_used);
  return CHECK_DONE("reduce");
}
