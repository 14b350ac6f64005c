/*
** builtins_math.c -- NumPy's elementwise functions (one builtin per ufunc of rt.h, generated
** from its X-macro tables), where/clip/around, the reductions (functions and tensor methods),
** nonzero and friends, and linear algebra (matmul, dot, linalg.norm ...).
*/
#include "builtins.h"
#include "../runtime/lapack.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------------------------------------
** Helpers shared by the builtins of this file
*/

/* The out= argument: None/omitted gives NULL, else a tensor (or a 1-tuple holding one),
   borrowed. */
int builtins_out_arg(Interp *I, Value v, Tensor **out) {
  *out = NULL;
  if (!given(v)) return 0;
  if (v.type == V_TUPLE && as_list(v)->n == 1) v = as_list(v)->items[0];
  if (v.type != V_TENSOR) return IERR_TYPE(I, "return arrays must be of ArrayType");
  *out = v.t;
  return 0;
}

/* Delivers result r (owned): into the out= tensor o when given (then o is the result), else
   r itself. */
int builtins_deliver(Interp *I, Tensor *r, Tensor *o, Value *out) {
  if (!r) return -1;
  if (!o) return ret_tensor(r, out);
  Ctx *c = interp_ctx(I);
  int rc = tensor_check_writable(c, o);
  if (rc == 0) rc = tensor_assign(c, o, r);
  tensor_release(r);
  if (rc) return -1;
  *out = v_tensor(tensor_retain(o));
  return 0;
}

/* --------------------------------------------------------------------------------------------
** ufuncs: one builtin per entry of BINARY_UFUNCS / UNARY_UFUNCS
*/

/* Does the binary ufunc produce booleans whatever its inputs (dtype= is then the output's)? */
static bool bool_result(BinaryUfunc op) {
  return (op >= UF_EQUAL && op <= UF_GREATER_EQUAL) || op == UF_LOGICAL_AND ||
         op == UF_LOGICAL_OR || op == UF_LOGICAL_XOR;
}

/* name(x1, x2, /, out=None, *, dtype=None): broadcasting, NEP 50 promotion of Python scalars;
   dtype= casts the inputs (the output for comparisons). */
static int call_binary(Interp *I, const Args *a, BinaryUfunc op, const char *name, Value *out) {
  Value s[4];
  if (args_parse(I, a, name, "x1,x2,out=,*,dtype=", s)) return -1;
  int dt = -1;
  Tensor *o;
  if (value_to_dtype(I, s[3], &dt) || builtins_out_arg(I, s[2], &o)) return -1;
  int in_dt = bool_result(op) ? -1 : dt;
  Ctx *c = interp_ctx(I);
  Tensor *x = NULL, *y = NULL, *r = NULL;
  if (!(x = value_to_tensor(I, s[0], in_dt)) || !(y = value_to_tensor(I, s[1], in_dt)))
    goto fail;
  if (o) {
    r = ufunc_binary(c, op, x, y, o);
  } else {
    r = ufunc_binary(c, op, x, y, NULL);
    if (r && bool_result(op) && dt >= 0 && (DType)dt != r->dtype) {
      Tensor *cast = tensor_astype(c, r, (DType)dt);
      tensor_release(r);
      r = cast;
    }
  }
  tensor_release(x);
  tensor_release(y);
  return ret_tensor(r, out);
fail:
  tensor_release(x);
  tensor_release(y);
  return -1;
}

/* name(x, /, out=None, *, dtype=None). */
static int call_unary(Interp *I, const Args *a, UnaryUfunc op, const char *name, Value *out) {
  Value s[3];
  if (args_parse(I, a, name, "x,out=,*,dtype=", s)) return -1;
  int dt = -1;
  Tensor *o;
  if (value_to_dtype(I, s[2], &dt) || builtins_out_arg(I, s[1], &o)) return -1;
  Tensor *x = value_to_tensor(I, s[0], dt);
  if (!x) return -1;
  Tensor *r = ufunc_unary(interp_ctx(I), op, x, o);
  tensor_release(x);
  return ret_tensor(r, out);
}

#define DOC_ADD "Add arguments element-wise."
#define DOC_SUBTRACT "Subtract arguments, element-wise."
#define DOC_MULTIPLY "Multiply arguments element-wise."
#define DOC_TRUE_DIVIDE "Divide arguments element-wise."
#define DOC_FLOOR_DIVIDE "Return the largest integer smaller or equal to the division of " \
  "the inputs."
#define DOC_REMAINDER "Returns the element-wise remainder of division."
#define DOC_POWER "First array elements raised to powers from second array, element-wise."
#define DOC_BITWISE_AND "Compute the bit-wise AND of two arrays element-wise."
#define DOC_BITWISE_OR "Compute the bit-wise OR of two arrays element-wise."
#define DOC_BITWISE_XOR "Compute the bit-wise XOR of two arrays element-wise."
#define DOC_LEFT_SHIFT "Shift the bits of an integer to the left."
#define DOC_RIGHT_SHIFT "Shift the bits of an integer to the right."
#define DOC_EQUAL "Return (x1 == x2) element-wise."
#define DOC_NOT_EQUAL "Return (x1 != x2) element-wise."
#define DOC_LESS "Return the truth value of (x1 < x2) element-wise."
#define DOC_LESS_EQUAL "Return the truth value of (x1 <= x2) element-wise."
#define DOC_GREATER "Return the truth value of (x1 > x2) element-wise."
#define DOC_GREATER_EQUAL "Return the truth value of (x1 >= x2) element-wise."
#define DOC_MAXIMUM "Element-wise maximum of array elements."
#define DOC_MINIMUM "Element-wise minimum of array elements."
#define DOC_FMAX "Element-wise maximum of array elements, ignoring NaNs."
#define DOC_FMIN "Element-wise minimum of array elements, ignoring NaNs."
#define DOC_ARCTAN2 "Element-wise arc tangent of x1/x2 choosing the quadrant correctly."
#define DOC_HYPOT "Given the \"legs\" of a right triangle, return its hypotenuse."
#define DOC_COPYSIGN "Change the sign of x1 to that of x2, element-wise."
#define DOC_FMOD "Returns the element-wise remainder of division (the sign of the dividend, as C's fmod)."
#define DOC_LOGADDEXP "Logarithm of the sum of exponentiations of the inputs."
#define DOC_LOGADDEXP2 "Logarithm of the sum of exponentiations of the inputs in base-2."
#define DOC_HEAVISIDE "Compute the Heaviside step function (x2 where x1 == 0)."
#define DOC_NEXTAFTER "Return the next floating-point value after x1 towards x2, element-wise."
#define DOC_LOGICAL_AND "Compute the truth value of x1 AND x2 element-wise."
#define DOC_LOGICAL_OR "Compute the truth value of x1 OR x2 element-wise."
#define DOC_LOGICAL_XOR "Compute the truth value of x1 XOR x2, element-wise."

