/*
** eval.c -- the tree-walking evaluator: statements, expressions, Python scalar arithmetic,
** operators on tensors (through the runtime's ufuncs), indexing, calls and scopes.
**
** Every eval_* function returns 0 with a new reference in *out, or -1 with the error in the
** Ctx.  The innermost failing node records its position (set_pos).
**
** Programs run on the virtual machine (vm.c, compile.c): it calls this file's operators on
** values (the eval_* functions at the end) and hands it what it does not compile yet (vm.h's
** escapes), on the same frame.  Top-level chunks enter through eval_chunk.
*/
#include "interp.h"
#include "scalar.h"
#include "vm.h"
#include "../runtime/fuse.h"

#include <math.h>
#include <string.h>

/* Nesting of eval calls; the real bound is the C stack guard (ctx_stack_exhausted). */
#define MAX_EVAL_DEPTH 1000000

enum { EXEC_NORMAL = 0, EXEC_BREAK = 1, EXEC_CONTINUE = 2, EXEC_RETURN = 3 };

static int eval(Interp *I, Node *n, Value *out);
static int eval_num(Interp *I, Node *n, Value *out);
static int exec_block(Interp *I, Node *block);
static int call_value(Interp *I, Value fn, const Args *a, Value *out);

static int set_pos(Interp *I, Node *n) {
  if (I->err_line == 0 && n) {
    I->err_line = n->line;
    I->err_col = n->col;
    if (I->err_chunk) chunkref_release(I, I->err_chunk);
    I->err_chunk = I->cur_chunk;
    if (I->err_chunk) I->err_chunk->refcnt++;
  }
  return -1;
}

static int err_recursion(Interp *I) {
  return ctx_err(&I->ctx, TSR_ERR_RUNTIME, "RecursionError", "maximum recursion depth exceeded");
}

ChunkRef *chunkref_new(Interp *I, Chunk *ch) {
  ChunkRef *cr = ctx_malloc(&I->ctx, sizeof *cr);
  if (!cr) return NULL;
  cr->refcnt = 1; cr->chunk = ch;
  return cr;
}

