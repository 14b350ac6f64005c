/*
** tensor.c -- refcounted storage and strided tensor views: constructors, host buffers,
** contiguity and overlap tests, copies and casts, and the view operations of NumPy's shape
** functions (reshape, transpose, broadcast_to, expand_dims, squeeze, flip, ravel).
*/
#include "rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#endif

/* ---------------------------------------------------------------------------------------- */
/* Storage */

static Storage *storage_new_owned(Ctx *c, size_t nbytes) {
  Storage *s = ctx_malloc(c, sizeof *s);
  if (!s) return NULL;
  s->data = ctx_alloc_aligned(c, nbytes);
  if (!s->data) { ctx_free(c, s, sizeof *s); return NULL; }
  s->refcnt = 1;
  s->ctx = c;
  s->nbytes = nbytes;
  s->owned = true;
  s->readonly = false;
  s->release = NULL;
  s->ud = NULL;
  return s;
}

static void storage_release(Storage *s) {
  if (!s || --s->refcnt > 0) return;
  if (s->owned) ctx_free_aligned(s->ctx, s->data, s->nbytes);
  else if (s->release) s->release(s->ud, s->data);
  ctx_free(s->ctx, s, sizeof *s);
}

static int check_shape(Ctx *c, DType dt, int ndim, const int64_t *shape, int64_t *size_out);

/* A header on storage s (takes the caller's reference to s on success only).  Every tensor,
   views included, is made here: a shape whose bytes would pass INT64_MAX is refused (NumPy's
   ValueError), so that tensor_size and every count derived from a shape cannot overflow. */
static Tensor *tensor_header(Ctx *c, Storage *s, DType dt, int ndim, const int64_t *shape,
                             const int64_t *strides, int64_t offset) {
  int64_t size;
  if (check_shape(c, dt, ndim, shape, &size) < 0) return NULL;
  Tensor *t = ctx_malloc(c, sizeof *t);
  if (!t) return NULL;
  t->refcnt = 1;
  t->ctx = c;
  t->storage = s;
  t->dtype = dt;
  t->ndim = ndim;
  t->weak = WEAK_NONE;
  t->ndarray = 0;
  t->readonly = 0;
  t->offset = offset;
  for (int i = 0; i < ndim; i++) { t->shape[i] = shape[i]; t->strides[i] = strides[i]; }
  return t;
}

void tensor_release(Tensor *t) {
  if (!t || --t->refcnt > 0) return;
  storage_release(t->storage);
  ctx_free(t->ctx, t, sizeof *t);
}

void strides_c_order(int ndim, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 1;
  }
}

/* Validates ndim and shape and computes the element count; ValueError on bad input. */
static int check_shape(Ctx *c, DType dt, int ndim, const int64_t *shape, int64_t *size_out) {
  if (ndim < 0 || ndim > TSR_MAXDIMS)
    return ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d",
                     TSR_MAXDIMS, ndim);
  if (ndim > 0 && !shape) return ERR_VALUE(c, "shape is NULL");
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0) return ERR_VALUE(c, "negative dimensions are not allowed");
  /* NumPy checks the product of the nonzero dims, so (0, 2**62, 2**62) is still an error. */
  if (shape_count(ndim, shape, dtype_size(dt), size_out) < 0) return err_too_big(c);
  return 0;
}

/* Replaces the allocator's MemoryError with NumPy's text for an array that cannot be had:
   "Unable to allocate 7.28 TiB for an array with shape (1000000, 1000000) and data type
   float64" (sizes in 1024-based units with three significant digits, as NumPy's
   _ArrayMemoryError).  Formats on the stack: no memory is needed to report it. */
