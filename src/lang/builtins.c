/*
** builtins.c -- the core Python builtins of tsr (print, len, range, int, float, bool, str,
** repr, help, set_printoptions) and the list of every builtin table (builtin_tables).
**
** The NumPy functions live in builtins_array.c (creation, shape, attributes, tensor methods)
** and builtins_math.c (ufuncs, reductions, linear algebra).
*/
#include "builtins.h"
#include "interp.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The tables of the other builtins_*.c files (defined there, listed in builtin_tables). */
RT_HIDDEN extern const Builtin builtins_array_table[];
RT_HIDDEN extern const Builtin builtins_math_table[];
RT_HIDDEN extern const Builtin builtins_random_table[];
RT_HIDDEN extern const Builtin builtins_io_table[];
RT_HIDDEN extern const Builtin builtins_print_table[];
RT_HIDDEN extern const Builtin builtins_shape_table[];
RT_HIDDEN extern const Builtin builtins_einsum_table[];
RT_HIDDEN extern const Builtin builtins_fperr_table[];
RT_HIDDEN extern const Builtin builtins_linalg_table[];
RT_HIDDEN extern const Builtin builtins_indices_table[];
RT_HIDDEN extern const Builtin builtins_search_table[];
RT_HIDDEN extern const Builtin builtins_stats_table[];
RT_HIDDEN extern const Builtin builtins_python_table[];
RT_HIDDEN extern const Builtin builtins_format_table[];
RT_HIDDEN extern const Builtin builtins_str_table[];

/* --------------------------------------------------------------------------------------------
** Small helpers
*/

int call_with_self(Interp *I, const Args *a, BuiltinFn fn, Value *out) {
  Value pos[TSR_MAXDIMS + 2];
  if (a->npos + 1 > (int)(sizeof pos / sizeof pos[0]))
    return IERR_TYPE(I, "too many positional arguments (%d given)", a->npos);
  pos[0] = a->self;
  for (int i = 0; i < a->npos; i++) pos[i + 1] = a->pos[i];
  Args b = *a;
  b.npos = a->npos + 1;
  b.pos = pos;
  b.self = v_undef();
  return fn(I, &b, out);
}

/* Python's float -> int conversion (truncation) with its errors. */
static int float_to_int(Interp *I, double d, int64_t *out) {
  if (isnan(d)) return IERR_VALUE(I, "cannot convert float NaN to integer");
  if (isinf(d)) return ERR_OVERFLOW(interp_ctx(I), "cannot convert float infinity to integer");
  d = trunc(d);
  if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
    return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C long");
  *out = (int64_t)d;
  return 0;
}

/* Strips leading and trailing ASCII whitespace of s into [*begin, *end). */
static void strip_space(const char *s, size_t len, const char **begin, const char **end) {
  const char *p = s, *q = s + len;
  while (p < q && *p && strchr(" \t\n\r\f\v", *p)) p++;
  while (q > p && q[-1] && strchr(" \t\n\r\f\v", q[-1])) q--;
  *begin = p;
  *end = q;
}

/* --------------------------------------------------------------------------------------------
** print, len, range
*/

/* Reads print()'s sep= / end= keyword: None keeps the default, a str replaces it. */
static int print_option(Interp *I, const char *name, Value v, const char **s, size_t *n) {
  if (v.type == V_NONE) return 0;
  if (v.type != V_STR)
    return IERR_TYPE(I, "%s must be None or a string, not %s", name, value_type_name(v));
  *s = as_str(v)->s;
  *n = as_str(v)->len;
  return 0;
}

