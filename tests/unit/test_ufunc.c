/*
** test_ufunc.c -- unit tests of the ufunc kernels (ufunc.c): arithmetic with Python's floor
** semantics, promotion with weak scalars, comparisons, out= and overlapping operands, unary
** functions, where and clip.  Expected values were produced by NumPy 1.24 (/usr/bin/python3);
** each dump is "shape dtype: elements in C order", or "ERR Kind: message".
*/
#include "runtime/rt.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

static Ctx C;
static char dumpbuf[4096];

/* Describes t (and releases it), or the pending error (and clears it). */
static const char *dump(Tensor *t) {
  Buf b;
  buf_init(&b, &C);
  if (!t) {
    buf_printf(&b, "ERR %s: %s", C.kind, C.msg);
    ctx_clear(&C);
  } else {
    shape_format(&b, t->ndim, t->shape);
    buf_printf(&b, " %s:", dtype_name(t->dtype));
    int64_t n = tensor_size(t), idx[TSR_MAXDIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
      const char *p = tensor_at(t, idx);
      if (dtype_is_float(t->dtype)) {
        double v = dtype_get_f64(t->dtype, p);
        if (isnan(v)) buf_puts(&b, " nan"); else buf_printf(&b, " %.17g", v);
      } else if (t->dtype == TSR_UINT64) {
        buf_printf(&b, " %llu", (unsigned long long)dtype_get_u64(t->dtype, p));
      } else {
        buf_printf(&b, " %lld", (long long)dtype_get_i64(t->dtype, p));
      }
      for (int d = t->ndim - 1; d >= 0; d--) {
        if (++idx[d] < t->shape[d]) break;
        idx[d] = 0;
      }
    }
    tensor_release(t);
  }
  snprintf(dumpbuf, sizeof dumpbuf, "%s", buf_str(&b));
  buf_free(&b);
  return dumpbuf;
}

/* Tensors made for one check are collected and released at the end of it. */
static Tensor *pool[64];
static int npool;
static Tensor *keep(Tensor *t) { pool[npool++] = t; return t; }
static void drain(void) { while (npool) tensor_release(pool[--npool]); }

/* A 1-d tensor of dtype dt from n doubles. */
static Tensor *vec(DType dt, int n, const double *v) {
  int64_t shape[1] = {n};
  Tensor *t = tensor_empty(&C, dt, 1, shape);
  for (int i = 0; i < n; i++) dtype_set_f64(dt, t->storage->data + i * (int64_t)dtype_size(dt), v[i]);
  return keep(t);
}
#define V(dt, ...) vec(dt, sizeof((double[]){__VA_ARGS__}) / sizeof(double), (double[]){__VA_ARGS__})
static Tensor *range(DType dt, int n) {
  double v[64];
  for (int i = 0; i < n; i++) v[i] = i;
  return vec(dt, n, v);
}
static Tensor *wi(int64_t v) { Tensor *t = tensor_scalar_i64(&C, TSR_INT64, v); t->weak = WEAK_INT; return keep(t); }
static Tensor *wf(double v) { Tensor *t = tensor_scalar_f64(&C, TSR_FLOAT64, v); t->weak = WEAK_FLOAT; return keep(t); }
static Tensor *rs(Tensor *t, int64_t a, int64_t b) { int64_t s[2] = {a, b}; return keep(tensor_reshape(&C, t, 2, s)); }
static Tensor *sl(Tensor *t, int64_t start, int64_t stop) {
  IndexItem it = {0};
  it.kind = IDX_SLICE;
  it.has_start = start != INT64_MIN; it.start = start;
  it.has_stop = stop != INT64_MIN; it.stop = stop;
  return keep(index_get(&C, t, &it, 1));
}
#define BIN(op, a, b) dump(ufunc_binary(&C, UF_##op, a, b, NULL))
#define UN(op, a) dump(ufunc_unary(&C, UF_##op, a, NULL))
#define EXPECT(got, want) do { CHECK_STR(got, want); drain(); } while (0)

