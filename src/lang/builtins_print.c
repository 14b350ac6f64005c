/*
** builtins_print.c -- NumPy's printing functions (array2string, array_repr, array_str,
** get_printoptions, format_float_positional, format_float_scientific), the REPL helper whos(),
** and the rule that tells a real 0-d ndarray (array(5): repr "array(5)") from a NumPy scalar
** (x.sum(): "15").
*/
#include "builtins.h"
#include "interp.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------------------------------------
** 0-d ndarrays and NumPy scalars
*/

/* Functions that return a real ndarray even when the result is 0-d (np.array(5),
   np.zeros(()), np.copy(np.float64(1)), np.where(True, 1, 2) ...). */
static const char *const always_ndarray[] = {
  "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy", "zeros",
  "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like",
  "broadcast_to", "where", "tensordot", "tile", "roll", "pad", NULL};
/* Functions and methods whose 0-d result is an ndarray when their input is one (an ndarray of
   any rank, or a non-NumPy value such as a Python int): a NumPy scalar's own methods give
   scalars back (np.float64(1).reshape(()) is a scalar, np.array(1.).reshape(()) is not). */
static const char *const follow_ndarray[] = {
  "reshape", "squeeze", "transpose", "swapaxes", "moveaxis", "astype", "view", "T", NULL};
/* Methods only: x.copy() keeps x's kind (np.copy(x) is always an ndarray). */
static const char *const follow_method_only[] = {"copy", NULL};
/* Functions that mark their own 0-d results: einsum gives an ndarray exactly when optimize is
   on (NumPy's Python path ends in asanyarray; its C path returns a scalar); median and the
   quantiles (builtins_stats.c) give an ndarray for keepdims=True, as NumPy's _ureduce; so do
   the functions of numpy.random, for size=(). */
static const char *const self_marking[] = {"einsum", "median", "percentile", "quantile",
  "nanmedian", "nanpercentile", "nanquantile", NULL};

static bool in_list(const char *const *list, const char *name) {
  for (; *list; list++)
    if (strcmp(*list, name) == 0) return true;
  return false;
}

/* Is v a NumPy scalar (a 0-d tensor without the ndarray mark)? */
static bool is_numpy_scalar(Value v) {
  return v.type == V_TENSOR && v.t->ndim == 0 && !v.t->ndarray;
}

int value_mark_ndarray(Interp *I, const char *ns, const char *name, Value input, Value *out) {
  (void)I;
  if (out->type != V_TENSOR || out->t->ndim != 0) return 0;
  if (!ns && in_list(self_marking, name)) return 0;
  if (ns && strcmp(ns, "random") == 0) return 0;   /* size=() marks (builtins_random.c) */
  bool method = ns && strcmp(ns, "ndarray") == 0;
  bool want = false;
  if (!ns && in_list(always_ndarray, name)) want = true;
  else if ((!ns || method) && in_list(follow_ndarray, name)) want = !is_numpy_scalar(input);
  else if (method && in_list(follow_method_only, name)) want = !is_numpy_scalar(input);
  return value_set_ndarray(out, want);
}

int value_set_ndarray(Value *out, bool want) {
  Tensor *t = out->t;
  if ((bool)t->ndarray == want) return 0;
  if (t->refcnt > 1) {   /* shared: mark a new header on the same storage */
    Tensor *v = tensor_view(t, 0, t->shape, t->strides, t->offset);
    tensor_release(t);
    if (!v) { *out = v_undef(); return -1; }   /* the result is dropped on error */
    out->t = t = v;
  }
  t->ndarray = want;
  return 0;
}

/* --------------------------------------------------------------------------------------------
** array2string, array_repr, array_str
*/

/* Applies the per-call overrides max_line_width=, precision=, suppress_small= (None keeps the
   current option) to po, with set_printoptions' checks. */
static int override_options(Interp *I, Value width, Value precision, Value suppress,
                            PrintOptions *po) {
  if (given(width)) {
    int64_t w;
    if (value_to_int(I, width, &w)) return -1;
    po->linewidth = w < 1 ? 1 : w > 1000000 ? 1000000 : (int)w;
  }
  if (given(precision)) {
    int64_t p;
    if (precision.type == V_FLOAT || precision.type == V_STR ||
        value_to_int(I, precision, &p)) {
      ctx_clear(interp_ctx(I));
      return IERR_TYPE(I, "precision must be an integer");
    }
    if (p < 0 || p > 10000) return IERR_VALUE(I, "precision must be >= 0");
    po->precision = (int)p;
  }
  if (given(suppress)) {
    int truth = value_truth(I, suppress);
    if (truth < 0) return -1;
    po->suppress = truth != 0;
  }
  return 0;
}