void chunkref_release(Interp *I, ChunkRef *cr) {
  if (cr && --cr->refcnt == 0) {
    chunk_free(&I->ctx, cr->chunk);
    ctx_free(&I->ctx, cr, sizeof *cr);
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Names and scopes. */

/* Names in function bodies were resolved before the chunk ran (resolve.c): a local is a slot
   of the frame; other names, and all names at module level, are looked up in the globals
   dict, then the builtins, through a cache kept in the name's node. */

static int unbound_local(Interp *I, const char *name) {
  return ctx_err(&I->ctx, TSR_ERR_NAME, "UnboundLocalError (NameError)",
                 "cannot access local variable '%s' where it is not associated with a value",
                 name);
}

/* The Value bound to global or builtin name n (borrowed pointer into globals g or the
   builtins), or NULL. */
static Value *global_value_slow(Interp *I, Dict *g, Node *n);
static inline Value *global_value(Interp *I, Dict *g, Node *n) {
  if (n->name_cache.dict == g && n->name_cache.version == g->version &&
      (!n->name_cache.dict2 ||
       (n->name_cache.dict2 == I->builtins && n->name_cache.version2 == I->builtins->version)))
    return n->name_cache.value;
  return global_value_slow(I, g, n);
}

/* global_value when n's cache is stale: looks the name up and refills the cache. */
static Value *global_value_slow(Interp *I, Dict *g, Node *n) {
  Dict *b = I->builtins;
  Value *v = dict_get(g, n->str);
  n->name_cache.dict2 = NULL;
  if (!v && (v = dict_get(b, n->str)) != NULL) {
    n->name_cache.dict2 = b;
    n->name_cache.version2 = b->version;
  }
  n->name_cache.dict = v ? g : NULL;
  n->name_cache.version = g->version;
  n->name_cache.value = v;
  return v;
}

/* The value bound to name n (borrowed), or NULL with NameError / UnboundLocalError. */
static Value *name_missing(Interp *I, Node *n) {
  if (n->slot > 0) unbound_local(I, n->str);
  else ctx_err(&I->ctx, TSR_ERR_NAME, "NameError", "name '%s' is not defined", n->str);
  return NULL;
}

static inline Value *name_ref(Interp *I, Node *n) {
  Frame *f = I->frame;
  Value *v = n->slot > 0 ? &f->slots[n->slot - 1] : global_value(I, f->globals, n);
  if (__builtin_expect(!v || v->type == V_UNDEF, 0)) return name_missing(I, n);
  return v;
}

static int lookup(Interp *I, Node *n, Value *out) {
  Value *v = name_ref(I, n);
  if (!v) return -1;
  *out = value_retain(*v);
  return 0;
}

/* Is n an index expression that cannot run user code or bind a name (an int, a name, or + - *
   of those)?  Then `name[n]` may use the name's value without holding a reference. */
static bool plain_index(const Node *n, int depth) {
  switch (n->kind) {
  case N_INT: case N_NAME: return true;
  case N_BINOP:
    return depth < 2 && (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) &&
           plain_index(n->a, depth + 1) && plain_index(n->b, depth + 1);
  default: return false;
  }
}

/* Is the N_SUBSCRIPT n `name[plain index]`?  Memoized in the node. */
static inline bool plain_subscript(Node *n) {
  if (!n->plain_sub) n->plain_sub = n->a->kind == N_NAME && plain_index(n->b, 0) ? 2 : 1;
  return n->plain_sub == 2;
}

/* The loop counter's and the float64 scalar's arithmetic, inline: a + - * b for two Python
   ints without overflow (Python's result), and scalar_f64_binary's float64 cases.  1 with
   *out, or 0 for the general path (binary_op_num), which gives the same for these cases. */
static inline int number_binop(int op, Value a, Value b, Value *out) {
  if (a.type == V_INT && b.type == V_INT) {
    int64_t r;
    bool over;
    switch (op) {
    case OP_ADD: over = __builtin_add_overflow(a.i, b.i, &r); break;
    case OP_SUB: over = __builtin_sub_overflow(a.i, b.i, &r); break;
    case OP_MUL: over = __builtin_mul_overflow(a.i, b.i, &r); break;
    default: return 0;
    }
    if (over) return 0;
    *out = v_int(r);
    return 1;
  }
  if (a.type != V_SCALAR && b.type != V_SCALAR) return 0;
  switch (op) {
  case OP_ADD: return scalar_f64_binary(UF_ADD, a, b, out);
  case OP_SUB: return scalar_f64_binary(UF_SUBTRACT, a, b, out);
  case OP_MUL: return scalar_f64_binary(UF_MULTIPLY, a, b, out);
  case OP_DIV: return scalar_f64_binary(UF_TRUE_DIVIDE, a, b, out);
  default: return 0;
  }
}

/* eval_num, with names and number literals (the leaves of most expressions) done here
   without a call of the evaluator. */
static inline int eval_fast(Interp *I, Node *n, Value *out) {
  switch (n->kind) {
  case N_NAME: return lookup(I, n, out) < 0 ? set_pos(I, n) : 0;
  case N_INT: *out = v_int(n->ival); return 0;
  case N_FLOAT: *out = v_float(n->fval); return 0;
  default: return eval_num(I, n, out);
  }
}

/* Binds the name of node n (an N_NAME) in its scope; takes the reference to v. */
static int store_name(Interp *I, Node *n, Value v) {
  Frame *f = I->frame;
  Value old;
  if (n->slot > 0) {
    old = f->slots[n->slot - 1];
    f->slots[n->slot - 1] = v;
    value_decref(old);
    return 0;
  }
  Dict *g = f->globals;
  if (n->name_cache.dict == g && n->name_cache.version == g->version && !n->name_cache.dict2) {
    old = *(Value *)n->name_cache.value;
    *(Value *)n->name_cache.value = v;
    value_decref(old);
    return 0;
  }
  if (dict_set(g, n->str, v) < 0) return -1;
  global_value(I, g, n);   /* caches the new entry for the next store */
  return 0;
}

/* Binds name in the current scope (takes the reference to v): a local of the running
   function, or a global. */
static int bind(Interp *I, const char *name, Value v) {
  Frame *f = I->frame;
  if (f->scope)
    for (int i = 0; i < f->scope->nlocals; i++)
      if (strcmp(f->scope->names[i], name) == 0) {
        Value old = f->slots[i];
        f->slots[i] = v;
        value_decref(old);
        return 0;
      }
  return dict_set(f->globals, name, v);
}

/* ---------------------------------------------------------------------------------------- */
/* Python scalar arithmetic. */

static bool is_pyscalar(Value v) { return v.type == V_BOOL || v.type == V_INT || v.type == V_FLOAT; }
static int64_t as_i(Value v) { return v.type == V_BOOL ? v.b : v.i; }
static double as_f(Value v) { return v.type == V_FLOAT ? v.f : (double)as_i(v); }

static int int_overflow(Interp *I) {
  return ERR_OVERFLOW(&I->ctx, "Python int too large to convert to C int64 (tsr ints are 64-bit)");
}

static int64_t floordiv_i(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int scalar_pow_int(Interp *I, int64_t base, int64_t exp, Value *out) {
  if (exp < 0) {
    if (base == 0)
      return ERR_ZERODIV(&I->ctx, "0.0 cannot be raised to a negative power");
    *out = v_float(pow((double)base, (double)exp));
    return 0;
  }
  int64_t r = 1;
  while (exp) {
    if (exp & 1) { if (__builtin_mul_overflow(r, base, &r)) return int_overflow(I); }
    exp >>= 1;
    if (exp && __builtin_mul_overflow(base, base, &base)) return int_overflow(I);
  }
  *out = v_int(r);
  return 0;
}

static int scalar_binop(Interp *I, int op, Value a, Value b, Value *out) {
  Ctx *c = &I->ctx;
  bool fl = a.type == V_FLOAT || b.type == V_FLOAT;
  bool both_bool = a.type == V_BOOL && b.type == V_BOOL;
  if (!fl) {
    int64_t x = as_i(a), y = as_i(b), r;
    switch (op) {
    case OP_ADD: if (__builtin_add_overflow(x, y, &r)) return int_overflow(I); *out = v_int(r); return 0;
    case OP_SUB: if (__builtin_sub_overflow(x, y, &r)) return int_overflow(I); *out = v_int(r); return 0;
    case OP_MUL: if (__builtin_mul_overflow(x, y, &r)) return int_overflow(I); *out = v_int(r); return 0;
    case OP_DIV:
      if (y == 0) return ERR_ZERODIV(c, "division by zero");
      *out = v_float((double)x / (double)y); return 0;
    case OP_FLOORDIV:
      if (y == 0) return ERR_ZERODIV(c, "integer division or modulo by zero");
      if (x == INT64_MIN && y == -1) return int_overflow(I);
      *out = v_int(floordiv_i(x, y)); return 0;
    case OP_MOD:
      if (y == 0) return ERR_ZERODIV(c, "integer modulo by zero");
      if (y == -1) { *out = v_int(0); return 0; }
      r = x % y; if (r != 0 && ((r < 0) != (y < 0))) r += y;
      *out = v_int(r); return 0;
    case OP_POW: return scalar_pow_int(I, x, y, out);
    case OP_BITAND: *out = both_bool ? v_bool(x & y) : v_int(x & y); return 0;
    case OP_BITOR: *out = both_bool ? v_bool(x | y) : v_int(x | y); return 0;
    case OP_BITXOR: *out = both_bool ? v_bool(x ^ y) : v_int(x ^ y); return 0;
    case OP_LSHIFT:
      if (y < 0) return ERR_VALUE(c, "negative shift count");
      if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))) {
        if (x == 0) { *out = v_int(0); return 0; }
        return int_overflow(I);
      }
      *out = v_int((int64_t)((uint64_t)x << y)); return 0;
    case OP_RSHIFT:
      if (y < 0) return ERR_VALUE(c, "negative shift count");
      *out = v_int(y >= 63 ? (x < 0 ? -1 : 0) : x >> y); return 0;
    default: break;
    }
  } else {
    double x = as_f(a), y = as_f(b);
    switch (op) {
    case OP_ADD: *out = v_float(x + y); return 0;
    case OP_SUB: *out = v_float(x - y); return 0;
    case OP_MUL: *out = v_float(x * y); return 0;
    case OP_DIV:
      if (y == 0) return ERR_ZERODIV(c, "float division by zero");
      *out = v_float(x / y); return 0;
    case OP_FLOORDIV: case OP_MOD: {
      if (y == 0) return ERR_ZERODIV(c, op == OP_MOD ? "float modulo" : "float floor division by zero");
      double m = fmod(x, y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      else if (m == 0) m = copysign(0.0, y);
      if (op == OP_MOD) { *out = v_float(m); return 0; }
      double d = (x - m) / y;
      double fd = floor(d);
      if (d - fd > 0.5) fd += 1.0;
      if (d == 0) fd = copysign(0.0, x / y);
      *out = v_float(fd); return 0;
    }
    case OP_POW:
      if (x == 0 && y < 0) return ERR_ZERODIV(c, "0.0 cannot be raised to a negative power");
      if (x < 0 && y != floor(y))
        return ERR_VALUE(c, "negative number cannot be raised to a fractional power "
                            "(complex results are not supported)");
      *out = v_float(pow(x, y));
      if (isinf(out->f) && isfinite(x) && isfinite(y))
        return ctx_err(c, TSR_ERR_VALUE, "OverflowError", "(34, 'Numerical result out of range')");
      return 0;
    default: break;
    }
  }
  return -2;   /* unsupported: caller reports */
}

static int scalar_compare(int op, Value a, Value b, bool *r) {
  if (a.type != V_FLOAT && b.type != V_FLOAT) {
    int64_t x = as_i(a), y = as_i(b);
    switch (op) {
    case OP_LT: *r = x < y; return 0; case OP_LE: *r = x <= y; return 0;
    case OP_GT: *r = x > y; return 0; case OP_GE: *r = x >= y; return 0;
    case OP_EQ: *r = x == y; return 0; case OP_NE: *r = x != y; return 0;
    }
  } else {
    double x = as_f(a), y = as_f(b);
    switch (op) {
    case OP_LT: *r = x < y; return 0; case OP_LE: *r = x <= y; return 0;
    case OP_GT: *r = x > y; return 0; case OP_GE: *r = x >= y; return 0;
    case OP_EQ: *r = x == y; return 0; case OP_NE: *r = x != y; return 0;
    }
  }
  return -2;
}

/* ---------------------------------------------------------------------------------------- */
/* Operators on tensors. */

static int binop_ufunc(int op) {
  switch (op) {
  case OP_ADD: return UF_ADD; case OP_SUB: return UF_SUBTRACT; case OP_MUL: return UF_MULTIPLY;
  case OP_DIV: return UF_TRUE_DIVIDE; case OP_FLOORDIV: return UF_FLOOR_DIVIDE;
  case OP_MOD: return UF_REMAINDER; case OP_POW: return UF_POWER;
  case OP_LSHIFT: return UF_LEFT_SHIFT; case OP_RSHIFT: return UF_RIGHT_SHIFT;
  case OP_BITAND: return UF_BITWISE_AND; case OP_BITOR: return UF_BITWISE_OR;
  case OP_BITXOR: return UF_BITWISE_XOR;
  case OP_LT: return UF_LESS; case OP_LE: return UF_LESS_EQUAL; case OP_GT: return UF_GREATER;
  case OP_GE: return UF_GREATER_EQUAL; case OP_EQ: return UF_EQUAL; case OP_NE: return UF_NOT_EQUAL;
  default: return -1;
  }
}

static bool is_arraylike(Value v) {
  return v.type == V_TENSOR || is_pyscalar(v) || v.type == V_LIST || v.type == V_TUPLE;
}

/* a OP b where at least one side is a tensor.  out_inplace: the tensor receiving the result
   for augmented assignment (NULL otherwise). */
static int tensor_binop(Interp *I, int op, Value a, Value b, Tensor *inplace, Value *out) {
  Ctx *c = &I->ctx;
  Tensor *ta = value_to_tensor(I, a, -1);
  if (!ta) return -1;
  Tensor *tb = value_to_tensor(I, b, -1);
  if (!tb) { tensor_release(ta); return -1; }
  Tensor *r = NULL;
  if (op == OP_MATMUL) {
    r = linalg_matmul(c, ta, tb);
    if (r && inplace) {
      int rc = tensor_assign(c, inplace, r);
      tensor_release(r);
      r = rc < 0 ? NULL : tensor_retain(inplace);
    }
  } else {
    int uf = binop_ufunc(op);
    if (inplace && (dtype_is_int(inplace->dtype) || inplace->dtype == TSR_BOOL)) {
      /* NumPy's same_kind casting rule for in-place operations */
      Tensor *other = inplace == ta ? tb : ta;
      DType res = other->weak ? dtype_promote_weak(inplace->dtype, (WeakKind)other->weak)
                              : dtype_promote(inplace->dtype, other->dtype);
      if (op == OP_DIV && !dtype_is_float(res)) res = TSR_FLOAT64;
      bool bad = (dtype_is_float(res) && !dtype_is_float(inplace->dtype)) ||
                 (inplace->dtype == TSR_BOOL && res != TSR_BOOL && uf != UF_BITWISE_AND &&
                  uf != UF_BITWISE_OR && uf != UF_BITWISE_XOR);
      if (bad) {
        ERR_OUTPUT_CAST(c, binary_ufunc_names[uf], dtype_name(res), dtype_name(inplace->dtype));
        goto done;
      }
    }
    r = ufunc_binary(c, (BinaryUfunc)uf, ta, tb, inplace);
  }
done:
  tensor_release(ta);
  tensor_release(tb);
  if (!r) return -1;
  *out = v_tensor(r);
  return 0;
}

static int seq_concat(Interp *I, Value a, Value b, Value *out) {
  List *x = as_list(a), *y = as_list(b);
  if (ctx_work(&I->ctx, (uint64_t)(x->n + y->n), WORK_OBJECT)) return -1;
  Value r = a.type == V_LIST ? value_list(I, x->n + y->n) : value_tuple(I, x->n + y->n);
  if (r.type == V_UNDEF) return -1;
  for (int64_t i = 0; i < x->n; i++) as_list(r)->items[i] = value_retain(x->items[i]);
  for (int64_t i = 0; i < y->n; i++) as_list(r)->items[x->n + i] = value_retain(y->items[i]);
  *out = r;
  return 0;
}

static int seq_repeat(Interp *I, Value s, int64_t k, Value *out) {
  if (k < 0) k = 0;
  if (s.type == V_STR) {
    Str *str = as_str(s);
    if (str->len == 0 || k == 0) { *out = value_str(I, "", 0); return out->type == V_UNDEF ? -1 : 0; }
    int64_t bytes;   /* Python's limit: the length must fit in a Py_ssize_t */
    if (size_mul((int64_t)str->len, k, &bytes))
      return ERR_OVERFLOW(&I->ctx, "repeated string is too long");
    /* the whole size at once: too much for the memory cap fails here, before any copying */
    size_t total = (size_t)bytes;
    char *p = ctx_malloc(&I->ctx, total);
    if (!p) return -1;
    /* charged per block of copies: the bytes, and 32 bytes' worth for each copy */
    for (int64_t i = 0, charged = 0; i < k; i++) {
      memcpy(p + (size_t)i * str->len, str->s, str->len);
      if (i + 1 - charged >= 4096 || i == k - 1) {
        if (ctx_work(&I->ctx, (uint64_t)(i + 1 - charged) * (str->len + 32), WORK_BYTE)) {
          ctx_free(&I->ctx, p, total);
          return -1;
        }
        charged = i + 1;
      }
    }
    *out = value_str(I, p, total);
    ctx_free(&I->ctx, p, total);
    return out->type == V_UNDEF ? -1 : 0;
  }
  List *l = as_list(s);
  if (l->n == 0) k = 0;   /* [] * 10**15 is [] at once */
  if (k && l->n > (INT64_MAX / 64) / k) return ERR_MEMORY(&I->ctx, "list too long");
  Value r = s.type == V_LIST ? value_list(I, l->n * k) : value_tuple(I, l->n * k);
  if (r.type == V_UNDEF) return -1;
  for (int64_t j = 0, charged = 0; j < k; j++) {
    for (int64_t i = 0; i < l->n; i++) as_list(r)->items[j * l->n + i] = value_retain(l->items[i]);
    if ((j + 1) * l->n - charged >= 4096 || j == k - 1) {   /* an object per item */
      if (ctx_work(&I->ctx, (uint64_t)((j + 1) * l->n - charged), WORK_OBJECT)) {
        value_decref(r);
        return -1;
      }
      charged = (j + 1) * l->n;
    }
  }
  *out = r;
  return 0;
}

static int unsupported(Interp *I, int op, Value a, Value b) {
  return ERR_TYPE(&I->ctx, "unsupported operand type(s) for %s: '%s' and '%s'", ast_op_symbol(op),
                  value_type_name(a), value_type_name(b));
}

/* Binary operator dispatch; inplace is the target tensor of an augmented assignment. */
static int binary_op(Interp *I, int op, Value a, Value b, Tensor *inplace, Value *out) {
  if (op == OP_MOD && a.type == V_STR) return format_percent(I, a, b, out);
  if (is_pyscalar(a) && is_pyscalar(b) && op != OP_MATMUL) {
    int rc = scalar_binop(I, op, a, b, out);
    if (rc != -2) return rc;
    return unsupported(I, op, a, b);
  }
  if (a.type == V_TENSOR || b.type == V_TENSOR) {
    if (is_arraylike(a) && is_arraylike(b)) return tensor_binop(I, op, a, b, inplace, out);
    return unsupported(I, op, a, b);
  }
  if (op == OP_ADD) {
    if (a.type == V_STR && b.type == V_STR) {
      if (ctx_work(&I->ctx, as_str(a)->len + as_str(b)->len, WORK_BYTE)) return -1;
      Buf buf; buf_init(&buf, &I->ctx);
      buf_putn(&buf, as_str(a)->s, as_str(a)->len);
      buf_putn(&buf, as_str(b)->s, as_str(b)->len);
      if (buf.failed) { buf_free(&buf); return -1; }
      *out = value_str(I, buf.p, buf.n);
      buf_free(&buf);
      return out->type == V_UNDEF ? -1 : 0;
    }
    if ((a.type == V_LIST || a.type == V_TUPLE) && a.type == b.type) return seq_concat(I, a, b, out);
    if (a.type == V_STR)
      return ERR_TYPE(&I->ctx, "can only concatenate str (not \"%s\") to str", value_type_name(b));
    if (a.type == V_LIST || a.type == V_TUPLE)
      return ERR_TYPE(&I->ctx, "can only concatenate %s (not \"%s\") to %s", value_type_name(a),
                      value_type_name(b), value_type_name(a));
  }
  if (op == OP_MUL) {
    bool sa = a.type == V_STR || a.type == V_LIST || a.type == V_TUPLE;
    bool sb = b.type == V_STR || b.type == V_LIST || b.type == V_TUPLE;
    if (sa && (b.type == V_INT || b.type == V_BOOL)) return seq_repeat(I, a, as_i(b), out);
    if (sb && (a.type == V_INT || a.type == V_BOOL)) return seq_repeat(I, b, as_i(a), out);
    if (sa || sb)
      return ERR_TYPE(&I->ctx, "can't multiply sequence by non-int of type '%s'",
                      value_type_name(sa ? b : a));
  }
  /* lists of numbers meet numbers: NumPy only when one side is a tensor (handled above) */
  return unsupported(I, op, a, b);
}

/* Temporary elision (as NumPy does for large arrays): when the left operand of an arithmetic
   operator is a tensor nobody else can see (the only reference to a tensor that owns its
   storage alone) and the result has its shape and dtype, the result is written into it
   instead of a new buffer: `a * b + c` allocates one temporary, not two. */
static Tensor *elidable_temporary(int op, Value a, Value b) {
  if (a.type != V_TENSOR || (b.type != V_TENSOR && !is_pyscalar(b))) return NULL;
  Tensor *t = a.t;
  if (t->refcnt != 1 || t->storage->refcnt != 1 || !t->storage->owned || t->storage->readonly ||
      t->weak || t->ndim == 0 || tensor_size(t) < 4096 || !tensor_is_contiguous(t))
    return NULL;
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MUL: break;
  case OP_DIV: if (!dtype_is_float(t->dtype)) return NULL; break;
  default: return NULL;
  }
  if (is_pyscalar(b)) {
    WeakKind w = b.type == V_BOOL ? WEAK_BOOL : b.type == V_INT ? WEAK_INT : WEAK_FLOAT;
    return dtype_promote_weak(t->dtype, w) == t->dtype ? t : NULL;
  }
  Tensor *u = b.t;
  if (u == t || u->storage == t->storage || u->ndim > t->ndim) return NULL;
  DType r = u->weak ? dtype_promote_weak(t->dtype, (WeakKind)u->weak) : dtype_promote(t->dtype, u->dtype);
  if (r != t->dtype) return NULL;
  for (int i = 0; i < u->ndim; i++) {
    int64_t du = u->shape[u->ndim - 1 - i], dt = t->shape[t->ndim - 1 - i];
    if (du != dt && du != 1) return NULL;
  }
  return t;
}

