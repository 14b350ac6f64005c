/*
** index.c -- NumPy indexing.  One pass over the index items adjusts offset, shape and strides
** and builds one view (basic indexing: ints, slices, Ellipsis, newaxis); integer arrays and
** boolean masks (advanced indexing) then gather a copy, or scatter for assignment.
*/
#include "rt.h"

#include <string.h>

/* One advanced index: an int64 index per element of the broadcast index shape. */
typedef struct AdvIndex {
  Tensor *src;        /* the index as given: int tensor, or NULL for an int scalar / mask */
  int64_t scalar;     /* IDX_INT in advanced mode */
  Tensor *idx;        /* owned: C-contiguous int64, broadcast to the index shape, wrapped */
  int vax;            /* axis of the view the index applies to */
  int taxis;          /* axis of the original tensor (for error messages) */
} AdvIndex;

/* The outcome of the pass over the items. */
typedef struct Plan {
  int vndim;                         /* the basic view */
  int64_t vshape[TSR_MAXDIMS], vstrides[TSR_MAXDIMS], voffset;
  int nadv;                          /* advanced indices (each bool mask gives ndim of them) */
  AdvIndex adv[TSR_MAXDIMS];
  bool consecutive;                  /* advanced items adjacent: their dims go in place */
  bool had_ellipsis;
  Tensor *masks[TSR_MAXDIMS];        /* owned nonzero() results of bool masks */
  int nmasks;
} Plan;

static void plan_free(Plan *p) {
  for (int k = 0; k < p->nadv; k++) tensor_release(p->adv[k].idx);
  for (int k = 0; k < p->nmasks; k++) tensor_release(p->masks[k]);
}

/* Python's slice.indices(len): start and step of the selection and its length. */
static int slice_adjust(Ctx *c, const IndexItem *it, int64_t len, int64_t *start_out,
                        int64_t *step_out, int64_t *n_out) {
  int64_t step = it->has_step ? it->step : 1;
  if (step == 0) return ERR_VALUE(c, "slice step cannot be zero");
  int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? len : len - 1;
  int64_t start, stop;
  if (!it->has_start) start = step < 0 ? upper : lower;
  else {
    start = it->start;
    if (start < 0) { start += len; if (start < lower) start = lower; }
    else if (start > upper) start = upper;
  }
  if (!it->has_stop) stop = step < 0 ? lower : upper;
  else {
    stop = it->stop;
    if (stop < 0) { stop += len; if (stop < lower) stop = lower; }
    else if (stop > upper) stop = upper;
  }
  int64_t n = 0;
  if (step > 0 && stop > start) n = (int64_t)(((uint64_t)(stop - start) - 1) / (uint64_t)step) + 1;
  if (step < 0 && start > stop)
    n = (int64_t)(((uint64_t)(start - stop) - 1) / ((uint64_t)0 - (uint64_t)step)) + 1;
  *start_out = start;
  *step_out = step;
  *n_out = n;
  return 0;
}

static int oob(Ctx *c, int64_t i, int axis, int64_t size) {
  return ERR_INDEX(c, "index %lld is out of bounds for axis %d with size %lld", (long long)i,
                   axis, (long long)size);
}

/* nonzero(mask) for a bool mask of k dims: k int64 tensors of shape (count,), appended to
   p->masks. */
static int mask_nonzero(Ctx *c, Plan *p, Tensor *mask) {
  Tensor *m = tensor_contiguous(c, mask, TSR_BOOL);
  if (!m) return -1;
  const bool *mp = (const bool *)tensor_data(m);
  int64_t n = tensor_size(m), count = 0;
  for (int64_t i = 0; i < n; i++) count += mp[i];
  int k = m->ndim, first = p->nmasks;
  for (int d = 0; d < k; d++) {
    Tensor *r = tensor_empty(c, TSR_INT64, 1, &count);
    if (!r) { tensor_release(m); return -1; }
    p->masks[p->nmasks++] = r;
  }
  int64_t coord[TSR_MAXDIMS] = {0}, j = 0;
  for (int64_t i = 0; i < n; i++) {
    if (mp[i]) {
      for (int d = 0; d < k; d++) ((int64_t *)tensor_data(p->masks[first + d]))[j] = coord[d];
      j++;
    }
    for (int d = k - 1; d >= 0; d--) {
      if (++coord[d] < m->shape[d]) break;
      coord[d] = 0;
    }
  }
  tensor_release(m);
  return 0;
}

