/*
** builtins_einsum.c -- the contraction builtins: einsum (string and sublist forms, optimize=,
** dtype=, out=), einsum_path, tensordot and kron, on the runtime's einsum module.
*/
#include "builtins.h"
#include "../runtime/einsum.h"

#include <stdio.h>
#include <string.h>

#define MAX_OPERANDS 128

/* The optimize= argument as the runtime's request; explicit paths are copied into start/pos
   (owned through the Ctx, freed by opt_free).  python_default: the value when omitted
   (einsum: False, einsum_path: 'greedy'). */
typedef struct OptArg {
  EinsumOpt o;
  int *start, *pos;
  size_t start_bytes, pos_bytes;
  char name[64];
} OptArg;

static void opt_free(Interp *I, OptArg *oa) {
  Ctx *c = interp_ctx(I);
  if (oa->start) ctx_free(c, oa->start, oa->start_bytes);
  if (oa->pos) ctx_free(c, oa->pos, oa->pos_bytes);
  oa->start = oa->pos = NULL;
}

static bool is_str(Value v, const char *s) { return v.type == V_STR && strcmp(as_str(v)->s, s) == 0; }

static int parse_optimize(Interp *I, Value v, EinsumOptKind dflt, OptArg *oa) {
  Ctx *c = interp_ctx(I);
  memset(oa, 0, sizeof *oa);
  oa->o.memory_limit = -1;
  oa->o.kind = dflt;
  if (v.type == V_UNDEF) return 0;
  if (v.type == V_NONE || (v.type == V_BOOL && !v.b)) { oa->o.kind = EINSUM_OPT_NONE; return 0; }
  if (v.type == V_BOOL) { oa->o.kind = EINSUM_OPT_GREEDY; return 0; }
  if (v.type == V_STR) {
    const char *s = as_str(v)->s;
    if (strcmp(s, "greedy") == 0) oa->o.kind = EINSUM_OPT_GREEDY;
    else if (strcmp(s, "optimal") == 0) oa->o.kind = EINSUM_OPT_OPTIMAL;
    else {
      oa->o.kind = EINSUM_OPT_UNKNOWN;
      snprintf(oa->name, sizeof oa->name, "%s", s);
      oa->o.name = oa->name;
    }
    return 0;
  }
  if (v.type != V_LIST && v.type != V_TUPLE)
    return IERR_TYPE(I, "object of type '%s' has no len()", value_type_name(v));
  List *l = as_list(v);
  if (l->n > 0 && is_str(l->items[0], "einsum_path")) {
    int nsteps = (int)l->n - 1, total = 0;
    for (int k = 0; k < nsteps; k++) {
      Value st = l->items[k + 1];
      if (st.type != V_LIST && st.type != V_TUPLE)
        return IERR_TYPE(I, "einsum_path steps must be tuples of operand positions");
      total += (int)as_list(st)->n;
    }
    oa->start_bytes = (size_t)(nsteps + 1) * sizeof(int);
    oa->pos_bytes = (size_t)(total ? total : 1) * sizeof(int);
    if (!(oa->start = ctx_malloc(c, oa->start_bytes)) || !(oa->pos = ctx_malloc(c, oa->pos_bytes))) {
      opt_free(I, oa);
      return -1;
    }
    int at = 0;
    oa->start[0] = 0;
    for (int k = 0; k < nsteps; k++) {
      List *st = as_list(l->items[k + 1]);
      for (int64_t j = 0; j < st->n; j++) {
        int64_t x;
        if (value_to_int(I, st->items[j], &x)) { opt_free(I, oa); return -1; }
        oa->pos[at++] = (int)x;
      }
      oa->start[k + 1] = at;
    }
    oa->o.kind = EINSUM_OPT_EXPLICIT;
    oa->o.nsteps = nsteps;
    oa->o.start = oa->start;
    oa->o.pos = oa->pos;
    return 0;
  }
  if (l->n == 2 && l->items[0].type == V_STR &&
      (l->items[1].type == V_INT || l->items[1].type == V_FLOAT)) {
    Value s = l->items[0], lim = l->items[1];
    if (parse_optimize(I, s, dflt, oa)) return -1;
    oa->o.memory_limit = lim.type == V_INT ? (double)lim.i : (double)(int64_t)lim.f;
    return 0;
  }
  Buf b;
  buf_init(&b, c);
  value_to_string(I, &b, v);
  int rc = IERR_TYPE(I, "Did not understand the path: %s", buf_str(&b));
  buf_free(&b);
  return rc;
}