static void array_memory_error(Ctx *c, DType dt, int ndim, const int64_t *shape,
                               uint64_t nbytes) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  char size[64], shp[TSR_MAXDIMS * 22 + 4];
  int bits = 0;
  for (uint64_t v = nbytes; v; v >>= 1) bits++;
  int unit = (bits - 1 > 1 ? bits - 1 : 1) / 10;
  double n = (double)nbytes / (double)((uint64_t)1 << (10 * unit));
  if (nearbyint(n) == 1024 && unit < 6) { unit++; n /= 1024; }
  if (unit == 0) snprintf(size, sizeof size, "%llu bytes", (unsigned long long)nbytes);
  else snprintf(size, sizeof size, "%#.3g %s", n, units[unit]);
  size_t k = 0;
  shp[k++] = '(';
  for (int i = 0; i < ndim; i++)
    k += (size_t)snprintf(shp + k, sizeof shp - k, i ? ", %lld" : "%lld", (long long)shape[i]);
  if (ndim == 1) shp[k++] = ',';
  shp[k++] = ')';
  shp[k] = 0;
  ctx_clear(c);
  ERR_MEMORY(c, "Unable to allocate %s for an array with shape %s and data type %s", size, shp,
             dtype_name(dt));
}

Tensor *tensor_empty(Ctx *c, DType dt, int ndim, const int64_t *shape) {
  int64_t size, strides[TSR_MAXDIMS];
  if (check_shape(c, dt, ndim, shape, &size) < 0) return NULL;
  uint64_t nbytes = (uint64_t)size * dtype_size(dt);
  if (nbytes > SIZE_MAX) {
    array_memory_error(c, dt, ndim, shape, nbytes);
    return NULL;
  }
  bool clean = c->status == TSR_OK;
  Storage *s = storage_new_owned(c, (size_t)nbytes);
  if (!s) {
    if (clean && c->status == TSR_ERR_MEMORY) array_memory_error(c, dt, ndim, shape, nbytes);
    return NULL;
  }
  /* NumPy 1.24 gives a new array without elements zero strides ((0,), (0, 0)) */
  if (size == 0) memset(strides, 0, sizeof strides);
  else strides_c_order(ndim, shape, strides);
  Tensor *t = tensor_header(c, s, dt, ndim, shape, strides, 0);
  if (!t) storage_release(s);
  return t;
}

Tensor *tensor_zeros(Ctx *c, DType dt, int ndim, const int64_t *shape) {
  Tensor *t = tensor_empty(c, dt, ndim, shape);
  if (!t) return NULL;
  /* in pieces, polling between them: zeroing gigabytes must not outlast an interrupt */
  const size_t piece = (size_t)1 << 22;
  char *p = t->storage->data;
  for (size_t done = 0, n = t->storage->nbytes; done < n; done += piece) {
    size_t m = n - done < piece ? n - done : piece;
    memset(p + done, 0, m);
    if (ctx_work(c, m / 8 + 1, WORK_ELEMENT)) { tensor_release(t); return NULL; }   /* 8 bytes an element */
  }
  return t;
}

/* Fills a fresh contiguous tensor with the element at v (of t's dtype), in pieces charged to
   c (WORK_ELEMENT; a single element is free, so that making a scalar never fails on the
   budget).  Returns t, or NULL with the poll's error after releasing t. */
static Tensor *fill_bytes(Ctx *c, Tensor *t, const void *v) {
  size_t sz = dtype_size(t->dtype);
  int64_t total = tensor_size(t);
  const int64_t piece = (int64_t)1 << 19;
  for (int64_t lo = 0; lo < total || lo == 0; lo += piece) {
    int64_t n = total - lo < piece ? total - lo : piece;
    char *p = t->storage->data + (size_t)lo * sz;
    switch (sz) {
    case 1: memset(p, *(const uint8_t *)v, (size_t)n); break;
    case 2: { uint16_t x; memcpy(&x, v, 2); for (int64_t i = 0; i < n; i++) ((uint16_t *)p)[i] = x; break; }
    case 4: { uint32_t x; memcpy(&x, v, 4); for (int64_t i = 0; i < n; i++) ((uint32_t *)p)[i] = x; break; }
    default: { uint64_t x; memcpy(&x, v, 8); for (int64_t i = 0; i < n; i++) ((uint64_t *)p)[i] = x; break; }
    }
    if (total > 1 && ctx_work(c, (uint64_t)n, WORK_ELEMENT)) { tensor_release(t); return NULL; }
    if (total == 0) break;
  }
  return t;
}

Tensor *tensor_full_f64(Ctx *c, DType dt, int ndim, const int64_t *shape, double v) {
  Tensor *t = tensor_empty(c, dt, ndim, shape);
  if (!t) return NULL;
  uint64_t cell = 0;
  dtype_set_f64(dt, &cell, v);
  return fill_bytes(c, t, &cell);
}

