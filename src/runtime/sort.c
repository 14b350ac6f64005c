/*
** sort.c -- sorting along one axis (numpy.sort, numpy.argsort, ndarray.sort): a stable merge
** sort of the indices of each lane, typed per dtype, with NaN ordered after every number as
** NumPy orders it.  A stable order also gives numpy.unique its first occurrences.
*/
#include "rt.h"

#include <string.h>

/* Merge sort of idx[0..n) by the values v[idx[k]] (stable); tmp has room for n indices.
   LESS(a, b) is the strict order of two values.  Pieces of up to SORT_PIECE indices sort
   without polling; above that each merge charges its n comparisons to c (ctx_work), so that
   one big lane is charged n log n comparisons as it goes and an interrupt stops it within a
   merge.  Returns 0, or -1 with the poll's error (idx is then a permutation, unsorted). */
#define SORT_PIECE 4096
#define DEFINE_MSORT(NAME, T, LESS)                                                         \
  static int NAME(Ctx *c, const T *v, int64_t *idx, int64_t *tmp, int64_t n) {              \
    if (n <= 16) {                                                                          \
      for (int64_t i = 1; i < n; i++) {                                                     \
        int64_t x = idx[i], j = i;                                                          \
        while (j > 0 && LESS(v[x], v[idx[j - 1]])) { idx[j] = idx[j - 1]; j--; }            \
        idx[j] = x;                                                                         \
      }                                                                                     \
      return 0;                                                                             \
    }                                                                                       \
    int64_t h = n / 2;                                                                      \
    Ctx *sub = n > SORT_PIECE ? c : NULL;                                                   \
    if (NAME(sub, v, idx, tmp, h) || NAME(sub, v, idx + h, tmp, n - h)) return -1;          \
    if (sub && ctx_work(c, (uint64_t)n, WORK_COMPARE)) return -1;                           \
    if (!LESS(v[idx[h]], v[idx[h - 1]])) return 0;                                          \
    memcpy(tmp, idx, sizeof(int64_t) * (size_t)h);                                          \
    int64_t i = 0, j = h, k = 0;                                                            \
    while (i < h && j < n) {                                                                \
      if (LESS(v[idx[j]], v[tmp[i]])) idx[k++] = idx[j++];                                  \
      else idx[k++] = tmp[i++];                                                             \
    }                                                                                       \
    while (i < h) idx[k++] = tmp[i++];                                                      \
    return 0;                                                                               \
  }

#define PLAIN_LESS(a, b) ((a) < (b))
#define NAN_LAST_LESS(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
DEFINE_MSORT(msort_u8, uint8_t, PLAIN_LESS)
DEFINE_MSORT(msort_i8, int8_t, PLAIN_LESS)
DEFINE_MSORT(msort_i16, int16_t, PLAIN_LESS)
DEFINE_MSORT(msort_u16, uint16_t, PLAIN_LESS)
DEFINE_MSORT(msort_i32, int32_t, PLAIN_LESS)
DEFINE_MSORT(msort_u32, uint32_t, PLAIN_LESS)
DEFINE_MSORT(msort_i64, int64_t, PLAIN_LESS)
DEFINE_MSORT(msort_u64, uint64_t, PLAIN_LESS)
DEFINE_MSORT(msort_f32, float, NAN_LAST_LESS)
DEFINE_MSORT(msort_f64, double, NAN_LAST_LESS)

/* Sorts the indices of one contiguous lane of dtype dt, charging its comparisons to c: those
   of pieces up to SORT_PIECE (n log2 n for the whole of a short lane) here, the merges above
   that as they run.  Returns 0 or -1 (the poll's error). */
static int lane_argsort(Ctx *c, DType dt, const char *lane, int64_t *idx, int64_t *tmp,
                        int64_t n) {
  for (int64_t i = 0; i < n; i++) idx[i] = i;
  int rc;
  switch (dt) {
  case TSR_BOOL: case TSR_UINT8: rc = msort_u8(c, (const uint8_t *)lane, idx, tmp, n); break;
  case TSR_INT8: rc = msort_i8(c, (const int8_t *)lane, idx, tmp, n); break;
  case TSR_INT16: rc = msort_i16(c, (const int16_t *)lane, idx, tmp, n); break;
  case TSR_UINT16: rc = msort_u16(c, (const uint16_t *)lane, idx, tmp, n); break;
  case TSR_INT32: rc = msort_i32(c, (const int32_t *)lane, idx, tmp, n); break;
  case TSR_UINT32: rc = msort_u32(c, (const uint32_t *)lane, idx, tmp, n); break;
  case TSR_INT64: rc = msort_i64(c, (const int64_t *)lane, idx, tmp, n); break;
  case TSR_UINT64: rc = msort_u64(c, (const uint64_t *)lane, idx, tmp, n); break;
  case TSR_FLOAT32: rc = msort_f32(c, (const float *)lane, idx, tmp, n); break;
  default: rc = msort_f64(c, (const double *)lane, idx, tmp, n); break;
  }
  if (rc) return -1;
  /* the pieces: ceil(log2 piece) levels of comparisons over every element */
  int64_t piece = n < SORT_PIECE ? n : SORT_PIECE, levels = 1;
  while (((int64_t)1 << levels) < piece) levels++;
  return ctx_work(c, (uint64_t)(n * levels), WORK_COMPARE);
}