/* print(*args, sep=' ', end='\n'): str() of each argument, written to stdout. */
static int bi_print(Interp *I, const Args *a, Value *out) {
  const char *sep = " ", *end = "\n";
  size_t nsep = 1, nend = 1;
  for (int k = 0; k < a->nkw; k++) {
    const char *kw = a->kwnames[k];
    if (strcmp(kw, "sep") == 0) {
      if (print_option(I, "sep", a->kw[k], &sep, &nsep)) return -1;
    } else if (strcmp(kw, "end") == 0) {
      if (print_option(I, "end", a->kw[k], &end, &nend)) return -1;
    } else if (strcmp(kw, "flush") != 0) {
      return IERR_TYPE(I, "'%s' is an invalid keyword argument for print()", kw);
    }
  }
  Buf b;
  buf_init(&b, interp_ctx(I));
  for (int i = 0; i < a->npos; i++) {
    if (i > 0) buf_putn(&b, sep, nsep);
    value_to_string(I, &b, a->pos[i]);
  }
  buf_putn(&b, end, nend);
  if (b.failed || interp_ctx(I)->status != TSR_OK) goto fail;
  interp_write(I, 1, b.p, b.n);
  buf_free(&b);
  *out = v_none();
  return 0;
fail:
  buf_free(&b);
  return -1;
}


/* len(obj): strings, lists, tuples, ranges, and tensors (first dimension). */
static int bi_len(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "len", "obj", s)) return -1;
  Value v = s[0];
  switch (v.type) {
  case V_STR: *out = v_int((int64_t)as_str(v)->ncp); return 0;
  case V_LIST: case V_TUPLE: *out = v_int(as_list(v)->n); return 0;
  case V_RANGE: {
    const Range *r = (const Range *)v.o;
    uint64_t n = progression_count(r->start, r->stop, r->step);
    if (n > (uint64_t)INT64_MAX)
      return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C ssize_t");
    *out = v_int((int64_t)n);
    return 0;
  }
  case V_TENSOR:
    if (v.t->ndim == 0 && !v.t->ndarray)
      return IERR_TYPE(I, "object of type '%s' has no len()", value_type_name(v));
    if (v.t->ndim == 0) return IERR_TYPE(I, "len() of unsized object");
    *out = v_int(v.t->shape[0]);
    return 0;
  default:
    return IERR_TYPE(I, "object of type '%s' has no len()", value_type_name(v));
  }
}

/* range(stop) / range(start, stop[, step]). */
static int bi_range(Interp *I, const Args *a, Value *out) {
  if (a->nkw > 0) return IERR_TYPE(I, "range() takes no keyword arguments");
  if (a->npos < 1)
    return IERR_TYPE(I, "range expected at least 1 argument, got %d", a->npos);
  if (a->npos > 3)
    return IERR_TYPE(I, "range expected at most 3 arguments, got %d", a->npos);
  int64_t v[3] = {0, 0, 1};
  for (int i = 0; i < a->npos; i++)
    if (value_to_int(I, a->pos[i], &v[i])) return -1;
  int64_t start = 0, stop = v[0], step = 1;
  if (a->npos >= 2) { start = v[0]; stop = v[1]; }
  if (a->npos == 3) step = v[2];
  if (step == 0) return IERR_VALUE(I, "range() arg 3 must not be zero");
  return ret_value(value_range(I, start, stop, step), out);
}

/* --------------------------------------------------------------------------------------------
** int, float, bool, str, repr
*/