/* A str argument (separator=, prefix=, suffix=); def when omitted or None. */
static int str_arg(Interp *I, const char *what, Value v, const char *def, const char **out) {
  *out = def;
  if (!given(v)) return 0;
  if (v.type != V_STR) return IERR_TYPE(I, "%s must be a str, not %s", what, value_type_name(v));
  *out = as_str(v)->s;
  return 0;
}

/* Stores the text of b as a str result and frees b. */
static int ret_buf(Interp *I, Buf *b, Value *out) {
  if (b->failed || interp_ctx(I)->status != TSR_OK) { buf_free(b); return -1; }
  Value s = value_str(I, b->p ? b->p : "", b->n);
  buf_free(b);
  return ret_value(s, out);
}

/* array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=' ',
   prefix='', style=None, formatter=None, threshold=None, edgeitems=None, sign=None,
   floatmode=None, suffix='', *, legacy=None): numpy.array2string.  The prefix is not part of
   the result: only its length counts, for the indent of wrapped lines. */
static int bi_array2string(Interp *I, const Args *a, Value *out) {
  enum { A, WIDTH, PREC, SUPP, SEP, PREFIX, STYLE, FORMATTER, THRESH, EDGE, SIGN, FLOATMODE,
         SUFFIX, LEGACY, NSLOT };
  Value s[NSLOT];
  if (args_parse(I, a, "array2string",
                 "a,max_line_width=,precision=,suppress_small=,separator=,prefix=,style=,"
                 "formatter=,threshold=,edgeitems=,sign=,floatmode=,suffix=,*,legacy=", s))
    return -1;
  if (given(s[FORMATTER]) || given(s[LEGACY]))
    return IERR_VALUE(I, "array2string: %s= is not supported by tsr",
                      given(s[FORMATTER]) ? "formatter" : "legacy");
  PrintOptions po = *interp_printoptions(I);
  if (override_options(I, s[WIDTH], s[PREC], s[SUPP], &po)) return -1;
  if (printoptions_apply(I, s[THRESH], s[EDGE], s[SIGN], s[FLOATMODE], &po)) return -1;
  const char *sep, *prefix, *suffix;
  if (str_arg(I, "separator", s[SEP], " ", &sep) || str_arg(I, "prefix", s[PREFIX], "", &prefix) ||
      str_arg(I, "suffix", s[SUFFIX], "", &suffix))
    return -1;
  Tensor *t = value_to_tensor_strong(I, s[A], -1);
  if (!t) return -1;
  Buf b;
  buf_init(&b, interp_ctx(I));
  fmt_array2string(&b, t, &po, sep, strlen(prefix), strlen(suffix));
  tensor_release(t);
  return ret_buf(I, &b, out);
}

/* array_repr(arr, max_line_width=None, precision=None, suppress_small=None) and
   array_str(a, ...): numpy.array_repr / numpy.array_str with per-call options. */
static int repr_or_str(Interp *I, const Args *a, const char *name, bool repr, Value *out) {
  Value s[4];
  if (args_parse(I, a, name,
                 repr ? "arr,max_line_width=,precision=,suppress_small="
                      : "a,max_line_width=,precision=,suppress_small=", s))
    return -1;
  PrintOptions po = *interp_printoptions(I);
  if (override_options(I, s[1], s[2], s[3], &po)) return -1;
  Tensor *t = value_to_tensor_strong(I, s[0], -1);
  if (!t) return -1;
  Buf b;
  buf_init(&b, interp_ctx(I));
  /* numpy.array_repr of a NumPy scalar formats it as a 0-d array named by its type */
  if (repr && t->ndim == 0 && !t->ndarray)
    fmt_repr_class(&b, t, &po, t->dtype == TSR_BOOL ? "bool_" : dtype_name(t->dtype));
  else if (repr) fmt_repr(&b, t, &po);
  else fmt_str(&b, t, &po);
  tensor_release(t);
  return ret_buf(I, &b, out);
}

