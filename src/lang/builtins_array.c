/*
** builtins_array.c -- NumPy's array creation and shape functions, the tensor attributes
** (x.shape, x.dtype, x.T ...) and the tensor methods that are not reductions or arithmetic
** (x.reshape, x.astype, x.item, x.tolist ...).
**
** Every function binds its arguments with args_parse under NumPy's own parameter names and
** forwards to the runtime (rt.h); methods prepend the receiver and reuse the functions.
*/
#include "builtins.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------------------------------------
** Helpers shared by the builtins of this file
*/

/* The memory-layout option order= ('C', 'F', 'A', 'K'; None is def). */
static int get_order(Interp *I, Value v, char def, char *out) {
  *out = def;
  if (!given(v)) return 0;
  if (v.type != V_STR) return IERR_TYPE(I, "order must be str, not %s", value_type_name(v));
  const char *s = as_str(v)->s;
  if (as_str(v)->len == 1 && strchr("CFAKcfak", s[0])) {
    *out = (char)(s[0] & ~0x20);
    return 0;
  }
  return IERR_VALUE(I, "order must be one of 'C', 'F', 'A', or 'K' (got '%s')", s);
}

/* The element at p (of dtype dt) as a Python scalar (ndarray.item). */
static int element_value(Interp *I, DType dt, const char *p, Value *out) {
  if (dt == TSR_BOOL) {
    *out = v_bool(dtype_get_i64(dt, p) != 0);
  } else if (dtype_is_float(dt)) {
    *out = v_float(dtype_get_f64(dt, p));
  } else if (dt == TSR_UINT64 && dtype_get_u64(dt, p) > (uint64_t)INT64_MAX) {
    return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C long");
  } else {
    *out = v_int(dtype_get_i64(dt, p));
  }
  return 0;
}

/* A view of t with size-1 dimensions inserted at the given positions of the result
   (numpy.expand_dims; also ndmin=).  AxisError / ValueError "repeated axis".  New reference. */
Tensor *insert_unit_axes(Interp *I, Tensor *t, const int *axes, int naxes) {
  Ctx *c = interp_ctx(I);
  int nd = t->ndim + naxes;
  if (nd > TSR_MAXDIMS) {
    ERR_VALUE(c, "maximum supported dimension for an ndarray is %d, found %d", TSR_MAXDIMS, nd);
    return NULL;
  }
  bool unit[TSR_MAXDIMS] = {false};
  for (int k = 0; k < naxes; k++) {
    int ax;
    if (axis_normalize(c, axes[k], nd, &ax)) return NULL;
    if (unit[ax]) { ERR_VALUE(c, "repeated axis"); return NULL; }
    unit[ax] = true;
  }
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  for (int i = 0, j = 0; i < nd; i++) {
    if (unit[i]) { shape[i] = 1; strides[i] = 0; }
    else { shape[i] = t->shape[j]; strides[i] = t->strides[j]; j++; }
  }
  return tensor_view(t, nd, shape, strides, t->offset);
}

/* --------------------------------------------------------------------------------------------
** Creation
*/

/* array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0). */
static int bi_array(Interp *I, const Args *a, Value *out) {
  Value s[7];
  if (args_parse(I, a, "array", "object,dtype=,*,copy=,order=,subok=,ndmin=,like=", s))
    return -1;
  int dt = -1;
  bool copy;
  int64_t ndmin = 0;
  if (value_to_dtype(I, s[1], &dt) || get_bool(I, s[2], true, &copy)) return -1;
  if (given(s[5]) && value_to_int(I, s[5], &ndmin)) return -1;
  if (ndmin > TSR_MAXDIMS)
    return IERR_VALUE(I, "ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=32)");
  Tensor *t = value_to_tensor_strong(I, s[0], dt);
  if (!t) return -1;
  if (copy && s[0].type == V_TENSOR && t == s[0].t) {
    Tensor *c = tensor_copy(interp_ctx(I), t);
    tensor_release(t);
    if (!(t = c)) return -1;
  }
  if (ndmin > t->ndim) {
    int axes[TSR_MAXDIMS];
    int n = (int)ndmin - t->ndim;
    for (int k = 0; k < n; k++) axes[k] = k;
    Tensor *v = insert_unit_axes(I, t, axes, n);
    tensor_release(t);
    t = v;
  }
  return ret_tensor(t, out);
}

/* asarray(a, dtype=None, order=None): no copy when a already is a tensor of that dtype. */
static int bi_asarray(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "asarray", "a,dtype=,order=,*,like=", s)) return -1;
  int dt = -1;
  if (value_to_dtype(I, s[1], &dt)) return -1;
  return ret_tensor(value_to_tensor_strong(I, s[0], dt), out);
}

/* ascontiguousarray(a, dtype=None): a C-contiguous array of at least one dimension (NumPy 1.24
   gives a 0-d input the shape (1,)). */
static int bi_ascontiguousarray(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "ascontiguousarray", "a,dtype=,*,like=", s)) return -1;
  int dt = -1;
  if (value_to_dtype(I, s[1], &dt)) return -1;
  Tensor *t = value_to_tensor_strong(I, s[0], dt);
  if (!t) return -1;
  Tensor *r = tensor_contiguous(interp_ctx(I), t, t->dtype);
  tensor_release(t);
  if (r && r->ndim == 0) {
    int64_t one = 1;
    Tensor *v = tensor_reshape(interp_ctx(I), r, 1, &one);
    tensor_release(r);
    r = v;
  }
  return ret_tensor(r, out);
}

/* zeros / ones / empty (shape, dtype=float, order='C'); empty gives zeros (deterministic). */
static int filled(Interp *I, const Args *a, const char *name, double fill, Value *out) {
  Value s[4];
  if (args_parse(I, a, name, "shape,dtype=,order=,*,like=", s)) return -1;
  int nd, dt = TSR_FLOAT64;
  int64_t shape[TSR_MAXDIMS];
  char order;
  if (value_to_shape(I, s[0], &nd, shape, false) || value_to_dtype(I, s[1], &dt) ||
      get_order(I, s[2], 'C', &order))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = fill == 0.0 ? tensor_zeros(c, (DType)dt, nd, shape)
                          : tensor_full_f64(c, (DType)dt, nd, shape, fill);
  return ret_tensor(t, out);
}
static int bi_zeros(Interp *I, const Args *a, Value *out) { return filled(I, a, "zeros", 0, out); }
static int bi_ones(Interp *I, const Args *a, Value *out) { return filled(I, a, "ones", 1, out); }
static int bi_empty(Interp *I, const Args *a, Value *out) { return filled(I, a, "empty", 0, out); }

