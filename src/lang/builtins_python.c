/*
** builtins_python.c -- Python's builtins module where it has a NumPy namesake: abs, round,
** max, min, sum, any and all with Python's semantics and messages (DESIGN §1's namespace
** rule).  NumPy's versions stay members of numpy (np.sum, np.max, np.round ...), and are what
** `sum`, `any` and `all` mean under `from numpy import *`, implicit or written; `abs`, `max`,
** `min` and `round` are never star-exported by NumPy.  tsr's extension: max, min and round
** given an ndarray are NumPy's amax, amin and around.  The rows' namespace is "builtins"
** (interp.c puts them in the Python builtins dict).
*/
#include "interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An ndarray (a tensor other than a NumPy scalar): what isinstance(v, numpy.ndarray) says. */
static bool is_ndarray(Value v) {
  return v.type == V_TENSOR && (v.t->ndim > 0 || v.t->ndarray);
}

/* Calls numpy's function `name` (a member of the numpy module) with a's arguments. */
static int call_numpy(Interp *I, const char *name, const Args *a, Value *out) {
  Value *fn = dict_get(I->numpy_dict, name);
  if (!fn) return ERR_RUNTIME(interp_ctx(I), "numpy.%s is missing", name);
  return interp_call(I, *fn, a, out);
}

/* ---- abs ---------------------------------------------------------------------------------- */

/* abs(x): Python numbers keep their type (abs(True) is 1); tensors are numpy.absolute. */
static int bi_abs(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "abs", "x", s)) return -1;
  Value v = s[0];
  switch (v.type) {
  case V_BOOL: *out = v_int(v.b); return 0;
  case V_INT:
    if (v.i == INT64_MIN) return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert");
    *out = v_int(v.i < 0 ? -v.i : v.i);
    return 0;
  case V_FLOAT: *out = v_float(fabs(v.f)); return 0;
  case V_TENSOR: {
    Args b = {1, s, 0, NULL, NULL, v_undef()};
    return call_numpy(I, "absolute", &b, out);
  }
  default:
    return ERR_TYPE(interp_ctx(I), "bad operand type for abs(): '%s'", value_type_name(v));
  }
}

/* ---- round -------------------------------------------------------------------------------- */

/* The decimal digits of |x|'s integer part rounded half to even at 10**k (k >= 1), as a double:
   Python's round(x, -k) for a finite float.  The tie is broken on the exact binary value: a
   fractional part of x counts as above the half. */
static double round_float_neg(double x, int k) {
  char buf[400];
  double ax = fabs(x);
  int n = snprintf(buf, sizeof buf, "%.0f", trunc(ax));   /* exact: glibc prints every digit */
  if (n <= k) {                                          /* |x| < 10**k */
    double half = 0.5 * pow(10.0, k);
    double r = (n == k && ax > half) ? pow(10.0, k) : 0.0;   /* ax == half rounds to 0 */
    return copysign(r, x);
  }
  int keep = n - k;                    /* digits kept: buf[0 .. keep) */
  bool sticky = ax != trunc(ax);
  for (int i = keep + 1; i < n; i++) sticky |= buf[i] != '0';
  int first = buf[keep] - '0';
  bool up = first > 5 || (first == 5 && (sticky || (buf[keep - 1] - '0') % 2 == 1));
  for (int i = keep; i < n; i++) buf[i] = '0';
  if (up) {
    int i = keep - 1;
    while (i >= 0 && buf[i] == '9') buf[i--] = '0';
    if (i >= 0) buf[i]++;
    else { memmove(buf + 1, buf, (size_t)n + 1); buf[0] = '1'; }
  }
  return copysign(strtod(buf, NULL), x);
}

/* Python's round(x, ndigits) of a float: correctly rounded, half to even on the exact binary
   value (round(2.675, 2) is 2.67), the result a float. */