static int bi_array_repr(Interp *I, const Args *a, Value *out) {
  return repr_or_str(I, a, "array_repr", true, out);
}

static int bi_array_str(Interp *I, const Args *a, Value *out) {
  return repr_or_str(I, a, "array_str", false, out);
}

/* --------------------------------------------------------------------------------------------
** format_float_positional, format_float_scientific
*/

/* An optional int argument (-1 when omitted or None); negative values are ValueError
   "NAME must be >= 0". */
static int opt_count(Interp *I, Value v, const char *name, int *out) {
  *out = -1;
  if (!given(v)) return 0;
  int64_t k;
  if (value_to_int(I, v, &k)) return -1;
  if (k < 0) return IERR_VALUE(I, "%s must be >= 0", name);
  *out = k > 100000 ? 100000 : (int)k;
  return 0;
}

/* Shared by both: slots x, precision, unique, (fractional), trim, sign, pad_left,
   (pad_right | exp_digits), min_digits. */
static int format_float(Interp *I, const Args *a, bool sci, Value *out) {
  enum { X, PREC, UNIQUE, TRIM, SIGN, PADL, PADR, MIND, FRAC, NSLOT };
  Value s[NSLOT];
  Value raw[9];
  if (sci) {
    if (args_parse(I, a, "format_float_scientific",
                   "x,precision=,unique=,trim=,sign=,pad_left=,exp_digits=,min_digits=", raw))
      return -1;
    for (int k = 0; k < 8; k++) s[k] = raw[k];
    s[FRAC] = v_undef();
  } else {
    if (args_parse(I, a, "format_float_positional",
                   "x,precision=,unique=,fractional=,trim=,sign=,pad_left=,pad_right=,"
                   "min_digits=", raw))
      return -1;
    s[X] = raw[0]; s[PREC] = raw[1]; s[UNIQUE] = raw[2]; s[FRAC] = raw[3]; s[TRIM] = raw[4];
    s[SIGN] = raw[5]; s[PADL] = raw[6]; s[PADR] = raw[7]; s[MIND] = raw[8];
  }
  Dragon4Options o;
  memset(&o, 0, sizeof o);
  o.sci = sci;
  o.trim = 'k';
  if (get_bool(I, s[UNIQUE], true, &o.unique) || get_bool(I, s[FRAC], true, &o.fractional) ||
      get_bool(I, s[SIGN], false, &o.sign))
    return -1;
  if (given(s[TRIM])) {
    Value t = s[TRIM];
    if (t.type != V_STR || as_str(t)->len != 1 || !strchr("k.0-", as_str(t)->s[0]))
      return IERR_TYPE(I, "if supplied, trim must be 'k', '.', '0' or '-' found `%s`",
                       t.type == V_STR ? as_str(t)->s : value_type_name(t));
    o.trim = as_str(t)->s[0];
  }
  if (opt_count(I, s[PREC], "precision", &o.precision) ||
      opt_count(I, s[MIND], "min_digits", &o.min_digits) ||
      opt_count(I, s[PADL], "pad_left", &o.pad_left) ||
      opt_count(I, s[PADR], sci ? "exp_digits" : "pad_right", sci ? &o.exp_digits : &o.pad_right))
    return -1;
  if (!sci) o.exp_digits = -1; else o.pad_right = -1;
  if (!o.unique && o.precision < 0)
    return IERR_TYPE(I, "in non-unique mode `precision` must be supplied");
  if (!sci && !o.fractional && o.precision == 0)
    return IERR_VALUE(I, "precision must be greater than 0 if fractional=False");
  if (o.precision >= 0 && o.min_digits > o.precision)
    return IERR_VALUE(I, "min_digits must be less than or equal to precision");
  double v;
  Value x = s[X];
  if (x.type == V_TENSOR) {
    if (tensor_size(x.t) != 1)
      return IERR_TYPE(I, "only size-1 arrays can be converted to Python scalars");
    o.f32 = x.t->dtype == TSR_FLOAT32;
  }
  if (value_to_double(I, x, &v)) return -1;
  Buf b;
  buf_init(&b, interp_ctx(I));
  fmt_float_dragon4(&b, v, &o);
  return ret_buf(I, &b, out);
}

static int bi_format_float_positional(Interp *I, const Args *a, Value *out) {
  return format_float(I, a, false, out);
}

