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

/* A scalar operand by value: its dtype, NEP 50 weak kind and element bytes. */
typedef struct Num { DType dt; WeakKind weak; int64_t bits; } Num;

static bool num_of(Value v, Num *n) {
  n->bits = 0;
  switch (v.type) {
  case V_SCALAR: n->dt = (DType)v.sdt; n->weak = WEAK_NONE; n->bits = v.i; return true;
  case V_INT: n->dt = TSR_INT64; n->weak = WEAK_INT; n->bits = v.i; return true;
  case V_FLOAT: n->dt = TSR_FLOAT64; n->weak = WEAK_FLOAT; memcpy(&n->bits, &v.f, 8); return true;
  case V_TENSOR:
    if (v.t->ndim != 0) return false;
    n->dt = v.t->dtype; n->weak = (WeakKind)v.t->weak;
    memcpy(&n->bits, tensor_data(v.t), dtype_size(v.t->dtype));
    return true;
  default: return false;
  }
}

static double num_f64(const Num *n) {
  switch (n->dt) {
  case TSR_FLOAT64: { double d; memcpy(&d, &n->bits, 8); return d; }
  case TSR_FLOAT32: { float f; memcpy(&f, &n->bits, 4); return f; }
  default: return (double)n->bits;   /* int64 */
  }
}

static float num_f32(const Num *n) {
  switch (n->dt) {
  case TSR_FLOAT64: { double d; memcpy(&d, &n->bits, 8); return (float)d; }
  case TSR_FLOAT32: { float f; memcpy(&f, &n->bits, 4); return f; }
  default: return (float)n->bits;   /* int64 */
  }
}

/* quick_resolve for two scalar operands held by value. */
static bool quick_resolve_num(BinaryUfunc uf, const Num *a, const Num *b, DType *ct, DType *ot) {
  DType t;
  if (!a->weak && !b->weak) {
    if (a->dt != b->dt || !common_type(a->dt)) return false;
    t = a->dt;
  } else {
    const Num *strong = a->weak ? b : a, *weak = a->weak ? a : b;
    if (strong->weak || !common_type(strong->dt) || weak->weak == WEAK_BOOL) return false;
    if (strong->dt == TSR_FLOAT32 && weak->weak == WEAK_FLOAT && !(fabs(num_f64(weak)) <= FLT_MAX))
      return false;   /* beyond float32's range a Python float makes float64 */
    t = weak->weak == WEAK_FLOAT && strong->dt == TSR_INT64 ? TSR_FLOAT64 : strong->dt;
  }
  if (uf == UF_TRUE_DIVIDE && t == TSR_INT64) t = TSR_FLOAT64;
  *ct = t;
  *ot = is_predicate(uf) ? TSR_BOOL : t;
  return true;
}

#define COMPARE(uf, x, y)                                                                 \
  ((uf) == UF_EQUAL ? (x) == (y) : (uf) == UF_NOT_EQUAL ? (x) != (y) :                   \
   (uf) == UF_LESS ? (x) < (y) : (uf) == UF_LESS_EQUAL ? (x) <= (y) :                    \
   (uf) == UF_GREATER ? (x) > (y) : (x) >= (y))

/* x OP y in dtype ct (float64, float32 or int64), as the ufunc loops compute it: one IEEE
   operation in ct, or exact int64 arithmetic.  0 (not handled) for non-finite float operands
   or results and int64 overflow, where NumPy may warn. */
static int num_compute(BinaryUfunc uf, DType ct, const Num *a, const Num *b, Value *out) {
  out->type = V_SCALAR;
  out->i = 0;
  bool pred = is_predicate(uf);
  /* one IEEE operation in T (double or float) */
#define FLOAT_CASE(DT, T, GET, SIZE)                                                        \
  if (ct == DT) {                                                                           \
    T x = GET(a), y = GET(b), r;                                                            \
    if (!isfinite(x) || !isfinite(y)) return 0;                                             \
    if (pred) { out->sdt = TSR_BOOL; bool p = COMPARE(uf, x, y); memcpy(&out->i, &p, 1); return 1; } \
    switch (uf) {                                                                           \
    case UF_ADD: r = x + y; break;                                                          \
    case UF_SUBTRACT: r = x - y; break;                                                     \
    case UF_MULTIPLY: r = x * y; break;                                                     \
    default: r = x / y; break;                                                              \
    }                                                                                       \
    if (!isfinite(r)) return 0;                                                             \
    out->sdt = DT;                                                                          \
    memcpy(&out->i, &r, SIZE);                                                              \
    return 1;                                                                               \
  }
  FLOAT_CASE(TSR_FLOAT64, double, num_f64, 8)
  FLOAT_CASE(TSR_FLOAT32, float, num_f32, 4)
#undef FLOAT_CASE
  int64_t x = a->bits, y = b->bits, r;   /* int64 */
  if (pred) { out->sdt = TSR_BOOL; bool p = COMPARE(uf, x, y); memcpy(&out->i, &p, 1); return 1; }
  bool over;
  switch (uf) {
  case UF_ADD: over = __builtin_add_overflow(x, y, &r); break;
  case UF_SUBTRACT: over = __builtin_sub_overflow(x, y, &r); break;
  case UF_MULTIPLY: over = __builtin_mul_overflow(x, y, &r); break;
  default: return 0;
  }
  if (over) return 0;
  out->sdt = TSR_INT64;
  out->i = r;
  return 1;
}

