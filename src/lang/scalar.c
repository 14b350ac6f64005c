/*
** scalar.c -- the evaluator's fast paths for NumPy scalars and tiny tensors: inline scalar
** values (V_SCALAR) for indexing and arithmetic, and elementwise operators on tensors of a
** few elements without the general iterator, fusion or thread pool (see scalar.h).
*/
#include "scalar.h"
#include "../runtime/fuse.h"

#include <float.h>
#include <math.h>
#include <string.h>

int scalar_box(Interp *I, Value *v) {
  if (v->type != V_SCALAR) return 0;
  Tensor *t = tensor_empty(&I->ctx, (DType)v->sdt, 0, NULL);
  if (!t) return -1;
  memcpy(tensor_data(t), &v->i, dtype_size((DType)v->sdt));
  *v = v_tensor(t);
  return 0;
}

/* An operand of scalar_binary seen as a tensor: real tensors as they are, scalars held in
   values as a header on the stack (only dtype, weak, ndim and the element are read). */
typedef struct Operand {
  Tensor *t;
  int64_t bits;
  Storage s;
  Tensor h;
} Operand;

enum { OPERAND_NONE, OPERAND_SCALAR, OPERAND_SMALL };

static void operand_inline(Operand *o, DType dt, WeakKind weak) {
  o->s.refcnt = 1; o->s.ctx = NULL; o->s.data = (char *)&o->bits; o->s.nbytes = 8;
  o->s.owned = false; o->s.readonly = true; o->s.release = NULL; o->s.ud = NULL;
  o->h.refcnt = 1; o->h.ctx = NULL; o->h.storage = &o->s; o->h.dtype = dt; o->h.ndim = 0;
  o->h.weak = (uint8_t)weak; o->h.ndarray = 0; o->h.readonly = 1; o->h.offset = 0;
  o->t = &o->h;
}

static int operand(Value v, Operand *o) {
  o->bits = 0;
  switch (v.type) {
  case V_SCALAR: o->bits = v.i; operand_inline(o, (DType)v.sdt, WEAK_NONE); return OPERAND_SCALAR;
  case V_BOOL: { bool b = v.b; memcpy(&o->bits, &b, sizeof b); }
    operand_inline(o, TSR_BOOL, WEAK_BOOL); return OPERAND_SCALAR;
  case V_INT: o->bits = v.i; operand_inline(o, TSR_INT64, WEAK_INT); return OPERAND_SCALAR;
  case V_FLOAT: memcpy(&o->bits, &v.f, sizeof v.f); operand_inline(o, TSR_FLOAT64, WEAK_FLOAT);
    return OPERAND_SCALAR;
  case V_TENSOR: {
    o->t = v.t;
    if (v.t->ndim == 0) return OPERAND_SCALAR;
    int64_t n = tensor_size(v.t);
    return n >= 1 && n <= SMALL_TENSOR_MAX && tensor_is_contiguous(v.t) ? OPERAND_SMALL
                                                                          : OPERAND_NONE;
  }
  default: return OPERAND_NONE;
  }
}

/* The ufuncs with a fast path: none of them can raise an error or warning on finite float
   operands giving a finite result, or on int64 operands that do not overflow. */
static bool fast_ufunc(BinaryUfunc uf) {
  switch (uf) {
  case UF_ADD: case UF_SUBTRACT: case UF_MULTIPLY: case UF_TRUE_DIVIDE:
  case UF_EQUAL: case UF_NOT_EQUAL: case UF_LESS: case UF_LESS_EQUAL: case UF_GREATER:
  case UF_GREATER_EQUAL:
    return true;
  default:
    return false;
  }
}

static bool is_predicate(BinaryUfunc uf) { return uf >= UF_EQUAL && uf <= UF_GREATER_EQUAL; }

static double float_at(DType dt, const char *p) {
  if (dt == TSR_FLOAT64) { double d; memcpy(&d, p, sizeof d); return d; }
  float f; memcpy(&f, p, sizeof f); return f;
}

/* Would int64 x OP y overflow (OP add, subtract or multiply; false for the others)? */
static bool int64_overflows(BinaryUfunc uf, int64_t x, int64_t y) {
  int64_t r;
  switch (uf) {
  case UF_ADD: return __builtin_add_overflow(x, y, &r);
  case UF_SUBTRACT: return __builtin_sub_overflow(x, y, &r);
  case UF_MULTIPLY: return __builtin_mul_overflow(x, y, &r);
  default: return false;
  }
}