/* int(x=0): Python's int of a number, a numeric string, or a size-1 tensor. */
static int bi_int(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "int", "|x", s)) return -1;
  Value v = s[0];
  int64_t r = 0;
  switch (v.type) {
  case V_UNDEF: break;
  case V_BOOL: r = v.b; break;
  case V_INT: r = v.i; break;
  case V_FLOAT:
    if (float_to_int(I, v.f, &r)) return -1;
    break;
  case V_STR: {
    const char *p, *q;
    strip_space(as_str(v)->s, as_str(v)->len, &p, &q);
    char digits[64];
    size_t n = 0;
    bool ok = p < q, had_digit = false;
    for (const char *c = p; ok && c < q; c++) {
      if (*c == '_' && had_digit && c + 1 < q && c[1] >= '0' && c[1] <= '9') continue;
      if ((*c == '+' || *c == '-') && c == p) { digits[n++] = *c; continue; }
      if (*c < '0' || *c > '9' || n + 1 >= sizeof digits) { ok = false; break; }
      digits[n++] = *c;
      had_digit = true;
    }
    if (ok && had_digit) {
      digits[n] = '\0';
      errno = 0;
      long long x = strtoll(digits, NULL, 10);
      if (errno == ERANGE)
        return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C long");
      r = x;
      break;
    }
    Buf b;
    buf_init(&b, interp_ctx(I));
    value_repr(I, &b, v);
    IERR_VALUE(I, "invalid literal for int() with base 10: %s", buf_str(&b));
    buf_free(&b);
    return -1;
  }
  case V_TENSOR: {
    Tensor *t = v.t;
    if (tensor_size(t) != 1)
      return IERR_TYPE(I, "only size-1 arrays can be converted to Python scalars");
    const char *p = tensor_data(t);
    if (dtype_is_float(t->dtype)) {
      if (float_to_int(I, dtype_get_f64(t->dtype, p), &r)) return -1;
    } else if (t->dtype == TSR_UINT64 && dtype_get_u64(t->dtype, p) > (uint64_t)INT64_MAX) {
      return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C long");
    } else {
      r = dtype_get_i64(t->dtype, p);
    }
    break;
  }
  default:
    return IERR_TYPE(I, "int() argument must be a string, a bytes-like object or a real "
                        "number, not '%s'", value_type_name(v));
  }
  *out = v_int(r);
  return 0;
}

/* Python's float("...") grammar: decimal numbers, inf/infinity/nan with a sign. */
static int parse_float(const char *p, const char *q, double *out) {
  char text[128];
  size_t n = 0;
  if (p >= q || (size_t)(q - p) >= sizeof text) return -1;
  for (const char *c = p; c < q; c++) {
    if (*c == '_') continue;
    if (*c == 'x' || *c == 'X' || *c == 'p' || *c == 'P') return -1;   /* no hex floats */
    text[n++] = *c;
  }
  text[n] = '\0';
  char *endp;
  errno = 0;
  double d = strtod(text, &endp);
  if (endp == text || *endp != '\0') return -1;
  *out = d;
  return 0;
}

/* float(x=0.0): Python's float of a number, a string, or a size-1 tensor. */
static int bi_float(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "float", "|x", s)) return -1;
  Value v = s[0];
  double d = 0.0;
  switch (v.type) {
  case V_UNDEF: break;
  case V_BOOL: case V_INT: case V_FLOAT: case V_TENSOR:
    if (v.type == V_TENSOR && tensor_size(v.t) != 1)
      return IERR_TYPE(I, "only size-1 arrays can be converted to Python scalars");
    if (value_to_double(I, v, &d)) return -1;
    break;
  case V_STR: {
    const char *p, *q;
    strip_space(as_str(v)->s, as_str(v)->len, &p, &q);
    if (parse_float(p, q, &d) == 0) break;
    Buf b;
    buf_init(&b, interp_ctx(I));
    value_repr(I, &b, v);
    IERR_VALUE(I, "could not convert string to float: %s", buf_str(&b));
    buf_free(&b);
    return -1;
  }
  default:
    return IERR_TYPE(I, "float() argument must be a string or a real number, not '%s'",
                     value_type_name(v));
  }
  *out = v_float(d);
  return 0;
}

/* bool(x=False): Python's truth value. */
static int bi_bool(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "bool", "|x", s)) return -1;
  if (s[0].type == V_UNDEF) { *out = v_bool(false); return 0; }
  int truth = value_truth(I, s[0]);
  if (truth < 0) return -1;
  *out = v_bool(truth != 0);
  return 0;
}

/* Shared by str() and repr(): formats with fn into a new str value. */
static int format_value(Interp *I, Value v, void (*fn)(Interp *, Buf *, Value), Value *out) {
  Buf b;
  buf_init(&b, interp_ctx(I));
  if (v.type != V_UNDEF) fn(I, &b, v);
  int rc = -1;
  if (!b.failed && interp_ctx(I)->status == TSR_OK)
    rc = ret_value(value_str(I, buf_str(&b), b.n), out);
  buf_free(&b);
  return rc;
}