/* The pass over the items: builds the basic view in p and lists the advanced indices.
   With `advanced`, integer items become advanced indices too (NumPy's rule). */
static int plan_build(Ctx *c, Tensor *t, const IndexItem *items, int n, bool advanced, Plan *p) {
  int consumed = 0, nell = 0, first_adv = -1, last_adv = -1, nadv_items = 0;
  memset(p, 0, sizeof *p);
  p->voffset = t->offset;
  for (int j = 0; j < n; j++) {
    const IndexItem *it = &items[j];
    switch (it->kind) {
    case IDX_ELLIPSIS: nell++; break;
    case IDX_NEWAXIS: break;
    case IDX_ARRAY:
      if (it->array->dtype == TSR_BOOL) {
        consumed += it->array->ndim;
      } else if (!dtype_is_int(it->array->dtype) && tensor_size(it->array) > 0) {
        return ERR_INDEX(c, "arrays used as indices must be of integer (or boolean) type");
      } else {
        consumed++;
      }
      break;
    default: consumed++; break;
    }
    if (it->kind == IDX_ARRAY || (advanced && it->kind == IDX_INT)) {
      if (first_adv < 0) first_adv = j;
      last_adv = j;
      nadv_items++;
    }
  }
  if (nell > 1) return ERR_INDEX(c, "an index can only have a single ellipsis ('...')");
  if (consumed > t->ndim)
    return ERR_INDEX(c, "too many indices for array: array is %d-dimensional, but %d were "
                        "indexed", t->ndim, consumed);
  p->had_ellipsis = nell > 0;
  p->consecutive = nadv_items == 0 || last_adv - first_adv + 1 == nadv_items;

  int axis = 0, vn = 0;
  for (int j = 0; j <= n; j++) {
    const IndexItem *it = j < n ? &items[j] : NULL;
    int copy_dims = 0;
    if (!it) copy_dims = t->ndim - axis;                       /* implicit trailing ... */
    else if (it->kind == IDX_ELLIPSIS) copy_dims = t->ndim - consumed;
    if (vn + copy_dims > TSR_MAXDIMS) goto too_many;
    for (int d = 0; d < copy_dims; d++, axis++, vn++) {
      p->vshape[vn] = t->shape[axis];
      p->vstrides[vn] = t->strides[axis];
    }
    if (!it || it->kind == IDX_ELLIPSIS) continue;
    if (it->kind != IDX_INT && vn >= TSR_MAXDIMS) goto too_many;
    switch (it->kind) {
    case IDX_INT:
      if (it->i < -t->shape[axis] || it->i >= t->shape[axis])
        return oob(c, it->i, axis, t->shape[axis]);
      if (advanced) {
        if (vn >= TSR_MAXDIMS) goto too_many;
        AdvIndex *a = &p->adv[p->nadv++];
        a->scalar = it->i;
        a->vax = vn;
        a->taxis = axis;
        p->vshape[vn] = t->shape[axis];
        p->vstrides[vn] = t->strides[axis];
        vn++;
      } else {
        int64_t i = it->i < 0 ? it->i + t->shape[axis] : it->i;
        p->voffset += i * t->strides[axis];
      }
      axis++;
      break;
    case IDX_SLICE: {
      int64_t start = 0, step = 1, len = 0;
      if (slice_adjust(c, it, t->shape[axis], &start, &step, &len) < 0) return -1;
      if (len > 0) p->voffset += start * t->strides[axis];
      p->vshape[vn] = len;
      p->vstrides[vn] = len > 1 ? t->strides[axis] * step : t->strides[axis];
      vn++; axis++;
      break;
    }
    case IDX_NEWAXIS:
      p->vshape[vn] = 1;
      p->vstrides[vn] = 0;
      vn++;
      break;
    case IDX_ARRAY:
      if (it->array->dtype == TSR_BOOL && it->array->ndim == 0) {
        /* a 0-d mask: a new axis of length 1 indexed by [0] (True) or by [] (False) */
        int64_t count = *(const bool *)tensor_data(it->array) ? 1 : 0;
        Tensor *r = tensor_zeros(c, TSR_INT64, 1, &count);
        if (!r) return -1;
        p->masks[p->nmasks++] = r;
        AdvIndex *a = &p->adv[p->nadv++];
        a->src = r;
        a->vax = vn;
        a->taxis = axis;
        p->vshape[vn] = 1;
        p->vstrides[vn] = 0;
        vn++;
      } else if (it->array->dtype == TSR_BOOL) {
        Tensor *m = it->array;
        for (int d = 0; d < m->ndim; d++)
          if (m->shape[d] != t->shape[axis + d])
            return ERR_INDEX(c, "boolean index did not match indexed array along dimension %d; "
                                "dimension is %lld but corresponding boolean dimension is %lld",
                             axis + d, (long long)t->shape[axis + d], (long long)m->shape[d]);
        int first = p->nmasks;
        if (mask_nonzero(c, p, m) < 0) return -1;
        if (vn + m->ndim > TSR_MAXDIMS) goto too_many;
        for (int d = 0; d < m->ndim; d++, vn++, axis++) {
          AdvIndex *a = &p->adv[p->nadv++];
          a->src = p->masks[first + d];
          a->vax = vn;
          a->taxis = axis;
          p->vshape[vn] = t->shape[axis];
          p->vstrides[vn] = t->strides[axis];
        }
      } else {
        AdvIndex *a = &p->adv[p->nadv++];
        a->src = it->array;
        a->vax = vn;
        a->taxis = axis;
        p->vshape[vn] = t->shape[axis];
        p->vstrides[vn] = t->strides[axis];
        vn++; axis++;
      }
      break;
    default:
      break;
    }
  }
  p->vndim = vn;
  return 0;
too_many:
  return ERR_INDEX(c, "number of dimensions must be within [0, %d]", TSR_MAXDIMS);
}

