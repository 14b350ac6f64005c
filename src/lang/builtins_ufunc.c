/*
** builtins_ufunc.c -- the methods of NumPy's binary ufuncs: add.reduce, add.accumulate,
** add.outer and add.at, and likewise for every other binary ufunc (subtract, maximum,
** bitwise_or ...).  `add.reduce` is an attribute of the builtin `add`: the evaluator asks
** builtins_ufunc_method for the method and binds it to the builtin, whose name tells which
** ufunc runs.
**
** The reductions that NumPy reorders (add, multiply, maximum, minimum, logical_and,
** logical_or) run on the reduction engine, so their results are sum/prod/max/min/all/any's
** bit for bit; the others fold the slices along the axis in order, one ufunc call per slice,
** which is NumPy's order of operations for them.
*/
#include "builtins.h"
#include "../runtime/fuse.h"

#include <string.h>

/* The binary ufunc a builtin computes: its table name, or NumPy's aliases true_divide and
   mod.  -1 for any other builtin. */
static int builtin_binary_ufunc(const Builtin *bi) {
  if (bi->ns) return -1;
  if (strcmp(bi->name, "true_divide") == 0) return UF_TRUE_DIVIDE;
  if (strcmp(bi->name, "mod") == 0) return UF_REMAINDER;
  for (int k = 0; k < UF_BINARY_COUNT; k++)
    if (strcmp(bi->name, binary_ufunc_names[k]) == 0) return k;
  return -1;
}

/* Is the builtin a unary ufunc (which has the methods, but only to refuse them)? */
static bool builtin_unary_ufunc(const Builtin *bi) {
  if (bi->ns) return false;
  if (strcmp(bi->name, "abs") == 0 || strcmp(bi->name, "bitwise_not") == 0) return true;
  for (int k = 0; k < UF_UNARY_COUNT; k++)
    if (strcmp(bi->name, unary_ufunc_names[k]) == 0) return true;
  return false;
}

/* Binds a method call's arguments (spec as args_parse) and returns the ufunc it is a method
   of (a->self is the builtin), or -1 with the error (NumPy's ValueError for a unary one). */
static int method_args(Interp *I, const Args *a, const char *method, const char *spec,
                       Value *s) {
  if (args_parse(I, a, method, spec, s)) return -1;
  int op = a->self.type == V_BUILTIN ? builtin_binary_ufunc(a->self.bi) : -1;
  if (op < 0) IERR_VALUE(I, "%s only supported for binary functions", method);
  return op;
}

/* The reduction engine's equivalent of a reorderable ufunc's reduce, or -1. */
static int engine_reduction(BinaryUfunc op) {
  switch (op) {
  case UF_ADD: return RED_SUM;
  case UF_MULTIPLY: return RED_PROD;
  case UF_MAXIMUM: return RED_MAX;
  case UF_MINIMUM: return RED_MIN;
  case UF_LOGICAL_AND: return RED_ALL;
  case UF_LOGICAL_OR: return RED_ANY;
  default: return -1;
  }
}

/* Is op reorderable in NumPy (commutative and associative: reduce may take several axes)?
   The engine's reductions above are, and so are these, which fold_axis reduces. */
static bool reorderable(BinaryUfunc op) {
  return op == UF_BITWISE_AND || op == UF_BITWISE_OR || op == UF_BITWISE_XOR ||
         op == UF_LOGICAL_XOR || op == UF_FMAX || op == UF_FMIN;
}

/* Slice i of t along axis (a view without that axis); NULL only when out of memory. */
static Tensor *slice_at(Tensor *t, int axis, int64_t i) {
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  int nd = 0;
  for (int d = 0; d < t->ndim; d++) {
    if (d == axis) continue;
    shape[nd] = t->shape[d];
    strides[nd++] = t->strides[d];
  }
  return tensor_view(t, nd, shape, strides, t->offset + i * t->strides[axis]);
}

/* The result dtype of op over two operands of t's dtype; -1 with NumPy's TypeError when the
   ufunc's result cannot stand in for its operand (comparisons of non-bool input: their bool
   result cannot be compared with the next int). */
