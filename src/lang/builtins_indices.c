/*
** builtins_indices.c -- conversions between flat and multi-dimensional indices, as NumPy
** 1.24 has them: unravel_index, ravel_multi_index and indices (index arrays are int64,
** NumPy's intp here; a scalar index gives NumPy scalars); and partition / argpartition, whose
** selection is runtime/partition.c.
*/
#include "builtins.h"

#include <string.h>

/* The order= option of the index conversions: 'C' (last index fastest) or 'F'. */
static int index_order(Interp *I, Value v, bool *fortran) {
  *fortran = false;
  if (!given(v)) return 0;
  if (v.type != V_STR) return IERR_TYPE(I, "order must be str, not %s", value_type_name(v));
  const char *s = as_str(v)->s;
  if (strcmp(s, "C") == 0 || strcmp(s, "c") == 0) return 0;
  if (strcmp(s, "F") == 0 || strcmp(s, "f") == 0) { *fortran = true; return 0; }
  return IERR_VALUE(I, "only 'C' or 'F' order is permitted");
}

/* Packs k int64 tensors into a tuple value; a 0-d one becomes a NumPy scalar.  Takes the
   tensors (all released on failure). */
static int tuple_of(Interp *I, Tensor **ts, int k, Value *out) {
  Value tup = value_tuple(I, k);
  if (tup.type == V_UNDEF) {
    for (int j = 0; j < k; j++) tensor_release(ts[j]);
    return -1;
  }
  for (int j = 0; j < k; j++) as_list(tup)->items[j] = v_tensor(ts[j]);
  *out = tup;
  return 0;
}

/* unravel_index(indices, shape, order='C'): the tuple of coordinate arrays, each of the
   shape of indices, of the flat indices into an array of that shape.  ValueError "index 6 is
   out of bounds for array with size 6"; TypeError "only int indices permitted". */
static int bi_unravel_index(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "unravel_index", "indices,shape,order=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int n;
  int64_t dims[TSR_MAXDIMS];
  bool fortran;
  if (value_to_shape(I, s[1], &n, dims, false) || index_order(I, s[2], &fortran)) return -1;
  Tensor *in = value_to_tensor_strong(I, s[0], -1), *idx = NULL, *res[TSR_MAXDIMS] = {NULL};
  if (!in) return -1;
  int k = 0;
  if (!dtype_is_int(in->dtype)) {
    IERR_TYPE(I, "only int indices permitted");
    goto fail;
  }
  int64_t size = 1, total;
  for (int d = 0; d < n; d++)
    if (size_mul(size, dims[d], &size)) {
      IERR_VALUE(I, "dimensions are too large; arrays and shapes with a total size greater "
                    "than 'intp' are not supported.");
      goto fail;
    }
  if (!(idx = tensor_astype(c, in, TSR_INT64))) goto fail;
  total = tensor_size(idx);
  for (; k < n; k++)
    if (!(res[k] = tensor_empty(c, TSR_INT64, idx->ndim, idx->shape))) goto fail;
  const int64_t *src = (const int64_t *)tensor_data(idx);
  for (int64_t p = 0; p < total; p++) {
    int64_t v = src[p];
    if (v < 0 || v >= size) {
      ERR_VALUE(c, "index %lld is out of bounds for array with size %lld", (long long)v,
                (long long)size);
      goto fail;
    }
    for (int j = 0; j < n; j++) {
      int d = fortran ? j : n - 1 - j;
      ((int64_t *)tensor_data(res[d]))[p] = v % dims[d];
      v /= dims[d];
    }
  }
  tensor_release(in);
  tensor_release(idx);
  return tuple_of(I, res, n, out);
fail:
  tensor_release(in);
  tensor_release(idx);
  for (int j = 0; j < k; j++) tensor_release(res[j]);
  return -1;
}

