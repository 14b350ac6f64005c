/*
** value.h -- values of the tsr language, the interpreter, and the interface builtins use.
**
** A Value is a small tagged union: immediate Python scalars (None, bool, int, float), a tensor
** (refcounted by the runtime), or a refcounted heap object (str, list, tuple, slice, range,
** user function, bound method, namespace).  0-d tensors are NumPy scalars.
*/
#ifndef TSR_VALUE_H
#define TSR_VALUE_H

#include "ast.h"

typedef enum {
  V_UNDEF,      /* "no value": an omitted argument; never visible to scripts */
  V_NONE, V_BOOL, V_INT, V_FLOAT, V_ELLIPSIS,
  V_DTYPE,      /* dt: a dtype object (float32, int64, np.dtype('f4')) */
  V_BUILTIN,    /* bi: a builtin function (static, not refcounted) */
  V_TENSOR,     /* t */
  V_SCALAR,     /* a NumPy scalar held inline (dtype in sdt, element bytes in i): made and
                   used only inside the evaluator (src/lang/scalar.c), boxed into a 0-d tensor
                   before any other code sees it */
  V_STR, V_LIST, V_TUPLE, V_SLICE, V_RANGE, V_FUNC, V_METHOD, V_NAMESPACE, V_CFUNC,
  V_COUNT
} VType;

/* size: bytes allocated.  Containers that can hold references to other containers (list,
   tuple, function defaults, bound method, slice) are also linked into their interpreter's
   list of tracked objects (gc_prev/gc_next; NULL when untracked) for the cycle collector,
   which uses gc_refs as scratch (value.c). */
typedef struct Obj {
  int64_t refcnt; Ctx *ctx; size_t size; uint8_t type;
  struct Obj *gc_prev, *gc_next; int64_t gc_refs;
} Obj;
typedef struct Interp Interp;
typedef struct Builtin Builtin;

typedef struct Value {
  uint8_t type;          /* VType */
  uint8_t sdt;           /* V_SCALAR only: its DType */
  union {
    bool b; int64_t i; double f; DType dt; const Builtin *bi;
    Tensor *t; Obj *o;
  };
} Value;

/* A str: len bytes of UTF-8, NUL-terminated; ncp code points (Python's len), ascii when
   every byte is (then code point i is byte i). */
typedef struct Str   { Obj h; size_t len, ncp; bool ascii; char s[]; } Str;
typedef struct List  { Obj h; int64_t n, cap; Value *items; } List;   /* list and tuple */
typedef struct Slice { Obj h; Value start, stop, step; } Slice;       /* V_NONE when omitted */
typedef struct Range { Obj h; int64_t start, stop, step; } Range;
typedef struct Dict Dict;                                              /* name -> Value */
typedef struct Namespace { Obj h; const char *name; Dict *members; } Namespace;
typedef struct Method { Obj h; const Builtin *bi; Value self; } Method; /* x.sum */

/* Constructors of immediate values. */
static inline Value v_undef(void) { Value v; v.type = V_UNDEF; v.i = 0; return v; }
static inline Value v_none(void) { Value v; v.type = V_NONE; v.i = 0; return v; }
static inline Value v_bool(bool b) { Value v; v.type = V_BOOL; v.i = 0; v.b = b; return v; }
static inline Value v_int(int64_t i) { Value v; v.type = V_INT; v.i = i; return v; }
static inline Value v_float(double f) { Value v; v.type = V_FLOAT; v.f = f; return v; }
static inline Value v_dtype(DType d) { Value v; v.type = V_DTYPE; v.i = 0; v.dt = d; return v; }
/* Takes the reference to t (t must not be NULL). */
static inline Value v_tensor(Tensor *t) { Value v; v.type = V_TENSOR; v.t = t; return v; }
static inline bool v_is_obj(Value v) { return v.type >= V_STR; }

/* Reference counting of values (immediates need none).  The heap-object part is
   value_obj_free (value.c), called when a count reaches zero. */
RT_HIDDEN void value_obj_free(Obj *o);
static inline void value_incref(Value v) {
  if (v.type == V_TENSOR) v.t->refcnt++;
  else if (v_is_obj(v)) v.o->refcnt++;
}
/* Notes that tracked container o lost a reference but lives on: a cycle it is in may just
   have become garbage (value.c). */