static int contains(Interp *I, Value container, Value item, bool *r) {
  switch (container.type) {
  case V_LIST: case V_TUPLE: {
    List *l = as_list(container);
    for (int64_t i = 0; i < l->n; i++) {
      bool eq;
      if (ctx_work(&I->ctx, 1, WORK_OBJECT)) return -1;
      if (l->items[i].type == V_TENSOR || item.type == V_TENSOR) {
        Value t;
        if (binary_op(I, OP_EQ, l->items[i], item, NULL, &t) < 0) return -1;
        int tr = value_truth(I, t);
        value_decref(t);
        if (tr < 0) return -1;
        eq = tr;
      } else if (value_equal(I, l->items[i], item, &eq) < 0) return -1;
      if (eq) { *r = true; return 0; }
    }
    *r = false;
    return 0;
  }
  case V_STR:
    if (item.type != V_STR)
      return ERR_TYPE(&I->ctx, "'in <string>' requires string as left operand, not %s",
                      value_type_name(item));
    if (ctx_work(&I->ctx, as_str(container)->len, WORK_BYTE)) return -1;
    *r = strstr(as_str(container)->s, as_str(item)->s) != NULL;
    return 0;
  case V_RANGE: {
    Range *g = (Range *)container.o;
    int64_t x;
    if (item.type != V_INT && item.type != V_BOOL) { *r = false; return 0; }
    x = as_i(item);
    bool in = g->step > 0 ? (x >= g->start && x < g->stop) : (x <= g->start && x > g->stop);
    uint64_t dist = g->step > 0 ? (uint64_t)x - (uint64_t)g->start : (uint64_t)g->start - (uint64_t)x;
    *r = in && dist % (g->step > 0 ? (uint64_t)g->step : (uint64_t)0 - (uint64_t)g->step) == 0;
    return 0;
  }
  case V_TENSOR: {
    Value t;
    if (binary_op(I, OP_EQ, container, item, NULL, &t) < 0) return -1;
    Tensor *any = reduce(&I->ctx, RED_ANY, t.t, NULL, -1, false, -1);
    value_decref(t);
    if (!any) return -1;
    *r = dtype_get_u64(any->dtype, tensor_data(any)) != 0;
    tensor_release(any);
    return 0;
  }
  default:
    return ERR_TYPE(&I->ctx, "argument of type '%s' is not iterable", value_type_name(container));
  }
}

static bool identical(Value a, Value b) {
  if (a.type != b.type) return false;
  switch (a.type) {
  case V_NONE: case V_ELLIPSIS: case V_UNDEF: return true;
  case V_BOOL: return a.b == b.b;
  case V_INT: return a.i == b.i;
  case V_FLOAT: return a.f == b.f;
  case V_DTYPE: return a.dt == b.dt;
  case V_BUILTIN: return a.bi == b.bi;
  case V_TENSOR: return a.t == b.t;
  default: return a.o == b.o;
  }
}

static int compare_op(Interp *I, int op, Value a, Value b, Value *out);
/* <, <=, >, >= of two lists or two tuples, lexicographically as Python: the first items that
   are not == decide with op; when one sequence is a prefix of the other, the lengths do. */
static int seq_compare(Interp *I, int op, Value a, Value b, Value *out) {
  List *x = as_list(a), *y = as_list(b);
  int64_t i = 0;
  for (; i < x->n && i < y->n; i++) {
    Value e;
    if (ctx_work(&I->ctx, 1, WORK_OBJECT)) return -1;   /* the step budget: an item compared */
    if (compare_op(I, OP_EQ, x->items[i], y->items[i], &e) < 0) return -1;
    int t = value_truth(I, e);
    value_decref(e);
    if (t < 0) return -1;
    if (!t) return compare_op(I, op, x->items[i], y->items[i], out);
  }
  int64_t m = x->n, n = y->n;
  *out = v_bool(op == OP_LT ? m < n : op == OP_LE ? m <= n : op == OP_GT ? m > n : m >= n);
  return 0;
}

static int compare_op(Interp *I, int op, Value a, Value b, Value *out) {
  bool r = false;
  switch (op) {
  case OP_IS: *out = v_bool(identical(a, b)); return 0;
  case OP_IS_NOT: *out = v_bool(!identical(a, b)); return 0;
  case OP_IN: case OP_NOT_IN:
    if (contains(I, b, a, &r) < 0) return -1;
    *out = v_bool(op == OP_IN ? r : !r);
    return 0;
  default: break;
  }
  if (is_pyscalar(a) && is_pyscalar(b)) {
    scalar_compare(op, a, b, &r);
    *out = v_bool(r);
    return 0;
  }
  if (a.type == V_TENSOR || b.type == V_TENSOR) {
    if (is_arraylike(a) && is_arraylike(b)) {
      int rc = tensor_binop(I, op, a, b, NULL, out);
      /* NumPy 1.24: == and != of shapes that do not broadcast are False and True, with a
         DeprecationWarning (NumPy 2 raises) */
      Ctx *c = &I->ctx;
      if (rc < 0 && (op == OP_EQ || op == OP_NE) && strcmp(c->kind, "ValueError") == 0 &&
          strncmp(c->msg, "operands could not be broadcast together", 40) == 0) {
        ctx_clear(c);
        if (c->fperr.warn)
          c->fperr.warn(c, "DeprecationWarning",
                        "elementwise comparison failed; this will raise an error in the future.");
        *out = v_bool(op == OP_NE);
        rc = 0;
      }
      return rc;
    }
    if (op == OP_EQ || op == OP_NE) { *out = v_bool(op == OP_NE); return 0; }
  }
  if (op == OP_EQ || op == OP_NE) {
    if (value_equal(I, a, b, &r) < 0) return -1;
    *out = v_bool(op == OP_EQ ? r : !r);
    return 0;
  }
  if (a.type == V_STR && b.type == V_STR) {
    if (ctx_work(&I->ctx, as_str(a)->len, WORK_BYTE)) return -1;
    int k = strcmp(as_str(a)->s, as_str(b)->s);
    r = op == OP_LT ? k < 0 : op == OP_LE ? k <= 0 : op == OP_GT ? k > 0 : k >= 0;
    *out = v_bool(r);
    return 0;
  }
  if ((a.type == V_LIST || a.type == V_TUPLE) && a.type == b.type)
    return seq_compare(I, op, a, b, out);
  return ERR_TYPE(&I->ctx, "'%s' not supported between instances of '%s' and '%s'",
                  ast_op_symbol(op), value_type_name(a), value_type_name(b));
}

static int unary_op(Interp *I, int op, Value a, Value *out) {
  Ctx *c = &I->ctx;
  if (op == OP_NOT) {
    int t = value_truth(I, a);
    if (t < 0) return -1;
    *out = v_bool(!t);
    return 0;
  }
  if (is_pyscalar(a)) {
    switch (op) {
    case OP_NEG:
      if (a.type == V_FLOAT) { *out = v_float(-a.f); return 0; }
      if (as_i(a) == INT64_MIN) return int_overflow(I);
      *out = v_int(-as_i(a)); return 0;
    case OP_POS: *out = a.type == V_FLOAT ? a : v_int(as_i(a)); return 0;
    case OP_INVERT:
      if (a.type == V_FLOAT) return ERR_TYPE(c, "bad operand type for unary ~: 'float'");
      *out = v_int(~as_i(a)); return 0;
    }
  }
  if (a.type == V_TENSOR) {
    UnaryUfunc uf = op == OP_NEG ? UF_NEGATIVE : op == OP_POS ? UF_POSITIVE : UF_INVERT;
    if (op == OP_NEG && a.t->dtype == TSR_BOOL)
      return ERR_TYPE(c, "The numpy boolean negative, the `-` operator, is not supported, use "
                         "the `~` operator or the logical_not function instead.");
    Tensor *r = ufunc_unary(c, uf, a.t, NULL);
    if (!r) return -1;
    *out = v_tensor(r);
    return 0;
  }
  return ERR_TYPE(c, "bad operand type for unary %s: '%s'", ast_op_symbol(op), value_type_name(a));
}

/* The operators of expressions whose operands may be V_SCALAR temporaries (scalar.h): the
   fast paths first, then the general operators on boxed operands.  Results may be V_SCALAR. */

/* Boxes the V_SCALARs among a and b into *ba and *bb (new references; other values are
   copied as they are, borrowed).  0 or -1. */
static int box_pair(Interp *I, Value a, Value b, Value *ba, Value *bb) {
  *ba = a; *bb = b;
  if (scalar_box(I, ba) < 0) return -1;
  if (scalar_box(I, bb) < 0) { if (a.type == V_SCALAR) value_decref(*ba); return -1; }
  return 0;
}

static void unbox_pair(Value a, Value b, Value ba, Value bb) {
  if (a.type == V_SCALAR) value_decref(ba);
  if (b.type == V_SCALAR) value_decref(bb);
}

static bool numeric_operand(Value v) { return v.type == V_SCALAR || v.type == V_TENSOR; }

static int binary_op_num(Interp *I, int op, Value a, Value b, Tensor *inplace, Value *out) {
  int uf = binop_ufunc(op);
  if (!inplace && uf >= 0 && (numeric_operand(a) || numeric_operand(b))) {
    int r = scalar_binary(I, (BinaryUfunc)uf, a, b, out);
    if (r) return r < 0 ? -1 : 0;
  }
  if (a.type != V_SCALAR && b.type != V_SCALAR) return binary_op(I, op, a, b, inplace, out);
  Value ba, bb;
  if (box_pair(I, a, b, &ba, &bb) < 0) return -1;
  int rc = binary_op(I, op, ba, bb, inplace, out);
  unbox_pair(a, b, ba, bb);
  return rc;
}

static int compare_op_num(Interp *I, int op, Value a, Value b, Value *out) {
  int uf = binop_ufunc(op);
  if (uf >= 0 && (numeric_operand(a) || numeric_operand(b))) {
    int r = scalar_binary(I, (BinaryUfunc)uf, a, b, out);
    if (r) return r < 0 ? -1 : 0;
  }
  if (a.type != V_SCALAR && b.type != V_SCALAR) return compare_op(I, op, a, b, out);
  Value ba, bb;
  if (box_pair(I, a, b, &ba, &bb) < 0) return -1;
  int rc = compare_op(I, op, ba, bb, out);
  unbox_pair(a, b, ba, bb);
  return rc;
}