/* Appends one sublist of the sublist form as letters: NumPy's C parser maps 0..25 to 'A'..'Z'
   and 26..51 to 'a'..'z'; its Python parser (optimize != False) indexes 'a..zA..Z'. */
static int sublist_append(Interp *I, Buf *b, Value sub, bool python) {
  if (sub.type != V_LIST && sub.type != V_TUPLE)
    return python ? IERR_TYPE(I, "'%s' object is not iterable", value_type_name(sub))
                  : IERR_TYPE(I, "each subscript must be either an integer or an ellipsis");
  static const char symbols[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  List *l = as_list(sub);
  for (int64_t i = 0; i < l->n; i++) {
    Value v = l->items[i];
    if (v.type == V_ELLIPSIS) { buf_puts(b, "..."); continue; }
    int64_t s;
    bool ok = v.type == V_INT || (v.type == V_BOOL && python) ||
              (v.type == V_TENSOR && v.t->ndim == 0 && dtype_is_int(v.t->dtype));
    if (!ok || value_to_int(I, v, &s)) {
      ctx_clear(interp_ctx(I));
      return python ? IERR_TYPE(I, "For this input type lists must contain either int or "
                                   "Ellipsis")
                    : IERR_TYPE(I, "each subscript must be either an integer or an ellipsis");
    }
    if (python) {
      if (s < -52 || s >= 52)
        return ctx_err(interp_ctx(I), TSR_ERR_INDEX, "IndexError", "string index out of range");
      buf_putc(b, symbols[s < 0 ? s + 52 : s]);
    } else {
      if (s < 0 || s >= 52) return IERR_VALUE(I, "subscript is not within the valid range [0, 52)");
      buf_putc(b, (char)(s < 26 ? 'A' + s : 'a' + s - 26));
    }
  }
  return 0;
}

/* Splits einsum's positional arguments into the subscripts string (into sb) and the operand
   values (borrowed, into vals; *nop set). */
static int einsum_operands(Interp *I, const Args *a, bool python, Buf *sb, Value *vals,
                           int *nop) {
  *nop = 0;
  if (a->npos > MAX_OPERANDS) return IERR_VALUE(I, "too many operands");
  if (a->npos == 0) {
    if (python) return IERR_VALUE(I, "No input operands");
    return IERR_VALUE(I, "must specify the einstein sum subscripts string and at least one "
                         "operand, or at least one operand and its corresponding subscripts "
                         "list");
  }
  if (a->pos[0].type == V_STR) {
    buf_puts(sb, as_str(a->pos[0])->s);
    for (int i = 1; i < a->npos; i++) vals[(*nop)++] = a->pos[i];
    if (*nop == 0 && !python)
      return IERR_VALUE(I, "must specify the einstein sum subscripts string and at least one "
                           "operand");
    return 0;
  }
  int npairs = a->npos / 2;
  for (int k = 0; k < npairs; k++) {
    vals[(*nop)++] = a->pos[2 * k];
    if (k) buf_putc(sb, ',');
    if (sublist_append(I, sb, a->pos[2 * k + 1], python)) return -1;
  }
  if (a->npos % 2) {
    buf_puts(sb, "->");
    if (sublist_append(I, sb, a->pos[a->npos - 1], python)) return -1;
  }
  return 0;
}

static void release_all(Tensor **ts, int n) {
  for (int i = 0; i < n; i++)
    if (ts[i]) tensor_release(ts[i]);
}

/* einsum(subscripts, *operands, out=None, dtype=None, order='K', casting='safe',
   optimize=False) and the sublist form einsum(op0, sub0, op1, sub1, ..., [sublistout]). */
static int bi_einsum(Interp *I, const Args *a, Value *out) {
  Value vout = v_undef(), vdtype = v_undef(), vopt = v_undef(), vcast = v_undef(),
        vorder = v_undef();
  const char *bad = NULL;
  for (int k = 0; k < a->nkw; k++) {
    const char *n = a->kwnames[k];
    if (strcmp(n, "out") == 0) vout = a->kw[k];
    else if (strcmp(n, "dtype") == 0) vdtype = a->kw[k];
    else if (strcmp(n, "optimize") == 0) vopt = a->kw[k];
    else if (strcmp(n, "casting") == 0) vcast = a->kw[k];
    else if (strcmp(n, "order") == 0) vorder = a->kw[k];
    else if (!bad) bad = n;
  }
  OptArg oa;
  if (parse_optimize(I, vopt, EINSUM_OPT_NONE, &oa)) return -1;
  bool python = oa.o.kind != EINSUM_OPT_NONE;
  if (bad) {
    opt_free(I, &oa);
    if (python) return IERR_TYPE(I, "Did not understand the following kwargs: ['%s']", bad);
    return IERR_TYPE(I, "'%s' is an invalid keyword for einsum", bad);
  }
  Ctx *c = interp_ctx(I);
  Buf sb;
  buf_init(&sb, c);
  Value vals[MAX_OPERANDS];
  Tensor *ts[MAX_OPERANDS] = {NULL}, *o = NULL, *r = NULL;
  int nop = 0, dtype = -1;
  if (einsum_operands(I, a, python, &sb, vals, &nop)) goto done;
  if (sb.failed) goto done;
  if (value_to_dtype(I, vdtype, &dtype)) goto done;
  if (given(vorder) && (vorder.type != V_STR || as_str(vorder)->len != 1 ||
                        !strchr("CFAKcfak", as_str(vorder)->s[0]))) {
    Buf m;
    buf_init(&m, c);
    value_repr(I, &m, vorder);
    IERR_VALUE(I, "order must be one of 'C', 'F', 'A', or 'K' (got %s)", buf_str(&m));
    buf_free(&m);
    goto done;
  }
  if (given(vcast)) {
    static const char *const rules[] = {"safe", "no", "equiv", "same_kind", "unsafe"};
    int rule = -1;
    for (int k = 0; k < 5 && vcast.type == V_STR; k++)
      if (strcmp(as_str(vcast)->s, rules[k]) == 0) rule = k;
    if (rule < 0) {
      Buf m;
      buf_init(&m, c);
      value_repr(I, &m, vcast);
      IERR_VALUE(I, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' "
                    "(got %s)", buf_str(&m));
      buf_free(&m);
      goto done;
    }
    oa.o.casting = (EinsumCasting)rule;
  }
  if (given(vout)) {
    Value v = vout;
    if (v.type != V_TENSOR) { IERR_TYPE(I, "output must be an array"); goto done; }
    o = v.t;
  }
  for (int i = 0; i < nop; i++)   /* Python scalars stay weak for the result dtype */
    if (!(ts[i] = value_to_tensor(I, vals[i], -1))) goto done;
  r = einsum_compute(c, buf_str(&sb), nop, ts, &oa.o, dtype, o);
done:
  release_all(ts, nop);
  buf_free(&sb);
  opt_free(I, &oa);
  if (ret_tensor(r, out)) return -1;
  /* NumPy's optimize path returns asanyarray(result): a 0-d ndarray, not a scalar */
  return r->ndim == 0 && !o ? value_set_ndarray(out, python) : 0;
}

/* einsum_path(subscripts, *operands, optimize='greedy') -> (path list, report string). */
static int bi_einsum_path(Interp *I, const Args *a, Value *out) {
  Value vopt = v_undef();
  for (int k = 0; k < a->nkw; k++) {
    if (strcmp(a->kwnames[k], "optimize") == 0) vopt = a->kw[k];
    else if (strcmp(a->kwnames[k], "einsum_call") != 0)
      return IERR_TYPE(I, "einsum_path() got an unexpected keyword argument '%s'", a->kwnames[k]);
  }
  OptArg oa;
  if (parse_optimize(I, vopt, EINSUM_OPT_GREEDY, &oa)) return -1;
  Ctx *c = interp_ctx(I);
  Buf sb, rep;
  buf_init(&sb, c);
  buf_init(&rep, c);
  Value vals[MAX_OPERANDS], list = v_undef(), tuple = v_undef();
  Tensor *ts[MAX_OPERANDS] = {NULL};
  EinsumPath path;
  memset(&path, 0, sizeof path);
  int nop = 0, rc = -1;
  if (einsum_operands(I, a, true, &sb, vals, &nop) || sb.failed) goto done;
  for (int i = 0; i < nop; i++)
    if (!(ts[i] = arg_tensor(I, vals[i]))) goto done;
  if (einsum_path(c, buf_str(&sb), nop, ts, &oa.o, &path, &rep)) goto done;
  list = value_list(I, path.nsteps + 1);
  if (list.type == V_UNDEF) goto done;
  as_list(list)->items[0] = value_str(I, "einsum_path", 11);
  if (as_list(list)->items[0].type == V_UNDEF) goto done;
  for (int k = 0; k < path.nsteps; k++) {
    int len = path.start[k + 1] - path.start[k];
    Value t = value_tuple(I, len);
    if (t.type == V_UNDEF) goto done;
    for (int j = 0; j < len; j++) as_list(t)->items[j] = v_int(path.pos[path.start[k] + j]);
    as_list(list)->items[k + 1] = t;
  }
  Value s = value_str(I, buf_str(&rep), rep.n);
  if (s.type == V_UNDEF) goto done;
  tuple = value_tuple(I, 2);
  if (tuple.type == V_UNDEF) { value_decref(s); goto done; }
  as_list(tuple)->items[0] = list;
  as_list(tuple)->items[1] = s;
  list = v_undef();
  *out = tuple;
  rc = 0;
done:
  if (list.type != V_UNDEF) value_decref(list);
  einsum_path_free(c, &path);
  release_all(ts, nop);
  buf_free(&sb);
  buf_free(&rep);
  opt_free(I, &oa);
  return rc;
}

/* One axes list of tensordot: an int or a sequence of ints. */
static int axes_list(Interp *I, Value v, int *ax, int *n) {
  if (v.type == V_LIST || v.type == V_TUPLE) {
    List *l = as_list(v);
    if (l->n > TSR_MAXDIMS) return IERR_VALUE(I, "shape-mismatch for sum");
    for (int64_t i = 0; i < l->n; i++) {
      int64_t x;
      if (value_to_int(I, l->items[i], &x)) return -1;
      ax[i] = (int)x;
    }
    *n = (int)l->n;
    return 0;
  }
  int64_t x;
  if (value_to_int(I, v, &x)) return -1;
  ax[0] = (int)x;
  *n = 1;
  return 0;
}

/* tensordot(a, b, axes=2): the sum over the given axes of a and b, through einsum's
   contraction core.  ValueError "shape-mismatch for sum". */
static int bi_tensordot(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "tensordot", "a,b,axes=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int axa[TSR_MAXDIMS], axb[TSR_MAXDIMS], na = 0, nb = 0;
  Tensor *x = NULL, *y = NULL, *r = NULL;
  if (!(x = arg_tensor(I, s[0])) || !(y = arg_tensor(I, s[1]))) goto done;
  if (s[2].type == V_UNDEF || s[2].type == V_INT || s[2].type == V_BOOL) {
    int64_t n = 2;
    if (s[2].type != V_UNDEF && value_to_int(I, s[2], &n)) goto done;
    if (n < 0 || n > x->ndim || n > y->ndim) {
      IERR_VALUE(I, "shape-mismatch for sum");
      goto done;
    }
    na = nb = (int)n;
    for (int i = 0; i < na; i++) { axa[i] = x->ndim - na + i; axb[i] = i; }
  } else {
    if (s[2].type != V_LIST && s[2].type != V_TUPLE) {
      IERR_TYPE(I, "tensordot: axes must be an int or a pair of sequences");
      goto done;
    }
    List *l = as_list(s[2]);
    if (l->n != 2) {
      IERR_VALUE(I, "not enough values to unpack (expected 2, got %lld)", (long long)l->n);
      goto done;
    }
    if (axes_list(I, l->items[0], axa, &na) || axes_list(I, l->items[1], axb, &nb)) goto done;
  }
  if (na != nb) { IERR_VALUE(I, "shape-mismatch for sum"); goto done; }
  if (x->ndim + y->ndim > 52) { IERR_VALUE(I, "tensordot: too many dimensions"); goto done; }
  {
    static const char symbols[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char la[TSR_MAXDIMS], lb[TSR_MAXDIMS], sub[TSR_MAXDIMS * 4 + 8];
    bool used_a[TSR_MAXDIMS] = {false}, used_b[TSR_MAXDIMS] = {false};
    int next = 0;
    for (int i = 0; i < x->ndim; i++) la[i] = symbols[next++];
    for (int i = 0; i < y->ndim; i++) lb[i] = 0;
    for (int k = 0; k < na; k++) {
      int p = axa[k] < 0 ? axa[k] + x->ndim : axa[k], q = axb[k] < 0 ? axb[k] + y->ndim : axb[k];
      if (p < 0 || p >= x->ndim || q < 0 || q >= y->ndim) {
        ctx_err(c, TSR_ERR_INDEX, "IndexError", "tuple index out of range");
        goto done;
      }
      if (x->shape[p] != y->shape[q] || used_a[p] || used_b[q]) {
        IERR_VALUE(I, "shape-mismatch for sum");
        goto done;
      }
      used_a[p] = used_b[q] = true;
      lb[q] = la[p];
    }
    for (int i = 0; i < y->ndim; i++)
      if (!lb[i]) lb[i] = symbols[next++];
    int n = 0;
    for (int i = 0; i < x->ndim; i++) sub[n++] = la[i];
    sub[n++] = ',';
    for (int i = 0; i < y->ndim; i++) sub[n++] = lb[i];
    sub[n++] = '-';
    sub[n++] = '>';
    for (int i = 0; i < x->ndim; i++)
      if (!used_a[i]) sub[n++] = la[i];
    for (int i = 0; i < y->ndim; i++)
      if (!used_b[i]) sub[n++] = lb[i];
    sub[n] = 0;
    EinsumOpt o = {EINSUM_OPT_NONE, -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
    Tensor *ops[2] = {x, y};
    r = einsum_compute(c, sub, 2, ops, &o, -1, NULL);
    /* a one-operand view cannot happen with two operands; make the result C-contiguous */
    if (r && !tensor_is_contiguous(r)) {
      Tensor *cc = tensor_copy(c, r);
      tensor_release(r);
      r = cc;
    }
  }
done:
  if (x) tensor_release(x);
  if (y) tensor_release(y);
  return ret_tensor(r, out);
}

/* kron(a, b): the Kronecker product, block (i, j, ...) being a[i, j, ...] * b; shapes padded
   with leading ones to a common ndim. */
static int bi_kron(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "kron", "a,b", s)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = NULL, *y = NULL, *vx = NULL, *vy = NULL, *p = NULL, *r = NULL;
  if (!(x = arg_tensor(I, s[0])) || !(y = arg_tensor(I, s[1]))) goto done;
  {
    int nd = x->ndim > y->ndim ? x->ndim : y->ndim;
    if (2 * nd > TSR_MAXDIMS) { IERR_VALUE(I, "kron: too many dimensions"); goto done; }
    int64_t sx[TSR_MAXDIMS], tx[TSR_MAXDIMS], sy[TSR_MAXDIMS], ty[TSR_MAXDIMS], rs[TSR_MAXDIMS];
    for (int i = 0; i < nd; i++) {
      int ix = i - (nd - x->ndim), iy = i - (nd - y->ndim);
      sx[2 * i] = ix >= 0 ? x->shape[ix] : 1;
      tx[2 * i] = ix >= 0 ? x->strides[ix] : 0;
      sx[2 * i + 1] = 1;
      tx[2 * i + 1] = 0;
      sy[2 * i] = 1;
      ty[2 * i] = 0;
      sy[2 * i + 1] = iy >= 0 ? y->shape[iy] : 1;
      ty[2 * i + 1] = iy >= 0 ? y->strides[iy] : 0;
      if (size_mul(sx[2 * i], sy[2 * i + 1], &rs[i])) { err_too_big(c); goto done; }
    }
    if (!(vx = tensor_view(x, 2 * nd, sx, tx, x->offset)) ||
        !(vy = tensor_view(y, 2 * nd, sy, ty, y->offset)) ||
        !(p = ufunc_binary(c, UF_MULTIPLY, vx, vy, NULL)))
      goto done;
    r = tensor_reshape(c, p, nd, rs);
  }
done:
  if (x) tensor_release(x);
  if (y) tensor_release(y);
  if (vx) tensor_release(vx);
  if (vy) tensor_release(vy);
  if (p) tensor_release(p);
  return ret_tensor(r, out);
}

const Builtin builtins_einsum_table[] = {
  {NULL, "einsum", bi_einsum,
   "einsum(subscripts, *operands, out=None, dtype=None, order='K', casting='safe', "
   "optimize=False)\n\nEvaluates the Einstein summation convention on the operands."},
  {NULL, "einsum_path", bi_einsum_path,
   "einsum_path(subscripts, *operands, optimize='greedy')\n\nEvaluates the lowest cost "
   "contraction order for an einsum expression by considering the creation of intermediate "
   "arrays."},
  {NULL, "tensordot", bi_tensordot,
   "tensordot(a, b, axes=2)\n\nCompute tensor dot product along specified axes."},
  {NULL, "kron", bi_kron, "kron(a, b)\n\nKronecker product of two arrays."},
  {NULL, NULL, NULL, NULL}
};