static void test_arith(void) {
  const double INF = INFINITY;
  EXPECT(BIN(ADD, range(TSR_INT64, 5), range(TSR_INT64, 5)), "(5,) int64: 0 2 4 6 8");
  EXPECT(BIN(MULTIPLY, range(TSR_FLOAT32, 3), wf(2.5)), "(3,) float32: 0 2.5 5");
  EXPECT(BIN(ADD, range(TSR_INT8, 3), wi(200)), "(3,) int16: 200 201 202");
  EXPECT(BIN(SUBTRACT, V(TSR_UINT8, 3), wi(5)), "(1,) uint8: 254");
  /* NumPy 1.24 value-based casting of out-of-range Python ints */
  EXPECT(BIN(BITWISE_XOR, wi(300), range(TSR_INT8, 2)), "(2,) int16: 300 301");
  EXPECT(BIN(ADD, range(TSR_UINT16, 2), wi(-1)), "(2,) int32: -1 0");
  EXPECT(BIN(ADD, range(TSR_UINT8, 2), wi(-300)), "(2,) int16: -300 -299");
  /* ...and the default (first safe loop) resolution of floor_divide, bitwise ops, copysign */
  EXPECT(BIN(FLOOR_DIVIDE, range(TSR_UINT8, 3), wi(300)), "(3,) int16: 0 0 0");
  EXPECT(BIN(BITWISE_AND, range(TSR_UINT8, 3), wi(300)), "(3,) int16: 0 0 0");
  EXPECT(BIN(COPYSIGN, range(TSR_UINT16, 2), wi(-1)), "(2,) float32: -0 -1");
  EXPECT(BIN(MULTIPLY, V(TSR_INT8, 100, -100), V(TSR_INT8, 3, 3)), "(2,) int8: 44 -44");
  EXPECT(BIN(FLOOR_DIVIDE, V(TSR_INT64, -7, 7, -7, 7), V(TSR_INT64, 2, -2, 0, 0)),
         "(4,) int64: -4 -4 0 0");
  EXPECT(BIN(REMAINDER, V(TSR_INT64, -7, 7, -7, 7), V(TSR_INT64, 2, -2, 0, 0)),
         "(4,) int64: 1 -1 0 0");
  EXPECT(BIN(FLOOR_DIVIDE, V(TSR_FLOAT64, -7, 7, -7, 7, 0, 5, -5),
             V(TSR_FLOAT64, 2, -2, 0, 0, 0, INF, INF)),
         "(7,) float64: -4 -4 -inf inf nan 0 -1");
  EXPECT(BIN(REMAINDER, V(TSR_FLOAT64, -7, 7, -7, 7, 0, 5, -5),
             V(TSR_FLOAT64, 2, -2, 0, 0, 0, INF, INF)),
         "(7,) float64: 1 -1 nan nan nan 5 inf");
  EXPECT(BIN(REMAINDER, V(TSR_FLOAT32, -7.5, 7.25), V(TSR_FLOAT32, 2)), "(2,) float32: 0.5 1.25");
  Tensor *mn = keep(tensor_scalar_i64(&C, TSR_INT64, INT64_MIN));
  Tensor *two = V(TSR_INT64, 0, 7);
  CHECK(index_set(&C, two, &(IndexItem){.kind = IDX_INT, .i = 0}, 1, mn) == 0);
  EXPECT(BIN(FLOOR_DIVIDE, two, V(TSR_INT64, -1, -1)), "(2,) int64: -9223372036854775808 -7");
  EXPECT(BIN(POWER, V(TSR_INT64, 2, 3, 0, -2), V(TSR_INT64, 62, 3, 0, 3)),
         "(4,) int64: 4611686018427387904 27 1 -8");
  EXPECT(BIN(POWER, V(TSR_UINT8, 2, 3), V(TSR_UINT8, 9, 5)), "(2,) uint8: 0 243");
  EXPECT(BIN(POWER, range(TSR_INT64, 3), V(TSR_INT64, 1, -1, 2)),
         "ERR ValueError: Integers to negative integer powers are not allowed.");
  EXPECT(BIN(POWER, V(TSR_FLOAT64, 2, 4), wf(0.5)), "(2,) float64: 1.4142135623730951 2");
  EXPECT(BIN(SUBTRACT, V(TSR_BOOL, 1), V(TSR_BOOL, 1)),
         "ERR TypeError: numpy boolean subtract, the `-` operator, is not supported, use the "
         "bitwise_xor, the `^` operator, or the logical_xor function instead.");
  EXPECT(BIN(ADD, V(TSR_BOOL, 1, 0, 0), V(TSR_BOOL, 1, 1, 0)), "(3,) bool: 1 1 0");
  EXPECT(BIN(TRUE_DIVIDE, range(TSR_INT64, 4), wi(2)), "(4,) float64: 0 0.5 1 1.5");
  Tensor *q = keep(ufunc_binary(&C, UF_TRUE_DIVIDE, range(TSR_FLOAT32, 3), wi(4), NULL));
  EXPECT(BIN(ADD, range(TSR_INT32, 3), q), "(3,) float64: 0 1.25 2.5");
  EXPECT(BIN(MAXIMUM, V(TSR_FLOAT64, 1, NAN, 3), V(TSR_FLOAT64, NAN, 2, 1)), "(3,) float64: nan nan 3");
  EXPECT(BIN(FMAX, V(TSR_FLOAT64, 1, NAN, 3), V(TSR_FLOAT64, NAN, 2, 1)), "(3,) float64: 1 2 3");
  EXPECT(BIN(BITWISE_AND, range(TSR_INT64, 3), V(TSR_FLOAT64, 1, 1, 1)),
         "ERR TypeError: ufunc 'bitwise_and' not supported for the input types, and the inputs "
         "could not be safely coerced to any supported types according to the casting rule "
         "''safe''");
  EXPECT(BIN(LEFT_SHIFT, V(TSR_INT8, 1, -1, 3), V(TSR_INT8, 7, 1, 9)), "(3,) int8: -128 -2 0");
  EXPECT(BIN(RIGHT_SHIFT, V(TSR_INT64, -8, 8, -8), V(TSR_INT64, 1, 70, 70)), "(3,) int64: -4 0 -1");
  EXPECT(BIN(ADD, V(TSR_UINT64, 5), wi(-1)), "(1,) float64: 4");
  EXPECT(BIN(MULTIPLY, V(TSR_FLOAT32, 1), wf(1e300)), "(1,) float64: 1.0000000000000001e+300");
  EXPECT(BIN(HYPOT, V(TSR_FLOAT64, 3), wi(4)), "(1,) float64: 5");
  /* NumPy on AVX512 machines uses SVML for arctan2 (not correctly rounded): inputs whose
     results agree with libm */
  EXPECT(BIN(ARCTAN2, keep(tensor_scalar_f64(&C, TSR_FLOAT64, 1)), V(TSR_FLOAT64, 1, -1, 0)),
         "(3,) float64: 0.78539816339744828 2.3561944901923448 1.5707963267948966");
  EXPECT(BIN(ADD, keep(tensor_scalar_i64(&C, TSR_INT64, 3)), keep(tensor_scalar_f64(&C, TSR_FLOAT64, 4.5))),
         "() float64: 7.5");
  EXPECT(BIN(ADD, V(TSR_FLOAT64, 0, 0, 0, 0, 0, 0), V(TSR_FLOAT64, 0, 0, 0, 0)),
         "ERR ValueError: operands could not be broadcast together with shapes (6,) (4,) ");
  EXPECT(BIN(MULTIPLY, rs(range(TSR_INT64, 3), 3, 1), range(TSR_INT64, 4)),
         "(3, 4) int64: 0 0 0 0 0 1 2 3 0 2 4 6");
}