static int unary_op_num(Interp *I, int op, Value a, Value *out) {
  if (a.type != V_SCALAR) return unary_op(I, op, a, out);
  if (op == OP_NEG && scalar_negative(a, out)) return 0;
  Value ba = a;
  if (scalar_box(I, &ba) < 0) return -1;
  int rc = unary_op(I, op, ba, out);
  value_decref(ba);
  return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Fused elementwise evaluation (runtime/fuse.h).  A tree of tensor operators (arithmetic,
   bitwise, single comparisons, unary minus) is walked exactly as the unfused evaluator walks
   it: the other nodes (names, calls, subscripts, literals ...) are evaluated in the same
   order, and each operator's dtype and shape checks run where its ufunc would run, with the
   same errors; only the arithmetic is deferred and then done in one blocked pass with the
   same loops and intermediate dtypes.  Whatever has no fused form is computed unfused. */

/* A subtree's value: a fused node (node >= 0) or a computed value. */
typedef struct FVal { int node; Value v; } FVal;

static bool fusable_node(Node *n) {
  switch (n->kind) {
  case N_BINOP: return binop_ufunc(n->op) >= 0;
  case N_UNARY: return n->op == OP_NEG;
  case N_COMPARE: return n->b && !n->b->next && binop_ufunc(n->b->op) >= 0;
  default: return false;
  }
}

/* The value of f (new reference; f's node, if any, computed now). */
static int fval_take(Interp *I, FuseProg *p, FVal *f, Value *out) {
  if (f->node < 0) { *out = f->v; f->v = v_none(); return 0; }
  Tensor *t = fuse_run(&I->ctx, p, f->node);
  if (!t) return -1;
  *out = v_tensor(t);
  return 0;
}

/* f as a node of p (a computed value becomes a leaf).  -1 on error, -2 when p is full. */
static int fval_node(Interp *I, FuseProg *p, FVal *f) {
  if (f->node >= 0) return f->node;
  Tensor *t = value_to_tensor(I, f->v, -1);
  if (!t) return -1;
  value_decref(f->v);
  f->v = v_none();
  int k = fuse_leaf(p, t);
  if (k >= 0) f->node = k;
  return k;
}

static bool fval_tensorish(const FVal *f) { return f->node >= 0 || f->v.type == V_TENSOR; }
static bool fval_arraylike(const FVal *f) { return f->node >= 0 || is_arraylike(f->v); }

static int fuse_walk(Interp *I, FuseProg *p, Node *n, FVal *out);

/* Combines fa OP fb (binary operator op, or the comparison op when cmp) into out;
   consumes fa and fb. */
static int fuse_combine(Interp *I, FuseProg *p, int op, bool cmp, FVal *fa, FVal *fb, FVal *out) {
  int rc = -1;
  Value a = v_none(), b = v_none();
  if (fa->node < 0 && fb->node < 0 && (numeric_operand(fa->v) || numeric_operand(fb->v))) {
    /* scalars and tiny tensors: nothing to gain from fusing */
    int r = scalar_binary(I, (BinaryUfunc)binop_ufunc(op), fa->v, fb->v, &out->v);
    if (r) {
      value_decref(fa->v); value_decref(fb->v);
      fa->v = fb->v = v_none();
      out->node = -1;
      return r < 0 ? -1 : 0;
    }
  }
  if ((fval_tensorish(fa) || fval_tensorish(fb)) && fval_arraylike(fa) && fval_arraylike(fb)) {
    int ka = fval_node(I, p, fa), kb = ka >= 0 ? fval_node(I, p, fb) : ka;
    if (ka == -1 || kb == -1) goto done;
    if (ka >= 0 && kb >= 0) {
      int k = fuse_binary(&I->ctx, p, (BinaryUfunc)binop_ufunc(op), ka, kb);
      if (k == -1) goto done;
      if (k >= 0) { out->node = k; out->v = v_none(); return 0; }
    }
  }
  /* unfused */
  if (fval_take(I, p, fa, &a) < 0 || fval_take(I, p, fb, &b) < 0) goto done;
  out->node = -1;
  rc = cmp ? compare_op_num(I, op, a, b, &out->v)
           : binary_op_num(I, op, a, b, elidable_temporary(op, a, b), &out->v);
done:
  value_decref(a); value_decref(b);
  if (fa->node < 0) value_decref(fa->v);
  if (fb->node < 0) value_decref(fb->v);
  fa->v = fb->v = v_none();
  return rc;
}

static int fuse_walk_inner(Interp *I, FuseProg *p, Node *n, FVal *out) {
  FVal fa, fb;
  if (!fusable_node(n)) { out->node = -1; return eval_num(I, n, &out->v); }
  if (n->kind == N_UNARY) {
    if (fuse_walk(I, p, n->a, &fa) < 0) return -1;
    if (fval_tensorish(&fa)) {
      int ka = fval_node(I, p, &fa);
      if (ka == -1) return -1;
      int k = ka >= 0 ? fuse_unary(&I->ctx, p, UF_NEGATIVE, ka) : ka;
      if (k == -1) return -1;
      if (k >= 0) { out->node = k; out->v = v_none(); return 0; }
    }
    Value a;
    if (fval_take(I, p, &fa, &a) < 0) return -1;
    out->node = -1;
    int rc = unary_op_num(I, n->op, a, &out->v);
    value_decref(a);
    return rc;
  }
  Node *left = n->a, *right = n->kind == N_COMPARE ? n->b->a : n->b;
  int op = n->kind == N_COMPARE ? n->b->op : n->op;
  if (fuse_walk(I, p, left, &fa) < 0) return -1;
  if (fuse_walk(I, p, right, &fb) < 0) {
    if (fa.node < 0) value_decref(fa.v);
    return -1;
  }
  return fuse_combine(I, p, op, n->kind == N_COMPARE, &fa, &fb, out);
}

static int fuse_walk(Interp *I, FuseProg *p, Node *n, FVal *out) {
  if (!fusable_node(n)) { out->node = -1; return eval_fast(I, n, &out->v); }
  if (++I->depth > MAX_EVAL_DEPTH || ctx_stack_exhausted(&I->ctx)) {
    I->depth--;
    err_recursion(I);
    return set_pos(I, n);
  }
  int rc = fuse_walk_inner(I, p, n, out);
  I->depth--;
  return rc < 0 ? set_pos(I, n) : 0;
}

/* Does n head a tree worth fusing (an operator with an operator operand)? */
static bool fusion_root(Node *n) {
  if (!fusable_node(n)) return false;
  if (n->kind == N_UNARY) return fusable_node(n->a);
  Node *right = n->kind == N_COMPARE ? n->b->a : n->b;
  return fusable_node(n->a) || fusable_node(right);
}

/* fusion_root(n), worked out once per node. */
static inline bool is_fusion_root(Node *n) {
  if (!n->fusion_root) n->fusion_root = fusion_root(n) ? 2 : 1;
  return n->fusion_root == 2;
}

/* Evaluates the fusable tree n into *out (a new reference). */
static int eval_fused(Interp *I, Node *n, Value *out) {
  FuseProg *p = fuse_new(&I->ctx);
  if (!p) return -1;
  FVal r;
  int rc = fuse_walk_inner(I, p, n, &r);
  if (rc == 0 && p->n == 0) n->unfused = 1;   /* nothing was fused: see eval_unfused */
  if (rc == 0) rc = fval_take(I, p, &r, out);
  fuse_done(&I->ctx, p);
  return rc;
}

/* After an operator-by-operator evaluation of a fusion root marked unfused: a result larger
   than a tiny tensor makes the next evaluation fuse again.  Returns rc. */
static int unfused_result(Node *n, int rc, const Value *out) {
  if (rc == 0 && out->type == V_TENSOR && tensor_size(out->t) > SMALL_TENSOR_MAX) n->unfused = 0;
  return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Indexing. */

/* Converts one index value into an IndexItem; *tmp receives a tensor the item borrows (to be
   released by the caller). */
static int index_item(Interp *I, Value v, IndexItem *it, Tensor **tmp) {
  memset(it, 0, sizeof *it);
  *tmp = NULL;
  switch (v.type) {
  case V_INT: it->kind = IDX_INT; it->i = v.i; return 0;
  case V_BOOL: {   /* a 0-d boolean mask: a new axis of length 1 (True) or 0 (False) */
    Tensor *t = tensor_scalar_i64(&I->ctx, TSR_BOOL, v.b);
    if (!t) return -1;
    *tmp = t; it->kind = IDX_ARRAY; it->array = t; return 0;
  }
  case V_NONE: it->kind = IDX_NEWAXIS; return 0;
  case V_ELLIPSIS: it->kind = IDX_ELLIPSIS; return 0;
  case V_SLICE: {
    Slice *s = (Slice *)v.o;
    it->kind = IDX_SLICE;
    const Value *parts[3] = {&s->start, &s->stop, &s->step};
    int64_t *dst[3] = {&it->start, &it->stop, &it->step};
    bool *has[3] = {&it->has_start, &it->has_stop, &it->has_step};
    for (int k = 0; k < 3; k++) {
      Value pv = *parts[k];
      if (pv.type == V_NONE) continue;
      bool integral = pv.type == V_INT || pv.type == V_BOOL ||
                      (pv.type == V_TENSOR && pv.t->ndim == 0 &&
                       (dtype_is_int(pv.t->dtype) || pv.t->dtype == TSR_BOOL));
      if (!integral)
        return ERR_TYPE(&I->ctx, "slice indices must be integers or None or have an __index__ "
                                 "method");
      if (value_to_int(I, pv, dst[k]) < 0) return -1;
      *has[k] = true;
    }
    return 0;
  }
  case V_TENSOR:
    if (v.t->ndim == 0 && dtype_is_int(v.t->dtype)) {
      it->kind = IDX_INT; it->i = dtype_get_i64(v.t->dtype, tensor_data(v.t)); return 0;
    }
    if (dtype_is_int(v.t->dtype) || v.t->dtype == TSR_BOOL) { it->kind = IDX_ARRAY; it->array = v.t; return 0; }
    if (v.t->ndim > 0)
      return ERR_INDEX(&I->ctx, "arrays used as indices must be of integer (or boolean) type");
    break;
  case V_LIST: {
    Tensor *t = value_to_tensor_strong(I, v, -1);
    if (!t) return -1;
    if (!dtype_is_int(t->dtype) && t->dtype != TSR_BOOL) {
      if (tensor_size(t) == 0) {
        Tensor *u = tensor_astype(&I->ctx, t, TSR_INT64);
        tensor_release(t);
        if (!u) return -1;
        t = u;
      } else { tensor_release(t); break; }
    }
    *tmp = t; it->kind = IDX_ARRAY; it->array = t; return 0;
  }
  default: break;
  }
  return ERR_INDEX(&I->ctx, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                            "(`None`) and integer or boolean arrays are valid indices");
}

/* The items of index idx (a tuple or one value) on t: 0, or -1 with IndexError.  *n counts
   the items converted, whose tmps the caller releases in either case. */
static int index_items(Interp *I, const Tensor *t, Value idx, IndexItem *items, Tensor **tmps,
                       int *n) {
  *n = 0;
  if (idx.type != V_TUPLE) {
    if (index_item(I, idx, &items[0], &tmps[0]) < 0) return -1;
    *n = 1;
    return 0;
  }
  List *l = as_list(idx);
  if (l->n > TSR_MAXDIMS)
    return ERR_INDEX(&I->ctx, "too many indices for array: array is %d-dimensional, but %lld "
                              "were indexed", t->ndim, (long long)l->n);
  for (int64_t i = 0; i < l->n; i++, (*n)++)
    if (index_item(I, l->items[i], &items[*n], &tmps[*n]) < 0) return -1;
  return 0;
}

/* NumPy stores a Python float into an integer array through Python's int(): NaN and the
   infinities fail, and so does a value beyond a C long (found by tests/fuzzdiff). */
static int float_item_check(Interp *I, double d, DType dt) {
  if (isnan(d)) return ERR_VALUE(&I->ctx, "cannot convert float NaN to integer");
  if (isinf(d)) return ERR_OVERFLOW(&I->ctx, "cannot convert float infinity to integer");
  if (dt != TSR_UINT64 && (d >= 9223372036854775808.0 || d < -9223372036854775808.0))
    return ERR_OVERFLOW(&I->ctx, "Python int too large to convert to C long");
  return 0;
}

static int tensor_index(Interp *I, Tensor *t, Value idx, Value *set_value, Value *out) {
  IndexItem items[TSR_MAXDIMS + 1];
  Tensor *tmps[TSR_MAXDIMS + 1];
  int n = 0, rc = -1;
  if (index_items(I, t, idx, items, tmps, &n) < 0) goto done;
  if (t->ndim == 0 && !t->ndarray) {   /* a NumPy scalar takes only (), ..., None, bools */
    Value self = v_tensor(t);
    if (set_value) {
      ERR_TYPE(&I->ctx, "'%s' object does not support item assignment", value_type_name(self));
      goto done;
    }
    for (int i = 0; i < n; i++)
      if (items[i].kind == IDX_INT || items[i].kind == IDX_SLICE ||
          (items[i].kind == IDX_ARRAY && items[i].array->dtype != TSR_BOOL)) {
        ERR_INDEX(&I->ctx, "invalid index to scalar variable.");
        goto done;
      }
  }
  if (set_value) {
    if ((set_value->type == V_LIST || set_value->type == V_TUPLE) &&
        index_is_element(t, items, n)) {
      ERR_VALUE(&I->ctx, "setting an array element with a sequence.");
      goto done;
    }
    Value sv = *set_value;
    if (sv.type == V_FLOAT && dtype_is_int(t->dtype)) {
      if (float_item_check(I, sv.f, t->dtype)) goto done;
      /* the int() NumPy stores, wrapped to t's width: 1e16 into int32 is 1874919424 */
      if (t->dtype != TSR_UINT64) sv = v_int((int64_t)sv.f);
    }
    Tensor *v = value_to_tensor(I, sv, -1);
    if (!v) goto done;
    rc = index_set(&I->ctx, t, items, n, v);
    tensor_release(v);
  } else {
    Tensor *r = index_get(&I->ctx, t, items, n);
    if (r) { *out = v_tensor(r); rc = 0; }
    /* a 0-d result is a NumPy scalar only under integer indices (x[1, 2], x[()]) */
    bool ints = true;
    for (int i = 0; i < n; i++)
      if (items[i].kind != IDX_INT && !(items[i].kind == IDX_ARRAY && items[i].array->ndim == 0))
        ints = false;
    if (r && r->ndim == 0 && !ints)
      rc = value_mark_ndarray(I, NULL, "array", v_undef(), out);
  }
done:
  for (int i = 0; i < n; i++) if (tmps[i]) tensor_release(tmps[i]);
  return rc;
}

static int norm_seq_index(Interp *I, Value seq, Value idx, int64_t len, int64_t *i) {
  if (value_to_int(I, idx, i) < 0) {
    ctx_clear(&I->ctx);
    return ERR_TYPE(&I->ctx, "%s indices must be integers or slices, not %s", value_type_name(seq),
                    value_type_name(idx));
  }
  if (*i < 0) *i += len;
  if (*i < 0 || *i >= len)
    return ERR_INDEX(&I->ctx, "%s index out of range", value_type_name(seq));
  return 0;
}

/* Python slice indices for a sequence of length len. */
static int slice_indices(Interp *I, Slice *s, int64_t len, int64_t *start, int64_t *stop, int64_t *step) {
  *step = 1;
  if (s->step.type != V_NONE && value_to_int(I, s->step, step) < 0) return -1;
  if (*step == 0) return ERR_VALUE(&I->ctx, "slice step cannot be zero");
  int64_t lo = *step < 0 ? -1 : 0, hi = *step < 0 ? len - 1 : len;
  if (s->start.type == V_NONE) *start = *step < 0 ? hi : lo;
  else {
    if (value_to_int(I, s->start, start) < 0) return -1;
    if (*start < 0) { *start += len; if (*start < lo) *start = lo; }
    else if (*start > hi) *start = hi;
  }
  if (s->stop.type == V_NONE) *stop = *step < 0 ? lo : hi;
  else {
    if (value_to_int(I, s->stop, stop) < 0) return -1;
    if (*stop < 0) { *stop += len; if (*stop < lo) *stop = lo; }
    else if (*stop > hi) *stop = hi;
  }
  return 0;
}

static int subscript_get(Interp *I, Value obj, Value idx, Value *out) {
  switch (obj.type) {
  case V_TENSOR: return tensor_index(I, obj.t, idx, NULL, out);
  case V_LIST: case V_TUPLE: case V_STR: {
    int64_t len = obj.type == V_STR ? (int64_t)as_str(obj)->ncp : as_list(obj)->n;
    if (idx.type == V_SLICE) {
      int64_t start, stop, step;
      if (slice_indices(I, (Slice *)idx.o, len, &start, &stop, &step) < 0) return -1;
      Value r;
      if (obj.type == V_STR) {
        if (str_slice(I, obj, start, stop, step, &r)) return -1;
      } else {
        r = obj.type == V_LIST ? value_list(I, 0) : value_tuple(I, 0);
        if (r.type == V_UNDEF) return -1;
        for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
          if (list_append(I, r, value_retain(as_list(obj)->items[i])) < 0) { value_decref(r); return -1; }
      }
      *out = r;
      return 0;
    }
    int64_t i;
    if (norm_seq_index(I, obj, idx, len, &i) < 0) return -1;
    if (obj.type == V_STR) return str_item(I, obj, i, out);
    *out = value_retain(as_list(obj)->items[i]);
    return 0;
  }
  case V_RANGE: {
    /* the length may pass INT64_MAX (range(-2**63, 2**63 - 1)): index in uint64 */
    Range *r = (Range *)obj.o;
    uint64_t len = progression_count(r->start, r->stop, r->step), u;
    int64_t i;
    if (value_to_int(I, idx, &i) < 0) {
      ctx_clear(&I->ctx);
      return ERR_TYPE(&I->ctx, "range indices must be integers or slices, not %s",
                      value_type_name(idx));
    }
    u = i >= 0 ? (uint64_t)i : len - ((uint64_t)0 - (uint64_t)i);
    if (i >= 0 ? u >= len : (uint64_t)0 - (uint64_t)i > len)
      return ERR_INDEX(&I->ctx, "range object index out of range");
    *out = v_int(progression_item(r->start, r->step, u));
    return 0;
  }
  case V_NAMESPACE:
    if (idx.type == V_STR) {
      Value *m = dict_get(((Namespace *)obj.o)->members, as_str(idx)->s);
      if (m) { *out = value_retain(*m); return 0; }
      if (strcmp(((Namespace *)obj.o)->name, "NpzFile") == 0)   /* load() of an .npz */
        return ctx_err(&I->ctx, TSR_ERR_INDEX, "KeyError", "'%s is not a file in the archive'",
                       as_str(idx)->s);
      return ctx_err(&I->ctx, TSR_ERR_INDEX, "KeyError", "'%s'", as_str(idx)->s);
    }
    break;
  default: break;
  }
  return ERR_TYPE(&I->ctx, "'%s' object is not subscriptable", value_type_name(obj));
}

static int subscript_set(Interp *I, Value obj, Value idx, Value v) {
  if (obj.type == V_TENSOR && scalar_index_set(obj.t, idx, v)) return 0;
  if (v.type == V_SCALAR) {
    Value bv = v;
    if (scalar_box(I, &bv) < 0) return -1;
    int rc = subscript_set(I, obj, idx, bv);
    value_decref(bv);
    return rc;
  }
  if (obj.type == V_TENSOR) return tensor_index(I, obj.t, idx, &v, NULL);
  if (obj.type == V_LIST) {
    int64_t i;
    if (norm_seq_index(I, obj, idx, as_list(obj)->n, &i) < 0) {
      if (I->ctx.status == TSR_ERR_INDEX) {
        ctx_clear(&I->ctx);
        return ERR_INDEX(&I->ctx, "list assignment index out of range");
      }
      return -1;
    }
    value_decref(as_list(obj)->items[i]);
    as_list(obj)->items[i] = value_retain(v);
    value_gc_stored(I, v);
    return 0;
  }
  return ERR_TYPE(&I->ctx, "'%s' object does not support item assignment", value_type_name(obj));
}

/* The view t[idx] when idx is basic indexing only (integers, slices, ..., None) on an ndarray
   (not a NumPy scalar): 0 with *view (a new reference), 1 when idx holds an array index, -1
   on error (the error assigning through idx gives: the same items, the same index_get). */
static int basic_view(Interp *I, Tensor *t, Value idx, Tensor **view) {
  IndexItem items[TSR_MAXDIMS + 1];
  Tensor *tmps[TSR_MAXDIMS + 1];
  int n = 0, rc = 1;
  if (t->ndim == 0 && !t->ndarray) return 1;
  if (index_items(I, t, idx, items, tmps, &n) < 0) { rc = -1; goto done; }
  for (int i = 0; i < n; i++)
    if (items[i].kind == IDX_ARRAY) goto done;
  *view = index_get(&I->ctx, t, items, n);
  rc = *view ? 0 : -1;
done:
  for (int i = 0; i < n; i++) if (tmps[i]) tensor_release(tmps[i]);
  return rc;
}

/* The object and index of the subscript target `obj[idx]`, evaluated in that order and as
   boxed values (new references); 0, or -1 with both left None. */
static int subscript_operands(Interp *I, Node *target, Value *obj, Value *idx) {
  *obj = *idx = v_none();
  if (eval_fast(I, target->a, obj) < 0) { *obj = v_none(); return -1; }
  if (eval_fast(I, target->b, idx) < 0) { *idx = v_none(); goto fail; }
  if (scalar_box(I, obj) < 0 || scalar_box(I, idx) < 0) goto fail;
  return 0;
fail:
  value_decref(*obj);
  value_decref(*idx);
  *obj = *idx = v_none();
  return -1;
}

/* `target[idx] = tree` for a fusable tree: the tree's operands are evaluated first (Python
   evaluates the value before the target), then the target and the index, and the fused pass
   then writes straight into the target's view (fuse_run_into), with no temporary, when the
   index is basic and the view has the tree's shape and dtype; otherwise the tree's value is
   computed and stored as usual. */
static int assign_fused(Interp *I, Node *target, Node *n) {
  FuseProg *p = fuse_new(&I->ctx);
  if (!p) return -1;
  FVal r = {-1, v_none()};
  Value obj = v_none(), idx = v_none(), v = v_none();
  int rc = fuse_walk_inner(I, p, n, &r);
  bool value_failed = rc < 0;   /* its error has its own position, as in eval */
  if (rc == 0 && p->n == 0) n->unfused = 1;
  if (rc == 0) rc = subscript_operands(I, target, &obj, &idx);
  if (rc == 0 && r.node >= 0 && obj.type == V_TENSOR) {
    Tensor *view = NULL;
    int k = basic_view(I, obj.t, idx, &view);
    if (k == 0) {
      k = fuse_run_into(&I->ctx, p, r.node, view);
      tensor_release(view);
    }
    if (k <= 0) { rc = k; goto done; }
  }
  if (rc == 0) rc = fval_take(I, p, &r, &v);
  if (rc == 0) rc = subscript_set(I, obj, idx, v);
done:
  value_decref(r.v);
  value_decref(v);
  value_decref(obj);
  value_decref(idx);
  fuse_done(&I->ctx, p);
  return rc < 0 && !value_failed ? set_pos(I, target) : rc;
}


/* subscript_get for operands that may be V_SCALAR; the result may be V_SCALAR. */
static int subscript_get_num(Interp *I, Value obj, Value idx, Value *out) {
  if (obj.type == V_TENSOR && scalar_index_get(obj.t, idx, out)) return 0;
  if (obj.type != V_SCALAR && idx.type != V_SCALAR) return subscript_get(I, obj, idx, out);
  Value bo, bi;
  if (box_pair(I, obj, idx, &bo, &bi) < 0) return -1;
  int rc = subscript_get(I, bo, bi, out);
  unbox_pair(obj, idx, bo, bi);
  return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Attributes. */

static int list_append_method(Interp *I, const Args *a, Value *out) {
  if (a->npos != 1 || a->nkw) return ERR_TYPE(&I->ctx, "list.append() takes exactly one argument (%d given)", a->npos);
  if (list_append(I, a->self, value_retain(a->pos[0])) < 0) return -1;
  value_gc_stored(I, a->pos[0]);
  *out = v_none();
  return 0;
}
static const Builtin list_append_builtin = {"list", "append", list_append_method,
                                            "append(object)\n\nAppend object to the end of the list."};

static int make_method(Interp *I, const Builtin *bi, Value self, Value *out) {
  Method *m = ctx_calloc(&I->ctx, sizeof(Method));
  if (!m) return -1;
  m->h.refcnt = 1; m->h.ctx = &I->ctx; m->h.size = sizeof(Method); m->h.type = V_METHOD;
  m->bi = bi; m->self = value_retain(self);
  value_gc_track(I, &m->h);
  out->type = V_METHOD; out->o = &m->h;
  return 0;
}

static int get_attr(Interp *I, Value obj, const char *name, Value *out) {
  switch (obj.type) {
  case V_NAMESPACE: {
    const char *ns = ((Namespace *)obj.o)->name;
    /* a dict's entries are items (d['precision']), not attributes */
    Value *m = strcmp(ns, "dict") == 0 ? NULL : dict_get(((Namespace *)obj.o)->members, name);
    if (m) { *out = value_retain(*m); return 0; }
    if (strcmp(ns, "NpzFile") == 0 || strcmp(ns, "dict") == 0)   /* load() of an .npz, dicts */
      return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError",
                     "'%s' object has no attribute '%s'", ns, name);
    /* the submodules print as Python names them: numpy.linalg, numpy.random, numpy.fft */
    bool numpy_sub = strcmp(ns, "numpy") != 0 && !(I->modules && dict_get(I->modules, ns));
    return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError", "module '%s%s' has no attribute '%s'",
                   numpy_sub ? "numpy." : "", ns, name);
  }
  case V_TENSOR: {
    int rc = builtins_tensor_attr(I, obj.t, name, out);
    if (rc == 0) return value_mark_ndarray(I, "ndarray", name, obj, out);
    if (rc < 0) return rc;
    Value *m = dict_get(I->methods, name);
    if (m) return make_method(I, m->bi, obj, out);
    return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError",
                   "'numpy.ndarray' object has no attribute '%s'", name);
  }
  case V_LIST:
    if (strcmp(name, "append") == 0) return make_method(I, &list_append_builtin, obj, out);
    break;
  case V_STR: {
    Value *m = dict_get(I->str_methods, name);
    if (m) return make_method(I, m->bi, obj, out);
    break;
  }
  case V_BUILTIN: {
    bool is_ufunc;
    const Builtin *m = builtins_ufunc_method(obj.bi, name, &is_ufunc);
    if (m) return make_method(I, m, obj, out);
    if (is_ufunc)
      return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError",
                     "'numpy.ufunc' object has no attribute '%s'", name);
    break;
  }
  case V_DTYPE:
    if (strcmp(name, "name") == 0) {
      *out = value_str(I, dtype_name(obj.dt), strlen(dtype_name(obj.dt)));
      return out->type == V_UNDEF ? -1 : 0;
    }
    if (strcmp(name, "itemsize") == 0) { *out = v_int((int64_t)dtype_size(obj.dt)); return 0; }
    break;
  default: break;
  }
  return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError", "'%s' object has no attribute '%s'",
                 value_type_name(obj), name);
}