static int bi_str(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "str", "|object", s)) return -1;
  return format_value(I, s[0], value_to_string, out);
}

static int bi_repr(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "repr", "obj", s)) return -1;
  return format_value(I, s[0], value_repr, out);
}

/* --------------------------------------------------------------------------------------------
** help, set_printoptions
*/

/* help(obj): prints the documentation of a builtin (its NumPy signature and summary) or of a
   user function (its signature and docstring, as Python's help). */
static int bi_help(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "help", "|request", s)) return -1;
  Value v = s[0];
  const Builtin *bi = NULL;
  if (v.type == V_BUILTIN) bi = v.bi;
  else if (v.type == V_METHOD) bi = ((const Method *)v.o)->bi;
  Buf b;
  buf_init(&b, interp_ctx(I));
  if (v.type == V_UNDEF) {
    buf_puts(&b, "help(obj) prints the documentation of a builtin function, e.g. help(sum).\n");
  } else if (v.type == V_FUNC) {
    /* as Python's help(): the signature with the default values, then the docstring */
    const Func *f = (const Func *)v.o;
    buf_printf(&b, "Help on function %s in module __main__:\n\n%s(", f->def->str, f->def->str);
    int k = 0;
    for (const Node *p = f->def->a; p; p = p->next, k++) {
      buf_printf(&b, "%s%s", k ? ", " : "", p->str);
      if (k < f->nparams && f->defaults && f->defaults[k].type != V_UNDEF) {
        buf_putc(&b, '=');
        value_repr(I, &b, f->defaults[k]);
      }
    }
    buf_puts(&b, ")\n");
    /* the docstring as inspect.cleandoc gives it: later lines lose their common indent */
    size_t indent = SIZE_MAX;
    for (const char *d = f->doc ? strchr(f->doc, '\n') : NULL; d; d = strchr(d + 1, '\n')) {
      size_t sp = strspn(d + 1, " \t");
      if (d[1 + sp] && d[1 + sp] != '\n' && sp < indent) indent = sp;
    }
    bool first_line = true;
    for (const char *d = f->doc; d && *d; first_line = false) {
      size_t n = strcspn(d, "\n");
      const char *line = d;
      if (first_line) while (*line == ' ' || *line == '\t') line++;
      else line += strspn(d, " \t") < indent ? strspn(d, " \t") : indent;
      buf_puts(&b, "    ");
      buf_putn(&b, line, (size_t)(d + n - line));
      buf_putc(&b, '\n');
      d += n + (d[n] == '\n');
    }
    buf_putc(&b, '\n');
  } else if (bi && bi->doc) {
    buf_puts(&b, bi->doc);
    buf_putc(&b, '\n');
  } else {
    buf_puts(&b, "No documentation for ");
    value_repr(I, &b, v);
    buf_putc(&b, '\n');
  }
  if (b.failed || interp_ctx(I)->status != TSR_OK) { buf_free(&b); return -1; }
  interp_write(I, 1, b.p, b.n);
  buf_free(&b);
  *out = v_none();
  return 0;
}

/* Applies the threshold=, edgeitems=, sign= and floatmode= options of set_printoptions and
   array2string (V_UNDEF or None keeps the current value) to po, with NumPy's checks and
   messages.  Returns 0 or -1. */