static void test_compare(void) {
  EXPECT(BIN(LESS, V(TSR_UINT8, 3), wi(300)), "(1,) bool: 1");
  EXPECT(BIN(EQUAL, range(TSR_INT64, 4), V(TSR_FLOAT64, 0, 2, 2, 3)), "(4,) bool: 1 0 1 1");
  EXPECT(BIN(LOGICAL_AND, V(TSR_FLOAT64, 0, 1, 2), V(TSR_INT64, 1, 0, 3)), "(3,) bool: 0 0 1");
  EXPECT(BIN(LOGICAL_XOR, V(TSR_FLOAT64, 0, 1, 2), wi(1)), "(3,) bool: 1 0 0");
  /* int64 against uint64 compares exactly (2**53 + 1 vs 2**53; -1 vs 2**64 - 1) */
  Tensor *s = V(TSR_INT64, 0, -1), *u = V(TSR_UINT64, 9007199254740992.0, 0);
  ((int64_t *)tensor_data(s))[0] = 9007199254740993LL;
  ((uint64_t *)tensor_data(u))[1] = UINT64_MAX;
  EXPECT(BIN(GREATER, s, u), "(2,) bool: 1 0");
  s = V(TSR_INT64, 0, -1); u = V(TSR_UINT64, 9007199254740992.0, 0);
  ((int64_t *)tensor_data(s))[0] = 9007199254740993LL;
  ((uint64_t *)tensor_data(u))[1] = UINT64_MAX;
  EXPECT(BIN(LESS_EQUAL, u, s), "(2,) bool: 1 0");
}