static int fold_dtype(Ctx *c, BinaryUfunc op, Tensor *t) {
  DType ct, ot;
  int rc = ufunc_binary_resolve(c, op, t, t, &ct, &ot);
  if (rc < 0) return -1;
  if (rc > 0) ot = t->dtype;   /* integer powers: the operand's dtype */
  if (op >= UF_EQUAL && op <= UF_GREATER_EQUAL && t->dtype != TSR_BOOL) {
    ERR_TYPE(c, "No loop matching the specified signature and casting was found for ufunc %s",
             binary_ufunc_names[op]);
    return -1;
  }
  return (int)ot;
}

/* op folded along axis of t in order (t[0] op t[1] op ...), the first slice cast to the
   result dtype.  fmax and fmin keep the accumulated value on a tie (-0.0 against 0.0), as
   NumPy's reduce loop does, where the elementwise ufunc returns its second operand: so they
   fold as fmax(t[i], acc), the same otherwise.  New reference or NULL. */
static Tensor *fold_axis(Ctx *c, BinaryUfunc op, Tensor *t, int axis) {
  int ot = fold_dtype(c, op, t);
  if (ot < 0) return NULL;
  int64_t n = t->shape[axis];
  if (n == 0) {
    int64_t shape[TSR_MAXDIMS];
    int nd = 0;
    for (int d = 0; d < t->ndim; d++)
      if (d != axis) shape[nd++] = t->shape[d];
    /* the ufuncs with an identity that the engine does not cover */
    if (op == UF_BITWISE_OR || op == UF_BITWISE_XOR || op == UF_LOGICAL_XOR)
      return tensor_full_i64(c, (DType)ot, nd, shape, 0);
    if (op == UF_BITWISE_AND) return tensor_full_i64(c, (DType)ot, nd, shape, -1);
    ERR_VALUE(c, "zero-size array to reduction operation %s which has no identity",
              binary_ufunc_names[op]);
    return NULL;
  }
  Tensor *s = slice_at(t, axis, 0), *acc;
  if (!s) return NULL;
  acc = tensor_astype(c, s, (DType)ot);
  tensor_release(s);
  for (int64_t i = 1; acc && i < n; i++) {
    if (!(s = slice_at(t, axis, i))) { tensor_release(acc); return NULL; }
    bool swap = op == UF_FMAX || op == UF_FMIN;
    Tensor *next = swap ? ufunc_binary(c, op, s, acc, NULL) : ufunc_binary(c, op, acc, s, NULL);
    tensor_release(s);
    tensor_release(acc);
    acc = next;
  }
  return acc;
}

/* op reduced over no axis: t cast to the loop's result dtype, as NumPy's true_divide.reduce
   of a 0-d uint32 is a float64 (found by fuzzdiff).  New reference or NULL. */
static Tensor *fold_none(Ctx *c, BinaryUfunc op, Tensor *t) {
  int ot = fold_dtype(c, op, t);
  return ot < 0 ? NULL : tensor_astype(c, t, (DType)ot);
}

/* r with a unit axis inserted at each of axes (keepdims=True).  Takes r. */
static Tensor *keep_axes(Ctx *c, Tensor *r, const Tensor *t, const bool *reduced) {
  if (!r) return NULL;
  int64_t shape[TSR_MAXDIMS];
  for (int d = 0; d < t->ndim; d++) shape[d] = reduced[d] ? 1 : t->shape[d];
  Tensor *k = tensor_reshape(c, r, t->ndim, shape);
  tensor_release(r);
  return k;
}

/* ufunc.reduce(array, axis=0, dtype=None, out=None, keepdims=False).  axis: an int, a
   tuple (reorderable ufuncs only) or None (all axes). */
