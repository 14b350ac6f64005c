/*
** search.c -- binary search in sorted 1-d tensors (numpy.searchsorted) and the sliding dot
** product of two 1-d tensors (numpy.correlate / numpy.convolve), for the builtins of
** src/lang/builtins_search.c.
*/
#include "rt.h"

#include <string.h>

/* The comparison type of two dtypes: float64 for floats (NaN sorts last), uint64 when the
   promoted type is uint64, else int64. */
static DType search_key_dtype(DType a, DType b) {
  DType p = dtype_promote(a, b);
  if (dtype_is_float(p)) return TSR_FLOAT64;
  return p == TSR_UINT64 ? TSR_UINT64 : TSR_INT64;
}

/* NaN-aware x < y (NaN after every number, as NumPy sorts). */
static inline bool lt_f64(double x, double y) { return x < y || (y != y && x == x); }
static inline bool lt_i64(int64_t x, int64_t y) { return x < y; }
static inline bool lt_u64(uint64_t x, uint64_t y) { return x < y; }

/* For each of the nv keys v, the first index i of the n sorted keys a with
   !(a[i] < key) (left) or key < a[i] (right). */
#define SEARCH_LOOP(T, LT)                                                     \
  static void search_##T(const T *a, int64_t n, const T *v, int64_t nv,         \
                         bool right, int64_t *out) {                            \
    for (int64_t k = 0; k < nv; k++) {                                          \
      T key = v[k];                                                             \
      int64_t lo = 0, hi = n;                                                   \
      while (lo < hi) {                                                         \
        int64_t mid = lo + ((hi - lo) >> 1);                                    \
        bool go_right = right ? !LT(key, a[mid]) : LT(a[mid], key);             \
        if (go_right) lo = mid + 1; else hi = mid;                              \
      }                                                                         \
      out[k] = lo;                                                              \
    }                                                                           \
  }
typedef double f64;
SEARCH_LOOP(f64, lt_f64)
SEARCH_LOOP(int64_t, lt_i64)
SEARCH_LOOP(uint64_t, lt_u64)
#undef SEARCH_LOOP

/* a (1-d) gathered through sorter (1-d integer, a.size entries), as a contiguous tensor of
   dtype kd.  ValueError when sorter's size differs or an index is out of range. */
static Tensor *gather_sorted(Ctx *c, Tensor *a, Tensor *sorter, DType kd) {
  if (tensor_size(sorter) != a->shape[0]) {
    ERR_VALUE(c, "sorter.size must equal a.size");
    return NULL;
  }
  Tensor *src = tensor_contiguous(c, a, kd), *idx = NULL, *r = NULL;
  if (!src || !(idx = tensor_contiguous(c, sorter, TSR_INT64))) goto done;
  int64_t n = a->shape[0];
  if (!(r = tensor_empty(c, kd, 1, &n))) goto done;
  const int64_t *ix = (const int64_t *)tensor_data(idx);
  size_t size = dtype_size(kd);
  for (int64_t i = 0; i < n; i++) {
    int64_t j = ix[i];
    if (j < 0 || j >= n) {
      ERR_VALUE(c, "Sorter index out of range.");
      tensor_release(r);
      r = NULL;
      goto done;
    }
    memcpy(tensor_data(r) + (size_t)i * size, tensor_data(src) + (size_t)j * size, size);
  }
done:
  tensor_release(src);
  tensor_release(idx);
  return r;
}

/* numpy.searchsorted(a, v, side, sorter): a is 1-d (sorted ascending, or sorted through
   sorter, a 1-d integer tensor of a's size or NULL); v any shape and dtype.  Both are compared
   in their common type (NaN last).  Returns int64 indices of v's shape (0-d for 0-d v): the
   first i with v <= a[i] (left) or v < a[i] (right).  New reference; NULL with ValueError
   ("sorter.size must equal a.size", "Sorter index out of range.") or MemoryError. */
Tensor *search_sorted(Ctx *c, Tensor *a, Tensor *v, bool right, Tensor *sorter) {
  DType kd = search_key_dtype(a->dtype, v->dtype);
  Tensor *ka = sorter ? gather_sorted(c, a, sorter, kd) : tensor_contiguous(c, a, kd);
  Tensor *kv = NULL, *r = NULL;
  if (!ka || !(kv = tensor_contiguous(c, v, kd))) goto done;
  if (!(r = tensor_empty(c, TSR_INT64, v->ndim, v->shape))) goto done;
  int64_t n = a->shape[0], nv = tensor_size(v), *out = (int64_t *)tensor_data(r);
  /* in pieces of keys, each charged its binary search: log2 n + 1 levels a key, each level two
     comparisons' worth (a large sorted array misses the cache at every level) */
  uint64_t per_key = 1;
  while (per_key < 64 && ((int64_t)1 << (per_key - 1)) <= n) per_key++;
  per_key *= 2;
  const int64_t piece = 16384;
  for (int64_t k0 = 0; k0 < nv; k0 += piece) {
    int64_t m = nv - k0 < piece ? nv - k0 : piece;
    if (ctx_work(c, (uint64_t)m * per_key, WORK_COMPARE)) {
      tensor_release(r);
      r = NULL;
      goto done;
    }
    if (kd == TSR_FLOAT64)
      search_f64((const f64 *)tensor_data(ka), n, (const f64 *)tensor_data(kv) + k0, m, right,
                 out + k0);
    else if (kd == TSR_UINT64)
      search_uint64_t((const uint64_t *)tensor_data(ka), n,
                      (const uint64_t *)tensor_data(kv) + k0, m, right, out + k0);
    else
      search_int64_t((const int64_t *)tensor_data(ka), n, (const int64_t *)tensor_data(kv) + k0,
                     m, right, out + k0);
  }
done:
  tensor_release(ka);
  tensor_release(kv);
  return r;
}