int broadcast_int64(Ctx *c, Tensor **ts, int n) {
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (broadcast_shapes(c, n, ts, &nd, shape) < 0) return -1;
  for (int k = 0; k < n; k++) {
    Tensor *b = tensor_broadcast_to(c, ts[k], nd, shape), *i64 = NULL;
    if (b) i64 = tensor_astype(c, b, TSR_INT64);
    tensor_release(b);
    if (!i64) return -1;
    tensor_release(ts[k]);
    ts[k] = i64;
  }
  return 0;
}

/* The mode= option of ravel_multi_index: 'raise' (0), 'wrap' (1) or 'clip' (2). */
static int index_mode(Interp *I, Value v, int *mode) {
  *mode = 0;
  if (!given(v)) return 0;
  const char *s = v.type == V_STR ? as_str(v)->s : "";
  if (strcmp(s, "raise") == 0) *mode = 0;
  else if (strcmp(s, "wrap") == 0) *mode = 1;
  else if (strcmp(s, "clip") == 0) *mode = 2;
  else if (v.type == V_STR)
    return IERR_VALUE(I, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '%s')", s);
  else return IERR_TYPE(I, "clipmode not understood");
  return 0;
}

/* ravel_multi_index(multi_index, dims, mode='raise', order='C'): the flat indices of the
   coordinate arrays multi_index (a sequence of len(dims) int arrays, broadcast together)
   into an array of shape dims; int64, of the broadcast shape.  ValueError "invalid entry in
   coordinates array" (mode 'raise'), "parameter multi_index must be a sequence of length
   N". */
static int bi_ravel_multi_index(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "ravel_multi_index", "multi_index,dims,mode=,order=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int n, mode;
  int64_t dims[TSR_MAXDIMS];
  bool fortran;
  if (value_to_shape(I, s[1], &n, dims, false) || index_mode(I, s[2], &mode) ||
      index_order(I, s[3], &fortran))
    return -1;
  if ((s[0].type != V_TUPLE && s[0].type != V_LIST) || as_list(s[0])->n != n)
    return IERR_VALUE(I, "parameter multi_index must be a sequence of length %d", n);
  int64_t count;   /* the flat indices must fit: NumPy checks the product of dims first */
  if (shape_count(n, dims, 1, &count) < 0)
    return IERR_VALUE(I, "invalid dims: array size defined by dims is larger than the maximum "
                         "possible size.");
  Tensor *co[TSR_MAXDIMS] = {NULL}, *r = NULL;
  int k = 0, nd;
  int64_t shape[TSR_MAXDIMS];
  for (; k < n; k++) {
    Tensor *t = value_to_tensor_strong(I, as_list(s[0])->items[k], -1);
    if (!t) goto done;
    co[k] = t;
    if (!dtype_is_int(t->dtype)) {
      ERR_TYPE(c, "only int indices permitted");
      goto done;
    }
  }
  if (broadcast_int64(c, co, n) < 0) goto done;
  nd = co[0]->ndim;
  memcpy(shape, co[0]->shape, (size_t)nd * sizeof *shape);
  if (!(r = tensor_empty(c, TSR_INT64, nd, shape))) goto done;
  int64_t total = tensor_size(r), *dst = (int64_t *)tensor_data(r);
  for (int64_t p = 0; p < total; p++) {
    int64_t flat = 0;
    for (int j = 0; j < n; j++) {
      int d = fortran ? n - 1 - j : j;
      int64_t v = ((const int64_t *)tensor_data(co[d]))[p];
      if (v < 0 || v >= dims[d]) {
        if (mode == 0) {
          ERR_VALUE(c, "invalid entry in coordinates array");
          tensor_release(r);
          r = NULL;
          goto done;
        }
        if (mode == 1) v = dims[d] ? ((v % dims[d]) + dims[d]) % dims[d] : 0;
        else v = v < 0 ? 0 : dims[d] - 1;
      }
      flat = flat * dims[d] + v;
    }
    dst[p] = flat;
  }
done:
  for (int j = 0; j < k; j++) tensor_release(co[j]);
  return ret_tensor(r, out);
}

