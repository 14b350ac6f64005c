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

/* -a for a V_SCALAR float or int64 (numpy.negative).  1 with *out, or 0 when not handled. */
RT_HIDDEN int scalar_negative(Value a, Value *out);

/* t[idx] when idx is an int (t 1-d) or a tuple of t->ndim ints, in bounds: 1 with *out a
   V_SCALAR of t's dtype (what index_get's 0-d result holds), 0 when not handled. */
RT_HIDDEN int scalar_index_get(Tensor *t, Value idx, Value *out);

/* t[idx] = v for the same indices, when v is a NumPy scalar (V_SCALAR or 0-d tensor) of t's
   dtype, a Python float and t is float64/float32, or a Python int and t is int64; t
   writable.  1 when stored, 0 when not handled. */
RT_HIDDEN int scalar_index_set(Tensor *t, Value idx, Value v);

#endif