static double round_float(double x, int64_t nd) {
  if (!isfinite(x) || nd > 323) return x;
  if (nd < -308) return 0.0 * x;
  if (nd < 0) return round_float_neg(x, (int)-nd);
  char buf[720];
  snprintf(buf, sizeof buf, "%.*f", (int)nd, x);   /* glibc rounds exactly, half to even */
  double r = strtod(buf, NULL);
  return r == 0.0 ? copysign(0.0, x) : r;
}

/* Python's round(i, ndigits) of an int with ndigits < 0: half to even at 10**-ndigits. */
static int round_int(Interp *I, int64_t i, int64_t nd, Value *out) {
  if (nd >= 0) { *out = v_int(i); return 0; }
  if (nd < -18) { *out = v_int(0); return 0; }   /* 10**19 > every int64 */
  int64_t p = 1;
  for (int64_t k = 0; k < -nd; k++) p *= 10;
  int64_t q = i / p, r = i % p;
  if (r < 0) { q--; r += p; }                     /* floor division */
  if (r > p - r || (r == p - r && (q & 1))) q++;
  int64_t res;
  if (__builtin_mul_overflow(q, p, &res))
    return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C long");
  *out = v_int(res);
  return 0;
}

/* round(number, ndigits=None): Python's, with numpy.around for ndarrays (tsr's extension) and
   NumPy scalars' __round__ (without ndigits a Python int, with it numpy.around's scalar). */
static int bi_round(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "round", "number,ndigits=", s)) return -1;
  Value v = s[0];
  bool has_nd = s[1].type != V_UNDEF && s[1].type != V_NONE;
  int64_t nd = 0;
  if (is_ndarray(v)) {
    Value args[2] = {v, has_nd ? s[1] : v_int(0)};
    Args b = {2, args, 0, NULL, NULL, v_undef()};
    return call_numpy(I, "around", &b, out);
  }
  if (has_nd && value_to_int(I, s[1], &nd)) return -1;
  if (v.type == V_TENSOR && v.t->dtype != TSR_BOOL) {   /* a NumPy scalar's __round__ */
    if (has_nd) {
      Value args[2] = {v, v_int(nd)};
      Args b = {2, args, 0, NULL, NULL, v_undef()};
      return call_numpy(I, "around", &b, out);
    }
    if (value_scalar_to_python(I, v, &v)) return -1;
  }
  switch (v.type) {
  case V_BOOL: case V_INT:
    return round_int(I, v.type == V_BOOL ? v.b : v.i, nd, out);
  case V_FLOAT:
    if (has_nd) { *out = v_float(round_float(v.f, nd)); return 0; }
    return value_float_to_int(I, nearbyint(v.f), out);   /* the default mode: half to even */
  default:
    break;
  }
  return ERR_TYPE(interp_ctx(I), "type %s doesn't define __round__ method", value_type_name(v));
}

/* ---- max, min ------------------------------------------------------------------------------ */

/* max/min(iterable, *, key=None, default=) and max/min(a, b, *args, key=None): Python's,
   keeping the first extreme item; numpy.amax/amin when the first argument is an ndarray. */