static void test_out(void) {
  /* a = arange(5); a[1:] += a[:-1] */
  Tensor *a = range(TSR_INT64, 5);
  Tensor *tl = sl(a, 1, INT64_MIN), *hd = sl(a, INT64_MIN, -1);
  Tensor *r = ufunc_binary(&C, UF_ADD, tl, hd, tl);
  tensor_release(r);
  EXPECT(dump(tensor_retain(a)), "(5,) int64: 0 1 3 5 7");
  /* a = arange(6.).reshape(2,3); a += a.T.reshape(2,3) */
  a = rs(range(TSR_FLOAT64, 6), 2, 3);
  Tensor *at = keep(tensor_transpose(&C, a, NULL));
  r = ufunc_binary(&C, UF_ADD, a, rs(at, 2, 3), a);
  tensor_release(r);
  EXPECT(dump(tensor_retain(a)), "(2, 3) float64: 0 4 3 7 6 10");
  /* add(a[:-1], 10, out=a[1:]) */
  a = range(TSR_INT64, 5);
  Tensor *head = sl(a, INT64_MIN, -1), *tail = sl(a, 1, INT64_MIN);
  r = ufunc_binary(&C, UF_ADD, head, wi(10), tail);
  CHECK(r == tail);
  tensor_release(r);
  EXPECT(dump(tensor_retain(a)), "(5,) int64: 0 10 11 12 13");
  int64_t s3[1] = {3}, s23[2] = {2, 3};
  EXPECT(dump(ufunc_binary(&C, UF_ADD, V(TSR_FLOAT64, 1, 1, 1), wi(1),
                           keep(tensor_zeros(&C, TSR_INT64, 1, s3)))),
         "ERR _UFuncOutputCastingError (TypeError): Cannot cast ufunc 'add' output from "
         "dtype('float64') to dtype('int64') with casting rule 'same_kind'");
  Tensor *o = keep(tensor_zeros(&C, TSR_FLOAT64, 1, s3));
  tensor_release(ufunc_binary(&C, UF_ADD, range(TSR_INT64, 3), wi(1), o));
  EXPECT(dump(tensor_retain(o)), "(3,) float64: 1 2 3");
  o = keep(tensor_zeros(&C, TSR_FLOAT64, 2, s23));
  tensor_release(ufunc_binary(&C, UF_ADD, range(TSR_INT64, 3), wi(1), o));
  EXPECT(dump(tensor_retain(o)), "(2, 3) float64: 1 2 3 1 2 3");
  EXPECT(dump(ufunc_binary(&C, UF_ADD, keep(tensor_zeros(&C, TSR_FLOAT64, 2, s23)),
                           keep(tensor_zeros(&C, TSR_FLOAT64, 1, s3)),
                           keep(tensor_zeros(&C, TSR_FLOAT64, 1, s3)))),
         "ERR ValueError: non-broadcastable output operand with shape (3,) doesn't match the "
         "broadcast shape (2,3)");
}