/* full(shape, fill_value, dtype=None, order='C'): dtype defaults to that of array(fill_value);
   fill_value may be an array broadcast to shape. */
static int bi_full(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "full", "shape,fill_value,dtype=,order=,*,like=", s)) return -1;
  int nd, dt = -1;
  int64_t shape[TSR_MAXDIMS];
  char order;
  if (value_to_shape(I, s[0], &nd, shape, false) || value_to_dtype(I, s[2], &dt) ||
      get_order(I, s[3], 'C', &order))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *fill = arg_tensor(I, s[1]), *t = NULL;
  if (!fill) return -1;
  t = tensor_empty(c, dt >= 0 ? (DType)dt : fill->dtype, nd, shape);
  if (!t || tensor_assign(c, t, fill)) goto fail;
  tensor_release(fill);
  return ret_tensor(t, out);
fail:
  tensor_release(fill);
  tensor_release(t);
  return -1;
}

/* zeros_like / ones_like / empty_like / full_like (a, [fill_value,] dtype=None, order='K',
   subok=True, shape=None): a new tensor with a's shape and dtype unless overridden; the fill
   value is cast to that dtype (casting='unsafe'). */
static int filled_like(Interp *I, const Args *a, const char *name, int fill_kind, Value *out) {
  Value s[6];
  const char *spec = fill_kind == 2 ? "a,fill_value,dtype=,order=,subok=,shape="
                                    : "a,dtype=,order=,subok=,shape=";
  if (args_parse(I, a, name, spec, s)) return -1;
  const Value *opt = fill_kind == 2 ? s + 2 : s + 1;   /* dtype, order, subok, shape */
  Ctx *c = interp_ctx(I);
  Tensor *proto = arg_tensor(I, s[0]), *t = NULL, *fill = NULL;
  if (!proto) return -1;
  int dt = proto->dtype, nd = proto->ndim;
  int64_t shape[TSR_MAXDIMS];
  char order;
  memcpy(shape, proto->shape, sizeof shape);
  if (value_to_dtype(I, opt[0], &dt) || get_order(I, opt[1], 'K', &order)) goto fail;
  if (given(opt[3]) && value_to_shape(I, opt[3], &nd, shape, false)) goto fail;
  if (fill_kind == 2) {
    if (!(fill = arg_tensor(I, s[1]))) goto fail;
    if (!(t = tensor_empty(c, (DType)dt, nd, shape)) || tensor_assign(c, t, fill)) goto fail;
    tensor_release(fill);
  } else if (fill_kind == 1) {
    if (!(t = tensor_full_f64(c, (DType)dt, nd, shape, 1.0))) goto fail;
  } else {
    if (!(t = tensor_zeros(c, (DType)dt, nd, shape))) goto fail;
  }
  tensor_release(proto);
  return ret_tensor(t, out);
fail:
  tensor_release(proto);
  tensor_release(fill);
  tensor_release(t);
  return -1;
}
static int bi_zeros_like(Interp *I, const Args *a, Value *out) {
  return filled_like(I, a, "zeros_like", 0, out);
}
static int bi_ones_like(Interp *I, const Args *a, Value *out) {
  return filled_like(I, a, "ones_like", 1, out);
}
static int bi_empty_like(Interp *I, const Args *a, Value *out) {
  return filled_like(I, a, "empty_like", 0, out);
}
static int bi_full_like(Interp *I, const Args *a, Value *out) {
  return filled_like(I, a, "full_like", 2, out);
}

/* Reads a numeric argument of arange/linspace; *is_float says whether it is of float kind. */
static int number_arg(Interp *I, Value v, double *d, int64_t *i, bool *is_float) {
  if (v.type == V_FLOAT || (v.type == V_TENSOR && dtype_is_float(v.t->dtype))) {
    *is_float = true;
    *i = 0;
    return value_to_double(I, v, d);
  }
  if (v.type != V_INT && v.type != V_BOOL && v.type != V_TENSOR)
    return IERR_TYPE(I, "unsupported operand type(s) for -: '%s' and 'int'",
                     value_type_name(v));
  *is_float = false;
  if (value_to_int(I, v, i)) return -1;
  *d = (double)*i;
  return 0;
}

/* arange([start,] stop[, step,], dtype=None): int64 for integer arguments, else float64. */
static int bi_arange(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "arange", "start,stop=,step=,dtype=,*,like=", s)) return -1;
  Value vstart = s[0], vstop = s[1], vstep = s[2];
  if (!given(vstop)) { vstop = vstart; vstart = v_int(0); }
  if (!given(vstep)) vstep = v_int(1);
  if (vstop.type == V_NONE) return IERR_TYPE(I, "unsupported operand type(s) for -: "
                                                "'NoneType' and 'int'");
  double d[3];
  int64_t n[3];
  bool fl[3];
  if (number_arg(I, vstart, &d[0], &n[0], &fl[0]) || number_arg(I, vstop, &d[1], &n[1], &fl[1]) ||
      number_arg(I, vstep, &d[2], &n[2], &fl[2]))
    return -1;
  bool any_float = fl[0] || fl[1] || fl[2];
  int dt = any_float ? TSR_FLOAT64 : TSR_INT64;
  if (value_to_dtype(I, s[3], &dt)) return -1;
  if (d[2] == 0.0)
    return ERR_ZERODIV(interp_ctx(I), any_float ? "float division by zero" : "division by zero");
  Ctx *c = interp_ctx(I);
  if (!any_float && !dtype_is_float((DType)dt))
    return ret_tensor(create_arange_i64(c, n[0], n[1], n[2], (DType)dt), out);
  return ret_tensor(create_arange(c, d[0], d[1], d[2], (DType)dt), out);
}

/* linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0): computed
   in float64 as NumPy does, floored for integer dtypes, then cast. */
