/*
** builtins.h -- helpers shared by the builtins_*.c files: result storing, option parsing and
** forwarding a method call (x.sum(...)) to its function (sum(x, ...)).
*/
#ifndef TSR_BUILTINS_H
#define TSR_BUILTINS_H

#include "value.h"

/* Was an optional argument given as something other than None? */
static inline bool given(Value v) { return v.type != V_UNDEF && v.type != V_NONE; }

/* Stores a tensor result (taking the reference); NULL means the error is recorded. */
static inline int ret_tensor(Tensor *t, Value *out) {
  if (!t) return -1;
  *out = v_tensor(t);
  return 0;
}

/* Stores a freshly constructed heap value; V_UNDEF means the constructor recorded an error. */
static inline int ret_value(Value v, Value *out) {
  if (v.type == V_UNDEF) return -1;
  *out = v;
  return 0;
}

/* A boolean option (keepdims=, copy=, endpoint= ...): def when omitted; else its truth. */
static inline int get_bool(Interp *I, Value v, bool def, bool *out) {
  if (v.type == V_UNDEF) { *out = def; return 0; }
  int truth = value_truth(I, v);
  if (truth < 0) return -1;
  *out = truth != 0;
  return 0;
}

/* The operand of a function taking an array-like (strong: Python scalars become int64,
   float64 or bool 0-d tensors).  New reference or NULL. */
static inline Tensor *arg_tensor(Interp *I, Value v) { return value_to_tensor_strong(I, v, -1); }

/* Calls fn with the method receiver a->self prepended to the positional arguments, so that
   x.reshape(...) runs reshape(x, ...).  TypeError beyond TSR_MAXDIMS + 1 positional
   arguments. */
RT_HIDDEN int call_with_self(Interp *I, const Args *a, BuiltinFn fn, Value *out);

/* The out= argument (builtins_math.c): None/omitted gives *out NULL, else a tensor (or a
   1-tuple holding one), borrowed; TypeError "return arrays must be of ArrayType".  0 or -1. */
RT_HIDDEN int builtins_out_arg(Interp *I, Value v, Tensor **out);
/* Delivers result r (owned; NULL = error already recorded): into the out= tensor o when given
   (cast and broadcast into it; o is then the result, a new reference), else r itself.  0 or
   -1 (r released). */
RT_HIDDEN int builtins_deliver(Interp *I, Tensor *r, Tensor *o, Value *out);

/* Index arrays for ufunc.at and ravel_multi_index (builtins_indices.c): replaces each of the
   n integer tensors ts[k] (owned) by a new C-contiguous int64 copy broadcast to their common
   shape.  0, or -1 with NumPy's broadcast ValueError (ts[k] still owned by the caller). */
RT_HIDDEN int broadcast_int64(Ctx *c, Tensor **ts, int n);

/* Shape helpers of builtins_array.c shared with builtins_shape.c (all new references or 0/-1
   with the error recorded):
   insert_unit_axes: a view of t with size-1 axes at the given result positions (expand_dims);
   at_least: the view of t with at least `want` (1..3) dims as numpy.atleast_Nd shapes it;
   sequence_tensors: a list/tuple of array-likes as an allocated array of *n strong tensors
   ("need at least one array to WHAT" when empty), freed by free_tensors;
   concat_tensors: numpy.concatenate of n tensors along axis into dtype dt (-1: promoted). */
RT_HIDDEN Tensor *insert_unit_axes(Interp *I, Tensor *t, const int *axes, int naxes);
RT_HIDDEN Tensor *at_least(Interp *I, Tensor *t, int want);
RT_HIDDEN int sequence_tensors(Interp *I, Value seq, const char *what, Tensor ***ts, int64_t *n);
RT_HIDDEN void free_tensors(Interp *I, Tensor **ts, int64_t n);
RT_HIDDEN Tensor *concat_tensors(Interp *I, Tensor *const *ts, int64_t n, int axis, int dt);

#endif
