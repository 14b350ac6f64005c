/*
** scalar.h -- the evaluator's fast paths for NumPy scalars and tiny tensors (scalar.c).
**
** Inside an expression, a NumPy scalar that is only an intermediate (`a[i-1]*0.5 + b[i]`) is
** a V_SCALAR value: its dtype and element bytes live in the Value itself, so it costs no
** allocation.  It is boxed into a 0-d tensor (scalar_box) before anything outside eval.c and
** scalar.c sees it.  Every fast path gives exactly what the general path gives (same dtype
** resolution through ufunc_binary_resolve, same typed inner loop, same casts); whenever a
** case is not plainly covered (an error, a warning NumPy could raise, broadcasting, a cast)
** it answers "not handled" and the caller takes the general path.
*/
#ifndef TSR_SCALAR_H
#define TSR_SCALAR_H

#include "interp.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Tensors of at most this many elements take the small-tensor path of scalar_binary. */
#define SMALL_TENSOR_MAX 64

/* Replaces a V_SCALAR *v by an equal 0-d tensor (a NumPy scalar: not weak, not ndarray), as a
   new reference; other values are left alone.  0, or -1 with MemoryError (*v unchanged). */
RT_HIDDEN int scalar_box(Interp *I, Value *v);

/* a OP b for the binary ufunc uf (arithmetic or comparison) when both operands are NumPy
   scalars, Python scalars or 0-d tensors (not two Python scalars: those follow Python's
   arithmetic), or when one is a C-contiguous tensor of 1..SMALL_TENSOR_MAX elements and the
   other a scalar or a tensor of the same shape and dtype.  Returns 1 with *out a new value
   (V_SCALAR for scalars, a new tensor otherwise), 0 when not handled (nothing recorded), or -1
   with MemoryError.  Mirrors ufunc_binary (numpy.add, numpy.less, ...) without its iterator. */
RT_HIDDEN int scalar_binary(Interp *I, BinaryUfunc uf, Value a, Value b, Value *out);

/* v as a double when it is a float64 NumPy scalar (strong) or a Python float or int (weak:
   with a float64 scalar, the loop is float64 and the int converts as NumPy converts it). */
static inline bool scalar_f64_of(Value v, double *d, bool *strong) {
  switch (v.type) {
  case V_SCALAR:
    if (v.sdt != TSR_FLOAT64) return false;
    memcpy(d, &v.i, 8);
    *strong = true;
    return true;
  case V_FLOAT: *d = v.f; return true;
  case V_INT: *d = (double)v.i; return true;
  default: return false;
  }
}

/* The commonest scalar step of a loop, float64 OP float64 for + - * / (one operand at least a
   float64 NumPy scalar, the other one too or a Python float or int), without the general
   resolution: 1 with *out a V_SCALAR, or 0 when not handled.  A result that is finite and normal raised no FPU flag (overflow, invalid,
   divide and underflow all give inf, nan, 0 or a subnormal), so no seterr mode can want a
   warning; other results go the general way. */
static inline int scalar_f64_binary(BinaryUfunc uf, Value a, Value b, Value *out) {
  double x, y, r;
  bool strong = false;
  if (!scalar_f64_of(a, &x, &strong) || !scalar_f64_of(b, &y, &strong) || !strong) return 0;
  switch (uf) {
  case UF_ADD: r = x + y; break;
  case UF_SUBTRACT: r = x - y; break;
  case UF_MULTIPLY: r = x * y; break;
  case UF_TRUE_DIVIDE: r = x / y; break;
  default: return 0;
  }
  if (!(fabs(r) >= DBL_MIN && fabs(r) <= DBL_MAX)) return 0;
  out->type = V_SCALAR;
  out->sdt = TSR_FLOAT64;
  memcpy(&out->i, &r, 8);
  return 1;
}

/* -a for a V_SCALAR float or int64 (numpy.negative).  1 with *out, or 0 when not handled. */
RT_HIDDEN int scalar_negative(Value a, Value *out);

/* Byte address of element idx of t (an int for 1-d t, or a tuple of t->ndim ints), or NULL
   when idx is anything else or out of bounds. */
static inline char *scalar_element_at(Tensor *t, Value idx) {
  int64_t off = t->offset;
  if (idx.type == V_INT) {
    if (t->ndim != 1) return NULL;
    int64_t i = idx.i, n = t->shape[0];
    if (i < 0) i += n;
    if (i < 0 || i >= n) return NULL;
    off += i * t->strides[0];
  } else if (idx.type == V_TUPLE) {
    List *l = as_list(idx);
    if (l->n == 0 || l->n != t->ndim) return NULL;
    for (int k = 0; k < t->ndim; k++) {
      if (l->items[k].type != V_INT) return NULL;
      int64_t i = l->items[k].i, n = t->shape[k];
      if (i < 0) i += n;
      if (i < 0 || i >= n) return NULL;
      off += i * t->strides[k];
    }
  } else {
    return NULL;
  }
  return t->storage->data + off * (int64_t)dtype_size(t->dtype);
}

/* t[idx] when idx is an int (t 1-d) or a tuple of t->ndim ints, in bounds: 1 with *out a
   V_SCALAR of t's dtype (what index_get's 0-d result holds), 0 when not handled. */
static inline int scalar_index_get(Tensor *t, Value idx, Value *out) {
  const char *p = scalar_element_at(t, idx);
  if (!p) return 0;
  out->type = V_SCALAR;
  out->sdt = (uint8_t)t->dtype;
  out->i = 0;
  if (dtype_size(t->dtype) == 8) memcpy(&out->i, p, 8);   /* a constant size: one load */
  else memcpy(&out->i, p, dtype_size(t->dtype));
  return 1;
}

/* t[idx] = v for the same indices, when v is a NumPy scalar (V_SCALAR or 0-d tensor) of t's
   dtype, a Python float and t is float64/float32, or a Python int and t is int64; t
   writable.  1 when stored, 0 when not handled. */
RT_HIDDEN int scalar_index_set(Tensor *t, Value idx, Value v);

#endif
