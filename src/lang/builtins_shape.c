/*
** builtins_shape.c -- the rest of NumPy's shape library: split, array_split, dstack, tile,
** repeat, pad, roll, diag, diff, take, put, sort, argsort, unique, meshgrid and
** broadcast_arrays, with NumPy's signatures, views where NumPy returns views, and NumPy's
** error texts.  The ndarray methods x.repeat, x.take, x.put, x.sort, x.argsort live here too.
*/
#include "builtins.h"

#include <stdlib.h>
#include <string.h>

#define IERR_INDEX(I, ...) ERR_INDEX(interp_ctx(I), __VA_ARGS__)

/* The view of t restricted to [start, start + len) along axis (len >= 0, in range). */
static Tensor *plane(Tensor *t, int axis, int64_t start, int64_t len) {
  int64_t shape[TSR_MAXDIMS];
  memcpy(shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
  shape[axis] = len;
  return tensor_view(t, t->ndim, shape, t->strides,
                     t->offset + (len > 0 ? start * t->strides[axis] : 0));
}

/* An axis argument normalised against ndim: AxisError "axis 3 is out of bounds for array of
   dimension 2". */
static int axis_arg(Interp *I, Value v, int ndim, int *out) {
  int64_t ax;
  if (value_to_int(I, v, &ax)) return -1;
  if (ax < -(int64_t)ndim || ax >= ndim)
    return ERR_AXIS(interp_ctx(I), "axis %lld is out of bounds for array of dimension %d",
                    (long long)ax, ndim);
  *out = (int)(ax < 0 ? ax + ndim : ax);
  return 0;
}

/* Formats a shape as NumPy's messages do: "(2, 3)". */
static void put_shape(Buf *b, const Tensor *t) { shape_format(b, t->ndim, t->shape); }

/* Stores an array of n new tensor references as a list (taking them); on failure releases
   them. */
static int ret_list(Interp *I, Tensor **ts, int64_t n, Value *out) {
  Value l = value_list(I, n);
  if (l.type == V_UNDEF) {
    for (int64_t i = 0; i < n; i++) tensor_release(ts[i]);
    return -1;
  }
  for (int64_t i = 0; i < n; i++) as_list(l)->items[i] = v_tensor(ts[i]);
  *out = l;
  return 0;
}

/* --------------------------------------------------------------------------------------------
** split, array_split, dstack
*/

/* array_split / split (equal = true): a list of views of ary along axis, cut at the indices
   of a sequence, or into `sections` nearly equal parts (the first N % sections one longer). */
static int split_common(Interp *I, const Args *a, const char *name, bool equal, Value *out) {
  Value s[3];
  if (args_parse(I, a, name, "ary,indices_or_sections,axis=", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Ctx *c = interp_ctx(I);
  Tensor **parts = NULL;
  int64_t nparts = 0, cap = 0;
  int rc = -1, axis = 0;
  if (given(s[2])) {
    int64_t ax;
    if (value_to_int(I, s[2], &ax)) goto done;
    if (ax < -(int64_t)t->ndim || ax >= t->ndim) {
      IERR_INDEX(I, "tuple index out of range");
      goto done;
    }
    axis = (int)(ax < 0 ? ax + t->ndim : ax);
  } else if (t->ndim == 0) {
    IERR_INDEX(I, "tuple index out of range");
    goto done;
  }
  int64_t len = t->shape[axis];
  bool by_index = s[1].type == V_LIST || s[1].type == V_TUPLE ||
                  (s[1].type == V_TENSOR && s[1].t->ndim > 0);
  int64_t *cuts = NULL, ncuts;
  Tensor *idx = NULL;
  if (by_index) {
    if (!(idx = value_to_tensor_strong(I, s[1], TSR_INT64))) goto done;
    if (idx->ndim != 1) { tensor_release(idx); IERR_VALUE(I, "indices must be 1-d"); goto done; }
    ncuts = idx->shape[0] + 2;   /* a tensor's size fits with room to spare */
  } else {
    int64_t sections;
    if (value_to_int(I, s[1], &sections)) goto done;
    if (equal && sections == 0) {
      ERR_ZERODIV(c, "integer modulo by zero");
      goto done;
    }
    if (sections <= 0) { IERR_VALUE(I, "number sections must be larger than 0."); goto done; }
    if (equal && len % sections != 0) {
      IERR_VALUE(I, "array split does not result in an equal division");
      goto done;
    }
    if (size_add(sections, 1, &ncuts)) { ERR_MEMORY(c, "too many sections"); goto done; }
  }
  if (!(cuts = ctx_malloc_n(c, ncuts, sizeof(int64_t)))) { tensor_release(idx); goto done; }
  if (by_index) {
    Tensor *ic = tensor_contiguous(c, idx, TSR_INT64);
    tensor_release(idx);
    if (!ic) { ctx_free_n(c, cuts, ncuts, sizeof(int64_t)); goto done; }
    cuts[0] = 0;
    memcpy(cuts + 1, tensor_data(ic), sizeof(int64_t) * (size_t)(ncuts - 2));
    cuts[ncuts - 1] = len;
    tensor_release(ic);
  } else {
    int64_t sections = ncuts - 1, each = len / sections, extra = len % sections;
    cuts[0] = 0;
    for (int64_t k = 0; k < sections; k++) cuts[k + 1] = cuts[k] + each + (k < extra ? 1 : 0);
  }
  cap = ncuts - 1;
  if (!(parts = ctx_calloc_n(c, cap > 0 ? cap : 1, sizeof(Tensor *)))) {
    ctx_free_n(c, cuts, ncuts, sizeof(int64_t));
    goto done;
  }
  for (int64_t k = 0; k < cap; k++) {
    /* Python slice semantics: negative counts from the end, out of range clips */
    int64_t st = cuts[k], en = cuts[k + 1];
    if (by_index) {
      if (st < 0) { st += len; if (st < 0) st = 0; } else if (st > len) st = len;
      if (en < 0) { en += len; if (en < 0) en = 0; } else if (en > len) en = len;
    }
    if (!(parts[k] = plane(t, axis, st, en > st ? en - st : 0))) break;
    nparts++;
  }
  ctx_free_n(c, cuts, ncuts, sizeof(int64_t));
  if (nparts == cap) {
    rc = ret_list(I, parts, nparts, out);
    nparts = 0;
  }
done:
  for (int64_t k = 0; k < nparts; k++) tensor_release(parts[k]);
  if (parts) ctx_free(c, parts, sizeof(Tensor *) * (size_t)(cap > 0 ? cap : 1));
  tensor_release(t);
  return rc;
}

static int bi_array_split(Interp *I, const Args *a, Value *out) {
  return split_common(I, a, "array_split", false, out);
}
static int bi_split(Interp *I, const Args *a, Value *out) {
  return split_common(I, a, "split", true, out);
}

/* dstack(tup): joins along the third axis after atleast_3d. */
static int bi_dstack(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "dstack", "tup", s)) return -1;
  Tensor **ts;
  int64_t n;
  if (sequence_tensors(I, s[0], "concatenate", &ts, &n)) return -1;
  Tensor *r = NULL;
  for (int64_t k = 0; k < n; k++) {
    Tensor *v = at_least(I, ts[k], 3);
    if (!v) goto done;
    tensor_release(ts[k]);
    ts[k] = v;
  }
  r = concat_tensors(I, ts, n, 2, -1);
done:
  free_tensors(I, ts, n);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** tile, repeat, roll
*/

/* tile(A, reps): A repeated reps[i] times along each axis (reps shorter than A.ndim is padded
   with leading 1s; longer promotes A with leading size-1 axes).  A new array. */
static int bi_tile(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "tile", "A,reps", s)) return -1;
  int nreps;
  int64_t reps[TSR_MAXDIMS];
  if (value_to_shape(I, s[1], &nreps, reps, false)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *r = NULL;
  int nd = t->ndim > nreps ? t->ndim : nreps;
  if (2 * nd > TSR_MAXDIMS) {
    ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS,
              2 * nd);
    goto done;
  }
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS], out_shape[TSR_MAXDIMS];
  for (int i = 0; i < nd; i++) {
    int ti = i - (nd - t->ndim), ri = i - (nd - nreps);
    int64_t dim = ti >= 0 ? t->shape[ti] : 1, st = ti >= 0 ? t->strides[ti] : 0;
    int64_t rep = ri >= 0 ? reps[ri] : 1;
    shape[2 * i] = rep; strides[2 * i] = 0;
    shape[2 * i + 1] = dim; strides[2 * i + 1] = st;
    if (size_mul(rep, dim, &out_shape[i])) { err_too_big(c); goto done; }
  }
  Tensor *v = tensor_view(t, 2 * nd, shape, strides, t->offset);
  if (!v) goto done;
  Tensor *cp = tensor_copy(c, v);
  tensor_release(v);
  if (!cp) goto done;
  r = tensor_reshape(c, cp, nd, out_shape);
  tensor_release(cp);