static void test_unary(void) {
  EXPECT(UN(SQRT, range(TSR_INT64, 4)), "(4,) float64: 0 1 1.4142135623730951 1.7320508075688772");
  EXPECT(UN(SQRT, range(TSR_FLOAT32, 4)), "(4,) float32: 0 1 1.4142135381698608 1.7320507764816284");
  EXPECT(UN(NEGATIVE, V(TSR_BOOL, 1)),
         "ERR TypeError: The numpy boolean negative, the `-` operator, is not supported, use the "
         "`~` operator or the logical_not function instead.");
  EXPECT(UN(ABSOLUTE, V(TSR_INT8, -128, -3, 4)), "(3,) int8: -128 3 4");
  EXPECT(UN(SIGN, V(TSR_FLOAT64, -2, 0, -0.0, 3, NAN)), "(5,) float64: -1 0 0 1 nan");
  EXPECT(UN(ISNAN, V(TSR_FLOAT64, 1, NAN, INFINITY)), "(3,) bool: 0 1 0");
  EXPECT(UN(ISFINITE, range(TSR_INT64, 2)), "(2,) bool: 1 1");
  EXPECT(UN(FLOOR, range(TSR_INT64, 3)), "(3,) float64: 0 1 2");
  EXPECT(UN(RECIPROCAL, V(TSR_INT64, 0, 2, -1, 1)), "(4,) int64: -9223372036854775808 0 -1 1");
  EXPECT(UN(INVERT, V(TSR_FLOAT64, 1, 1, 1)),
         "ERR TypeError: ufunc 'invert' not supported for the input types, and the inputs could "
         "not be safely coerced to any supported types according to the casting rule ''safe''");
  EXPECT(UN(INVERT, range(TSR_INT64, 3)), "(3,) int64: -1 -2 -3");
  EXPECT(UN(INVERT, V(TSR_BOOL, 1, 0)), "(2,) bool: 0 1");
  EXPECT(UN(SIGN, V(TSR_BOOL, 1)),
         "ERR _UFuncNoLoopError (TypeError): ufunc 'sign' did not contain a loop with signature "
         "matching types <class 'numpy.dtype[bool_]'> -> None");
  /* float64 only: NumPy 1.24's SIMD float32 exp is not correctly rounded (exp(float32(1)) is
     2.7182819843292236 there, 2.7182817459106445 with libm) */
  EXPECT(UN(EXP, V(TSR_FLOAT64, 0.5, 1)), "(2,) float64: 1.6487212707001282 2.7182818284590451");
  EXPECT(UN(SQUARE, V(TSR_BOOL, 1, 0)), "(2,) int8: 1 0");
}

static void test_where_clip(void) {
  EXPECT(dump(ufunc_where(&C, V(TSR_BOOL, 1, 0), wi(1), wf(2.5))), "(2,) float64: 1 2.5");
  Tensor *cond = rs(V(TSR_BOOL, 1, 0), 2, 1);
  EXPECT(dump(ufunc_where(&C, cond, V(TSR_INT8, 1, 2), wi(7))), "(2, 2) int8: 1 2 7 7");
  EXPECT(dump(ufunc_clip(&C, range(TSR_INT64, 5), wi(1), wf(3.5))), "(5,) float64: 1 1 2 3 3.5");
  EXPECT(dump(ufunc_clip(&C, range(TSR_FLOAT32, 5), wi(2), NULL)), "(5,) float32: 2 2 2 3 4");
  EXPECT(dump(ufunc_clip(&C, range(TSR_FLOAT32, 5), NULL, NULL)),
         "ERR ValueError: One of max or min must be given");
}

/* Every loop of every dtype against a scalar formula over strided, broadcast and contiguous
   operands: the fast paths must agree with the strided one. */