/* ---------------------------------------------------------------------------------------- */
/* Advanced indexing */

/* Geometry of the advanced result: the broadcast index shape B, the view's remaining ("rest")
   dims, and where B goes among them. */
typedef struct AdvGeom {
  int bnd; int64_t bshape[TSR_MAXDIMS], bsize;
  int nrest; int64_t rshape[TSR_MAXDIMS], rvstrides[TSR_MAXDIMS];
  int npre;                          /* rest dims placed before B in the result */
  int rnd; int64_t res_shape[TSR_MAXDIMS];
  bool checked;                      /* indices bounds-checked by adv_prepare */
} AdvGeom;

/* Broadcasts the advanced indices, converts them to bounds-checked int64 arrays of shape B
   (negative values still to be wrapped), and lays out the result geometry.  target: the
   tensor an assignment writes (its indices are copied if they may share its memory), or
   NULL for a read. */
static int adv_prepare(Ctx *c, Plan *p, AdvGeom *g, const Tensor *target) {
  g->bnd = 0;
  for (int k = 0; k < p->nadv; k++)
    if (p->adv[k].src && p->adv[k].src->ndim > g->bnd) g->bnd = p->adv[k].src->ndim;
  for (int i = 0; i < g->bnd; i++) g->bshape[i] = 1;
  for (int k = 0; k < p->nadv; k++) {
    const Tensor *s = p->adv[k].src;
    int nd = s ? s->ndim : 0;
    for (int i = 0; i < nd; i++) {
      int64_t *d = &g->bshape[g->bnd - nd + i], sz = s->shape[i];
      if (sz == *d || sz == 1) continue;
      if (*d == 1) { *d = sz; continue; }
      Buf b;
      buf_init(&b, c);
      for (int j = 0; j < p->nadv; j++) {
        const Tensor *u = p->adv[j].src;
        if (!u) continue;   /* integer scalars are not listed */
        shape_format_compact(&b, u->ndim, u->shape);
        buf_putc(&b, ' ');
      }
      ERR_INDEX(c, "shape mismatch: indexing arrays could not be broadcast together with "
                   "shapes %s", buf_str(&b));
      buf_free(&b);
      return -1;
    }
  }
  /* index arrays broadcast to a shape with too many elements (two 2**62-element views) */
  if (shape_count(g->bnd, g->bshape, 1, &g->bsize) < 0) return err_too_big(c);

  for (int k = 0; k < p->nadv; k++) {
    AdvIndex *a = &p->adv[k];
    Tensor *src = a->src, *tmp = NULL, *view;
    if (!src) {
      tmp = tensor_scalar_i64(c, TSR_INT64, a->scalar);
      if (!tmp) return -1;
      src = tmp;
    }
    view = tensor_broadcast_to(c, src, g->bnd, g->bshape);
    tensor_release(tmp);
    if (!view) return -1;
    /* an int64 C-contiguous index is read in place (negative values wrap in adv_walk) unless
       it may share memory with the tensor written */
    if (view->dtype == TSR_INT64 && tensor_is_contiguous(view) &&
        !(target && tensor_may_overlap(target, view)))
      a->idx = tensor_retain(view);
    else
      a->idx = tensor_astype(c, view, TSR_INT64);
    tensor_release(view);
    if (!a->idx) return -1;
  }

  bool is_adv[TSR_MAXDIMS] = {false};
  for (int k = 0; k < p->nadv; k++) is_adv[p->adv[k].vax] = true;
  int first_vax = p->adv[0].vax;
  g->nrest = 0;
  g->npre = 0;
  for (int d = 0; d < p->vndim; d++) {
    if (is_adv[d]) continue;
    if (p->consecutive && d < first_vax) g->npre++;
    g->rshape[g->nrest] = p->vshape[d];
    g->rvstrides[g->nrest] = p->vstrides[d];
    g->nrest++;
  }
  g->rnd = g->nrest + g->bnd;
  if (g->rnd > TSR_MAXDIMS)
    return ERR_INDEX(c, "number of dimensions must be within [0, %d]", TSR_MAXDIMS);
  int r = 0;
  for (int d = 0; d < g->npre; d++) g->res_shape[r++] = g->rshape[d];
  for (int d = 0; d < g->bnd; d++) g->res_shape[r++] = g->bshape[d];
  for (int d = g->npre; d < g->nrest; d++) g->res_shape[r++] = g->rshape[d];
  /* bounds: checked here, before anything is written; a plain gather checks as it reads */
  g->checked = !(target == NULL && p->nadv == 1 && g->nrest == 0);
  for (int k = 0; g->checked && k < p->nadv; k++) {
    const AdvIndex *a = &p->adv[k];
    const int64_t *ix = (const int64_t *)tensor_data(a->idx);
    int64_t size = p->vshape[a->vax];
    for (int64_t i = 0; i < g->bsize; i++)
      if (ix[i] < -size || ix[i] >= size) return oob(c, ix[i], a->taxis, size);
  }
  return 0;
}