/* ---------------------------------------------------------------------------------------- */
/* Calls. */

/* Arguments up to this many live on the C stack; more go to the heap, so that a call frame
   stays small (deep script recursion is bounded by the stack guard, not by fat frames). */
#define SMALL_ARGS 6
/* Arguments at one call site (beyond SMALL_ARGS they live on the heap): einsum with a
   hundred operands is a call of a hundred and one. */
#define MAX_CALL_ARGS 1024

/* Locals up to this many live on the C stack; more go to the heap. */
#define SMALL_SLOTS 8

/* noinline: its HostCall frame must not weigh on every call_value frame of a recursion */
__attribute__((noinline))
static int call_host(Interp *I, CFunc *f, const Args *a, Value *out) {
  HostCall hc;
  memset(&hc, 0, sizeof hc);
  hc.I = I; hc.args = a; hc.result = v_none();
  if (a->nkw) return ERR_TYPE(&I->ctx, "%s() takes no keyword arguments", f->name);
  if (a->npos > MAX_ARGS) return ERR_TYPE(&I->ctx, "%s(): too many arguments", f->name);
  tsr_Status st = f->fn((tsr_Call *)&hc, f->ud);
  for (int i = 0; i < MAX_ARGS; i++) if (hc.argt[i]) tensor_release(hc.argt[i]);
  if (st != TSR_OK || I->ctx.status != TSR_OK) {   /* an error left pending counts too */
    value_decref(hc.result);
    if (I->ctx.status == TSR_OK)
      ctx_err(&I->ctx, st, "RuntimeError", "host function %s() failed", f->name);
    return -1;
  }
  *out = hc.result;
  return 0;
}

