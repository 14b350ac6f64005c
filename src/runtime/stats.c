/*
** stats.c -- order statistics along axes: numpy.median, percentile/quantile with NumPy 1.24's
** thirteen methods, and their nan* variants.  The reduced axes are moved last and flattened,
** every lane is sorted once (sort.c, NaN last), and each requested quantile is read from the
** sorted lane with NumPy's index and interpolation arithmetic.
*/
#include "rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NumPy's method names, indexed by QuantileMethod ("median" last, tsr's own). */
const char *const quantile_method_names[QM_COUNT] = {
#define X_NAME(name, str) str,
  QUANTILE_METHODS(X_NAME)
#undef X_NAME
};

/* ------------------------------------------------------------------------------------------
** Per-dtype arithmetic on two elements of a sorted lane.
*/

/* NumPy's _lerp of elements a (index i) and b (index j) with weight t: the difference b - a
   in the lane's dtype (integers wrap), then a + d*t, or b - d*(1-t) when t >= 0.5, in
   float64.  mid_sum: the float64 sum (-0.0 + a) + b that numpy.mean starts from (median of
   integers), or for floats the sum in the lane's dtype. */
#define DEFINE_PAIR(ENUM, T, NAME, KIND)                                                   \
  static double lerp_##T(const char *lane, int64_t i, int64_t j, double t) {               \
    T a = ((const T *)lane)[i], b = ((const T *)lane)[j];                                  \
    T d = KIND == 'f' ? (T)(b - a) : (T)((uint64_t)b - (uint64_t)a);                       \
    return t >= 0.5 ? (double)b - (double)d * (1 - t) : (double)a + (double)d * t;         \
  }
DTYPE_TABLE(DEFINE_PAIR)
#undef DEFINE_PAIR
typedef double (*LerpFn)(const char *, int64_t, int64_t, double);
#define X_LERP(ENUM, T, NAME, KIND) [ENUM] = lerp_##T,
static const LerpFn lerp_fns[DTYPE_COUNT] = { DTYPE_TABLE(X_LERP) };
#undef X_LERP

/* The median of a sorted lane of n elements, written to out (dtype odt): the mean of the
   middle one or two as numpy.mean computes it (the pairwise sum from -0.0, added to the
   reduction's output that starts at 0.0, so a -0.0 median is 0.0; then a division by the
   count; float32 for float32 lanes, float64 otherwise).  masked: as numpy.ma.median
   computes it for nanmedian along an axis (NumPy's _nanmedian_small): the middle value of an
   odd count taken twice, summed and halved (which overflows for floats beyond half the
   dtype's maximum, and is the plain median otherwise). */
static void lane_median(DType dt, const char *lane, int64_t n, bool masked, DType odt,
                        char *out) {
  size_t sz = dtype_size(dt);
  int64_t h = n / 2, i = n % 2 ? h : h - 1;
  bool pair = masked || i != h;
  if (dt == TSR_FLOAT32) {
    float s = -0.0f + *(const float *)(lane + i * sz);
    if (pair) s = s + *(const float *)(lane + h * sz);
    s = 0.0f + s;
    if (pair) s = s / 2.0f;
    *(float *)out = s;
    return;
  }
  double s = -0.0 + dtype_get_f64(dt, lane + i * sz);
  if (pair) s = s + dtype_get_f64(dt, lane + h * sz);
  s = 0.0 + s;
  if (pair) s = s / 2.0;
  dtype_set_f64(odt, out, s);
}

/* ------------------------------------------------------------------------------------------
** NumPy's virtual indexes.
*/

/* The position of quantile q in n sorted values for method m: a discrete index (*discrete
   true, *idx set) or a virtual index with the previous/next indices and NumPy's gamma (what
   _get_indexes and _get_gamma give, including their -1 for "last" when past the end). */
typedef struct QPos { bool discrete; int64_t idx, prev, next; double gamma; } QPos;

/* The virtual-index arithmetic in T: float64, or float32 where NumPy computes in float32 (q a
   float32 array of 1 dim or more, meeting a count small enough to be a float32-sized
   Python int under value-based casting).  gamma is float64 either way (NumPy subtracts the
   intp previous index). */