static int minmax(Interp *I, const Args *a, bool is_max, Value *out) {
  const char *name = is_max ? "max" : "min";
  Ctx *c = interp_ctx(I);
  if (a->npos >= 1 && is_ndarray(a->pos[0])) return call_numpy(I, is_max ? "amax" : "amin", a, out);
  Value key = v_undef(), def = v_undef();
  for (int k = 0; k < a->nkw; k++) {
    if (strcmp(a->kwnames[k], "key") == 0) key = a->kw[k];
    else if (strcmp(a->kwnames[k], "default") == 0) def = a->kw[k];
    else return ERR_TYPE(c, "%s() got an unexpected keyword argument '%s'", name, a->kwnames[k]);
  }
  if (key.type == V_NONE) key = v_undef();
  if (a->npos == 0) return ERR_TYPE(c, "%s expected at least 1 argument, got 0", name);
  if (a->npos > 1 && def.type != V_UNDEF)
    return ERR_TYPE(c, "Cannot specify a default for %s() with multiple positional arguments",
                    name);
  Value seq = a->npos == 1 ? a->pos[0] : v_undef();
  int64_t n = a->npos;
  if (a->npos == 1 && interp_iter_len(I, seq, &n)) return -1;
  Value best = v_undef(), best_key = v_undef();
  int rc = 0;
  for (int64_t i = 0; i < n && rc == 0; i++) {
    Value item, ikey;
    if (a->npos == 1) {
      if (interp_iter_item(I, seq, i, &item)) { rc = -1; break; }
    } else {
      item = value_retain(a->pos[i]);
    }
    if (key.type != V_UNDEF) {
      Args b = {1, &item, 0, NULL, NULL, v_undef()};
      if (interp_call(I, key, &b, &ikey)) { value_decref(item); rc = -1; break; }
    } else {
      ikey = value_retain(item);
    }
    if (best.type == V_UNDEF) {
      best = item; best_key = ikey;
      continue;
    }
    Value cmp;
    int better = -1;
    if (interp_compare(I, is_max ? OP_GT : OP_LT, ikey, best_key, &cmp) == 0) {
      better = value_truth(I, cmp);
      value_decref(cmp);
    }
    if (better == 1) {
      value_decref(best); value_decref(best_key);
      best = item; best_key = ikey;
    } else {
      value_decref(item); value_decref(ikey);
      if (better < 0) rc = -1;
    }
  }
  value_decref(best_key);
  if (rc < 0) { value_decref(best); return -1; }
  if (best.type != V_UNDEF) { *out = best; return 0; }
  if (def.type != V_UNDEF) { *out = value_retain(def); return 0; }
  return ERR_VALUE(c, "%s() arg is an empty sequence", name);
}

static int bi_max(Interp *I, const Args *a, Value *out) { return minmax(I, a, true, out); }
static int bi_min(Interp *I, const Args *a, Value *out) { return minmax(I, a, false, out); }

/* ---- sum, any, all ------------------------------------------------------------------------- */

/* sum(iterable, /, start=0): start + item0 + item1 + ..., left to right (no pairwise
   summation: a float list gives CPython's bits). */
static int bi_sum(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "sum", "iterable,start=", s)) return -1;
  Value acc = s[1].type == V_UNDEF ? v_int(0) : value_retain(s[1]);
  if (acc.type == V_STR) {
    value_decref(acc);
    return ERR_TYPE(interp_ctx(I), "sum() can't sum strings [use ''.join(seq) instead]");
  }
  int64_t n;
  if (interp_iter_len(I, s[0], &n)) { value_decref(acc); return -1; }
  for (int64_t i = 0; i < n; i++) {
    Value item, next;
    if (interp_iter_item(I, s[0], i, &item)) { value_decref(acc); return -1; }
    int rc = interp_binary(I, OP_ADD, acc, item, &next);
    value_decref(item);
    value_decref(acc);
    if (rc) return -1;
    acc = next;
  }
  *out = acc;
  return 0;
}

/* any/all(iterable): the truth of the items, stopping at the first that decides. */
static int any_all(Interp *I, const Args *a, bool is_any, Value *out) {
  Value s[1];
  if (args_parse(I, a, is_any ? "any" : "all", "iterable", s)) return -1;
  int64_t n;
  if (interp_iter_len(I, s[0], &n)) return -1;
  for (int64_t i = 0; i < n; i++) {
    Value item;
    if (interp_iter_item(I, s[0], i, &item)) return -1;
    int t = value_truth(I, item);
    value_decref(item);
    if (t < 0) return -1;
    if (t == is_any) { *out = v_bool(is_any); return 0; }
  }
  *out = v_bool(!is_any);
  return 0;
}