static int bi_format_float_scientific(Interp *I, const Args *a, Value *out) {
  return format_float(I, a, true, out);
}

/* --------------------------------------------------------------------------------------------
** get_printoptions: a read-only dict, made as a namespace whose name marks it (subscripting a
** namespace with a str looks its members up, as dict[key])
*/

static const char printoptions_dict_name[] = "dict";
/* The keys in the order NumPy 1.24's dict holds them. */
static const char *const printoption_keys[] = {
  "edgeitems", "threshold", "floatmode", "precision", "suppress", "linewidth", "nanstr",
  "infstr", "sign", "formatter", "legacy", NULL};

/* seterr/geterr's dict (builtins_fperr.c) is also a namespace named "dict" */
static const char *const fperr_keys[] = {"divide", "over", "under", "invalid", NULL};

bool value_is_options_dict(Value v) {
  return v.type == V_NAMESPACE && strcmp(((Namespace *)v.o)->name, printoptions_dict_name) == 0;
}

void value_repr_options_dict(Interp *I, Buf *b, Value v) {
  Dict *d = ((Namespace *)v.o)->members;
  const char *const *keys = dict_get(d, "divide") ? fperr_keys : printoption_keys;
  buf_putc(b, '{');
  for (int k = 0; keys[k]; k++) {
    Value *m = dict_get(d, keys[k]);
    buf_printf(b, "%s'%s': ", k ? ", " : "", keys[k]);
    if (m) value_repr(I, b, *m);
  }
  buf_putc(b, '}');
}

static int set_str(Interp *I, Dict *d, const char *key, const char *s) {
  Value v = value_str(I, s, strlen(s));
  if (v.type == V_UNDEF) return -1;
  return dict_set(d, key, v);
}

/* get_printoptions(): numpy.get_printoptions, the current print options as a dict. */
static int bi_get_printoptions(Interp *I, const Args *a, Value *out) {
  Value none[1];
  if (args_parse(I, a, "get_printoptions", "", none)) return -1;
  Ctx *c = interp_ctx(I);
  const PrintOptions *po = interp_printoptions(I);
  static const char *const modes[] = {
    [FLOATMODE_FIXED] = "fixed", [FLOATMODE_UNIQUE] = "unique",
    [FLOATMODE_MAXPREC] = "maxprec", [FLOATMODE_MAXPREC_EQUAL] = "maxprec_equal"};
  char sign[2] = {po->sign, 0};
  Dict *d = dict_new(c);
  if (!d) return -1;
  if (dict_set(d, "edgeitems", v_int(po->edgeitems)) || dict_set(d, "threshold", v_int(po->threshold)) ||
      set_str(I, d, "floatmode", modes[po->floatmode]) ||
      dict_set(d, "precision", v_int(po->precision)) ||
      dict_set(d, "suppress", v_bool(po->suppress)) ||
      dict_set(d, "linewidth", v_int(po->linewidth)) || set_str(I, d, "nanstr", po->nanstr) ||
      set_str(I, d, "infstr", po->infstr) || set_str(I, d, "sign", sign) ||
      dict_set(d, "formatter", v_none()) || dict_set(d, "legacy", v_bool(false))) {
    dict_free(d);
    return -1;
  }
  Namespace *ns = ctx_calloc(c, sizeof(Namespace));
  if (!ns) { dict_free(d); return -1; }
  ns->h.refcnt = 1; ns->h.ctx = c; ns->h.size = sizeof(Namespace); ns->h.type = V_NAMESPACE;
  ns->name = printoptions_dict_name;
  ns->members = d;
  out->type = V_NAMESPACE;
  out->o = &ns->h;
  return 0;
}

/* --------------------------------------------------------------------------------------------
** whos
*/

static int compare_keys(const void *x, const void *y) {
  return strcmp((*(const DictEntry *const *)x)->key, (*(const DictEntry *const *)y)->key);
}

/* whos(): IPython's %whos: one line per variable of the module namespace (name, type, and for
   tensors shape, dtype and bytes), sorted by name.  A tsr extension (IPython magic). */