/* indices(dimensions, dtype=int, sparse=False): the grid of each axis's index, of shape
   (len(dimensions),) + dimensions; sparse gives a tuple of arrays with unit axes instead. */
static int bi_indices(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "indices", "dimensions,dtype=,sparse=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int n, dt = -1;
  int64_t dims[TSR_MAXDIMS];
  bool sparse;
  if (value_to_shape(I, s[0], &n, dims, false) || value_to_dtype(I, s[1], &dt) ||
      get_bool(I, s[2], false, &sparse))
    return -1;
  DType d = dt < 0 ? TSR_INT64 : (DType)dt;
  if (!sparse && n + 1 > TSR_MAXDIMS)
    return IERR_VALUE(I, "maximum supported dimension for an ndarray is %d, found %d",
                      TSR_MAXDIMS, n + 1);
  Tensor *parts[TSR_MAXDIMS] = {NULL}, *r = NULL;
  int k = 0;
  int64_t full[TSR_MAXDIMS + 1], count;   /* the result's shape is checked before any part */
  full[0] = n;
  memcpy(full + 1, dims, (size_t)n * sizeof *dims);
  if (!sparse && shape_count(n + 1, full, dtype_size(d), &count) < 0) return err_too_big(c);
  for (; k < n; k++) {
    /* arange(dims[k]) along axis k, unit elsewhere */
    int64_t shape[TSR_MAXDIMS], len = dims[k];
    for (int j = 0; j < n; j++) shape[j] = j == k ? dims[k] : 1;
    Tensor *ar = tensor_empty(c, TSR_INT64, 1, &len), *cast = NULL;
    if (!ar) goto fail;
    for (int64_t i = 0; i < len; i++) ((int64_t *)tensor_data(ar))[i] = i;
    if ((cast = tensor_astype(c, ar, d))) parts[k] = tensor_reshape(c, cast, n, shape);
    tensor_release(ar);
    tensor_release(cast);
    if (!parts[k]) goto fail;
  }
  if (sparse) return tuple_of(I, parts, n, out);
  int64_t shape[TSR_MAXDIMS];
  shape[0] = n;
  memcpy(shape + 1, dims, (size_t)n * sizeof *dims);
  if (!(r = tensor_empty(c, d, n + 1, shape))) goto fail;
  for (int j = 0; j < n; j++) {
    Tensor *row = tensor_view(r, n, shape + 1, r->strides + 1, r->offset + j * r->strides[0]);
    int rc = row ? tensor_assign(c, row, parts[j]) : -1;
    tensor_release(row);
    if (rc) { tensor_release(r); r = NULL; goto fail; }
  }
fail:
  for (int j = 0; j < k; j++) tensor_release(parts[j]);
  return r ? ret_tensor(r, out) : -1;
}

/* The kth argument of partition: an int or a sequence of ints (at most 50). */
static int partition_kth(Interp *I, Value v, int64_t *kth, int *n) {
  Tensor *t = value_to_tensor_strong(I, v, -1);
  if (!t) return -1;
  int rc = 0;
  int64_t size = tensor_size(t);
  if (!dtype_is_int(t->dtype)) rc = IERR_TYPE(I, "Partition index must be integer");
  else if (t->ndim > 1) rc = IERR_VALUE(I, "object too deep for desired array");
  else if (size > 50) rc = IERR_VALUE(I, "partition: at most 50 kth values");
  if (rc == 0) {
    Tensor *k64 = tensor_astype(interp_ctx(I), t, TSR_INT64);
    if (!k64) rc = -1;
    else memcpy(kth, tensor_data(k64), (size_t)size * sizeof *kth);
    if (k64) tensor_release(k64);
    *n = (int)size;
  }
  tensor_release(t);
  return rc;
}

