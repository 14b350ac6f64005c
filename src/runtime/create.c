/*
** create.c -- tensor creation with computed contents: numpy.arange, numpy.linspace and
** numpy.eye, each reproducing NumPy 1.24's arithmetic so the values agree bit for bit.
*/
#include "rt.h"

#include <math.h>

/* NumPy's arange fill: element 0 and 1 are set by casting start and start + step to the dtype,
   the rest are start + i * (x[1] - x[0]) computed in the dtype (integers wrap); fill_T sets
   elements [lo, n). */
#define DEFINE_FILL(ENUM, T, NAME, KIND)                                                   \
  static void fill_##T(char *data, int64_t lo, int64_t n) {                                \
    T *p = (T *)data;                                                                      \
    if (KIND == 'f') {                                                                     \
      T start = p[0], delta = p[1];                                                        \
      delta -= start;                                                                      \
      for (int64_t i = lo; i < n; i++) p[i] = (T)(start + (T)i * delta);                   \
    } else {                                                                               \
      uint64_t start = (uint64_t)p[0], delta = (uint64_t)p[1] - start;                     \
      for (int64_t i = lo; i < n; i++) p[i] = (T)(start + (uint64_t)i * delta);            \
    }                                                                                      \
  }
DEFINE_FILL(TSR_INT8, int8_t, "int8", 'i')
DEFINE_FILL(TSR_INT16, int16_t, "int16", 'i')
DEFINE_FILL(TSR_INT32, int32_t, "int32", 'i')
DEFINE_FILL(TSR_INT64, int64_t, "int64", 'i')
DEFINE_FILL(TSR_UINT8, uint8_t, "uint8", 'u')
DEFINE_FILL(TSR_UINT16, uint16_t, "uint16", 'u')
DEFINE_FILL(TSR_UINT32, uint32_t, "uint32", 'u')
DEFINE_FILL(TSR_UINT64, uint64_t, "uint64", 'u')
DEFINE_FILL(TSR_FLOAT32, float, "float32", 'f')
DEFINE_FILL(TSR_FLOAT64, double, "float64", 'f')

#define ARANGE_CHUNK ((int64_t)1 << 16)   /* elements filled between interrupt polls */

/* Fills elements 2.. of a fresh 1-d tensor whose first two elements are set.  bool has no
   fill function in NumPy: ValueError "no fill-function for data-type." beyond 2 elements. */
static int arange_fill(Ctx *c, Tensor *t, int64_t n) {
  char *p = tensor_data(t);
  if (n <= 2) return 0;
  if (t->dtype == TSR_BOOL) return ERR_VALUE(c, "no fill-function for data-type.");
  /* in chunks, polling between them so that an interrupt stops a huge arange at once */
  for (int64_t lo = 2; lo < n; lo += ARANGE_CHUNK) {
    int64_t hi = n - lo > ARANGE_CHUNK ? lo + ARANGE_CHUNK : n;
    switch (t->dtype) {
    case TSR_BOOL: break;
    case TSR_INT8: fill_int8_t(p, lo, hi); break;
    case TSR_INT16: fill_int16_t(p, lo, hi); break;
    case TSR_INT32: fill_int32_t(p, lo, hi); break;
    case TSR_INT64: fill_int64_t(p, lo, hi); break;
    case TSR_UINT8: fill_uint8_t(p, lo, hi); break;
    case TSR_UINT16: fill_uint16_t(p, lo, hi); break;
    case TSR_UINT32: fill_uint32_t(p, lo, hi); break;
    case TSR_UINT64: fill_uint64_t(p, lo, hi); break;
    case TSR_FLOAT32: fill_float(p, lo, hi); break;
    case TSR_FLOAT64: fill_double(p, lo, hi); break;
    }
    if (ctx_work(c, hi - lo, WORK_ELEMENT)) return -1;
  }
  return 0;
}

/* numpy.arange(start, stop, step, dtype=dt) with float arguments: length
   ceil((stop - start) / step), clamped at 0.  ZeroDivisionError "float division by zero" for
   step 0, ValueError "arange: cannot compute length" for NaN, "Maximum allowed size exceeded"
   for a length beyond int64.  Returns a new 1-d tensor or NULL. */