static int bi_whos(Interp *I, const Args *a, Value *out) {
  if (args_parse(I, a, "whos", "", NULL)) return -1;
  Ctx *c = interp_ctx(I);
  Dict *g = I->globals;
  size_t n = 0;
  for (size_t i = 0; i < g->cap; i++)
    if (g->slots[i].key) n++;
  const DictEntry **items = ctx_malloc(c, (n ? n : 1) * sizeof *items);
  if (!items) return -1;
  size_t k = 0;
  for (size_t i = 0; i < g->cap; i++) {
    const DictEntry *e = &g->slots[i];
    if (!e->key || e->key[0] == '_' || e->value.type == V_NAMESPACE) continue;
    items[k++] = e;
  }
  qsort(items, k, sizeof *items, compare_keys);
  Buf b;
  buf_init(&b, c);
  if (k == 0) {
    buf_puts(&b, "Interactive namespace is empty.\n");
  } else {
    buf_printf(&b, "%-12s %-16s %s\n", "Variable", "Type", "Data/Info");
    buf_puts(&b, "----------------------------------------------\n");
    for (size_t i = 0; i < k; i++) {
      Value v = items[i]->value;
      bool arr = v.type == V_TENSOR && (v.t->ndim > 0 || v.t->ndarray);
      const char *type = arr ? "ndarray" : v.type == V_TENSOR ? dtype_name(v.t->dtype)
                                                                : value_type_name(v);
      buf_printf(&b, "%-12s %-16s ", items[i]->key, type);
      if (arr) {
        int64_t sz = tensor_size(v.t);
        int64_t nbytes = sz * (int64_t)dtype_size(v.t->dtype);
        if (v.t->ndim == 1) buf_printf(&b, "%lld: ", (long long)v.t->shape[0]);
        else {
          for (int d = 0; d < v.t->ndim; d++)
            buf_printf(&b, "%s%lld", d ? "x" : "", (long long)v.t->shape[d]);
          buf_puts(&b, ": ");
        }
        buf_printf(&b, "%lld elems, type `%s`, %lld bytes\n", (long long)sz,
                   dtype_name(v.t->dtype), (long long)nbytes);
      } else if (v.type == V_FUNC || v.type == V_BUILTIN || v.type == V_CFUNC) {
        buf_puts(&b, "<function>\n");
      } else {
        Buf r;
        buf_init(&r, c);
        value_to_string(I, &r, v);
        const char *txt = buf_str(&r);
        size_t len = strcspn(txt, "\n");
        if (len > 40) { buf_putn(&b, txt, 37); buf_puts(&b, "..."); }
        else buf_putn(&b, txt, len);
        buf_putc(&b, '\n');
        buf_free(&r);
      }
    }
  }
  ctx_free(c, items, (n ? n : 1) * sizeof *items);
  if (b.failed || c->status != TSR_OK) { buf_free(&b); return -1; }
  interp_write(I, 1, b.p, b.n);
  buf_free(&b);
  *out = v_none();
  return 0;
}

const Builtin builtins_print_table[] = {
  {NULL, "array2string", bi_array2string,
   "array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=' ', "
   "prefix='', style=None, formatter=None, threshold=None, edgeitems=None, sign=None, "
   "floatmode=None, suffix='')\n\nReturn a string representation of an array."},
  {NULL, "array_repr", bi_array_repr,
   "array_repr(arr, max_line_width=None, precision=None, suppress_small=None)\n\n"
   "Return the string representation of an array (what the REPL echoes)."},
  {NULL, "array_str", bi_array_str,
   "array_str(a, max_line_width=None, precision=None, suppress_small=None)\n\n"
   "Return a string representation of the data in an array (what print shows)."},
  {NULL, "format_float_positional", bi_format_float_positional,
   "format_float_positional(x, precision=None, unique=True, fractional=True, trim='k', "
   "sign=False, pad_left=None, pad_right=None, min_digits=None)\n\n"
   "Format a floating-point scalar as a decimal string in positional notation."},
  {NULL, "format_float_scientific", bi_format_float_scientific,
   "format_float_scientific(x, precision=None, unique=True, trim='k', sign=False, "
   "pad_left=None, exp_digits=None, min_digits=None)\n\n"
   "Format a floating-point scalar as a decimal string in scientific notation."},
  {NULL, "get_printoptions", bi_get_printoptions,
   "get_printoptions()\n\nReturn the current print options (a dict)."},
  {"builtins", "whos", bi_whos,
   "whos()\n\nLists the variables with their type, and for tensors shape, dtype and bytes "
   "(IPython's %whos; a tsr extension)."},
  {NULL, NULL, NULL, NULL}
};