static int call_dtype(Interp *I, DType dt, const Args *a, Value *out) {
  if (a->npos != 1 || a->nkw) {
    if (a->npos == 0 && !a->nkw) {
      Tensor *t = tensor_scalar_i64(&I->ctx, dt, 0);
      if (!t) return -1;
      *out = v_tensor(t); return 0;
    }
    return ERR_TYPE(&I->ctx, "%s() takes at most 1 argument", dtype_name(dt));
  }
  Tensor *t = value_to_tensor_strong(I, a->pos[0], (int)dt);
  if (!t) return -1;
  if (t->weak) t->weak = 0;
  *out = v_tensor(t);
  return value_mark_ndarray(I, "dtype", dtype_name(dt), a->pos[0], out);
}

/* Is the result of builtin bi the array passed as its out= (by keyword, or positionally after
   the first argument)?  NumPy returns that array itself, so it stays a 0-d array; but for
   dot, whose result NumPy hands back as a scalar (PyArray_Return). */
static bool returns_out(const Builtin *bi, const Args *a, Value out) {
  if (out.type != V_TENSOR || !out.t->ndarray || strcmp(bi->name, "dot") == 0) return false;
  for (int k = 0; k < a->nkw; k++)
    if (strcmp(a->kwnames[k], "out") == 0 && a->kw[k].type == V_TENSOR && a->kw[k].t == out.t)
      return true;
  for (int k = 1; k < a->npos; k++)
    if (a->pos[k].type == V_TENSOR && a->pos[k].t == out.t) return true;
  return false;
}

static int call_value(Interp *I, Value fn, const Args *a, Value *out) {
  switch (fn.type) {
  case V_BUILTIN:
    if (fn.bi->fn(I, a, out) < 0) return -1;
    if (returns_out(fn.bi, a, *out)) return 0;
    return value_mark_ndarray(I, fn.bi->ns, fn.bi->name, a->npos ? a->pos[0] : v_undef(), out);
  case V_METHOD: {
    Method *m = (Method *)fn.o;
    Args b = *a;
    b.self = m->self;
    if (m->bi->fn(I, &b, out) < 0) return -1;
    if (returns_out(m->bi, a, *out)) return 0;
    return value_mark_ndarray(I, m->bi->ns, m->bi->name, m->self, out);
  }
  case V_FUNC: return vm_call(I, (Func *)fn.o, a, out);
  case V_CFUNC: return call_host(I, (CFunc *)fn.o, a, out);
  case V_DTYPE: return call_dtype(I, fn.dt, a, out);
  default:
    return ERR_TYPE(&I->ctx, "'%s' object is not callable", value_type_name(fn));
  }
}

int interp_call(Interp *I, Value fn, const Args *a, Value *out) { return call_value(I, fn, a, out); }

static int iter_len(Interp *I, Value v, int64_t *len);
static int iter_item(Interp *I, Value v, int64_t i, Value *out);
int interp_binary(Interp *I, int op, Value a, Value b, Value *out) {
  return binary_op(I, op, a, b, NULL, out);
}
/* Builtins that compare or walk items (sorted, max, min, sum, list, random.sample...) are
   charged an object per comparison and per item through these two. */
int interp_compare(Interp *I, int op, Value a, Value b, Value *out) {
  if (ctx_work(&I->ctx, 1, WORK_OBJECT)) return -1;
  return compare_op(I, op, a, b, out);
}
int interp_unary(Interp *I, int op, Value a, Value *out) { return unary_op(I, op, a, out); }
int interp_iter_len(Interp *I, Value v, int64_t *len) { return iter_len(I, v, len); }
int interp_getattr(Interp *I, Value obj, const char *name, Value *out) {
  return get_attr(I, obj, name, out);
}
int interp_getitem(Interp *I, Value obj, Value key, Value *out) {
  return subscript_get(I, obj, key, out);
}
int interp_iter_item(Interp *I, Value v, int64_t i, Value *out) {
  if (ctx_work(&I->ctx, 1, WORK_OBJECT)) return -1;
  return iter_item(I, v, i, out);
}