static int bi_linspace(Interp *I, const Args *a, Value *out) {
  Value s[7];
  if (args_parse(I, a, "linspace", "start,stop,num=,endpoint=,retstep=,dtype=,axis=", s))
    return -1;
  double start, stop;
  int64_t num = 50, axis = 0;
  bool endpoint, retstep;
  int dt = TSR_FLOAT64;
  if (value_to_double(I, s[0], &start) || value_to_double(I, s[1], &stop)) return -1;
  if (given(s[2]) && value_to_int(I, s[2], &num)) return -1;
  if (get_bool(I, s[3], true, &endpoint) || get_bool(I, s[4], false, &retstep) ||
      value_to_dtype(I, s[5], &dt))
    return -1;
  if (given(s[6]) && value_to_int(I, s[6], &axis)) return -1;
  if (axis != 0 && axis != -1)
    return ERR_AXIS(interp_ctx(I), "axis %lld is out of bounds for array of dimension 1",
                    (long long)axis);
  if (num < 0)
    return IERR_VALUE(I, "Number of samples, %lld, must be non-negative.", (long long)num);
  Ctx *c = interp_ctx(I);
  Tensor *y = create_linspace(c, start, stop, num, endpoint, TSR_FLOAT64), *r = NULL;
  if (!y) return -1;
  if (dtype_is_int((DType)dt)) {
    Tensor *floored = ufunc_unary(c, UF_FLOOR, y, y);
    if (!floored) goto fail;
    tensor_release(floored);   /* y itself, floored in place */
  }
  if (!(r = tensor_contiguous(c, y, (DType)dt))) goto fail;
  tensor_release(y);
  y = NULL;
  if (!retstep) return ret_tensor(r, out);
  int64_t div = endpoint ? num - 1 : num;
  Tensor *step = tensor_scalar_f64(c, TSR_FLOAT64, div > 0 ? (stop - start) / (double)div : NAN);
  Value tup = value_tuple(I, 2);
  if (!step || tup.type == V_UNDEF) {
    tensor_release(step);
    if (tup.type != V_UNDEF) value_decref(tup);
    goto fail;
  }
  as_list(tup)->items[0] = v_tensor(r);
  as_list(tup)->items[1] = v_tensor(step);
  *out = tup;
  return 0;
fail:
  tensor_release(y);
  tensor_release(r);
  return -1;
}

/* eye(N, M=None, k=0, dtype=float, order='C'). */
static int bi_eye(Interp *I, const Args *a, Value *out) {
  Value s[6];
  if (args_parse(I, a, "eye", "N,M=,k=,dtype=,order=,*,like=", s)) return -1;
  int64_t n, m, k = 0;
  int dt = TSR_FLOAT64;
  if (value_to_int(I, s[0], &n)) return -1;
  m = n;
  if ((given(s[1]) && value_to_int(I, s[1], &m)) || (given(s[2]) && value_to_int(I, s[2], &k)) ||
      value_to_dtype(I, s[3], &dt))
    return -1;
  if (n < 0 || m < 0) return IERR_VALUE(I, "negative dimensions are not allowed");
  return ret_tensor(create_eye(interp_ctx(I), n, m, k, (DType)dt), out);
}

/* identity(n, dtype=None): the n x n identity matrix, float64 by default. */
static int bi_identity(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "identity", "n,dtype=,*,like=", s)) return -1;
  int64_t n;
  int dt = TSR_FLOAT64;
  if (value_to_int(I, s[0], &n) || value_to_dtype(I, s[1], &dt)) return -1;
  if (n < 0) return IERR_VALUE(I, "negative dimensions are not allowed");
  return ret_tensor(create_eye(interp_ctx(I), n, n, 0, (DType)dt), out);
}

/* copy(a, order='K'): a C-contiguous copy. */
static int bi_copy(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "copy", "a,order=,subok=", s)) return -1;
  char order;
  if (get_order(I, s[1], 'K', &order)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = tensor_copy(interp_ctx(I), t);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** Shape manipulation
*/

/* Reshape in the given order ('C'; 'F' reads and writes the elements in Fortran order). */
static Tensor *reshape_order(Ctx *c, Tensor *t, int nd, const int64_t *shape, char order) {
  if (order != 'F') return tensor_reshape(c, t, nd, shape);
  int64_t rshape[TSR_MAXDIMS];
  for (int i = 0; i < nd; i++) rshape[i] = shape[nd - 1 - i];
  Tensor *tt = tensor_transpose(c, t, NULL), *r = NULL, *rt = NULL;
  if (!tt) return NULL;
  r = tensor_reshape(c, tt, nd, rshape);
  tensor_release(tt);
  if (!r) return NULL;
  rt = tensor_transpose(c, r, NULL);
  tensor_release(r);
  return rt;
}

/* reshape(a, newshape, order='C'). */
static int bi_reshape(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "reshape", "a,newshape,order=", s)) return -1;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  char order;
  if (value_to_shape(I, s[1], &nd, shape, true) || get_order(I, s[2], 'C', &order)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = reshape_order(interp_ctx(I), t, nd, shape, order);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* x.reshape(shape) / x.reshape(*shape), order= keyword only. */
static int m_reshape(Interp *I, const Args *a, Value *out) {
  Value order_v = v_undef();
  for (int k = 0; k < a->nkw; k++) {
    if (strcmp(a->kwnames[k], "order") != 0)
      return IERR_TYPE(I, "'%s' is an invalid keyword argument for reshape()", a->kwnames[k]);
    order_v = a->kw[k];
  }
  if (a->npos == 0) return IERR_TYPE(I, "reshape() takes exactly 1 argument (0 given)");
  int nd;
  int64_t shape[TSR_MAXDIMS];
  char order;
  if (get_order(I, order_v, 'C', &order)) return -1;
  if (a->npos == 1) {
    if (value_to_shape(I, a->pos[0], &nd, shape, true)) return -1;
  } else {
    Value tup = value_tuple(I, a->npos);
    if (tup.type == V_UNDEF) return -1;
    for (int i = 0; i < a->npos; i++) as_list(tup)->items[i] = value_retain(a->pos[i]);
    int rc = value_to_shape(I, tup, &nd, shape, true);
    value_decref(tup);
    if (rc) return -1;
  }
  return ret_tensor(reshape_order(interp_ctx(I), a->self.t, nd, shape, order), out);
}

/* ravel(a, order='C'): a 1-d view when possible, else a copy. */
static int bi_ravel(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "ravel", "a,order=", s)) return -1;
  char order;
  if (get_order(I, s[1], 'C', &order)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = tensor_ravel_order(interp_ctx(I), t, order);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* x.flatten(order='C'): always a copy. */
static int m_flatten(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "flatten", "order=", s)) return -1;
  char order;
  if (get_order(I, s[0], 'C', &order)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = a->self.t, *r = tensor_ravel_order(c, t, order);
  if (r && r->storage == t->storage) {
    Tensor *copy = tensor_copy(c, r);
    tensor_release(r);
    r = copy;
  }
  return ret_tensor(r, out);
}