static bool common_type(DType d) { return d == TSR_FLOAT64 || d == TSR_FLOAT32 || d == TSR_INT64; }

/* ufunc_binary_resolve's answer for the usual cases, without its general machinery: operands
   of one dtype among float64, float32, int64, or one such operand with a Python scalar (NEP
   50: the weak scalar takes the other's type, an int meeting a float type becomes it, a float
   meeting int64 gives float64).  False for anything else. */
static bool quick_resolve(BinaryUfunc uf, const Tensor *a, const Tensor *b, DType *ct,
                          DType *ot) {
  DType t;
  if (!a->weak && !b->weak) {
    if (a->dtype != b->dtype || !common_type(a->dtype)) return false;
    t = a->dtype;
  } else {
    const Tensor *strong = a->weak ? b : a, *weak = a->weak ? a : b;
    if (!common_type(strong->dtype) || weak->weak == WEAK_BOOL) return false;
    if (strong->dtype == TSR_FLOAT32 && weak->weak == WEAK_FLOAT) {
      double v;   /* beyond float32's range a Python float makes float64 */
      memcpy(&v, tensor_data(weak), sizeof v);
      if (!(fabs(v) <= FLT_MAX)) return false;
    }
    t = weak->weak == WEAK_FLOAT && strong->dtype == TSR_INT64 ? TSR_FLOAT64 : strong->dtype;
  }
  if (uf == UF_TRUE_DIVIDE && t == TSR_INT64) t = TSR_FLOAT64;
  *ct = t;
  *ot = is_predicate(uf) ? TSR_BOOL : t;
  return true;
}

/* Element p of dtype sdt converted to dt into dst (8 bytes), as the ufuncs' casts do. */
static void cast_element(DType dt, char *dst, DType sdt, const char *p) {
  if (sdt == dt) memcpy(dst, p, dtype_size(dt));
  else dtype_cast_strided(dt, dst, 0, sdt, p, 0, 1);
}

/* Both operands 0-d. */
static int binary_scalars(BinaryUfunc uf, DType ct, DType ot, Operand *oa, Operand *ob,
                          Value *out) {
  _Alignas(8) char x[8] = {0}, y[8] = {0}, r[8] = {0};
  cast_element(ct, x, oa->t->dtype, tensor_data(oa->t));
  cast_element(ct, y, ob->t->dtype, tensor_data(ob->t));
  if (dtype_is_float(ct)) {
    if (!isfinite(float_at(ct, x)) || !isfinite(float_at(ct, y))) return 0;
  } else {
    int64_t xi, yi;
    memcpy(&xi, x, 8); memcpy(&yi, y, 8);
    if (int64_overflows(uf, xi, yi)) return 0;
  }
  char *d[3] = {r, x, y};
  int64_t steps[3] = {0, 0, 0};
  ufunc_binary_loop(uf, ct)(d, steps, 1, NULL);
  if (!is_predicate(uf) && dtype_is_float(ct) && !isfinite(float_at(ct, r))) return 0;
  out->type = V_SCALAR;
  out->sdt = (uint8_t)ot;
  memcpy(&out->i, r, 8);
  return 1;
}

/* At least one operand a small tensor. */
static int binary_small(Interp *I, BinaryUfunc uf, DType ct, DType ot, Operand *oa, int ka,
                        Operand *ob, int kb, Value *out) {
  Tensor *shape_of = ka == OPERAND_SMALL ? oa->t : ob->t;
  if (ka == OPERAND_SMALL && kb == OPERAND_SMALL) {
    if (oa->t->ndim != ob->t->ndim) return 0;
    for (int i = 0; i < oa->t->ndim; i++) if (oa->t->shape[i] != ob->t->shape[i]) return 0;
  }
  _Alignas(8) char bufs[2][8] = {{0}, {0}};
  Operand *ops[2] = {oa, ob};
  int kinds[2] = {ka, kb};
  char *d[3];
  int64_t steps[3];
  for (int k = 0; k < 2; k++) {
    Tensor *t = ops[k]->t;
    if (kinds[k] == OPERAND_SMALL) {
      if (t->dtype != ct) return 0;
      d[k + 1] = tensor_data(t);
      steps[k + 1] = (int64_t)dtype_size(ct);
    } else {
      cast_element(ct, bufs[k], t->dtype, tensor_data(t));
      if (dtype_is_float(ct) && !isfinite(float_at(ct, bufs[k]))) return 0;
      d[k + 1] = bufs[k];
      steps[k + 1] = 0;
    }
  }
  Tensor *r = tensor_empty(&I->ctx, ot, shape_of->ndim, shape_of->shape);
  if (!r) return -1;
  int64_t n = tensor_size(r);
  d[0] = tensor_data(r);
  steps[0] = (int64_t)dtype_size(ot);
  ufunc_binary_loop(uf, ct)(d, steps, n, NULL);
  if (!is_predicate(uf) && dtype_is_float(ct)) {
    /* a non-finite element may come with a NumPy warning: leave it to the general path */
    for (int64_t i = 0; i < n; i++)
      if (!isfinite(float_at(ct, d[0] + i * steps[0]))) { tensor_release(r); return 0; }
  }
  *out = v_tensor(r);
  return 1;
}