static int m_reduce(Interp *I, const Args *a, Value *out) {
  Value s[5];
  int op = method_args(I, a, "reduce", "array,axis=,dtype=,out=,keepdims=", s);
  if (op < 0) return -1;
  Ctx *c = interp_ctx(I);
  int axes[TSR_MAXDIMS], naxes = 1, dt = -1;
  bool keep;
  Tensor *o;
  axes[0] = 0;
  if ((s[1].type != V_UNDEF && value_to_axes(I, s[1], axes, &naxes)) ||
      value_to_dtype(I, s[2], &dt) || builtins_out_arg(I, s[3], &o) ||
      get_bool(I, s[4], false, &keep))
    return -1;
  Tensor *t = value_to_tensor_strong(I, s[0], dt);
  if (!t) return -1;
  Tensor *r = NULL;
  int red = engine_reduction((BinaryUfunc)op);
  if (t->ndim == 0) {
    /* a 0-d operand reduces to itself over no axes, whatever axis says */
    r = red >= 0 ? reduce(c, (Reduction)red, t, axes, 0, false, dt) : fold_none(c, op, t);
  } else if (red >= 0) {
    r = reduce(c, (Reduction)red, t, axes, naxes, keep, dt);
  } else {
    int n = naxes < 0 ? t->ndim : naxes, axis = 0;
    bool reduced[TSR_MAXDIMS] = {false};
    if (n > 1 && reorderable((BinaryUfunc)op)) {
      /* several axes: folded one after the other, the highest first (found by fuzzdiff) */
      bool ok = true;
      for (int k = 0; ok && k < n; k++) {
        if (naxes < 0) { reduced[k] = true; continue; }
        ok = axis_normalize(c, axes[k], t->ndim, &axis) == 0;
        if (ok && reduced[axis]) {
          ERR_VALUE(c, "duplicate value in 'axis'");
          ok = false;
        }
        if (ok) reduced[axis] = true;
      }
      Tensor *cur = ok ? tensor_retain(t) : NULL;
      for (int d = t->ndim - 1; cur && d >= 0; d--) {
        if (!reduced[d]) continue;
        Tensor *next = fold_axis(c, (BinaryUfunc)op, cur, d);
        tensor_release(cur);
        cur = next;
      }
      r = cur && keep ? keep_axes(c, cur, t, reduced) : cur;
    } else if (n > 1) {
      /* the loop's TypeError (numpy boolean subtract) comes first, as in NumPy */
      if (fold_dtype(c, (BinaryUfunc)op, t) >= 0)
        ERR_VALUE(c, "reduction operation '%s' is not reorderable, so at most one axis may be "
                     "specified", binary_ufunc_names[op]);
    } else if (n == 1 && (naxes < 0 || axis_normalize(c, axes[0], t->ndim, &axis) == 0)) {
      reduced[axis] = true;
      r = fold_axis(c, (BinaryUfunc)op, t, axis);
      if (keep) r = keep_axes(c, r, t, reduced);
    } else if (n == 0) {
      r = fold_none(c, (BinaryUfunc)op, t);
    }
  }
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}

/* ufunc.accumulate(array, axis=0, dtype=None, out=None): the running reduction along axis. */
static int m_accumulate(Interp *I, const Args *a, Value *out) {
  Value s[4];
  int op = method_args(I, a, "accumulate", "array,axis=,dtype=,out=", s);
  if (op < 0) return -1;
  Ctx *c = interp_ctx(I);
  int64_t ax = 0;
  int dt = -1;
  Tensor *o;
  if (s[1].type == V_NONE) return IERR_VALUE(I, "accumulate does not allow multiple axes");
  if ((given(s[1]) && value_to_int(I, s[1], &ax)) || value_to_dtype(I, s[2], &dt) ||
      builtins_out_arg(I, s[3], &o))
    return -1;
  Tensor *t = value_to_tensor_strong(I, s[0], dt);
  if (!t) return -1;
  Tensor *r = NULL, *acc = NULL, *sl = NULL;
  int axis;
  if (t->ndim == 0) {
    IERR_TYPE(I, "cannot accumulate on a scalar");
  } else if (axis_normalize(c, ax < INT32_MIN || ax > INT32_MAX ? INT32_MAX : (int)ax,
                            t->ndim, &axis) == 0) {
    if (op == UF_ADD || op == UF_MULTIPLY) {
      r = reduce_cumulative(c, op == UF_ADD ? RED_SUM : RED_PROD, t, axis, dt);
    } else {
      int ot = fold_dtype(c, (BinaryUfunc)op, t);
      if (ot >= 0 && (r = tensor_empty(c, (DType)ot, t->ndim, t->shape))) {
        /* r[i] = r[i-1] op t[i], r[0] = t[0] */
        for (int64_t i = 0; i < t->shape[axis]; i++) {
          Tensor *dst = slice_at(r, axis, i), *val = NULL;
          if (dst && (sl = slice_at(t, axis, i)))
            val = i == 0 ? tensor_retain(sl) : ufunc_binary(c, (BinaryUfunc)op, acc, sl, NULL);
          int rc = val ? tensor_assign(c, dst, val) : -1;
          tensor_release(val);
          tensor_release(sl);
          sl = NULL;
          tensor_release(acc);
          acc = dst;
          if (rc) { tensor_release(r); r = NULL; break; }
        }
      }
    }
  }
  tensor_release(acc);
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}