#define DOC_NEGATIVE "Numerical negative, element-wise."
#define DOC_POSITIVE "Numerical positive, element-wise."
#define DOC_INVERT "Compute bit-wise inversion, or bit-wise NOT, element-wise."
#define DOC_ABSOLUTE "Calculate the absolute value element-wise."
#define DOC_SQRT "Return the non-negative square-root of an array, element-wise."
#define DOC_SQUARE "Return the element-wise square of the input."
#define DOC_EXP "Calculate the exponential of all elements in the input array."
#define DOC_EXP2 "Calculate 2**p for all p in the input array."
#define DOC_EXPM1 "Calculate exp(x) - 1 for all elements in the array."
#define DOC_LOG "Natural logarithm, element-wise."
#define DOC_LOG2 "Base-2 logarithm of x."
#define DOC_LOG10 "Return the base 10 logarithm of the input array, element-wise."
#define DOC_LOG1P "Return the natural logarithm of one plus the input array, element-wise."
#define DOC_SIN "Trigonometric sine, element-wise."
#define DOC_COS "Cosine element-wise."
#define DOC_TAN "Compute tangent element-wise."
#define DOC_ARCSIN "Inverse sine, element-wise."
#define DOC_ARCCOS "Trigonometric inverse cosine, element-wise."
#define DOC_ARCTAN "Trigonometric inverse tangent, element-wise."
#define DOC_SINH "Hyperbolic sine, element-wise."
#define DOC_COSH "Hyperbolic cosine, element-wise."
#define DOC_TANH "Compute hyperbolic tangent element-wise."
#define DOC_FLOOR "Return the floor of the input, element-wise."
#define DOC_CEIL "Return the ceiling of the input, element-wise."
#define DOC_TRUNC "Return the truncated value of the input, element-wise."
#define DOC_RINT "Round elements of the array to the nearest integer."
#define DOC_SIGN "Returns an element-wise indication of the sign of a number."
#define DOC_ISNAN "Test element-wise for NaN and return result as a boolean array."
#define DOC_ISINF "Test element-wise for positive or negative infinity."
#define DOC_ISFINITE "Test element-wise for finiteness (not infinity and not Not a Number)."
#define DOC_LOGICAL_NOT "Compute the truth value of NOT x element-wise."
#define DOC_RECIPROCAL "Return the reciprocal of the argument, element-wise."
#define DOC_ARCSINH "Inverse hyperbolic sine element-wise."
#define DOC_ARCCOSH "Inverse hyperbolic cosine, element-wise."
#define DOC_ARCTANH "Inverse hyperbolic tangent element-wise."
#define DOC_CBRT "Return the cube-root of an array, element-wise."
#define DOC_DEG2RAD "Convert angles from degrees to radians."
#define DOC_RAD2DEG "Convert angles from radians to degrees."
#define DOC_RADIANS "Convert angles from degrees to radians."
#define DOC_DEGREES "Convert angles from radians to degrees."
#define DOC_FABS "Compute the absolute values element-wise (floats only)."
#define DOC_SIGNBIT "Returns element-wise True where signbit is set (less than zero)."

#define X_BINARY_FN(name, str)                                          \
  static int uf_##name(Interp *I, const Args *a, Value *out) {          \
    return call_binary(I, a, UF_##name, str, out);                      \
  }
#define X_UNARY_FN(name, str)                                           \
  static int uf_##name(Interp *I, const Args *a, Value *out) {          \
    return call_unary(I, a, UF_##name, str, out);                       \
  }
BINARY_UFUNCS(X_BINARY_FN)
UNARY_UFUNCS(X_UNARY_FN)
#undef X_BINARY_FN
#undef X_UNARY_FN

#define BINARY_SIG "(x1, x2, /, out=None, *, dtype=None)\n\n"
#define UNARY_SIG "(x, /, out=None, *, dtype=None)\n\n"

/* abs(x): numpy.absolute, except that Python scalars keep their Python type. */
static int bi_abs(Interp *I, const Args *a, Value *out) {
  if (a->npos == 1 && a->nkw == 0) {
    Value v = a->pos[0];
    if (v.type == V_BOOL) { *out = v; return 0; }
    if (v.type == V_INT) {
      if (v.i == INT64_MIN) return ERR_OVERFLOW(interp_ctx(I), "int too large to convert");
      *out = v_int(v.i < 0 ? -v.i : v.i);
      return 0;
    }
    if (v.type == V_FLOAT) { *out = v_float(fabs(v.f)); return 0; }
  }
  return call_unary(I, a, UF_ABSOLUTE, "absolute", out);
}

static int bi_true_divide(Interp *I, const Args *a, Value *out) {
  return call_binary(I, a, UF_TRUE_DIVIDE, "true_divide", out);
}
static int bi_mod(Interp *I, const Args *a, Value *out) {
  return call_binary(I, a, UF_REMAINDER, "remainder", out);
}
static int bi_bitwise_not(Interp *I, const Args *a, Value *out) {
  return call_unary(I, a, UF_INVERT, "invert", out);
}

/* --------------------------------------------------------------------------------------------
** where, clip, around
*/

/* The indices of the non-zero elements of t: a tuple of ndim int64 tensors (0-d counts as
   1-d, as NumPy's deprecated behaviour). */
static int nonzero_tuple(Interp *I, Tensor *t, Value *out) {
  Ctx *c = interp_ctx(I);
  Tensor *b = tensor_contiguous(c, t, TSR_BOOL);
  if (!b) return -1;
  const bool *p = (const bool *)tensor_data(b);
  int64_t n = tensor_size(b), count = 0;
  if (ctx_work(c, (uint64_t)n * 2, WORK_ELEMENT)) {   /* two passes */
    tensor_release(b);
    return -1;
  }
  int nd = b->ndim == 0 ? 1 : b->ndim;
  int64_t shape[TSR_MAXDIMS];
  if (b->ndim == 0) shape[0] = 1;
  else for (int k = 0; k < nd && k < TSR_MAXDIMS; k++) shape[k] = b->shape[k];
  for (int64_t i = 0; i < n; i++) count += p[i];
  Value tup = value_tuple(I, nd);
  if (tup.type == V_UNDEF) goto fail;
  int64_t *idx[TSR_MAXDIMS];
  for (int k = 0; k < nd; k++) {
    Tensor *r = tensor_empty(c, TSR_INT64, 1, &count);
    if (!r) goto fail;
    as_list(tup)->items[k] = v_tensor(r);
    idx[k] = (int64_t *)tensor_data(r);
  }
  int64_t index[TSR_MAXDIMS] = {0}, j = 0;
  for (int64_t i = 0; i < n; i++) {
    if (p[i]) {
      for (int k = 0; k < nd; k++) idx[k][j] = index[k];
      j++;
    }
    for (int k = nd - 1; k >= 0; k--) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
  tensor_release(b);
  *out = tup;
  return 0;
fail:
  tensor_release(b);
  if (tup.type != V_UNDEF) value_decref(tup);
  return -1;
}

/* nonzero(a) / x.nonzero(). */
static int bi_nonzero(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "nonzero", "a", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  int rc = nonzero_tuple(I, t, out);
  tensor_release(t);
  return rc;
}
static int m_nonzero(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_nonzero, out);
}