static inline void copy_elem(char *dst, const char *src, size_t isz) {
  switch (isz) {
  case 1: *(uint8_t *)dst = *(const uint8_t *)src; break;
  case 2: *(uint16_t *)dst = *(const uint16_t *)src; break;
  case 4: *(uint32_t *)dst = *(const uint32_t *)src; break;
  default: *(uint64_t *)dst = *(const uint64_t *)src; break;
  }
}

/* The common case of adv_walk: one index array and no other dims, r C-contiguous:
   r[b] <-> t[voffset + idx[b] * stride], typed by element size. */
#define GATHER1_LOOP(T)                                                                     \
  do {                                                                                      \
    T *tp = (T *)(void *)t->storage->data + p->voffset, *rp = (T *)(void *)tensor_data(r);   \
    for (int64_t b = 0; b < n; b++) {                                                       \
      int64_t i = ix[b] < 0 ? ix[b] + size : ix[b];                                        \
      if (scatter) tp[i * st] = rp[b]; else rp[b] = tp[i * st];                             \
    }                                                                                       \
  } while (0)
#define GATHER1_CHECKED(T)                                                                  \
  do {                                                                                      \
    const T *tp = (const T *)(const void *)t->storage->data + p->voffset;                   \
    T *rp = (T *)(void *)tensor_data(r);                                                    \
    for (int64_t b = 0; b < n; b++) {                                                       \
      int64_t i = ix[b];                                                                    \
      if (i < -size || i >= size) { bad = b; break; }   /* 2 * size may pass INT64_MAX */   \
      i += i < 0 ? size : 0;                                                                \
      rp[b] = tp[i * st];                                                                   \
    }                                                                                       \
  } while (0)