/* Writes scalar n converted to ct (float64, float32 or int64, as quick_resolve_num allows)
   into buf; false for a non-finite float (left to the general path). */
static bool num_to(DType ct, const Num *n, char *buf) {
  if (ct == TSR_FLOAT64) { double d = num_f64(n); memcpy(buf, &d, 8); return isfinite(d); }
  if (ct == TSR_FLOAT32) { float f = num_f32(n); memcpy(buf, &f, 4); return isfinite(f); }
  memcpy(buf, &n->bits, 8);
  return true;
}

/* t when v is a C-contiguous tensor of 1..SMALL_TENSOR_MAX elements, else NULL. */
static Tensor *small_of(Value v) {
  if (v.type != V_TENSOR || v.t->ndim == 0) return NULL;
  int64_t n = tensor_size(v.t);
  return n >= 1 && n <= SMALL_TENSOR_MAX && tensor_is_contiguous(v.t) ? v.t : NULL;
}

/* Can the result of dtype ot be written over t?  When nothing but the evaluator's operand
   holds t and its storage (a temporary such as x*0.5 in x*0.5 + y), as NumPy elides
   temporaries. */
static bool reusable(const Tensor *t, DType ot) {
  return t && t->refcnt == 1 && t->dtype == ot && !t->readonly && t->storage->refcnt == 1 &&
         t->storage->owned && !t->storage->readonly;
}

/* ta OP tb where each side is a small tensor (ta/tb) or a scalar (na/nb), one at least a
   tensor, in loop dtype ct giving ot.  Same-shape tensors of dtype ct only. */
static int small_compute(Interp *I, BinaryUfunc uf, DType ct, DType ot, Tensor *ta,
                         const Num *na, Tensor *tb, const Num *nb, Value *out) {
  Tensor *shape_of = ta ? ta : tb;
  if (ta && tb) {
    if (ta->ndim != tb->ndim) return 0;
    for (int i = 0; i < ta->ndim; i++) if (ta->shape[i] != tb->shape[i]) return 0;
  }
  if ((ta && ta->dtype != ct) || (tb && tb->dtype != ct)) return 0;
  _Alignas(8) char sa[8], sb[8];
  _Alignas(64) char res[SMALL_TENSOR_MAX * 8];
  char *d[3] = {res, sa, sb};
  int64_t steps[3] = {(int64_t)dtype_size(ot), 0, 0};
  if (ta) { d[1] = tensor_data(ta); steps[1] = (int64_t)dtype_size(ct); }
  else if (!num_to(ct, na, sa)) return 0;
  if (tb) { d[2] = tensor_data(tb); steps[2] = (int64_t)dtype_size(ct); }
  else if (!num_to(ct, nb, sb)) return 0;
  int64_t n = tensor_size(shape_of);
  ufunc_binary_loop(uf, ct)(d, steps, n, NULL);
  if (!is_predicate(uf) && dtype_is_float(ct)) {
    /* a non-finite element may come with a NumPy warning: leave it to the general path */
    for (int64_t i = 0; i < n; i++)
      if (!isfinite(float_at(ct, res + i * steps[0]))) return 0;
  }
  Tensor *r;
  if (reusable(ta, ot)) r = tensor_retain(ta);
  else if (reusable(tb, ot)) r = tensor_retain(tb);
  else if (!(r = tensor_empty(&I->ctx, ot, shape_of->ndim, shape_of->shape))) return -1;
  memcpy(tensor_data(r), res, (size_t)n * dtype_size(ot));
  *out = v_tensor(r);
  return 1;
}

int scalar_binary(Interp *I, BinaryUfunc uf, Value a, Value b, Value *out) {
  if (scalar_f64_binary(uf, a, b, out)) return 1;
  if (!fast_ufunc(uf)) return 0;
  /* results are checked for non-finite values only: an underflow to a finite value that
     seterr(under=...) wants reported goes the general path, which tests the FPU flags */
  if (!is_predicate(uf) && fperr_mode(&I->ctx, 2) != FPMODE_IGNORE) return 0;
  Num x, y;
  if (num_of(a, &x) && num_of(b, &y)) {
    DType qct, qot;
    if (x.weak && y.weak) return 0;
    if (quick_resolve_num(uf, &x, &y, &qct, &qot)) return num_compute(uf, qct, &x, &y, out);
  } else {
    Tensor *ta = small_of(a), *tb = small_of(b);
    Num na, nb;
    DType qct, qot;
    if ((ta || tb) && (ta || num_of(a, &na)) && (tb || num_of(b, &nb))) {
      if (ta) { na.dt = ta->dtype; na.weak = WEAK_NONE; na.bits = 0; }
      if (tb) { nb.dt = tb->dtype; nb.weak = WEAK_NONE; nb.bits = 0; }
      if (quick_resolve_num(uf, &na, &nb, &qct, &qot)) {
        int r = small_compute(I, uf, qct, qot, ta, &na, tb, &nb, out);
        if (r) return r;
      }
    }
  }
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
  char *p = scalar_element_at(t, idx);
  if (!p) return 0;
  cast_element(t->dtype, p, sdt, src);
  return 1;
}