Tensor *tensor_full_i64(Ctx *c, DType dt, int ndim, const int64_t *shape, int64_t v) {
  Tensor *t = tensor_empty(c, dt, ndim, shape);
  if (!t) return NULL;
  uint64_t cell = 0;
  dtype_set_i64(dt, &cell, v);
  return fill_bytes(c, t, &cell);
}

Tensor *tensor_scalar_f64(Ctx *c, DType dt, double v) { return tensor_full_f64(c, dt, 0, NULL, v); }
Tensor *tensor_scalar_i64(Ctx *c, DType dt, int64_t v) { return tensor_full_i64(c, dt, 0, NULL, v); }

Tensor *tensor_scalar_u64(Ctx *c, DType dt, uint64_t v) {
  Tensor *t = tensor_empty(c, dt, 0, NULL);
  if (t) dtype_set_u64(dt, t->storage->data, v);
  return t;
}

Tensor *tensor_view(Tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                    int64_t offset) {
  Tensor *v = tensor_header(t->ctx, t->storage, t->dtype, ndim, shape, strides, offset);
  if (v) {
    t->storage->refcnt++;
    v->readonly = t->readonly;
  }
  return v;
}

/* Host buffers: data is the address of element [0, ..., 0] (PEP 3118).  With negative strides
   the buffer is taken to begin at the lowest reachable element, so the check is that the
   reachable span (lowest to highest element, inclusive) fits in nbytes.  Every pointer and
   size is validated: a NULL shape with ndim > 0, a NULL data with nbytes > 0 (or a non-empty
   tensor), negative dims, a buffer that wraps around the address space, strides whose extent
   overflows or reaches outside nbytes. */
Tensor *tensor_wrap(Ctx *c, DType dt, int ndim, const int64_t *shape,
                    const int64_t *strides_bytes, void *data, size_t nbytes, unsigned flags,
                    void (*release)(void *, void *), void *ud) {
  int64_t size, strides[TSR_MAXDIMS];
  int64_t isz = (int64_t)dtype_size(dt);
  if (check_shape(c, dt, ndim, shape, &size) < 0) return NULL;
  if (!data && (size > 0 || nbytes > 0)) { ERR_VALUE(c, "data pointer is NULL"); return NULL; }
  if ((uintptr_t)data % (uintptr_t)isz) { ERR_VALUE(c, "data is not aligned to the itemsize"); return NULL; }
  if (nbytes > (size_t)INT64_MAX || (uintptr_t)data > UINTPTR_MAX - nbytes) {
    ERR_VALUE(c, "buffer of %zu bytes at %p passes the end of the address space", nbytes, data);
    return NULL;
  }
  if (strides_bytes) {
    for (int i = 0; i < ndim; i++) {
      if (strides_bytes[i] % isz) { ERR_VALUE(c, "strides must be multiples of the itemsize"); return NULL; }
      strides[i] = strides_bytes[i] / isz;
    }
  } else {
    strides_c_order(ndim, shape, strides);
  }
  if (size > 0) {
    int64_t lo = 0, hi = 0, ext, span;   /* in elements, relative to element 0 */
    bool over = false;
    for (int i = 0; i < ndim && !over; i++)
      over = size_mul(shape[i] - 1, strides[i], &ext) ||
             (ext < 0 ? size_add(lo, ext, &lo) : size_add(hi, ext, &hi));
    if (over || size_sub(hi, lo, &span) || span >= (int64_t)(nbytes / (uint64_t)isz)) {
      ERR_VALUE(c, "buffer of %zu bytes is too small for the requested tensor", nbytes);
      return NULL;
    }
  }
  if (flags & TSR_COPY) {
    Storage tmp = {.refcnt = 2, .ctx = c, .data = data, .nbytes = nbytes, .owned = false};
    Tensor src = {.refcnt = 2, .ctx = c, .storage = &tmp, .dtype = dt, .ndim = ndim};
    for (int i = 0; i < ndim; i++) { src.shape[i] = shape[i]; src.strides[i] = strides[i]; }
    Tensor *t = tensor_copy(c, &src);
    if (t && (flags & TSR_READONLY)) t->storage->readonly = true;
    if (t && release) release(ud, data);
    return t;
  }
  Storage *s = ctx_malloc(c, sizeof *s);
  if (!s) return NULL;
  s->refcnt = 1;
  s->ctx = c;
  s->data = data;
  s->nbytes = nbytes;
  s->owned = false;
  s->readonly = (flags & TSR_READONLY) != 0;
  s->release = release;
  s->ud = ud;
  Tensor *t = tensor_header(c, s, dt, ndim, shape, strides, 0);
  if (!t) { s->release = NULL; storage_release(s); }
  return t;
}