static int gather1(Ctx *c, Tensor *t, const Plan *p, const AdvGeom *g, Tensor *r, bool scatter) {
  const int64_t *ix = (const int64_t *)tensor_data(p->adv[0].idx);
  int64_t n = g->bsize, size = p->vshape[p->adv[0].vax], st = p->vstrides[p->adv[0].vax];
  if (!g->checked) {
    /* one pass: check while reading (a gather writes only its own result) */
    int64_t bad = -1;
    switch (dtype_size(t->dtype)) {
    case 1: GATHER1_CHECKED(uint8_t); break;
    case 2: GATHER1_CHECKED(uint16_t); break;
    case 4: GATHER1_CHECKED(uint32_t); break;
    default: GATHER1_CHECKED(uint64_t); break;
    }
    if (bad >= 0) return oob(c, ix[bad], p->adv[0].taxis, size);
    return ctx_work(c, n, WORK_ELEMENT);
  }
  switch (dtype_size(t->dtype)) {
  case 1: GATHER1_LOOP(uint8_t); break;
  case 2: GATHER1_LOOP(uint16_t); break;
  case 4: GATHER1_LOOP(uint32_t); break;
  default: GATHER1_LOOP(uint64_t); break;
  }
  return ctx_work(c, n, WORK_ELEMENT);
}

/* For each position b of the index shape, copies the block of rest dims between the view of
   t (positioned by the indices) and the result-side tensor r (shape g->res_shape, any
   strides): gather (r <- t) or scatter (t <- r). */
