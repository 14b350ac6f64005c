/*
** test_linalg.c -- unit tests of src/runtime/linalg.c: matmul and dot against NumPy 1.24 bit
** for bit (same OpenBLAS routines: gemm, syrk, gemv, dot, and NumPy's plain loop for operands
** BLAS cannot take), integer/bool products, promotion, broadcasting and the error texts.
**
** Data: a 32-bit LCG (s = s * 1664525 + 1013904223); floats are ((s >> 24) - 128) * 2**-4:
** 8 significant bits, so every product and partial sum below is exact in float32 and the
** results do not depend on the order a CPU's BLAS kernel adds in.  Expected values are FNV-1a
** 64-bit hashes of the C-order bytes of NumPy's results, printed by
** tests/unit/gen_linalg_hashes.py (Debian's /usr/bin/python3), in table order.  That NumPy and
** tsr add in the same order, where the order shows, is checked on each machine by the golden
** programs' differential pass.
*/
#include <stdlib.h>
#include "runtime/rt.h"
#include "check.h"

typedef struct { const char *name; int64_t size; uint64_t hash; } Expect;
static const Expect expected[] = {
  {"f32 A@B", 1500, 0xe649aea83cbd5d60ULL},
  {"f32 A@A.T", 2500, 0x79b9dcd95d5a8005ULL},
  {"f32 A.T@A", 1600, 0x4bb5644afc3c6423ULL},
  {"f32 A.T@v50", 40, 0x5c361ac824c4c20aULL},
  {"f32 A@v40", 50, 0x4589923e8b80c891ULL},
  {"f32 v50@A", 40, 0x5c361ac824c4c20aULL},
  {"f32 v40@v40", 1, 0xc499f0aafe157a03ULL},
  {"f32 A[:, ::2]@B[::2]", 1500, 0x4fe74dc10d2ccd08ULL},
  {"f32 A[::2]@B", 750, 0x2aaa6354c31989f3ULL},
  {"f32 B.T@A.T", 1500, 0x2b570eb2ade76130ULL},
  {"f32 batch", 240, 0x6ab5e7e5bad5448cULL},
  {"f32 dot(A,B)", 1500, 0xe649aea83cbd5d60ULL},
  {"f32 dot(A[:, ::2],B[::2])", 1500, 0x4fe74dc10d2ccd08ULL},
  {"f32 dot(A,v40)", 50, 0x4589923e8b80c891ULL},
  {"f32 dot(v50,A)", 40, 0x5c361ac824c4c20aULL},
  {"f32 dot 3d", 384, 0x04a2450b92e6d2e3ULL},
  {"f32 dot 3d·1d", 50, 0x4589923e8b80c891ULL},
  {"f32 dot(2.0, v40)", 40, 0xb5a757063c4379f9ULL},
  {"f64 A@B", 1500, 0x0fa5c14bfec481e3ULL},
  {"f64 A@A.T", 2500, 0x2e081a7bac5e96f2ULL},
  {"f64 A.T@A", 1600, 0x114b7876729d967aULL},
  {"f64 A.T@v50", 40, 0x3edb4a00e679057dULL},
  {"f64 A@v40", 50, 0x0c8df0ff6d7802ccULL},
  {"f64 v50@A", 40, 0x3edb4a00e679057dULL},
  {"f64 v40@v40", 1, 0x781163971b3a3c6bULL},
  {"f64 A[:, ::2]@B[::2]", 1500, 0xb19daaf375c8200bULL},
  {"f64 A[::2]@B", 750, 0x281e901fef6670dfULL},
  {"f64 B.T@A.T", 1500, 0x5ef2b73cfde5741fULL},
  {"f64 batch", 240, 0x0071846210f7d3acULL},
  {"f64 dot(A,B)", 1500, 0x0fa5c14bfec481e3ULL},
  {"f64 dot(A[:, ::2],B[::2])", 1500, 0xb19daaf375c8200bULL},
  {"f64 dot(A,v40)", 50, 0x0c8df0ff6d7802ccULL},
  {"f64 dot(v50,A)", 40, 0x3edb4a00e679057dULL},
  {"f64 dot 3d", 384, 0xdfbd9775ceb33f22ULL},
  {"f64 dot 3d·1d", 50, 0x0c8df0ff6d7802ccULL},
  {"f64 dot(2.0, v40)", 40, 0x7245672b546917eaULL},
  {"i64 (20,30)@(30,20)", 400, 0x7bb6327fe41dfdb3ULL},
  {"i8 (20,30)@(30,20)", 400, 0x0bd02beeb5c6c215ULL},
  {"u16 (20,30).T@(20,30)", 900, 0x8bb91fcba547edf7ULL},
  {"bool (20,30)@(30,20)", 400, 0xc59cc183ad4ebb5bULL},
  {"i64 dot 3d", 180, 0xe87a538a9c0c4e5cULL},
  {"f32@i64", 400, 0x86b7deda59ce6ab6ULL},
  {"i32@f32 vec", 20, 0x7072dc35517519ecULL},
};
static int next_case;
static Ctx ctx;
static Ctx *c = &ctx;