/* ---------------------------------------------------------------------------------------- */
/* Properties */

bool tensor_is_contiguous(const Tensor *t) {
  int64_t s = 1;
  if (tensor_size(t) == 0) return true;
  for (int i = t->ndim - 1; i >= 0; i--) {
    if (t->shape[i] != 1 && t->strides[i] != s) return false;
    s *= t->shape[i];
  }
  return true;
}

bool tensor_is_f_contiguous(const Tensor *t) {
  int64_t s = 1;
  if (tensor_size(t) == 0) return true;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] != 1 && t->strides[i] != s) return false;
    s *= t->shape[i];
  }
  return true;
}

/* Byte extent [lo, hi) of t's elements; false when t is empty. */
static bool tensor_extent(const Tensor *t, const char **lo, const char **hi) {
  int64_t l = t->offset, h = t->offset;
  for (int i = 0; i < t->ndim; i++) {
    if (t->shape[i] == 0) return false;
    int64_t ext = (t->shape[i] - 1) * t->strides[i];
    if (ext < 0) l += ext; else h += ext;
  }
  int64_t isz = (int64_t)dtype_size(t->dtype);
  *lo = t->storage->data + l * isz;
  *hi = t->storage->data + (h + 1) * isz;
  return true;
}

bool tensor_may_overlap(const Tensor *a, const Tensor *b) {
  const char *alo, *ahi, *blo, *bhi;
  if (a->storage != b->storage && a->storage->data != b->storage->data) {
    /* distinct storages may still share a borrowed host buffer */
    if (a->storage->owned || b->storage->owned) return false;
  }
  if (!tensor_extent(a, &alo, &ahi) || !tensor_extent(b, &blo, &bhi)) return false;
  return alo < bhi && blo < ahi;
}

int tensor_check_writable(Ctx *c, const Tensor *t) {
  if (t->storage->readonly || t->readonly)
    return ERR_VALUE(c, "assignment destination is read-only");
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Copies and assignment */

Tensor *tensor_copy(Ctx *c, Tensor *t) { return tensor_astype(c, t, t->dtype); }

Tensor *tensor_astype(Ctx *c, Tensor *t, DType dt) {
  Tensor *r = tensor_empty(c, dt, t->ndim, t->shape);
  if (!r) return NULL;
  if (tensor_assign(c, r, t) < 0) { tensor_release(r); return NULL; }
  return r;
}

Tensor *tensor_contiguous(Ctx *c, Tensor *t, DType dt) {
  if (t->dtype == dt && tensor_is_contiguous(t)) return tensor_retain(t);
  return tensor_astype(c, t, dt);
}

static void cast_loop(char **data, const int64_t *steps, int64_t n, void *aux) {
  const DType *dts = aux;
  dtype_cast_strided(dts[0], data[0], steps[0], dts[1], data[1], steps[1], n);
}

/* Same geometry: the same elements in the same order. */
static bool same_view(const Tensor *a, const Tensor *b) {
  if (a->storage->data != b->storage->data || a->dtype != b->dtype || a->ndim != b->ndim ||
      a->offset != b->offset)
    return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->strides[i] != b->strides[i]))
      return false;
  return true;
}

/* Broadcasts src to (ndim, shape) for assignment: leading size-1 dims of src beyond ndim are
   dropped, as NumPy allows.  ValueError "could not broadcast input array from shape (2,) into
   shape (3,)" on mismatch. */