/* flatnonzero(a): indices of the non-zero elements of ravel(a). */
static int bi_flatnonzero(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "flatnonzero", "a", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]), *flat = NULL;
  if (!t) return -1;
  flat = tensor_ravel(interp_ctx(I), t);
  tensor_release(t);
  if (!flat) return -1;
  Value tup;
  int rc = nonzero_tuple(I, flat, &tup);
  tensor_release(flat);
  if (rc) return -1;
  *out = value_retain(as_list(tup)->items[0]);
  value_decref(tup);
  return 0;
}

/* argwhere(a): the indices of the non-zero elements, one row each (shape (N, a.ndim)). */
static int bi_argwhere(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "argwhere", "a", s)) return -1;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Ctx *c = interp_ctx(I);
  int nd = t->ndim;
  Value tup;
  int rc = nonzero_tuple(I, t, &tup);
  tensor_release(t);
  if (rc) return -1;
  int64_t shape[2] = {as_list(tup)->items[0].t->shape[0], nd};
  Tensor *r = tensor_empty(c, TSR_INT64, 2, shape);
  if (r) {
    int64_t *d = (int64_t *)tensor_data(r);
    for (int k = 0; k < nd; k++) {
      const int64_t *col = (const int64_t *)tensor_data(as_list(tup)->items[k].t);
      for (int64_t i = 0; i < shape[0]; i++) d[i * nd + k] = col[i];
    }
  }
  value_decref(tup);
  return ret_tensor(r, out);
}

/* count_nonzero(a, axis=None, *, keepdims=False): a Python int for axis=None. */
static int bi_count_nonzero(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "count_nonzero", "a,axis=,*,keepdims=", s)) return -1;
  int axes[TSR_MAXDIMS], naxes;
  bool keep;
  if (value_to_axes(I, s[1], axes, &naxes) || get_bool(I, s[2], false, &keep)) return -1;
  Tensor *t = value_to_tensor_strong(I, s[0], TSR_BOOL);
  if (!t) return -1;
  Tensor *r = reduce(interp_ctx(I), RED_SUM, t, axes, naxes, keep, TSR_INT64);
  tensor_release(t);
  if (r && naxes < 0 && !keep) {
    *out = v_int(*(const int64_t *)tensor_data(r));
    tensor_release(r);
    return 0;
  }
  return ret_tensor(r, out);
}

/* where(condition, [x, y]): elements of x where condition holds, else of y; with the
   condition alone, nonzero(condition). */
static int bi_where(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "where", "condition,x=,y=", s)) return -1;
  if ((s[1].type == V_UNDEF) != (s[2].type == V_UNDEF))
    return IERR_VALUE(I, "either both or neither of x and y should be given");
  Tensor *cond = NULL, *x = NULL, *y = NULL, *r = NULL;
  if (s[1].type == V_UNDEF) {
    if (!(cond = arg_tensor(I, s[0]))) return -1;
    int rc = nonzero_tuple(I, cond, out);
    tensor_release(cond);
    return rc;
  }
  if ((cond = value_to_tensor_strong(I, s[0], TSR_BOOL)) && (x = value_to_tensor(I, s[1], -1)) &&
      (y = value_to_tensor(I, s[2], -1)))
    r = ufunc_where(interp_ctx(I), cond, x, y);
  tensor_release(cond);
  tensor_release(x);
  tensor_release(y);
  return ret_tensor(r, out);
}

/* A clip bound as NumPy 1.24's _clip takes it: a 0-d NaN (deprecated there, without a
   warning shown) means no bound, the Python float -inf for a_min or inf for a_max.  New
   reference or NULL. */
static Tensor *clip_bound(Interp *I, Value v, double no_bound) {
  Tensor *b = value_to_tensor(I, v, -1);
  if (b && b->ndim == 0 && dtype_is_float(b->dtype) &&
      isnan(dtype_get_f64(b->dtype, tensor_data(b)))) {
    tensor_release(b);
    b = value_to_tensor(I, v_float(no_bound), -1);
  }
  return b;
}

/* clip(a, a_min, a_max, out=None): a_min/a_max may be None (not both) and arrays. */
static int clip_common(Interp *I, Value av, Value lo_v, Value hi_v, Value out_v, Value *out) {
  if (!given(lo_v) && !given(hi_v)) return IERR_VALUE(I, "One of max or min must be given");
  Tensor *o;
  if (builtins_out_arg(I, out_v, &o)) return -1;
  Tensor *t = NULL, *lo = NULL, *hi = NULL, *r = NULL;
  if (!(t = value_to_tensor(I, av, -1))) goto done;
  if (given(lo_v) && !(lo = clip_bound(I, lo_v, -INFINITY))) goto done;
  if (given(hi_v) && !(hi = clip_bound(I, hi_v, INFINITY))) goto done;
  r = ufunc_clip(interp_ctx(I), t, lo, hi);
done:
  tensor_release(t);
  tensor_release(lo);
  tensor_release(hi);
  return builtins_deliver(I, r, o, out);
}
static int bi_clip(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "clip", "a,a_min,a_max,out=", s)) return -1;
  return clip_common(I, s[0], s[1], s[2], s[3], out);
}
/* x.clip(min=None, max=None, out=None). */
static int m_clip(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "clip", "min=,max=,out=", s)) return -1;
  return clip_common(I, a->self, s[0], s[1], s[2], out);
}

/* 10**n for n >= 0 as NumPy's around computes it (exact table, then repeated products). */
static double power_of_ten(int64_t n) {
  double r = 1.0;
  for (int64_t k = 0; k < n && k < 400; k++) r *= 10.0;
  return r;
}

/* numpy.around(x, decimals): round half to even.  Integer tensors are returned unchanged (the
   same tensor, as NumPy) for decimals >= 0; otherwise x is scaled by 10**decimals, rounded
   with rint and scaled back (in float64 for integers, then cast back).  New reference. */