done:
  tensor_release(t);
  return ret_tensor(r, out);
}

/* numpy.repeat of t along axis by counts (one per index of the axis, or one for all):
   a new C-contiguous array.  ValueError "negative dimensions are not allowed"; counts of
   the wrong length: "operands could not be broadcast together with shape (3,) (2,)". */
static Tensor *repeat_tensor(Interp *I, Tensor *t, Tensor *counts, int axis) {
  Ctx *c = interp_ctx(I);
  int64_t n = t->shape[axis];
  if (counts->ndim > 1 || (counts->ndim == 1 && counts->shape[0] != n && counts->shape[0] != 1)) {
    Buf b;
    buf_init(&b, c);
    buf_printf(&b, "(%lld,)", (long long)n);
    if (counts->ndim > 1) IERR_VALUE(I, "object too deep for desired array");
    else IERR_VALUE(I, "operands could not be broadcast together with shape %s (%lld,)",
                    buf_str(&b), (long long)counts->shape[0]);
    buf_free(&b);
    return NULL;
  }
  Tensor *cnt = tensor_contiguous(c, counts, TSR_INT64);
  if (!cnt) return NULL;
  const int64_t *cp = (const int64_t *)tensor_data(cnt);
  bool scalar = cnt->ndim == 0 || cnt->shape[0] == 1;
  int64_t total = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t k = cp[scalar ? 0 : i];
    if (k < 0) {
      tensor_release(cnt);
      IERR_VALUE(I, "negative dimensions are not allowed");
      return NULL;
    }
    if (size_add(total, k, &total)) {
      tensor_release(cnt);
      err_too_big(c);
      return NULL;
    }
  }
  if (n == 0 && scalar && cp[0] < 0) {
    tensor_release(cnt);
    IERR_VALUE(I, "negative dimensions are not allowed");
    return NULL;
  }
  Tensor *src = tensor_contiguous(c, t, t->dtype), *r = NULL;
  int64_t shape[TSR_MAXDIMS];
  memcpy(shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
  shape[axis] = total;
  if (src) r = tensor_empty(c, t->dtype, t->ndim, shape);
  if (r) {
    size_t isz = dtype_size(t->dtype);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; i++) outer *= t->shape[i];
    for (int i = axis + 1; i < t->ndim; i++) inner *= t->shape[i];
    size_t block = (size_t)inner * isz;
    const char *sp = tensor_data(src);
    char *dp = tensor_data(r);
    for (int64_t o = 0; o < outer && r; o++) {
      /* charged per outer block: its copies, and an item per repeated element */
      if (ctx_work(c, (uint64_t)(total * inner + n), WORK_ELEMENT)) {
        tensor_release(r);
        r = NULL;
        break;
      }
      for (int64_t i = 0; i < n; i++) {
        const char *from = sp + (size_t)(o * n + i) * block;
        for (int64_t k = cp[scalar ? 0 : i]; k > 0; k--, dp += block) memcpy(dp, from, block);
      }
    }
  }
  tensor_release(src);
  tensor_release(cnt);
  return r;
}