Tensor *create_arange(Ctx *c, double start, double stop, double step, DType dt) {
  if (step == 0) {
    ERR_ZERODIV(c, "float division by zero");
    return NULL;
  }
  double len = ceil((stop - start) / step);
  if (isnan(len)) {
    ERR_VALUE(c, "arange: cannot compute length");
    return NULL;
  }
  if (len >= 9223372036854775808.0) {
    ERR_VALUE(c, "Maximum allowed size exceeded");
    return NULL;
  }
  int64_t n = len > 0 ? (int64_t)len : 0;
  Tensor *t = tensor_empty(c, dt, 1, &n);
  if (!t) return NULL;
  size_t sz = dtype_size(dt);
  if (n > 0) dtype_set_f64(dt, tensor_data(t), start);
  if (n > 1) dtype_set_f64(dt, tensor_data(t) + sz, start + step);
  if (arange_fill(c, t, n)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* numpy.arange with Python int arguments (exact integer length, values cast to dt).
   ZeroDivisionError "division by zero" for step 0.  Returns a new 1-d tensor or NULL. */
Tensor *create_arange_i64(Ctx *c, int64_t start, int64_t stop, int64_t step, DType dt) {
  if (step == 0) {
    ERR_ZERODIV(c, "division by zero");
    return NULL;
  }
  uint64_t count = progression_count(start, stop, step);
  if (count > (uint64_t)INT64_MAX) {
    ERR_VALUE(c, "Maximum allowed size exceeded");
    return NULL;
  }
  int64_t n = (int64_t)count;
  Tensor *t = tensor_empty(c, dt, 1, &n);
  if (!t) return NULL;
  size_t sz = dtype_size(dt);
  if (n > 0) dtype_set_i64(dt, tensor_data(t), start);
  if (n > 1) dtype_set_i64(dt, tensor_data(t) + sz, (int64_t)((uint64_t)start + (uint64_t)step));
  if (arange_fill(c, t, n)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* numpy.linspace(start, stop, num, endpoint, dtype=dt): computed in float64 as NumPy does
   (step = (stop - start) / div, y = i * step + start, or (i / div) * delta + start when the
   step underflows to 0; the last element is stop when endpoint), floored for integer dtypes,
   then cast.  ValueError "Number of samples, -1, must be non-negative.".  New 1-d tensor. */
Tensor *create_linspace(Ctx *c, double start, double stop, int64_t num, bool endpoint,
                        DType dt) {
  if (num < 0) {
    ERR_VALUE(c, "Number of samples, %lld, must be non-negative.", (long long)num);
    return NULL;
  }
  Tensor *t = tensor_empty(c, dt, 1, &num);
  if (!t) return NULL;
  int64_t div = endpoint ? num - 1 : num;
  double delta = stop - start, step = div > 0 ? delta / (double)div : NAN;
  size_t sz = dtype_size(dt);
  char *p = tensor_data(t);
  for (int64_t i = 0; i < num; i++) {
    double y;
    if (div > 0 && step != 0) y = (double)i * step;
    else if (div > 0) y = (double)i / (double)div * delta;
    else y = (double)i * delta;
    y += start;
    if (endpoint && num > 1 && i == num - 1) y = stop;
    if (dtype_is_int(dt)) y = floor(y);
    dtype_set_f64(dt, p + (size_t)i * sz, y);
  }
  if (ctx_work(c, num, WORK_ELEMENT)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* numpy.eye(N, M, k, dtype=dt): ones on the k-th diagonal of an N x M matrix.  ValueError
   "negative dimensions are not allowed".  Returns a new 2-d tensor or NULL. */
Tensor *create_eye(Ctx *c, int64_t n, int64_t m, int64_t k, DType dt) {
  if (n < 0 || m < 0) {
    ERR_VALUE(c, "negative dimensions are not allowed");
    return NULL;
  }
  int64_t shape[2] = { n, m };
  Tensor *t = tensor_zeros(c, dt, 2, shape);
  if (!t) return NULL;
  size_t sz = dtype_size(dt);
  char *p = tensor_data(t);
  /* the diagonal is (i, i + k) for max(0, -k) <= i < min(n, m - k): none when k <= -n or
     k >= m (tested first, so that -k and i + k cannot overflow) */
  if (k > -n && k < m)
    for (int64_t i = k < 0 ? -k : 0; i < n && i + k < m; i++)
      dtype_set_i64(dt, p + (size_t)(i * m + i + k) * sz, 1);
  return t;
}