static int bi_any(Interp *I, const Args *a, Value *out) { return any_all(I, a, true, out); }
static int bi_all(Interp *I, const Args *a, Value *out) { return any_all(I, a, false, out); }

/* ---- list, tuple, sorted ------------------------------------------------------------------- */

/* A new list (or tuple) of the items of an iterable (nothing: empty). */
static int to_sequence(Interp *I, const Args *a, bool tuple, Value *out) {
  Value s[1];
  if (args_parse(I, a, tuple ? "tuple" : "list", "iterable=", s)) return -1;
  int64_t n = 0;
  if (s[0].type != V_UNDEF && interp_iter_len(I, s[0], &n)) return -1;
  if (tuple && s[0].type == V_TUPLE) { *out = value_retain(s[0]); return 0; }
  Value r = tuple ? value_tuple(I, n) : value_list(I, n);
  if (r.type == V_UNDEF) return -1;
  for (int64_t i = 0; i < n; i++) {
    Value item;
    if (interp_iter_item(I, s[0], i, &item)) { value_decref(r); return -1; }
    value_decref(as_list(r)->items[i]);
    as_list(r)->items[i] = item;
  }
  *out = r;
  return 0;
}
static int bi_list(Interp *I, const Args *a, Value *out) { return to_sequence(I, a, false, out); }
static int bi_tuple(Interp *I, const Args *a, Value *out) { return to_sequence(I, a, true, out); }

/* Is key x before key y (x < y, or y < x when reverse)?  1, 0, or -1 on error. */
static int sort_before(Interp *I, Value x, Value y, bool reverse) {
  Value a = reverse ? y : x, b = reverse ? x : y, r;
  /* Python numbers and strs directly (an int against a float exactly, as Python compares
     them: x86-64's long double holds every int64); the rest through the evaluator */
  bool na = a.type == V_INT || a.type == V_FLOAT || a.type == V_BOOL;
  bool nb = b.type == V_INT || b.type == V_FLOAT || b.type == V_BOOL;
  if (na && nb) {
    if (ctx_work(interp_ctx(I), 1, WORK_COMPARE) < 0) return -1;
    if (a.type == V_INT && b.type == V_INT) return a.i < b.i;
    long double p = a.type == V_FLOAT ? a.f : a.type == V_INT ? (long double)a.i : a.b;
    long double q = b.type == V_FLOAT ? b.f : b.type == V_INT ? (long double)b.i : b.b;
    return p < q;
  }
  if (a.type == V_STR && b.type == V_STR) {
    if (ctx_work(interp_ctx(I), 1, WORK_COMPARE) < 0) return -1;
    return strcmp(as_str(a)->s, as_str(b)->s) < 0;
  }
  if (interp_compare(I, OP_LT, a, b, &r)) return -1;
  int t = value_truth(I, r);
  value_decref(r);
  return t;
}

/* Stable merge sort of idx[0..n) by keys[idx[i]] (tmp has n entries).  0 or -1. */
static int merge_sort(Interp *I, const Value *keys, int64_t *idx, int64_t *tmp, int64_t n,
                      bool reverse) {
  if (n < 2) return 0;
  int64_t h = n / 2;
  if (merge_sort(I, keys, idx, tmp, h, reverse) ||
      merge_sort(I, keys, idx + h, tmp, n - h, reverse))
    return -1;
  int64_t i = 0, j = h, k = 0;
  while (i < h && j < n) {
    int b = sort_before(I, keys[idx[j]], keys[idx[i]], reverse);   /* right strictly first */
    if (b < 0) return -1;
    tmp[k++] = b ? idx[j++] : idx[i++];
  }
  while (i < h) tmp[k++] = idx[i++];
  while (j < n) tmp[k++] = idx[j++];
  memcpy(idx, tmp, (size_t)n * sizeof *idx);
  return 0;
}

/* sorted(iterable, /, *, key=None, reverse=False): a new list, stable, compared with `<` only
   (on the keys when key is given), as list.sort. */