/* repeat(a, repeats, axis=None). */
static int bi_repeat(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "repeat", "a,repeats,axis=", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *counts = NULL, *r = NULL;
  if (!t) return -1;
  int axis = 0;
  if (!given(s[2])) {
    Tensor *flat = tensor_ravel(interp_ctx(I), t);
    tensor_release(t);
    if (!(t = flat)) return -1;
  } else if (axis_arg(I, s[2], t->ndim, &axis)) {
    goto done;
  }
  if (!(counts = value_to_tensor_strong(I, s[1], -1))) goto done;
  r = repeat_tensor(I, t, counts, axis);
done:
  tensor_release(counts);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* Rolls t by shift along axis into a new C-contiguous array. */
static Tensor *roll_axis(Ctx *c, Tensor *t, int64_t shift, int axis) {
  Tensor *src = tensor_contiguous(c, t, t->dtype);
  if (!src) return NULL;
  Tensor *r = tensor_empty(c, t->dtype, t->ndim, t->shape);
  if (!r) { tensor_release(src); return NULL; }
  int64_t n = t->shape[axis], outer = 1, inner = 1;
  for (int i = 0; i < axis; i++) outer *= t->shape[i];
  for (int i = axis + 1; i < t->ndim; i++) inner *= t->shape[i];
  if (n > 0) {
    int64_t s = ((shift % n) + n) % n;
    size_t block = (size_t)inner * dtype_size(t->dtype);
    const char *sp = tensor_data(src);
    char *dp = tensor_data(r);
    for (int64_t o = 0; o < outer; o++) {
      const char *so = sp + (size_t)(o * n) * block;
      char *d = dp + (size_t)(o * n) * block;
      memcpy(d + (size_t)s * block, so, (size_t)(n - s) * block);
      memcpy(d, so + (size_t)(n - s) * block, (size_t)s * block);
    }
  }
  tensor_release(src);
  return r;
}

/* roll(a, shift, axis=None): shift and axis ints or sequences (broadcast together; shifts of
   a repeated axis add up); axis=None rolls the flattened array and restores the shape. */
static int bi_roll(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "roll", "a,shift,axis=", s)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *r = NULL, *sh = NULL;
  if (!t) return -1;
  if (!(sh = value_to_tensor_strong(I, s[1], -1))) goto done;
  if (!dtype_is_int(sh->dtype) && sh->dtype != TSR_BOOL) {
    IERR_TYPE(I, "slice indices must be integers or None or have an __index__ method");
    goto done;
  }
  if (!given(s[2])) {
    if (sh->ndim != 0) {
      IERR_VALUE(I, "'shift' and 'axis' should be scalars or 1D sequences");
      goto done;
    }
    Tensor *flat = tensor_ravel(c, t), *rolled = NULL;
    if (flat) rolled = roll_axis(c, flat, dtype_get_i64(sh->dtype, tensor_data(sh)), 0);
    tensor_release(flat);
    if (rolled) r = tensor_reshape(c, rolled, t->ndim, t->shape);
    tensor_release(rolled);
    goto done;
  }
  int axes[TSR_MAXDIMS], naxes;
  if (value_to_axes(I, s[2], axes, &naxes)) goto done;
  if (sh->ndim > 1) {
    IERR_VALUE(I, "'shift' and 'axis' should be scalars or 1D sequences");
    goto done;
  }
  int64_t nsh = sh->ndim == 0 ? 1 : sh->shape[0];
  int64_t nb = nsh > naxes ? nsh : naxes;
  if (nsh != nb && nsh != 1) goto mismatch;
  if (naxes != nb && naxes != 1) goto mismatch;
  int64_t total[TSR_MAXDIMS] = {0};
  Tensor *shc = tensor_contiguous(c, sh, TSR_INT64);
  if (!shc) goto done;
  for (int64_t k = 0; k < nb; k++) {
    int ax;
    if (axis_normalize(c, axes[naxes == 1 ? 0 : k], t->ndim, &ax)) {
      tensor_release(shc);
      goto done;
    }
    total[ax] += ((const int64_t *)tensor_data(shc))[nsh == 1 ? 0 : k];
  }
  tensor_release(shc);
  r = tensor_retain(t);
  for (int ax = 0; ax < t->ndim; ax++) {
    if (total[ax] == 0 && r != t) continue;
    Tensor *next = roll_axis(c, r, total[ax], ax);
    tensor_release(r);
    if (!(r = next)) goto done;
  }
  if (t->ndim == 0) { tensor_release(r); r = tensor_copy(c, t); }
  goto done;
mismatch:
  IERR_VALUE(I, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                "between arg 0 with shape (%lld,) and arg 1 with shape (%d,).",
             (long long)nsh, naxes);
done:
  tensor_release(sh);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** pad
*/

enum { PAD_CONSTANT, PAD_EDGE, PAD_REFLECT, PAD_SYMMETRIC, PAD_WRAP, PAD_EMPTY };

/* Reads pad_width or constant_values: an int, (n,), (before, after), or ((b0, a0), (b1,
   a1), ...) with ndim pairs, broadcast to (ndim, 2) float64 values. */
static Tensor *pad_pairs(Interp *I, Value v, int ndim, bool integral) {
  Ctx *c = interp_ctx(I);
  Tensor *t = value_to_tensor_strong(I, v, -1);
  if (!t) return NULL;
  if (integral && !dtype_is_int(t->dtype) && t->dtype != TSR_BOOL) {
    IERR_TYPE(I, "`pad_width` must be of integral type.");
    tensor_release(t);
    return NULL;
  }
  int64_t shape[2] = {ndim, 2};
  Tensor *b = NULL, *r = NULL;
  if (t->ndim <= 2) b = tensor_broadcast_to(c, t, 2, shape);
  if (!b && c->status == TSR_ERR_MEMORY) {   /* not a shape problem: keep the MemoryError */
    tensor_release(t);
    return NULL;
  }
  if (!b) {
    ctx_clear(c);
    Buf buf;
    buf_init(&buf, c);
    shape_format_compact(&buf, t->ndim, t->shape);
    IERR_VALUE(I, "operands could not be broadcast together with remapped shapes "
                  "[original->remapped]: %s  and requested shape (%d,2)", buf_str(&buf), ndim);
    buf_free(&buf);
    tensor_release(t);
    return NULL;
  }
  r = tensor_astype(c, b, TSR_FLOAT64);
  tensor_release(b);
  tensor_release(t);
  return r;
}

/* Copies map[from - j*dir] (j < len; dir 1 = forward, -1 = reversed) to map[to + j] through
   tmp (so that the chunk is read before the area is written, as NumPy's assignment). */
static void map_copy(int64_t *map, int64_t *tmp, int64_t to, int64_t from, int64_t len,
                     int dir) {
  for (int64_t j = 0; j < len; j++) tmp[j] = map[from + j * dir];
  for (int64_t j = 0; j < len; j++) map[to + j] = tmp[j];
}

/* For one axis of n elements padded by (left, right): fills map[0..left + n + right) with
   the original index (in [0, n)) that each padded position holds.  The index-mapping modes
   (edge, reflect, symmetric, wrap) replay NumPy 1.24's iterative filling on indices, so that
   pads wider than the axis give NumPy's exact (sometimes irregular) pattern.  tmp has the
   same length. */
static void pad_index_map(int mode, int64_t n, int64_t left, int64_t right, int64_t *map,
                          int64_t *tmp) {
  int64_t total = left + n + right;
  for (int64_t i = 0; i < total; i++)
    map[i] = i < left ? 0 : (i >= left + n ? n - 1 : i - left);   /* edge */
  if (mode == PAD_EDGE || ((mode == PAD_REFLECT || mode == PAD_SYMMETRIC) && n == 1)) return;
  int64_t l = left, r = right;
  while (l > 0 || r > 0) {
    if (mode == PAD_WRAP) {
      int64_t period = total - r - l, nl = 0, nr = 0;
      if (l > 0) {
        int64_t len = period < l ? period : l;
        map_copy(map, tmp, l > period ? l - period : 0, total - r - len, len, 1);
        if (l > period) nl = l - period;
      }
      if (r > 0) {
        int64_t len = period < r ? period : r;
        map_copy(map, tmp, total - r, l, len, 1);
        if (r > period) nr = r - period;
      }
      l = nl;
      r = nr;
      continue;
    }
    int64_t edge = mode == PAD_SYMMETRIC ? 1 : 0;
    int64_t old_length = total - r - l - (1 - edge);
    if (l > 0) {
      int64_t len = old_length < l ? old_length : l, stop = l - edge;
      map_copy(map, tmp, l - len, stop + len, len, -1);
      l -= len;
    }
    if (r > 0) {
      int64_t len = old_length < r ? old_length : r, start = total - r + edge - 2;
      map_copy(map, tmp, total - r, start, len, -1);
      r -= len;
    }
  }
}

/* pad(array, pad_width, mode='constant', **kwargs): modes constant (constant_values=),
   edge, reflect, symmetric, wrap, empty (zeros).  Axes are padded in order, so corners take
   the last axis' constant as in NumPy. */
static int bi_pad(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "pad", "array,pad_width,mode=,constant_values=,reflect_type=", s))
    return -1;
  Ctx *c = interp_ctx(I);
  int mode = PAD_CONSTANT;
  const char *mname = "constant";
  if (given(s[2])) {
    if (s[2].type != V_STR) return IERR_VALUE(I, "mode must be a string");
    mname = as_str(s[2])->s;
    static const char *const names[] = {"constant", "edge", "reflect", "symmetric", "wrap",
                                        "empty"};
    mode = -1;
    for (int k = 0; k < 6; k++) if (strcmp(mname, names[k]) == 0) mode = k;
    if (mode < 0) return IERR_VALUE(I, "mode '%s' is not supported", mname);
  }
  if (given(s[3]) && mode != PAD_CONSTANT)
    return IERR_VALUE(I, "unsupported keyword arguments for mode '%s': {'constant_values'}",
                      mname);
  if (given(s[4])) {
    if (mode != PAD_REFLECT && mode != PAD_SYMMETRIC)
      return IERR_VALUE(I, "unsupported keyword arguments for mode '%s': {'reflect_type'}",
                        mname);
    if (s[4].type != V_STR || strcmp(as_str(s[4])->s, "even") != 0)
      return IERR_VALUE(I, "reflect_type='odd' is not supported by tsr");
  }
  Tensor *t = arg_tensor(I, s[0]), *pw = NULL, *cv = NULL, *r = NULL;
  if (!t) return -1;
  int nd = t->ndim;
  int64_t *map = NULL;
  size_t map_bytes = 0;
  if (!(pw = pad_pairs(I, s[1], nd, true))) goto fail;
  const double *pwd = (const double *)tensor_data(pw);
  int64_t before[TSR_MAXDIMS], after[TSR_MAXDIMS], shape[TSR_MAXDIMS];
  for (int i = 0; i < nd; i++) {
    double b = pwd[2 * i], e = pwd[2 * i + 1];
    if (b < 0 || e < 0) { IERR_VALUE(I, "index can't contain negative values"); goto fail; }
    /* widths come as float64 (pad_pairs): 2**63 - 1 rounds up to 2**63, beyond int64 */
    if (b >= 0x1p63 || e >= 0x1p63 || size_add(t->shape[i], (int64_t)b, &shape[i]) ||
        size_add(shape[i], (int64_t)e, &shape[i])) {
      err_too_big(interp_ctx(I));
      goto fail;
    }
    before[i] = (int64_t)b;
    after[i] = (int64_t)e;
  }
  if (mode != PAD_CONSTANT && mode != PAD_EMPTY)
    for (int i = 0; i < nd; i++)
      if (t->shape[i] == 0 && (before[i] > 0 || after[i] > 0)) {
        IERR_VALUE(I, "can't extend empty axis %d using modes other than 'constant' or "
                      "'empty'", i);
        goto fail;
      }
  if (mode == PAD_CONSTANT && given(s[3]) && !(cv = pad_pairs(I, s[3], nd, false)))
    goto fail;
  if (!(r = tensor_zeros(c, t->dtype, nd, shape))) goto fail;
  {
    int64_t off = r->offset;
    for (int i = 0; i < nd; i++) off += before[i] * r->strides[i];
    Tensor *center = tensor_view(r, nd, t->shape, r->strides, off);
    int rc = center ? tensor_assign(c, center, t) : -1;
    tensor_release(center);
    if (rc) goto fail;
  }
  /* Pad axis by axis over the full extent of the others (earlier axes already padded). */
  for (int ax = 0; ax < nd; ax++) {
    int64_t n = t->shape[ax];
    if (mode == PAD_EMPTY || (mode == PAD_CONSTANT && !cv)) continue;
    if (map) { ctx_free(c, map, map_bytes); map = NULL; }
    if (mode != PAD_CONSTANT && (before[ax] > 0 || after[ax] > 0)) {
      map_bytes = sizeof(int64_t) * 2 * (size_t)shape[ax];
      if (!(map = ctx_malloc(c, map_bytes))) goto fail;
      pad_index_map(mode, n, before[ax], after[ax], map, map + shape[ax]);
    }
    for (int side = 0; side < 2; side++) {
      int64_t width = side == 0 ? before[ax] : after[ax];
      if (width == 0) continue;
      int64_t start = side == 0 ? 0 : before[ax] + n;
      if (mode == PAD_CONSTANT) {
        Tensor *dst = plane(r, ax, start, width);
        Tensor *val = dst ? tensor_scalar_f64(c, TSR_FLOAT64,
                                              ((const double *)tensor_data(cv))[2 * ax + side])
                          : NULL;
        int rc = val ? tensor_assign(c, dst, val) : -1;
        tensor_release(val);
        tensor_release(dst);
        if (rc) goto fail;
        continue;
      }
      for (int64_t q = 0; q < width; q++) {
        int64_t pos = start + q, src = before[ax] + map[pos];
        Tensor *dst = plane(r, ax, pos, 1), *from = dst ? plane(r, ax, src, 1) : NULL;
        int rc = from ? tensor_assign(c, dst, from) : -1;
        tensor_release(from);
        tensor_release(dst);
        if (rc) goto fail;
      }
    }
  }
  if (map) ctx_free(c, map, map_bytes);
  tensor_release(cv);
  tensor_release(pw);
  tensor_release(t);
  return ret_tensor(r, out);