/* Transposes t by an axes value (None, an int, or a tuple/list of ints); the count must
   equal t's ndim ("axes don't match array"). */
static Tensor *transpose_by(Interp *I, Tensor *t, Value axes_v) {
  int axes[TSR_MAXDIMS], naxes;
  if (value_to_axes(I, axes_v, axes, &naxes)) return NULL;
  if (naxes < 0) return tensor_transpose(interp_ctx(I), t, NULL);
  if (naxes != t->ndim) {
    IERR_VALUE(I, "axes don't match array");
    return NULL;
  }
  return tensor_transpose(interp_ctx(I), t, axes);
}

/* transpose(a, axes=None). */
static int bi_transpose(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "transpose", "a,axes=", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = transpose_by(I, t, s[1]);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* x.transpose(*axes): no argument or None reverses; one tuple, or the axes as arguments. */
static int m_transpose(Interp *I, const Args *a, Value *out) {
  if (a->nkw > 0) return IERR_TYPE(I, "transpose() takes no keyword arguments");
  Tensor *t = a->self.t;
  if (a->npos == 0) return ret_tensor(tensor_transpose(interp_ctx(I), t, NULL), out);
  if (a->npos == 1) return ret_tensor(transpose_by(I, t, a->pos[0]), out);
  Value tup = value_tuple(I, a->npos);
  if (tup.type == V_UNDEF) return -1;
  for (int i = 0; i < a->npos; i++) as_list(tup)->items[i] = value_retain(a->pos[i]);
  Tensor *r = transpose_by(I, t, tup);
  value_decref(tup);
  return ret_tensor(r, out);
}

/* Normalises one axis argument for the functions whose AxisError names the parameter
   ("axis2: axis 4 is out of bounds for array of dimension 2"). */
static int named_axis(Interp *I, const char *param, Value v, int ndim, int *out) {
  int64_t ax;
  if (value_to_int(I, v, &ax)) return -1;
  if (ax < -(int64_t)ndim || ax >= ndim)
    return ERR_AXIS(interp_ctx(I), "%s: axis %lld is out of bounds for array of dimension %d",
                    param, (long long)ax, ndim);
  *out = (int)(ax < 0 ? ax + ndim : ax);
  return 0;
}

/* swapaxes(a, axis1, axis2). */
static int bi_swapaxes(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "swapaxes", "a,axis1,axis2", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  int a1, a2;
  if (named_axis(I, "axis1", s[1], t->ndim, &a1) == 0 &&
      named_axis(I, "axis2", s[2], t->ndim, &a2) == 0)
    r = tensor_swapaxes(interp_ctx(I), t, a1, a2);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* Reads moveaxis' source or destination (an int or a sequence of ints), normalised, with
   duplicates rejected. */
static int move_axes(Interp *I, const char *param, Value v, int ndim, int *axes, int *n) {
  if (v.type == V_LIST || v.type == V_TUPLE) {
    const List *l = as_list(v);
    if (l->n > TSR_MAXDIMS) return IERR_VALUE(I, "repeated axis in `%s` argument", param);
    for (int64_t i = 0; i < l->n; i++)
      if (named_axis(I, param, l->items[i], ndim, &axes[i])) return -1;
    *n = (int)l->n;
  } else {
    if (named_axis(I, param, v, ndim, &axes[0])) return -1;
    *n = 1;
  }
  for (int i = 0; i < *n; i++)
    for (int j = 0; j < i; j++)
      if (axes[i] == axes[j]) return IERR_VALUE(I, "repeated axis in `%s` argument", param);
  return 0;
}

/* moveaxis(a, source, destination). */
static int bi_moveaxis(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "moveaxis", "a,source,destination", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  int src[TSR_MAXDIMS], dst[TSR_MAXDIMS], nsrc, ndst, order[TSR_MAXDIMS];
  if (move_axes(I, "source", s[1], t->ndim, src, &nsrc) ||
      move_axes(I, "destination", s[2], t->ndim, dst, &ndst))
    goto done;
  if (nsrc != ndst) {
    IERR_VALUE(I, "`source` and `destination` arguments must have the same number of "
                  "elements");
    goto done;
  }
  bool moved[TSR_MAXDIMS] = {false}, placed[TSR_MAXDIMS] = {false};
  for (int k = 0; k < nsrc; k++) { moved[src[k]] = true; placed[dst[k]] = true; order[dst[k]] = src[k]; }
  for (int i = 0, j = 0; i < t->ndim; i++) {
    if (placed[i]) continue;
    while (moved[j]) j++;
    order[i] = j++;
  }
  r = tensor_transpose(interp_ctx(I), t, order);
done:
  tensor_release(t);
  return ret_tensor(r, out);
}

/* expand_dims(a, axis): axis an int or a tuple of positions in the result. */
static int bi_expand_dims(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "expand_dims", "a,axis", s)) return -1;
  int axes[TSR_MAXDIMS], naxes;
  if (value_to_axes(I, s[1], axes, &naxes)) return -1;
  if (naxes < 0) return IERR_TYPE(I, "'NoneType' object cannot be interpreted as an integer");
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = insert_unit_axes(I, t, axes, naxes);
  tensor_release(t);
  return ret_tensor(r, out);
}

/* squeeze(a, axis=None): removes the size-1 axes (all of them, or those listed). */
static int bi_squeeze(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "squeeze", "a,axis=", s)) return -1;
  int axes[TSR_MAXDIMS], naxes;
  if (value_to_axes(I, s[1], axes, &naxes)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  Ctx *c = interp_ctx(I);
  for (int k = 0; k < naxes; k++)
    if (axis_normalize(c, axes[k], t->ndim, &axes[k])) goto done;
  r = tensor_squeeze(c, t, naxes < 0 ? NULL : axes, naxes < 0 ? 0 : naxes);
done:
  tensor_release(t);
  return ret_tensor(r, out);
}

/* broadcast_to(array, shape, subok=False): a read-only view with zero strides. */
static int bi_broadcast_to(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "broadcast_to", "array,shape,subok=", s)) return -1;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (value_to_shape(I, s[1], &nd, shape, false)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = tensor_broadcast_to(interp_ctx(I), t, nd, shape);
  tensor_release(t);
  if (r) r->readonly = 1;
  return ret_tensor(r, out);
}