RT_HIDDEN void value_gc_released(Obj *o);
static inline void value_decref(Value v) {
  if (v.type == V_TENSOR) {
    if (v.t->refcnt > 1) v.t->refcnt--;
    else tensor_release(v.t);
  } else if (v_is_obj(v)) {
    if (--v.o->refcnt == 0) value_obj_free(v.o);
    else if (v.o->gc_next) value_gc_released(v.o);
  }
}
static inline Value value_retain(Value v) { value_incref(v); return v; }

/* Heap constructors: new references, or a V_UNDEF value with MemoryError recorded. */
RT_HIDDEN Value value_str(Interp *I, const char *s, size_t len);
RT_HIDDEN Value value_list(Interp *I, int64_t n);    /* n items, all None */
RT_HIDDEN Value value_tuple(Interp *I, int64_t n);   /* n items, all None */
/* Appends (takes the reference to item); 0 or -1. */
RT_HIDDEN int list_append(Interp *I, Value list, Value item);
/* range(start, stop, step) object (step != 0 checked by the caller). */
RT_HIDDEN Value value_range(Interp *I, int64_t start, int64_t stop, int64_t step);
/* Convenience: a tuple of n ints (for shapes). */
RT_HIDDEN Value value_int_tuple(Interp *I, int n, const int64_t *items);

static inline List *as_list(Value v) { return (List *)v.o; }
static inline Str *as_str(Value v) { return (Str *)v.o; }

/* Python's truth value (None/False/0/0.0/""/[]/() false; a tensor of size 1 by its element,
   larger ones are ValueError "The truth value of an array with more than one element is
   ambiguous. Use a.any() or a.all()").  Returns 0/1, or -1 on error. */
RT_HIDDEN int value_truth(Interp *I, Value v);
/* Python's type name: "int", "float", "str", "list", "numpy.ndarray", "function" ... */
RT_HIDDEN const char *value_type_name(Value v);
/* repr() and str() as Python with NumPy print them (tensors via fmt_repr/fmt_str, floats as
   Python, tuples "(1, 2)", lists "[array([1, 2]), 3]", strings quoted in repr). */
RT_HIDDEN void value_repr(Interp *I, Buf *b, Value v);
RT_HIDDEN void value_to_string(Interp *I, Buf *b, Value v);

/* ---- conversions used by builtins; all record a TypeError/ValueError and return -1 or NULL
   on failure ---- */
/* A tensor from any array-like: tensors (new reference to the same tensor), Python scalars
   (weak 0-d tensors: bool, int64 or float64 with t->weak set), nested lists/tuples of those
   (numpy.array: common shape, promoted dtype; ragged is ValueError "setting an array element
   with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The
   detected shape was (2,) + inhomogeneous part.").  dtype >= 0 forces the dtype (a copy when
   it differs).  New reference. */
RT_HIDDEN Tensor *value_to_tensor(Interp *I, Value v, int dtype);
/* Like value_to_tensor but Python scalars give strong (non-weak) tensors. */
RT_HIDDEN Tensor *value_to_tensor_strong(Interp *I, Value v, int dtype);
/* Python int from an int, bool or integer 0-d/size-1 tensor (operator.index semantics:
   floats are TypeError "'float' object cannot be interpreted as an integer"). */
RT_HIDDEN int value_to_int(Interp *I, Value v, int64_t *out);
/* int(d) of a float: ValueError "cannot convert float NaN to integer", OverflowError for
   infinities and (until Python's big ints arrive) for values beyond int64.  0 or -1. */
RT_HIDDEN int value_float_to_int(Interp *I, double d, Value *out);
/* The Python number a NumPy scalar (a 0-d tensor that is not an ndarray) stands for: bool,
   int, or float (floats of every width; a uint64 beyond int64 too, until big ints arrive), as
   NumPy's scalars convert for format(), round() and int(); any other value is given back as
   it is (borrowed either way: nothing to release).  0 or -1. */
RT_HIDDEN int value_scalar_to_python(Interp *I, Value v, Value *out);
/* float() of a number or size-1 tensor. */
RT_HIDDEN int value_to_double(Interp *I, Value v, double *out);
/* A shape from an int or a tuple/list of ints (numpy's shape arguments); 0..32 dims; negative
   dims are ValueError "negative dimensions are not allowed" unless allow_minus1 permits one
   -1.  Returns 0 and sets *ndim. */