fail:
  if (map) ctx_free(c, map, map_bytes);
  tensor_release(r);
  tensor_release(cv);
  tensor_release(pw);
  tensor_release(t);
  return -1;
}

/* --------------------------------------------------------------------------------------------
** diag, diff
*/

/* diag(v, k=0): the k-th diagonal of a 2-d v (a view), or a 2-d array with the 1-d v on
   its k-th diagonal. */
static int bi_diag(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "diag", "v,k=", s)) return -1;
  int64_t k = 0;
  if (given(s[1]) && value_to_int(I, s[1], &k)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  Ctx *c = interp_ctx(I);
  if (t->ndim == 1) {
    int64_t n = t->shape[0], m, shape[2];
    if (k == INT64_MIN || size_add(n, k < 0 ? -k : k, &m)) {
      IERR_VALUE(I, "Maximum allowed dimension exceeded");
      tensor_release(t);
      return -1;
    }
    shape[0] = shape[1] = m;
    if ((r = tensor_zeros(c, t->dtype, 2, shape))) {
      int64_t st = r->strides[0] + r->strides[1];
      int64_t off = r->offset + (k >= 0 ? k * r->strides[1] : -k * r->strides[0]);
      Tensor *d = tensor_view(r, 1, &n, &st, off);
      if (!d || tensor_assign(c, d, t)) { tensor_release(r); r = NULL; }
      tensor_release(d);
    }
  } else if (t->ndim == 2) {
    /* beyond the corners the diagonal is empty: clamp k so that -k cannot overflow */
    if (k < -t->shape[0]) k = -t->shape[0];
    if (k > t->shape[1]) k = t->shape[1];
    int64_t r0 = k >= 0 ? 0 : -k, c0 = k >= 0 ? k : 0;
    int64_t n0 = t->shape[0] - r0, n1 = t->shape[1] - c0;
    int64_t n = n0 < n1 ? n0 : n1;
    if (n < 0) n = 0;
    int64_t st = t->strides[0] + t->strides[1];
    r = tensor_view(t, 1, &n, &st,
                    t->offset + (n > 0 ? r0 * t->strides[0] + c0 * t->strides[1] : 0));
    if (r) r->readonly = 1;   /* numpy.diag of a 2-d array is diagonal(): read-only */
  } else {
    IERR_VALUE(I, "Input must be 1- or 2-d.");
  }
  tensor_release(t);
  return ret_tensor(r, out);
}

/* diff(a, n=1, axis=-1, prepend=<no value>, append=<no value>): the n-th discrete
   difference along axis (not_equal for bool arrays). */