static int eval_call(Interp *I, Node *n, Value *out) {
  Value fn, small_vals[2 * SMALL_ARGS];
  const char *small_names[SMALL_ARGS];
  int npos = 0, nkw = 0, rc = -1;
  if (n->n > MAX_CALL_ARGS)
    return ERR_TYPE(&I->ctx, "too many arguments (at most %d)", MAX_CALL_ARGS);
  int cap = n->n > SMALL_ARGS ? n->n : SMALL_ARGS;
  Value *pos = small_vals, *kw = small_vals + SMALL_ARGS;
  const char **kwnames = small_names;
  void *heap = NULL;
  size_t heap_size = 0;
  if (cap > SMALL_ARGS) {
    heap_size = (size_t)cap * (2 * sizeof(Value) + sizeof(char *));
    if (!(heap = ctx_malloc(&I->ctx, heap_size))) return -1;
    pos = heap;
    kw = pos + cap;
    kwnames = (const char **)(kw + cap);
  }
  if (eval(I, n->a, &fn) < 0) goto out;
  for (Node *arg = n->b; arg; arg = arg->next) {
    if (arg->kind == N_KWARG) {
      if (eval(I, arg->a, &kw[nkw]) < 0) goto done;
      kwnames[nkw++] = arg->str;
    } else {
      if (nkw) { ERR_TYPE(&I->ctx, "positional argument follows keyword argument"); set_pos(I, arg); goto done; }
      if (eval(I, arg, &pos[npos]) < 0) goto done;
      npos++;
    }
  }
  Args a = {npos, pos, nkw, kwnames, kw, v_undef()};
  I->depth++;
  rc = call_value(I, fn, &a, out);
  I->depth--;
done:
  for (int i = 0; i < npos; i++) value_decref(pos[i]);
  for (int i = 0; i < nkw; i++) value_decref(kw[i]);
  value_decref(fn);
out:
  if (heap) ctx_free(&I->ctx, heap, heap_size);
  return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Expressions. */

static int eval_seq(Interp *I, Node *n, VType type, Value *out) {
  Value r = type == V_LIST ? value_list(I, n->n) : value_tuple(I, n->n);
  if (r.type == V_UNDEF) return -1;
  int64_t i = 0;
  for (Node *e = n->a; e; e = e->next, i++) {
    Value v;
    if (eval(I, e, &v) < 0) { value_decref(r); return -1; }
    as_list(r)->items[i] = v;
  }
  *out = r;
  return 0;
}

static int eval_opt(Interp *I, Node *n, Value *out) {
  if (!n) { *out = v_none(); return 0; }
  return eval(I, n, out);
}

static int eval_compare(Interp *I, Node *n, Value *out) {
  Value left;
  if (eval_num(I, n->a, &left) < 0) return -1;
  for (Node *it = n->b; it; it = it->next) {
    Value right, r;
    if (eval_num(I, it->a, &right) < 0) { value_decref(left); return -1; }
    int rc = compare_op_num(I, it->op, left, right, &r);
    value_decref(left);
    if (rc < 0) { value_decref(right); return -1; }
    if (!it->next) { value_decref(right); *out = r; return 0; }
    int t = value_truth(I, r);
    if (t <= 0) { value_decref(right); if (t < 0) { value_decref(r); return -1; } *out = r; return 0; }
    value_decref(r);
    left = right;
  }
  *out = left;
  return 0;
}

static int eval_inner(Interp *I, Node *n, Value *out) {
  Value a, b;
  int rc;
  switch (n->kind) {
  case N_INT: *out = v_int(n->ival); return 0;
  case N_FLOAT: *out = v_float(n->fval); return 0;
  case N_STR: *out = value_str(I, n->str, n->len); return out->type == V_UNDEF ? -1 : 0;
  case N_TRUE: *out = v_bool(true); return 0;
  case N_FALSE: *out = v_bool(false); return 0;
  case N_NONE: *out = v_none(); return 0;
  case N_ELLIPSIS: out->type = V_ELLIPSIS; out->i = 0; return 0;
  case N_NAME: return lookup(I, n, out);
  case N_BINOP:
    if (!n->unfused && is_fusion_root(n)) return eval_fused(I, n, out);
    if (eval_fast(I, n->a, &a) < 0) return -1;
    if (eval_fast(I, n->b, &b) < 0) { value_decref(a); return -1; }
    if (number_binop(n->op, a, b, out)) return 0;   /* no references: a and b are numbers */
    rc = binary_op_num(I, n->op, a, b, elidable_temporary(n->op, a, b), out);
    value_decref(a); value_decref(b);
    return n->unfused ? unfused_result(n, rc, out) : rc;
  case N_UNARY:
    if (!n->unfused && is_fusion_root(n)) return eval_fused(I, n, out);
    if (eval_num(I, n->a, &a) < 0) return -1;
    rc = unary_op_num(I, n->op, a, out);
    value_decref(a);
    return n->unfused ? unfused_result(n, rc, out) : rc;
  case N_AND: case N_OR: {
    if (eval(I, n->a, &a) < 0) return -1;
    int t = value_truth(I, a);
    if (t < 0) { value_decref(a); return -1; }
    if ((n->kind == N_AND) != (t != 0)) { *out = a; return 0; }
    value_decref(a);
    return eval(I, n->b, out);
  }
  case N_COMPARE:
    if (!n->unfused && is_fusion_root(n)) return eval_fused(I, n, out);
    rc = eval_compare(I, n, out);
    return n->unfused ? unfused_result(n, rc, out) : rc;
  case N_IFEXP: {
    if (eval(I, n->b, &a) < 0) return -1;
    int t = value_truth(I, a);
    value_decref(a);
    if (t < 0) return -1;
    return eval(I, t ? n->a : n->c, out);
  }
  case N_CALL: return eval_call(I, n, out);
  case N_ATTR:
    if (eval(I, n->a, &a) < 0) return -1;
    rc = get_attr(I, a, n->str, out);
    value_decref(a);
    return rc;
  case N_SUBSCRIPT:
    if (plain_subscript(n)) {
      Value *base = name_ref(I, n->a);
      if (!base) return set_pos(I, n->a);
      a = *base;   /* borrowed: nothing below can rebind the name */
      if (eval_fast(I, n->b, &b) < 0) return -1;
      rc = subscript_get_num(I, a, b, out);
      value_decref(b);
      return rc;
    }
    if (eval_fast(I, n->a, &a) < 0) return -1;
    if (eval_fast(I, n->b, &b) < 0) { value_decref(a); return -1; }
    rc = subscript_get_num(I, a, b, out);
    value_decref(a); value_decref(b);
    return rc;
  case N_SLICE: {
    Value s0, s1, s2;
    if (eval_opt(I, n->a, &s0) < 0) return -1;
    if (eval_opt(I, n->b, &s1) < 0) { value_decref(s0); return -1; }
    if (eval_opt(I, n->c, &s2) < 0) { value_decref(s0); value_decref(s1); return -1; }
    *out = value_slice(I, s0, s1, s2);
    return out->type == V_UNDEF ? -1 : 0;
  }
  case N_TUPLE: return eval_seq(I, n, V_TUPLE, out);
  case N_LIST: return eval_seq(I, n, V_LIST, out);
  default:
    return ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "invalid expression");
  }
}

/* Evaluates n into *out (a new reference), which may be a V_SCALAR temporary. */
static int eval_num(Interp *I, Node *n, Value *out) {
  if (++I->depth > MAX_EVAL_DEPTH || ctx_stack_exhausted(&I->ctx)) {
    I->depth--;
    err_recursion(I);
    return set_pos(I, n);
  }
  if (I->frame) I->frame->line = n->line;   /* where a RuntimeWarning points (api.c) */
  int rc = eval_inner(I, n, out);
  I->depth--;
  if (rc < 0) return set_pos(I, n);
  return 0;
}

/* Evaluates n into *out (a new reference; never V_SCALAR). */
static int eval(Interp *I, Node *n, Value *out) {
  if (eval_num(I, n, out) < 0) return -1;
  if (out->type == V_SCALAR && scalar_box(I, out) < 0) return set_pos(I, n);
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Statements. */

static int iter_len(Interp *I, Value v, int64_t *len) {
  switch (v.type) {
  case V_LIST: case V_TUPLE: *len = as_list(v)->n; return 0;
  case V_STR: *len = (int64_t)as_str(v)->ncp; return 0;
  case V_TENSOR:
    if (v.t->ndim == 0 && !v.t->ndarray)
      return ERR_TYPE(&I->ctx, "'%s' object is not iterable", value_type_name(v));
    if (v.t->ndim == 0) return ERR_TYPE(&I->ctx, "iteration over a 0-d array");
    *len = v.t->shape[0]; return 0;
  case V_RANGE: {
    Range *r = (Range *)v.o;
    uint64_t n = progression_count(r->start, r->stop, r->step);
    *len = n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n;   /* the budget ends it first */
    return 0;
  }
  default:
    return ERR_TYPE(&I->ctx, "'%s' object is not iterable", value_type_name(v));
  }
}

/* Item i of an iterable (new reference). */
static int iter_item(Interp *I, Value v, int64_t i, Value *out) {
  switch (v.type) {
  case V_RANGE: {
    Range *r = (Range *)v.o;
    *out = v_int(progression_item(r->start, r->step, (uint64_t)i));
    return 0;
  }
  case V_LIST: case V_TUPLE: *out = value_retain(as_list(v)->items[i]); return 0;
  case V_STR: return str_item(I, v, i, out);
  case V_TENSOR: {
    IndexItem it;
    memset(&it, 0, sizeof it);
    it.kind = IDX_INT; it.i = i;
    Tensor *t = index_get(&I->ctx, v.t, &it, 1);
    if (!t) return -1;
    *out = v_tensor(t);
    return 0;
  }
  default: return ERR_TYPE(&I->ctx, "'%s' object is not iterable", value_type_name(v));
  }
}

static int assign(Interp *I, Node *target, Value v);

static int unpack(Interp *I, Node *target, Value v) {
  int64_t len;
  if (iter_len(I, v, &len) < 0) {
    ctx_clear(&I->ctx);
    return ERR_TYPE(&I->ctx, "cannot unpack non-iterable %s object", value_type_name(v));
  }
  if (len != target->n) {
    if (len > target->n)
      return ERR_VALUE(&I->ctx, "too many values to unpack (expected %d)", target->n);
    return ERR_VALUE(&I->ctx, "not enough values to unpack (expected %d, got %lld)", target->n,
                     (long long)len);
  }
  int64_t i = 0;
  for (Node *t = target->a; t; t = t->next, i++) {
    Value item;
    if (iter_item(I, v, i, &item) < 0) return -1;
    int rc = assign(I, t, item);
    value_decref(item);
    if (rc < 0) return set_pos(I, t);
  }
  return 0;
}

/* Assigns v (borrowed) to a target expression. */
static int assign(Interp *I, Node *target, Value v) {
  Value obj, idx;
  int rc;
  switch (target->kind) {
  case N_NAME: return store_name(I, target, value_retain(v));
  case N_TUPLE: case N_LIST: return unpack(I, target, v);
  case N_SUBSCRIPT:
    if (plain_subscript(target)) {
      Value *base = name_ref(I, target->a);
      if (!base) return set_pos(I, target->a);
      obj = *base;   /* borrowed: nothing below can rebind the name */
      if (eval_fast(I, target->b, &idx) < 0) return -1;
      rc = subscript_set(I, obj, idx, v);
      value_decref(idx);
      return rc < 0 ? set_pos(I, target) : 0;
    }
    if (subscript_operands(I, target, &obj, &idx) < 0) return -1;
    rc = subscript_set(I, obj, idx, v);
    value_decref(obj); value_decref(idx);
    return rc < 0 ? set_pos(I, target) : 0;
  case N_ATTR:
    if (strcmp(target->str, "flat") == 0) {
      if (eval_fast(I, target->a, &obj) < 0) return -1;
      rc = obj.type == V_TENSOR ? builtins_set_flat(I, obj.t, v)
                                : ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError",
                                          "cannot set attribute 'flat'");
      value_decref(obj);
      return rc < 0 ? set_pos(I, target) : 0;
    }
    return ctx_err(&I->ctx, TSR_ERR_TYPE, "AttributeError", "cannot set attribute '%s'", target->str);
  default:
    return ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "cannot assign to expression");
  }
}

static int exec_augassign(Interp *I, Node *n) {
  Node *t = n->a;
  Value cur, rhs, res, obj = v_undef(), idx = v_undef();
  int rc = -1;
  if (t->kind == N_SUBSCRIPT) {
    if (eval(I, t->a, &obj) < 0) return -1;
    if (eval(I, t->b, &idx) < 0) { value_decref(obj); return -1; }
    if (subscript_get_num(I, obj, idx, &cur) < 0) { value_decref(obj); value_decref(idx); return set_pos(I, t); }
  } else if (t->kind == N_NAME) {
    if (lookup(I, t, &cur) < 0) return set_pos(I, t);
  } else {
    return ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError",
                   "'%s' is an illegal expression for augmented assignment", ast_kind_name(t->kind));
  }
  if (eval(I, n->b, &rhs) < 0) goto done_cur;
  /* an array (0-d included) updates in place (ndarray.__iadd__); a NumPy scalar has no
     in-place operators, so x += y is x = x + y (a new value, any dtype or shape) */
  Tensor *inplace = cur.type == V_TENSOR && (cur.t->ndim > 0 || cur.t->ndarray) ? cur.t : NULL;
  if (inplace && (inplace->readonly || inplace->storage->readonly)) {   /* NumPy's ufunc text */
    ERR_VALUE(&I->ctx, "output array is read-only");
    value_decref(rhs);
    goto done_cur;
  }
  rc = binary_op_num(I, n->op, cur, rhs, inplace, &res);
  value_decref(rhs);
  if (rc < 0) goto done_cur;
  if (t->kind != N_SUBSCRIPT && scalar_box(I, &res) < 0) { rc = -1; goto done_cur; }
  if (t->kind == N_SUBSCRIPT) rc = subscript_set(I, obj, idx, res);
  else rc = store_name(I, t, value_retain(res));
  value_decref(res);
done_cur:
  value_decref(cur);
  value_decref(obj); value_decref(idx);
  return rc;
}

static int exec_def(Interp *I, Node *n) {
  Ctx *c = &I->ctx;
  if (n->n > MAX_ARGS) return ERR_TYPE(c, "too many parameters (at most %d)", MAX_ARGS);
  if (!n->cache)   /* every chunk is resolved before it runs */
    return ctx_err(c, TSR_ERR_RUNTIME, "SystemError", "function %s was not resolved", n->str);
  Func *f = ctx_calloc(c, sizeof(Func));
  if (!f) return -1;
  f->h.refcnt = 1; f->h.ctx = c; f->h.size = sizeof(Func); f->h.type = V_FUNC;
  f->def = n;
  f->chunk = I->cur_chunk;
  if (f->chunk) f->chunk->refcnt++;
  f->globals = I->frame->globals;
  f->nparams = n->n;
  Value fv; fv.type = V_FUNC; fv.o = &f->h;
  value_gc_track(I, &f->h);
  if (n->n) {
    f->defaults = ctx_malloc(c, (size_t)n->n * sizeof(Value));
    if (!f->defaults) { f->nparams = 0; value_decref(fv); return -1; }
    for (int i = 0; i < n->n; i++) f->defaults[i] = v_undef();
    int i = 0;
    for (Node *p = n->a; p; p = p->next, i++)
      if (p->a && eval(I, p->a, &f->defaults[i]) < 0) { value_decref(fv); return -1; }
  }
  Node *first = n->b ? n->b->a : NULL;
  if (first && first->kind == N_EXPR && first->a->kind == N_STR) f->doc = first->a->str;
  return bind(I, n->str, fv);
}