RT_HIDDEN int value_to_shape(Interp *I, Value v, int *ndim, int64_t *shape, bool allow_minus1);
/* axis argument: None (naxes = -1), an int, or a tuple of ints.  Returns 0. */
RT_HIDDEN int value_to_axes(Interp *I, Value v, int *axes, int *naxes);
/* dtype argument: a dtype value, a string ("float32"), a builtin type (int -> int64, float ->
   float64, bool -> bool).  V_NONE/V_UNDEF give -1 (*out untouched). */
RT_HIDDEN int value_to_dtype(Interp *I, Value v, int *out);

/* ---- builtins ---- */
/* Arguments of a call: positional then keyword; self is the receiver of a method call
   (V_UNDEF for plain calls).  All values are borrowed for the duration of the call. */
typedef struct Args {
  int npos; const Value *pos;
  int nkw; const char *const *kwnames; const Value *kw;
  Value self;
} Args;
/* A builtin stores its result (a new reference) in *out and returns 0, or records an error and
   returns -1 (leaving *out untouched). */
typedef int (*BuiltinFn)(Interp *I, const Args *a, Value *out);
struct Builtin {
  const char *ns;        /* NULL = a member of numpy; "builtins" = Python's builtins module;
                            "random", "linalg" = members of that submodule of numpy;
                            "ndarray" = a method of tensors (x.sum()) */
  const char *name;
  BuiltinFn fn;
  const char *doc;       /* "sum(a, axis=None, dtype=None, keepdims=False)\n\nSum of ..." */
};
/* The method `name` of a ufunc builtin (add.reduce, add.accumulate, add.outer, add.at:
   builtins_ufunc.c), or NULL; *is_ufunc tells whether bi is a ufunc at all. */
RT_HIDDEN const Builtin *builtins_ufunc_method(const Builtin *bi, const char *name,
                                               bool *is_ufunc);
/* Tables of builtins, each ending with a {NULL, NULL, NULL, NULL} entry.  Every builtins_*.c
   file defines one and lists it in builtin_tables (builtins.c). */
RT_HIDDEN extern const Builtin *const builtin_tables[];

/* Tensor attributes (x.shape, x.ndim, x.size, x.dtype, x.T, x.itemsize, x.nbytes, x.strides
   (bytes), x.flat is not needed yet).  Returns 0 and sets *out (new reference) when name is an
   attribute, 1 when it is not (no error recorded), -1 on error.  Methods (x.sum) are the
   "ndarray" entries of the builtin tables and are looked up by the evaluator. */
RT_HIDDEN int builtins_tensor_attr(Interp *I, Tensor *t, const char *name, Value *out);
/* x.flat = v (numpy.flatiter assignment): v's elements in C order written over t's, repeated
   cyclically when v has fewer (and cut when more), cast to t's dtype.  0, or -1 with the
   error (read-only t: ValueError). */
RT_HIDDEN int builtins_set_flat(Interp *I, Tensor *t, Value v);

/* Binds arguments by a spec such as "a,axis=,dtype=,out=,keepdims=" (positional-or-keyword
   names in order; those after a "|" or with "=" are optional; "*" starts keyword-only ones):
   fills slots[0..k) with borrowed values (V_UNDEF when omitted).  TypeError as Python:
   "sum() got an unexpected keyword argument 'foo'", "zeros() missing required argument
   'shape' (pos 1)", "takes at most 2 positional arguments (3 given)".  Returns 0 or -1. */
RT_HIDDEN int args_parse(Interp *I, const Args *a, const char *fname, const char *spec,
                         Value *slots);

/* Error helpers: record in the interpreter's Ctx; return -1. */
RT_HIDDEN Ctx *interp_ctx(Interp *I);
#define IERR_TYPE(I, ...)  ERR_TYPE(interp_ctx(I), __VA_ARGS__)
#define IERR_VALUE(I, ...) ERR_VALUE(interp_ctx(I), __VA_ARGS__)

/* Calls any callable value (builtin, method, user function, host function) with args;
   *out gets a new reference.  Returns 0 or -1. */
RT_HIDDEN int interp_call(Interp *I, Value fn, const Args *a, Value *out);
/* The operators on any two values, as the evaluator runs them: a OP b for op one of OP_ADD ..
   OP_BITXOR (interp_binary) or OP_LT .. OP_IS_NOT (interp_compare; a tensor comparison is an
   array of bools; charged WORK_OBJECT to the step budget).  *out gets a new reference.  0,
   or -1 with Python's TypeError (or the step budget's error). */