/* flip(m, axis=None): reverses the order of elements along the given axes (all if None). */
static int bi_flip(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "flip", "m,axis=", s)) return -1;
  int axes[TSR_MAXDIMS], naxes;
  if (value_to_axes(I, s[1], axes, &naxes)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  if (naxes < 0) {
    Tensor *r = tensor_flip(c, t, INT32_MIN);
    tensor_release(t);
    return ret_tensor(r, out);
  }
  for (int k = 0; k < naxes; k++) {
    int ax;
    Tensor *r = NULL;
    if (axis_normalize(c, axes[k], t->ndim, &ax) == 0) r = tensor_flip(c, t, ax);
    tensor_release(t);
    if (!(t = r)) return -1;
  }
  return ret_tensor(t, out);
}

/* --------------------------------------------------------------------------------------------
** Joining
*/

/* The operands of a joining function: a list or tuple of array-likes as strong tensors
   (owned by *ts, an array of *n allocated with ctx_malloc; release with free_tensors). */
int sequence_tensors(Interp *I, Value seq, const char *what, Tensor ***ts, int64_t *n) {
  *ts = NULL;
  *n = 0;
  if (seq.type != V_LIST && seq.type != V_TUPLE)
    return IERR_TYPE(I, "%s() argument must be a list or tuple of arrays, not %s", what,
                     value_type_name(seq));
  const List *l = as_list(seq);
  if (l->n == 0) return IERR_VALUE(I, "need at least one array to %s", what);
  Tensor **arr = ctx_malloc(interp_ctx(I), sizeof(Tensor *) * (size_t)l->n);
  if (!arr) return -1;
  for (int64_t i = 0; i < l->n; i++) {
    if (!(arr[i] = arg_tensor(I, l->items[i]))) {
      while (i-- > 0) tensor_release(arr[i]);
      ctx_free(interp_ctx(I), arr, sizeof(Tensor *) * (size_t)l->n);
      return -1;
    }
  }
  *ts = arr;
  *n = l->n;
  return 0;
}

void free_tensors(Interp *I, Tensor **ts, int64_t n) {
  if (!ts) return;
  for (int64_t i = 0; i < n; i++) tensor_release(ts[i]);
  ctx_free(interp_ctx(I), ts, sizeof(Tensor *) * (size_t)n);
}

/* Joins n tensors along axis (normalised against their common ndim) into a new tensor of
   dtype dt (-1: the promotion of their dtypes), as numpy.concatenate.  New reference. */
Tensor *concat_tensors(Interp *I, Tensor *const *ts, int64_t n, int axis, int dt) {
  Ctx *c = interp_ctx(I);
  int nd = ts[0]->ndim;
  if (nd == 0) {
    ERR_VALUE(c, "zero-dimensional arrays cannot be concatenated");
    return NULL;
  }
  if (axis_normalize(c, axis, nd, &axis)) return NULL;
  int64_t shape[TSR_MAXDIMS];
  memcpy(shape, ts[0]->shape, sizeof(int64_t) * (size_t)nd);
  shape[axis] = 0;
  DType rdt = ts[0]->dtype;
  for (int64_t k = 0; k < n; k++) {
    const Tensor *t = ts[k];
    if (t->ndim != nd) {
      ERR_VALUE(c, "all the input arrays must have same number of dimensions, but the array "
                   "at index 0 has %d dimension(s) and the array at index %lld has %d "
                   "dimension(s)", nd, (long long)k, t->ndim);
      return NULL;
    }
    for (int i = 0; i < nd; i++) {
      if (i != axis && t->shape[i] != ts[0]->shape[i]) {
        ERR_VALUE(c, "all the input array dimensions except for the concatenation axis must "
                     "match exactly, but along dimension %d, the array at index 0 has size "
                     "%lld and the array at index %lld has size %lld", i,
                  (long long)ts[0]->shape[i], (long long)k, (long long)t->shape[i]);
        return NULL;
      }
    }
    if (size_add(shape[axis], t->shape[axis], &shape[axis])) {
      err_too_big(c);
      return NULL;
    }
    if (k > 0) rdt = dtype_promote(rdt, t->dtype);
  }
  Tensor *r = tensor_empty(c, dt >= 0 ? (DType)dt : rdt, nd, shape);
  if (!r) return NULL;
  int64_t start = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t part[TSR_MAXDIMS];
    memcpy(part, shape, sizeof(int64_t) * (size_t)nd);
    part[axis] = ts[k]->shape[axis];
    Tensor *dst = tensor_view(r, nd, part, r->strides, r->offset + start * r->strides[axis]);
    int rc = dst ? tensor_assign(c, dst, ts[k]) : -1;
    tensor_release(dst);
    if (rc) { tensor_release(r); return NULL; }
    start += part[axis];
  }
  return r;
}

/* concatenate((a1, a2, ...), axis=0, out=None, dtype=None); axis=None joins the raveled
   arrays. */
static int bi_concatenate(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "concatenate", "arrays,axis=,out=,dtype=", s)) return -1;
  int64_t axis = 0;
  int dt = -1;
  if ((given(s[1]) && value_to_int(I, s[1], &axis)) || value_to_dtype(I, s[3], &dt)) return -1;
  if (given(s[2])) return IERR_VALUE(I, "concatenate: out= is not supported by tsr");
  Tensor **ts;
  int64_t n;
  if (sequence_tensors(I, s[0], "concatenate", &ts, &n)) return -1;
  Tensor *r = NULL;
  if (s[1].type == V_NONE) {
    for (int64_t k = 0; k < n; k++) {
      Tensor *flat = tensor_ravel(interp_ctx(I), ts[k]);
      if (!flat) goto done;
      tensor_release(ts[k]);
      ts[k] = flat;
    }
  }
  r = concat_tensors(I, ts, n, (int)(axis < INT32_MIN + 1 || axis > INT32_MAX ? INT32_MAX : axis),
                     dt);
done:
  free_tensors(I, ts, n);
  return ret_tensor(r, out);
}

/* The view of t with at least `want` dimensions, as numpy.atleast_1d/2d/3d shape them:
   0-d -> (1,), (1, 1), (1, 1, 1); 1-d (N,) -> (1, N) or (1, N, 1); 2-d (M, N) -> (M, N, 1). */
