/*
** test_fmt.c -- unit tests of fmt.c: str/repr of tensors and scalars byte for byte against
** NumPy 1.24.  Every expected string below was produced by /usr/bin/python3 with NumPy 1.24
** from the expression in the comment above it (under np.printoptions with the options named
** there); str is checked first, then repr.  Arrays are rebuilt here from their exact values
** (or, for big ones, from the same arange formula), and random ones come from
** np.random.RandomState(0).
*/
#include "check.h"
#include "runtime/rt.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static Ctx ctx;

static Tensor *mk_empty(DType dt, int ndim, const int64_t *shape) {
  Tensor *t = tensor_empty(&ctx, dt, ndim, shape);
  if (!t) { fprintf(stderr, "tensor_empty failed: %s\n", ctx.msg); exit(2); }
  return t;
}

/* A C-contiguous tensor filled from doubles / int64s / uint64s in C order. */
static Tensor *mk_f(DType dt, int ndim, const int64_t *shape, const double *v) {
  Tensor *t = mk_empty(dt, ndim, shape);
  int64_t n = tensor_size(t);
  for (int64_t i = 0; i < n; i++) dtype_set_f64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v[i]);
  return t;
}
static Tensor *mk_i(DType dt, int ndim, const int64_t *shape, const int64_t *v) {
  Tensor *t = mk_empty(dt, ndim, shape);
  int64_t n = tensor_size(t);
  for (int64_t i = 0; i < n; i++) dtype_set_i64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v[i]);
  return t;
}
static Tensor *mk_u(DType dt, int ndim, const int64_t *shape, const uint64_t *v) {
  Tensor *t = mk_empty(dt, ndim, shape);
  int64_t n = tensor_size(t);
  for (int64_t i = 0; i < n; i++) dtype_set_u64(dt, tensor_data(t) + i * (int64_t)dtype_size(dt), v[i]);
  return t;
}
/* ((arange(n) * step + start) / div).astype(dt).reshape(shape), computed in float64. */
static Tensor *mk_range(DType dt, int ndim, const int64_t *shape, double start, double step,
                        double div) {
  Tensor *t = mk_empty(dt, ndim, shape);
  int64_t n = tensor_size(t);
  for (int64_t i = 0; i < n; i++) {
    double x = ((double)i * step + start) / div;
    char *p = tensor_data(t) + i * (int64_t)dtype_size(dt);
    if (dt == TSR_BOOL) dtype_set_i64(dt, p, x != 0);
    else dtype_set_f64(dt, p, x);
  }
  return t;
}
/* x.T: reverse the axes in place. */
static void view_T(Tensor *t) {
  for (int i = 0, j = t->ndim - 1; i < j; i++, j--) {
    int64_t s = t->shape[i]; t->shape[i] = t->shape[j]; t->shape[j] = s;
    s = t->strides[i]; t->strides[i] = t->strides[j]; t->strides[j] = s;
  }
}
/* x[::step] of a 1-d tensor, in place. */
static void view_step(Tensor *t, int64_t step) {
  int64_t n = t->shape[0];
  if (step < 0) { t->offset += (n - 1) * t->strides[0]; n = (n + (-step) - 1) / (-step); }
  else n = (n + step - 1) / step;
  t->shape[0] = n;
  t->strides[0] *= step;
}

static void check_fmt_at(const char *file, int line, Tensor *t, const PrintOptions *po,
                         const char *want_str, const char *want_repr) {
  Buf b;
  buf_init(&b, &ctx);
  fmt_str(&b, t, po);
  if (strcmp(buf_str(&b), want_str) == 0) check_passed++;
  else { check_failed++; fprintf(stderr, "%s:%d: str got\n%s\nwant\n%s\n", file, line, buf_str(&b), want_str); }
  buf_free(&b);
  buf_init(&b, &ctx);
  fmt_repr(&b, t, po);
  if (strcmp(buf_str(&b), want_repr) == 0) check_passed++;
  else { check_failed++; fprintf(stderr, "%s:%d: repr got\n%s\nwant\n%s\n", file, line, buf_str(&b), want_repr); }
  buf_free(&b);
  tensor_release(t);
}
#define check_fmt(t, po, s, r) check_fmt_at(__FILE__, __LINE__, (t), (po), (s), (r))

static void check_pyfloat(double v, const char *want) {
  Buf b;
  buf_init(&b, &ctx);
  fmt_pyfloat(&b, v);
  CHECK_STR(buf_str(&b), want);
  buf_free(&b);
}

static void check_dtype(DType dt, const char *want) {
  Buf b;
  buf_init(&b, &ctx);
  fmt_dtype_repr(&b, dt);
  CHECK_STR(buf_str(&b), want);
  buf_free(&b);
}