/* The view of t with `axis` moved last (a new reference). */
static Tensor *axis_last(Ctx *c, Tensor *t, int axis) {
  int order[TSR_MAXDIMS];
  for (int i = 0, j = 0; i < t->ndim; i++) if (i != axis) order[j++] = i;
  order[t->ndim - 1] = axis;
  return tensor_transpose(c, t, order);
}

/* Sorts every lane of t along axis (in [0, ndim), ndim >= 1).  Fills *idx_out (int64, C order
   of the axis-last layout) with the stable argsort and, when vals_out is not NULL, *vals_out
   with the sorted values in the same layout (both new references). */
static int sort_lanes(Ctx *c, Tensor *t, int axis, Tensor **idx_out, Tensor **vals_out) {
  Tensor *moved = NULL, *src = NULL, *idx = NULL, *vals = NULL;
  int64_t *tmp = NULL;
  int64_t n = t->shape[axis], tmp_n = n > 0 ? n : 1;
  *idx_out = NULL;
  if (vals_out) *vals_out = NULL;
  if (!(moved = axis_last(c, t, axis))) goto fail;
  if (!(src = tensor_contiguous(c, moved, t->dtype))) goto fail;
  if (!(idx = tensor_empty(c, TSR_INT64, src->ndim, src->shape))) goto fail;
  if (vals_out && !(vals = tensor_empty(c, t->dtype, src->ndim, src->shape))) goto fail;
  if (!(tmp = ctx_malloc(c, sizeof(int64_t) * (size_t)tmp_n))) goto fail;
  size_t isz = dtype_size(t->dtype);
  int64_t lanes = n > 0 ? tensor_size(src) / n : 0;
  const char *sp = tensor_data(src);
  int64_t *ip = (int64_t *)tensor_data(idx);
  char *vp = vals ? tensor_data(vals) : NULL;
  for (int64_t l = 0; l < lanes; l++) {
    const char *lane = sp + (size_t)(l * n) * isz;
    int64_t *li = ip + l * n;
    if (lane_argsort(c, t->dtype, lane, li, tmp, n)) goto fail;
    if (vp) {
      for (int64_t k = 0; k < n; k++)
        memcpy(vp + (size_t)(l * n + k) * isz, lane + (size_t)li[k] * isz, isz);
      if (ctx_work(c, (uint64_t)n, WORK_ELEMENT)) goto fail;
    }
  }
  ctx_free(c, tmp, sizeof(int64_t) * (size_t)tmp_n);
  tensor_release(moved);
  tensor_release(src);
  *idx_out = idx;
  if (vals_out) *vals_out = vals;
  return 0;
fail:
  if (tmp) ctx_free(c, tmp, sizeof(int64_t) * (size_t)tmp_n);
  tensor_release(moved);
  tensor_release(src);
  tensor_release(idx);
  tensor_release(vals);
  return -1;
}

/* Moves the last axis of a C-contiguous axis-last result back to `axis`: a C-contiguous copy
   of the view (new reference). */
static Tensor *axis_back(Ctx *c, Tensor *r, int axis) {
  int order[TSR_MAXDIMS], nd = r->ndim;
  for (int i = 0, j = 0; i < nd; i++) order[i] = i == axis ? nd - 1 : j++;
  Tensor *v = tensor_transpose(c, r, order);
  if (!v) return NULL;
  Tensor *out = tensor_contiguous(c, v, r->dtype);
  tensor_release(v);
  return out;
}

Tensor *sort_argsort(Ctx *c, Tensor *t, int axis) {
  if (t->ndim == 0) return tensor_zeros(c, TSR_INT64, 0, NULL);
  Tensor *idx;
  if (sort_lanes(c, t, axis, &idx, NULL) < 0) return NULL;
  Tensor *r = axis_back(c, idx, axis);
  tensor_release(idx);
  return r;
}

Tensor *sort_sorted(Ctx *c, Tensor *t, int axis) {
  if (t->ndim == 0) return tensor_copy(c, t);
  Tensor *idx, *vals;
  if (sort_lanes(c, t, axis, &idx, &vals) < 0) return NULL;
  tensor_release(idx);
  Tensor *r = axis_back(c, vals, axis);
  tensor_release(vals);
  return r;
}

int sort_inplace(Ctx *c, Tensor *t, int axis) {
  if (t->readonly || t->storage->readonly) return ERR_VALUE(c, "sort array is read-only");
  if (t->ndim == 0) return 0;
  Tensor *idx, *vals, *dst = NULL;
  if (sort_lanes(c, t, axis, &idx, &vals) < 0) return -1;
  tensor_release(idx);
  int rc = -1;
  if ((dst = axis_last(c, t, axis))) rc = tensor_assign(c, dst, vals);
  tensor_release(dst);
  tensor_release(vals);
  return rc;
}