int printoptions_apply(Interp *I, Value thresh, Value edge, Value sign, Value floatmode,
                       PrintOptions *po) {
  if (thresh.type != V_UNDEF && thresh.type != V_NONE) {
    Value v = thresh;
    if (v.type == V_FLOAT) {
      if (isnan(v.f))
        return IERR_VALUE(I, "threshold must be non-NAN, try sys.maxsize for untruncated "
                             "representation");
      po->threshold = v.f >= 9.2e18 ? INT64_MAX : (int64_t)v.f;
    } else if (v.type == V_INT || v.type == V_BOOL || v.type == V_TENSOR) {
      double d;
      if (value_to_double(I, v, &d)) return -1;
      if (isnan(d))
        return IERR_VALUE(I, "threshold must be non-NAN, try sys.maxsize for untruncated "
                             "representation");
      po->threshold = v.type == V_INT ? v.i : d >= 9.2e18 ? INT64_MAX : (int64_t)d;
    } else {
      return IERR_TYPE(I, "threshold must be numeric");
    }
  }
  if (edge.type != V_UNDEF && edge.type != V_NONE) {
    int64_t e;
    if (value_to_int(I, edge, &e)) return -1;
    po->edgeitems = e < 0 ? 0 : e > 1000000 ? 1000000 : (int)e;
  }
  if (sign.type != V_UNDEF && sign.type != V_NONE) {
    Value v = sign;
    if (v.type != V_STR || as_str(v)->len != 1 || !strchr(" +-", as_str(v)->s[0]))
      return IERR_VALUE(I, "sign option must be one of ' ', '+', or '-'");
    po->sign = as_str(v)->s[0];
  }
  if (floatmode.type != V_UNDEF && floatmode.type != V_NONE) {
    static const char *const modes[] = {
      [FLOATMODE_FIXED] = "fixed", [FLOATMODE_UNIQUE] = "unique",
      [FLOATMODE_MAXPREC] = "maxprec", [FLOATMODE_MAXPREC_EQUAL] = "maxprec_equal"};
    Value v = floatmode;
    int mode = -1;
    for (int k = 0; v.type == V_STR && k < 4; k++)
      if (strcmp(as_str(v)->s, modes[k]) == 0) mode = k;
    if (mode < 0)
      return IERR_VALUE(I, "floatmode option must be one of \"fixed\", \"unique\", "
                           "\"maxprec\", \"maxprec_equal\"");
    po->floatmode = mode;
  }
  return 0;
}

/* set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
   suppress=None, nanstr=None, infstr=None, formatter=None, sign=None, floatmode=None):
   numpy.set_printoptions; the options are validated before any is changed. */
static int bi_set_printoptions(Interp *I, const Args *a, Value *out) {
  enum { PREC, THRESH, EDGE, LINEW, SUPP, NANSTR, INFSTR, FORMATTER, SIGN, FLOATMODE,
         LEGACY, NSLOT };
  static const char *const unsupported[] = {
    [FORMATTER] = "formatter", [LEGACY] = "legacy"};
  Value s[NSLOT];
  if (args_parse(I, a, "set_printoptions",
                 "precision=,threshold=,edgeitems=,linewidth=,suppress=,nanstr=,infstr=,"
                 "formatter=,sign=,floatmode=,*,legacy=", s))
    return -1;
  PrintOptions po = *interp_printoptions(I);
  for (int k = NANSTR; k < NSLOT; k++)
    if (unsupported[k] && s[k].type != V_UNDEF && s[k].type != V_NONE)
      return IERR_VALUE(I, "set_printoptions: %s= is not supported by tsr", unsupported[k]);
  if (s[PREC].type != V_UNDEF && s[PREC].type != V_NONE) {
    int64_t p;
    if (s[PREC].type == V_FLOAT || s[PREC].type == V_STR || value_to_int(I, s[PREC], &p)) {
      ctx_clear(interp_ctx(I));
      return IERR_TYPE(I, "precision must be an integer");
    }
    if (p < 0 || p > 10000) return IERR_VALUE(I, "precision must be >= 0");
    po.precision = (int)p;
  }
  if (s[LINEW].type != V_UNDEF && s[LINEW].type != V_NONE) {
    int64_t w;
    if (value_to_int(I, s[LINEW], &w)) return -1;
    po.linewidth = w < 1 ? 1 : w > 1000000 ? 1000000 : (int)w;
  }
  if (s[SUPP].type != V_UNDEF && s[SUPP].type != V_NONE) {
    int truth = value_truth(I, s[SUPP]);
    if (truth < 0) return -1;
    po.suppress = truth != 0;
  }
  if (printoptions_apply(I, s[THRESH], s[EDGE], s[SIGN], s[FLOATMODE], &po)) return -1;
  for (int k = NANSTR; k <= INFSTR; k++) {
    if (s[k].type == V_UNDEF || s[k].type == V_NONE) continue;
    char *dst = k == NANSTR ? po.nanstr : po.infstr;
    if (s[k].type != V_STR)
      return IERR_TYPE(I, "%s must be a str, not %s", k == NANSTR ? "nanstr" : "infstr",
                       value_type_name(s[k]));
    if (as_str(s[k])->len >= sizeof po.nanstr)
      return IERR_VALUE(I, "%s is longer than tsr's limit of %d bytes",
                        k == NANSTR ? "nanstr" : "infstr", (int)sizeof po.nanstr - 1);
    memcpy(dst, as_str(s[k])->s, as_str(s[k])->len + 1);
  }
  *interp_printoptions(I) = po;
  *out = v_none();
  return 0;
}