/* The sliding dot products of a and v, accumulated in type T and stored through dt.
   out[k] = sum_j a[k + j - pad] * v[j] over the j with 0 <= k + j - pad < n, in increasing j,
   for k in [k0, k1). */
#define CORRELATE_LOOP(T, ACC, ADD, MUL)                                                   \
  static void correlate_##T(const T *a, int64_t n, const T *v, int64_t m, int64_t pad,     \
                            int64_t k0, int64_t k1, T *out) {                              \
    for (int64_t k = k0; k < k1; k++) {                                                    \
      int64_t j0 = pad - k > 0 ? pad - k : 0, j1 = n + pad - k < m ? n + pad - k : m;      \
      ACC s = 0;                                                                           \
      for (int64_t j = j0; j < j1; j++) s = ADD(s, MUL(a[k + j - pad], v[j]));             \
      out[k] = (T)s;                                                                       \
    }                                                                                      \
  }
#define PLUS(x, y) ((x) + (y))
#define TIMES(x, y) ((x) * (y))
#define OR(x, y) ((x) || (y))
#define AND(x, y) ((x) && (y))
#define UPLUS(x, y) ((uint64_t)(x) + (uint64_t)(y))
#define UTIMES(x, y) ((uint64_t)(x) * (uint64_t)(y))
typedef float f32;
CORRELATE_LOOP(f64, double, PLUS, TIMES)
CORRELATE_LOOP(f32, float, PLUS, TIMES)
CORRELATE_LOOP(uint64_t, uint64_t, UPLUS, UTIMES)
CORRELATE_LOOP(bool, bool, OR, AND)
#undef CORRELATE_LOOP

/* numpy.correlate's core: a (n elements) and v (m elements), both 1-d and non-empty, in
   their promoted dtype; out[k] = sum_j a[k + j - pad] * v[j] for k in [0, nout) (pad = m - 1
   and nout = n + m - 1 give mode 'full').  Integers wrap as NumPy's do.  Returns a new 1-d
   tensor of the promoted dtype, or NULL with MemoryError. */
Tensor *search_correlate(Ctx *c, Tensor *a, Tensor *v, int64_t pad, int64_t nout) {
  DType dt = dtype_promote(a->dtype, v->dtype);
  DType work = dt == TSR_BOOL || dt == TSR_FLOAT32 || dt == TSR_FLOAT64 ? dt : TSR_UINT64;
  Tensor *x = tensor_contiguous(c, a, work), *y = NULL, *r = NULL, *acc = NULL;
  if (!x || !(y = tensor_contiguous(c, v, work))) goto done;
  if (!(acc = tensor_empty(c, work, 1, &nout))) goto done;
  int64_t n = tensor_size(x), m = tensor_size(y);
  /* in pieces of outputs of about 2^20 multiply-adds, each charged before it runs */
  int64_t piece = ((int64_t)1 << 20) / m + 1;
  for (int64_t k0 = 0; k0 < nout; k0 += piece) {
    int64_t k1 = nout - k0 < piece ? nout : k0 + piece;
    if (ctx_work(c, (uint64_t)(k1 - k0) * (uint64_t)m, WORK_ELEMENT)) goto done;
    switch (work) {
    case TSR_BOOL:
      correlate_bool((const bool *)tensor_data(x), n, (const bool *)tensor_data(y), m, pad, k0,
                     k1, (bool *)tensor_data(acc));
      break;
    case TSR_FLOAT32:
      correlate_f32((const f32 *)tensor_data(x), n, (const f32 *)tensor_data(y), m, pad, k0, k1,
                    (f32 *)tensor_data(acc));
      break;
    case TSR_FLOAT64:
      correlate_f64((const f64 *)tensor_data(x), n, (const f64 *)tensor_data(y), m, pad, k0, k1,
                    (f64 *)tensor_data(acc));
      break;
    default:
      correlate_uint64_t((const uint64_t *)tensor_data(x), n, (const uint64_t *)tensor_data(y),
                         m, pad, k0, k1, (uint64_t *)tensor_data(acc));
      break;
    }
  }
  r = tensor_contiguous(c, acc, dt);
done:
  tensor_release(x);
  tensor_release(y);
  tensor_release(acc);
  return r;
}