static Tensor *broadcast_for_assign(Ctx *c, Tensor *src, int ndim, const int64_t *shape) {
  int skip = 0;
  while (src->ndim - skip > ndim && src->shape[skip] == 1) skip++;
  int sn = src->ndim - skip;
  bool ok = sn <= ndim;
  for (int i = 0; ok && i < sn; i++) {
    int64_t s = src->shape[skip + i], d = shape[ndim - sn + i];
    if (s != d && s != 1) ok = false;
  }
  if (!ok) {
    Buf b1, b2;
    buf_init(&b1, c); buf_init(&b2, c);
    shape_format_compact(&b1, src->ndim, src->shape);
    shape_format_compact(&b2, ndim, shape);
    ERR_VALUE(c, "could not broadcast input array from shape %s into shape %s", buf_str(&b1),
              buf_str(&b2));
    buf_free(&b1); buf_free(&b2);
    return NULL;
  }
  int64_t st[TSR_MAXDIMS];
  for (int i = 0; i < ndim; i++) {
    int k = i - (ndim - sn);
    st[i] = (k < 0 || src->shape[skip + k] != shape[i]) ? 0 : src->strides[skip + k];
  }
  return tensor_view(src, ndim, shape, st, src->offset);
}

int tensor_assign(Ctx *c, Tensor *dst, Tensor *src) {
  Tensor *b = NULL, *tmp = NULL;
  if (tensor_check_writable(c, dst) < 0) return -1;
  b = broadcast_for_assign(c, src, dst->ndim, dst->shape);
  if (!b) goto fail;
  if (tensor_may_overlap(dst, b) && !same_view(dst, b)) {
    tmp = tensor_copy(c, src);
    if (!tmp) goto fail;
    tensor_release(b);
    b = broadcast_for_assign(c, tmp, dst->ndim, dst->shape);
    if (!b) goto fail;
  } else if (same_view(dst, b)) {
    tensor_release(b);
    return 0;
  }
  DType dts[2] = {dst->dtype, src->dtype};
  Tensor *ops[2] = {dst, b};
  if (iter_run_parallel(c, 2, ops, cast_loop, dts) < 0) goto fail;
  tensor_release(b);
  tensor_release(tmp);
  return 0;
fail:
  tensor_release(b);
  tensor_release(tmp);
  return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* Views and shape */

static void shape_format_ex(Buf *b, int ndim, const int64_t *shape, bool spaces, bool minus1) {
  buf_putc(b, '(');
  for (int i = 0; i < ndim; i++) {
    if (i) buf_puts(b, spaces ? ", " : ",");
    if (minus1 && shape[i] < 0) buf_puts(b, "newaxis");
    else buf_printf(b, "%lld", (long long)shape[i]);
  }
  if (ndim == 1) buf_putc(b, ',');
  buf_putc(b, ')');
}

void shape_format(Buf *b, int ndim, const int64_t *shape) { shape_format_ex(b, ndim, shape, true, false); }
void shape_format_compact(Buf *b, int ndim, const int64_t *shape) {
  shape_format_ex(b, ndim, shape, false, false);
}

int axis_normalize(Ctx *c, int axis, int ndim, int *out) {
  if (axis < -ndim || axis >= ndim)
    return ERR_AXIS(c, "axis %d is out of bounds for array of dimension %d", axis, ndim);
  *out = axis < 0 ? axis + ndim : axis;
  return 0;
}

/* Strides for viewing t (size > 0) with a new shape without copying, or false when the
   memory layout does not allow it.  Groups of old and new dims with equal products are
   matched; each old group must be contiguous within itself (NumPy's no-copy reshape rule). */
static bool reshape_strides(const Tensor *t, int ndim, const int64_t *shape, int64_t *out) {
  int64_t os[TSR_MAXDIMS], ost[TSR_MAXDIMS];
  int on = 0;
  for (int i = 0; i < t->ndim; i++)
    if (t->shape[i] != 1) { os[on] = t->shape[i]; ost[on] = t->strides[i]; on++; }
  int oi = 0, ni = 0;
  while (ni < ndim) {
    if (shape[ni] == 1) { out[ni] = 1; ni++; continue; }
    int o0 = oi, n0 = ni;
    int64_t op = os[oi++], np_ = shape[ni++];
    while (op != np_) {
      if (op < np_) op *= os[oi++];
      else np_ *= shape[ni++];
    }
    for (int k = o0; k + 1 < oi; k++)
      if (ost[k] != ost[k + 1] * os[k + 1]) return false;
    int64_t s = ost[oi - 1];
    for (int k = ni - 1; k >= n0; k--) {
      if (shape[k] == 1) { out[k] = s; continue; }
      out[k] = s;
      s *= shape[k];
    }
  }
  for (int k = 0; k < ndim; k++)   /* size-1 dims: any stride; use the next one's extent */
    if (shape[k] == 1) out[k] = (k + 1 < ndim) ? out[k + 1] * shape[k + 1] : 1;
  return true;
}

Tensor *tensor_reshape(Ctx *c, Tensor *t, int ndim, const int64_t *shape_in) {
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  if (ndim < 0 || ndim > TSR_MAXDIMS) {
    ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS, ndim);
    return NULL;
  }
  int unknown = -1;
  int64_t known = 1, size = tensor_size(t);
  bool overflow = false;
  for (int i = 0; i < ndim; i++) {
    shape[i] = shape_in[i];
    if (shape[i] < 0) {
      if (unknown >= 0) { ERR_VALUE(c, "can only specify one unknown dimension"); return NULL; }
      unknown = i;
    } else if (shape[i] && known > INT64_MAX / shape[i]) {
      overflow = true;
    } else {
      known *= shape[i];
    }
  }
  if (!overflow && unknown >= 0) {
    if (known == 0 || size % known != 0) overflow = true;
    else shape[unknown] = size / known;
  }
  if (overflow || (unknown < 0 && known != size)) {
    Buf b;
    buf_init(&b, c);
    shape_format_ex(&b, ndim, shape_in, false, true);
    ERR_VALUE(c, "cannot reshape array of size %lld into shape %s", (long long)size, buf_str(&b));
    buf_free(&b);
    return NULL;
  }
  if (size == 0 || !reshape_strides(t, ndim, shape, strides)) {
    if (size == 0 || tensor_is_contiguous(t)) {
      strides_c_order(ndim, shape, strides);
      return tensor_view(t, ndim, shape, strides, t->offset);
    }
    Tensor *cp = tensor_copy(c, t);
    if (!cp) return NULL;
    Tensor *r = tensor_reshape(c, cp, ndim, shape);
    tensor_release(cp);
    return r;
  }
  return tensor_view(t, ndim, shape, strides, t->offset);
}