static uint64_t fnv(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 0x100000001b3ULL; }
  return h;
}

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
  bool ok = strcmp(e->name, name) == 0 && e->size == tensor_size(r) && e->hash == h;
  if (!ok)
    fprintf(stderr, "case %s (table: %s): size %lld hash %016llx, want %lld %016llx\n", name,
            e->name, (long long)tensor_size(r), (unsigned long long)h, (long long)e->size,
            (unsigned long long)e->hash);
  CHECK(ok);
  tensor_release(cc);
  tensor_release(r);
}

static Tensor *data(DType dt, int64_t n, uint32_t seed) {
  Tensor *t = tensor_empty(c, dt, 1, &n);
  uint32_t s = seed;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    double v = (double)((int64_t)(s >> 24) - 128) * 0x1p-4;
    dtype_set_f64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v);
  }
  return t;
}

/* A view of t (strides in elements, offset relative to t's). */
static Tensor *V(Tensor *t, int nd, const int64_t *shape, const int64_t *strides, int64_t off) {
  return tensor_view(t, nd, shape, strides, t->offset + off);
}
#define SH(...) ((const int64_t[]){ __VA_ARGS__ })

/* Runs expect() on op(a, b) and releases the two operand views. */
static void run(const char *name, bool dot, Tensor *a, Tensor *b) {
  expect(name, dot ? linalg_dot(c, a, b) : linalg_matmul(c, a, b));
  tensor_release(a);
  tensor_release(b);
}

/* op(a, b), releasing the operand views; returns the result. */
static Tensor *op2(bool dot, Tensor *a, Tensor *b) {
  Tensor *r = dot ? linalg_dot(c, a, b) : linalg_matmul(c, a, b);
  tensor_release(a);
  tensor_release(b);
  return r;
}

