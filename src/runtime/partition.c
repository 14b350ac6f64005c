/*
** partition.c -- numpy.partition and numpy.argpartition.  Which element lands where, besides
** the kth ones, is whatever NumPy's introselect leaves there, so tsr runs the same selection
** algorithm step for step (as NumPy 1.24 describes it: median-of-3 pivots with an unguarded
** partition, a selection sort when kth is within 3 of the range's start, a max scan for the
** last element of float data, median-of-medians-of-5 pivots once the depth limit is spent,
** and a stack of earlier pivots that narrows the range for each further kth).  Every lane is
** selected through an index permutation, so partition(a) is a[argpartition(a)]; NaN sorts
** last, as in NumPy's sorts.
*/
#include "rt.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PIVOTS 50

/* Remembers pivot p (>= kth) for later kth values, as NumPy's pivot stack does. */
static void store_pivot(int64_t p, int64_t kth, int64_t *pivots, int *npiv) {
  if (p == kth && *npiv == MAX_PIVOTS) pivots[*npiv - 1] = p;
  else if (p >= kth && *npiv < MAX_PIVOTS) pivots[(*npiv)++] = p;
}

/* Element i of the lane, and a swap of two positions: through the permutation ix (D = 0, for
   argpartition and partition) or on the values in place (D = 1, for the quantiles). */
#define AT_(D, i) ((D) ? v[i] : v[ix[i]])
/* The lane from position o on, as the (values, permutation) pair of arguments. */
#define SUB_(D, o) (D) ? v + (o) : v, (D) ? ix : ix + (o)
#define SWAP_(D, a, b)                                                                     \
  do {                                                                                     \
    if (D) { __typeof__(v[0]) t_ = v[a]; v[a] = v[b]; v[b] = t_; }                         \
    else { int64_t t_ = ix[a]; ix[a] = ix[b]; ix[b] = t_; }                                \
  } while (0)