static Tensor *around_tensor(Interp *I, Tensor *x, int64_t decimals) {
  Ctx *c = interp_ctx(I);
  bool integer = !dtype_is_float(x->dtype);
  if (integer && decimals >= 0) return tensor_retain(x);
  if (decimals == 0) return ufunc_unary(c, UF_RINT, x, NULL);
  BinaryUfunc op1 = decimals >= 0 ? UF_MULTIPLY : UF_TRUE_DIVIDE;
  BinaryUfunc op2 = decimals >= 0 ? UF_TRUE_DIVIDE : UF_MULTIPLY;
  /* power_of_ten stops at 400 anyway: clamp first, so that -decimals cannot overflow */
  int64_t mag = decimals < -400 ? 400 : decimals < 0 ? -decimals : decimals;
  Tensor *f = value_to_tensor(I, v_float(power_of_ten(mag)), -1);
  Tensor *r = NULL, *step = NULL;
  if (!f) return NULL;
  if (!(r = ufunc_binary(c, op1, x, f, NULL))) goto fail;
  if (!(step = ufunc_unary(c, UF_RINT, r, r))) goto fail;
  tensor_release(step);
  if (!(step = ufunc_binary(c, op2, r, f, r))) goto fail;
  tensor_release(step);
  tensor_release(f);
  if (integer) {
    Tensor *cast = tensor_astype(c, r, x->dtype);
    tensor_release(r);
    r = cast;
  }
  return r;
fail:
  tensor_release(f);
  tensor_release(r);
  return NULL;
}

/* around(a, decimals=0, out=None); also round and round_. */
static int around_common(Interp *I, Value av, Value dec_v, Value out_v, Value *out) {
  int64_t decimals = 0;
  Tensor *o;
  if ((given(dec_v) && value_to_int(I, dec_v, &decimals)) || builtins_out_arg(I, out_v, &o)) return -1;
  Tensor *t = arg_tensor(I, av);
  if (!t) return -1;
  Tensor *r = around_tensor(I, t, decimals);
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}
static int bi_around(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "around", "a,decimals=,out=", s)) return -1;
  return around_common(I, s[0], s[1], s[2], out);
}
static int m_round(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "round", "decimals=,out=", s)) return -1;
  return around_common(I, a->self, s[0], s[1], out);
}

/* --------------------------------------------------------------------------------------------
** Reductions
*/

/* Shared body of the reductions: binds the operand and options, runs reduce(), delivers into
   out=.  axis_single: argmax/argmin take one int axis. */
static int reduce_common(Interp *I, Reduction op, Value av, Value axis_v, Value dtype_v,
                         Value out_v, Value keep_v, bool axis_single, Value *out) {
  int axes[TSR_MAXDIMS], naxes = -1, dt = -1;
  bool keep;
  Tensor *o;
  if (axis_single && given(axis_v)) {
    int64_t ax;
    if (value_to_int(I, axis_v, &ax)) return -1;
    axes[0] = ax < INT32_MIN + 1 || ax > INT32_MAX ? INT32_MAX : (int)ax;
    naxes = 1;
  } else if (value_to_axes(I, axis_v, axes, &naxes)) {
    return -1;
  }
  if (value_to_dtype(I, dtype_v, &dt) || get_bool(I, keep_v, false, &keep) ||
      builtins_out_arg(I, out_v, &o))
    return -1;
  Tensor *t = arg_tensor(I, av);
  if (!t) return -1;
  /* add.reduce / multiply.reduce compute in out's dtype when dtype= is not given and the
     input casts to it safely (NumPy's reduce type resolution: np.prod(float32_x,
     out=float64_o) does not overflow, np.prod(float64_x, out=int64_o) multiplies floats;
     found by fuzzdiff) */
  if (dt < 0 && o && (op == RED_SUM || op == RED_PROD) &&
      dtype_promote(t->dtype, o->dtype) == o->dtype)
    dt = o->dtype;
  Tensor *r = reduce(interp_ctx(I), op, t, axes, naxes, keep, dt);
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}

/* sum / prod / mean (a, axis=None, dtype=None, out=None, keepdims=False). */
static int reduce_dtype(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[5];
  if (args_parse(I, a, name, "a,axis=,dtype=,out=,keepdims=", s)) return -1;
  return reduce_common(I, op, s[0], s[1], s[2], s[3], s[4], false, out);
}
/* max / min / all / any (a, axis=None, out=None, keepdims=False). */
static int reduce_plain(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[4];
  if (args_parse(I, a, name, "a,axis=,out=,keepdims=", s)) return -1;
  return reduce_common(I, op, s[0], s[1], v_undef(), s[2], s[3], false, out);
}
/* argmax / argmin (a, axis=None, out=None, *, keepdims=False). */
static int reduce_arg(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[4];
  if (args_parse(I, a, name, "a,axis=,out=,*,keepdims=", s)) return -1;
  return reduce_common(I, op, s[0], s[1], v_undef(), s[2], s[3], true, out);
}

static int bi_sum(Interp *I, const Args *a, Value *out) {
  return reduce_dtype(I, a, "sum", RED_SUM, out);
}
static int bi_prod(Interp *I, const Args *a, Value *out) {
  return reduce_dtype(I, a, "prod", RED_PROD, out);
}
static int bi_mean(Interp *I, const Args *a, Value *out) {
  return reduce_dtype(I, a, "mean", RED_MEAN, out);
}
static int bi_amax(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "amax", RED_MAX, out);
}
static int bi_amin(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "amin", RED_MIN, out);
}
static int bi_max(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "max", RED_MAX, out);
}
static int bi_min(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "min", RED_MIN, out);
}
static int bi_all(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "all", RED_ALL, out);
}
static int bi_any(Interp *I, const Args *a, Value *out) {
  return reduce_plain(I, a, "any", RED_ANY, out);
}
static int bi_argmax(Interp *I, const Args *a, Value *out) {
  return reduce_arg(I, a, "argmax", RED_ARGMAX, out);
}
static int bi_argmin(Interp *I, const Args *a, Value *out) {
  return reduce_arg(I, a, "argmin", RED_ARGMIN, out);
}

/* var / std (a, axis=None, dtype=None, out=None, ddof=0, keepdims=False). */
static int var_common(Interp *I, const Args *a, const char *name, bool take_sqrt, Value *out) {
  Value s[6];
  if (args_parse(I, a, name, "a,axis=,dtype=,out=,ddof=,keepdims=", s)) return -1;
  int axes[TSR_MAXDIMS], naxes, dt = -1;
  int64_t ddof = 0;
  bool keep;
  Tensor *o;
  if (value_to_axes(I, s[1], axes, &naxes) || value_to_dtype(I, s[2], &dt) ||
      builtins_out_arg(I, s[3], &o) || get_bool(I, s[5], false, &keep))
    return -1;
  if (s[4].type == V_FLOAT && s[4].f == trunc(s[4].f) && fabs(s[4].f) < 1e15) {
    ddof = (int64_t)s[4].f;
  } else if (given(s[4]) && value_to_int(I, s[4], &ddof)) {
    return -1;
  }
  Tensor *t = value_to_tensor_strong(I, s[0], -1);
  if (!t) return -1;
  Tensor *r = reduce_var(interp_ctx(I), t, axes, naxes, keep,
                         (int)(ddof > INT32_MAX ? INT32_MAX : ddof < INT32_MIN ? INT32_MIN : ddof),
                         take_sqrt, dt);
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}
static int bi_var(Interp *I, const Args *a, Value *out) { return var_common(I, a, "var", false, out); }
static int bi_std(Interp *I, const Args *a, Value *out) { return var_common(I, a, "std", true, out); }