static void float_cases(DType dt, const char *tag) {
  char name[96];
  Tensor *A = data(dt, 2000, 1), *B = data(dt, 1200, 2), *v40 = data(dt, 40, 3),
         *v50 = data(dt, 50, 4);
#define NAME(s) (snprintf(name, sizeof name, "%s %s", tag, s), name)
#define A2 V(A, 2, SH(50, 40), SH(40, 1), 0)
#define AT V(A, 2, SH(40, 50), SH(1, 40), 0)
#define B2 V(B, 2, SH(40, 30), SH(30, 1), 0)
#define BT V(B, 2, SH(30, 40), SH(1, 30), 0)
#define R(t) tensor_retain(t)
  run(NAME("A@B"), false, A2, B2);
  run(NAME("A@A.T"), false, A2, AT);
  run(NAME("A.T@A"), false, AT, A2);
  run(NAME("A.T@v50"), false, AT, R(v50));
  run(NAME("A@v40"), false, A2, R(v40));
  run(NAME("v50@A"), false, R(v50), A2);
  run(NAME("v40@v40"), false, R(v40), R(v40));
  run(NAME("A[:, ::2]@B[::2]"), false, V(A, 2, SH(50, 20), SH(40, 2), 0),
      V(B, 2, SH(20, 30), SH(60, 1), 0));
  run(NAME("A[::2]@B"), false, V(A, 2, SH(25, 40), SH(80, 1), 0), B2);
  run(NAME("B.T@A.T"), false, BT, AT);
  run(NAME("batch"), false, V(A, 4, SH(4, 1, 5, 40), SH(200, 200, 40, 1), 0),
      V(B, 3, SH(2, 40, 6), SH(6, 30, 1), 0));
  run(NAME("dot(A,B)"), true, A2, B2);
  run(NAME("dot(A[:, ::2],B[::2])"), true, V(A, 2, SH(50, 20), SH(40, 2), 0),
      V(B, 2, SH(20, 30), SH(60, 1), 0));
  run(NAME("dot(A,v40)"), true, A2, R(v40));
  run(NAME("dot(v50,A)"), true, R(v50), A2);
  run(NAME("dot 3d"), true, V(A, 3, SH(2, 8, 40), SH(960, 120, 1), 0),
      V(B, 3, SH(4, 40, 6), SH(6, 30, 1), 0));
  run(NAME("dot 3d·1d"), true, V(A, 3, SH(5, 10, 40), SH(400, 40, 1), 0), R(v40));
  run(NAME("dot(2.0, v40)"), true, tensor_scalar_f64(c, dt, 2.0), R(v40));
#undef NAME
  tensor_release(A);
  tensor_release(B);
  tensor_release(v40);
  tensor_release(v50);
}

static void int_cases(void) {
  int64_t n = 600;
  Tensor *Ai = tensor_empty(c, TSR_INT64, 1, &n);
  uint32_t s = 5;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    ((int64_t *)tensor_data(Ai))[i] = (int64_t)(s >> 24) - 128;
  }
  Tensor *i8 = tensor_astype(c, Ai, TSR_INT8), *u16 = tensor_astype(c, Ai, TSR_UINT16);
  Tensor *bl = tensor_empty(c, TSR_BOOL, 1, &n), *f = data(TSR_FLOAT32, 600, 9);
  Tensor *i32 = tensor_astype(c, Ai, TSR_INT32);
  for (int64_t i = 0; i < n; i++)
    ((bool *)tensor_data(bl))[i] = ((int64_t *)tensor_data(Ai))[i] > 100;
  run("i64 (20,30)@(30,20)", false, V(Ai, 2, SH(20, 30), SH(30, 1), 0),
      V(Ai, 2, SH(30, 20), SH(20, 1), 0));
  run("i8 (20,30)@(30,20)", false, V(i8, 2, SH(20, 30), SH(30, 1), 0),
      V(i8, 2, SH(30, 20), SH(20, 1), 0));
  run("u16 (20,30).T@(20,30)", false, V(u16, 2, SH(30, 20), SH(1, 30), 0),
      V(u16, 2, SH(20, 30), SH(30, 1), 0));
  Tensor *r = op2(false, V(bl, 2, SH(20, 30), SH(30, 1), 0), V(bl, 2, SH(30, 20), SH(20, 1), 0));
  CHECK(r && r->dtype == TSR_BOOL);
  expect("bool (20,30)@(30,20)", r);
  run("i64 dot 3d", true, V(Ai, 3, SH(2, 10, 30), SH(300, 30, 1), 0),
      V(Ai, 3, SH(3, 30, 3), SH(180, 6, 2), 0));
  r = op2(false, V(f, 2, SH(20, 30), SH(30, 1), 0), V(Ai, 2, SH(30, 20), SH(20, 1), 0));
  CHECK(r && r->dtype == TSR_FLOAT64);
  expect("f32@i64", r);
  run("i32@f32 vec", false, V(i32, 1, SH(30), SH(1), 0), V(f, 2, SH(30, 20), SH(20, 1), 0));
  tensor_release(i8); tensor_release(u16); tensor_release(bl); tensor_release(f);
  tensor_release(i32); tensor_release(Ai);
}