static int adv_walk(Ctx *c, Tensor *t, const Plan *p, const AdvGeom *g, Tensor *r, bool scatter) {
  size_t isz = dtype_size(t->dtype);
  char *tbase = t->storage->data, *rbase = tensor_data(r);
  int64_t rb_strides[TSR_MAXDIMS], rr_strides[TSR_MAXDIMS], tr_strides[TSR_MAXDIMS];
  int64_t bidx[TSR_MAXDIMS] = {0}, ridx[TSR_MAXDIMS];
  /* byte strides of r for the B dims and for the rest dims; of t for the rest dims */
  for (int d = 0; d < g->npre; d++) rr_strides[d] = r->strides[d] * (int64_t)isz;
  for (int d = 0; d < g->bnd; d++) rb_strides[d] = r->strides[g->npre + d] * (int64_t)isz;
  for (int d = g->npre; d < g->nrest; d++) rr_strides[d] = r->strides[g->bnd + d] * (int64_t)isz;
  for (int d = 0; d < g->nrest; d++) tr_strides[d] = g->rvstrides[d] * (int64_t)isz;
  int64_t rest_size = 1;
  for (int d = 0; d < g->nrest; d++) rest_size *= g->rshape[d];
  if (rest_size == 0 || g->bsize == 0) return 0;

  if (p->nadv == 1 && g->nrest == 0 && g->bnd == r->ndim && tensor_is_contiguous(r))
    return gather1(c, t, p, g, r, scatter);
  if (!g->checked) return ERR_RUNTIME(c, "internal error: unchecked advanced index");
  int64_t roff = 0, done = 0;
  for (int64_t b = 0; b < g->bsize; b++) {
    int64_t toff = p->voffset;
    for (int k = 0; k < p->nadv; k++) {
      int64_t ix = ((const int64_t *)tensor_data(p->adv[k].idx))[b];
      toff += (ix < 0 ? ix + p->vshape[p->adv[k].vax] : ix) * p->vstrides[p->adv[k].vax];
    }
    char *tp = tbase + toff * (int64_t)isz, *rp = rbase + roff;
    if (g->nrest == 0) {
      if (scatter) copy_elem(tp, rp, isz); else copy_elem(rp, tp, isz);
    } else {
      for (int d = 0; d < g->nrest; d++) ridx[d] = 0;
      for (;;) {
        if (scatter) copy_elem(tp, rp, isz); else copy_elem(rp, tp, isz);
        int d = g->nrest - 1;
        for (; d >= 0; d--) {
          tp += tr_strides[d]; rp += rr_strides[d];
          if (++ridx[d] < g->rshape[d]) break;
          tp -= tr_strides[d] * g->rshape[d]; rp -= rr_strides[d] * g->rshape[d];
          ridx[d] = 0;
        }
        if (d < 0) break;
      }
    }
    done += rest_size;
    if (done >= 65536) {
      if (ctx_work(c, done, WORK_ELEMENT) < 0) return -1;
      done = 0;
    }
    for (int d = g->bnd - 1; d >= 0; d--) {   /* advance b's coordinates on the r side */
      roff += rb_strides[d];
      if (++bidx[d] < g->bshape[d]) break;
      roff -= rb_strides[d] * g->bshape[d];
      bidx[d] = 0;
    }
  }
  return 0;
}

static bool has_array(const IndexItem *items, int n) {
  for (int j = 0; j < n; j++) if (items[j].kind == IDX_ARRAY) return true;
  return false;
}

/* x[mask] for a single boolean mask matching the leading dims of a C-contiguous x: one
   pass that copies the selected blocks (the fast path of the general gather). */
#define MASK_SELECT_LOOP(T)                                                                 \
  do {                                                                                      \
    const T *tp = (const T *)(const void *)tensor_data(t);                                  \
    T *rp = (T *)(void *)tensor_data(r);                                                    \
    int64_t j = 0;                                                                          \
    for (int64_t i = 0; j < count; i++) { rp[j] = tp[i]; j += mp[i] != 0; }                \
  } while (0)