Tensor *at_least(Interp *I, Tensor *t, int want) {
  int axes[3], n = 0;
  if (t->ndim >= want) return tensor_retain(t);
  if (t->ndim == 0) {
    for (n = 0; n < want; n++) axes[n] = n;
  } else if (want == 2) {
    axes[n++] = 0;
  } else if (t->ndim == 1) {
    axes[n++] = 0;
    axes[n++] = 2;
  } else {
    axes[n++] = 2;
  }
  return insert_unit_axes(I, t, axes, n);
}

/* atleast_1d/2d/3d(*arys): one tensor for one argument, else a list. */
static int at_least_common(Interp *I, const Args *a, const char *name, int want, Value *out) {
  if (a->nkw > 0)
    return IERR_TYPE(I, "%s() got an unexpected keyword argument '%s'", name, a->kwnames[0]);
  Value list = v_undef();
  if (a->npos != 1 && (list = value_list(I, a->npos)).type == V_UNDEF) return -1;
  for (int i = 0; i < a->npos; i++) {
    Tensor *t = arg_tensor(I, a->pos[i]), *r = NULL;
    if (t) r = at_least(I, t, want);
    tensor_release(t);
    if (!r) {
      if (list.type != V_UNDEF) value_decref(list);
      return -1;
    }
    if (a->npos == 1) return ret_tensor(r, out);
    as_list(list)->items[i] = v_tensor(r);
  }
  *out = list;
  return 0;
}
static int bi_atleast_1d(Interp *I, const Args *a, Value *out) {
  return at_least_common(I, a, "atleast_1d", 1, out);
}
static int bi_atleast_2d(Interp *I, const Args *a, Value *out) {
  return at_least_common(I, a, "atleast_2d", 2, out);
}
static int bi_atleast_3d(Interp *I, const Args *a, Value *out) {
  return at_least_common(I, a, "atleast_3d", 3, out);
}

/* stack / vstack / hstack: kind 0 = stack along a new axis, 1 = vstack, 2 = hstack. */
static int stack_common(Interp *I, Value seq, int64_t axis, int dt, int kind, Value *out) {
  Tensor **ts;
  int64_t n;
  if (sequence_tensors(I, seq, kind == 0 ? "stack" : "concatenate", &ts, &n)) return -1;
  Tensor *r = NULL;
  for (int64_t k = 1; kind == 0 && k < n; k++) {
    if (ts[k]->ndim != ts[0]->ndim ||
        memcmp(ts[k]->shape, ts[0]->shape, sizeof(int64_t) * (size_t)ts[0]->ndim) != 0) {
      IERR_VALUE(I, "all input arrays must have the same shape");
      goto done;
    }
  }
  for (int64_t k = 0; k < n; k++) {
    Tensor *v;
    if (kind == 0) {
      int ax = (int)(axis < INT32_MIN + 1 || axis > INT32_MAX ? INT32_MAX : axis);
      v = insert_unit_axes(I, ts[k], &ax, 1);
    } else {
      v = at_least(I, ts[k], kind == 1 ? 2 : 1);
    }
    if (!v) goto done;
    tensor_release(ts[k]);
    ts[k] = v;
  }
  if (kind == 0) axis = axis < 0 ? axis + ts[0]->ndim : axis;
  else if (kind == 1) axis = 0;
  else axis = ts[0]->ndim == 1 ? 0 : 1;
  r = concat_tensors(I, ts, n, (int)axis, dt);
done:
  free_tensors(I, ts, n);
  return ret_tensor(r, out);
}

/* stack(arrays, axis=0, out=None, *, dtype=None): joins equal-shaped arrays along a new
   axis. */
static int bi_stack(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "stack", "arrays,axis=,out=,*,dtype=", s)) return -1;
  int64_t axis = 0;
  int dt = -1;
  if ((given(s[1]) && value_to_int(I, s[1], &axis)) || value_to_dtype(I, s[3], &dt)) return -1;
  if (given(s[2])) return IERR_VALUE(I, "stack: out= is not supported by tsr");
  return stack_common(I, s[0], axis, dt, 0, out);
}

/* vstack(tup, *, dtype=None): rows (1-d arrays become (1, N)). */
static int bi_vstack(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "vstack", "tup,*,dtype=", s)) return -1;
  int dt = -1;
  if (value_to_dtype(I, s[1], &dt)) return -1;
  return stack_common(I, s[0], 0, dt, 1, out);
}

/* hstack(tup, *, dtype=None): columns (1-d arrays are joined end to end). */
static int bi_hstack(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "hstack", "tup,*,dtype=", s)) return -1;
  int dt = -1;
  if (value_to_dtype(I, s[1], &dt)) return -1;
  return stack_common(I, s[0], 0, dt, 2, out);
}

/* --------------------------------------------------------------------------------------------
** Tensor methods
*/

static int m_ravel(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_ravel, out);
}
static int m_swapaxes(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_swapaxes, out);
}
static int m_squeeze(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_squeeze, out);
}

/* x.copy(order='C'). */
static int m_copy(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "copy", "order=", s)) return -1;
  char order;
  if (get_order(I, s[0], 'C', &order)) return -1;
  return ret_tensor(tensor_copy(interp_ctx(I), a->self.t), out);
}

/* x.astype(dtype, order='K', casting='unsafe', subok=True, copy=True). */
static int m_astype(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "astype", "dtype,order=,casting=,subok=,copy=", s)) return -1;
  int dt = -1;
  bool copy;
  char order;
  if (value_to_dtype(I, s[0], &dt) || get_order(I, s[1], 'K', &order) ||
      get_bool(I, s[4], true, &copy))
    return -1;
  Tensor *t = a->self.t;
  if (dt < 0) dt = TSR_FLOAT64;    /* astype(None) is float64, as numpy.dtype(None) */
  if (!copy && (DType)dt == t->dtype) {
    *out = v_tensor(tensor_retain(t));
    return 0;
  }
  return ret_tensor(tensor_astype(interp_ctx(I), t, (DType)dt), out);
}

/* x.item(*args): the element as a Python scalar; no argument needs size 1, one int is a flat
   (C-order) index, several ints a full index. */