/* cumsum / cumprod (a, axis=None, dtype=None, out=None). */
static int cumulative(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[4];
  if (args_parse(I, a, name, "a,axis=,dtype=,out=", s)) return -1;
  int64_t ax = INT32_MIN;
  int dt = -1;
  Tensor *o;
  if ((given(s[1]) && value_to_int(I, s[1], &ax)) || value_to_dtype(I, s[2], &dt) ||
      builtins_out_arg(I, s[3], &o))
    return -1;
  if (given(s[1]) && (ax <= INT32_MIN || ax > INT32_MAX)) ax = INT32_MAX;
  Tensor *t = arg_tensor(I, s[0]);
  if (!t) return -1;
  Tensor *r = reduce_cumulative(interp_ctx(I), op, t, (int)ax, dt);
  tensor_release(t);
  return builtins_deliver(I, r, o, out);
}
static int bi_cumsum(Interp *I, const Args *a, Value *out) {
  return cumulative(I, a, "cumsum", RED_SUM, out);
}
static int bi_cumprod(Interp *I, const Args *a, Value *out) {
  return cumulative(I, a, "cumprod", RED_PROD, out);
}

#define METHOD(fn) \
  static int m_##fn(Interp *I, const Args *a, Value *out) { return call_with_self(I, a, bi_##fn, out); }
METHOD(sum) METHOD(prod) METHOD(mean) METHOD(max) METHOD(min) METHOD(all) METHOD(any)
METHOD(argmax) METHOD(argmin) METHOD(var) METHOD(std) METHOD(cumsum) METHOD(cumprod)
#undef METHOD

/* --------------------------------------------------------------------------------------------
** Linear algebra
*/

/* Binds two array operands (strong) for the products. */
static int two_tensors(Interp *I, Value av, Value bv, Tensor **x, Tensor **y) {
  *y = NULL;
  if (!(*x = arg_tensor(I, av))) return -1;
  if (!(*y = arg_tensor(I, bv))) { tensor_release(*x); *x = NULL; return -1; }
  return 0;
}

/* matmul(x1, x2, /, out=None). */
static int bi_matmul(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "matmul", "x1,x2,out=", s)) return -1;
  Tensor *o, *x, *y;
  if (builtins_out_arg(I, s[2], &o) || two_tensors(I, s[0], s[1], &x, &y)) return -1;
  Tensor *r = linalg_matmul(interp_ctx(I), x, y);
  tensor_release(x);
  tensor_release(y);
  return builtins_deliver(I, r, o, out);
}

/* dot(a, b, out=None). */
static int bi_dot(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "dot", "a,b,out=", s)) return -1;
  Tensor *o, *x, *y;
  if (builtins_out_arg(I, s[2], &o) || two_tensors(I, s[0], s[1], &x, &y)) return -1;
  Tensor *r = linalg_dot(interp_ctx(I), x, y);
  tensor_release(x);
  tensor_release(y);
  return builtins_deliver(I, r, o, out);
}
static int m_dot(Interp *I, const Args *a, Value *out) { return call_with_self(I, a, bi_dot, out); }

/* vdot(a, b): the dot product of the flattened operands. */
static int bi_vdot(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "vdot", "a,b", s)) return -1;
  Tensor *x, *y;
  if (two_tensors(I, s[0], s[1], &x, &y)) return -1;
  Tensor *r = linalg_vdot(interp_ctx(I), x, y);
  tensor_release(x);
  tensor_release(y);
  return ret_tensor(r, out);
}

/* inner(a, b): sum product over the last axes (multiply for scalars). */
static int bi_inner(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "inner", "a,b", s)) return -1;
  Tensor *x, *y, *moved = NULL, *r = NULL;
  if (two_tensors(I, s[0], s[1], &x, &y)) return -1;
  Ctx *c = interp_ctx(I);
  if (x->ndim == 0 || y->ndim == 0 || y->ndim == 1) {
    r = linalg_dot(c, x, y);
  } else {
    if (x->shape[x->ndim - 1] != y->shape[y->ndim - 1]) {
      Buf b;
      buf_init(&b, c);
      shape_format_compact(&b, x->ndim, x->shape);
      buf_puts(&b, " and ");
      shape_format_compact(&b, y->ndim, y->shape);
      ERR_VALUE(c, "shapes %s not aligned: %lld (dim %d) != %lld (dim %d)", buf_str(&b),
                (long long)x->shape[x->ndim - 1], x->ndim - 1,
                (long long)y->shape[y->ndim - 1], y->ndim - 1);
      buf_free(&b);
    } else if ((moved = tensor_swapaxes(c, y, y->ndim - 1, y->ndim - 2))) {
      r = linalg_dot(c, x, moved);
    }
  }
  tensor_release(x);
  tensor_release(y);
  tensor_release(moved);
  return ret_tensor(r, out);
}

/* outer(a, b, out=None): out[i, j] = ravel(a)[i] * ravel(b)[j]. */
static int bi_outer(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "outer", "a,b,out=", s)) return -1;
  Tensor *o, *x, *y, *col = NULL, *row = NULL, *r = NULL;
  if (builtins_out_arg(I, s[2], &o) || two_tensors(I, s[0], s[1], &x, &y)) return -1;
  Ctx *c = interp_ctx(I);
  int64_t cs[2] = {tensor_size(x), 1}, rs[2] = {1, tensor_size(y)};
  if ((col = tensor_reshape(c, x, 2, cs)) && (row = tensor_reshape(c, y, 2, rs)))
    r = ufunc_binary(c, UF_MULTIPLY, col, row, o);
  tensor_release(x);
  tensor_release(y);
  tensor_release(col);
  tensor_release(row);
  return ret_tensor(r, out);
}

/* The diagonal view of t for axes axis1 != axis2 (normalised) with the given offset: those
   axes are removed and the diagonal becomes the last axis (numpy.diagonal). */
static Tensor *diagonal_view(Tensor *t, int64_t offset, int axis1, int axis2) {
  int64_t n1 = t->shape[axis1], n2 = t->shape[axis2], start = t->offset, len;
  if (offset >= 0) {
    len = n2 - offset < n1 ? n2 - offset : n1;
    if (len > 0) start += offset * t->strides[axis2];
  } else {
    len = n1 + offset < n2 ? n1 + offset : n2;
    if (len > 0) start -= offset * t->strides[axis1];
  }
  if (len < 0) len = 0;
  if (len == 0) start = t->offset;
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
  int nd = 0;
  for (int i = 0; i < t->ndim; i++) {
    if (i == axis1 || i == axis2) continue;
    shape[nd] = t->shape[i];
    strides[nd++] = t->strides[i];
  }
  shape[nd] = len;
  strides[nd++] = t->strides[axis1] + t->strides[axis2];
  return tensor_view(t, nd, shape, strides, start);
}

