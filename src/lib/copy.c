/*
** copy.c -- Python's copy module: copy (a new list; tuples, strs, numbers as they are; an
** ndarray's copy) and deepcopy (lists and tuples copied all the way down, keeping shared
** objects shared and cycles cyclic through a memo, as CPython's does).
*/
#include "lib.h"

#include <string.h>

static int copy_tensor(Interp *I, Value v, Value *out) {
  Tensor *t = tensor_copy(interp_ctx(I), v.t);
  if (!t) return -1;
  t->ndarray = v.t->ndarray;
  *out = v_tensor(t);
  return 0;
}

static int copy_copy(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "copy", "x", s)) return -1;
  Value v = s[0];
  if (v.type == V_TENSOR && (v.t->ndim > 0 || v.t->ndarray)) return copy_tensor(I, v, out);
  if (v.type != V_LIST) { *out = value_retain(v); return 0; }
  List *l = as_list(v);
  Value r = value_list(I, l->n);
  if (r.type == V_UNDEF) return -1;
  for (int64_t i = 0; i < l->n; i++) {
    value_decref(as_list(r)->items[i]);
    as_list(r)->items[i] = value_retain(l->items[i]);
  }
  *out = r;
  return 0;
}

/* The memo: originals (containers) and their copies, searched linearly (n is small in
   practice; a hash map comes with the dict type). */
typedef struct Memo { Ctx *c; Obj **from; Value *to; int64_t n, cap; } Memo;

static int memo_find(const Memo *m, Obj *o, Value *out) {
  for (int64_t i = 0; i < m->n; i++)
    if (m->from[i] == o) { *out = value_retain(m->to[i]); return 1; }
  return 0;
}

static int memo_add(Memo *m, Obj *o, Value copy) {
  if (m->n == m->cap) {   /* both arrays grow, or neither */
    int64_t cap = m->cap ? 2 * m->cap : 16;
    Obj **f = ctx_malloc(m->c, (size_t)cap * sizeof *f);
    Value *t = f ? ctx_malloc(m->c, (size_t)cap * sizeof *t) : NULL;
    if (!t) {
      if (f) ctx_free(m->c, f, (size_t)cap * sizeof *f);
      return -1;
    }
    if (m->n) {
      memcpy(f, m->from, (size_t)m->n * sizeof *f);
      memcpy(t, m->to, (size_t)m->n * sizeof *t);
      ctx_free(m->c, m->from, (size_t)m->cap * sizeof *f);
      ctx_free(m->c, m->to, (size_t)m->cap * sizeof *t);
    }
    m->from = f;
    m->to = t;
    m->cap = cap;
  }
  m->from[m->n] = o;
  m->to[m->n++] = copy;   /* borrowed: the copy is alive while the deepcopy runs */
  return 0;
}

static int deep(Interp *I, Memo *m, Value v, Value *out, int depth) {
  if (depth > 900) return ctx_err(interp_ctx(I), TSR_ERR_RUNTIME, "RecursionError",
                                  "maximum recursion depth exceeded");
  if (v.type == V_TENSOR) {
    if (v.t->ndim == 0 && !v.t->ndarray) { *out = value_retain(v); return 0; }
    return copy_tensor(I, v, out);
  }
  if (v.type != V_LIST && v.type != V_TUPLE) { *out = value_retain(v); return 0; }
  if (memo_find(m, v.o, out)) return 0;
  List *l = as_list(v);
  Value r = v.type == V_LIST ? value_list(I, l->n) : value_tuple(I, l->n);
  if (r.type == V_UNDEF) return -1;
  if (memo_add(m, v.o, r)) { value_decref(r); return -1; }
  bool same = v.type == V_TUPLE;   /* a tuple whose items copy to themselves is kept */
  for (int64_t i = 0; i < l->n; i++) {
    Value item;
    if (deep(I, m, l->items[i], &item, depth + 1)) { value_decref(r); return -1; }
    same = same && item.type == l->items[i].type && item.o == l->items[i].o;
    value_gc_stored(I, item);
    value_decref(as_list(r)->items[i]);
    as_list(r)->items[i] = item;
  }
  if (same) { m->to[m->n - 1] = v; value_decref(r); r = value_retain(v); }
  *out = r;
  return 0;
}

static int copy_deepcopy(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "deepcopy", "x,memo=", s)) return -1;
  Memo m = {interp_ctx(I), NULL, NULL, 0, 0};
  int rc = deep(I, &m, s[0], out, 0);
  if (m.from) ctx_free(m.c, m.from, (size_t)m.cap * sizeof *m.from);
  if (m.to) ctx_free(m.c, m.to, (size_t)m.cap * sizeof *m.to);
  return rc;
}

static const Builtin copy_functions[] = {
  {"copy", "copy", copy_copy, "copy(x)\n\nShallow copy operation on arbitrary Python objects."},
  {"copy", "deepcopy", copy_deepcopy, "deepcopy(x, memo=None)\n\nDeep copy operation on "
   "arbitrary Python objects."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_copy = {"copy", copy_functions, NULL, 0};