Tensor *tensor_transpose(Ctx *c, Tensor *t, const int *axes) {
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  bool seen[TSR_MAXDIMS] = {false};
  for (int i = 0; i < t->ndim; i++) {
    int ax = t->ndim - 1 - i;
    if (axes && axis_normalize(c, axes[i], t->ndim, &ax) < 0) return NULL;
    if (seen[ax]) { ERR_VALUE(c, "repeated axis in transpose"); return NULL; }
    seen[ax] = true;
    shape[i] = t->shape[ax];
    strides[i] = t->strides[ax];
  }
  return tensor_view(t, t->ndim, shape, strides, t->offset);
}

Tensor *tensor_swapaxes(Ctx *c, Tensor *t, int a1, int a2) {
  int x = 0, y = 0;
  if (a1 < -t->ndim || a1 >= t->ndim || a2 < -t->ndim || a2 >= t->ndim) {
    bool first = a1 < -t->ndim || a1 >= t->ndim;
    ERR_AXIS(c, "%s: axis %d is out of bounds for array of dimension %d",
             first ? "axis1" : "axis2", first ? a1 : a2, t->ndim);
    return NULL;
  }
  axis_normalize(c, a1, t->ndim, &x);
  axis_normalize(c, a2, t->ndim, &y);
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  for (int i = 0; i < t->ndim; i++) { shape[i] = t->shape[i]; strides[i] = t->strides[i]; }
  shape[x] = t->shape[y]; strides[x] = t->strides[y];
  shape[y] = t->shape[x]; strides[y] = t->strides[x];
  return tensor_view(t, t->ndim, shape, strides, t->offset);
}