/* Binds diagonal/trace's (a, offset, axis1, axis2) and returns the diagonal view. */
static Tensor *diagonal_args(Interp *I, Value av, Value off_v, Value a1_v, Value a2_v) {
  Ctx *c = interp_ctx(I);
  int64_t offset = 0, a1 = 0, a2 = 1;
  if ((given(off_v) && value_to_int(I, off_v, &offset)) ||
      (given(a1_v) && value_to_int(I, a1_v, &a1)) || (given(a2_v) && value_to_int(I, a2_v, &a2)))
    return NULL;
  Tensor *t = arg_tensor(I, av), *r = NULL;
  if (!t) return NULL;
  int ax1, ax2;
  if (t->ndim < 2) {
    ERR_VALUE(c, "diag requires an array of at least two dimensions");
  } else if (axis_normalize(c, (int)a1, t->ndim, &ax1) == 0 &&
             axis_normalize(c, (int)a2, t->ndim, &ax2) == 0) {
    if (ax1 == ax2) ERR_VALUE(c, "axis1 and axis2 cannot be the same");
    else r = diagonal_view(t, offset, ax1, ax2);
  }
  tensor_release(t);
  return r;
}

/* diagonal(a, offset=0, axis1=0, axis2=1): a view. */
static int bi_diagonal(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "diagonal", "a,offset=,axis1=,axis2=", s)) return -1;
  Tensor *r = diagonal_args(I, s[0], s[1], s[2], s[3]);
  if (r) r->readonly = 1;   /* NumPy's diagonal is a read-only view */
  return ret_tensor(r, out);
}
static int m_diagonal(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_diagonal, out);
}

/* trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None): sum along the diagonal. */
static int bi_trace(Interp *I, const Args *a, Value *out) {
  Value s[6];
  if (args_parse(I, a, "trace", "a,offset=,axis1=,axis2=,dtype=,out=", s)) return -1;
  int dt = -1;
  Tensor *o;
  if (value_to_dtype(I, s[4], &dt) || builtins_out_arg(I, s[5], &o)) return -1;
  Tensor *d = diagonal_args(I, s[0], s[1], s[2], s[3]);
  if (!d) return -1;
  int axis = d->ndim - 1;
  Tensor *r = reduce(interp_ctx(I), RED_SUM, d, &axis, 1, false, dt);
  tensor_release(d);
  return builtins_deliver(I, r, o, out);
}
static int m_trace(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_trace, out);
}

/* ---- linalg.norm ---- */

enum { ORD_NONE, ORD_FRO, ORD_NUC, ORD_NUMBER, ORD_OTHER_STR };

/* Sets every dim of `axes` to 1 in a reshape of r to x's rank (keepdims for matrix norms). */
static Tensor *keep_reduced_dims(Ctx *c, Tensor *r, const Tensor *x, const int *axes, int n) {
  int64_t shape[TSR_MAXDIMS];
  memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
  for (int k = 0; k < n; k++) shape[axes[k]] = 1;
  Tensor *k = tensor_reshape(c, r, x->ndim, shape);
  tensor_release(r);
  return k;
}

/* sqrt(sum(x * x)) over axes (the Frobenius / 2-norm formula). */
static Tensor *norm_sqrt_sumsq(Ctx *c, Tensor *x, const int *axes, int n, bool keep) {
  Tensor *sq = ufunc_binary(c, UF_MULTIPLY, x, x, NULL), *s = NULL, *r = NULL;
  if (sq && (s = reduce(c, RED_SUM, sq, axes, n, keep, -1))) r = ufunc_unary(c, UF_SQRT, s, NULL);
  tensor_release(sq);
  tensor_release(s);
  return r;
}

/* reduce(op2, reduce(op1, |x|, axis1), axis2): the matrix 1- and inf-norms. */
static Tensor *norm_abs_twice(Ctx *c, Tensor *x, int axis1, Reduction op2, int axis2) {
  Tensor *ab = ufunc_unary(c, UF_ABSOLUTE, x, NULL), *s = NULL, *r = NULL;
  if (ab && (s = reduce(c, RED_SUM, ab, &axis1, 1, false, -1)))
    r = reduce(c, op2, s, &axis2, 1, false, -1);
  tensor_release(ab);
  tensor_release(s);
  return r;
}

/* Vector norm of x along one axis (numpy.linalg.norm's vector branch). */
static Tensor *vector_norm(Interp *I, Tensor *x, int axis, int kind, double ord,
                           const char *ord_name, bool keep) {
  Ctx *c = interp_ctx(I);
  if (kind == ORD_FRO || kind == ORD_NUC || kind == ORD_OTHER_STR) {
    ERR_VALUE(c, "Invalid norm order '%s' for vectors", ord_name);
    return NULL;
  }
  if (kind == ORD_NONE || ord == 2) return norm_sqrt_sumsq(c, x, &axis, 1, keep);
  if (ord == 0) {
    Tensor *zero = value_to_tensor(I, v_int(0), -1), *ne = NULL, *cast = NULL, *r = NULL;
    if (zero && (ne = ufunc_binary(c, UF_NOT_EQUAL, x, zero, NULL)) &&
        (cast = tensor_astype(c, ne, x->dtype)))
      r = reduce(c, RED_SUM, cast, &axis, 1, keep, -1);
    tensor_release(zero);
    tensor_release(ne);
    tensor_release(cast);
    return r;
  }
  Tensor *ab = ufunc_unary(c, UF_ABSOLUTE, x, NULL), *r = NULL;
  if (!ab) return NULL;
  if (isinf(ord)) {
    r = reduce(c, ord > 0 ? RED_MAX : RED_MIN, ab, &axis, 1, keep, -1);
  } else if (ord == 1) {
    r = reduce(c, RED_SUM, ab, &axis, 1, keep, -1);
  } else {
    Tensor *p = value_to_tensor(I, v_float(ord), -1), *step = NULL, *inv = NULL;
    if (p && (step = ufunc_binary(c, UF_POWER, ab, p, ab))) {
      tensor_release(step);
      if ((r = reduce(c, RED_SUM, ab, &axis, 1, keep, -1)) &&
          (inv = tensor_scalar_f64(c, r->dtype, 1.0 / ord)) &&
          (step = ufunc_binary(c, UF_POWER, r, inv, r))) {
        tensor_release(step);
      } else {
        tensor_release(r);
        r = NULL;
      }
    }
    tensor_release(p);
    tensor_release(inv);
  }
  tensor_release(ab);
  return r;
}