static void check_error(Tensor *r, const char *msg) {
  CHECK(r == NULL);
  if (r) tensor_release(r);
  CHECK_STR(ctx.kind, "ValueError");
  CHECK_STR(ctx.msg, msg);
  ctx_clear(c);
}

static void error_cases(void) {
  Tensor *a3 = tensor_zeros(c, TSR_FLOAT64, 1, SH(3)), *a4 = tensor_zeros(c, TSR_FLOAT64, 1, SH(4));
  Tensor *m23 = tensor_zeros(c, TSR_FLOAT64, 2, SH(2, 3)), *m45 = tensor_zeros(c, TSR_FLOAT64, 2, SH(4, 5));
  Tensor *t234 = tensor_zeros(c, TSR_FLOAT64, 3, SH(2, 3, 4));
  Tensor *t345 = tensor_zeros(c, TSR_FLOAT64, 3, SH(3, 4, 5));
  Tensor *t536 = tensor_zeros(c, TSR_FLOAT64, 3, SH(5, 3, 6)), *s = tensor_scalar_f64(c, TSR_FLOAT64, 1);
  const char *sig = "with gufunc signature (n?,k),(k,m?)->(n?,m?)";
  char msg[256];
  snprintf(msg, sizeof msg, "matmul: Input operand 1 has a mismatch in its core dimension 0, "
           "%s (size 4 is different from 3)", sig);
  check_error(linalg_matmul(c, a3, a4), msg);
  check_error(linalg_matmul(c, m23, m45), msg);
  check_error(linalg_matmul(c, t234, t345),
              "operands could not be broadcast together with remapped shapes "
              "[original->remapped]: (2,3,4)->(2,newaxis,newaxis) "
              "(3,4,5)->(3,newaxis,newaxis)  and requested shape (3,5)");
  check_error(linalg_matmul(c, s, a3), "matmul: Input operand 0 does not have enough "
              "dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
  check_error(linalg_matmul(c, a3, s), "matmul: Input operand 1 does not have enough "
              "dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
  check_error(linalg_dot(c, m23, m23), "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)");
  check_error(linalg_dot(c, a3, a4), "shapes (3,) and (4,) not aligned: 3 (dim 0) != 4 (dim 0)");
  check_error(linalg_dot(c, a3, m45), "shapes (3,) and (4,5) not aligned: 3 (dim 0) != 4 (dim 0)");
  check_error(linalg_dot(c, m23, a4), "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)");
  check_error(linalg_dot(c, t234, t536), "shapes (2,3,4) and (5,3,6) not aligned: 4 (dim 2) != 3 (dim 1)");
  /* empty contractions give zeros; (2,3,4) @ (4,) is (2,3) */
  Tensor *e1 = tensor_zeros(c, TSR_FLOAT64, 2, SH(2, 0)), *e2 = tensor_full_f64(c, TSR_FLOAT64, 2, SH(0, 3), 1);
  Tensor *r = linalg_matmul(c, e1, e2);
  CHECK(r && r->ndim == 2 && r->shape[0] == 2 && r->shape[1] == 3 &&
        ((double *)tensor_data(r))[5] == 0);
  tensor_release(r);
  r = linalg_matmul(c, t234, a4);
  CHECK(r && r->ndim == 2 && r->shape[0] == 2 && r->shape[1] == 3);
  tensor_release(r);
  Tensor *rs[] = { a3, a4, m23, m45, t234, t345, t536, s, e1, e2 };
  for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) tensor_release(rs[i]);
}

int main(void) {
  ctx_init(c, NULL, NULL);
  float_cases(TSR_FLOAT32, "f32");
  float_cases(TSR_FLOAT64, "f64");
  int_cases();
  CHECK(next_case == (int)(sizeof expected / sizeof expected[0]));
  error_cases();
  if (ctx.mem_used) fprintf(stderr, "leaked %zu bytes\n", ctx.mem_used);
  CHECK(ctx.mem_used == 0);
  return CHECK_DONE("linalg");
}