RT_HIDDEN int interp_binary(Interp *I, int op, Value a, Value b, Value *out);
RT_HIDDEN int interp_compare(Interp *I, int op, Value a, Value b, Value *out);
/* -a, +a, ~a, not a (op OP_NEG, OP_POS, OP_INVERT, OP_NOT). */
RT_HIDDEN int interp_unary(Interp *I, int op, Value a, Value *out);
/* Python's string formatting (format.c).  format_object appends format(v, spec[0..len)) to b (PyObject_Format)
   (the format-spec mini-language; NumPy scalars as the Python number they convert to; an
   empty spec is str(v)).  format_percent makes fmt % args (printf-style; args a tuple or one
   value) as a new str in *out.  0, or -1 with CPython's ValueError/TypeError. */
RT_HIDDEN int format_object(Interp *I, Buf *b, Value v, const char *spec, size_t len);
RT_HIDDEN int format_percent(Interp *I, Value fmt, Value args, Value *out);
/* Iteration over a list, tuple, str, range or tensor (its first axis): the number of items,
   and item i (new reference).  TypeError "'float' object is not iterable" for the others, and
   for NumPy scalars; "iteration over a 0-d array".  interp_iter_item charges WORK_OBJECT to
   the step budget.  0 or -1. */
RT_HIDDEN int interp_iter_len(Interp *I, Value v, int64_t *len);
/* obj.name and obj[key] as the evaluator runs them (new reference in *out).  0 or -1. */
RT_HIDDEN int interp_getattr(Interp *I, Value obj, const char *name, Value *out);
RT_HIDDEN int interp_getitem(Interp *I, Value obj, Value key, Value *out);
/* Code point i (0 <= i < ncp) of str v, and the slice start:stop:step (already clamped, as
   slice_indices gives them), as new strs (str.c).  0 or -1. */
RT_HIDDEN int str_item(Interp *I, Value v, int64_t i, Value *out);
/* Writes code point cp (< 0x110000) as UTF-8 into out (4 bytes of room); returns its length. */
RT_HIDDEN size_t utf8_put(char *out, uint32_t cp);
RT_HIDDEN int str_slice(Interp *I, Value v, int64_t start, int64_t stop, int64_t step, Value *out);
RT_HIDDEN int interp_iter_item(Interp *I, Value v, int64_t i, Value *out);
/* Writes to the state's output (stream 1 = stdout, 2 = stderr) through the write callback. */
RT_HIDDEN void interp_write(Interp *I, int stream, const char *s, size_t n);
/* Print options of the interpreter (set_printoptions changes them). */
RT_HIDDEN PrintOptions *interp_printoptions(Interp *I);
/* set_printoptions' threshold=, edgeitems=, sign=, floatmode= applied to po (V_UNDEF/None
   keep the value); ValueError/TypeError with NumPy's messages.  0 or -1 (builtins.c). */
RT_HIDDEN int printoptions_apply(Interp *I, Value thresh, Value edge, Value sign,
                                 Value floatmode, PrintOptions *po);
/* After a call of the builtin ns.name (ns NULL: a function, "ndarray": a method) with first
   argument or receiver `input` returned *out: makes a 0-d tensor result a real 0-d ndarray
   (t->ndarray, repr "array(5)") exactly when NumPy returns one, else a NumPy scalar; a shared
   tensor gets a new header on the same storage.  0, or -1 (MemoryError) after releasing *out
   (builtins_print.c). */
RT_HIDDEN int value_mark_ndarray(Interp *I, const char *ns, const char *name, Value input,
                                 Value *out);
/* Makes the 0-d tensor *out a real 0-d ndarray (want) or a NumPy scalar (!want), with a new
   header when the tensor is shared.  0, or -1 (MemoryError) after releasing *out. */
RT_HIDDEN int value_set_ndarray(Value *out, bool want);
/* The dict that get_printoptions returns (builtins_print.c): is v one, and its repr
   "{'edgeitems': 3, 'threshold': 1000, ...}" in NumPy's key order. */
RT_HIDDEN bool value_is_options_dict(Value v);
RT_HIDDEN void value_repr_options_dict(Interp *I, Buf *b, Value v);

#endif