/* Matrix norm of x over (row, col) axes (numpy.linalg.norm's matrix branch). */
static Tensor *matrix_norm(Ctx *c, Tensor *x, int row, int col, int kind, double ord,
                           bool keep) {
  Tensor *r = NULL;
  int axes[2] = {row, col};
  if (kind == ORD_NONE || kind == ORD_FRO) {
    r = norm_sqrt_sumsq(c, x, axes, 2, false);
  } else if (kind == ORD_NUMBER && (ord == 1 || ord == -1)) {
    if (col > row) col--;
    r = norm_abs_twice(c, x, row, ord > 0 ? RED_MAX : RED_MIN, col);
  } else if (kind == ORD_NUMBER && isinf(ord)) {
    if (row > col) row--;
    r = norm_abs_twice(c, x, col, ord > 0 ? RED_MAX : RED_MIN, row);
  } else if (kind == ORD_NUC || (kind == ORD_NUMBER && (ord == 2 || ord == -2))) {
    /* NumPy's _multi_svd_norm: singular values of x with (row, col) moved last */
    int perm[TSR_MAXDIMS], np_ = 0, last;
    for (int i = 0; i < x->ndim; i++)
      if (i != row && i != col) perm[np_++] = i;
    perm[np_++] = row;
    perm[np_++] = col;
    Tensor *moved = tensor_transpose(c, x, perm), *sv = NULL;
    if (moved && lapack_svd(c, moved, false, NULL, &sv, NULL) == 0) {
      last = sv->ndim - 1;
      r = reduce(c, kind == ORD_NUC ? RED_SUM : ord > 0 ? RED_MAX : RED_MIN, sv, &last, 1,
                 false, -1);
      tensor_release(sv);
    }
    if (moved) tensor_release(moved);
  } else {
    ERR_VALUE(c, "Invalid norm order for matrices.");
    return NULL;
  }
  if (r && keep) r = keep_reduced_dims(c, r, x, axes, 2);
  return r;
}