/* _raise(kind, message): records the error `kind: message` for the stdlib's tsr functions,
   which have no raise statement.  kind is "ValueError", "TypeError", "IndexError" or
   "AxisError" (shown as NumPy's "AxisError (ValueError)"); any other kind is a ValueError. */
static int bi_raise(Interp *I, const Args *a, Value *out) {
  (void)out;
  Value s[2];
  if (args_parse(I, a, "_raise", "kind,message", s)) return -1;
  if (s[0].type != V_STR || s[1].type != V_STR)
    return IERR_TYPE(I, "_raise() takes two strings");
  const char *kind = as_str(s[0])->s, *msg = as_str(s[1])->s;
  Ctx *c = interp_ctx(I);
  if (strcmp(kind, "TypeError") == 0) return ERR_TYPE(c, "%s", msg);
  if (strcmp(kind, "AxisError") == 0) return ERR_AXIS(c, "%s", msg);
  if (strcmp(kind, "IndexError") == 0) return ERR_INDEX(c, "%s", msg);
  return ERR_VALUE(c, "%s", msg);
}

/* --------------------------------------------------------------------------------------------
** The tables
*/

static const Builtin builtins_core_table[] = {
  {"builtins", "print", bi_print,
   "print(*args, sep=' ', end='\\n')\n\nPrints the values, separated by sep, followed by end."},
  {"builtins", "len", bi_len,
   "len(obj)\n\nNumber of items of a sequence; the first dimension of a tensor."},
  {"builtins", "range", bi_range,
   "range(stop) / range(start, stop[, step])\n\nThe integers from start to stop by step."},
  {"builtins", "int", bi_int,
   "int(x=0)\n\nConverts a number, a string or a size-1 tensor to a Python int."},
  {"builtins", "float", bi_float,
   "float(x=0.0)\n\nConverts a number, a string or a size-1 tensor to a Python float."},
  {"builtins", "bool", bi_bool, "bool(x=False)\n\nThe truth value of x."},
  {"builtins", "str", bi_str, "str(object='')\n\nThe printable form of object (what print shows)."},
  {"builtins", "repr", bi_repr, "repr(obj)\n\nThe canonical form of obj (what the REPL echoes)."},
  {"builtins", "help", bi_help, "help(obj)\n\nPrints the documentation of a builtin function."},
  {NULL, "set_printoptions", bi_set_printoptions,
   "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, "
   "suppress=None, nanstr=None, infstr=None, formatter=None, sign=None, floatmode=None)\n\n"
   "Set printing options (how tensors are printed)."},
  {NULL, "_raise", bi_raise,
   "_raise(kind, message)\n\nRaises kind ('ValueError', 'TypeError', 'IndexError', 'AxisError') "
   "with message "
   "(tsr: the stdlib's error helper)."},
  {NULL, NULL, NULL, NULL}
};

const Builtin *const builtin_tables[] = {
  builtins_core_table, builtins_array_table, builtins_math_table, builtins_random_table,
  builtins_io_table, builtins_print_table, builtins_shape_table, builtins_einsum_table,
  builtins_fperr_table, builtins_linalg_table, builtins_indices_table, builtins_search_table,
  builtins_stats_table, builtins_python_table, builtins_format_table, builtins_str_table,
  NULL
};