#define DEFINE_QPOS(NAME, T, FLOOR, CEIL, RINT, FMOD)                                       \
  static int64_t NAME##_boundary(T x, bool closest) {                                      \
    T prev = FLOOR(x), g = x - prev;                                                       \
    T r2 = FMOD(prev, (T)2);                                                               \
    if (r2 < 0) r2 += 2;                                                                   \
    bool cond = closest ? g == 0 && r2 == 0 : g == 0;                                      \
    T r = cond ? prev : prev + 1;                                                          \
    return r < 0 ? 0 : (int64_t)r;                                                         \
  }                                                                                        \
  static T NAME##_ab(int64_t n, T q, double alpha, double beta) {                          \
    return (T)n * q + ((T)alpha + q * (T)(1 - alpha - beta)) - 1;                          \
  }                                                                                        \
  static QPos NAME(QuantileMethod m, int64_t n, T q) {                                     \
    QPos p = {false, 0, 0, 0, 0};                                                          \
    T x = (T)(n - 1) * q, vi;                                                              \
    switch (m) {                                                                           \
    case QM_LOWER: p.discrete = true; p.idx = (int64_t)FLOOR(x); return p;                 \
    case QM_HIGHER: p.discrete = true; p.idx = (int64_t)CEIL(x); return p;                 \
    case QM_NEAREST: p.discrete = true; p.idx = (int64_t)RINT(x); return p;                \
    case QM_INVERTED_CDF:                                                                  \
      p.discrete = true; p.idx = NAME##_boundary((T)n * q - 1, false); return p;           \
    case QM_CLOSEST_OBSERVATION:                                                           \
      p.discrete = true; p.idx = NAME##_boundary((T)n * q - 1 - (T)0.5, true); return p;   \
    case QM_MIDPOINT: vi = (T)0.5 * (FLOOR(x) + CEIL(x)); break;                           \
    case QM_AVERAGED_INVERTED_CDF: vi = (T)n * q - 1; break;                               \
    case QM_INTERPOLATED_INVERTED_CDF: vi = NAME##_ab(n, q, 0, 1); break;                  \
    case QM_HAZEN: vi = NAME##_ab(n, q, 0.5, 0.5); break;                                  \
    case QM_WEIBULL: vi = NAME##_ab(n, q, 0, 0); break;                                    \
    case QM_MEDIAN_UNBIASED: vi = NAME##_ab(n, q, 1.0 / 3, 1.0 / 3); break;                \
    case QM_NORMAL_UNBIASED: vi = NAME##_ab(n, q, 3.0 / 8, 3.0 / 8); break;                \
    default: vi = x; break;                                                                \
    }                                                                                      \
    double prev = (double)FLOOR(vi), next = prev + 1;                                      \
    if (vi >= (T)(n - 1)) prev = next = -1;                                                \
    if (vi < 0) prev = next = 0;                                                           \
    if (vi != vi) prev = next = -1;                                                        \
    p.gamma = (double)vi - prev;                                                           \
    if (m == QM_MIDPOINT) p.gamma = p.gamma == 0 ? 0 : 0.5;                                \
    if (m == QM_AVERAGED_INVERTED_CDF) p.gamma = p.gamma == 0 ? 0.5 : 1;                   \
    p.prev = prev < 0 ? n - 1 : (int64_t)prev;                                             \
    p.next = next < 0 ? n - 1 : (int64_t)next;                                             \
    return p;                                                                              \
  }
DEFINE_QPOS(qpos_f64, double, floor, ceil, rint, fmod)
DEFINE_QPOS(qpos_f32, float, floorf, ceilf, rintf, fmodf)
#undef DEFINE_QPOS

/* NumPy's position of quantile q among n sorted values (q_f32: q came from a float32 array). */
static QPos quantile_position(QuantileMethod m, int64_t n, double q, bool q_f32) {
  bool by_n_minus_1 = m == QM_LINEAR || m == QM_LOWER || m == QM_HIGHER || m == QM_NEAREST ||
                      m == QM_MIDPOINT;
  if (q_f32 && (by_n_minus_1 ? n - 1 : n) <= 65535) return qpos_f32(m, n, (float)q);
  return qpos_f64(m, n, q);
}

/* ------------------------------------------------------------------------------------------
** The reduction.
*/

/* The result dtype of method m on dtype dt (rt.h). */
DType stats_quantile_dtype(QuantileMethod m, DType dt) {
  if (m == QM_MEDIAN) return dtype_is_float(dt) ? dt : TSR_FLOAT64;
  if (m == QM_LOWER || m == QM_HIGHER || m == QM_NEAREST || m == QM_INVERTED_CDF ||
      m == QM_CLOSEST_OBSERVATION)
    return dt;
  return TSR_FLOAT64;
}

/* Writes NaN (or, for an integer output, what a cast of NaN gives) to out. */
static void put_nan(DType odt, char *out) { dtype_set_f64(odt, out, NAN); }