static int m_item(Interp *I, const Args *a, Value *out) {
  if (a->nkw > 0) return IERR_TYPE(I, "item() takes no keyword arguments");
  Tensor *t = a->self.t;
  int64_t index[TSR_MAXDIMS] = {0};
  int64_t size = tensor_size(t);
  if (a->npos == 0) {
    if (size != 1)
      return IERR_VALUE(I, "can only convert an array of size 1 to a Python scalar");
  } else if (a->npos == 1) {
    int64_t flat;
    if (value_to_int(I, a->pos[0], &flat)) return -1;
    if (flat < -size || flat >= size)
      return ERR_INDEX(interp_ctx(I), "index %lld is out of bounds for axis 0 with size %lld",
                       (long long)flat, (long long)size);
    if (flat < 0) flat += size;
    for (int i = t->ndim - 1; i >= 0; i--) {
      index[i] = flat % t->shape[i];
      flat /= t->shape[i];
    }
  } else {
    if (a->npos != t->ndim) return IERR_VALUE(I, "incorrect number of indices for array");
    for (int i = 0; i < t->ndim; i++) {
      if (value_to_int(I, a->pos[i], &index[i])) return -1;
      if (index[i] < -t->shape[i] || index[i] >= t->shape[i])
        return ERR_INDEX(interp_ctx(I), "index %lld is out of bounds for axis %d with size %lld",
                         (long long)index[i], i, (long long)t->shape[i]);
      if (index[i] < 0) index[i] += t->shape[i];
    }
  }
  return element_value(I, t->dtype, tensor_at(t, index), out);
}

/* Nested lists of Python scalars for the dimensions from dim on, elements starting at p. */
static int tolist_rec(Interp *I, const Tensor *t, int dim, const char *p, Value *out) {
  if (dim == t->ndim) return element_value(I, t->dtype, p, out);
  Value list = value_list(I, t->shape[dim]);
  if (list.type == V_UNDEF) return -1;
  int64_t step = t->strides[dim] * (int64_t)dtype_size(t->dtype), n = t->shape[dim];
  for (int64_t i = 0; i < n; i++) {
    if (((i & 4095) == 0 &&   /* an object made per item, charged per 4096 */
         ctx_work(interp_ctx(I), (uint64_t)(n - i < 4096 ? n - i : 4096), WORK_OBJECT)) ||
        tolist_rec(I, t, dim + 1, p + i * step, &as_list(list)->items[i])) {
      value_decref(list);
      return -1;
    }
  }
  *out = list;
  return 0;
}

/* x.tolist(): nested lists of Python scalars (a scalar for 0-d tensors). */
static int m_tolist(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "tolist", "", s)) return -1;
  Tensor *t = a->self.t;
  return tolist_rec(I, t, 0, tensor_data(t), out);
}

/* x.fill(value): sets every element to value (cast to x's dtype). */
static int m_fill(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "fill", "value", s)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *v = arg_tensor(I, s[0]), *scalar = NULL;
  if (!v) return -1;
  if (tensor_size(v) != 1) {
    IERR_VALUE(I, "setting an array element with a sequence.");
    goto fail;
  }
  if (!(scalar = tensor_reshape(c, v, 0, NULL)) || tensor_check_writable(c, a->self.t) ||
      tensor_assign(c, a->self.t, scalar))
    goto fail;
  tensor_release(scalar);
  tensor_release(v);
  *out = v_none();
  return 0;
fail:
  tensor_release(scalar);
  tensor_release(v);
  return -1;
}

/* --------------------------------------------------------------------------------------------
** Attributes
*/

int builtins_tensor_attr(Interp *I, Tensor *t, const char *name, Value *out) {
  int64_t item = (int64_t)dtype_size(t->dtype);
  if (strcmp(name, "shape") == 0) return ret_value(value_int_tuple(I, t->ndim, t->shape), out);
  if (strcmp(name, "strides") == 0) {
    int64_t bytes[TSR_MAXDIMS];
    for (int i = 0; i < t->ndim; i++) bytes[i] = t->strides[i] * item;
    return ret_value(value_int_tuple(I, t->ndim, bytes), out);
  }
  if (strcmp(name, "ndim") == 0) { *out = v_int(t->ndim); return 0; }
  if (strcmp(name, "size") == 0) { *out = v_int(tensor_size(t)); return 0; }
  if (strcmp(name, "itemsize") == 0) { *out = v_int(item); return 0; }
  if (strcmp(name, "nbytes") == 0) { *out = v_int(tensor_size(t) * item); return 0; }
  if (strcmp(name, "dtype") == 0) { *out = v_dtype(t->dtype); return 0; }
  if (strcmp(name, "T") == 0) return ret_tensor(tensor_transpose(interp_ctx(I), t, NULL), out);
  if (strcmp(name, "flat") == 0) {
    /* numpy.flatiter stands in as the 1-d array of t's elements in C order: a view of a
       C-contiguous t (indexing, assignment and iteration reach t), else a read-only copy (so
       that an assignment fails instead of being lost) */
    int64_t n = tensor_size(t), one = 1;
    if (tensor_is_contiguous(t)) return ret_tensor(tensor_view(t, 1, &n, &one, t->offset), out);
    Tensor *r = tensor_ravel(interp_ctx(I), t);
    if (r) r->readonly = 1;
    return ret_tensor(r, out);
  }
  return 1;
}