/* linalg.norm(x, ord=None, axis=None, keepdims=False). */
static int bi_norm(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "norm", "x,ord=,axis=,keepdims=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int axes[TSR_MAXDIMS], naxes, kind = ORD_NUMBER;
  double ord = 0;
  const char *ord_name = "";
  bool keep;
  if (value_to_axes(I, s[2], axes, &naxes) || get_bool(I, s[3], false, &keep)) return -1;
  if (!given(s[1])) {
    kind = ORD_NONE;
  } else if (s[1].type == V_STR) {
    const char *o = ord_name = as_str(s[1])->s;
    if (strcmp(o, "fro") == 0 || strcmp(o, "f") == 0) kind = ORD_FRO;
    else if (strcmp(o, "nuc") == 0) kind = ORD_NUC;
    else kind = ORD_OTHER_STR;
  } else if (value_to_double(I, s[1], &ord)) {
    return -1;
  }
  Tensor *x = arg_tensor(I, s[0]), *r = NULL, *flat = NULL, *sq = NULL;
  if (!x) return -1;
  if (!dtype_is_float(x->dtype)) {
    Tensor *f = tensor_astype(c, x, TSR_FLOAT64);
    tensor_release(x);
    if (!(x = f)) return -1;
  }
  if (naxes < 0) {
    if (kind == ORD_NONE || (kind == ORD_FRO && x->ndim == 2) ||
        (kind == ORD_NUMBER && ord == 2 && x->ndim == 1)) {
      if ((flat = tensor_ravel(c, x)) && (sq = linalg_dot(c, flat, flat)) &&
          (r = ufunc_unary(c, UF_SQRT, sq, NULL)) && keep) {
        int64_t ones[TSR_MAXDIMS];
        for (int i = 0; i < x->ndim; i++) ones[i] = 1;
        Tensor *k = tensor_reshape(c, r, x->ndim, ones);
        tensor_release(r);
        r = k;
      }
      goto done;
    }
    naxes = x->ndim;
    for (int i = 0; i < naxes && i < 2; i++) axes[i] = i;
  }
  if (naxes == 1) {
    if (axis_normalize(c, axes[0], x->ndim, &axes[0]) == 0)
      r = vector_norm(I, x, axes[0], kind, ord, ord_name, keep);
  } else if (naxes == 2) {
    if (axis_normalize(c, axes[0], x->ndim, &axes[0]) == 0 &&
        axis_normalize(c, axes[1], x->ndim, &axes[1]) == 0) {
      if (axes[0] == axes[1]) ERR_VALUE(c, "Duplicate axes given.");
      else r = matrix_norm(c, x, axes[0], axes[1], kind, ord, keep);
    }
  } else {
    ERR_VALUE(c, "Improper number of dimensions to norm.");
  }
done:
  tensor_release(x);
  tensor_release(flat);
  tensor_release(sq);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** The table
*/

#define X_BINARY_ENTRY(name, str) {NULL, str, uf_##name, str BINARY_SIG DOC_##name},
#define X_UNARY_ENTRY(name, str) {NULL, str, uf_##name, str UNARY_SIG DOC_##name},

#define RED_SIG "(a, axis=None, dtype=None, out=None, keepdims=False)\n\n"
#define MAX_SIG "(a, axis=None, out=None, keepdims=False)\n\n"
#define ARG_SIG "(a, axis=None, out=None, *, keepdims=False)\n\n"
#define VAR_SIG "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)\n\n"
#define CUM_SIG "(a, axis=None, dtype=None, out=None)\n\n"

const Builtin builtins_math_table[] = {
  BINARY_UFUNCS(X_BINARY_ENTRY)
  UNARY_UFUNCS(X_UNARY_ENTRY)
  {NULL, "true_divide", bi_true_divide, "true_divide" BINARY_SIG DOC_TRUE_DIVIDE},
  {NULL, "mod", bi_mod, "mod" BINARY_SIG DOC_REMAINDER},
  {NULL, "bitwise_not", bi_bitwise_not, "bitwise_not" UNARY_SIG DOC_INVERT},
  {NULL, "abs", bi_abs, "abs" UNARY_SIG DOC_ABSOLUTE
   " (tsr: numpy.absolute; Python scalars keep their type.)"},
  {NULL, "where", bi_where,
   "where(condition, [x, y], /)\n\nReturn elements chosen from x or y depending on "
   "condition."},
  {NULL, "nonzero", bi_nonzero, "nonzero(a)\n\nReturn the indices of the elements that are "
   "non-zero."},
  {NULL, "flatnonzero", bi_flatnonzero, "flatnonzero(a)\n\nReturn indices that are non-zero "
   "in the flattened version of a."},
  {NULL, "argwhere", bi_argwhere, "argwhere(a)\n\nFind the indices of array elements that "
   "are non-zero, grouped by element."},
  {NULL, "count_nonzero", bi_count_nonzero, "count_nonzero(a, axis=None, *, keepdims=False)"
   "\n\nCounts the number of non-zero values in the array a."},
  {NULL, "clip", bi_clip, "clip(a, a_min, a_max, out=None)\n\nClip (limit) the values in an "
   "array."},
  {NULL, "around", bi_around, "around(a, decimals=0, out=None)\n\nEvenly round to the given "
   "number of decimals."},
  {NULL, "round", bi_around, "round(a, decimals=0, out=None)\n\nEvenly round to the given "
   "number of decimals (tsr: numpy.around)."},
  {NULL, "round_", bi_around, "round_(a, decimals=0, out=None)\n\nRound an array to the given "
   "number of decimals."},
  /* reductions */
  {NULL, "sum", bi_sum, "sum" RED_SIG "Sum of array elements over a given axis."},
  {NULL, "prod", bi_prod, "prod" RED_SIG "Return the product of array elements over a given "
   "axis."},
  {NULL, "mean", bi_mean, "mean" RED_SIG "Compute the arithmetic mean along the specified "
   "axis."},
  {NULL, "amax", bi_amax, "amax" MAX_SIG "Return the maximum of an array or maximum along an "
   "axis."},
  {NULL, "amin", bi_amin, "amin" MAX_SIG "Return the minimum of an array or minimum along an "
   "axis."},
  {NULL, "max", bi_max, "max" MAX_SIG "Return the maximum of an array or maximum along an "
   "axis (tsr: numpy.amax)."},
  {NULL, "min", bi_min, "min" MAX_SIG "Return the minimum of an array or minimum along an "
   "axis (tsr: numpy.amin)."},
  {NULL, "all", bi_all, "all" MAX_SIG "Test whether all array elements along a given axis "
   "evaluate to True."},
  {NULL, "any", bi_any, "any" MAX_SIG "Test whether any array element along a given axis "
   "evaluates to True."},
  {NULL, "argmax", bi_argmax, "argmax" ARG_SIG "Returns the indices of the maximum values "
   "along an axis."},
  {NULL, "argmin", bi_argmin, "argmin" ARG_SIG "Returns the indices of the minimum values "
   "along an axis."},
  {NULL, "var", bi_var, "var" VAR_SIG "Compute the variance along the specified axis."},
  {NULL, "std", bi_std, "std" VAR_SIG "Compute the standard deviation along the specified "
   "axis."},
  {NULL, "cumsum", bi_cumsum, "cumsum" CUM_SIG "Return the cumulative sum of the elements "
   "along a given axis."},
  {NULL, "cumprod", bi_cumprod, "cumprod" CUM_SIG "Return the cumulative product of elements "
   "along a given axis."},
  /* linear algebra */
  {NULL, "matmul", bi_matmul, "matmul(x1, x2, /, out=None)\n\nMatrix product of two arrays."},
  {NULL, "dot", bi_dot, "dot(a, b, out=None)\n\nDot product of two arrays."},
  {NULL, "vdot", bi_vdot, "vdot(a, b, /)\n\nReturn the dot product of two vectors "
   "(flattened)."},
  {NULL, "inner", bi_inner, "inner(a, b, /)\n\nInner product of two arrays."},
  {NULL, "outer", bi_outer, "outer(a, b, out=None)\n\nCompute the outer product of two "
   "vectors."},
  {NULL, "diagonal", bi_diagonal, "diagonal(a, offset=0, axis1=0, axis2=1)\n\nReturn "
   "specified diagonals."},
  {NULL, "trace", bi_trace, "trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None)\n\n"
   "Return the sum along diagonals of the array."},
  {"linalg", "norm", bi_norm, "norm(x, ord=None, axis=None, keepdims=False)\n\nMatrix or "
   "vector norm."},
  /* methods */
  {"ndarray", "sum", m_sum, "a.sum(axis=None, dtype=None, out=None, keepdims=False)\n\n"
   "Return the sum of the array elements over the given axis."},
  {"ndarray", "prod", m_prod, "a.prod(axis=None, dtype=None, out=None, keepdims=False)\n\n"
   "Return the product of the array elements over the given axis."},
  {"ndarray", "mean", m_mean, "a.mean(axis=None, dtype=None, out=None, keepdims=False)\n\n"
   "Returns the average of the array elements along given axis."},
  {"ndarray", "max", m_max, "a.max(axis=None, out=None, keepdims=False)\n\nReturn the "
   "maximum along a given axis."},
  {"ndarray", "min", m_min, "a.min(axis=None, out=None, keepdims=False)\n\nReturn the "
   "minimum along a given axis."},
  {"ndarray", "all", m_all, "a.all(axis=None, out=None, keepdims=False)\n\nReturns True if "
   "all elements evaluate to True."},
  {"ndarray", "any", m_any, "a.any(axis=None, out=None, keepdims=False)\n\nReturns True if "
   "any of the elements of a evaluate to True."},
  {"ndarray", "argmax", m_argmax, "a.argmax(axis=None, out=None, *, keepdims=False)\n\n"
   "Return indices of the maximum values along the given axis."},
  {"ndarray", "argmin", m_argmin, "a.argmin(axis=None, out=None, *, keepdims=False)\n\n"
   "Return indices of the minimum values along the given axis."},
  {"ndarray", "var", m_var, "a.var(axis=None, dtype=None, out=None, ddof=0, "
   "keepdims=False)\n\nReturns the variance of the array elements, along given axis."},
  {"ndarray", "std", m_std, "a.std(axis=None, dtype=None, out=None, ddof=0, "
   "keepdims=False)\n\nReturns the standard deviation of the array elements along given "
   "axis."},
  {"ndarray", "cumsum", m_cumsum, "a.cumsum(axis=None, dtype=None, out=None)\n\nReturn the "
   "cumulative sum of the elements along the given axis."},
  {"ndarray", "cumprod", m_cumprod, "a.cumprod(axis=None, dtype=None, out=None)\n\nReturn "
   "the cumulative product of the elements along the given axis."},
  {"ndarray", "clip", m_clip, "a.clip(min=None, max=None, out=None)\n\nReturn an array "
   "whose values are limited to [min, max]."},
  {"ndarray", "round", m_round, "a.round(decimals=0, out=None)\n\nReturn a with each element "
   "rounded to the given number of decimals."},
  {"ndarray", "dot", m_dot, "a.dot(b, out=None)\n\nDot product of two arrays."},
  {"ndarray", "nonzero", m_nonzero, "a.nonzero()\n\nReturn the indices of the elements that "
   "are non-zero."},
  {"ndarray", "diagonal", m_diagonal, "a.diagonal(offset=0, axis1=0, axis2=1)\n\nReturn "
   "specified diagonals."},
  {"ndarray", "trace", m_trace, "a.trace(offset=0, axis1=0, axis2=1, dtype=None, out=None)"
   "\n\nReturn the sum along diagonals of the array."},
  {NULL, NULL, NULL, NULL}
};