/* ufunc.outer(A, B): op(A[i..., None...], B[j...]), of shape A.shape + B.shape. */
static int m_outer(Interp *I, const Args *a, Value *out) {
  Value s[2];
  int op = method_args(I, a, "outer", "A,B", s);
  if (op < 0) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = NULL, *y = NULL, *xr = NULL, *r = NULL;
  if ((x = value_to_tensor(I, s[0], -1)) && (y = value_to_tensor(I, s[1], -1))) {
    if (x->ndim + y->ndim > TSR_MAXDIMS) {
      ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS,
                x->ndim + y->ndim);
    } else {
      int64_t shape[TSR_MAXDIMS];
      memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
      for (int d = 0; d < y->ndim; d++) shape[x->ndim + d] = 1;
      if ((xr = tensor_reshape(c, x, x->ndim + y->ndim, shape)))
        r = ufunc_binary(c, (BinaryUfunc)op, xr, y, NULL);
    }
  }
  tensor_release(x);
  tensor_release(y);
  tensor_release(xr);
  return ret_tensor(r, out);
}

/* The index arrays of ufunc.at: an int, a sequence of ints (one axis) or a tuple of such
   (leading axes), broadcast together into idx[0..*n) (int64, new references). */
static int at_indices(Interp *I, Value v, Tensor **idx, int *n, int ndim) {
  Ctx *c = interp_ctx(I);
  const Value *items = &v;
  int count = 1;
  if (v.type == V_TUPLE) {
    items = as_list(v)->items;
    count = (int)as_list(v)->n;
  }
  if (count > ndim) return ERR_INDEX(c, "too many indices for array: array is %d-dimensional, "
                                        "but %d were indexed", ndim, count);
  *n = 0;
  if (count == 0) return ERR_TYPE(c, "ufunc.at in tsr needs at least one index");
  for (int k = 0; k < count; k++) {
    if (items[k].type == V_SLICE || items[k].type == V_ELLIPSIS || items[k].type == V_NONE)
      return ERR_TYPE(c, "ufunc.at in tsr takes integer indices only");
    Tensor *t = value_to_tensor_strong(I, items[k], -1);
    if (!t) return -1;
    idx[(*n)++] = t;
    if (!dtype_is_int(t->dtype)) {
      return ERR_INDEX(c, "arrays used as indices must be of integer (or boolean) type");
    }
  }
  return broadcast_int64(c, idx, *n);
}

/* ufunc.at(a, indices, b): a[indices] = a[indices] op b, unbuffered (a repeated index
   applies once per occurrence), casting the result into a as NumPy 1.24 does (unsafe). */