#define DEFINE_SELECT(NAME, T, LT, INEXACT, D)                                                 \
  static void NAME##_dumb(T *v, int64_t *ix, int64_t num, int64_t kth) {              \
    for (int64_t i = 0; i <= kth; i++) {                                                   \
      int64_t mi = i;                                                                      \
      T mv = AT_(D, i);                                                                     \
      for (int64_t k = i + 1; k < num; k++)                                                \
        if (LT(AT_(D, k), mv)) { mi = k; mv = AT_(D, k); }                                    \
      SWAP_(D, i, mi);                                                                     \
    }                                                                                      \
  }                                                                                        \
  static int64_t NAME##_median5(T *v, int64_t *ix) {                                 \
    if (LT(AT_(D, 1), AT_(D, 0))) SWAP_(D, 1, 0);                                            \
    if (LT(AT_(D, 4), AT_(D, 3))) SWAP_(D, 4, 3);                                            \
    if (LT(AT_(D, 3), AT_(D, 0))) SWAP_(D, 3, 0);                                            \
    if (LT(AT_(D, 4), AT_(D, 1))) SWAP_(D, 4, 1);                                            \
    if (LT(AT_(D, 2), AT_(D, 1))) SWAP_(D, 2, 1);                                            \
    if (LT(AT_(D, 3), AT_(D, 2))) return LT(AT_(D, 3), AT_(D, 1)) ? 1 : 3;                     \
    return 2;                                                                              \
  }                                                                                        \
  static void NAME(T *v, int64_t *ix, int64_t num, int64_t kth, int64_t *pivots,     \
                   int *npiv);                                                             \
  static int64_t NAME##_mom5(T *v, int64_t *ix, int64_t num) {                       \
    int64_t nmed = num / 5;                                                                \
    for (int64_t i = 0, sub = 0; i < nmed; i++, sub += 5) {                                \
      int64_t m = NAME##_median5(SUB_(D, sub));                                            \
      SWAP_(D, sub + m, i);                                                                \
    }                                                                                      \
    if (nmed > 2) {                                                                        \
      int np_ = 0;                                                                         \
      NAME(v, ix, nmed, nmed / 2, NULL, &np_);                                             \
    }                                                                                      \
    return nmed / 2;                                                                       \
  }                                                                                        \
  static void NAME(T *v, int64_t *ix, int64_t num, int64_t kth, int64_t *pivots,     \
                   int *npiv) {                                                            \
    int64_t low = 0, high = num - 1;                                                       \
    while (pivots && *npiv > 0) {                                                          \
      int64_t p = pivots[*npiv - 1];                                                       \
      if (p > kth) { high = p - 1; break; }                                                \
      if (p == kth) return;                                                                \
      low = p + 1;                                                                         \
      (*npiv)--;                                                                           \
    }                                                                                      \
    if (kth - low < 3) {                                                                   \
      NAME##_dumb(SUB_(D, low), high - low + 1, kth - low);                                \
      if (pivots) store_pivot(kth, kth, pivots, npiv);                                     \
      return;                                                                              \
    }                                                                                      \
    if (INEXACT && kth == num - 1) {                                                       \
      int64_t mi = low;                                                                    \
      T mv = AT_(D, low);                                                                   \
      for (int64_t k = low + 1; k < num; k++)                                              \
        if (!LT(AT_(D, k), mv)) { mi = k; mv = AT_(D, k); }                                   \
      SWAP_(D, kth, mi);                                                                   \
      return;                                                                              \
    }                                                                                      \
    int depth = 0;                                                                         \
    for (uint64_t u = (uint64_t)num; u > 1; u >>= 1) depth++;                              \
    depth *= 2;                                                                            \
    while (low + 1 < high) {                                                               \
      int64_t ll = low + 1, hh = high;                                                     \
      if (depth > 0 || hh - ll < 5) {                                                      \
        int64_t mid = low + (high - low) / 2;                                              \
        if (LT(AT_(D, high), AT_(D, mid))) SWAP_(D, high, mid);                              \
        if (LT(AT_(D, high), AT_(D, low))) SWAP_(D, high, low);                              \
        if (LT(AT_(D, low), AT_(D, mid))) SWAP_(D, low, mid);                                \
        SWAP_(D, mid, low + 1);                                                            \
      } else {                                                                             \
        int64_t mid = ll + NAME##_mom5(SUB_(D, ll), hh - ll);                              \
        SWAP_(D, mid, low);                                                                \
        ll--;                                                                              \
        hh++;                                                                              \
      }                                                                                    \
      depth--;                                                                             \
      T pivot = AT_(D, low);                                                                \
      for (;;) {                                                                           \
        do ll++; while (LT(AT_(D, ll), pivot));                                             \
        do hh--; while (LT(pivot, AT_(D, hh)));                                             \
        if (hh < ll) break;                                                                \
        SWAP_(D, ll, hh);                                                                  \
      }                                                                                    \
      SWAP_(D, low, hh);                                                                   \
      if (hh != kth && pivots) store_pivot(hh, kth, pivots, npiv);                         \
      if (hh >= kth) high = hh - 1;                                                        \
      if (hh <= kth) low = ll;                                                             \
    }                                                                                      \
    if (high == low + 1 && LT(AT_(D, high), AT_(D, low))) SWAP_(D, high, low);               \
    if (pivots) store_pivot(kth, kth, pivots, npiv);                                       \
  }