int builtins_set_flat(Interp *I, Tensor *t, Value v) {
  Ctx *c = interp_ctx(I);
  if (tensor_check_writable(c, t)) return -1;
  Tensor *src = value_to_tensor(I, v, -1), *flat = NULL, *tiled = NULL, *shaped = NULL;
  if (!src) return -1;
  int rc = -1;
  int64_t n = tensor_size(t), m = tensor_size(src);
  if (m == 0 || n == 0) { rc = 0; goto done; }
  if (!(flat = tensor_ravel(c, src))) goto done;
  if (m != n) {
    /* a shorter (or longer) value repeats (or stops) as numpy.flatiter's assignment does */
    size_t isz = dtype_size(flat->dtype);
    if (!(tiled = tensor_empty(c, flat->dtype, 1, &n))) goto done;
    for (int64_t k = 0; k < n; k++)
      memcpy(tensor_data(tiled) + (size_t)k * isz, tensor_data(flat) + (size_t)(k % m) * isz, isz);
  }
  if ((shaped = tensor_reshape(c, tiled ? tiled : flat, t->ndim, t->shape)))
    rc = tensor_assign(c, t, shaped);
done:
  tensor_release(src);
  tensor_release(flat);
  tensor_release(tiled);
  tensor_release(shaped);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** The table
*/

const Builtin builtins_array_table[] = {
  /* creation */
  {NULL, "array", bi_array,
   "array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0)\n\n"
   "Create an array."},
  {NULL, "asarray", bi_asarray,
   "asarray(a, dtype=None, order=None)\n\nConvert the input to an array."},
  {NULL, "ascontiguousarray", bi_ascontiguousarray,
   "ascontiguousarray(a, dtype=None)\n\nReturn a contiguous array in memory (C order)."},
  {NULL, "zeros", bi_zeros,
   "zeros(shape, dtype=float, order='C')\n\nReturn a new array of given shape and type, "
   "filled with zeros."},
  {NULL, "ones", bi_ones,
   "ones(shape, dtype=None, order='C')\n\nReturn a new array of given shape and type, "
   "filled with ones."},
  {NULL, "empty", bi_empty,
   "empty(shape, dtype=float, order='C')\n\nReturn a new array of given shape and type "
   "(tsr fills it with zeros)."},
  {NULL, "full", bi_full,
   "full(shape, fill_value, dtype=None, order='C')\n\nReturn a new array of given shape and "
   "type, filled with fill_value."},
  {NULL, "zeros_like", bi_zeros_like,
   "zeros_like(a, dtype=None, order='K', subok=True, shape=None)\n\nReturn an array of zeros "
   "with the same shape and type as a given array."},
  {NULL, "ones_like", bi_ones_like,
   "ones_like(a, dtype=None, order='K', subok=True, shape=None)\n\nReturn an array of ones "
   "with the same shape and type as a given array."},
  {NULL, "empty_like", bi_empty_like,
   "empty_like(prototype, dtype=None, order='K', subok=True, shape=None)\n\nReturn a new "
   "array with the same shape and type as a given array (tsr fills it with zeros)."},
  {NULL, "full_like", bi_full_like,
   "full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None)\n\nReturn a full "
   "array with the same shape and type as a given array."},
  {NULL, "arange", bi_arange,
   "arange([start,] stop[, step,], dtype=None)\n\nReturn evenly spaced values within a given "
   "interval."},
  {NULL, "linspace", bi_linspace,
   "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0)\n\n"
   "Return evenly spaced numbers over a specified interval."},
  {NULL, "eye", bi_eye,
   "eye(N, M=None, k=0, dtype=float, order='C')\n\nReturn a 2-D array with ones on the "
   "diagonal and zeros elsewhere."},
  {NULL, "identity", bi_identity,
   "identity(n, dtype=None)\n\nReturn the identity array."},
  {NULL, "copy", bi_copy, "copy(a, order='K', subok=False)\n\nReturn an array copy of the "
   "given object."},
  /* shape */
  {NULL, "reshape", bi_reshape,
   "reshape(a, newshape, order='C')\n\nGives a new shape to an array without changing its "
   "data."},
  {NULL, "ravel", bi_ravel, "ravel(a, order='C')\n\nReturn a contiguous flattened array."},
  {NULL, "transpose", bi_transpose,
   "transpose(a, axes=None)\n\nReturns an array with axes transposed."},
  {NULL, "swapaxes", bi_swapaxes,
   "swapaxes(a, axis1, axis2)\n\nInterchange two axes of an array."},
  {NULL, "moveaxis", bi_moveaxis,
   "moveaxis(a, source, destination)\n\nMove axes of an array to new positions."},
  {NULL, "expand_dims", bi_expand_dims,
   "expand_dims(a, axis)\n\nExpand the shape of an array."},
  {NULL, "squeeze", bi_squeeze,
   "squeeze(a, axis=None)\n\nRemove axes of length one from a."},
  {NULL, "broadcast_to", bi_broadcast_to,
   "broadcast_to(array, shape, subok=False)\n\nBroadcast an array to a new shape."},
  {NULL, "flip", bi_flip,
   "flip(m, axis=None)\n\nReverse the order of elements in an array along the given axis."},
  {NULL, "concatenate", bi_concatenate,
   "concatenate((a1, a2, ...), axis=0, out=None, dtype=None)\n\nJoin a sequence of arrays "
   "along an existing axis."},
  {NULL, "stack", bi_stack,
   "stack(arrays, axis=0, out=None, *, dtype=None)\n\nJoin a sequence of arrays along a new "
   "axis."},
  {NULL, "vstack", bi_vstack,
   "vstack(tup, *, dtype=None)\n\nStack arrays in sequence vertically (row wise)."},
  {NULL, "hstack", bi_hstack,
   "hstack(tup, *, dtype=None)\n\nStack arrays in sequence horizontally (column wise)."},
  {NULL, "atleast_1d", bi_atleast_1d,
   "atleast_1d(*arys)\n\nConvert inputs to arrays with at least one dimension."},
  {NULL, "atleast_2d", bi_atleast_2d,
   "atleast_2d(*arys)\n\nView inputs as arrays with at least two dimensions."},
  {NULL, "atleast_3d", bi_atleast_3d,
   "atleast_3d(*arys)\n\nView inputs as arrays with at least three dimensions."},
  /* methods */
  {"ndarray", "reshape", m_reshape,
   "a.reshape(shape, order='C')\n\nReturns an array containing the same data with a new "
   "shape."},
  {"ndarray", "ravel", m_ravel, "a.ravel([order])\n\nReturn a flattened array."},
  {"ndarray", "flatten", m_flatten,
   "a.flatten(order='C')\n\nReturn a copy of the array collapsed into one dimension."},
  {"ndarray", "transpose", m_transpose,
   "a.transpose(*axes)\n\nReturns a view of the array with axes transposed."},
  {"ndarray", "swapaxes", m_swapaxes,
   "a.swapaxes(axis1, axis2)\n\nReturn a view of the array with axis1 and axis2 "
   "interchanged."},
  {"ndarray", "squeeze", m_squeeze,
   "a.squeeze(axis=None)\n\nRemove axes of length one from a."},
  {"ndarray", "copy", m_copy, "a.copy(order='C')\n\nReturn a copy of the array."},
  {"ndarray", "astype", m_astype,
   "a.astype(dtype, order='K', casting='unsafe', subok=True, copy=True)\n\nCopy of the "
   "array, cast to a specified type."},
  {"ndarray", "item", m_item,
   "a.item(*args)\n\nCopy an element of an array to a standard Python scalar and return it."},
  {"ndarray", "tolist", m_tolist,
   "a.tolist()\n\nReturn the array as an a.ndim-levels deep nested list of Python scalars."},
  {"ndarray", "fill", m_fill, "a.fill(value)\n\nFill the array with a scalar value."},
  {NULL, NULL, NULL, NULL}
};