int scalar_binary(Interp *I, BinaryUfunc uf, Value a, Value b, Value *out) {
  if (!fast_ufunc(uf)) return 0;
  Operand oa, ob;
  int ka = operand(a, &oa);
  if (ka == OPERAND_NONE) return 0;
  int kb = operand(b, &ob);
  if (kb == OPERAND_NONE || (oa.t->weak && ob.t->weak)) return 0;
  DType ct, ot;
  if (!quick_resolve(uf, oa.t, ob.t, &ct, &ot)) {
    Ctx *c = &I->ctx;
    int rc = ufunc_binary_resolve(c, uf, oa.t, ob.t, &ct, &ot);
    if (rc != 0) {   /* errors and special loops: the general path reports or runs them */
      if (rc < 0) ctx_clear(c);
      return 0;
    }
  }
  if (ct != TSR_FLOAT64 && ct != TSR_FLOAT32 && ct != TSR_INT64) return 0;
  if (ka == OPERAND_SCALAR && kb == OPERAND_SCALAR) return binary_scalars(uf, ct, ot, &oa, &ob, out);
  if (ct == TSR_INT64 && !is_predicate(uf) && (ka == OPERAND_SCALAR || kb == OPERAND_SCALAR))
    return 0;   /* keep integer scalar-with-array overflow questions on the general path */
  return binary_small(I, uf, ct, ot, &oa, ka, &ob, kb, out);
}

int scalar_negative(Value a, Value *out) {
  if (a.type != V_SCALAR) return 0;
  *out = a;
  switch (a.sdt) {
  case TSR_FLOAT64: { double d; memcpy(&d, &a.i, 8); d = -d; memcpy(&out->i, &d, 8); return 1; }
  case TSR_FLOAT32: { float f; memcpy(&f, &a.i, 4); f = -f; memcpy(&out->i, &f, 4); return 1; }
  case TSR_INT64:
    if (a.i == INT64_MIN) return 0;
    out->i = -a.i;
    return 1;
  default: return 0;
  }
}

/* Byte address of element idx of t (an int for 1-d t, or a tuple of t->ndim ints), or NULL
   when idx is anything else or out of bounds. */
static char *element_at(Tensor *t, Value idx) {
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

int scalar_index_get(Tensor *t, Value idx, Value *out) {
  const char *p = element_at(t, idx);
  if (!p) return 0;
  out->type = V_SCALAR;
  out->sdt = (uint8_t)t->dtype;
  out->i = 0;
  memcpy(&out->i, p, dtype_size(t->dtype));
  return 1;
}

int scalar_index_set(Tensor *t, Value idx, Value v) {
  if (t->readonly || t->storage->readonly) return 0;
  const void *src;
  DType sdt;
  switch (v.type) {
  case V_SCALAR: src = &v.i; sdt = (DType)v.sdt; if (sdt != t->dtype) return 0; break;
  case V_TENSOR:
    if (v.t->ndim != 0 || v.t->dtype != t->dtype) return 0;
    src = tensor_data(v.t); sdt = t->dtype; break;
  case V_FLOAT:
    if (t->dtype != TSR_FLOAT64 && t->dtype != TSR_FLOAT32) return 0;
    src = &v.f; sdt = TSR_FLOAT64; break;
  case V_INT:
    if (t->dtype != TSR_INT64) return 0;
    src = &v.i; sdt = TSR_INT64; break;
  default: return 0;
  }
  char *p = element_at(t, idx);
  if (!p) return 0;
  dtype_cast_strided(t->dtype, p, 0, sdt, src, 0, 1);
  return 1;
}