static int bi_diff(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "diff", "a,n=,axis=,prepend=,append=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int64_t n = 1;
  if (given(s[1]) && value_to_int(I, s[1], &n)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *cur = NULL;
  if (!t) return -1;
  int axis = 0;
  if (n < 0) { IERR_VALUE(I, "order must be non-negative but got %lld", (long long)n); goto fail; }
  if (t->ndim == 0) {
    IERR_VALUE(I, "diff requires input that is at least one dimensional");
    goto fail;
  }
  if (given(s[2])) { if (axis_arg(I, s[2], t->ndim, &axis)) goto fail; }
  else axis = t->ndim - 1;
  if (n == 0) return ret_tensor(t, out);
  cur = tensor_retain(t);
  if (s[3].type != V_UNDEF || s[4].type != V_UNDEF) {
    Tensor *parts[3];
    int np = 0;
    for (int w = 3; w <= 4; w++) {
      if (w == 4) parts[np++] = tensor_retain(t);
      if (s[w].type == V_UNDEF) continue;
      Tensor *e = arg_tensor(I, s[w]), *eb = NULL;
      if (e && e->ndim == 0) {
        int64_t shape[TSR_MAXDIMS];
        memcpy(shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
        shape[axis] = 1;
        eb = tensor_broadcast_to(c, e, t->ndim, shape);
      } else if (e) {
        eb = tensor_retain(e);
      }
      tensor_release(e);
      if (!eb) { while (np > 0) tensor_release(parts[--np]); goto fail; }
      parts[np++] = eb;
    }
    Tensor *joined = concat_tensors(I, parts, np, axis, -1);
    while (np > 0) tensor_release(parts[--np]);
    if (!joined) goto fail;
    tensor_release(cur);
    cur = joined;
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t len = cur->shape[axis];
    int64_t m = len > 0 ? len - 1 : 0;
    Tensor *hi = plane(cur, axis, len > 0 ? 1 : 0, m), *lo = hi ? plane(cur, axis, 0, m) : NULL;
    Tensor *d = lo ? ufunc_binary(c, cur->dtype == TSR_BOOL ? UF_NOT_EQUAL : UF_SUBTRACT, hi, lo,
                                  NULL)
                   : NULL;
    tensor_release(hi);
    tensor_release(lo);
    if (!d) goto fail;
    tensor_release(cur);
    cur = d;
    if (m == 0) break;   /* empty along axis: further differences change nothing (n = 2**62) */
  }
  tensor_release(t);
  return ret_tensor(cur, out);
fail:
  tensor_release(cur);
  tensor_release(t);
  return -1;
}

/* --------------------------------------------------------------------------------------------
** take, put
*/

enum { CLIP_RAISE, CLIP_WRAP, CLIP_CLIP };
static int clip_mode(Interp *I, Value v, int *mode) {
  *mode = CLIP_RAISE;
  if (!given(v)) return 0;
  const char *m = v.type == V_STR ? as_str(v)->s : "";
  if (strcmp(m, "raise") == 0) *mode = CLIP_RAISE;
  else if (strcmp(m, "wrap") == 0) *mode = CLIP_WRAP;
  else if (strcmp(m, "clip") == 0) *mode = CLIP_CLIP;
  else return IERR_VALUE(I, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '%s')", m);
  return 0;
}

/* Indices as a fresh int64 array with mode wrap/clip applied for an axis of size n. */
static Tensor *take_indices(Interp *I, Value v, int mode, int64_t n) {
  Ctx *c = interp_ctx(I);
  Tensor *t = value_to_tensor_strong(I, v, -1);
  if (!t) return NULL;
  Tensor *r = tensor_astype(c, t, TSR_INT64);
  tensor_release(t);
  if (!r || mode == CLIP_RAISE) return r;
  int64_t *p = (int64_t *)tensor_data(r), size = tensor_size(r);
  if (n == 0 && size > 0) {
    IERR_INDEX(I, "cannot do a non-empty take from an empty axes.");
    tensor_release(r);
    return NULL;
  }
  for (int64_t i = 0; i < size; i++) {
    if (mode == CLIP_WRAP) p[i] = ((p[i] % n) + n) % n;
    else p[i] = p[i] < 0 ? 0 : (p[i] >= n ? n - 1 : p[i]);
  }
  return r;
}

/* take(a, indices, axis=None, out=None, mode='raise'): a[..., indices, ...] along axis (of
   the flattened a when axis is None); IndexError "index 5 is out of bounds for axis 0 with
   size 4". */
static int bi_take(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "take", "a,indices,axis=,out=,mode=", s)) return -1;
  if (given(s[3])) return IERR_VALUE(I, "take: out= is not supported by tsr");
  int mode;
  if (clip_mode(I, s[4], &mode)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *idx = NULL, *r = NULL;
  if (!t) return -1;
  int axis = 0;
  if (!given(s[2])) {
    Tensor *flat = tensor_ravel(c, t);
    tensor_release(t);
    if (!(t = flat)) return -1;
  } else if (axis_arg(I, s[2], t->ndim, &axis)) {
    goto done;
  }
  if (!(idx = take_indices(I, s[1], mode, t->shape[axis]))) goto done;
  {
    /* NumPy's order (PyArray_TakeFrom): a non-empty take from an empty axis fails with its
       own message; the indices are checked once for each of the n outer positions, so not at
       all when n or their count is 0 (found by fuzzdiff) */
    int64_t shape[TSR_MAXDIMS], size = 1, outer = 1;
    int nd = 0;
    if (t->ndim - 1 + idx->ndim > TSR_MAXDIMS) {
      IERR_VALUE(I, "take: too many dimensions");
      goto done;
    }
    for (int i = 0; i < axis; i++) outer *= shape[nd++] = t->shape[i];
    for (int i = 0; i < idx->ndim; i++) shape[nd++] = idx->shape[i];
    for (int i = axis + 1; i < t->ndim; i++) shape[nd++] = t->shape[i];
    for (int i = 0; i < nd; i++) size *= shape[i];
    if (t->shape[axis] == 0 && size != 0) {
      IERR_INDEX(I, "cannot do a non-empty take from an empty axes.");
      goto done;
    }
    if (outer == 0 || tensor_size(idx) == 0) {
      r = tensor_empty(c, t->dtype, nd, shape);
      goto done;
    }
  }
  IndexItem items[TSR_MAXDIMS];
  memset(items, 0, sizeof items);
  for (int i = 0; i < axis; i++) items[i].kind = IDX_SLICE;
  items[axis].kind = IDX_ARRAY;
  items[axis].array = idx;
  r = index_get(c, t, items, axis + 1);
done:
  tensor_release(idx);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* put(a, ind, v, mode='raise'): a.flat[ind] = v in place, v repeated cyclically; later
   duplicates win.  Returns None. */
static int bi_put(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "put", "a,ind,v,mode=", s)) return -1;
  if (s[0].type != V_TENSOR)
    return IERR_TYPE(I, "argument 1 must be numpy.ndarray, not %s", value_type_name(s[0]));
  int mode;
  if (clip_mode(I, s[3], &mode)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = s[0].t, *idx = NULL, *vals = NULL, *vc = NULL;
  int rc = -1;
  if (t->readonly || t->storage->readonly) return IERR_VALUE(I, "put: output array is read-only");
  int64_t size = tensor_size(t);
  if (!(idx = take_indices(I, s[1], mode, size))) goto done;
  if (!(vals = value_to_tensor(I, s[2], -1))) goto done;
  if (!(vc = tensor_astype(c, vals, t->dtype))) goto done;
  int64_t ni = tensor_size(idx), nv = tensor_size(vc);
  const int64_t *ip = (const int64_t *)tensor_data(idx);
  if (ni > 0 && size == 0) {
    IERR_INDEX(I, "cannot replace in an empty array");
    goto done;
  }
  for (int64_t k = 0; k < ni; k++)
    if (ip[k] < -size || ip[k] >= size) {
      IERR_INDEX(I, "index %lld is out of bounds for axis 0 with size %lld", (long long)ip[k],
                 (long long)size);
      goto done;
    }
  if (nv == 0) { rc = 0; goto done; }
  size_t isz = dtype_size(t->dtype);
  for (int64_t k = 0; k < ni; k++) {
    int64_t flat = ip[k] < 0 ? ip[k] + size : ip[k], off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
      off += (flat % t->shape[d]) * t->strides[d];
      flat /= t->shape[d];
    }
    memcpy(t->storage->data + off * (int64_t)isz, tensor_data(vc) + (size_t)(k % nv) * isz, isz);
  }
  rc = 0;
done:
  tensor_release(vc);
  tensor_release(vals);
  tensor_release(idx);
  if (rc == 0) *out = v_none();
  return rc;
}

/* --------------------------------------------------------------------------------------------
** sort, argsort, unique
*/