static Tensor *mask_select(Ctx *c, Tensor *t, Tensor *mask) {
  Tensor *m = tensor_contiguous(c, mask, TSR_BOOL), *r = NULL;
  if (!m) return NULL;
  const uint8_t *mp = (const uint8_t *)tensor_data(m);
  int64_t n = tensor_size(m), count = 0, inner = 1;
  for (int64_t i = 0; i < n; i++) count += mp[i] != 0;
  int k = m->ndim, rnd = 1 + t->ndim - k;
  int64_t shape[TSR_MAXDIMS];
  shape[0] = count;
  for (int d = k; d < t->ndim; d++) { shape[d - k + 1] = t->shape[d]; inner *= t->shape[d]; }
  if (!(r = tensor_empty(c, t->dtype, rnd, shape))) goto done;
  size_t isz = dtype_size(t->dtype);
  if (inner == 1) {
    switch (isz) {
    case 1: MASK_SELECT_LOOP(uint8_t); break;
    case 2: MASK_SELECT_LOOP(uint16_t); break;
    case 4: MASK_SELECT_LOOP(uint32_t); break;
    default: MASK_SELECT_LOOP(uint64_t); break;
    }
  } else if (inner > 0) {
    size_t block = (size_t)inner * isz;
    const char *tp = tensor_data(t);
    char *rp = tensor_data(r);
    for (int64_t i = 0; i < n; i++)
      if (mp[i]) { memcpy(rp, tp + (size_t)i * block, block); rp += block; }
  }
  if (ctx_work(c, n * inner, WORK_ELEMENT) < 0) { tensor_release(r); r = NULL; }
done:
  tensor_release(m);
  return r;
}

/* Is items a single boolean mask (at least 1-d) whose shape is that of t's leading dims,
   t being C-contiguous? */
static bool is_simple_mask(const Tensor *t, const IndexItem *items, int n) {
  if (n != 1 || items[0].kind != IDX_ARRAY) return false;
  const Tensor *m = items[0].array;
  if (m->dtype != TSR_BOOL || m->ndim == 0 || m->ndim > t->ndim) return false;
  for (int d = 0; d < m->ndim; d++) if (m->shape[d] != t->shape[d]) return false;
  return tensor_is_contiguous(t);
}

/* Does the index select one element by integers alone (x[1, 2] on a 2-d x), so that NumPy
   reads or writes a scalar? */
bool index_is_element(const Tensor *t, const IndexItem *items, int n) {
  if (n != t->ndim) return false;
  for (int j = 0; j < n; j++) if (items[j].kind != IDX_INT) return false;
  return true;
}

/* The tensor an advanced index reads into, laid out as NumPy lays it out: the index dims B
   first, then the rest dims, in C order, seen with B moved to its place among the rest dims
   (after g->npre of them), so x[:, [0, 2]] has strides (8, 24).  New reference or NULL. */
static Tensor *adv_result(Ctx *c, DType dt, const AdvGeom *g) {
  if (g->npre == 0) return tensor_empty(c, dt, g->rnd, g->res_shape);
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  int r = 0;
  for (int d = 0; d < g->bnd; d++) shape[r++] = g->bshape[d];
  for (int d = 0; d < g->nrest; d++) shape[r++] = g->rshape[d];
  Tensor *buf = tensor_empty(c, dt, g->rnd, shape);
  if (!buf) return NULL;
  /* result dim k: the rest dims before B, then B, then the other rest dims */
  r = 0;
  for (int d = 0; d < g->npre; d++) strides[r++] = buf->strides[g->bnd + d];
  for (int d = 0; d < g->bnd; d++) strides[r++] = buf->strides[d];
  for (int d = g->npre; d < g->nrest; d++) strides[r++] = buf->strides[g->bnd + d];
  Tensor *v = tensor_view(buf, g->rnd, g->res_shape, strides, 0);
  tensor_release(buf);
  return v;
}

/* x[items]: a view for basic indexing (a 0-d copy when integers select a single element and
   no Ellipsis is present, as NumPy returns a scalar then); a copy for advanced indexing. */
Tensor *index_get(Ctx *c, Tensor *t, const IndexItem *items, int n) {
  Plan p;
  AdvGeom g;
  Tensor *r = NULL;
  bool adv = has_array(items, n);
  if (is_simple_mask(t, items, n)) return mask_select(c, t, items[0].array);
  if (plan_build(c, t, items, n, adv, &p) < 0) goto done;
  if (!adv) {
    r = tensor_view(t, p.vndim, p.vshape, p.vstrides, p.voffset);
    if (r && p.vndim == 0 && !p.had_ellipsis) {
      Tensor *cp = tensor_copy(c, r);
      tensor_release(r);
      r = cp;
    }
    goto done;
  }
  if (adv_prepare(c, &p, &g, NULL) < 0) goto done;
  if (!(r = adv_result(c, t->dtype, &g))) goto done;
  if (adv_walk(c, t, &p, &g, r, false) < 0) { tensor_release(r); r = NULL; }
done:
  plan_free(&p);
  return r;
}

