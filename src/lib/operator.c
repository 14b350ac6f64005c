/*
** operator.c -- Python's operator module: the operators as functions (add, mul, lt, neg, ...),
** run exactly as the evaluator runs the operator (so they work on tensors too).  Not yet:
** itemgetter, attrgetter, methodcaller (they need callable objects with state).
*/
#include "lib.h"

/* name, operator, kind: 'b' binary, 'c' comparison, 'u' unary */
#define OPERATOR_FUNCTIONS(X)                                                             \
  X(add, OP_ADD, 'b') X(sub, OP_SUB, 'b') X(mul, OP_MUL, 'b') X(truediv, OP_DIV, 'b')   \
  X(floordiv, OP_FLOORDIV, 'b') X(mod, OP_MOD, 'b') X(pow, OP_POW, 'b')                 \
  X(matmul, OP_MATMUL, 'b') X(lshift, OP_LSHIFT, 'b') X(rshift, OP_RSHIFT, 'b')         \
  X(and_, OP_BITAND, 'b') X(or_, OP_BITOR, 'b') X(xor, OP_BITXOR, 'b')                  \
  X(concat, OP_ADD, 'b')                                                                \
  X(lt, OP_LT, 'c') X(le, OP_LE, 'c') X(gt, OP_GT, 'c') X(ge, OP_GE, 'c')               \
  X(eq, OP_EQ, 'c') X(ne, OP_NE, 'c') X(is_, OP_IS, 'c') X(is_not, OP_IS_NOT, 'c')      \
  X(neg, OP_NEG, 'u') X(pos, OP_POS, 'u') X(invert, OP_INVERT, 'u') X(inv, OP_INVERT, 'u') \
  X(not_, OP_NOT, 'u')

static int apply(Interp *I, const Args *a, const char *name, int op, char kind, Value *out) {
  int n = kind == 'u' ? 1 : 2;
  if (a->nkw) return IERR_TYPE(I, "%s() takes no keyword arguments", name);
  if (a->npos != n)
    return IERR_TYPE(I, n == 1 ? "%s() takes exactly one argument (%d given)"
                               : "%s expected 2 arguments, got %d", name, a->npos);
  if (kind == 'u') return interp_unary(I, op, a->pos[0], out);
  if (kind == 'c') return interp_compare(I, op, a->pos[0], a->pos[1], out);
  return interp_binary(I, op, a->pos[0], a->pos[1], out);
}

#define X_FN(name, op, kind) \
  static int operator_##name(Interp *I, const Args *a, Value *out) { return apply(I, a, #name, op, kind, out); }
OPERATOR_FUNCTIONS(X_FN)
#undef X_FN

/* contains(a, b): b in a */
static int operator_contains(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "contains", "a,b", s)) return -1;
  return interp_compare(I, OP_IN, s[1], s[0], out);
}

static int operator_truth(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "truth", "a", s)) return -1;
  int t = value_truth(I, s[0]);
  if (t < 0) return -1;
  *out = v_bool(t);
  return 0;
}

static int operator_getitem(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "getitem", "a,b", s)) return -1;
  return interp_getitem(I, s[0], s[1], out);
}

static int operator_abs(Interp *I, const Args *a, Value *out) {
  Value *fn = dict_get(I->py_builtins, "abs");
  if (!fn) return ERR_RUNTIME(interp_ctx(I), "abs is missing");
  return interp_call(I, *fn, a, out);
}

static int operator_index(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t i;
  if (args_parse(I, a, "index", "a", s) || value_to_int(I, s[0], &i)) return -1;
  *out = v_int(i);
  return 0;
}

#define X_ROW(name, op, kind) {"operator", #name, operator_##name, #name "(a, b)\n\nSame as the operator."},
static const Builtin operator_functions[] = {
  OPERATOR_FUNCTIONS(X_ROW)
  {"operator", "contains", operator_contains, "contains(a, b, /)\n\nSame as b in a."},
  {"operator", "truth", operator_truth, "truth(a, /)\n\nReturn True if a is true, False "
   "otherwise."},
  {"operator", "getitem", operator_getitem, "getitem(a, b, /)\n\nSame as a[b]."},
  {"operator", "abs", operator_abs, "abs(a, /)\n\nSame as abs(a)."},
  {"operator", "index", operator_index, "index(a, /)\n\nSame as a.__index__()."},
  {NULL, NULL, NULL, NULL}
};
#undef X_ROW

const ModuleDef lib_operator = {"operator", operator_functions, NULL, 0};