/* Reads sort's axis (-1 default; None = flattened, *flat set) and checks kind. */
static int sort_axis(Interp *I, Value axis_v, Value kind_v, Value order_v, Tensor **t,
                     int *axis, bool *flat) {
  *flat = false;
  if (given(order_v)) return IERR_VALUE(I, "Cannot specify order when the array has no fields.");
  if (given(kind_v)) {
    const char *k = kind_v.type == V_STR ? as_str(kind_v)->s : "";
    if (strcmp(k, "quicksort") && strcmp(k, "mergesort") && strcmp(k, "heapsort") &&
        strcmp(k, "stable"))
      return IERR_VALUE(I, "sort kind must be one of 'quick', 'heap', or 'stable' (got '%s')",
                        k);
  }
  if (axis_v.type == V_NONE) {
    Tensor *f = tensor_ravel(interp_ctx(I), *t);
    if (!f) return -1;
    tensor_release(*t);
    *t = f;
    *flat = true;
    *axis = 0;
    return 0;
  }
  if ((*t)->ndim == 0) {
    if (axis_v.type == V_UNDEF) { *axis = 0; return 0; }
    return ERR_AXIS(interp_ctx(I), "axis -1 is out of bounds for array of dimension 0");
  }
  if (axis_v.type == V_UNDEF) { *axis = (*t)->ndim - 1; return 0; }
  return axis_arg(I, axis_v, (*t)->ndim, axis);
}

/* sort(a, axis=-1, kind=None, order=None): a sorted copy. */
static int bi_sort(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "sort", "a,axis=,kind=,order=", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  int axis;
  bool flat;
  if (t->ndim == 0 && s[1].type != V_NONE)
    ERR_AXIS(interp_ctx(I), "axis -1 is out of bounds for array of dimension 0");
  else if (sort_axis(I, s[1], s[2], s[3], &t, &axis, &flat) == 0)
    r = sort_sorted(interp_ctx(I), t, axis);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* argsort(a, axis=-1, kind=None, order=None): int64 indices that sort a (stable). */
static int bi_argsort(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "argsort", "a,axis=,kind=,order=", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  int axis;
  bool flat;
  if (t->ndim == 0) {   /* NumPy sorts a 0-d array as the 1-d array of its element */
    Tensor *one = tensor_ravel(interp_ctx(I), t);
    tensor_release(t);
    if (!(t = one)) return -1;
  }
  if (sort_axis(I, s[1], s[2], s[3], &t, &axis, &flat) == 0)
    r = sort_argsort(interp_ctx(I), t, axis);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* x.sort(axis=-1, kind=None, order=None): sorts in place; returns None. */
static int m_sort(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "sort", "axis=,kind=,order=", s)) return -1;
  if (s[0].type == V_NONE)
    return IERR_TYPE(I, "'NoneType' object cannot be interpreted as an integer");
  Tensor *t = tensor_retain(a->self.t);
  int axis;
  bool flat;
  int rc = sort_axis(I, s[0], s[1], s[2], &t, &axis, &flat);
  if (rc == 0) {
    if (t->ndim == 0) rc = ERR_AXIS(interp_ctx(I), "axis -1 is out of bounds for array of "
                                                   "dimension 0");
    else rc = sort_inplace(interp_ctx(I), t, axis);
  }
  tensor_release(t);
  if (rc == 0) *out = v_none();
  return rc;
}

/* Are two elements of dtype dt equal (NaN equal to NaN, as unique's equal_nan=True)? */
static bool elem_equal(DType dt, const char *p, const char *q) {
  if (dtype_is_float(dt)) {
    double x = dtype_get_f64(dt, p), y = dtype_get_f64(dt, q);
    return x == y || (x != x && y != y);
  }
  if (dtype_is_unsigned(dt)) return dtype_get_u64(dt, p) == dtype_get_u64(dt, q);
  return dtype_get_i64(dt, p) == dtype_get_i64(dt, q);
}

/* Three-way order of two elements (NaN after every number). */
static int elem_cmp(DType dt, const char *p, const char *q) {
  if (dtype_is_float(dt)) {
    double x = dtype_get_f64(dt, p), y = dtype_get_f64(dt, q);
    if (x < y) return -1;
    if (y < x) return 1;
    return (x != x) - (y != y);
  }
  if (dtype_is_unsigned(dt)) {
    uint64_t x = dtype_get_u64(dt, p), y = dtype_get_u64(dt, q);
    return (x > y) - (x < y);
  }
  int64_t x = dtype_get_i64(dt, p), y = dtype_get_i64(dt, q);
  return (x > y) - (x < y);
}

/* Rows of m elements of dtype dt stored contiguously from data. */
typedef struct Rows { DType dt; const char *data; int64_t m; size_t isz; } Rows;

static int row_cmp(const Rows *r, int64_t i, int64_t j) {
  const char *p = r->data + (size_t)(i * r->m) * r->isz, *q = r->data + (size_t)(j * r->m) * r->isz;
  for (int64_t k = 0; k < r->m; k++) {
    int d = elem_cmp(r->dt, p + (size_t)k * r->isz, q + (size_t)k * r->isz);
    if (d) return d;
  }
  return 0;
}

/* Stable merge sort of row indices idx[0..n) in lexicographic row order (tmp: n slots). */
static void row_sort(const Rows *r, int64_t *idx, int64_t *tmp, int64_t n) {
  if (n < 2) return;
  int64_t h = n / 2, i = 0, j = h, k = 0;
  row_sort(r, idx, tmp, h);
  row_sort(r, idx + h, tmp, n - h);
  memcpy(tmp, idx, sizeof(int64_t) * (size_t)h);
  while (i < h && j < n) idx[k++] = row_cmp(r, idx[j], tmp[i]) < 0 ? idx[j++] : tmp[i++];
  while (i < h) idx[k++] = tmp[i++];
}

/* unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
   *, equal_nan=True): the sorted unique elements of the flattened ar, with the optional
   first-occurrence indices, inverse (flat) and counts as a tuple. */