/* x[items] = value: basic indexing assigns through the view; advanced indexing scatters value
   (broadcast to the indexing result's shape, cast to x's dtype; a later duplicate index wins,
   as NumPy's buffered assignment). */
int index_set(Ctx *c, Tensor *t, const IndexItem *items, int n, Tensor *value) {
  Plan p;
  AdvGeom g;
  Tensor *v = NULL, *vb = NULL;
  int rc = -1;
  if (tensor_check_writable(c, t) < 0) return -1;
  bool adv = has_array(items, n);
  if (plan_build(c, t, items, n, adv, &p) < 0) goto done;
  if (!adv) {
    if (index_is_element(t, items, n) && tensor_size(value) != 1) {
      ERR_VALUE(c, "setting an array element with a sequence.");
      goto done;
    }
    v = tensor_view(t, p.vndim, p.vshape, p.vstrides, p.voffset);
    if (v) rc = tensor_assign(c, v, value);
    goto done;
  }
  if (n == 1 && items[0].kind == IDX_ARRAY && items[0].array->dtype == TSR_BOOL &&
      items[0].array->ndim == t->ndim && t->ndim > 0) {
    /* a single full-rank mask: NumPy's boolean-assignment path and its own messages */
    int64_t count = p.adv[0].src->shape[0];
    if (value->ndim > 1) {
      ERR_TYPE(c, "NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                  "input, input has %d dimensions", value->ndim);
      goto done;
    }
    if (value->ndim == 1 && value->shape[0] != count && value->shape[0] != 1) {
      ERR_VALUE(c, "NumPy boolean array indexing assignment cannot assign %lld input values "
                   "to the %lld output values where the mask is true",
                (long long)value->shape[0], (long long)count);
      goto done;
    }
  }
  if (adv_prepare(c, &p, &g, t) < 0) goto done;
  /* the value, in t's dtype and not sharing memory with t */
  if (value->dtype != t->dtype || tensor_may_overlap(t, value))
    v = tensor_astype(c, value, t->dtype);
  else
    v = tensor_retain(value);
  if (!v) goto done;
  {
    int skip = 0;
    while (v->ndim - skip > g.rnd && v->shape[skip] == 1) skip++;
    int sn = v->ndim - skip;
    bool ok = sn <= g.rnd;
    int64_t st[TSR_MAXDIMS];
    for (int i = 0; ok && i < g.rnd; i++) {
      int k = i - (g.rnd - sn);
      if (k < 0) { st[i] = 0; continue; }
      int64_t s = v->shape[skip + k];
      if (s == g.res_shape[i]) st[i] = v->strides[skip + k];
      else if (s == 1) st[i] = 0;
      else ok = false;
    }
    if (!ok) {
      Buf b1, b2;
      buf_init(&b1, c); buf_init(&b2, c);
      shape_format_compact(&b1, v->ndim, v->shape);
      shape_format_compact(&b2, g.rnd, g.res_shape);
      ERR_VALUE(c, "shape mismatch: value array of shape %s could not be broadcast to indexing "
                   "result of shape %s", buf_str(&b1), buf_str(&b2));
      buf_free(&b1); buf_free(&b2);
      goto done;
    }
    vb = tensor_view(v, g.rnd, g.res_shape, st, v->offset);
    if (!vb) goto done;
  }
  rc = adv_walk(c, t, &p, &g, vb, true);
done:
  tensor_release(vb);
  tensor_release(v);
  plan_free(&p);
  return rc;
}