static int bi_sorted(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  Value s[3];
  if (args_parse(I, a, "sorted", "iterable,*,key=,reverse=", s)) return -1;
  Args la = {1, s, 0, NULL, NULL, v_undef()};
  Value list;
  if (to_sequence(I, &la, false, &list)) return -1;
  int rev = 0;
  if (s[2].type != V_UNDEF && (rev = value_truth(I, s[2])) < 0) { value_decref(list); return -1; }
  List *l = as_list(list);
  int64_t n = l->n;
  size_t nb = (size_t)(n ? n : 1);
  Value *keys = ctx_calloc(c, nb * sizeof(Value));
  int64_t *idx = ctx_malloc(c, 2 * nb * sizeof(int64_t));
  int rc = keys && idx ? 0 : -1;
  bool has_key = s[1].type != V_UNDEF && s[1].type != V_NONE;
  for (int64_t i = 0; i < n && rc == 0; i++) {
    idx[i] = i;
    if (!has_key) { keys[i] = value_retain(l->items[i]); continue; }
    Args ka = {1, &l->items[i], 0, NULL, NULL, v_undef()};
    rc = interp_call(I, s[1], &ka, &keys[i]);
    if (rc) keys[i] = v_none();
  }
  if (rc == 0) rc = merge_sort(I, keys, idx, idx + nb, n, rev);
  if (rc == 0) {
    Value *items = ctx_malloc(c, nb * sizeof(Value));
    if (!items) rc = -1;
    else {
      for (int64_t i = 0; i < n; i++) items[i] = l->items[idx[i]];
      memcpy(l->items, items, (size_t)n * sizeof(Value));
      ctx_free(c, items, nb * sizeof(Value));
    }
  }
  if (keys) {
    for (int64_t i = 0; i < n; i++) value_decref(keys[i]);
    ctx_free(c, keys, nb * sizeof(Value));
  }
  if (idx) ctx_free(c, idx, 2 * nb * sizeof(int64_t));
  if (rc) { value_decref(list); return -1; }
  *out = list;
  return 0;
}

const Builtin builtins_python_table[] = {
  {"builtins", "list", bi_list, "list(iterable=(), /)\n\nA new list of the iterable's items."},
  {"builtins", "tuple", bi_tuple, "tuple(iterable=(), /)\n\nA tuple of the iterable's items."},
  {"builtins", "sorted", bi_sorted, "sorted(iterable, /, *, key=None, reverse=False)\n\nA new "
   "list of the items in ascending order (stable; compared with <)."},
  {"builtins", "abs", bi_abs, "abs(x, /)\n\nReturn the absolute value of the argument "
   "(numpy.absolute for arrays)."},
  {"builtins", "round", bi_round, "round(number, ndigits=None)\n\nRound a number to a given "
   "precision in decimal digits (half to even); an int when ndigits is omitted.  tsr: an "
   "ndarray is rounded by numpy.around."},
  {"builtins", "max", bi_max, "max(iterable, *[, default=obj, key=func]) / max(arg1, arg2, "
   "*args, *[, key=func])\n\nThe largest item.  tsr: numpy.amax for an ndarray."},
  {"builtins", "min", bi_min, "min(iterable, *[, default=obj, key=func]) / min(arg1, arg2, "
   "*args, *[, key=func])\n\nThe smallest item.  tsr: numpy.amin for an ndarray."},
  {"builtins", "sum", bi_sum, "sum(iterable, /, start=0)\n\nstart plus the items of the "
   "iterable, added left to right."},
  {"builtins", "any", bi_any, "any(iterable, /)\n\nTrue if bool(x) is True for any x."},
  {"builtins", "all", bi_all, "all(iterable, /)\n\nTrue if bool(x) is True for all x (or the "
   "iterable is empty)."},
  {NULL, NULL, NULL, NULL}
};