static int exec_import(Interp *I, Node *n) {
  Ctx *c = &I->ctx;
  const char *mod = n->str;
  Value target;
  if (interp_import(I, mod, &target) < 0) return -1;
  if (n->kind == N_IMPORT) {
    const char *name = n->a ? n->a->str : mod;
    if (!n->a && strchr(mod, '.')) {   /* import numpy.linalg binds numpy */
      value_decref(target);
      return bind(I, "numpy", value_retain(I->numpy));
    }
    return bind(I, name, target);
  }
  /* from MODULE import names | * */
  Namespace *ns = (Namespace *)target.o;
  int rc = 0;
  if (n->n == 0 && I->frame->scope) {
    value_decref(target);
    return ctx_err(c, TSR_ERR_SYNTAX, "SyntaxError", "import * only allowed at module level");
  }
  if (n->n == 0) {
    if (ns->members == I->numpy_dict) {
      rc = interp_star_import_numpy(I, I->frame->globals);
    } else {   /* from numpy.linalg import * */
      for (size_t i = 0; i < ns->members->cap && rc == 0; i++)
        if (ns->members->slots[i].key)
          rc = bind(I, ns->members->slots[i].key, value_retain(ns->members->slots[i].value));
    }
  } else {
    for (Node *m = n->a; m && rc == 0; m = m->next) {
      Value *v = dict_get(ns->members, m->str);
      if (!v) {
        rc = ctx_err(c, TSR_ERR_NAME, "ImportError", "cannot import name '%s' from '%s'", m->str, mod);
        break;
      }
      rc = bind(I, m->a ? m->a->str : m->str, value_retain(*v));
    }
  }
  value_decref(target);
  return rc;
}

static int exec_stmt(Interp *I, Node *s) {
  Value v;
  int rc = 0;
  if (ctx_poll(&I->ctx, 1) < 0) return set_pos(I, s);
  value_gc_maybe(I);
  switch (s->kind) {
  case N_EXPR:
    if (eval(I, s->a, &v) < 0) return -1;
    value_decref(v);
    return EXEC_NORMAL;
  case N_ASSIGN:
    if (s->a->kind == N_SUBSCRIPT && !s->a->next && !s->b->unfused && is_fusion_root(s->b))
      return assign_fused(I, s->a, s->b) < 0 ? -1 : EXEC_NORMAL;
    if (eval_num(I, s->b, &v) < 0) return -1;
    if (v.type == V_SCALAR && (s->a->kind != N_SUBSCRIPT || s->a->next) && scalar_box(I, &v) < 0)
      return set_pos(I, s);
    for (Node *t = s->a; t; t = t->next)
      if (assign(I, t, v) < 0) { value_decref(v); return set_pos(I, t); }
    value_decref(v);
    return EXEC_NORMAL;
  case N_AUGASSIGN:
    return exec_augassign(I, s) < 0 ? set_pos(I, s) : EXEC_NORMAL;
  case N_DEF:
    return exec_def(I, s) < 0 ? set_pos(I, s) : EXEC_NORMAL;
  case N_RETURN:
    if (!I->frame->scope)
      return ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "'return' outside function"), set_pos(I, s);
    if (eval_opt(I, s->a, &v) < 0) return -1;
    value_decref(I->retval);
    I->retval = v;
    return EXEC_RETURN;
  case N_IF:
    for (;;) {
      if (eval(I, s->a, &v) < 0) return -1;
      int t = value_truth(I, v);
      value_decref(v);
      if (t < 0) return set_pos(I, s->a);
      if (t) return exec_block(I, s->b);
      if (!s->c) return EXEC_NORMAL;
      if (s->c->kind != N_IF) return exec_block(I, s->c);
      s = s->c;
    }
  case N_WHILE:
    for (;;) {
      if (eval(I, s->a, &v) < 0) return -1;
      int t = value_truth(I, v);
      value_decref(v);
      if (t < 0) return set_pos(I, s->a);
      if (!t) return EXEC_NORMAL;
      rc = exec_block(I, s->b);
      if (rc < 0 || rc == EXEC_RETURN) return rc;
      if (rc == EXEC_BREAK) return EXEC_NORMAL;
      if (ctx_poll(&I->ctx, 1) < 0) return set_pos(I, s);
    }
  case N_FOR: {
    Value seq;
    int64_t len;
    if (eval(I, s->b, &seq) < 0) return -1;
    if (iter_len(I, seq, &len) < 0) { value_decref(seq); return set_pos(I, s->b); }
    rc = EXEC_NORMAL;
    for (int64_t i = 0; i < len; i++) {
      Value item;
      if (iter_item(I, seq, i, &item) < 0) { rc = set_pos(I, s->b); break; }
      int ar = assign(I, s->a, item);
      value_decref(item);
      if (ar < 0) { rc = set_pos(I, s->a); break; }
      rc = exec_block(I, s->c);
      if (rc < 0 || rc == EXEC_RETURN) break;
      if (rc == EXEC_BREAK) { rc = EXEC_NORMAL; break; }
      rc = EXEC_NORMAL;
      /* a list may shrink while iterated */
      if ((seq.type == V_LIST) && as_list(seq)->n < len) len = as_list(seq)->n;
      if (ctx_poll(&I->ctx, 1) < 0) { rc = set_pos(I, s); break; }
    }
    value_decref(seq);
    return rc;
  }
  case N_BREAK: return EXEC_BREAK;
  case N_CONTINUE: return EXEC_CONTINUE;
  case N_PASS: case N_GLOBAL: return EXEC_NORMAL;
  case N_ASSERT: {
    if (eval(I, s->a, &v) < 0) return -1;
    int t = value_truth(I, v);
    value_decref(v);
    if (t < 0) return set_pos(I, s);
    if (t) return EXEC_NORMAL;
    Buf b; buf_init(&b, &I->ctx);
    if (s->b) {
      Value m;
      if (eval(I, s->b, &m) < 0) { buf_free(&b); return -1; }
      value_to_string(I, &b, m);
      value_decref(m);
    }
    ctx_err(&I->ctx, TSR_ERR_RUNTIME, "AssertionError", "%s", buf_str(&b));
    buf_free(&b);
    return set_pos(I, s);
  }
  case N_DEL:
    for (Node *t = s->a; t; t = t->next) {
      if (t->kind != N_NAME)
        return ctx_err(&I->ctx, TSR_ERR_TYPE, "TypeError", "del supports only names"), set_pos(I, t);
      Frame *f = I->frame;
      if (t->slot > 0) {
        Value old = f->slots[t->slot - 1];
        if (old.type == V_UNDEF) return unbound_local(I, t->str), set_pos(I, t);
        f->slots[t->slot - 1] = v_undef();
        value_decref(old);
      } else if (!dict_del(f->globals, t->str)) {
        return ctx_err(&I->ctx, TSR_ERR_NAME, "NameError", "name '%s' is not defined", t->str),
               set_pos(I, t);
      }
    }
    return EXEC_NORMAL;
  case N_IMPORT: case N_FROMIMPORT:
    return exec_import(I, s) < 0 ? set_pos(I, s) : EXEC_NORMAL;
  case N_BLOCK: return exec_block(I, s);
  default:
    return ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "unsupported statement"), set_pos(I, s);
  }
}

static int exec_block(Interp *I, Node *block) {
  if (++I->depth > MAX_EVAL_DEPTH || ctx_stack_exhausted(&I->ctx)) {
    I->depth--;
    err_recursion(I);
    return set_pos(I, block);
  }
  int rc = EXEC_NORMAL;
  for (Node *s = block->a; s; s = s->next) {
    rc = exec_stmt(I, s);
    if (rc != EXEC_NORMAL) break;
  }
  I->depth--;
  return rc;
}

int eval_chunk(Interp *I, ChunkRef *cr, bool interactive, Value *result) {
  Frame *saved = I->frame;
  ChunkRef *saved_chunk = I->cur_chunk;
  I->cur_chunk = cr;
  if (result) *result = v_none();
  int rc = 0;
  Node *where;
  Proto *p;
  if ((!cr->chunk->resolved && eval_check_supported(&I->ctx, cr->chunk, &where) < 0) ||
      resolve_chunk(&I->ctx, cr->chunk, &where) < 0 ||
      compile_chunk(I, cr->chunk, interactive, result != NULL, &p, &where) < 0)
    rc = where ? set_pos(I, where) : -1;
  else
    rc = vm_run_module(I, p, cr, result);
  I->frame = saved;
  I->cur_chunk = saved_chunk;
  value_decref(I->retval);
  I->retval = v_none();
  I->depth = 0;
  I->call_depth = 0;
  /* cycles made by this chunk go now (only a container stored into a list can make one) */
  if (!saved) value_gc_chunk_end(I);
  return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* The pieces the virtual machine uses (vm.h). */

int eval_set_pos(Interp *I, Node *n) { return set_pos(I, n); }
Value *eval_name_ref(Interp *I, Node *n) { return name_ref(I, n); }
int eval_store_name(Interp *I, Node *n, Value v) { return store_name(I, n, v); }
int eval_unbound_local(Interp *I, const char *name) { return unbound_local(I, name); }
int eval_expr_num(Interp *I, Node *n, Value *out) { return eval_num(I, n, out); }
int eval_exec_stmt(Interp *I, Node *s) {
  int rc = exec_stmt(I, s);
  return rc < 0 ? -1 : 0;
}
int eval_assign_target(Interp *I, Node *target, Value v) {
  return assign(I, target, v) < 0 ? set_pos(I, target) : 0;
}

/* mode: 0 a plain operator, 1 the same with a left operand nobody else holds (a temporary
   of the VM: its buffer may be reused), 2 augmented assignment (in place on a tensor). */
int eval_binary_num(Interp *I, int op, Value a, Value b, int mode, Value *out) {
  if (mode == 2) {
    /* an array (0-d included) updates in place (ndarray.__iadd__); a NumPy scalar has no
       in-place operators, so x += y is x = x + y */
    Tensor *inplace = a.type == V_TENSOR && (a.t->ndim > 0 || a.t->ndarray) ? a.t : NULL;
    if (inplace && (inplace->readonly || inplace->storage->readonly))   /* NumPy's ufunc text */
      return ERR_VALUE(&I->ctx, "output array is read-only");
    return binary_op_num(I, op, a, b, inplace, out);
  }
  if (number_binop(op, a, b, out)) return 0;
  return binary_op_num(I, op, a, b, mode == 1 ? elidable_temporary(op, a, b) : NULL, out);
}
int eval_compare_num(Interp *I, int op, Value a, Value b, Value *out) {
  return compare_op_num(I, op, a, b, out);
}
int eval_unary_num(Interp *I, int op, Value a, Value *out) { return unary_op_num(I, op, a, out); }
int eval_getitem_num(Interp *I, Value obj, Value idx, Value *out) {
  return subscript_get_num(I, obj, idx, out);
}
int eval_setitem(Interp *I, Value obj, Value idx, Value v) { return subscript_set(I, obj, idx, v); }
int eval_getattr(Interp *I, Value obj, const char *name, Value *out) {
  return get_attr(I, obj, name, out);
}
int eval_call_value(Interp *I, Value fn, const Args *a, Value *out) {
  return call_value(I, fn, a, out);
}
int eval_iter_len(Interp *I, Value v, int64_t *len) { return iter_len(I, v, len); }
int eval_iter_item(Interp *I, Value v, int64_t i, Value *out) { return iter_item(I, v, i, out); }
bool eval_is_fusion_root(Node *n) { return is_fusion_root(n); }
int eval_recursion_error(Interp *I) { return err_recursion(I); }