static void test_paths(void) {
  for (int dt = 0; dt < DTYPE_COUNT; dt++) {
    for (int op = 0; op < UF_BINARY_COUNT; op++) {
      if (op == UF_POWER || op == UF_LEFT_SHIFT || op == UF_RIGHT_SHIFT) continue;
      Tensor *a = range((DType)dt, 40), *b = range((DType)dt, 40);
      Tensor *one = keep(tensor_scalar_i64(&C, (DType)dt, 1));
      Tensor *b1 = keep(ufunc_binary(&C, UF_MAXIMUM, b, one, NULL));
      Tensor *full = keep(ufunc_binary(&C, (BinaryUfunc)op, a, b1, NULL));
      if (!full) { ctx_clear(&C); drain(); continue; }
      /* strided: every other element, via a reversed view reversed again */
      IndexItem st = {.kind = IDX_SLICE, .has_step = true, .step = -1};
      Tensor *ar = keep(index_get(&C, keep(index_get(&C, a, &st, 1)), &st, 1));
      Tensor *r2 = keep(ufunc_binary(&C, (BinaryUfunc)op, ar, b1, NULL));
      Tensor *eq = keep(ufunc_binary(&C, UF_EQUAL, full, r2, NULL));
      bool ok = true;
      for (int i = 0; i < 40; i++) {
        bool e = ((bool *)tensor_data(eq))[i];
        double v = dtype_get_f64(full->dtype, tensor_data(full) + i * (int64_t)dtype_size(full->dtype));
        if (!e && !isnan(v)) ok = false;
      }
      if (!ok) fprintf(stderr, "path mismatch: %s %s\n", binary_ufunc_names[op], dtype_name((DType)dt));
      CHECK(ok);
      drain();
    }
  }
}

/* Allocation failure at every point of a few composite operations: each either succeeds or
   fails with MemoryError, and nothing leaks. */
static void test_alloc_failures(void) {
  int64_t s2[2] = {30, 40};
  Tensor *a = tensor_full_f64(&C, TSR_INT32, 2, s2, 3), *b = tensor_full_f64(&C, TSR_FLOAT32, 2, s2, 2);
  Tensor *idx = V(TSR_INT64, 0, 2, -1), *half = wf(0.5), *bt = keep(tensor_transpose(&C, b, NULL));
  npool = 0;   /* held to the end of the test */
  size_t base = C.mem_used;
  int failures = 0, successes = 0;
  for (size_t extra = 0; extra < 40000; extra += 97) {
    C.mem_max = base + extra;
    Tensor *at = tensor_transpose(&C, a, NULL);
    Tensor *r1 = at ? ufunc_binary(&C, UF_MULTIPLY, at, half, NULL) : NULL;
    Tensor *r2 = r1 ? ufunc_binary(&C, UF_ADD, r1, bt, NULL) : NULL;
    IndexItem it[2] = {{.kind = IDX_ARRAY, .array = idx}, {.kind = IDX_SLICE, .has_step = true, .step = -2}};
    Tensor *r3 = r2 ? index_get(&C, r2, it, 2) : NULL;
    int rc = r3 ? index_set(&C, r2, it, 2, r3) : -1;
    if (rc == 0) successes++;
    else { CHECK(C.status == TSR_ERR_MEMORY); failures++; }
    ctx_clear(&C);
    tensor_release(r3); tensor_release(r2); tensor_release(r1); tensor_release(at);
    C.mem_max = 0;
    CHECK(C.mem_used == base);
  }
  CHECK(failures > 10 && successes > 10);
  tensor_release(idx); tensor_release(half); tensor_release(bt);
  tensor_release(a);
  tensor_release(b);
}

int main(void) {
  ctx_init(&C, NULL, NULL);
  test_arith();
  test_compare();
  test_out();
  test_unary();
  test_where_clip();
  test_paths();
  test_alloc_failures();
  CHECK(C.mem_used == 0);
  if (C.mem_used) fprintf(stderr, "leaked %zu bytes\n", C.mem_used);
  return CHECK_DONE("ufunc");
}