static int bi_unique(Interp *I, const Args *a, Value *out) {
  Value s[6];
  if (args_parse(I, a, "unique",
                 "ar,return_index=,return_inverse=,return_counts=,axis=,*,equal_nan=", s))
    return -1;
  bool want[3];
  for (int k = 0; k < 3; k++) if (get_bool(I, s[1 + k], false, &want[k])) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *flat = NULL, *order = NULL;
  Tensor *res[4] = {NULL, NULL, NULL, NULL};
  int rc = -1, axis = -1;
  if (!t) return -1;
  if (given(s[4]) && axis_arg(I, s[4], t->ndim, &axis)) goto done;
  /* the items to compare: elements of the flattened ar, or (axis=) the rows of ar with axis
     moved first, each row being every other element */
  int64_t n, m = 1;
  int64_t vshape[TSR_MAXDIMS];
  if (axis < 0) {
    if (!(flat = tensor_contiguous(c, t, t->dtype))) goto done;
    Tensor *f1 = tensor_ravel(c, flat);
    tensor_release(flat);
    if (!(flat = f1)) goto done;
    n = tensor_size(flat);
  } else {
    int perm[TSR_MAXDIMS];
    perm[0] = axis;
    for (int i = 0, j = 1; i < t->ndim; i++) if (i != axis) perm[j++] = i;
    Tensor *moved = tensor_transpose(c, t, perm);
    if (!moved) goto done;
    flat = tensor_contiguous(c, moved, t->dtype);
    tensor_release(moved);
    if (!flat) goto done;
    memcpy(vshape, flat->shape, sizeof(int64_t) * (size_t)flat->ndim);
    n = flat->shape[0];
    for (int i = 1; i < flat->ndim; i++) m *= flat->shape[i];
  }
  size_t isz = dtype_size(t->dtype);
  Rows rows = {t->dtype, tensor_data(flat), m, isz};
  if (axis < 0) {
    if (!(order = sort_argsort(c, flat, 0))) goto done;
  } else {
    int64_t *tmp = ctx_malloc(c, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    if (!tmp || !(order = tensor_empty(c, TSR_INT64, 1, &n))) {
      if (tmp) ctx_free(c, tmp, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
      goto done;
    }
    int64_t *ip = (int64_t *)tensor_data(order);
    for (int64_t i = 0; i < n; i++) ip[i] = i;
    uint64_t levels = 1;   /* charged before it runs: log2 n merges of n rows of m elements */
    while (levels < 64 && ((int64_t)1 << levels) < n) levels++;
    if (ctx_work(c, (uint64_t)n * levels * (uint64_t)m, WORK_COMPARE)) {
      ctx_free(c, tmp, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
      goto done;
    }
    row_sort(&rows, ip, tmp, n);
    ctx_free(c, tmp, sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  }
  const int64_t *op = (const int64_t *)tensor_data(order);
  const char *fp = tensor_data(flat);
  int64_t nu = 0;
  /* the two passes below: neighbours compared, items copied */
  if (ctx_work(c, (uint64_t)n * (uint64_t)m * 2, WORK_COMPARE)) goto done;
  for (int64_t i = 0; i < n; i++)
    if (i == 0 || (m == 1 ? !elem_equal(t->dtype, fp + (size_t)op[i] * isz,
                                        fp + (size_t)op[i - 1] * isz)
                          : row_cmp(&rows, op[i], op[i - 1]) != 0))
      nu++;
  if (axis < 0) {
    if (!(res[0] = tensor_empty(c, t->dtype, 1, &nu))) goto done;
  } else {
    vshape[0] = nu;
    if (!(res[0] = tensor_empty(c, t->dtype, flat->ndim, vshape))) goto done;
  }
  if (want[0] && !(res[1] = tensor_empty(c, TSR_INT64, 1, &nu))) goto done;
  if (want[1] && !(res[2] = tensor_empty(c, TSR_INT64, 1, &n))) goto done;
  if (want[2] && !(res[3] = tensor_zeros(c, TSR_INT64, 1, &nu))) goto done;
  size_t rowbytes = (size_t)m * isz;
  for (int64_t i = 0, u = -1; i < n; i++) {
    const char *p = fp + (size_t)op[i] * rowbytes;
    if (i == 0 || (m == 1 ? !elem_equal(t->dtype, p, fp + (size_t)op[i - 1] * isz)
                          : row_cmp(&rows, op[i], op[i - 1]) != 0)) {
      u++;
      memcpy(tensor_data(res[0]) + (size_t)u * rowbytes, p, rowbytes);
      if (res[1]) ((int64_t *)tensor_data(res[1]))[u] = op[i];
    }
    if (res[2]) ((int64_t *)tensor_data(res[2]))[op[i]] = u;
    if (res[3]) ((int64_t *)tensor_data(res[3]))[u]++;
  }
  if (axis > 0) {   /* move the unique axis back into place */
    int perm[TSR_MAXDIMS];
    for (int i = 0, j = 1; i < t->ndim; i++) perm[i] = i == axis ? 0 : j++;
    Tensor *back = tensor_transpose(c, res[0], perm), *cp = back ? tensor_copy(c, back) : NULL;
    tensor_release(back);
    if (!cp) goto done;
    tensor_release(res[0]);
    res[0] = cp;
  }
  int nres = 1 + want[0] + want[1] + want[2];
  if (nres == 1) {
    *out = v_tensor(res[0]);
    res[0] = NULL;
    rc = 0;
    goto done;
  }
  Value tup = value_tuple(I, nres);
  if (tup.type == V_UNDEF) goto done;
  for (int k = 0, j = 0; k < 4; k++)
    if (res[k]) { as_list(tup)->items[j++] = v_tensor(res[k]); res[k] = NULL; }
  *out = tup;
  rc = 0;
done:
  for (int k = 0; k < 4; k++) tensor_release(res[k]);
  tensor_release(order);
  tensor_release(flat);
  tensor_release(t);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** broadcast_arrays, meshgrid
*/

/* Views of ts[0..n) broadcast to their common shape (into outs); ValueError "shape mismatch:
   objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (2,)
   and arg 1 with shape (3,)." */
static int broadcast_all(Interp *I, Tensor *const *ts, int64_t n, Tensor **outs) {
  Ctx *c = interp_ctx(I);
  int nd = 0;
  for (int64_t k = 0; k < n; k++) if (ts[k]->ndim > nd) nd = ts[k]->ndim;
  int64_t shape[TSR_MAXDIMS];
  int64_t from[TSR_MAXDIMS];
  for (int i = 0; i < nd; i++) { shape[i] = 1; from[i] = -1; }
  for (int64_t k = 0; k < n; k++) {
    const Tensor *t = ts[k];
    for (int i = 0; i < t->ndim; i++) {
      int d = nd - t->ndim + i;
      int64_t sz = t->shape[i];
      if (sz == 1 || sz == shape[d]) { if (sz != 1 && from[d] < 0) from[d] = k; continue; }
      if (shape[d] == 1) { shape[d] = sz; from[d] = k; continue; }
      Buf b1, b2;
      buf_init(&b1, c);
      buf_init(&b2, c);
      put_shape(&b1, ts[from[d]]);
      put_shape(&b2, t);
      IERR_VALUE(I, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                    "is between arg %lld with shape %s and arg %lld with shape %s.",
                 (long long)from[d], buf_str(&b1), (long long)k, buf_str(&b2));
      buf_free(&b1);
      buf_free(&b2);
      return -1;
    }
  }
  for (int64_t k = 0; k < n; k++) {
    if (!(outs[k] = tensor_broadcast_to(c, ts[k], nd, shape))) {
      while (k-- > 0) tensor_release(outs[k]);
      return -1;
    }
  }
  return 0;
}

/* The positional arguments of a *args function as strong tensors (ctx_malloc'ed array). */
static int star_tensors(Interp *I, const Args *a, Tensor ***ts) {
  Ctx *c = interp_ctx(I);
  *ts = ctx_malloc(c, sizeof(Tensor *) * (size_t)(a->npos > 0 ? a->npos : 1));
  if (!*ts) return -1;
  for (int i = 0; i < a->npos; i++) {
    if (!((*ts)[i] = arg_tensor(I, a->pos[i]))) {
      while (i-- > 0) tensor_release((*ts)[i]);
      ctx_free(c, *ts, sizeof(Tensor *) * (size_t)(a->npos > 0 ? a->npos : 1));
      return -1;
    }
  }
  return 0;
}
static void free_star(Interp *I, const Args *a, Tensor **ts) {
  for (int i = 0; i < a->npos; i++) tensor_release(ts[i]);
  ctx_free(interp_ctx(I), ts, sizeof(Tensor *) * (size_t)(a->npos > 0 ? a->npos : 1));
}

/* broadcast_arrays(*args, subok=False): a list of views of the arguments, broadcast to
   their common shape; ndarrays even when 0-d (NumPy views NumPy scalars as arrays too). */
static int bi_broadcast_arrays(Interp *I, const Args *a, Value *out) {
  for (int k = 0; k < a->nkw; k++)
    if (strcmp(a->kwnames[k], "subok") != 0)
      return IERR_TYPE(I, "broadcast_arrays() got an unexpected keyword argument '%s'",
                       a->kwnames[k]);
  Tensor **ts, **outs;
  if (star_tensors(I, a, &ts)) return -1;
  int rc = -1;
  size_t bytes = sizeof(Tensor *) * (size_t)(a->npos > 0 ? a->npos : 1);
  if ((outs = ctx_malloc(interp_ctx(I), bytes))) {
    if (broadcast_all(I, ts, a->npos, outs) == 0) {
      rc = 0;
      for (int k = 0; k < a->npos; k++) {
        if (outs[k]->ndim > 0 || outs[k]->ndarray) continue;
        Tensor *v = rc ? NULL : tensor_view(outs[k], 0, outs[k]->shape, outs[k]->strides,
                                            outs[k]->offset);
        if (v) v->ndarray = 1;
        else rc = -1;
        tensor_release(outs[k]);
        outs[k] = v;
      }
      if (rc == 0) rc = ret_list(I, outs, a->npos, out);
      else for (int k = 0; k < a->npos; k++) if (outs[k]) tensor_release(outs[k]);
    }
    ctx_free(interp_ctx(I), outs, bytes);
  }
  free_star(I, a, ts);
  return rc;
}

/* meshgrid(*xi, copy=True, sparse=False, indexing='xy'): coordinate arrays (a list), the
   first two axes swapped for 'xy' indexing. */
static int bi_meshgrid(Interp *I, const Args *a, Value *out) {
  bool copy = true, sparse = false, xy = true;
  for (int k = 0; k < a->nkw; k++) {
    const char *kw = a->kwnames[k];
    if (strcmp(kw, "copy") == 0) { if (get_bool(I, a->kw[k], true, &copy)) return -1; }
    else if (strcmp(kw, "sparse") == 0) { if (get_bool(I, a->kw[k], false, &sparse)) return -1; }
    else if (strcmp(kw, "indexing") == 0) {
      const char *ix = a->kw[k].type == V_STR ? as_str(a->kw[k])->s : "";
      if (strcmp(ix, "xy") && strcmp(ix, "ij"))
        return IERR_VALUE(I, "Valid values for `indexing` are 'xy' and 'ij'.");
      xy = strcmp(ix, "xy") == 0;
    } else {
      return IERR_TYPE(I, "meshgrid() got an unexpected keyword argument '%s'", kw);
    }
  }
  int nd = a->npos;
  if (nd > TSR_MAXDIMS)
    return IERR_VALUE(I, "maximum supported dimension for an ndarray is %d, found %d",
                      TSR_MAXDIMS, nd);
  Ctx *c = interp_ctx(I);
  Tensor **ts, *outs[TSR_MAXDIMS] = {NULL}, *grid[TSR_MAXDIMS];
  int nout = 0, rc = -1;
  if (star_tensors(I, a, &ts)) return -1;
  for (int i = 0; i < nd; i++) {
    Tensor *flat = tensor_ravel(c, ts[i]);
    if (!flat) goto done;
    int64_t shape[TSR_MAXDIMS], st[TSR_MAXDIMS];
    for (int d = 0; d < nd; d++) { shape[d] = 1; st[d] = 0; }
    int pos = i;
    if (xy && nd > 1 && i < 2) pos = 1 - i;
    shape[pos] = flat->shape[0];
    st[pos] = flat->strides[0];
    outs[nout] = tensor_view(flat, nd, shape, st, flat->offset);
    tensor_release(flat);
    if (!outs[nout]) goto done;
    nout++;
  }
  if (!sparse) {
    if (broadcast_all(I, outs, nd, grid)) goto done;
    for (int i = 0; i < nd; i++) { tensor_release(outs[i]); outs[i] = grid[i]; }
  }
  if (copy)
    for (int i = 0; i < nd; i++) {
      Tensor *cp = tensor_copy(c, outs[i]);
      if (!cp) goto done;
      tensor_release(outs[i]);
      outs[i] = cp;
    }
  rc = ret_list(I, outs, nd, out);
  nout = 0;
done:
  for (int i = 0; i < nout; i++) tensor_release(outs[i]);
  free_star(I, a, ts);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** Methods
*/

static int m_repeat(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_repeat, out);
}
static int m_take(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_take, out);
}
static int m_put(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_put, out);
}
static int m_argsort(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_argsort, out);
}

const Builtin builtins_shape_table[] = {
  {NULL, "split", bi_split,
   "split(ary, indices_or_sections, axis=0)\n\nSplit an array into multiple sub-arrays as "
   "views into ary."},
  {NULL, "array_split", bi_array_split,
   "array_split(ary, indices_or_sections, axis=0)\n\nSplit an array into multiple sub-arrays "
   "(the sections need not be equal)."},
  {NULL, "dstack", bi_dstack,
   "dstack(tup)\n\nStack arrays in sequence depth wise (along third axis)."},
  {NULL, "tile", bi_tile,
   "tile(A, reps)\n\nConstruct an array by repeating A the number of times given by reps."},
  {NULL, "repeat", bi_repeat,
   "repeat(a, repeats, axis=None)\n\nRepeat each element of an array after themselves."},
  {NULL, "roll", bi_roll,
   "roll(a, shift, axis=None)\n\nRoll array elements along a given axis."},
  {NULL, "pad", bi_pad,
   "pad(array, pad_width, mode='constant', **kwargs)\n\nPad an array (modes constant, edge, "
   "reflect, symmetric, wrap, empty)."},
  {NULL, "diag", bi_diag,
   "diag(v, k=0)\n\nExtract a diagonal or construct a diagonal array."},
  {NULL, "diff", bi_diff,
   "diff(a, n=1, axis=-1, prepend=<no value>, append=<no value>)\n\nCalculate the n-th "
   "discrete difference along the given axis."},
  {NULL, "take", bi_take,
   "take(a, indices, axis=None, out=None, mode='raise')\n\nTake elements from an array along "
   "an axis."},
  {NULL, "put", bi_put,
   "put(a, ind, v, mode='raise')\n\nReplaces specified elements of an array with given "
   "values."},
  {NULL, "sort", bi_sort,
   "sort(a, axis=-1, kind=None, order=None)\n\nReturn a sorted copy of an array."},
  {NULL, "argsort", bi_argsort,
   "argsort(a, axis=-1, kind=None, order=None)\n\nReturns the indices that would sort an "
   "array."},
  {NULL, "unique", bi_unique,
   "unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, "
   "equal_nan=True)\n\nFind the unique elements of an array."},
  {NULL, "broadcast_arrays", bi_broadcast_arrays,
   "broadcast_arrays(*args, subok=False)\n\nBroadcast any number of arrays against each "
   "other."},
  {NULL, "meshgrid", bi_meshgrid,
   "meshgrid(*xi, copy=True, sparse=False, indexing='xy')\n\nReturn coordinate matrices from "
   "coordinate vectors."},
  {"ndarray", "repeat", m_repeat,
   "a.repeat(repeats, axis=None)\n\nRepeat elements of an array."},
  {"ndarray", "take", m_take,
   "a.take(indices, axis=None, out=None, mode='raise')\n\nReturn an array formed from the "
   "elements of a at the given indices."},
  {"ndarray", "put", m_put,
   "a.put(indices, values, mode='raise')\n\nSet a.flat[n] = values[n] for all n in indices."},
  {"ndarray", "sort", m_sort,
   "a.sort(axis=-1, kind=None, order=None)\n\nSort an array in-place."},
  {"ndarray", "argsort", m_argsort,
   "a.argsort(axis=-1, kind=None, order=None)\n\nReturns the indices that would sort this "
   "array."},
  {NULL, NULL, NULL, NULL}
};