/* NumPy-derived cases (all dtypes, 0-d..4-d, empty, wrapping, summarisation, options). */
static void test_numpy_cases(void) {
  PrintOptions defaults, po;
  Tensor *t;
  printoptions_default(&defaults);
  /* np.float64(1.5) */
  { static const int64_t sh[] = {0}; static const double v[] = {1.5};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1.5",
      "1.5");
  /* np.float64(0.1) */
  { static const int64_t sh[] = {0}; static const double v[] = {0.1};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "0.1",
      "0.1");
  /* np.float64(1e-5) */
  { static const int64_t sh[] = {0}; static const double v[] = {1e-05};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1e-05",
      "1e-05");
  /* np.float64(1e16) */
  { static const int64_t sh[] = {0}; static const double v[] = {1e+16};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1e+16",
      "1e+16");
  /* np.float64(1e15) */
  { static const int64_t sh[] = {0}; static const double v[] = {1000000000000000.0};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1000000000000000.0",
      "1000000000000000.0");
  /* np.float64(-0.0) */
  { static const int64_t sh[] = {0}; static const double v[] = {-0.0};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "-0.0",
      "-0.0");
  /* np.float64(np.nan) */
  { static const int64_t sh[] = {0}; static const double v[] = {NAN};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "nan",
      "nan");
  /* np.float64(-np.inf) */
  { static const int64_t sh[] = {0}; static const double v[] = {-INFINITY};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "-inf",
      "-inf");
  /* np.float64(123456789.0) */
  { static const int64_t sh[] = {0}; static const double v[] = {123456789.0};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "123456789.0",
      "123456789.0");
  /* np.float64(0.0001) */
  { static const int64_t sh[] = {0}; static const double v[] = {0.0001};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "0.0001",
      "0.0001");
  /* np.float64(2.5e-300) */
  { static const int64_t sh[] = {0}; static const double v[] = {2.5e-300};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "2.5e-300",
      "2.5e-300");
  /* np.float64(1/3) */
  { static const int64_t sh[] = {0}; static const double v[] = {0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "0.3333333333333333",
      "0.3333333333333333");
  /* np.float64(100.0) */
  { static const int64_t sh[] = {0}; static const double v[] = {100.0};
      t = mk_f(TSR_FLOAT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "100.0",
      "100.0");
  /* np.float32(0.1) */
  { static const int64_t sh[] = {0}; static const double v[] = {0.10000000149011612};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "0.1",
      "0.1");
  /* np.float32(1/3) */
  { static const int64_t sh[] = {0}; static const double v[] = {0.3333333432674408};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "0.33333334",
      "0.33333334");
  /* np.float32(1e-4) */
  { static const int64_t sh[] = {0}; static const double v[] = {9.999999747378752e-05};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1e-04",
      "1e-04");
  /* np.float32(1e-5) */
  { static const int64_t sh[] = {0}; static const double v[] = {9.999999747378752e-06};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1e-05",
      "1e-05");
  /* np.float32(16777216.0) */
  { static const int64_t sh[] = {0}; static const double v[] = {16777216.0};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "16777216.0",
      "16777216.0");
  /* np.float32(1.5e10) */
  { static const int64_t sh[] = {0}; static const double v[] = {15000000512.0};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "15000000000.0",
      "15000000000.0");
  /* np.float32(3.4e38) */
  { static const int64_t sh[] = {0}; static const double v[] = {3.3999999521443642e+38};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "3.4e+38",
      "3.4e+38");
  /* np.float32(1e16) */
  { static const int64_t sh[] = {0}; static const double v[] = {1.0000000272564224e+16};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "1e+16",
      "1e+16");
  /* np.float32(-2.5) */
  { static const int64_t sh[] = {0}; static const double v[] = {-2.5};
      t = mk_f(TSR_FLOAT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "-2.5",
      "-2.5");
  /* np.int64(15) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {15LL};
      t = mk_i(TSR_INT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "15",
      "15");
  /* np.int64(-2**63) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {INT64_MIN};
      t = mk_i(TSR_INT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "-9223372036854775808",
      "-9223372036854775808");
  /* np.int8(-5) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {-5LL};
      t = mk_i(TSR_INT8, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "-5",
      "-5");
  /* np.uint64(2**64-1) */
  { static const int64_t sh[] = {0}; static const uint64_t v[] = {18446744073709551615ULL};
      t = mk_u(TSR_UINT64, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "18446744073709551615",
      "18446744073709551615");
  /* np.uint8(200) */
  { static const int64_t sh[] = {0}; static const uint64_t v[] = {200ULL};
      t = mk_u(TSR_UINT8, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "200",
      "200");
  /* np.bool_(True) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {1LL};
      t = mk_i(TSR_BOOL, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "True",
      "True");
  /* np.bool_(False) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {0LL};
      t = mk_i(TSR_BOOL, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "False",
      "False");
  /* np.int32(7) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {7LL};
      t = mk_i(TSR_INT32, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "7",
      "7");
  /* np.uint16(65535) */
  { static const int64_t sh[] = {0}; static const uint64_t v[] = {65535ULL};
      t = mk_u(TSR_UINT16, 0, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "65535",
      "65535");
  /* np.array([1.5, 2.25]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.5, 2.25};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.5  2.25]",
      "array([1.5 , 2.25])");
  /* np.array([0., 1.5]) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.0, 1.5};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.  1.5]",
      "array([0. , 1.5])");
  /* np.arange(10.) */
  { static const int64_t sh[] = {10}; static const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0. 1. 2. 3. 4. 5. 6. 7. 8. 9.]",
      "array([0., 1., 2., 3., 4., 5., 6., 7., 8., 9.])");
  /* np.array([0.1, 0.2, 0.3]) */
  { static const int64_t sh[] = {3}; static const double v[] = {0.1, 0.2, 0.3};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.1 0.2 0.3]",
      "array([0.1, 0.2, 0.3])");
  /* np.array([1/3, 2/3, -1/7]) */
  { static const int64_t sh[] = {3}; static const double v[] = {0.3333333333333333, 0.6666666666666666, -0.14285714285714285};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0.33333333  0.66666667 -0.14285714]",
      "array([ 0.33333333,  0.66666667, -0.14285714])");
  /* np.array([1., 2., 3.]) */
  { static const int64_t sh[] = {3}; static const double v[] = {1.0, 2.0, 3.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1. 2. 3.]",
      "array([1., 2., 3.])");
  /* np.array([1, 2, 3]) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {1LL, 2LL, 3LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3])");
  /* np.array([-1, 200, 3]) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {-1LL, 200LL, 3LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ -1 200   3]",
      "array([ -1, 200,   3])");
  /* np.array([True, False, True]) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {1LL, 0LL, 1LL};
      t = mk_i(TSR_BOOL, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ True False  True]",
      "array([ True, False,  True])");
  /* np.array([1, 2, 3], dtype=np.int8) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {1LL, 2LL, 3LL};
      t = mk_i(TSR_INT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=int8)");
  /* np.array([1, 2, 3], dtype=np.int16) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {1LL, 2LL, 3LL};
      t = mk_i(TSR_INT16, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=int16)");
  /* np.array([1, 2, 3], dtype=np.int32) */
  { static const int64_t sh[] = {3}; static const int64_t v[] = {1LL, 2LL, 3LL};
      t = mk_i(TSR_INT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=int32)");
  /* np.array([1, 2, 3], dtype=np.uint8) */
  { static const int64_t sh[] = {3}; static const uint64_t v[] = {1ULL, 2ULL, 3ULL};
      t = mk_u(TSR_UINT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=uint8)");
  /* np.array([1, 2, 3], dtype=np.uint16) */
  { static const int64_t sh[] = {3}; static const uint64_t v[] = {1ULL, 2ULL, 3ULL};
      t = mk_u(TSR_UINT16, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=uint16)");
  /* np.array([1, 2, 3], dtype=np.uint32) */
  { static const int64_t sh[] = {3}; static const uint64_t v[] = {1ULL, 2ULL, 3ULL};
      t = mk_u(TSR_UINT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=uint32)");
  /* np.array([1, 2, 3], dtype=np.uint64) */
  { static const int64_t sh[] = {3}; static const uint64_t v[] = {1ULL, 2ULL, 3ULL};
      t = mk_u(TSR_UINT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1 2 3]",
      "array([1, 2, 3], dtype=uint64)");
  /* np.array([1, 2, 3], dtype=np.float32) */
  { static const int64_t sh[] = {3}; static const double v[] = {1.0, 2.0, 3.0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1. 2. 3.]",
      "array([1., 2., 3.], dtype=float32)");
  /* np.array([-128, 127], dtype=np.int8) */
  { static const int64_t sh[] = {2}; static const int64_t v[] = {-128LL, 127LL};
      t = mk_i(TSR_INT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-128  127]",
      "array([-128,  127], dtype=int8)");
  /* np.array([1.5, -2.0], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.5, -2.0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 1.5 -2. ]",
      "array([ 1.5, -2. ], dtype=float32)");
  /* np.array([0.1, 1/3, 2/3], dtype=np.float32) */
  { static const int64_t sh[] = {3}; static const double v[] = {0.10000000149011612, 0.3333333432674408, 0.6666666865348816};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.1        0.33333334 0.6666667 ]",
      "array([0.1       , 0.33333334, 0.6666667 ], dtype=float32)");
  /* np.array([0.1, 1.2345678e-5], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.10000000149011612, 1.2345678442216013e-05};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.0000000e-01 1.2345678e-05]",
      "array([1.0000000e-01, 1.2345678e-05], dtype=float32)");
  /* np.array([1e-4, 1], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {9.999999747378752e-05, 1.0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e-04 1.e+00]",
      "array([1.e-04, 1.e+00], dtype=float32)");
  /* np.array([1.5118216, 1511.8217], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.5118216276168823, 1511.8216552734375};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[   1.5118216 1511.8217   ]",
      "array([   1.5118216, 1511.8217   ], dtype=float32)");
  /* np.array([2**64-1, 0], dtype=np.uint64) */
  { static const int64_t sh[] = {2}; static const uint64_t v[] = {18446744073709551615ULL, 0ULL};
      t = mk_u(TSR_UINT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[18446744073709551615                    0]",
      "array([18446744073709551615,                    0], dtype=uint64)");
  /* np.array([2**63+5, 1], dtype=np.uint64) */
  { static const int64_t sh[] = {2}; static const uint64_t v[] = {9223372036854775813ULL, 1ULL};
      t = mk_u(TSR_UINT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[9223372036854775813                   1]",
      "array([9223372036854775813,                   1], dtype=uint64)");
  /* np.array([-2**63, 2**63-1]) */
  { static const int64_t sh[] = {2}; static const int64_t v[] = {INT64_MIN, 9223372036854775807LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-9223372036854775808  9223372036854775807]",
      "array([-9223372036854775808,  9223372036854775807])");
  /* np.array([1, -1234567890123]) */
  { static const int64_t sh[] = {2}; static const int64_t v[] = {1LL, -1234567890123LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[             1 -1234567890123]",
      "array([             1, -1234567890123])");
  /* np.array([True]) */
  { static const int64_t sh[] = {1}; static const int64_t v[] = {1LL};
      t = mk_i(TSR_BOOL, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ True]",
      "array([ True])");
  /* np.array([False, False]) */
  { static const int64_t sh[] = {2}; static const int64_t v[] = {0LL, 0LL};
      t = mk_i(TSR_BOOL, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[False False]",
      "array([False, False])");
  /* np.array([5]) */
  { static const int64_t sh[] = {1}; static const int64_t v[] = {5LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[5]",
      "array([5])");
  /* np.array([2.5]) */
  { static const int64_t sh[] = {1}; static const double v[] = {2.5};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[2.5]",
      "array([2.5])");
  /* np.array([1e-5, 1.0]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e-05 1.e+00]",
      "array([1.e-05, 1.e+00])");
  /* np.array([1e10, 1.]) */
  { static const int64_t sh[] = {2}; static const double v[] = {10000000000.0, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e+10 1.e+00]",
      "array([1.e+10, 1.e+00])");
  /* np.array([1., 1001.]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.0, 1001.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.000e+00 1.001e+03]",
      "array([1.000e+00, 1.001e+03])");
  /* np.array([1., 1000.]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.0, 1000.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[   1. 1000.]",
      "array([   1., 1000.])");
  /* np.array([1e-5, 1e100]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 1e+100};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e-005 1.e+100]",
      "array([1.e-005, 1.e+100])");
  /* np.array([1e8, 1.]) */
  { static const int64_t sh[] = {2}; static const double v[] = {100000000.0, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e+08 1.e+00]",
      "array([1.e+08, 1.e+00])");
  /* np.array([99999999., 1.]) */
  { static const int64_t sh[] = {2}; static const double v[] = {99999999.0, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[9.9999999e+07 1.0000000e+00]",
      "array([9.9999999e+07, 1.0000000e+00])");
  /* np.array([123456789.0]) */
  { static const int64_t sh[] = {1}; static const double v[] = {123456789.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.23456789e+08]",
      "array([1.23456789e+08])");
  /* np.array([0.0001, 0.001]) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.0001, 0.001};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.0001 0.001 ]",
      "array([0.0001, 0.001 ])");
  /* np.array([0.00012345, 0.5]) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.00012345, 0.5};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.2345e-04 5.0000e-01]",
      "array([1.2345e-04, 5.0000e-01])");
  /* np.array([np.nan, np.inf, -np.inf, 1.0]) */
  { static const int64_t sh[] = {4}; static const double v[] = {NAN, INFINITY, -INFINITY, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ nan  inf -inf   1.]",
      "array([ nan,  inf, -inf,   1.])");
  /* np.array([np.nan]) */
  { static const int64_t sh[] = {1}; static const double v[] = {NAN};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[nan]",
      "array([nan])");
  /* np.array([np.nan, np.inf]) */
  { static const int64_t sh[] = {2}; static const double v[] = {NAN, INFINITY};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[nan inf]",
      "array([nan, inf])");
  /* np.array([np.nan, -np.inf, 1e-10]) */
  { static const int64_t sh[] = {3}; static const double v[] = {NAN, -INFINITY, 1e-10};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[   nan   -inf 1.e-10]",
      "array([   nan,   -inf, 1.e-10])");
  /* np.array([1.5, np.nan, 1e-7]) */
  { static const int64_t sh[] = {3}; static const double v[] = {1.5, NAN, 1e-07};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.5e+00     nan 1.0e-07]",
      "array([1.5e+00,     nan, 1.0e-07])");
  /* np.array([-0.0, 1.0]) */
  { static const int64_t sh[] = {2}; static const double v[] = {-0.0, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-0.  1.]",
      "array([-0.,  1.])");
  /* np.array([-0.0]) */
  { static const int64_t sh[] = {1}; static const double v[] = {-0.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-0.]",
      "array([-0.])");
  /* np.array([0.0, 0.0]) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.0, 0.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0. 0.]",
      "array([0., 0.])");
  /* np.array([-1e-5, 3.0, -2e7]) */
  { static const int64_t sh[] = {3}; static const double v[] = {-1e-05, 3.0, -20000000.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-1.e-05  3.e+00 -2.e+07]",
      "array([-1.e-05,  3.e+00, -2.e+07])");
  /* np.array([1e300, -1e-300]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1e+300, -1e-300};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 1.e+300 -1.e-300]",
      "array([ 1.e+300, -1.e-300])");
  /* np.array([5e-324, 1.0]) */
  { static const int64_t sh[] = {2}; static const double v[] = {5e-324, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[5.e-324 1.e+000]",
      "array([5.e-324, 1.e+000])");
  /* np.array([1.7976931348623157e308]) */
  { static const int64_t sh[] = {1}; static const double v[] = {1.7976931348623157e+308};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.79769313e+308]",
      "array([1.79769313e+308])");
  /* np.array([0.1 + 0.2, 1.0]) */
  { static const int64_t sh[] = {2}; static const double v[] = {0.30000000000000004, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.3 1. ]",
      "array([0.3, 1. ])");
  /* np.array([1.99999999999, 0.5]) */
  { static const int64_t sh[] = {2}; static const double v[] = {1.99999999999, 0.5};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[2.  0.5]",
      "array([2. , 0.5])");
  /* np.array([0.125, 0.375, 2.5]) */
  { static const int64_t sh[] = {3}; static const double v[] = {0.125, 0.375, 2.5};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.125 0.375 2.5  ]",
      "array([0.125, 0.375, 2.5  ])");
  /* np.array([1e-9, 1e-8], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {9.999999717180685e-10, 9.99999993922529e-09};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.e-09 1.e-08]",
      "array([1.e-09, 1.e-08], dtype=float32)");
  /* np.array([3e38, -1e-38], dtype=np.float32) */
  { static const int64_t sh[] = {2}; static const double v[] = {3.0000000054977558e+38, -9.999999350456404e-39};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 3.e+38 -1.e-38]",
      "array([ 3.e+38, -1.e-38], dtype=float32)");
  /* np.array([1.0, 1e7, 12345.678]) */
  { static const int64_t sh[] = {3}; static const double v[] = {1.0, 10000000.0, 12345.678};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[1.0000000e+00 1.0000000e+07 1.2345678e+04]",
      "array([1.0000000e+00, 1.0000000e+07, 1.2345678e+04])");
  /* np.array([-np.inf, 2.5, -1.25]) */
  { static const int64_t sh[] = {3}; static const double v[] = {-INFINITY, 2.5, -1.25};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ -inf  2.5  -1.25]",
      "array([ -inf,  2.5 , -1.25])");
  /* np.arange(6).reshape(2, 3) */
  { static const int64_t sh[] = {2, 3}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[0 1 2]\n"
      " [3 4 5]]",
      "array([[0, 1, 2],\n"
      "       [3, 4, 5]])");
  /* np.arange(6.).reshape(2, 3) / 7 */
  { static const int64_t sh[] = {2, 3}; static const double v[] = {0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.5714285714285714, 0.7142857142857143};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[0.         0.14285714 0.28571429]\n"
      " [0.42857143 0.57142857 0.71428571]]",
      "array([[0.        , 0.14285714, 0.28571429],\n"
      "       [0.42857143, 0.57142857, 0.71428571]])");
  /* np.arange(24).reshape(2, 3, 4) */
  { static const int64_t sh[] = {2, 3, 4}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL, 23LL};
      t = mk_i(TSR_INT64, 3, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[ 0  1  2  3]\n"
      "  [ 4  5  6  7]\n"
      "  [ 8  9 10 11]]\n"
      "\n"
      " [[12 13 14 15]\n"
      "  [16 17 18 19]\n"
      "  [20 21 22 23]]]",
      "array([[[ 0,  1,  2,  3],\n"
      "        [ 4,  5,  6,  7],\n"
      "        [ 8,  9, 10, 11]],\n"
      "\n"
      "       [[12, 13, 14, 15],\n"
      "        [16, 17, 18, 19],\n"
      "        [20, 21, 22, 23]]])");
  /* np.arange(16).reshape(2, 2, 2, 2) */
  { static const int64_t sh[] = {2, 2, 2, 2}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL};
      t = mk_i(TSR_INT64, 4, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[[ 0  1]\n"
      "   [ 2  3]]\n"
      "\n"
      "  [[ 4  5]\n"
      "   [ 6  7]]]\n"
      "\n"
      "\n"
      " [[[ 8  9]\n"
      "   [10 11]]\n"
      "\n"
      "  [[12 13]\n"
      "   [14 15]]]]",
      "array([[[[ 0,  1],\n"
      "         [ 2,  3]],\n"
      "\n"
      "        [[ 4,  5],\n"
      "         [ 6,  7]]],\n"
      "\n"
      "\n"
      "       [[[ 8,  9],\n"
      "         [10, 11]],\n"
      "\n"
      "        [[12, 13],\n"
      "         [14, 15]]]])");
  /* np.arange(24.).reshape(2, 3, 4) - 5 */
  { static const int64_t sh[] = {2, 3, 4}; static const double v[] = {-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0};
      t = mk_f(TSR_FLOAT64, 3, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[-5. -4. -3. -2.]\n"
      "  [-1.  0.  1.  2.]\n"
      "  [ 3.  4.  5.  6.]]\n"
      "\n"
      " [[ 7.  8.  9. 10.]\n"
      "  [11. 12. 13. 14.]\n"
      "  [15. 16. 17. 18.]]]",
      "array([[[-5., -4., -3., -2.],\n"
      "        [-1.,  0.,  1.,  2.],\n"
      "        [ 3.,  4.,  5.,  6.]],\n"
      "\n"
      "       [[ 7.,  8.,  9., 10.],\n"
      "        [11., 12., 13., 14.],\n"
      "        [15., 16., 17., 18.]]])");
  /* np.eye(3, dtype=bool) */
  { static const int64_t sh[] = {3, 3}; static const int64_t v[] = {1LL, 0LL, 0LL, 0LL, 1LL, 0LL, 0LL, 0LL, 1LL};
      t = mk_i(TSR_BOOL, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ True False False]\n"
      " [False  True False]\n"
      " [False False  True]]",
      "array([[ True, False, False],\n"
      "       [False,  True, False],\n"
      "       [False, False,  True]])");
  /* np.arange(12, dtype=np.int16).reshape(3, 4) */
  { static const int64_t sh[] = {3, 4}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL};
      t = mk_i(TSR_INT16, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ 0  1  2  3]\n"
      " [ 4  5  6  7]\n"
      " [ 8  9 10 11]]",
      "array([[ 0,  1,  2,  3],\n"
      "       [ 4,  5,  6,  7],\n"
      "       [ 8,  9, 10, 11]], dtype=int16)");
  /* np.ones((1, 1, 1)) */
  { static const int64_t sh[] = {1, 1, 1}; static const double v[] = {1.0};
      t = mk_f(TSR_FLOAT64, 3, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[1.]]]",
      "array([[[1.]]])");
  /* np.arange(4.).reshape(4, 1) */
  { static const int64_t sh[] = {4, 1}; static const double v[] = {0.0, 1.0, 2.0, 3.0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[0.]\n"
      " [1.]\n"
      " [2.]\n"
      " [3.]]",
      "array([[0.],\n"
      "       [1.],\n"
      "       [2.],\n"
      "       [3.]])");
  /* np.arange(6).reshape(1, 2, 3, 1) */
  { static const int64_t sh[] = {1, 2, 3, 1}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL};
      t = mk_i(TSR_INT64, 4, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[[0]\n"
      "   [1]\n"
      "   [2]]\n"
      "\n"
      "  [[3]\n"
      "   [4]\n"
      "   [5]]]]",
      "array([[[[0],\n"
      "         [1],\n"
      "         [2]],\n"
      "\n"
      "        [[3],\n"
      "         [4],\n"
      "         [5]]]])");
  /* R.randn(5, 5) */
  { static const int64_t sh[] = {5, 5}; static const double v[] = {1.764052345967664, 0.4001572083672233, 0.9787379841057392, 2.240893199201458, 1.8675579901499675, -0.977277879876411, 0.9500884175255894, -0.1513572082976979, -0.10321885179355784, 0.41059850193837233, 0.144043571160878, 1.454273506962975, 0.7610377251469934, 0.12167501649282841, 0.44386323274542566, 0.33367432737426683, 1.4940790731576061, -0.20515826376580087, 0.31306770165090136, -0.8540957393017248, -2.5529898158340787, 0.6536185954403606, 0.8644361988595057, -0.7421650204064419, 2.2697546239876076};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ 1.76405235  0.40015721  0.97873798  2.2408932   1.86755799]\n"
      " [-0.97727788  0.95008842 -0.15135721 -0.10321885  0.4105985 ]\n"
      " [ 0.14404357  1.45427351  0.76103773  0.12167502  0.44386323]\n"
      " [ 0.33367433  1.49407907 -0.20515826  0.3130677  -0.85409574]\n"
      " [-2.55298982  0.6536186   0.8644362  -0.74216502  2.26975462]]",
      "array([[ 1.76405235,  0.40015721,  0.97873798,  2.2408932 ,  1.86755799],\n"
      "       [-0.97727788,  0.95008842, -0.15135721, -0.10321885,  0.4105985 ],\n"
      "       [ 0.14404357,  1.45427351,  0.76103773,  0.12167502,  0.44386323],\n"
      "       [ 0.33367433,  1.49407907, -0.20515826,  0.3130677 , -0.85409574],\n"
      "       [-2.55298982,  0.6536186 ,  0.8644362 , -0.74216502,  2.26975462]])");
  /* R.randn(3, 4) * 1e-3 */
  { static const int64_t sh[] = {3, 4}; static const double v[] = {-0.0014543656745987649, 4.575851730144607e-05, -0.0001871838500258336, 0.0015327792143584576, 0.001469358769900285, 0.0001549474256969163, 0.00037816251960217355, -0.0008877857476301128, -0.001980796468223927, -0.0003479121493261526, 0.00015634896910398006, 0.0012302906807277207};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[-1.45436567e-03  4.57585173e-05 -1.87183850e-04  1.53277921e-03]\n"
      " [ 1.46935877e-03  1.54947426e-04  3.78162520e-04 -8.87785748e-04]\n"
      " [-1.98079647e-03 -3.47912149e-04  1.56348969e-04  1.23029068e-03]]",
      "array([[-1.45436567e-03,  4.57585173e-05, -1.87183850e-04,\n"
      "         1.53277921e-03],\n"
      "       [ 1.46935877e-03,  1.54947426e-04,  3.78162520e-04,\n"
      "        -8.87785748e-04],\n"
      "       [-1.98079647e-03, -3.47912149e-04,  1.56348969e-04,\n"
      "         1.23029068e-03]])");
  /* R.randn(4, 4).astype(np.float32) */
  { static const int64_t sh[] = {4, 4}; static const double v[] = {1.202379822731018, -0.38732680678367615, -0.302302747964859, -1.0485529899597168, -1.420017957687378, -1.7062702178955078, 1.950775384902954, -0.5096521973609924, -0.4380742907524109, -1.2527953386306763, 0.7774903774261475, -1.6138978004455566, -0.21274028718471527, -0.8954665660858154, 0.38690251111984253, -0.5108051300048828};
      t = mk_f(TSR_FLOAT32, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ 1.2023798  -0.3873268  -0.30230275 -1.048553  ]\n"
      " [-1.420018   -1.7062702   1.9507754  -0.5096522 ]\n"
      " [-0.4380743  -1.2527953   0.7774904  -1.6138978 ]\n"
      " [-0.21274029 -0.89546657  0.3869025  -0.51080513]]",
      "array([[ 1.2023798 , -0.3873268 , -0.30230275, -1.048553  ],\n"
      "       [-1.420018  , -1.7062702 ,  1.9507754 , -0.5096522 ],\n"
      "       [-0.4380743 , -1.2527953 ,  0.7774904 , -1.6138978 ],\n"
      "       [-0.21274029, -0.89546657,  0.3869025 , -0.51080513]],\n"
      "      dtype=float32)");
  /* R.randn(2, 3, 4).astype(np.float32) * 100 */
  { static const int64_t sh[] = {2, 3, 4}; static const double v[] = {-118.06322479248047, -2.818222999572754, 42.833187103271484, 6.651721954345703, 30.247190475463867, -63.43220901489258, -36.27411651611328, -67.24604034423828, -35.95531463623047, -81.31462860107422, -172.62826538085938, 17.74261474609375, -40.17809295654297, -163.01983642578125, 46.27822494506836, -90.7298355102539, 5.194539546966553, 72.9090576171875, 12.89829158782959, 113.94007110595703, -123.48258209228516, 40.23416519165039, -68.48101043701172, -87.0797119140625};
      t = mk_f(TSR_FLOAT32, 3, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[[-118.063225    -2.818223    42.833187     6.651722 ]\n"
      "  [  30.24719    -63.43221    -36.274117   -67.24604  ]\n"
      "  [ -35.955315   -81.31463   -172.62827     17.742615 ]]\n"
      "\n"
      " [[ -40.178093  -163.01984     46.278225   -90.729836 ]\n"
      "  [   5.1945395   72.90906     12.898292   113.94007  ]\n"
      "  [-123.48258     40.234165   -68.48101    -87.07971  ]]]",
      "array([[[-118.063225 ,   -2.818223 ,   42.833187 ,    6.651722 ],\n"
      "        [  30.24719  ,  -63.43221  ,  -36.274117 ,  -67.24604  ],\n"
      "        [ -35.955315 ,  -81.31463  , -172.62827  ,   17.742615 ]],\n"
      "\n"
      "       [[ -40.178093 , -163.01984  ,   46.278225 ,  -90.729836 ],\n"
      "        [   5.1945395,   72.90906  ,   12.898292 ,  113.94007  ],\n"
      "        [-123.48258  ,   40.234165 ,  -68.48101  ,  -87.07971  ]]],\n"
      "      dtype=float32)");
  /* R.randn(200) */
  { static const int64_t sh[] = {200}; static const double v[] = {-0.5788496647644155, -0.31155253212737266, 0.05616534222974544, -1.1651498407833565, 0.9008264869541871, 0.46566243973045984, -1.5362436862772237, 1.4882521937955997, 1.8958891760305832, 1.1787795711596507, -0.17992483581235091, -1.0707526215105425, 1.0544517269311366, -0.40317694697317963, 1.2224450703824274, 0.2082749780768603, 0.9766390364837128, 0.3563663971744019, 0.7065731681919482, 0.010500020720820478, 1.7858704939058352, 0.12691209270361992, 0.40198936344470165, 1.8831506970562544, -1.3477590611424464, -1.2704849984857336, 0.9693967081580112, -1.17312340511416, 1.9436211856492926, -0.41361898075974735, -0.7474548114407578, 1.9229420264803847, 1.4805147914344243, 1.8675589604265699, 0.9060446582753853, -0.8612256850547025, 1.9100649530990337, -0.2680033709513804, 0.8024563957963952, 0.947251967773748, -0.1550100930908342, 0.6140793703460803, 0.9222066715665268, 0.37642553115562943, -1.0994007905841945, 0.298238174206056, 1.3263858966870303, -0.6945678597313655, -0.14963454032767076, -0.43515355172163744, 1.8492637284793418, 0.6722947570124355, 0.40746183624111043, -0.7699160744453164, 0.5392491912918173, -0.6743326606573761, 0.03183055827435118, -0.635846078378881, 0.6764332949464997, 0.5765908166149409, -0.20829875557799488, 0.3960067126616453, -1.0930615087305058, -1.4912575927056055, 0.4393917012645369, 0.16667349537252904, 0.6350314368921064, 2.383144774863942, 0.9444794869904138, -0.9128222254441586, 1.117016288095853, -1.3159074105115212, -0.461584604814709, -0.06824160532463124, 1.7133427216493666, -0.7447548220484399, -0.8264385386590144, -0.0984525244254323, -0.6634782863621074, 1.126635922106507, -1.0799315083634233, -1.1474686524111024, -0.43782004474443403, -0.4980324506923049, 1.9295320538169858, 0.9494208069257608, 0.0875512413851909, -1.225435518830168, 0.8443629764015471, -1.0002153473895647, -1.5447710967776116, 1.1880297923523018, 0.3169426119248496, 0.920858823780819, 0.3187276529430212, 0.8568306119026912, -0.6510255933001469, -1.0342428417844647, 0.681594518281627, -0.8034096641738411, -0.6895497777502005, -0.45553250351734315, 0.01747915902505673, -0.35399391125348395, -1.3749512934180188, -0.6436184028328905, -2.2234031522244266, 0.6252314510271875, -1.6020576556067476, -1.1043833394284506, 0.052165079260974405, -0.7395629963913133, 1.5430145954067358, -1.2928569097234486, 0.26705086934918293, -0.0392828182274956, -1.1680934977411974, 0.5232766605317537, -0.1715463312222481, 0.7717905512136674, 0.8235041539637314, 2.16323594928069, 1.336527949436392, -0.3691818379424436, -0.2393791775759264, 1.0996595958871132, 0.6552637307225978, 0.640131526097592, -1.6169560443108344, -0.024326124398935636, -0.7380309092056887, 0.27992459904323824, -0.09815038964295794, 0.9101789080925919, 0.31721821519130206, 0.7863279621089762, -0.46641909673594306, -0.9444462559182504, -0.41004969320254847, -0.017020413861440594, 0.3791517355550818, 2.259308950690852, -0.04225715166064269, -0.955945000492777, -0.34598177569938643, -0.4635959746460942, 0.4814814737734622, -1.5407970144446248, 0.06326199420033171, 0.1565065379653756, 0.23218103620027578, -0.5973160689653627, -0.237921729736007, -1.4240609089825316, -0.49331988336219407, -0.5428614760167177, 0.4160500462614255, -1.1561824318219127, 0.7811981017099934, 1.4944845444913688, -2.0699850250135325, 0.42625873077810095, 0.6769080350302455, -0.637437025552229, -0.39727181432879766, -0.13288057758695562, -0.2977908794017283, -0.3090129690471222, -1.6760038063299767, 1.15233156478312, 1.079618592036821, -0.8133642592042029, -1.466424327802514, 0.5210648764527586, -0.5757879698130661, 0.14195316332077967, -0.3193284171450952, 0.6915387510701866, 0.6947491436560059, -0.7255973784635843, -1.3833639553950554, -1.582938397335082, 0.6103793791072052, -1.188859257784029, -0.5068163542986875, -0.5963140384505081, -0.05256729626954629, -1.936279805846507, 0.18877859679382855, 0.5238910238342056, 0.08842208704466141, -0.3108861716984717, 0.09740016626878341, 0.3990463456401302, -2.77259275642665, 1.9559123082506942, 0.39009332268792646, -0.65240858238702, -0.3909533751876011, 0.49374177734918845};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[-0.57884966 -0.31155253  0.05616534 -1.16514984  0.90082649  0.46566244\n"
      " -1.53624369  1.48825219  1.89588918  1.17877957 -0.17992484 -1.07075262\n"
      "  1.05445173 -0.40317695  1.22244507  0.20827498  0.97663904  0.3563664\n"
      "  0.70657317  0.01050002  1.78587049  0.12691209  0.40198936  1.8831507\n"
      " -1.34775906 -1.270485    0.96939671 -1.17312341  1.94362119 -0.41361898\n"
      " -0.74745481  1.92294203  1.48051479  1.86755896  0.90604466 -0.86122569\n"
      "  1.91006495 -0.26800337  0.8024564   0.94725197 -0.15501009  0.61407937\n"
      "  0.92220667  0.37642553 -1.09940079  0.29823817  1.3263859  -0.69456786\n"
      " -0.14963454 -0.43515355  1.84926373  0.67229476  0.40746184 -0.76991607\n"
      "  0.53924919 -0.67433266  0.03183056 -0.63584608  0.67643329  0.57659082\n"
      " -0.20829876  0.39600671 -1.09306151 -1.49125759  0.4393917   0.1666735\n"
      "  0.63503144  2.38314477  0.94447949 -0.91282223  1.11701629 -1.31590741\n"
      " -0.4615846  -0.06824161  1.71334272 -0.74475482 -0.82643854 -0.09845252\n"
      " -0.66347829  1.12663592 -1.07993151 -1.14746865 -0.43782004 -0.49803245\n"
      "  1.92953205  0.94942081  0.08755124 -1.22543552  0.84436298 -1.00021535\n"
      " -1.5447711   1.18802979  0.31694261  0.92085882  0.31872765  0.85683061\n"
      " -0.65102559 -1.03424284  0.68159452 -0.80340966 -0.68954978 -0.4555325\n"
      "  0.01747916 -0.35399391 -1.37495129 -0.6436184  -2.22340315  0.62523145\n"
      " -1.60205766 -1.10438334  0.05216508 -0.739563    1.5430146  -1.29285691\n"
      "  0.26705087 -0.03928282 -1.1680935   0.52327666 -0.17154633  0.77179055\n"
      "  0.82350415  2.16323595  1.33652795 -0.36918184 -0.23937918  1.0996596\n"
      "  0.65526373  0.64013153 -1.61695604 -0.02432612 -0.73803091  0.2799246\n"
      " -0.09815039  0.91017891  0.31721822  0.78632796 -0.4664191  -0.94444626\n"
      " -0.41004969 -0.01702041  0.37915174  2.25930895 -0.04225715 -0.955945\n"
      " -0.34598178 -0.46359597  0.48148147 -1.54079701  0.06326199  0.15650654\n"
      "  0.23218104 -0.59731607 -0.23792173 -1.42406091 -0.49331988 -0.54286148\n"
      "  0.41605005 -1.15618243  0.7811981   1.49448454 -2.06998503  0.42625873\n"
      "  0.67690804 -0.63743703 -0.39727181 -0.13288058 -0.29779088 -0.30901297\n"
      " -1.67600381  1.15233156  1.07961859 -0.81336426 -1.46642433  0.52106488\n"
      " -0.57578797  0.14195316 -0.31932842  0.69153875  0.69474914 -0.72559738\n"
      " -1.38336396 -1.5829384   0.61037938 -1.18885926 -0.50681635 -0.59631404\n"
      " -0.0525673  -1.93627981  0.1887786   0.52389102  0.08842209 -0.31088617\n"
      "  0.09740017  0.39904635 -2.77259276  1.95591231  0.39009332 -0.65240858\n"
      " -0.39095338  0.49374178]",
      "array([-0.57884966, -0.31155253,  0.05616534, -1.16514984,  0.90082649,\n"
      "        0.46566244, -1.53624369,  1.48825219,  1.89588918,  1.17877957,\n"
      "       -0.17992484, -1.07075262,  1.05445173, -0.40317695,  1.22244507,\n"
      "        0.20827498,  0.97663904,  0.3563664 ,  0.70657317,  0.01050002,\n"
      "        1.78587049,  0.12691209,  0.40198936,  1.8831507 , -1.34775906,\n"
      "       -1.270485  ,  0.96939671, -1.17312341,  1.94362119, -0.41361898,\n"
      "       -0.74745481,  1.92294203,  1.48051479,  1.86755896,  0.90604466,\n"
      "       -0.86122569,  1.91006495, -0.26800337,  0.8024564 ,  0.94725197,\n"
      "       -0.15501009,  0.61407937,  0.92220667,  0.37642553, -1.09940079,\n"
      "        0.29823817,  1.3263859 , -0.69456786, -0.14963454, -0.43515355,\n"
      "        1.84926373,  0.67229476,  0.40746184, -0.76991607,  0.53924919,\n"
      "       -0.67433266,  0.03183056, -0.63584608,  0.67643329,  0.57659082,\n"
      "       -0.20829876,  0.39600671, -1.09306151, -1.49125759,  0.4393917 ,\n"
      "        0.1666735 ,  0.63503144,  2.38314477,  0.94447949, -0.91282223,\n"
      "        1.11701629, -1.31590741, -0.4615846 , -0.06824161,  1.71334272,\n"
      "       -0.74475482, -0.82643854, -0.09845252, -0.66347829,  1.12663592,\n"
      "       -1.07993151, -1.14746865, -0.43782004, -0.49803245,  1.92953205,\n"
      "        0.94942081,  0.08755124, -1.22543552,  0.84436298, -1.00021535,\n"
      "       -1.5447711 ,  1.18802979,  0.31694261,  0.92085882,  0.31872765,\n"
      "        0.85683061, -0.65102559, -1.03424284,  0.68159452, -0.80340966,\n"
      "       -0.68954978, -0.4555325 ,  0.01747916, -0.35399391, -1.37495129,\n"
      "       -0.6436184 , -2.22340315,  0.62523145, -1.60205766, -1.10438334,\n"
      "        0.05216508, -0.739563  ,  1.5430146 , -1.29285691,  0.26705087,\n"
      "       -0.03928282, -1.1680935 ,  0.52327666, -0.17154633,  0.77179055,\n"
      "        0.82350415,  2.16323595,  1.33652795, -0.36918184, -0.23937918,\n"
      "        1.0996596 ,  0.65526373,  0.64013153, -1.61695604, -0.02432612,\n"
      "       -0.73803091,  0.2799246 , -0.09815039,  0.91017891,  0.31721822,\n"
      "        0.78632796, -0.4664191 , -0.94444626, -0.41004969, -0.01702041,\n"
      "        0.37915174,  2.25930895, -0.04225715, -0.955945  , -0.34598178,\n"
      "       -0.46359597,  0.48148147, -1.54079701,  0.06326199,  0.15650654,\n"
      "        0.23218104, -0.59731607, -0.23792173, -1.42406091, -0.49331988,\n"
      "       -0.54286148,  0.41605005, -1.15618243,  0.7811981 ,  1.49448454,\n"
      "       -2.06998503,  0.42625873,  0.67690804, -0.63743703, -0.39727181,\n"
      "       -0.13288058, -0.29779088, -0.30901297, -1.67600381,  1.15233156,\n"
      "        1.07961859, -0.81336426, -1.46642433,  0.52106488, -0.57578797,\n"
      "        0.14195316, -0.31932842,  0.69153875,  0.69474914, -0.72559738,\n"
      "       -1.38336396, -1.5829384 ,  0.61037938, -1.18885926, -0.50681635,\n"
      "       -0.59631404, -0.0525673 , -1.93627981,  0.1887786 ,  0.52389102,\n"
      "        0.08842209, -0.31088617,  0.09740017,  0.39904635, -2.77259276,\n"
      "        1.95591231,  0.39009332, -0.65240858, -0.39095338,  0.49374178])");
  /* R.randint(-1000, 1000, (6, 17)) */
  { static const int64_t sh[] = {6, 17}; static const int64_t v[] = {897LL, -298LL, 540LL, -503LL, 522LL, 229LL, 438LL, 389LL, 879LL, -262LL, -581LL, -415LL, 242LL, 975LL, 562LL, 398LL, 46LL, -540LL, -281LL, 378LL, 626LL, 75LL, -2LL, 838LL, 744LL, 597LL, 468LL, -185LL, -896LL, -360LL, 418LL, 995LL, 933LL, -673LL, -394LL, 542LL, 709LL, 269LL, 438LL, 551LL, -831LL, -834LL, 333LL, -61LL, -406LL, 415LL, 244LL, -167LL, 705LL, -166LL, 138LL, -140LL, -666LL, -259LL, 243LL, 270LL, -900LL, -585LL, -779LL, 202LL, 532LL, -826LL, -395LL, 650LL, 697LL, -220LL, 760LL, 769LL, -152LL, 90LL, 480LL, 11LL, -875LL, 162LL, -376LL, -270LL, 179LL, -304LL, 144LL, -679LL, -552LL, -291LL, 880LL, 314LL, 999LL, -997LL, -300LL, 262LL, 701LL, 195LL, 747LL, -144LL, 606LL, 684LL, -98LL, 820LL, -373LL, -98LL, -166LL, -396LL, 638LL, -131LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ 897 -298  540 -503  522  229  438  389  879 -262 -581 -415  242  975\n"
      "   562  398   46]\n"
      " [-540 -281  378  626   75   -2  838  744  597  468 -185 -896 -360  418\n"
      "   995  933 -673]\n"
      " [-394  542  709  269  438  551 -831 -834  333  -61 -406  415  244 -167\n"
      "   705 -166  138]\n"
      " [-140 -666 -259  243  270 -900 -585 -779  202  532 -826 -395  650  697\n"
      "  -220  760  769]\n"
      " [-152   90  480   11 -875  162 -376 -270  179 -304  144 -679 -552 -291\n"
      "   880  314  999]\n"
      " [-997 -300  262  701  195  747 -144  606  684  -98  820 -373  -98 -166\n"
      "  -396  638 -131]]",
      "array([[ 897, -298,  540, -503,  522,  229,  438,  389,  879, -262, -581,\n"
      "        -415,  242,  975,  562,  398,   46],\n"
      "       [-540, -281,  378,  626,   75,   -2,  838,  744,  597,  468, -185,\n"
      "        -896, -360,  418,  995,  933, -673],\n"
      "       [-394,  542,  709,  269,  438,  551, -831, -834,  333,  -61, -406,\n"
      "         415,  244, -167,  705, -166,  138],\n"
      "       [-140, -666, -259,  243,  270, -900, -585, -779,  202,  532, -826,\n"
      "        -395,  650,  697, -220,  760,  769],\n"
      "       [-152,   90,  480,   11, -875,  162, -376, -270,  179, -304,  144,\n"
      "        -679, -552, -291,  880,  314,  999],\n"
      "       [-997, -300,  262,  701,  195,  747, -144,  606,  684,  -98,  820,\n"
      "        -373,  -98, -166, -396,  638, -131]])");
  /* np.array([[1.5, np.nan], [-np.inf, 0.]]) */
  { static const int64_t sh[] = {2, 2}; static const double v[] = {1.5, NAN, -INFINITY, 0.0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[ 1.5  nan]\n"
      " [-inf  0. ]]",
      "array([[ 1.5,  nan],\n"
      "       [-inf,  0. ]])");
  /* np.arange(12.).reshape(3, 4).T */
  { static const int64_t sh[] = {3, 4}; static const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults; view_T(t);
  check_fmt(t, &po,
      "[[ 0.  4.  8.]\n"
      " [ 1.  5.  9.]\n"
      " [ 2.  6. 10.]\n"
      " [ 3.  7. 11.]]",
      "array([[ 0.,  4.,  8.],\n"
      "       [ 1.,  5.,  9.],\n"
      "       [ 2.,  6., 10.],\n"
      "       [ 3.,  7., 11.]])");
  /* np.arange(10)[::-2] */
  { static const int64_t sh[] = {10}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults; view_step(t, -2);
  check_fmt(t, &po,
      "[9 7 5 3 1]",
      "array([9, 7, 5, 3, 1])");
  /* np.arange(10.) / 3[::3] */
  { static const int64_t sh[] = {10}; static const double v[] = {0.0, 0.3333333333333333, 0.6666666666666666, 1.0, 1.3333333333333333, 1.6666666666666667, 2.0, 2.3333333333333335, 2.6666666666666665, 3.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; view_step(t, 3);
  check_fmt(t, &po,
      "[0. 1. 2. 3.]",
      "array([0., 1., 2., 3.])");
  /* np.arange(24).reshape(2, 3, 4).T */
  { static const int64_t sh[] = {2, 3, 4}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL, 23LL};
      t = mk_i(TSR_INT64, 3, sh, v); }
  po = defaults; view_T(t);
  check_fmt(t, &po,
      "[[[ 0 12]\n"
      "  [ 4 16]\n"
      "  [ 8 20]]\n"
      "\n"
      " [[ 1 13]\n"
      "  [ 5 17]\n"
      "  [ 9 21]]\n"
      "\n"
      " [[ 2 14]\n"
      "  [ 6 18]\n"
      "  [10 22]]\n"
      "\n"
      " [[ 3 15]\n"
      "  [ 7 19]\n"
      "  [11 23]]]",
      "array([[[ 0, 12],\n"
      "        [ 4, 16],\n"
      "        [ 8, 20]],\n"
      "\n"
      "       [[ 1, 13],\n"
      "        [ 5, 17],\n"
      "        [ 9, 21]],\n"
      "\n"
      "       [[ 2, 14],\n"
      "        [ 6, 18],\n"
      "        [10, 22]],\n"
      "\n"
      "       [[ 3, 15],\n"
      "        [ 7, 19],\n"
      "        [11, 23]]])");
  /* np.zeros(0) */
  { static const int64_t sh[] = {0}; static const double v[] = {0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], dtype=float64)");
  /* np.zeros((0, 3)) */
  { static const int64_t sh[] = {0, 3}; static const double v[] = {0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], shape=(0, 3), dtype=float64)");
  /* np.zeros(0, dtype=np.float32) */
  { static const int64_t sh[] = {0}; static const double v[] = {0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], dtype=float32)");
  /* np.zeros((2, 0), dtype=np.int32) */
  { static const int64_t sh[] = {2, 0}; static const int64_t v[] = {0};
      t = mk_i(TSR_INT32, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], shape=(2, 0), dtype=int32)");
  /* np.zeros(0, dtype=np.int64) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {0};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], dtype=int64)");
  /* np.zeros(0, dtype=bool) */
  { static const int64_t sh[] = {0}; static const int64_t v[] = {0};
      t = mk_i(TSR_BOOL, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], dtype=bool)");
  /* np.zeros((3, 0, 2)) */
  { static const int64_t sh[] = {3, 0, 2}; static const double v[] = {0};
      t = mk_f(TSR_FLOAT64, 3, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[]",
      "array([], shape=(3, 0, 2), dtype=float64)");
  /* np.arange(100) */
  { static const int64_t sh[] = {100}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL, 23LL, 24LL, 25LL, 26LL, 27LL, 28LL, 29LL, 30LL, 31LL, 32LL, 33LL, 34LL, 35LL, 36LL, 37LL, 38LL, 39LL, 40LL, 41LL, 42LL, 43LL, 44LL, 45LL, 46LL, 47LL, 48LL, 49LL, 50LL, 51LL, 52LL, 53LL, 54LL, 55LL, 56LL, 57LL, 58LL, 59LL, 60LL, 61LL, 62LL, 63LL, 64LL, 65LL, 66LL, 67LL, 68LL, 69LL, 70LL, 71LL, 72LL, 73LL, 74LL, 75LL, 76LL, 77LL, 78LL, 79LL, 80LL, 81LL, 82LL, 83LL, 84LL, 85LL, 86LL, 87LL, 88LL, 89LL, 90LL, 91LL, 92LL, 93LL, 94LL, 95LL, 96LL, 97LL, 98LL, 99LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
      " 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47\n"
      " 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71\n"
      " 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95\n"
      " 96 97 98 99]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
      "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,\n"
      "       34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,\n"
      "       51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67,\n"
      "       68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84,\n"
      "       85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99])");
  /* np.arange(30.) / 7 */
  { static const int64_t sh[] = {30}; static const double v[] = {0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.5714285714285714, 0.7142857142857143, 0.8571428571428571, 1.0, 1.1428571428571428, 1.2857142857142858, 1.4285714285714286, 1.5714285714285714, 1.7142857142857142, 1.8571428571428572, 2.0, 2.142857142857143, 2.2857142857142856, 2.4285714285714284, 2.5714285714285716, 2.7142857142857144, 2.857142857142857, 3.0, 3.142857142857143, 3.2857142857142856, 3.4285714285714284, 3.5714285714285716, 3.7142857142857144, 3.857142857142857, 4.0, 4.142857142857143};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.         0.14285714 0.28571429 0.42857143 0.57142857 0.71428571\n"
      " 0.85714286 1.         1.14285714 1.28571429 1.42857143 1.57142857\n"
      " 1.71428571 1.85714286 2.         2.14285714 2.28571429 2.42857143\n"
      " 2.57142857 2.71428571 2.85714286 3.         3.14285714 3.28571429\n"
      " 3.42857143 3.57142857 3.71428571 3.85714286 4.         4.14285714]",
      "array([0.        , 0.14285714, 0.28571429, 0.42857143, 0.57142857,\n"
      "       0.71428571, 0.85714286, 1.        , 1.14285714, 1.28571429,\n"
      "       1.42857143, 1.57142857, 1.71428571, 1.85714286, 2.        ,\n"
      "       2.14285714, 2.28571429, 2.42857143, 2.57142857, 2.71428571,\n"
      "       2.85714286, 3.        , 3.14285714, 3.28571429, 3.42857143,\n"
      "       3.57142857, 3.71428571, 3.85714286, 4.        , 4.14285714])");
  /* np.arange(50).reshape(2, 25) * 1000 */
  { static const int64_t sh[] = {2, 25}; static const int64_t v[] = {0LL, 1000LL, 2000LL, 3000LL, 4000LL, 5000LL, 6000LL, 7000LL, 8000LL, 9000LL, 10000LL, 11000LL, 12000LL, 13000LL, 14000LL, 15000LL, 16000LL, 17000LL, 18000LL, 19000LL, 20000LL, 21000LL, 22000LL, 23000LL, 24000LL, 25000LL, 26000LL, 27000LL, 28000LL, 29000LL, 30000LL, 31000LL, 32000LL, 33000LL, 34000LL, 35000LL, 36000LL, 37000LL, 38000LL, 39000LL, 40000LL, 41000LL, 42000LL, 43000LL, 44000LL, 45000LL, 46000LL, 47000LL, 48000LL, 49000LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000\n"
      "  12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000\n"
      "  24000]\n"
      " [25000 26000 27000 28000 29000 30000 31000 32000 33000 34000 35000 36000\n"
      "  37000 38000 39000 40000 41000 42000 43000 44000 45000 46000 47000 48000\n"
      "  49000]]",
      "array([[    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,\n"
      "         9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000,\n"
      "        18000, 19000, 20000, 21000, 22000, 23000, 24000],\n"
      "       [25000, 26000, 27000, 28000, 29000, 30000, 31000, 32000, 33000,\n"
      "        34000, 35000, 36000, 37000, 38000, 39000, 40000, 41000, 42000,\n"
      "        43000, 44000, 45000, 46000, 47000, 48000, 49000]])");
  /* np.linspace(0, 1, 20) */
  { static const int64_t sh[] = {20}; static const double v[] = {0.0, 0.05263157894736842, 0.10526315789473684, 0.15789473684210525, 0.21052631578947367, 0.2631578947368421, 0.3157894736842105, 0.3684210526315789, 0.42105263157894735, 0.47368421052631576, 0.5263157894736842, 0.5789473684210527, 0.631578947368421, 0.6842105263157894, 0.7368421052631579, 0.7894736842105263, 0.8421052631578947, 0.894736842105263, 0.9473684210526315, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.         0.05263158 0.10526316 0.15789474 0.21052632 0.26315789\n"
      " 0.31578947 0.36842105 0.42105263 0.47368421 0.52631579 0.57894737\n"
      " 0.63157895 0.68421053 0.73684211 0.78947368 0.84210526 0.89473684\n"
      " 0.94736842 1.        ]",
      "array([0.        , 0.05263158, 0.10526316, 0.15789474, 0.21052632,\n"
      "       0.26315789, 0.31578947, 0.36842105, 0.42105263, 0.47368421,\n"
      "       0.52631579, 0.57894737, 0.63157895, 0.68421053, 0.73684211,\n"
      "       0.78947368, 0.84210526, 0.89473684, 0.94736842, 1.        ])");
  /* np.linspace(0, 1, 20).astype(np.float32) */
  { static const int64_t sh[] = {20}; static const double v[] = {0.0, 0.05263157933950424, 0.10526315867900848, 0.15789473056793213, 0.21052631735801697, 0.2631579041481018, 0.31578946113586426, 0.3684210479259491, 0.42105263471603394, 0.4736842215061188, 0.5263158082962036, 0.5789473652839661, 0.6315789222717285, 0.6842105388641357, 0.7368420958518982, 0.7894737124443054, 0.8421052694320679, 0.8947368264198303, 0.9473684430122375, 1.0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[0.         0.05263158 0.10526316 0.15789473 0.21052632 0.2631579\n"
      " 0.31578946 0.36842105 0.42105263 0.47368422 0.5263158  0.57894737\n"
      " 0.6315789  0.68421054 0.7368421  0.7894737  0.84210527 0.8947368\n"
      " 0.94736844 1.        ]",
      "array([0.        , 0.05263158, 0.10526316, 0.15789473, 0.21052632,\n"
      "       0.2631579 , 0.31578946, 0.36842105, 0.42105263, 0.47368422,\n"
      "       0.5263158 , 0.57894737, 0.6315789 , 0.68421054, 0.7368421 ,\n"
      "       0.7894737 , 0.84210527, 0.8947368 , 0.94736844, 1.        ],\n"
      "      dtype=float32)");
  /* np.arange(40, dtype=np.uint8) */
  { static const int64_t sh[] = {40}; static const uint64_t v[] = {0ULL, 1ULL, 2ULL, 3ULL, 4ULL, 5ULL, 6ULL, 7ULL, 8ULL, 9ULL, 10ULL, 11ULL, 12ULL, 13ULL, 14ULL, 15ULL, 16ULL, 17ULL, 18ULL, 19ULL, 20ULL, 21ULL, 22ULL, 23ULL, 24ULL, 25ULL, 26ULL, 27ULL, 28ULL, 29ULL, 30ULL, 31ULL, 32ULL, 33ULL, 34ULL, 35ULL, 36ULL, 37ULL, 38ULL, 39ULL};
      t = mk_u(TSR_UINT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
      " 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
      "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,\n"
      "       34, 35, 36, 37, 38, 39], dtype=uint8)");
  /* np.arange(60) % 2 == 0 */
  { static const int64_t sh[] = {60}; static const int64_t v[] = {1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL, 1LL, 0LL};
      t = mk_i(TSR_BOOL, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ True False  True False  True False  True False  True False  True False\n"
      "  True False  True False  True False  True False  True False  True False\n"
      "  True False  True False  True False  True False  True False  True False\n"
      "  True False  True False  True False  True False  True False  True False\n"
      "  True False  True False  True False  True False  True False  True False]",
      "array([ True, False,  True, False,  True, False,  True, False,  True,\n"
      "       False,  True, False,  True, False,  True, False,  True, False,\n"
      "        True, False,  True, False,  True, False,  True, False,  True,\n"
      "       False,  True, False,  True, False,  True, False,  True, False,\n"
      "        True, False,  True, False,  True, False,  True, False,  True,\n"
      "       False,  True, False,  True, False,  True, False,  True, False,\n"
      "        True, False,  True, False,  True, False])");
  /* np.arange(30).reshape(2, 15) * 1e-6 */
  { static const int64_t sh[] = {2, 15}; static const double v[] = {0.0, 1e-06, 2e-06, 3e-06, 4e-06, 4.9999999999999996e-06, 6e-06, 7e-06, 8e-06, 9e-06, 9.999999999999999e-06, 1.1e-05, 1.2e-05, 1.3e-05, 1.4e-05, 1.4999999999999999e-05, 1.6e-05, 1.7e-05, 1.8e-05, 1.8999999999999998e-05, 1.9999999999999998e-05, 2.1e-05, 2.2e-05, 2.3e-05, 2.4e-05, 2.4999999999999998e-05, 2.6e-05, 2.7e-05, 2.8e-05, 2.9e-05};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[0.0e+00 1.0e-06 2.0e-06 3.0e-06 4.0e-06 5.0e-06 6.0e-06 7.0e-06 8.0e-06\n"
      "  9.0e-06 1.0e-05 1.1e-05 1.2e-05 1.3e-05 1.4e-05]\n"
      " [1.5e-05 1.6e-05 1.7e-05 1.8e-05 1.9e-05 2.0e-05 2.1e-05 2.2e-05 2.3e-05\n"
      "  2.4e-05 2.5e-05 2.6e-05 2.7e-05 2.8e-05 2.9e-05]]",
      "array([[0.0e+00, 1.0e-06, 2.0e-06, 3.0e-06, 4.0e-06, 5.0e-06, 6.0e-06,\n"
      "        7.0e-06, 8.0e-06, 9.0e-06, 1.0e-05, 1.1e-05, 1.2e-05, 1.3e-05,\n"
      "        1.4e-05],\n"
      "       [1.5e-05, 1.6e-05, 1.7e-05, 1.8e-05, 1.9e-05, 2.0e-05, 2.1e-05,\n"
      "        2.2e-05, 2.3e-05, 2.4e-05, 2.5e-05, 2.6e-05, 2.7e-05, 2.8e-05,\n"
      "        2.9e-05]])");
  /* -np.arange(26.) */
  { static const int64_t sh[] = {26}; static const double v[] = {-0.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0, -9.0, -10.0, -11.0, -12.0, -13.0, -14.0, -15.0, -16.0, -17.0, -18.0, -19.0, -20.0, -21.0, -22.0, -23.0, -24.0, -25.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ -0.  -1.  -2.  -3.  -4.  -5.  -6.  -7.  -8.  -9. -10. -11. -12. -13.\n"
      " -14. -15. -16. -17. -18. -19. -20. -21. -22. -23. -24. -25.]",
      "array([ -0.,  -1.,  -2.,  -3.,  -4.,  -5.,  -6.,  -7.,  -8.,  -9., -10.,\n"
      "       -11., -12., -13., -14., -15., -16., -17., -18., -19., -20., -21.,\n"
      "       -22., -23., -24., -25.])");
  /* np.arange(21, dtype=np.int8) */
  { static const int64_t sh[] = {21}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL};
      t = mk_i(TSR_INT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
      "       17, 18, 19, 20], dtype=int8)");
  /* np.arange(22, dtype=np.int8) */
  { static const int64_t sh[] = {22}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL};
      t = mk_i(TSR_INT8, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
      "       17, 18, 19, 20, 21], dtype=int8)");
  /* np.arange(23, dtype=np.int32) */
  { static const int64_t sh[] = {23}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL};
      t = mk_i(TSR_INT32, 1, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
      "       17, 18, 19, 20, 21, 22], dtype=int32)");
  /* np.arange(36, dtype=np.int32).reshape(2, 18) * 100 */
  { static const int64_t sh[] = {2, 18}; static const int64_t v[] = {0LL, 100LL, 200LL, 300LL, 400LL, 500LL, 600LL, 700LL, 800LL, 900LL, 1000LL, 1100LL, 1200LL, 1300LL, 1400LL, 1500LL, 1600LL, 1700LL, 1800LL, 1900LL, 2000LL, 2100LL, 2200LL, 2300LL, 2400LL, 2500LL, 2600LL, 2700LL, 2800LL, 2900LL, 3000LL, 3100LL, 3200LL, 3300LL, 3400LL, 3500LL};
      t = mk_i(TSR_INT32, 2, sh, v); }
  po = defaults;
  check_fmt(t, &po,
      "[[   0  100  200  300  400  500  600  700  800  900 1000 1100 1200 1300\n"
      "  1400 1500 1600 1700]\n"
      " [1800 1900 2000 2100 2200 2300 2400 2500 2600 2700 2800 2900 3000 3100\n"
      "  3200 3300 3400 3500]]",
      "array([[   0,  100,  200,  300,  400,  500,  600,  700,  800,  900, 1000,\n"
      "        1100, 1200, 1300, 1400, 1500, 1600, 1700],\n"
      "       [1800, 1900, 2000, 2100, 2200, 2300, 2400, 2500, 2600, 2700, 2800,\n"
      "        2900, 3000, 3100, 3200, 3300, 3400, 3500]], dtype=int32)");
  /* np.((arange(2000)*1 + 0)/1).astype(int64).reshape((2000,)) */
  { static const int64_t sh[] = {2000}; t = mk_range(TSR_INT64, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[   0    1    2 ... 1997 1998 1999]",
      "array([   0,    1,    2, ..., 1997, 1998, 1999])");
  /* np.((arange(2000)*1 + 0)/1).astype(float64).reshape((40, 50)) */
  { static const int64_t sh[] = {40, 50}; t = mk_range(TSR_FLOAT64, 2, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[0.000e+00 1.000e+00 2.000e+00 ... 4.700e+01 4.800e+01 4.900e+01]\n"
      " [5.000e+01 5.100e+01 5.200e+01 ... 9.700e+01 9.800e+01 9.900e+01]\n"
      " [1.000e+02 1.010e+02 1.020e+02 ... 1.470e+02 1.480e+02 1.490e+02]\n"
      " ...\n"
      " [1.850e+03 1.851e+03 1.852e+03 ... 1.897e+03 1.898e+03 1.899e+03]\n"
      " [1.900e+03 1.901e+03 1.902e+03 ... 1.947e+03 1.948e+03 1.949e+03]\n"
      " [1.950e+03 1.951e+03 1.952e+03 ... 1.997e+03 1.998e+03 1.999e+03]]",
      "array([[0.000e+00, 1.000e+00, 2.000e+00, ..., 4.700e+01, 4.800e+01,\n"
      "        4.900e+01],\n"
      "       [5.000e+01, 5.100e+01, 5.200e+01, ..., 9.700e+01, 9.800e+01,\n"
      "        9.900e+01],\n"
      "       [1.000e+02, 1.010e+02, 1.020e+02, ..., 1.470e+02, 1.480e+02,\n"
      "        1.490e+02],\n"
      "       ...,\n"
      "       [1.850e+03, 1.851e+03, 1.852e+03, ..., 1.897e+03, 1.898e+03,\n"
      "        1.899e+03],\n"
      "       [1.900e+03, 1.901e+03, 1.902e+03, ..., 1.947e+03, 1.948e+03,\n"
      "        1.949e+03],\n"
      "       [1.950e+03, 1.951e+03, 1.952e+03, ..., 1.997e+03, 1.998e+03,\n"
      "        1.999e+03]])");
  /* np.((arange(3000)*1 + 0)/1).astype(int64).reshape((10, 10, 30)) */
  { static const int64_t sh[] = {10, 10, 30}; t = mk_range(TSR_INT64, 3, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[[   0    1    2 ...   27   28   29]\n"
      "  [  30   31   32 ...   57   58   59]\n"
      "  [  60   61   62 ...   87   88   89]\n"
      "  ...\n"
      "  [ 210  211  212 ...  237  238  239]\n"
      "  [ 240  241  242 ...  267  268  269]\n"
      "  [ 270  271  272 ...  297  298  299]]\n"
      "\n"
      " [[ 300  301  302 ...  327  328  329]\n"
      "  [ 330  331  332 ...  357  358  359]\n"
      "  [ 360  361  362 ...  387  388  389]\n"
      "  ...\n"
      "  [ 510  511  512 ...  537  538  539]\n"
      "  [ 540  541  542 ...  567  568  569]\n"
      "  [ 570  571  572 ...  597  598  599]]\n"
      "\n"
      " [[ 600  601  602 ...  627  628  629]\n"
      "  [ 630  631  632 ...  657  658  659]\n"
      "  [ 660  661  662 ...  687  688  689]\n"
      "  ...\n"
      "  [ 810  811  812 ...  837  838  839]\n"
      "  [ 840  841  842 ...  867  868  869]\n"
      "  [ 870  871  872 ...  897  898  899]]\n"
      "\n"
      " ...\n"
      "\n"
      " [[2100 2101 2102 ... 2127 2128 2129]\n"
      "  [2130 2131 2132 ... 2157 2158 2159]\n"
      "  [2160 2161 2162 ... 2187 2188 2189]\n"
      "  ...\n"
      "  [2310 2311 2312 ... 2337 2338 2339]\n"
      "  [2340 2341 2342 ... 2367 2368 2369]\n"
      "  [2370 2371 2372 ... 2397 2398 2399]]\n"
      "\n"
      " [[2400 2401 2402 ... 2427 2428 2429]\n"
      "  [2430 2431 2432 ... 2457 2458 2459]\n"
      "  [2460 2461 2462 ... 2487 2488 2489]\n"
      "  ...\n"
      "  [2610 2611 2612 ... 2637 2638 2639]\n"
      "  [2640 2641 2642 ... 2667 2668 2669]\n"
      "  [2670 2671 2672 ... 2697 2698 2699]]\n"
      "\n"
      " [[2700 2701 2702 ... 2727 2728 2729]\n"
      "  [2730 2731 2732 ... 2757 2758 2759]\n"
      "  [2760 2761 2762 ... 2787 2788 2789]\n"
      "  ...\n"
      "  [2910 2911 2912 ... 2937 2938 2939]\n"
      "  [2940 2941 2942 ... 2967 2968 2969]\n"
      "  [2970 2971 2972 ... 2997 2998 2999]]]",
      "array([[[   0,    1,    2, ...,   27,   28,   29],\n"
      "        [  30,   31,   32, ...,   57,   58,   59],\n"
      "        [  60,   61,   62, ...,   87,   88,   89],\n"
      "        ...,\n"
      "        [ 210,  211,  212, ...,  237,  238,  239],\n"
      "        [ 240,  241,  242, ...,  267,  268,  269],\n"
      "        [ 270,  271,  272, ...,  297,  298,  299]],\n"
      "\n"
      "       [[ 300,  301,  302, ...,  327,  328,  329],\n"
      "        [ 330,  331,  332, ...,  357,  358,  359],\n"
      "        [ 360,  361,  362, ...,  387,  388,  389],\n"
      "        ...,\n"
      "        [ 510,  511,  512, ...,  537,  538,  539],\n"
      "        [ 540,  541,  542, ...,  567,  568,  569],\n"
      "        [ 570,  571,  572, ...,  597,  598,  599]],\n"
      "\n"
      "       [[ 600,  601,  602, ...,  627,  628,  629],\n"
      "        [ 630,  631,  632, ...,  657,  658,  659],\n"
      "        [ 660,  661,  662, ...,  687,  688,  689],\n"
      "        ...,\n"
      "        [ 810,  811,  812, ...,  837,  838,  839],\n"
      "        [ 840,  841,  842, ...,  867,  868,  869],\n"
      "        [ 870,  871,  872, ...,  897,  898,  899]],\n"
      "\n"
      "       ...,\n"
      "\n"
      "       [[2100, 2101, 2102, ..., 2127, 2128, 2129],\n"
      "        [2130, 2131, 2132, ..., 2157, 2158, 2159],\n"
      "        [2160, 2161, 2162, ..., 2187, 2188, 2189],\n"
      "        ...,\n"
      "        [2310, 2311, 2312, ..., 2337, 2338, 2339],\n"
      "        [2340, 2341, 2342, ..., 2367, 2368, 2369],\n"
      "        [2370, 2371, 2372, ..., 2397, 2398, 2399]],\n"
      "\n"
      "       [[2400, 2401, 2402, ..., 2427, 2428, 2429],\n"
      "        [2430, 2431, 2432, ..., 2457, 2458, 2459],\n"
      "        [2460, 2461, 2462, ..., 2487, 2488, 2489],\n"
      "        ...,\n"
      "        [2610, 2611, 2612, ..., 2637, 2638, 2639],\n"
      "        [2640, 2641, 2642, ..., 2667, 2668, 2669],\n"
      "        [2670, 2671, 2672, ..., 2697, 2698, 2699]],\n"
      "\n"
      "       [[2700, 2701, 2702, ..., 2727, 2728, 2729],\n"
      "        [2730, 2731, 2732, ..., 2757, 2758, 2759],\n"
      "        [2760, 2761, 2762, ..., 2787, 2788, 2789],\n"
      "        ...,\n"
      "        [2910, 2911, 2912, ..., 2937, 2938, 2939],\n"
      "        [2940, 2941, 2942, ..., 2967, 2968, 2969],\n"
      "        [2970, 2971, 2972, ..., 2997, 2998, 2999]]])");
  /* np.((arange(1001)*1 + 0)/1).astype(float64).reshape((1001,)) */
  { static const int64_t sh[] = {1001}; t = mk_range(TSR_FLOAT64, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[   0.    1.    2. ...  998.  999. 1000.]",
      "array([   0.,    1.,    2., ...,  998.,  999., 1000.])");
  /* np.((arange(2000)*1 + 0)/1000).astype(float64).reshape((2000,)) */
  { static const int64_t sh[] = {2000}; t = mk_range(TSR_FLOAT64, 1, sh, 0.0, 1.0, 1000.0); }
  po = defaults;
  check_fmt(t, &po,
      "[0.000e+00 1.000e-03 2.000e-03 ... 1.997e+00 1.998e+00 1.999e+00]",
      "array([0.000e+00, 1.000e-03, 2.000e-03, ..., 1.997e+00, 1.998e+00,\n"
      "       1.999e+00])");
  /* np.((arange(2000)*1 + 0)/1).astype(int32).reshape((2000,)) */
  { static const int64_t sh[] = {2000}; t = mk_range(TSR_INT32, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[   0    1    2 ... 1997 1998 1999]",
      "array([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int32)");
  /* np.((arange(1001)*0.5 + 0)/1).astype(float32).reshape((1001,)) */
  { static const int64_t sh[] = {1001}; t = mk_range(TSR_FLOAT32, 1, sh, 0.0, 0.5, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[  0.    0.5   1.  ... 499.  499.5 500. ]",
      "array([  0. ,   0.5,   1. , ..., 499. , 499.5, 500. ], dtype=float32)");
  /* np.((arange(3000)*1 + 0)/7).astype(float64).reshape((3, 1000)) */
  { static const int64_t sh[] = {3, 1000}; t = mk_range(TSR_FLOAT64, 2, sh, 0.0, 1.0, 7.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[0.00000000e+00 1.42857143e-01 2.85714286e-01 ... 1.42428571e+02\n"
      "  1.42571429e+02 1.42714286e+02]\n"
      " [1.42857143e+02 1.43000000e+02 1.43142857e+02 ... 2.85285714e+02\n"
      "  2.85428571e+02 2.85571429e+02]\n"
      " [2.85714286e+02 2.85857143e+02 2.86000000e+02 ... 4.28142857e+02\n"
      "  4.28285714e+02 4.28428571e+02]]",
      "array([[0.00000000e+00, 1.42857143e-01, 2.85714286e-01, ...,\n"
      "        1.42428571e+02, 1.42571429e+02, 1.42714286e+02],\n"
      "       [1.42857143e+02, 1.43000000e+02, 1.43142857e+02, ...,\n"
      "        2.85285714e+02, 2.85428571e+02, 2.85571429e+02],\n"
      "       [2.85714286e+02, 2.85857143e+02, 2.86000000e+02, ...,\n"
      "        4.28142857e+02, 4.28285714e+02, 4.28428571e+02]])");
  /* np.((arange(1500)*1 + 0)/1).astype(uint8).reshape((5, 300)) */
  { static const int64_t sh[] = {5, 300}; t = mk_range(TSR_UINT8, 2, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[  0   1   2 ...  41  42  43]\n"
      " [ 44  45  46 ...  85  86  87]\n"
      " [ 88  89  90 ... 129 130 131]\n"
      " [132 133 134 ... 173 174 175]\n"
      " [176 177 178 ... 217 218 219]]",
      "array([[  0,   1,   2, ...,  41,  42,  43],\n"
      "       [ 44,  45,  46, ...,  85,  86,  87],\n"
      "       [ 88,  89,  90, ..., 129, 130, 131],\n"
      "       [132, 133, 134, ..., 173, 174, 175],\n"
      "       [176, 177, 178, ..., 217, 218, 219]], dtype=uint8)");
  /* np.((arange(1600)*1 + -800)/3).astype(float64).reshape((2, 2, 2, 200)) */
  { static const int64_t sh[] = {2, 2, 2, 200}; t = mk_range(TSR_FLOAT64, 4, sh, -800.0, 1.0, 3.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[[[-266.66666667 -266.33333333 -266.         ... -201.\n"
      "    -200.66666667 -200.33333333]\n"
      "   [-200.         -199.66666667 -199.33333333 ... -134.33333333\n"
      "    -134.         -133.66666667]]\n"
      "\n"
      "  [[-133.33333333 -133.         -132.66666667 ...  -67.66666667\n"
      "     -67.33333333  -67.        ]\n"
      "   [ -66.66666667  -66.33333333  -66.         ...   -1.\n"
      "      -0.66666667   -0.33333333]]]\n"
      "\n"
      "\n"
      " [[[   0.            0.33333333    0.66666667 ...   65.66666667\n"
      "      66.           66.33333333]\n"
      "   [  66.66666667   67.           67.33333333 ...  132.33333333\n"
      "     132.66666667  133.        ]]\n"
      "\n"
      "  [[ 133.33333333  133.66666667  134.         ...  199.\n"
      "     199.33333333  199.66666667]\n"
      "   [ 200.          200.33333333  200.66666667 ...  265.66666667\n"
      "     266.          266.33333333]]]]",
      "array([[[[-266.66666667, -266.33333333, -266.        , ...,\n"
      "          -201.        , -200.66666667, -200.33333333],\n"
      "         [-200.        , -199.66666667, -199.33333333, ...,\n"
      "          -134.33333333, -134.        , -133.66666667]],\n"
      "\n"
      "        [[-133.33333333, -133.        , -132.66666667, ...,\n"
      "           -67.66666667,  -67.33333333,  -67.        ],\n"
      "         [ -66.66666667,  -66.33333333,  -66.        , ...,\n"
      "            -1.        ,   -0.66666667,   -0.33333333]]],\n"
      "\n"
      "\n"
      "       [[[   0.        ,    0.33333333,    0.66666667, ...,\n"
      "            65.66666667,   66.        ,   66.33333333],\n"
      "         [  66.66666667,   67.        ,   67.33333333, ...,\n"
      "           132.33333333,  132.66666667,  133.        ]],\n"
      "\n"
      "        [[ 133.33333333,  133.66666667,  134.        , ...,\n"
      "           199.        ,  199.33333333,  199.66666667],\n"
      "         [ 200.        ,  200.33333333,  200.66666667, ...,\n"
      "           265.66666667,  266.        ,  266.33333333]]]])");
  /* np.((arange(1500)*1 + 0)/1).astype(bool).reshape((1500,)) */
  { static const int64_t sh[] = {1500}; t = mk_range(TSR_BOOL, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[False  True  True ...  True  True  True]",
      "array([False,  True,  True, ...,  True,  True,  True])");
  /* np.((arange(1000)*1 + 0)/1).astype(float64).reshape((1000,)) */
  { static const int64_t sh[] = {1000}; t = mk_range(TSR_FLOAT64, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[  0.   1.   2.   3.   4.   5.   6.   7.   8.   9.  10.  11.  12.  13.\n"
      "  14.  15.  16.  17.  18.  19.  20.  21.  22.  23.  24.  25.  26.  27.\n"
      "  28.  29.  30.  31.  32.  33.  34.  35.  36.  37.  38.  39.  40.  41.\n"
      "  42.  43.  44.  45.  46.  47.  48.  49.  50.  51.  52.  53.  54.  55.\n"
      "  56.  57.  58.  59.  60.  61.  62.  63.  64.  65.  66.  67.  68.  69.\n"
      "  70.  71.  72.  73.  74.  75.  76.  77.  78.  79.  80.  81.  82.  83.\n"
      "  84.  85.  86.  87.  88.  89.  90.  91.  92.  93.  94.  95.  96.  97.\n"
      "  98.  99. 100. 101. 102. 103. 104. 105. 106. 107. 108. 109. 110. 111.\n"
      " 112. 113. 114. 115. 116. 117. 118. 119. 120. 121. 122. 123. 124. 125.\n"
      " 126. 127. 128. 129. 130. 131. 132. 133. 134. 135. 136. 137. 138. 139.\n"
      " 140. 141. 142. 143. 144. 145. 146. 147. 148. 149. 150. 151. 152. 153.\n"
      " 154. 155. 156. 157. 158. 159. 160. 161. 162. 163. 164. 165. 166. 167.\n"
      " 168. 169. 170. 171. 172. 173. 174. 175. 176. 177. 178. 179. 180. 181.\n"
      " 182. 183. 184. 185. 186. 187. 188. 189. 190. 191. 192. 193. 194. 195.\n"
      " 196. 197. 198. 199. 200. 201. 202. 203. 204. 205. 206. 207. 208. 209.\n"
      " 210. 211. 212. 213. 214. 215. 216. 217. 218. 219. 220. 221. 222. 223.\n"
      " 224. 225. 226. 227. 228. 229. 230. 231. 232. 233. 234. 235. 236. 237.\n"
      " 238. 239. 240. 241. 242. 243. 244. 245. 246. 247. 248. 249. 250. 251.\n"
      " 252. 253. 254. 255. 256. 257. 258. 259. 260. 261. 262. 263. 264. 265.\n"
      " 266. 267. 268. 269. 270. 271. 272. 273. 274. 275. 276. 277. 278. 279.\n"
      " 280. 281. 282. 283. 284. 285. 286. 287. 288. 289. 290. 291. 292. 293.\n"
      " 294. 295. 296. 297. 298. 299. 300. 301. 302. 303. 304. 305. 306. 307.\n"
      " 308. 309. 310. 311. 312. 313. 314. 315. 316. 317. 318. 319. 320. 321.\n"
      " 322. 323. 324. 325. 326. 327. 328. 329. 330. 331. 332. 333. 334. 335.\n"
      " 336. 337. 338. 339. 340. 341. 342. 343. 344. 345. 346. 347. 348. 349.\n"
      " 350. 351. 352. 353. 354. 355. 356. 357. 358. 359. 360. 361. 362. 363.\n"
      " 364. 365. 366. 367. 368. 369. 370. 371. 372. 373. 374. 375. 376. 377.\n"
      " 378. 379. 380. 381. 382. 383. 384. 385. 386. 387. 388. 389. 390. 391.\n"
      " 392. 393. 394. 395. 396. 397. 398. 399. 400. 401. 402. 403. 404. 405.\n"
      " 406. 407. 408. 409. 410. 411. 412. 413. 414. 415. 416. 417. 418. 419.\n"
      " 420. 421. 422. 423. 424. 425. 426. 427. 428. 429. 430. 431. 432. 433.\n"
      " 434. 435. 436. 437. 438. 439. 440. 441. 442. 443. 444. 445. 446. 447.\n"
      " 448. 449. 450. 451. 452. 453. 454. 455. 456. 457. 458. 459. 460. 461.\n"
      " 462. 463. 464. 465. 466. 467. 468. 469. 470. 471. 472. 473. 474. 475.\n"
      " 476. 477. 478. 479. 480. 481. 482. 483. 484. 485. 486. 487. 488. 489.\n"
      " 490. 491. 492. 493. 494. 495. 496. 497. 498. 499. 500. 501. 502. 503.\n"
      " 504. 505. 506. 507. 508. 509. 510. 511. 512. 513. 514. 515. 516. 517.\n"
      " 518. 519. 520. 521. 522. 523. 524. 525. 526. 527. 528. 529. 530. 531.\n"
      " 532. 533. 534. 535. 536. 537. 538. 539. 540. 541. 542. 543. 544. 545.\n"
      " 546. 547. 548. 549. 550. 551. 552. 553. 554. 555. 556. 557. 558. 559.\n"
      " 560. 561. 562. 563. 564. 565. 566. 567. 568. 569. 570. 571. 572. 573.\n"
      " 574. 575. 576. 577. 578. 579. 580. 581. 582. 583. 584. 585. 586. 587.\n"
      " 588. 589. 590. 591. 592. 593. 594. 595. 596. 597. 598. 599. 600. 601.\n"
      " 602. 603. 604. 605. 606. 607. 608. 609. 610. 611. 612. 613. 614. 615.\n"
      " 616. 617. 618. 619. 620. 621. 622. 623. 624. 625. 626. 627. 628. 629.\n"
      " 630. 631. 632. 633. 634. 635. 636. 637. 638. 639. 640. 641. 642. 643.\n"
      " 644. 645. 646. 647. 648. 649. 650. 651. 652. 653. 654. 655. 656. 657.\n"
      " 658. 659. 660. 661. 662. 663. 664. 665. 666. 667. 668. 669. 670. 671.\n"
      " 672. 673. 674. 675. 676. 677. 678. 679. 680. 681. 682. 683. 684. 685.\n"
      " 686. 687. 688. 689. 690. 691. 692. 693. 694. 695. 696. 697. 698. 699.\n"
      " 700. 701. 702. 703. 704. 705. 706. 707. 708. 709. 710. 711. 712. 713.\n"
      " 714. 715. 716. 717. 718. 719. 720. 721. 722. 723. 724. 725. 726. 727.\n"
      " 728. 729. 730. 731. 732. 733. 734. 735. 736. 737. 738. 739. 740. 741.\n"
      " 742. 743. 744. 745. 746. 747. 748. 749. 750. 751. 752. 753. 754. 755.\n"
      " 756. 757. 758. 759. 760. 761. 762. 763. 764. 765. 766. 767. 768. 769.\n"
      " 770. 771. 772. 773. 774. 775. 776. 777. 778. 779. 780. 781. 782. 783.\n"
      " 784. 785. 786. 787. 788. 789. 790. 791. 792. 793. 794. 795. 796. 797.\n"
      " 798. 799. 800. 801. 802. 803. 804. 805. 806. 807. 808. 809. 810. 811.\n"
      " 812. 813. 814. 815. 816. 817. 818. 819. 820. 821. 822. 823. 824. 825.\n"
      " 826. 827. 828. 829. 830. 831. 832. 833. 834. 835. 836. 837. 838. 839.\n"
      " 840. 841. 842. 843. 844. 845. 846. 847. 848. 849. 850. 851. 852. 853.\n"
      " 854. 855. 856. 857. 858. 859. 860. 861. 862. 863. 864. 865. 866. 867.\n"
      " 868. 869. 870. 871. 872. 873. 874. 875. 876. 877. 878. 879. 880. 881.\n"
      " 882. 883. 884. 885. 886. 887. 888. 889. 890. 891. 892. 893. 894. 895.\n"
      " 896. 897. 898. 899. 900. 901. 902. 903. 904. 905. 906. 907. 908. 909.\n"
      " 910. 911. 912. 913. 914. 915. 916. 917. 918. 919. 920. 921. 922. 923.\n"
      " 924. 925. 926. 927. 928. 929. 930. 931. 932. 933. 934. 935. 936. 937.\n"
      " 938. 939. 940. 941. 942. 943. 944. 945. 946. 947. 948. 949. 950. 951.\n"
      " 952. 953. 954. 955. 956. 957. 958. 959. 960. 961. 962. 963. 964. 965.\n"
      " 966. 967. 968. 969. 970. 971. 972. 973. 974. 975. 976. 977. 978. 979.\n"
      " 980. 981. 982. 983. 984. 985. 986. 987. 988. 989. 990. 991. 992. 993.\n"
      " 994. 995. 996. 997. 998. 999.]",
      "array([  0.,   1.,   2.,   3.,   4.,   5.,   6.,   7.,   8.,   9.,  10.,\n"
      "        11.,  12.,  13.,  14.,  15.,  16.,  17.,  18.,  19.,  20.,  21.,\n"
      "        22.,  23.,  24.,  25.,  26.,  27.,  28.,  29.,  30.,  31.,  32.,\n"
      "        33.,  34.,  35.,  36.,  37.,  38.,  39.,  40.,  41.,  42.,  43.,\n"
      "        44.,  45.,  46.,  47.,  48.,  49.,  50.,  51.,  52.,  53.,  54.,\n"
      "        55.,  56.,  57.,  58.,  59.,  60.,  61.,  62.,  63.,  64.,  65.,\n"
      "        66.,  67.,  68.,  69.,  70.,  71.,  72.,  73.,  74.,  75.,  76.,\n"
      "        77.,  78.,  79.,  80.,  81.,  82.,  83.,  84.,  85.,  86.,  87.,\n"
      "        88.,  89.,  90.,  91.,  92.,  93.,  94.,  95.,  96.,  97.,  98.,\n"
      "        99., 100., 101., 102., 103., 104., 105., 106., 107., 108., 109.,\n"
      "       110., 111., 112., 113., 114., 115., 116., 117., 118., 119., 120.,\n"
      "       121., 122., 123., 124., 125., 126., 127., 128., 129., 130., 131.,\n"
      "       132., 133., 134., 135., 136., 137., 138., 139., 140., 141., 142.,\n"
      "       143., 144., 145., 146., 147., 148., 149., 150., 151., 152., 153.,\n"
      "       154., 155., 156., 157., 158., 159., 160., 161., 162., 163., 164.,\n"
      "       165., 166., 167., 168., 169., 170., 171., 172., 173., 174., 175.,\n"
      "       176., 177., 178., 179., 180., 181., 182., 183., 184., 185., 186.,\n"
      "       187., 188., 189., 190., 191., 192., 193., 194., 195., 196., 197.,\n"
      "       198., 199., 200., 201., 202., 203., 204., 205., 206., 207., 208.,\n"
      "       209., 210., 211., 212., 213., 214., 215., 216., 217., 218., 219.,\n"
      "       220., 221., 222., 223., 224., 225., 226., 227., 228., 229., 230.,\n"
      "       231., 232., 233., 234., 235., 236., 237., 238., 239., 240., 241.,\n"
      "       242., 243., 244., 245., 246., 247., 248., 249., 250., 251., 252.,\n"
      "       253., 254., 255., 256., 257., 258., 259., 260., 261., 262., 263.,\n"
      "       264., 265., 266., 267., 268., 269., 270., 271., 272., 273., 274.,\n"
      "       275., 276., 277., 278., 279., 280., 281., 282., 283., 284., 285.,\n"
      "       286., 287., 288., 289., 290., 291., 292., 293., 294., 295., 296.,\n"
      "       297., 298., 299., 300., 301., 302., 303., 304., 305., 306., 307.,\n"
      "       308., 309., 310., 311., 312., 313., 314., 315., 316., 317., 318.,\n"
      "       319., 320., 321., 322., 323., 324., 325., 326., 327., 328., 329.,\n"
      "       330., 331., 332., 333., 334., 335., 336., 337., 338., 339., 340.,\n"
      "       341., 342., 343., 344., 345., 346., 347., 348., 349., 350., 351.,\n"
      "       352., 353., 354., 355., 356., 357., 358., 359., 360., 361., 362.,\n"
      "       363., 364., 365., 366., 367., 368., 369., 370., 371., 372., 373.,\n"
      "       374., 375., 376., 377., 378., 379., 380., 381., 382., 383., 384.,\n"
      "       385., 386., 387., 388., 389., 390., 391., 392., 393., 394., 395.,\n"
      "       396., 397., 398., 399., 400., 401., 402., 403., 404., 405., 406.,\n"
      "       407., 408., 409., 410., 411., 412., 413., 414., 415., 416., 417.,\n"
      "       418., 419., 420., 421., 422., 423., 424., 425., 426., 427., 428.,\n"
      "       429., 430., 431., 432., 433., 434., 435., 436., 437., 438., 439.,\n"
      "       440., 441., 442., 443., 444., 445., 446., 447., 448., 449., 450.,\n"
      "       451., 452., 453., 454., 455., 456., 457., 458., 459., 460., 461.,\n"
      "       462., 463., 464., 465., 466., 467., 468., 469., 470., 471., 472.,\n"
      "       473., 474., 475., 476., 477., 478., 479., 480., 481., 482., 483.,\n"
      "       484., 485., 486., 487., 488., 489., 490., 491., 492., 493., 494.,\n"
      "       495., 496., 497., 498., 499., 500., 501., 502., 503., 504., 505.,\n"
      "       506., 507., 508., 509., 510., 511., 512., 513., 514., 515., 516.,\n"
      "       517., 518., 519., 520., 521., 522., 523., 524., 525., 526., 527.,\n"
      "       528., 529., 530., 531., 532., 533., 534., 535., 536., 537., 538.,\n"
      "       539., 540., 541., 542., 543., 544., 545., 546., 547., 548., 549.,\n"
      "       550., 551., 552., 553., 554., 555., 556., 557., 558., 559., 560.,\n"
      "       561., 562., 563., 564., 565., 566., 567., 568., 569., 570., 571.,\n"
      "       572., 573., 574., 575., 576., 577., 578., 579., 580., 581., 582.,\n"
      "       583., 584., 585., 586., 587., 588., 589., 590., 591., 592., 593.,\n"
      "       594., 595., 596., 597., 598., 599., 600., 601., 602., 603., 604.,\n"
      "       605., 606., 607., 608., 609., 610., 611., 612., 613., 614., 615.,\n"
      "       616., 617., 618., 619., 620., 621., 622., 623., 624., 625., 626.,\n"
      "       627., 628., 629., 630., 631., 632., 633., 634., 635., 636., 637.,\n"
      "       638., 639., 640., 641., 642., 643., 644., 645., 646., 647., 648.,\n"
      "       649., 650., 651., 652., 653., 654., 655., 656., 657., 658., 659.,\n"
      "       660., 661., 662., 663., 664., 665., 666., 667., 668., 669., 670.,\n"
      "       671., 672., 673., 674., 675., 676., 677., 678., 679., 680., 681.,\n"
      "       682., 683., 684., 685., 686., 687., 688., 689., 690., 691., 692.,\n"
      "       693., 694., 695., 696., 697., 698., 699., 700., 701., 702., 703.,\n"
      "       704., 705., 706., 707., 708., 709., 710., 711., 712., 713., 714.,\n"
      "       715., 716., 717., 718., 719., 720., 721., 722., 723., 724., 725.,\n"
      "       726., 727., 728., 729., 730., 731., 732., 733., 734., 735., 736.,\n"
      "       737., 738., 739., 740., 741., 742., 743., 744., 745., 746., 747.,\n"
      "       748., 749., 750., 751., 752., 753., 754., 755., 756., 757., 758.,\n"
      "       759., 760., 761., 762., 763., 764., 765., 766., 767., 768., 769.,\n"
      "       770., 771., 772., 773., 774., 775., 776., 777., 778., 779., 780.,\n"
      "       781., 782., 783., 784., 785., 786., 787., 788., 789., 790., 791.,\n"
      "       792., 793., 794., 795., 796., 797., 798., 799., 800., 801., 802.,\n"
      "       803., 804., 805., 806., 807., 808., 809., 810., 811., 812., 813.,\n"
      "       814., 815., 816., 817., 818., 819., 820., 821., 822., 823., 824.,\n"
      "       825., 826., 827., 828., 829., 830., 831., 832., 833., 834., 835.,\n"
      "       836., 837., 838., 839., 840., 841., 842., 843., 844., 845., 846.,\n"
      "       847., 848., 849., 850., 851., 852., 853., 854., 855., 856., 857.,\n"
      "       858., 859., 860., 861., 862., 863., 864., 865., 866., 867., 868.,\n"
      "       869., 870., 871., 872., 873., 874., 875., 876., 877., 878., 879.,\n"
      "       880., 881., 882., 883., 884., 885., 886., 887., 888., 889., 890.,\n"
      "       891., 892., 893., 894., 895., 896., 897., 898., 899., 900., 901.,\n"
      "       902., 903., 904., 905., 906., 907., 908., 909., 910., 911., 912.,\n"
      "       913., 914., 915., 916., 917., 918., 919., 920., 921., 922., 923.,\n"
      "       924., 925., 926., 927., 928., 929., 930., 931., 932., 933., 934.,\n"
      "       935., 936., 937., 938., 939., 940., 941., 942., 943., 944., 945.,\n"
      "       946., 947., 948., 949., 950., 951., 952., 953., 954., 955., 956.,\n"
      "       957., 958., 959., 960., 961., 962., 963., 964., 965., 966., 967.,\n"
      "       968., 969., 970., 971., 972., 973., 974., 975., 976., 977., 978.,\n"
      "       979., 980., 981., 982., 983., 984., 985., 986., 987., 988., 989.,\n"
      "       990., 991., 992., 993., 994., 995., 996., 997., 998., 999.])");
  /* np.((arange(1200)*0.001 + 1)/100000.0).astype(float64).reshape((1200,)) */
  { static const int64_t sh[] = {1200}; t = mk_range(TSR_FLOAT64, 1, sh, 1.0, 0.001, 100000.0); }
  po = defaults;
  check_fmt(t, &po,
      "[1.000e-05 1.001e-05 1.002e-05 ... 2.197e-05 2.198e-05 2.199e-05]",
      "array([1.000e-05, 1.001e-05, 1.002e-05, ..., 2.197e-05, 2.198e-05,\n"
      "       2.199e-05])");
  /* np.((arange(1296)*1 + -600)/1).astype(int16).reshape((6, 6, 6, 6)) */
  { static const int64_t sh[] = {6, 6, 6, 6}; t = mk_range(TSR_INT16, 4, sh, -600.0, 1.0, 1.0); }
  po = defaults;
  check_fmt(t, &po,
      "[[[[-600 -599 -598 -597 -596 -595]\n"
      "   [-594 -593 -592 -591 -590 -589]\n"
      "   [-588 -587 -586 -585 -584 -583]\n"
      "   [-582 -581 -580 -579 -578 -577]\n"
      "   [-576 -575 -574 -573 -572 -571]\n"
      "   [-570 -569 -568 -567 -566 -565]]\n"
      "\n"
      "  [[-564 -563 -562 -561 -560 -559]\n"
      "   [-558 -557 -556 -555 -554 -553]\n"
      "   [-552 -551 -550 -549 -548 -547]\n"
      "   [-546 -545 -544 -543 -542 -541]\n"
      "   [-540 -539 -538 -537 -536 -535]\n"
      "   [-534 -533 -532 -531 -530 -529]]\n"
      "\n"
      "  [[-528 -527 -526 -525 -524 -523]\n"
      "   [-522 -521 -520 -519 -518 -517]\n"
      "   [-516 -515 -514 -513 -512 -511]\n"
      "   [-510 -509 -508 -507 -506 -505]\n"
      "   [-504 -503 -502 -501 -500 -499]\n"
      "   [-498 -497 -496 -495 -494 -493]]\n"
      "\n"
      "  [[-492 -491 -490 -489 -488 -487]\n"
      "   [-486 -485 -484 -483 -482 -481]\n"
      "   [-480 -479 -478 -477 -476 -475]\n"
      "   [-474 -473 -472 -471 -470 -469]\n"
      "   [-468 -467 -466 -465 -464 -463]\n"
      "   [-462 -461 -460 -459 -458 -457]]\n"
      "\n"
      "  [[-456 -455 -454 -453 -452 -451]\n"
      "   [-450 -449 -448 -447 -446 -445]\n"
      "   [-444 -443 -442 -441 -440 -439]\n"
      "   [-438 -437 -436 -435 -434 -433]\n"
      "   [-432 -431 -430 -429 -428 -427]\n"
      "   [-426 -425 -424 -423 -422 -421]]\n"
      "\n"
      "  [[-420 -419 -418 -417 -416 -415]\n"
      "   [-414 -413 -412 -411 -410 -409]\n"
      "   [-408 -407 -406 -405 -404 -403]\n"
      "   [-402 -401 -400 -399 -398 -397]\n"
      "   [-396 -395 -394 -393 -392 -391]\n"
      "   [-390 -389 -388 -387 -386 -385]]]\n"
      "\n"
      "\n"
      " [[[-384 -383 -382 -381 -380 -379]\n"
      "   [-378 -377 -376 -375 -374 -373]\n"
      "   [-372 -371 -370 -369 -368 -367]\n"
      "   [-366 -365 -364 -363 -362 -361]\n"
      "   [-360 -359 -358 -357 -356 -355]\n"
      "   [-354 -353 -352 -351 -350 -349]]\n"
      "\n"
      "  [[-348 -347 -346 -345 -344 -343]\n"
      "   [-342 -341 -340 -339 -338 -337]\n"
      "   [-336 -335 -334 -333 -332 -331]\n"
      "   [-330 -329 -328 -327 -326 -325]\n"
      "   [-324 -323 -322 -321 -320 -319]\n"
      "   [-318 -317 -316 -315 -314 -313]]\n"
      "\n"
      "  [[-312 -311 -310 -309 -308 -307]\n"
      "   [-306 -305 -304 -303 -302 -301]\n"
      "   [-300 -299 -298 -297 -296 -295]\n"
      "   [-294 -293 -292 -291 -290 -289]\n"
      "   [-288 -287 -286 -285 -284 -283]\n"
      "   [-282 -281 -280 -279 -278 -277]]\n"
      "\n"
      "  [[-276 -275 -274 -273 -272 -271]\n"
      "   [-270 -269 -268 -267 -266 -265]\n"
      "   [-264 -263 -262 -261 -260 -259]\n"
      "   [-258 -257 -256 -255 -254 -253]\n"
      "   [-252 -251 -250 -249 -248 -247]\n"
      "   [-246 -245 -244 -243 -242 -241]]\n"
      "\n"
      "  [[-240 -239 -238 -237 -236 -235]\n"
      "   [-234 -233 -232 -231 -230 -229]\n"
      "   [-228 -227 -226 -225 -224 -223]\n"
      "   [-222 -221 -220 -219 -218 -217]\n"
      "   [-216 -215 -214 -213 -212 -211]\n"
      "   [-210 -209 -208 -207 -206 -205]]\n"
      "\n"
      "  [[-204 -203 -202 -201 -200 -199]\n"
      "   [-198 -197 -196 -195 -194 -193]\n"
      "   [-192 -191 -190 -189 -188 -187]\n"
      "   [-186 -185 -184 -183 -182 -181]\n"
      "   [-180 -179 -178 -177 -176 -175]\n"
      "   [-174 -173 -172 -171 -170 -169]]]\n"
      "\n"
      "\n"
      " [[[-168 -167 -166 -165 -164 -163]\n"
      "   [-162 -161 -160 -159 -158 -157]\n"
      "   [-156 -155 -154 -153 -152 -151]\n"
      "   [-150 -149 -148 -147 -146 -145]\n"
      "   [-144 -143 -142 -141 -140 -139]\n"
      "   [-138 -137 -136 -135 -134 -133]]\n"
      "\n"
      "  [[-132 -131 -130 -129 -128 -127]\n"
      "   [-126 -125 -124 -123 -122 -121]\n"
      "   [-120 -119 -118 -117 -116 -115]\n"
      "   [-114 -113 -112 -111 -110 -109]\n"
      "   [-108 -107 -106 -105 -104 -103]\n"
      "   [-102 -101 -100  -99  -98  -97]]\n"
      "\n"
      "  [[ -96  -95  -94  -93  -92  -91]\n"
      "   [ -90  -89  -88  -87  -86  -85]\n"
      "   [ -84  -83  -82  -81  -80  -79]\n"
      "   [ -78  -77  -76  -75  -74  -73]\n"
      "   [ -72  -71  -70  -69  -68  -67]\n"
      "   [ -66  -65  -64  -63  -62  -61]]\n"
      "\n"
      "  [[ -60  -59  -58  -57  -56  -55]\n"
      "   [ -54  -53  -52  -51  -50  -49]\n"
      "   [ -48  -47  -46  -45  -44  -43]\n"
      "   [ -42  -41  -40  -39  -38  -37]\n"
      "   [ -36  -35  -34  -33  -32  -31]\n"
      "   [ -30  -29  -28  -27  -26  -25]]\n"
      "\n"
      "  [[ -24  -23  -22  -21  -20  -19]\n"
      "   [ -18  -17  -16  -15  -14  -13]\n"
      "   [ -12  -11  -10   -9   -8   -7]\n"
      "   [  -6   -5   -4   -3   -2   -1]\n"
      "   [   0    1    2    3    4    5]\n"
      "   [   6    7    8    9   10   11]]\n"
      "\n"
      "  [[  12   13   14   15   16   17]\n"
      "   [  18   19   20   21   22   23]\n"
      "   [  24   25   26   27   28   29]\n"
      "   [  30   31   32   33   34   35]\n"
      "   [  36   37   38   39   40   41]\n"
      "   [  42   43   44   45   46   47]]]\n"
      "\n"
      "\n"
      " [[[  48   49   50   51   52   53]\n"
      "   [  54   55   56   57   58   59]\n"
      "   [  60   61   62   63   64   65]\n"
      "   [  66   67   68   69   70   71]\n"
      "   [  72   73   74   75   76   77]\n"
      "   [  78   79   80   81   82   83]]\n"
      "\n"
      "  [[  84   85   86   87   88   89]\n"
      "   [  90   91   92   93   94   95]\n"
      "   [  96   97   98   99  100  101]\n"
      "   [ 102  103  104  105  106  107]\n"
      "   [ 108  109  110  111  112  113]\n"
      "   [ 114  115  116  117  118  119]]\n"
      "\n"
      "  [[ 120  121  122  123  124  125]\n"
      "   [ 126  127  128  129  130  131]\n"
      "   [ 132  133  134  135  136  137]\n"
      "   [ 138  139  140  141  142  143]\n"
      "   [ 144  145  146  147  148  149]\n"
      "   [ 150  151  152  153  154  155]]\n"
      "\n"
      "  [[ 156  157  158  159  160  161]\n"
      "   [ 162  163  164  165  166  167]\n"
      "   [ 168  169  170  171  172  173]\n"
      "   [ 174  175  176  177  178  179]\n"
      "   [ 180  181  182  183  184  185]\n"
      "   [ 186  187  188  189  190  191]]\n"
      "\n"
      "  [[ 192  193  194  195  196  197]\n"
      "   [ 198  199  200  201  202  203]\n"
      "   [ 204  205  206  207  208  209]\n"
      "   [ 210  211  212  213  214  215]\n"
      "   [ 216  217  218  219  220  221]\n"
      "   [ 222  223  224  225  226  227]]\n"
      "\n"
      "  [[ 228  229  230  231  232  233]\n"
      "   [ 234  235  236  237  238  239]\n"
      "   [ 240  241  242  243  244  245]\n"
      "   [ 246  247  248  249  250  251]\n"
      "   [ 252  253  254  255  256  257]\n"
      "   [ 258  259  260  261  262  263]]]\n"
      "\n"
      "\n"
      " [[[ 264  265  266  267  268  269]\n"
      "   [ 270  271  272  273  274  275]\n"
      "   [ 276  277  278  279  280  281]\n"
      "   [ 282  283  284  285  286  287]\n"
      "   [ 288  289  290  291  292  293]\n"
      "   [ 294  295  296  297  298  299]]\n"
      "\n"
      "  [[ 300  301  302  303  304  305]\n"
      "   [ 306  307  308  309  310  311]\n"
      "   [ 312  313  314  315  316  317]\n"
      "   [ 318  319  320  321  322  323]\n"
      "   [ 324  325  326  327  328  329]\n"
      "   [ 330  331  332  333  334  335]]\n"
      "\n"
      "  [[ 336  337  338  339  340  341]\n"
      "   [ 342  343  344  345  346  347]\n"
      "   [ 348  349  350  351  352  353]\n"
      "   [ 354  355  356  357  358  359]\n"
      "   [ 360  361  362  363  364  365]\n"
      "   [ 366  367  368  369  370  371]]\n"
      "\n"
      "  [[ 372  373  374  375  376  377]\n"
      "   [ 378  379  380  381  382  383]\n"
      "   [ 384  385  386  387  388  389]\n"
      "   [ 390  391  392  393  394  395]\n"
      "   [ 396  397  398  399  400  401]\n"
      "   [ 402  403  404  405  406  407]]\n"
      "\n"
      "  [[ 408  409  410  411  412  413]\n"
      "   [ 414  415  416  417  418  419]\n"
      "   [ 420  421  422  423  424  425]\n"
      "   [ 426  427  428  429  430  431]\n"
      "   [ 432  433  434  435  436  437]\n"
      "   [ 438  439  440  441  442  443]]\n"
      "\n"
      "  [[ 444  445  446  447  448  449]\n"
      "   [ 450  451  452  453  454  455]\n"
      "   [ 456  457  458  459  460  461]\n"
      "   [ 462  463  464  465  466  467]\n"
      "   [ 468  469  470  471  472  473]\n"
      "   [ 474  475  476  477  478  479]]]\n"
      "\n"
      "\n"
      " [[[ 480  481  482  483  484  485]\n"
      "   [ 486  487  488  489  490  491]\n"
      "   [ 492  493  494  495  496  497]\n"
      "   [ 498  499  500  501  502  503]\n"
      "   [ 504  505  506  507  508  509]\n"
      "   [ 510  511  512  513  514  515]]\n"
      "\n"
      "  [[ 516  517  518  519  520  521]\n"
      "   [ 522  523  524  525  526  527]\n"
      "   [ 528  529  530  531  532  533]\n"
      "   [ 534  535  536  537  538  539]\n"
      "   [ 540  541  542  543  544  545]\n"
      "   [ 546  547  548  549  550  551]]\n"
      "\n"
      "  [[ 552  553  554  555  556  557]\n"
      "   [ 558  559  560  561  562  563]\n"
      "   [ 564  565  566  567  568  569]\n"
      "   [ 570  571  572  573  574  575]\n"
      "   [ 576  577  578  579  580  581]\n"
      "   [ 582  583  584  585  586  587]]\n"
      "\n"
      "  [[ 588  589  590  591  592  593]\n"
      "   [ 594  595  596  597  598  599]\n"
      "   [ 600  601  602  603  604  605]\n"
      "   [ 606  607  608  609  610  611]\n"
      "   [ 612  613  614  615  616  617]\n"
      "   [ 618  619  620  621  622  623]]\n"
      "\n"
      "  [[ 624  625  626  627  628  629]\n"
      "   [ 630  631  632  633  634  635]\n"
      "   [ 636  637  638  639  640  641]\n"
      "   [ 642  643  644  645  646  647]\n"
      "   [ 648  649  650  651  652  653]\n"
      "   [ 654  655  656  657  658  659]]\n"
      "\n"
      "  [[ 660  661  662  663  664  665]\n"
      "   [ 666  667  668  669  670  671]\n"
      "   [ 672  673  674  675  676  677]\n"
      "   [ 678  679  680  681  682  683]\n"
      "   [ 684  685  686  687  688  689]\n"
      "   [ 690  691  692  693  694  695]]]]",
      "array([[[[-600, -599, -598, -597, -596, -595],\n"
      "         [-594, -593, -592, -591, -590, -589],\n"
      "         [-588, -587, -586, -585, -584, -583],\n"
      "         [-582, -581, -580, -579, -578, -577],\n"
      "         [-576, -575, -574, -573, -572, -571],\n"
      "         [-570, -569, -568, -567, -566, -565]],\n"
      "\n"
      "        [[-564, -563, -562, -561, -560, -559],\n"
      "         [-558, -557, -556, -555, -554, -553],\n"
      "         [-552, -551, -550, -549, -548, -547],\n"
      "         [-546, -545, -544, -543, -542, -541],\n"
      "         [-540, -539, -538, -537, -536, -535],\n"
      "         [-534, -533, -532, -531, -530, -529]],\n"
      "\n"
      "        [[-528, -527, -526, -525, -524, -523],\n"
      "         [-522, -521, -520, -519, -518, -517],\n"
      "         [-516, -515, -514, -513, -512, -511],\n"
      "         [-510, -509, -508, -507, -506, -505],\n"
      "         [-504, -503, -502, -501, -500, -499],\n"
      "         [-498, -497, -496, -495, -494, -493]],\n"
      "\n"
      "        [[-492, -491, -490, -489, -488, -487],\n"
      "         [-486, -485, -484, -483, -482, -481],\n"
      "         [-480, -479, -478, -477, -476, -475],\n"
      "         [-474, -473, -472, -471, -470, -469],\n"
      "         [-468, -467, -466, -465, -464, -463],\n"
      "         [-462, -461, -460, -459, -458, -457]],\n"
      "\n"
      "        [[-456, -455, -454, -453, -452, -451],\n"
      "         [-450, -449, -448, -447, -446, -445],\n"
      "         [-444, -443, -442, -441, -440, -439],\n"
      "         [-438, -437, -436, -435, -434, -433],\n"
      "         [-432, -431, -430, -429, -428, -427],\n"
      "         [-426, -425, -424, -423, -422, -421]],\n"
      "\n"
      "        [[-420, -419, -418, -417, -416, -415],\n"
      "         [-414, -413, -412, -411, -410, -409],\n"
      "         [-408, -407, -406, -405, -404, -403],\n"
      "         [-402, -401, -400, -399, -398, -397],\n"
      "         [-396, -395, -394, -393, -392, -391],\n"
      "         [-390, -389, -388, -387, -386, -385]]],\n"
      "\n"
      "\n"
      "       [[[-384, -383, -382, -381, -380, -379],\n"
      "         [-378, -377, -376, -375, -374, -373],\n"
      "         [-372, -371, -370, -369, -368, -367],\n"
      "         [-366, -365, -364, -363, -362, -361],\n"
      "         [-360, -359, -358, -357, -356, -355],\n"
      "         [-354, -353, -352, -351, -350, -349]],\n"
      "\n"
      "        [[-348, -347, -346, -345, -344, -343],\n"
      "         [-342, -341, -340, -339, -338, -337],\n"
      "         [-336, -335, -334, -333, -332, -331],\n"
      "         [-330, -329, -328, -327, -326, -325],\n"
      "         [-324, -323, -322, -321, -320, -319],\n"
      "         [-318, -317, -316, -315, -314, -313]],\n"
      "\n"
      "        [[-312, -311, -310, -309, -308, -307],\n"
      "         [-306, -305, -304, -303, -302, -301],\n"
      "         [-300, -299, -298, -297, -296, -295],\n"
      "         [-294, -293, -292, -291, -290, -289],\n"
      "         [-288, -287, -286, -285, -284, -283],\n"
      "         [-282, -281, -280, -279, -278, -277]],\n"
      "\n"
      "        [[-276, -275, -274, -273, -272, -271],\n"
      "         [-270, -269, -268, -267, -266, -265],\n"
      "         [-264, -263, -262, -261, -260, -259],\n"
      "         [-258, -257, -256, -255, -254, -253],\n"
      "         [-252, -251, -250, -249, -248, -247],\n"
      "         [-246, -245, -244, -243, -242, -241]],\n"
      "\n"
      "        [[-240, -239, -238, -237, -236, -235],\n"
      "         [-234, -233, -232, -231, -230, -229],\n"
      "         [-228, -227, -226, -225, -224, -223],\n"
      "         [-222, -221, -220, -219, -218, -217],\n"
      "         [-216, -215, -214, -213, -212, -211],\n"
      "         [-210, -209, -208, -207, -206, -205]],\n"
      "\n"
      "        [[-204, -203, -202, -201, -200, -199],\n"
      "         [-198, -197, -196, -195, -194, -193],\n"
      "         [-192, -191, -190, -189, -188, -187],\n"
      "         [-186, -185, -184, -183, -182, -181],\n"
      "         [-180, -179, -178, -177, -176, -175],\n"
      "         [-174, -173, -172, -171, -170, -169]]],\n"
      "\n"
      "\n"
      "       [[[-168, -167, -166, -165, -164, -163],\n"
      "         [-162, -161, -160, -159, -158, -157],\n"
      "         [-156, -155, -154, -153, -152, -151],\n"
      "         [-150, -149, -148, -147, -146, -145],\n"
      "         [-144, -143, -142, -141, -140, -139],\n"
      "         [-138, -137, -136, -135, -134, -133]],\n"
      "\n"
      "        [[-132, -131, -130, -129, -128, -127],\n"
      "         [-126, -125, -124, -123, -122, -121],\n"
      "         [-120, -119, -118, -117, -116, -115],\n"
      "         [-114, -113, -112, -111, -110, -109],\n"
      "         [-108, -107, -106, -105, -104, -103],\n"
      "         [-102, -101, -100,  -99,  -98,  -97]],\n"
      "\n"
      "        [[ -96,  -95,  -94,  -93,  -92,  -91],\n"
      "         [ -90,  -89,  -88,  -87,  -86,  -85],\n"
      "         [ -84,  -83,  -82,  -81,  -80,  -79],\n"
      "         [ -78,  -77,  -76,  -75,  -74,  -73],\n"
      "         [ -72,  -71,  -70,  -69,  -68,  -67],\n"
      "         [ -66,  -65,  -64,  -63,  -62,  -61]],\n"
      "\n"
      "        [[ -60,  -59,  -58,  -57,  -56,  -55],\n"
      "         [ -54,  -53,  -52,  -51,  -50,  -49],\n"
      "         [ -48,  -47,  -46,  -45,  -44,  -43],\n"
      "         [ -42,  -41,  -40,  -39,  -38,  -37],\n"
      "         [ -36,  -35,  -34,  -33,  -32,  -31],\n"
      "         [ -30,  -29,  -28,  -27,  -26,  -25]],\n"
      "\n"
      "        [[ -24,  -23,  -22,  -21,  -20,  -19],\n"
      "         [ -18,  -17,  -16,  -15,  -14,  -13],\n"
      "         [ -12,  -11,  -10,   -9,   -8,   -7],\n"
      "         [  -6,   -5,   -4,   -3,   -2,   -1],\n"
      "         [   0,    1,    2,    3,    4,    5],\n"
      "         [   6,    7,    8,    9,   10,   11]],\n"
      "\n"
      "        [[  12,   13,   14,   15,   16,   17],\n"
      "         [  18,   19,   20,   21,   22,   23],\n"
      "         [  24,   25,   26,   27,   28,   29],\n"
      "         [  30,   31,   32,   33,   34,   35],\n"
      "         [  36,   37,   38,   39,   40,   41],\n"
      "         [  42,   43,   44,   45,   46,   47]]],\n"
      "\n"
      "\n"
      "       [[[  48,   49,   50,   51,   52,   53],\n"
      "         [  54,   55,   56,   57,   58,   59],\n"
      "         [  60,   61,   62,   63,   64,   65],\n"
      "         [  66,   67,   68,   69,   70,   71],\n"
      "         [  72,   73,   74,   75,   76,   77],\n"
      "         [  78,   79,   80,   81,   82,   83]],\n"
      "\n"
      "        [[  84,   85,   86,   87,   88,   89],\n"
      "         [  90,   91,   92,   93,   94,   95],\n"
      "         [  96,   97,   98,   99,  100,  101],\n"
      "         [ 102,  103,  104,  105,  106,  107],\n"
      "         [ 108,  109,  110,  111,  112,  113],\n"
      "         [ 114,  115,  116,  117,  118,  119]],\n"
      "\n"
      "        [[ 120,  121,  122,  123,  124,  125],\n"
      "         [ 126,  127,  128,  129,  130,  131],\n"
      "         [ 132,  133,  134,  135,  136,  137],\n"
      "         [ 138,  139,  140,  141,  142,  143],\n"
      "         [ 144,  145,  146,  147,  148,  149],\n"
      "         [ 150,  151,  152,  153,  154,  155]],\n"
      "\n"
      "        [[ 156,  157,  158,  159,  160,  161],\n"
      "         [ 162,  163,  164,  165,  166,  167],\n"
      "         [ 168,  169,  170,  171,  172,  173],\n"
      "         [ 174,  175,  176,  177,  178,  179],\n"
      "         [ 180,  181,  182,  183,  184,  185],\n"
      "         [ 186,  187,  188,  189,  190,  191]],\n"
      "\n"
      "        [[ 192,  193,  194,  195,  196,  197],\n"
      "         [ 198,  199,  200,  201,  202,  203],\n"
      "         [ 204,  205,  206,  207,  208,  209],\n"
      "         [ 210,  211,  212,  213,  214,  215],\n"
      "         [ 216,  217,  218,  219,  220,  221],\n"
      "         [ 222,  223,  224,  225,  226,  227]],\n"
      "\n"
      "        [[ 228,  229,  230,  231,  232,  233],\n"
      "         [ 234,  235,  236,  237,  238,  239],\n"
      "         [ 240,  241,  242,  243,  244,  245],\n"
      "         [ 246,  247,  248,  249,  250,  251],\n"
      "         [ 252,  253,  254,  255,  256,  257],\n"
      "         [ 258,  259,  260,  261,  262,  263]]],\n"
      "\n"
      "\n"
      "       [[[ 264,  265,  266,  267,  268,  269],\n"
      "         [ 270,  271,  272,  273,  274,  275],\n"
      "         [ 276,  277,  278,  279,  280,  281],\n"
      "         [ 282,  283,  284,  285,  286,  287],\n"
      "         [ 288,  289,  290,  291,  292,  293],\n"
      "         [ 294,  295,  296,  297,  298,  299]],\n"
      "\n"
      "        [[ 300,  301,  302,  303,  304,  305],\n"
      "         [ 306,  307,  308,  309,  310,  311],\n"
      "         [ 312,  313,  314,  315,  316,  317],\n"
      "         [ 318,  319,  320,  321,  322,  323],\n"
      "         [ 324,  325,  326,  327,  328,  329],\n"
      "         [ 330,  331,  332,  333,  334,  335]],\n"
      "\n"
      "        [[ 336,  337,  338,  339,  340,  341],\n"
      "         [ 342,  343,  344,  345,  346,  347],\n"
      "         [ 348,  349,  350,  351,  352,  353],\n"
      "         [ 354,  355,  356,  357,  358,  359],\n"
      "         [ 360,  361,  362,  363,  364,  365],\n"
      "         [ 366,  367,  368,  369,  370,  371]],\n"
      "\n"
      "        [[ 372,  373,  374,  375,  376,  377],\n"
      "         [ 378,  379,  380,  381,  382,  383],\n"
      "         [ 384,  385,  386,  387,  388,  389],\n"
      "         [ 390,  391,  392,  393,  394,  395],\n"
      "         [ 396,  397,  398,  399,  400,  401],\n"
      "         [ 402,  403,  404,  405,  406,  407]],\n"
      "\n"
      "        [[ 408,  409,  410,  411,  412,  413],\n"
      "         [ 414,  415,  416,  417,  418,  419],\n"
      "         [ 420,  421,  422,  423,  424,  425],\n"
      "         [ 426,  427,  428,  429,  430,  431],\n"
      "         [ 432,  433,  434,  435,  436,  437],\n"
      "         [ 438,  439,  440,  441,  442,  443]],\n"
      "\n"
      "        [[ 444,  445,  446,  447,  448,  449],\n"
      "         [ 450,  451,  452,  453,  454,  455],\n"
      "         [ 456,  457,  458,  459,  460,  461],\n"
      "         [ 462,  463,  464,  465,  466,  467],\n"
      "         [ 468,  469,  470,  471,  472,  473],\n"
      "         [ 474,  475,  476,  477,  478,  479]]],\n"
      "\n"
      "\n"
      "       [[[ 480,  481,  482,  483,  484,  485],\n"
      "         [ 486,  487,  488,  489,  490,  491],\n"
      "         [ 492,  493,  494,  495,  496,  497],\n"
      "         [ 498,  499,  500,  501,  502,  503],\n"
      "         [ 504,  505,  506,  507,  508,  509],\n"
      "         [ 510,  511,  512,  513,  514,  515]],\n"
      "\n"
      "        [[ 516,  517,  518,  519,  520,  521],\n"
      "         [ 522,  523,  524,  525,  526,  527],\n"
      "         [ 528,  529,  530,  531,  532,  533],\n"
      "         [ 534,  535,  536,  537,  538,  539],\n"
      "         [ 540,  541,  542,  543,  544,  545],\n"
      "         [ 546,  547,  548,  549,  550,  551]],\n"
      "\n"
      "        [[ 552,  553,  554,  555,  556,  557],\n"
      "         [ 558,  559,  560,  561,  562,  563],\n"
      "         [ 564,  565,  566,  567,  568,  569],\n"
      "         [ 570,  571,  572,  573,  574,  575],\n"
      "         [ 576,  577,  578,  579,  580,  581],\n"
      "         [ 582,  583,  584,  585,  586,  587]],\n"
      "\n"
      "        [[ 588,  589,  590,  591,  592,  593],\n"
      "         [ 594,  595,  596,  597,  598,  599],\n"
      "         [ 600,  601,  602,  603,  604,  605],\n"
      "         [ 606,  607,  608,  609,  610,  611],\n"
      "         [ 612,  613,  614,  615,  616,  617],\n"
      "         [ 618,  619,  620,  621,  622,  623]],\n"
      "\n"
      "        [[ 624,  625,  626,  627,  628,  629],\n"
      "         [ 630,  631,  632,  633,  634,  635],\n"
      "         [ 636,  637,  638,  639,  640,  641],\n"
      "         [ 642,  643,  644,  645,  646,  647],\n"
      "         [ 648,  649,  650,  651,  652,  653],\n"
      "         [ 654,  655,  656,  657,  658,  659]],\n"
      "\n"
      "        [[ 660,  661,  662,  663,  664,  665],\n"
      "         [ 666,  667,  668,  669,  670,  671],\n"
      "         [ 672,  673,  674,  675,  676,  677],\n"
      "         [ 678,  679,  680,  681,  682,  683],\n"
      "         [ 684,  685,  686,  687,  688,  689],\n"
      "         [ 690,  691,  692,  693,  694,  695]]]], dtype=int16)");
  /* np.((arange(2000)*1 + 0)/1).astype(float64).reshape((2000,))  with edgeitems=1 */
  { static const int64_t sh[] = {2000}; t = mk_range(TSR_FLOAT64, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults; po.edgeitems = 1;
  check_fmt(t, &po,
      "[   0. ... 1999.]",
      "array([   0., ..., 1999.])");
  /* np.((arange(3000)*1 + 0)/1).astype(int64).reshape((3000,))  with edgeitems=5 */
  { static const int64_t sh[] = {3000}; t = mk_range(TSR_INT64, 1, sh, 0.0, 1.0, 1.0); }
  po = defaults; po.edgeitems = 5;
  check_fmt(t, &po,
      "[   0    1    2    3    4 ... 2995 2996 2997 2998 2999]",
      "array([   0,    1,    2,    3,    4, ..., 2995, 2996, 2997, 2998, 2999])");
  /* np.array([1/3, 2/3, 1e-5])  with precision=3 */
  { static const int64_t sh[] = {3}; static const double v[] = {0.3333333333333333, 0.6666666666666666, 1e-05};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 3;
  check_fmt(t, &po,
      "[3.333e-01 6.667e-01 1.000e-05]",
      "array([3.333e-01, 6.667e-01, 1.000e-05])");
  /* np.array([1/3, 2/3, 10.])  with precision=3 */
  { static const int64_t sh[] = {3}; static const double v[] = {0.3333333333333333, 0.6666666666666666, 10.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 3;
  check_fmt(t, &po,
      "[ 0.333  0.667 10.   ]",
      "array([ 0.333,  0.667, 10.   ])");
  /* np.array([0.125, 0.375, 2.5, 1/3])  with precision=2 */
  { static const int64_t sh[] = {4}; static const double v[] = {0.125, 0.375, 2.5, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 2;
  check_fmt(t, &po,
      "[0.12 0.38 2.5  0.33]",
      "array([0.12, 0.38, 2.5 , 0.33])");
  /* np.array([0.5, 1.5, 2.5, 1/3])  with precision=0 */
  { static const int64_t sh[] = {4}; static const double v[] = {0.5, 1.5, 2.5, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 0;
  check_fmt(t, &po,
      "[0. 2. 2. 0.]",
      "array([0., 2., 2., 0.])");
  /* R.randn(3, 3)  with precision=3 */
  { static const int64_t sh[] = {3, 3}; static const double v[] = {-0.11610393903436653, -0.0616264020956474, -0.10730527629117469, -0.7196043885517929, -0.8129929885540773, 0.2745163577239395, -0.8909150829955279, -1.1573552591908536, -0.3122922511256933};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults; po.precision = 3;
  check_fmt(t, &po,
      "[[-0.116 -0.062 -0.107]\n"
      " [-0.72  -0.813  0.275]\n"
      " [-0.891 -1.157 -0.312]]",
      "array([[-0.116, -0.062, -0.107],\n"
      "       [-0.72 , -0.813,  0.275],\n"
      "       [-0.891, -1.157, -0.312]])");
  /* np.array([1e-5, 1.0, 1e3])  with suppress=True */
  { static const int64_t sh[] = {3}; static const double v[] = {1e-05, 1.0, 1000.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.suppress = true;
  check_fmt(t, &po,
      "[   0.00001    1.      1000.     ]",
      "array([   0.00001,    1.     , 1000.     ])");
  /* np.array([1e-10, 1.0])  with suppress=True */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-10, 1.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.suppress = true;
  check_fmt(t, &po,
      "[0. 1.]",
      "array([0., 1.])");
  /* np.array([1e-5, 1e8])  with suppress=True */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 100000000.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.suppress = true;
  check_fmt(t, &po,
      "[1.e-05 1.e+08]",
      "array([1.e-05, 1.e+08])");
  /* np.array([1e-5, 123.5, -7.])  with suppress=True, precision=3 */
  { static const int64_t sh[] = {3}; static const double v[] = {1e-05, 123.5, -7.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.suppress = true; po.precision = 3;
  check_fmt(t, &po,
      "[  0.  123.5  -7. ]",
      "array([  0. , 123.5,  -7. ])");
  /* np.arange(30.)  with linewidth=40 */
  { static const int64_t sh[] = {30}; static const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.linewidth = 40;
  check_fmt(t, &po,
      "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.\n"
      "  9. 10. 11. 12. 13. 14. 15. 16. 17.\n"
      " 18. 19. 20. 21. 22. 23. 24. 25. 26.\n"
      " 27. 28. 29.]",
      "array([ 0.,  1.,  2.,  3.,  4.,  5.,\n"
      "        6.,  7.,  8.,  9., 10., 11.,\n"
      "       12., 13., 14., 15., 16., 17.,\n"
      "       18., 19., 20., 21., 22., 23.,\n"
      "       24., 25., 26., 27., 28., 29.])");
  /* np.arange(30.) / 7  with linewidth=40 */
  { static const int64_t sh[] = {30}; static const double v[] = {0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.5714285714285714, 0.7142857142857143, 0.8571428571428571, 1.0, 1.1428571428571428, 1.2857142857142858, 1.4285714285714286, 1.5714285714285714, 1.7142857142857142, 1.8571428571428572, 2.0, 2.142857142857143, 2.2857142857142856, 2.4285714285714284, 2.5714285714285716, 2.7142857142857144, 2.857142857142857, 3.0, 3.142857142857143, 3.2857142857142856, 3.4285714285714284, 3.5714285714285716, 3.7142857142857144, 3.857142857142857, 4.0, 4.142857142857143};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.linewidth = 40;
  check_fmt(t, &po,
      "[0.         0.14285714 0.28571429\n"
      " 0.42857143 0.57142857 0.71428571\n"
      " 0.85714286 1.         1.14285714\n"
      " 1.28571429 1.42857143 1.57142857\n"
      " 1.71428571 1.85714286 2.\n"
      " 2.14285714 2.28571429 2.42857143\n"
      " 2.57142857 2.71428571 2.85714286\n"
      " 3.         3.14285714 3.28571429\n"
      " 3.42857143 3.57142857 3.71428571\n"
      " 3.85714286 4.         4.14285714]",
      "array([0.        , 0.14285714,\n"
      "       0.28571429, 0.42857143,\n"
      "       0.57142857, 0.71428571,\n"
      "       0.85714286, 1.        ,\n"
      "       1.14285714, 1.28571429,\n"
      "       1.42857143, 1.57142857,\n"
      "       1.71428571, 1.85714286,\n"
      "       2.        , 2.14285714,\n"
      "       2.28571429, 2.42857143,\n"
      "       2.57142857, 2.71428571,\n"
      "       2.85714286, 3.        ,\n"
      "       3.14285714, 3.28571429,\n"
      "       3.42857143, 3.57142857,\n"
      "       3.71428571, 3.85714286,\n"
      "       4.        , 4.14285714])");
  /* np.arange(20).reshape(4, 5)  with linewidth=40 */
  { static const int64_t sh[] = {4, 5}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults; po.linewidth = 40;
  check_fmt(t, &po,
      "[[ 0  1  2  3  4]\n"
      " [ 5  6  7  8  9]\n"
      " [10 11 12 13 14]\n"
      " [15 16 17 18 19]]",
      "array([[ 0,  1,  2,  3,  4],\n"
      "       [ 5,  6,  7,  8,  9],\n"
      "       [10, 11, 12, 13, 14],\n"
      "       [15, 16, 17, 18, 19]])");
  /* np.arange(12, dtype=np.int8)  with linewidth=40 */
  { static const int64_t sh[] = {12}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL};
      t = mk_i(TSR_INT8, 1, sh, v); }
  po = defaults; po.linewidth = 40;
  check_fmt(t, &po,
      "[ 0  1  2  3  4  5  6  7  8  9 10 11]",
      "array([ 0,  1,  2,  3,  4,  5,  6,  7,\n"
      "        8,  9, 10, 11], dtype=int8)");
  /* np.arange(20).reshape(4, 5)  with threshold=10 */
  { static const int64_t sh[] = {4, 5}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults; po.threshold = 10;
  check_fmt(t, &po,
      "[[ 0  1  2  3  4]\n"
      " [ 5  6  7  8  9]\n"
      " [10 11 12 13 14]\n"
      " [15 16 17 18 19]]",
      "array([[ 0,  1,  2,  3,  4],\n"
      "       [ 5,  6,  7,  8,  9],\n"
      "       [10, 11, 12, 13, 14],\n"
      "       [15, 16, 17, 18, 19]])");
  /* np.arange(20.).reshape(4, 5)  with threshold=10 */
  { static const int64_t sh[] = {4, 5}; static const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults; po.threshold = 10;
  check_fmt(t, &po,
      "[[ 0.  1.  2.  3.  4.]\n"
      " [ 5.  6.  7.  8.  9.]\n"
      " [10. 11. 12. 13. 14.]\n"
      " [15. 16. 17. 18. 19.]]",
      "array([[ 0.,  1.,  2.,  3.,  4.],\n"
      "       [ 5.,  6.,  7.,  8.,  9.],\n"
      "       [10., 11., 12., 13., 14.],\n"
      "       [15., 16., 17., 18., 19.]])");
  /* np.arange(11)  with threshold=10 */
  { static const int64_t sh[] = {11}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults; po.threshold = 10;
  check_fmt(t, &po,
      "[ 0  1  2 ...  8  9 10]",
      "array([ 0,  1,  2, ...,  8,  9, 10])");
  /* np.arange(10)  with threshold=10 */
  { static const int64_t sh[] = {10}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults; po.threshold = 10;
  check_fmt(t, &po,
      "[0 1 2 3 4 5 6 7 8 9]",
      "array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])");
  /* np.arange(10)  with threshold=5, edgeitems=0 */
  { static const int64_t sh[] = {10}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults; po.threshold = 5; po.edgeitems = 0;
  check_fmt(t, &po,
      "[... 9]",
      "array([..., 9])");
  /* np.arange(20).reshape(4, 5)  with threshold=5, edgeitems=0 */
  { static const int64_t sh[] = {4, 5}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults; po.threshold = 5; po.edgeitems = 0;
  check_fmt(t, &po,
      "[...\n"
      " [... 19]]",
      "array([...,\n"
      "       [..., 19]])");
  /* np.arange(100).reshape(10, 10)  with threshold=10, edgeitems=2 */
  { static const int64_t sh[] = {10, 10}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL, 21LL, 22LL, 23LL, 24LL, 25LL, 26LL, 27LL, 28LL, 29LL, 30LL, 31LL, 32LL, 33LL, 34LL, 35LL, 36LL, 37LL, 38LL, 39LL, 40LL, 41LL, 42LL, 43LL, 44LL, 45LL, 46LL, 47LL, 48LL, 49LL, 50LL, 51LL, 52LL, 53LL, 54LL, 55LL, 56LL, 57LL, 58LL, 59LL, 60LL, 61LL, 62LL, 63LL, 64LL, 65LL, 66LL, 67LL, 68LL, 69LL, 70LL, 71LL, 72LL, 73LL, 74LL, 75LL, 76LL, 77LL, 78LL, 79LL, 80LL, 81LL, 82LL, 83LL, 84LL, 85LL, 86LL, 87LL, 88LL, 89LL, 90LL, 91LL, 92LL, 93LL, 94LL, 95LL, 96LL, 97LL, 98LL, 99LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults; po.threshold = 10; po.edgeitems = 2;
  check_fmt(t, &po,
      "[[ 0  1 ...  8  9]\n"
      " [10 11 ... 18 19]\n"
      " ...\n"
      " [80 81 ... 88 89]\n"
      " [90 91 ... 98 99]]",
      "array([[ 0,  1, ...,  8,  9],\n"
      "       [10, 11, ..., 18, 19],\n"
      "       ...,\n"
      "       [80, 81, ..., 88, 89],\n"
      "       [90, 91, ..., 98, 99]])");
  /* np.arange(8, dtype=np.float32)  with threshold=5, linewidth=20 */
  { static const int64_t sh[] = {8}; static const double v[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults; po.threshold = 5; po.linewidth = 20;
  check_fmt(t, &po,
      "[0. 1. 2. ... 5. 6.\n"
      " 7.]",
      "array([0., 1., 2.,\n"
      "       ..., 5., 6.,\n"
      "       7.],\n"
      "      dtype=float32)");
  /* np.array([1., -2., np.nan, np.inf])  with sign='+' */
  { static const int64_t sh[] = {4}; static const double v[] = {1.0, -2.0, NAN, INFINITY};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = '+';
  check_fmt(t, &po,
      "[ +1.  -2. +nan +inf]",
      "array([ +1.,  -2., +nan, +inf])");
  /* np.array([1., 2., np.nan, np.inf])  with sign=' ' */
  { static const int64_t sh[] = {4}; static const double v[] = {1.0, 2.0, NAN, INFINITY};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = ' ';
  check_fmt(t, &po,
      "[  1.   2.  nan  inf]",
      "array([  1.,   2.,  nan,  inf])");
  /* np.array([1., -2.])  with sign=' ' */
  { static const int64_t sh[] = {2}; static const double v[] = {1.0, -2.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = ' ';
  check_fmt(t, &po,
      "[ 1. -2.]",
      "array([ 1., -2.])");
  /* np.array([1, 2])  with sign='+' */
  { static const int64_t sh[] = {2}; static const int64_t v[] = {1LL, 2LL};
      t = mk_i(TSR_INT64, 1, sh, v); }
  po = defaults; po.sign = '+';
  check_fmt(t, &po,
      "[1 2]",
      "array([1, 2])");
  /* np.array([1e-5, 2.])  with sign='+' */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 2.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = '+';
  check_fmt(t, &po,
      "[+1.e-05 +2.e+00]",
      "array([+1.e-05, +2.e+00])");
  /* np.array([1e-5, 2.])  with sign=' ' */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 2.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = ' ';
  check_fmt(t, &po,
      "[ 1.e-05  2.e+00]",
      "array([ 1.e-05,  2.e+00])");
  /* np.array([np.nan, np.inf])  with sign='+' */
  { static const int64_t sh[] = {2}; static const double v[] = {NAN, INFINITY};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.sign = '+';
  check_fmt(t, &po,
      "[+nan +inf]",
      "array([+nan, +inf])");
  /* np.array([0.1, 0.25], dtype=np.float32)  with floatmode='fixed' */
  { static const int64_t sh[] = {2}; static const double v[] = {0.10000000149011612, 0.25};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_FIXED;
  check_fmt(t, &po,
      "[0.10000000 0.25000000]",
      "array([0.10000000, 0.25000000], dtype=float32)");
  /* np.array([1e-5, 0.25])  with floatmode='fixed' */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-05, 0.25};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_FIXED;
  check_fmt(t, &po,
      "[1.00000000e-05 2.50000000e-01]",
      "array([1.00000000e-05, 2.50000000e-01])");
  /* np.array([0.1, 1/3])  with floatmode='unique' */
  { static const int64_t sh[] = {2}; static const double v[] = {0.1, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_UNIQUE;
  check_fmt(t, &po,
      "[0.1                0.3333333333333333]",
      "array([0.1               , 0.3333333333333333])");
  /* np.array([0.1, 1/3], dtype=np.float32)  with floatmode='unique' */
  { static const int64_t sh[] = {2}; static const double v[] = {0.10000000149011612, 0.3333333432674408};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_UNIQUE;
  check_fmt(t, &po,
      "[0.1        0.33333334]",
      "array([0.1       , 0.33333334], dtype=float32)");
  /* np.array([1e-7, 1/3])  with floatmode='unique' */
  { static const int64_t sh[] = {2}; static const double v[] = {1e-07, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_UNIQUE;
  check_fmt(t, &po,
      "[1.000000000000000e-07 3.333333333333333e-01]",
      "array([1.000000000000000e-07, 3.333333333333333e-01])");
  /* np.array([0.1, 0.2500001], dtype=np.float32)  with floatmode='maxprec_equal' */
  { static const int64_t sh[] = {2}; static const double v[] = {0.10000000149011612, 0.25000008940696716};
      t = mk_f(TSR_FLOAT32, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_MAXPREC_EQUAL;
  check_fmt(t, &po,
      "[0.1000000 0.2500001]",
      "array([0.1000000, 0.2500001], dtype=float32)");
  /* np.array([0.1, 1/3])  with floatmode='maxprec_equal', precision=20 */
  { static const int64_t sh[] = {2}; static const double v[] = {0.1, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_MAXPREC_EQUAL; po.precision = 20;
  check_fmt(t, &po,
      "[0.1000000000000000 0.3333333333333333]",
      "array([0.1000000000000000, 0.3333333333333333])");
  /* np.array([1.5, 2.0, 1e-5])  with floatmode='maxprec_equal' */
  { static const int64_t sh[] = {3}; static const double v[] = {1.5, 2.0, 1e-05};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_MAXPREC_EQUAL;
  check_fmt(t, &po,
      "[1.5e+00 2.0e+00 1.0e-05]",
      "array([1.5e+00, 2.0e+00, 1.0e-05])");
  /* np.array([1.5, 2.0])  with floatmode='maxprec_equal' */
  { static const int64_t sh[] = {2}; static const double v[] = {1.5, 2.0};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.floatmode = FLOATMODE_MAXPREC_EQUAL;
  check_fmt(t, &po,
      "[1.5 2.0]",
      "array([1.5, 2.0])");
  /* np.array([1.5, 1/3])  with precision=12 */
  { static const int64_t sh[] = {2}; static const double v[] = {1.5, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 12;
  check_fmt(t, &po,
      "[1.5            0.333333333333]",
      "array([1.5           , 0.333333333333])");
  /* np.array([0.1, 1/3])  with precision=20 */
  { static const int64_t sh[] = {2}; static const double v[] = {0.1, 0.3333333333333333};
      t = mk_f(TSR_FLOAT64, 1, sh, v); }
  po = defaults; po.precision = 20;
  check_fmt(t, &po,
      "[0.1                0.3333333333333333]",
      "array([0.1               , 0.3333333333333333])");
  /* np.array([[1.5, 2.], [3., 4.]])  with linewidth=10 */
  { static const int64_t sh[] = {2, 2}; static const double v[] = {1.5, 2.0, 3.0, 4.0};
      t = mk_f(TSR_FLOAT64, 2, sh, v); }
  po = defaults; po.linewidth = 10;
  check_fmt(t, &po,
      "[[1.5\n"
      "  2. ]\n"
      " [3.\n"
      "  4. ]]",
      "array([[1.5,\n"
      "        2. ],\n"
      "       [3. ,\n"
      "        4. ]])");
  /* np.arange(6).reshape(2, 3)  with linewidth=1 */
  { static const int64_t sh[] = {2, 3}; static const int64_t v[] = {0LL, 1LL, 2LL, 3LL, 4LL, 5LL};
      t = mk_i(TSR_INT64, 2, sh, v); }
  po = defaults; po.linewidth = 1;
  check_fmt(t, &po,
      "[[0\n"
      "  1\n"
      "  2]\n"
      " [3\n"
      "  4\n"
      "  5]]",
      "array([[0,\n"
      "        1,\n"
      "        2],\n"
      "       [3,\n"
      "        4,\n"
      "        5]])");
}

static void test_pyfloat(void) {
  check_pyfloat(0.1, "0.1");  /* repr(0.1) */
  check_pyfloat(1e-05, "1e-05");  /* repr(1e-05) */
  check_pyfloat(1e+16, "1e+16");  /* repr(1e16) */
  check_pyfloat(1.5, "1.5");  /* repr(1.5) */
  check_pyfloat(123.0, "123.0");  /* repr(123.0) */
  check_pyfloat(-0.0, "-0.0");  /* repr(-0.0) */
  check_pyfloat(NAN, "nan");  /* repr(float("nan")) */
  check_pyfloat(INFINITY, "inf");  /* repr(float("inf")) */
  check_pyfloat(-INFINITY, "-inf");  /* repr(-float("inf")) */
  check_pyfloat(1e+22, "1e+22");  /* repr(1e22) */
  check_pyfloat(5e-324, "5e-324");  /* repr(5e-324) */
  check_pyfloat(1.7976931348623157e+308, "1.7976931348623157e+308");  /* repr(1.7976931348623157e308) */
  check_pyfloat(0.0001, "0.0001");  /* repr(0.0001) */
  check_pyfloat(0.00012, "0.00012");  /* repr(0.00012) */
  check_pyfloat(1.2345678901234568e+17, "1.2345678901234568e+17");  /* repr(123456789012345680.0) */
  check_pyfloat(0.3333333333333333, "0.3333333333333333");  /* repr(1/3) */
  check_pyfloat(9007199254740992.0, "9007199254740992.0");  /* repr(2.0**53) */
  check_pyfloat(9999999999999998.0, "9999999999999998.0");  /* repr(9999999999999998.0) */
  check_pyfloat(1000000000000000.0, "1000000000000000.0");  /* repr(1e15) */
  check_pyfloat(-2.5e-07, "-2.5e-07");  /* repr(-2.5e-7) */
  check_pyfloat(100.0, "100.0");  /* repr(100.0) */
  check_pyfloat(0.0, "0.0");  /* repr(0.0) */
  check_dtype(TSR_FLOAT64, "dtype('float64')");  /* repr(np.dtype('float64')) */
  check_dtype(TSR_FLOAT32, "dtype('float32')");  /* repr(np.dtype('float32')) */
  check_dtype(TSR_INT8, "dtype('int8')");  /* repr(np.dtype('int8')) */
  check_dtype(TSR_UINT64, "dtype('uint64')");  /* repr(np.dtype('uint64')) */
  check_dtype(TSR_BOOL, "dtype('bool')");  /* repr(np.dtype('bool')) */
}

/* The defaults of numpy.get_printoptions(). */
static void test_defaults(void) {
  PrintOptions po;
  printoptions_default(&po);
  CHECK(po.precision == 8 && po.threshold == 1000 && po.edgeitems == 3 && po.linewidth == 75);
  CHECK(!po.suppress && po.sign == '-' && po.floatmode == FLOATMODE_MAXPREC);
}

/* Output appended to a buffer that already holds text: columns count from where fmt started,
   as NumPy's str() knows nothing of what print() wrote before it. */
static void test_append(void) {
  Buf b;
  buf_init(&b, &ctx);
  buf_puts(&b, "x = ");
  Tensor *t = mk_range(TSR_INT64, 1, (int64_t[]){30}, 0, 1, 1);
  fmt_repr(&b, t, NULL);
  /* "x = " + repr(np.arange(30)) */
  CHECK_STR(buf_str(&b), "x = array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
                         "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])");
  buf_free(&b);
  tensor_release(t);
}

/* Formatting everything of a big tensor (threshold above its size) is linear.
   str(np.arange(200000) / 7) under threshold=sys.maxsize has 3050000 characters. */
static void test_big(void) {
  PrintOptions po;
  printoptions_default(&po);
  po.threshold = INT64_MAX;
  Tensor *t = mk_range(TSR_FLOAT64, 1, (int64_t[]){200000}, 0, 1, 7);
  Buf b;
  buf_init(&b, &ctx);
  fmt_str(&b, t, &po);
  CHECK(!b.failed && b.n == 3050000);
  CHECK(strncmp(buf_str(&b), "[0.00000000e+00 1.42857143e-01 2.85714286e-01 4.28571429e-01", 60) == 0);
  buf_free(&b);
  tensor_release(t);
}

/* A memory cap hit while printing sets the buffer's failure flag and leaks nothing. */
static void test_oom(void) {
  Tensor *t = mk_range(TSR_FLOAT64, 2, (int64_t[]){20, 20}, 0, 1, 3);
  size_t used = ctx.mem_used;
  ctx.mem_max = used + 200;
  Buf b;
  buf_init(&b, &ctx);
  fmt_repr(&b, t, NULL);
  CHECK(b.failed);
  CHECK(ctx.status == TSR_ERR_MEMORY);
  buf_free(&b);
  ctx_clear(&ctx);
  ctx.mem_max = 0;
  CHECK(ctx.mem_used == used);
  tensor_release(t);
}

/* A real 0-d array (t->ndarray) reprs as an array, a NumPy scalar as its value; str is the
   scalar's either way.  repr(np.array(1.5)), repr(np.float64(1.5)), repr(np.array(True)),
   repr(np.array(1e-7, dtype=np.float32)), repr(np.array(7, dtype=np.uint8)). */
static void test_zero_d(void) {
  Tensor *t = mk_f(TSR_FLOAT64, 0, NULL, (double[]){1.5});
  t->ndarray = 1;
  check_fmt(t, NULL, "1.5", "array(1.5)");
  check_fmt(mk_f(TSR_FLOAT64, 0, NULL, (double[]){1.5}), NULL, "1.5", "1.5");
  t = mk_i(TSR_BOOL, 0, NULL, (int64_t[]){1});
  t->ndarray = 1;
  check_fmt(t, NULL, "True", "array(True)");
  t = mk_f(TSR_FLOAT32, 0, NULL, (double[]){1e-7});
  t->ndarray = 1;
  check_fmt(t, NULL, "1e-07", "array(1.e-07, dtype=float32)");
  t = mk_i(TSR_UINT8, 0, NULL, (int64_t[]){7});
  t->ndarray = 1;
  check_fmt(t, NULL, "7", "array(7, dtype=uint8)");
}

/* numpy.array2string: the prefix indents wrapped lines but is not written, the suffix narrows
   the line.  np.array2string(np.arange(12) * 1.5, prefix='xxxxxxxx', separator=', ',
   suffix='))))'), np.array2string(np.array(2.5)), np.array2string(np.zeros((2, 0))). */
static void test_array2string(void) {
  PrintOptions po;
  printoptions_default(&po);
  Tensor *t = mk_range(TSR_FLOAT64, 1, (int64_t[]){12}, 0, 1.5, 1);
  Buf b;
  buf_init(&b, &ctx);
  fmt_array2string(&b, t, &po, ", ", 8, 4);
  CHECK_STR(buf_str(&b), "[ 0. ,  1.5,  3. ,  4.5,  6. ,  7.5,  9. , 10.5, 12. , 13.5,\n"
                         "         15. , 16.5]");
  buf_free(&b);
  tensor_release(t);
  t = mk_f(TSR_FLOAT64, 0, NULL, (double[]){2.5});
  buf_init(&b, &ctx);
  fmt_array2string(&b, t, &po, " ", 0, 0);
  CHECK_STR(buf_str(&b), "2.5");
  buf_free(&b);
  tensor_release(t);
  t = mk_empty(TSR_FLOAT64, 2, (int64_t[]){2, 0});
  buf_init(&b, &ctx);
  fmt_array2string(&b, t, &po, " ", 0, 0);
  CHECK_STR(buf_str(&b), "[]");
  buf_free(&b);
  tensor_release(t);
}

int main(void) {
  ctx_init(&ctx, NULL, NULL);
  test_zero_d();
  test_array2string();
  test_defaults();
  test_numpy_cases();
  test_pyfloat();
  test_append();
  test_big();
  test_oom();
  CHECK(ctx.mem_used == 0);
  return CHECK_DONE("fmt");
}