/* One output element: quantile q of the first n (valid) elements of a sorted lane. */
static void lane_quantile(QuantileMethod m, DType dt, const char *lane, int64_t n, double q,
                          bool q_f32, bool masked, DType odt, char *out) {
  size_t sz = dtype_size(dt);
  if (m == QM_MEDIAN) {
    lane_median(dt, lane, n, masked, odt, out);
    return;
  }
  QPos p = quantile_position(m, n, q, q_f32);
  if (p.discrete) memcpy(out, lane + p.idx * (int64_t)sz, sz);
  else dtype_set_f64(odt, out, lerp_fns[dt](lane, p.prev, p.next, p.gamma));
}

/* Does the reduction keep some axis? */
static bool lanes_kept(const bool *red, int nd) {
  for (int i = 0; i < nd; i++)
    if (!red[i]) return true;
  return false;
}

/* The number of non-NaN elements of a lane of m elements. */
static int64_t valid_count(DType dt, const char *lane, int64_t m) {
  if (!dtype_is_float(dt)) return m;
  int64_t n = 0;
  size_t sz = dtype_size(dt);
  for (int64_t i = 0; i < m; i++) n += !isnan(dtype_get_f64(dt, lane + (size_t)i * sz));
  return n;
}

/* Compares two int64 (qsort). */
static int cmp_pos(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Partitions a lane of len elements (n of them not NaN) at every position the quantiles q
   (or the median) will read, so that those positions hold the sorted lane's elements
   (partition.c, in place; O(len) per position instead of a sort).  pos: scratch of 2 * qn
   int64. */
static void select_positions(QuantileMethod m, DType dt, char *lane, int64_t len, int64_t n,
                             const double *q, int64_t qn, bool q_f32, int64_t *pos) {
  int64_t k = 0;
  for (int64_t j = 0; j < qn; j++) {
    if (m == QM_MEDIAN) {
      pos[k++] = n % 2 ? n / 2 : n / 2 - 1;
      pos[k++] = n / 2;
      continue;
    }
    QPos p = quantile_position(m, n, q ? q[j] : 0.5, q_f32);
    if (p.discrete) pos[k++] = p.idx;
    else { pos[k++] = p.prev; pos[k++] = p.next; }
  }
  qsort(pos, (size_t)k, sizeof *pos, cmp_pos);
  int64_t u = 0;
  for (int64_t i = 0; i < k; i++) {
    int64_t v = pos[i] < 0 ? 0 : pos[i] >= n ? n - 1 : pos[i];
    if (u == 0 || pos[u - 1] != v) pos[u++] = v;
  }
  for (int64_t i = 0; i < u; i += 50)   /* the pivot stack holds 50 */
    partition_lane(dt, lane, len, pos + i, (int)(u - i < 50 ? u - i : 50));
}

/* numpy.median / quantile / nanquantile of t over axes (rt.h has the contract): moves the
   reduced axes last, copies the lanes, partitions each at the positions its quantiles read
   (NumPy partitions too) and reads each q there.  The result is laid out q-major: element
   (j, lane l) at j * lanes + l. */
Tensor *stats_quantile(Ctx *c, Tensor *t, const double *q, bool q_f32, int qndim,
                       const int64_t *qshape, QuantileMethod m, const int *axes, int naxes,
                       bool keepdims, bool skip_nan, int *flags) {
  bool red[TSR_MAXDIMS];
  int perm[TSR_MAXDIMS], nd = t->ndim, np_ = 0;
  int64_t oshape[2 * TSR_MAXDIMS], lanes = 1, len = 1, qn = 1;
  Tensor *moved = NULL, *flat = NULL, *sorted = NULL, *r = NULL;
  int64_t *scratch = NULL;
  size_t sbytes = 0;
  *flags = 0;
  for (int i = 0; i < nd; i++) red[i] = naxes < 0;
  for (int i = 0; i < naxes; i++) {
    int ax;
    if (axis_normalize(c, axes[i], nd, &ax)) return NULL;
    if (red[ax]) { ERR_VALUE(c, "repeated axis"); return NULL; }
    red[ax] = true;
  }
  if (t->dtype == TSR_BOOL && m != QM_MEDIAN && stats_quantile_dtype(m, t->dtype) != TSR_BOOL) {
    ERR_TYPE(c, "numpy boolean subtract, the `-` operator, is not supported, use the "
                "bitwise_xor, the `^` operator, or the logical_xor function instead.");
    return NULL;
  }
  int ond = 0;
  for (int i = 0; i < qndim; i++) { oshape[ond++] = qshape[i]; qn *= qshape[i]; }
  for (int i = 0; i < nd; i++)
    if (!red[i]) { perm[np_++] = i; oshape[ond++] = t->shape[i]; lanes *= t->shape[i]; }
    else if (keepdims) oshape[ond++] = 1;
  for (int i = 0; i < nd; i++)
    if (red[i]) { perm[np_++] = i; len *= t->shape[i]; }
  if (ond > TSR_MAXDIMS) { ERR_VALUE(c, "quantile result has too many dimensions"); return NULL; }
  if (len == 0 && m != QM_MEDIAN && !skip_nan && lanes * qn > 0) {
    ERR_INDEX(c, "cannot do a non-empty take from an empty axes.");
    return NULL;
  }
  DType dt = t->dtype, odt = stats_quantile_dtype(m, dt);
  /* nanmedian over some axes of an array that keeps others, slices shorter than 600: NumPy
     takes its numpy.ma.median path */
  bool masked = skip_nan && m == QM_MEDIAN && naxes >= 0 && lanes_kept(red, nd) && len < 600;
  if (!(moved = tensor_transpose(c, t, perm))) goto fail;
  {
    int64_t shape2[2] = {lanes, len};
    if (!(flat = tensor_reshape(c, moved, 2, shape2))) goto fail;
  }
  if (!(sorted = tensor_copy(c, flat))) goto fail;
  sbytes = (size_t)(2 * qn + lanes) * sizeof(int64_t) + 1;
  if (!(scratch = ctx_malloc(c, sbytes))) goto fail;
  /* nanquantile builds its result from the first slice's (numpy.apply_along_axis): an
     all-NaN first slice gives NaN in the input's dtype, and so the whole result has it */
  if (skip_nan && dtype_is_float(dt) && lanes > 0 && len > 0 &&
      valid_count(dt, tensor_data(sorted), len) == 0)
    odt = dt;
  /* a scalar q over every axis of a lane holding NaN: NumPy's _quantile returns the lane's
     last (NaN) element itself, in the input's dtype (found by fuzzdiff) */
  if (!skip_nan && qndim == 0 && !lanes_kept(red, nd) && dtype_is_float(dt) && len > 0 &&
      valid_count(dt, tensor_data(sorted), len) < len)
    odt = dt;
  if (!(r = tensor_empty(c, odt, ond, oshape))) goto fail;
  bool check = m == QM_MEDIAN && dtype_is_float(odt) && fperr_active(c);
  {
    size_t sz = dtype_size(dt), osz = dtype_size(odt);
    char *sp = tensor_data(sorted);
    char *op = tensor_data(r);
    int64_t *pos = scratch, *counts = scratch + 2 * qn;
    /* first every lane's count of valid elements (-1: holds NaN and the result is NaN) and
       its selection, whose NaN comparisons raise the invalid flag... */
    for (int64_t l = 0; l < lanes; l++) {
      char *lane = sp + (size_t)(l * len) * sz;
      int64_t n = len;
      if (dtype_is_float(dt) && len > 0) {
        int64_t valid = valid_count(dt, lane, len);
        if (skip_nan) n = valid;
        else if (valid < len) n = -1;
      }
      counts[l] = n;
      if (n == 0) *flags |= skip_nan && len > 0 ? STATS_ALL_NAN : STATS_EMPTY;
      else if (n > 0) select_positions(m, dt, lane, len, n, q, qn, q_f32, pos);
      if (ctx_work(c, partition_work(len, 2 * qn), WORK_COMPARE)) goto fail;
    }
    /* ...then the flags of the median's sum of the middle pair alone, which is numpy.mean's
       reduction: its overflow and invalid flags are reported as that reduction's */
    if (check) fperr_clear();
    for (int64_t l = 0; l < lanes; l++) {
      const char *lane = sp + (size_t)(l * len) * sz;
      for (int64_t j = 0; j < qn; j++) {
        char *o = op + (size_t)(j * lanes + l) * osz;
        if (counts[l] <= 0) put_nan(odt, o);
        else lane_quantile(m, dt, lane, counts[l], q ? q[j] : 0.5, q_f32, masked, odt, o);
      }
    }
  }
  tensor_release(moved);
  tensor_release(flat);
  tensor_release(sorted);
  if (scratch) ctx_free(c, scratch, sbytes);
  if (check) {
    int f = fperr_test();
    if (f && fperr_report(c, f, "reduce") < 0) { tensor_release(r); return NULL; }
  }
  return r;
fail:
  tensor_release(moved);
  tensor_release(flat);
  tensor_release(sorted);
  tensor_release(r);
  if (scratch) ctx_free(c, scratch, sbytes);
  return NULL;
}

/* The QuantileMethod named name (rt.h); "median" is not a NumPy method and is not found. */
int stats_method_from_name(const char *name, QuantileMethod *out) {
  for (int k = 0; k < QM_MEDIAN; k++)
    if (strcmp(name, quantile_method_names[k]) == 0) { *out = (QuantileMethod)k; return 0; }
  return -1;
}