/* partition / argpartition (a, kth, axis=-1, kind='introselect', order=None); axis=None
   partitions the flattened array. */
static int partition_common(Interp *I, Value av, Value kth_v, Value axis_v, Value kind_v,
                            bool arg, Tensor **out) {
  int64_t kth[50], ax = -1;
  int nkth;
  if (given(kind_v) && (kind_v.type != V_STR || strcmp(as_str(kind_v)->s, "introselect") != 0))
    return IERR_VALUE(I, "Unknown kind: only 'introselect' is supported");
  if (partition_kth(I, kth_v, kth, &nkth)) return -1;
  bool flat = axis_v.type == V_NONE;
  if (!flat && given(axis_v) && value_to_int(I, axis_v, &ax)) return -1;
  Tensor *t = value_to_tensor_strong(I, av, -1), *src = t;
  if (!t) return -1;
  if (flat && !(src = tensor_ravel(interp_ctx(I), t))) { tensor_release(t); return -1; }
  *out = tensor_partition(interp_ctx(I), src, kth, nkth,
                          flat ? 0 : ax < INT32_MIN || ax > INT32_MAX ? INT32_MAX : (int)ax, arg);
  if (src != t) tensor_release(src);
  tensor_release(t);
  return *out ? 0 : -1;
}

static int bi_partition(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "partition", "a,kth,axis=,kind=,order=", s)) return -1;
  Tensor *r;
  if (partition_common(I, s[0], s[1], s[2], s[3], false, &r)) return -1;
  return ret_tensor(r, out);
}
static int bi_argpartition(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "argpartition", "a,kth,axis=,kind=,order=", s)) return -1;
  Tensor *r;
  if (partition_common(I, s[0], s[1], s[2], s[3], true, &r)) return -1;
  return ret_tensor(r, out);
}
/* a.partition(kth, axis=-1, kind='introselect', order=None): in place, returns None. */
static int m_partition(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "partition", "kth,axis=,kind=,order=", s)) return -1;
  if (s[1].type == V_NONE) return IERR_VALUE(I, "axis must be an integer for a.partition");
  Tensor *r;
  if (partition_common(I, a->self, s[0], s[1], s[2], false, &r)) return -1;
  Ctx *c = interp_ctx(I);
  int rc = tensor_check_writable(c, a->self.t);
  if (rc == 0) rc = tensor_assign(c, a->self.t, r);
  tensor_release(r);
  if (rc) return -1;
  *out = v_none();
  return 0;
}
static int m_argpartition(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_argpartition, out);
}

const Builtin builtins_indices_table[] = {
  {NULL, "partition", bi_partition, "partition(a, kth, axis=-1, kind='introselect', "
   "order=None)\n\nReturn a partitioned copy of an array."},
  {NULL, "argpartition", bi_argpartition, "argpartition(a, kth, axis=-1, kind='introselect', "
   "order=None)\n\nPerform an indirect partition along the given axis."},
  {"ndarray", "partition", m_partition, "a.partition(kth, axis=-1, kind='introselect', "
   "order=None)\n\nRearranges the elements in the array in place."},
  {"ndarray", "argpartition", m_argpartition, "a.argpartition(kth, axis=-1, "
   "kind='introselect', order=None)\n\nReturns the indices that would partition this array."},
  {NULL, "unravel_index", bi_unravel_index, "unravel_index(indices, shape, order='C')\n\n"
   "Converts a flat index or array of flat indices into a tuple of coordinate arrays."},
  {NULL, "ravel_multi_index", bi_ravel_multi_index, "ravel_multi_index(multi_index, dims, "
   "mode='raise', order='C')\n\nConverts a tuple of index arrays into an array of flat "
   "indices."},
  {NULL, "indices", bi_indices, "indices(dimensions, dtype=int, sparse=False)\n\nReturn an "
   "array representing the indices of a grid."},
  {NULL, NULL, NULL, NULL}
};