static int m_at(Interp *I, const Args *a, Value *out) {
  Value s[3];
  int op = method_args(I, a, "at", "a,indices,b=", s);
  if (op < 0) return -1;
  Ctx *c = interp_ctx(I);
  if (s[0].type != V_TENSOR) return IERR_TYPE(I, "first operand must be array");
  if (s[2].type == V_UNDEF) return IERR_VALUE(I, "second operand needed for ufunc");
  Tensor *x = s[0].t, *idx[TSR_MAXDIMS] = {NULL}, *b = NULL, *bb = NULL;
  int n = 0, rc = -1;
  if (tensor_check_writable(c, x) || at_indices(I, s[1], idx, &n, x->ndim) ||
      !(b = value_to_tensor(I, s[2], -1)))
    goto done;
  {
    /* b broadcast to the index shape followed by the trailing axes of x */
    int ni = idx[0]->ndim, nt = x->ndim - n;
    int64_t shape[TSR_MAXDIMS];
    if (ni + nt > TSR_MAXDIMS) { ERR_VALUE(c, "ufunc.at: too many dimensions"); goto done; }
    memcpy(shape, idx[0]->shape, (size_t)ni * sizeof *shape);
    memcpy(shape + ni, x->shape + n, (size_t)nt * sizeof *shape);
    bool fits = b->ndim <= ni + nt;
    for (int d = 0; fits && d < b->ndim; d++) {
      int64_t want = shape[ni + nt - b->ndim + d];
      fits = b->shape[d] == want || b->shape[d] == 1;
    }
    if (!fits) { ERR_VALUE(c, "array is not broadcastable to correct shape"); goto done; }
    if (!(bb = tensor_broadcast_to(c, b, ni + nt, shape))) goto done;
    int64_t total = tensor_size(idx[0]), pos[TSR_MAXDIMS] = {0};
    for (int64_t p = 0; p < total; p++) {
      /* the element (or trailing subarray) of x at index p, and b's matching part */
      int64_t off = x->offset, boff = bb->offset;
      for (int k = 0; k < n; k++) {
        int64_t io = idx[k]->offset;
        for (int d = 0; d < ni; d++) io += pos[d] * idx[k]->strides[d];
        int64_t i = ((const int64_t *)tensor_data(idx[k]))[io - idx[k]->offset];
        if (i < -x->shape[k] || i >= x->shape[k]) {
          ERR_INDEX(c, "index %lld is out of bounds for axis %d with size %lld", (long long)i, k,
                    (long long)x->shape[k]);
          goto done;
        }
        off += (i < 0 ? i + x->shape[k] : i) * x->strides[k];
      }
      for (int d = 0; d < ni; d++) boff += pos[d] * bb->strides[d];
      Tensor *dst = tensor_view(x, nt, x->shape + n, x->strides + n, off);
      Tensor *src = dst ? tensor_view(bb, nt, bb->shape + ni, bb->strides + ni, boff) : NULL;
      Tensor *val = src ? ufunc_binary(c, (BinaryUfunc)op, dst, src, NULL) : NULL;
      int arc = val ? tensor_assign(c, dst, val) : -1;
      tensor_release(val);
      tensor_release(src);
      tensor_release(dst);
      if (arc) goto done;
      for (int d = ni - 1; d >= 0 && ++pos[d] == idx[0]->shape[d]; d--) pos[d] = 0;
    }
  }
  *out = v_none();
  rc = 0;
done:
  for (int k = 0; k < n; k++) tensor_release(idx[k]);
  tensor_release(b);
  tensor_release(bb);
  return rc;
}

static const Builtin ufunc_methods[] = {
  {"ufunc", "reduce", m_reduce, "reduce(array, axis=0, dtype=None, out=None, keepdims=False)"
   "\n\nReduces array's dimension by one, by applying ufunc along one axis."},
  {"ufunc", "accumulate", m_accumulate, "accumulate(array, axis=0, dtype=None, out=None)\n\n"
   "Accumulate the result of applying the operator to all elements."},
  {"ufunc", "outer", m_outer, "outer(A, B, /)\n\nApply the ufunc op to all pairs (a, b) with "
   "a in A and b in B."},
  {"ufunc", "at", m_at, "at(a, indices, b=None, /)\n\nPerforms unbuffered in place operation "
   "on operand 'a' for elements specified by 'indices'."},
};

const Builtin *builtins_ufunc_method(const Builtin *bi, const char *name, bool *is_ufunc) {
  *is_ufunc = builtin_binary_ufunc(bi) >= 0 || builtin_unary_ufunc(bi);
  if (!*is_ufunc) return NULL;
  for (size_t k = 0; k < sizeof ufunc_methods / sizeof *ufunc_methods; k++)
    if (strcmp(ufunc_methods[k].name, name) == 0) return &ufunc_methods[k];
  return NULL;
}