/* The strides (elements) of t broadcast to shape, or -1 with tensor_broadcast_to's errors. */
static int broadcast_strides(Ctx *c, const Tensor *t, int ndim, const int64_t *shape,
                             int64_t *strides) {
  if (ndim > TSR_MAXDIMS) {
    ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS, ndim);
    return -1;
  }
  int64_t count = 1;   /* NumPy's iterator counts every element, zero dims included */
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) { ERR_VALUE(c, "all elements of broadcast shape must be non-negative"); return -1; }
    if (count && size_mul(count, shape[i], &count)) { ERR_VALUE(c, "iterator is too large"); return -1; }
  }
  if (t->ndim > ndim) {
    ERR_VALUE(c, "input operand has more dimensions than allowed by the axis remapping");
    return -1;
  }
  int lead = ndim - t->ndim;
  for (int i = 0; i < ndim; i++) {
    int k = i - lead;
    if (k < 0) { strides[i] = 0; continue; }
    if (t->shape[k] == shape[i]) strides[i] = t->strides[k];
    else if (t->shape[k] == 1) strides[i] = 0;
    else {
      Buf b1, b2;
      buf_init(&b1, c); buf_init(&b2, c);
      shape_format_compact(&b1, t->ndim, t->shape);
      shape_format_compact(&b2, ndim, shape);
      ERR_VALUE(c, "operands could not be broadcast together with remapped shapes "
                   "[original->remapped]: %s  and requested shape %s", buf_str(&b1), buf_str(&b2));
      buf_free(&b1); buf_free(&b2);
      return -1;
    }
  }
  return 0;
}

Tensor *tensor_broadcast_to(Ctx *c, Tensor *t, int ndim, const int64_t *shape) {
  int64_t strides[TSR_MAXDIMS];
  if (broadcast_strides(c, t, ndim, shape, strides) < 0) return NULL;
  return tensor_view(t, ndim, shape, strides, t->offset);
}

int tensor_broadcast_header(Ctx *c, const Tensor *t, int ndim, const int64_t *shape,
                            Tensor *view) {
  int64_t strides[TSR_MAXDIMS], size;
  if (broadcast_strides(c, t, ndim, shape, strides) < 0 ||
      check_shape(c, t->dtype, ndim, shape, &size) < 0)
    return -1;
  memcpy(view, t, offsetof(Tensor, shape));
  view->refcnt = 1;
  view->ndim = ndim;
  memcpy(view->shape, shape, (size_t)ndim * sizeof *shape);
  memcpy(view->strides, strides, (size_t)ndim * sizeof *strides);
  return 0;
}

Tensor *tensor_expand_dims(Ctx *c, Tensor *t, int axis) {
  int ax = 0;
  if (t->ndim >= TSR_MAXDIMS) {
    ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS,
              t->ndim + 1);
    return NULL;
  }
  if (axis_normalize(c, axis, t->ndim + 1, &ax) < 0) return NULL;
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  for (int i = 0, k = 0; i <= t->ndim; i++) {
    if (i == ax) {
      shape[i] = 1;
      strides[i] = (k < t->ndim) ? t->strides[k] * t->shape[k] : 1;
      continue;
    }
    shape[i] = t->shape[k]; strides[i] = t->strides[k]; k++;
  }
  return tensor_view(t, t->ndim + 1, shape, strides, t->offset);
}

Tensor *tensor_squeeze(Ctx *c, Tensor *t, const int *axes, int naxes) {
  bool drop[TSR_MAXDIMS] = {false};
  if (!axes) {
    for (int i = 0; i < t->ndim; i++) drop[i] = t->shape[i] == 1;
  } else {
    for (int j = 0; j < naxes; j++) {
      int ax = 0;
      if (axis_normalize(c, axes[j], t->ndim, &ax) < 0) return NULL;
      if (drop[ax]) { ERR_VALUE(c, "duplicate value in 'axis'"); return NULL; }
      if (t->shape[ax] != 1) {
        ERR_VALUE(c, "cannot select an axis to squeeze out which has size not equal to one");
        return NULL;
      }
      drop[ax] = true;
    }
  }
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  int n = 0;
  for (int i = 0; i < t->ndim; i++)
    if (!drop[i]) { shape[n] = t->shape[i]; strides[n] = t->strides[i]; n++; }
  return tensor_view(t, n, shape, strides, t->offset);
}