#define LT_PLAIN(a, b) ((a) < (b))
#define LT_FLOAT(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
#define DEFINE_BOTH(NAME, T, LT, INEXACT) \
  DEFINE_SELECT(NAME, T, LT, INEXACT, 0) DEFINE_SELECT(NAME##_direct, T, LT, INEXACT, 1)
DEFINE_BOTH(sel_bool, bool, LT_PLAIN, 0)
DEFINE_BOTH(sel_i8, int8_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_i16, int16_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_i32, int32_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_i64, int64_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_u8, uint8_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_u16, uint16_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_u32, uint32_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_u64, uint64_t, LT_PLAIN, 0)
DEFINE_BOTH(sel_f32, float, LT_FLOAT, 1)
DEFINE_BOTH(sel_f64, double, LT_FLOAT, 1)

/* Selects each kth (ascending) of the contiguous lane v of num elements: into ix (the
   permutation, initially 0..num-1) when ix is not NULL, else on the values in place; one
   pivot stack per lane for all kth, as NumPy's. */
static void select_lane(DType dt, void *v, int64_t *ix, int64_t num, const int64_t *kth,
                        int nkth) {
  int64_t pivots[MAX_PIVOTS];
  int npiv = 0;
#define SEL(F) (ix ? F(v, ix, num, kth[k], pivots, &npiv) : F##_direct(v, ix, num, kth[k], pivots, &npiv))
  for (int k = 0; k < nkth; k++) {
    switch (dt) {
    case TSR_BOOL: SEL(sel_bool); break;
    case TSR_INT8: SEL(sel_i8); break;
    case TSR_INT16: SEL(sel_i16); break;
    case TSR_INT32: SEL(sel_i32); break;
    case TSR_INT64: SEL(sel_i64); break;
    case TSR_UINT8: SEL(sel_u8); break;
    case TSR_UINT16: SEL(sel_u16); break;
    case TSR_UINT32: SEL(sel_u32); break;
    case TSR_UINT64: SEL(sel_u64); break;
    case TSR_FLOAT32: SEL(sel_f32); break;
    case TSR_FLOAT64: SEL(sel_f64); break;
    }
  }
#undef SEL
}

void partition_lane(DType dt, char *lane, int64_t n, const int64_t *kth, int nkth) {
  select_lane(dt, lane, NULL, n, kth, nkth);
}

uint64_t partition_work(int64_t n, int64_t nkth) {
  uint64_t levels = 3;
  while (nkth > 1) { levels++; nkth = (nkth + 1) / 2; }
  return (uint64_t)n * levels;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

Tensor *tensor_partition(Ctx *c, Tensor *t, const int64_t *kth_in, int nkth, int axis,
                         bool arg) {
  if (t->ndim == 0) {
    ERR_AXIS(c, "axis %d is out of bounds for array of dimension 0", axis);
    return NULL;
  }
  int ax;
  if (axis_normalize(c, axis, t->ndim, &ax) < 0) return NULL;
  int64_t n = t->shape[ax], kth[MAX_PIVOTS];
  if (nkth > MAX_PIVOTS) {
    ERR_VALUE(c, "partition: at most %d kth values", MAX_PIVOTS);
    return NULL;
  }
  for (int k = 0; k < nkth; k++) {
    kth[k] = kth_in[k] < 0 ? kth_in[k] + n : kth_in[k];
    if (kth[k] < 0 || kth[k] >= n) {
      ERR_VALUE(c, "kth(=%lld) out of bounds (%lld)", (long long)kth[k], (long long)n);
      return NULL;
    }
  }
  qsort(kth, (size_t)nkth, sizeof *kth, cmp_i64);
  /* lanes: the axis moved last, copied C-contiguous */
  int perm[TSR_MAXDIMS];
  for (int d = 0, j = 0; d < t->ndim; d++)
    if (d != ax) perm[j++] = d;
  perm[t->ndim - 1] = ax;
  Tensor *moved = tensor_transpose(c, t, perm), *lanes = NULL, *r = NULL, *rm = NULL;
  if (!moved || !(lanes = tensor_copy(c, moved))) goto done;
  if (!(r = tensor_empty(c, arg ? TSR_INT64 : t->dtype, lanes->ndim, lanes->shape))) goto done;
  int64_t nl = n ? tensor_size(lanes) / n : 0, isz = (int64_t)dtype_size(t->dtype);
  size_t ixb = (size_t)(n ? n : 1) * sizeof(int64_t);
  int64_t *ix = ctx_malloc(c, ixb);
  if (!ix) { tensor_release(r); r = NULL; goto done; }
  const char *src = tensor_data(lanes);
  char *dst = tensor_data(r);
  for (int64_t l = 0; l < nl; l++) {
    const char *lane = src + l * n * isz;
    for (int64_t i = 0; i < n; i++) ix[i] = i;
    if (n > 0) select_lane(t->dtype, (void *)lane, ix, n, kth, nkth);
    if (ctx_work(c, partition_work(n, nkth), WORK_COMPARE)) {
      ctx_free(c, ix, ixb);
      tensor_release(r);
      r = NULL;
      goto done;
    }
    if (arg) {
      memcpy(dst + l * n * 8, ix, (size_t)n * 8);
    } else {
      char *out = dst + l * n * isz;
      for (int64_t i = 0; i < n; i++) memcpy(out + i * isz, lane + ix[i] * isz, (size_t)isz);
    }
  }
  ctx_free(c, ix, ixb);
  /* the axis back in place (a view of the lane-ordered result) */
  int inv[TSR_MAXDIMS];
  for (int d = 0; d < t->ndim; d++) inv[perm[d]] = d;
  if ((rm = tensor_transpose(c, r, inv))) {
    tensor_release(r);
    r = tensor_copy(c, rm);
    tensor_release(rm);
  } else {
    tensor_release(r);
    r = NULL;
  }
done:
  if (moved) tensor_release(moved);
  if (lanes) tensor_release(lanes);
  return r;
}