Tensor *tensor_flip(Ctx *c, Tensor *t, int axis) {
  int64_t strides[TSR_MAXDIMS];
  int64_t offset = t->offset;
  int ax = -1;
  if (axis != INT32_MIN && axis_normalize(c, axis, t->ndim, &ax) < 0) return NULL;
  for (int i = 0; i < t->ndim; i++) {
    strides[i] = t->strides[i];
    if (axis == INT32_MIN || i == ax) {
      if (t->shape[i] > 0) offset += (t->shape[i] - 1) * t->strides[i];
      strides[i] = -t->strides[i];
    }
  }
  return tensor_view(t, t->ndim, t->shape, strides, offset);
}

Tensor *tensor_ravel(Ctx *c, Tensor *t) {
  int64_t n = tensor_size(t);
  if (tensor_is_contiguous(t)) {
    int64_t one = 1;
    return tensor_view(t, 1, &n, &one, t->offset);
  }
  Tensor *cp = tensor_copy(c, t);
  if (!cp) return NULL;
  int64_t one = 1;
  Tensor *r = tensor_view(cp, 1, &n, &one, cp->offset);
  tensor_release(cp);
  return r;
}

void tensor_memory_order(const Tensor *t, int *axes) {
  /* sorted from the innermost axis outwards: inner[k] is the k-th innermost axis */
  int inner[TSR_MAXDIMS], n = t->ndim;
  for (int k = 0; k < n; k++) inner[k] = n - 1 - k;
  for (int k = 1; k < n; k++) {
    int ax = inner[k], pos = k;
    int64_t s0 = t->shape[ax] == 1 ? 0 : llabs(t->strides[ax]);
    for (int j = k - 1; j >= 0; j--) {
      int64_t s1 = t->shape[inner[j]] == 1 ? 0 : llabs(t->strides[inner[j]]);
      if (s0 == 0 || s1 == 0) continue;
      if (s1 <= s0) break;
      pos = j;
    }
    memmove(&inner[pos + 1], &inner[pos], (size_t)(k - pos) * sizeof(int));
    inner[pos] = ax;
  }
  for (int k = 0; k < n; k++) axes[k] = inner[n - 1 - k];
}

Tensor *tensor_ravel_order(Ctx *c, Tensor *t, char order) {
  if (order == 'A') order = tensor_is_f_contiguous(t) && !tensor_is_contiguous(t) ? 'F' : 'C';
  if (order == 'C') return tensor_ravel(c, t);
  int axes[TSR_MAXDIMS];
  if (order == 'K') tensor_memory_order(t, axes);
  else for (int i = 0; i < t->ndim; i++) axes[i] = t->ndim - 1 - i;
  Tensor *p = tensor_transpose(c, t, axes);
  if (!p) return NULL;
  Tensor *r = tensor_ravel(c, p);
  tensor_release(p);
  return r;
}

int broadcast_shapes(Ctx *c, int n, Tensor *const *ts, int *ndim_out, int64_t *shape_out) {
  /* the common case: every operand already has the first one's shape */
  int k0 = 1, nd0 = n > 0 ? ts[0]->ndim : 0;
  while (n > 0 && k0 < n && ts[k0]->ndim == nd0 &&
         !memcmp(ts[k0]->shape, ts[0]->shape, (size_t)nd0 * sizeof(int64_t)))
    k0++;
  if (n > 0 && k0 == n) {
    memcpy(shape_out, ts[0]->shape, (size_t)nd0 * sizeof(int64_t));
    *ndim_out = nd0;
    return 0;
  }
  int nd = 0;
  for (int k = 0; k < n; k++) if (ts[k]->ndim > nd) nd = ts[k]->ndim;
  for (int i = 0; i < nd; i++) shape_out[i] = 1;
  for (int k = 0; k < n; k++) {
    const Tensor *t = ts[k];
    for (int i = 0; i < t->ndim; i++) {
      int64_t s = t->shape[i], *d = &shape_out[nd - t->ndim + i];
      if (s == *d || s == 1) continue;
      if (*d == 1) { *d = s; continue; }
      Buf b;
      buf_init(&b, c);
      for (int j = 0; j < n; j++) {
        shape_format_compact(&b, ts[j]->ndim, ts[j]->shape);
        buf_putc(&b, ' ');
      }
      ERR_VALUE(c, "operands could not be broadcast together with shapes %s", buf_str(&b));
      buf_free(&b);
      return -1;
    }
  }
  *ndim_out = nd;
  return 0;
}
