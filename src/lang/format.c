/*
** format.c -- Python's string formatting: the format-spec mini-language of format(), str.format
** and f-strings ([[fill]align][sign][z][#][0][width][grouping][.precision][type]) for int,
** float, bool, str and the rest, and printf-style `str % args`, with CPython 3.11's results
** and error messages.  NumPy scalars format as the Python number they convert to (NumPy's
** __format__: a float32 0.1 formats as 0.10000000149011612), arrays only with an empty spec.
**
** Floats are converted by the C library's printf, which rounds the exact binary value half to
** even as CPython's dtoa does, so every digit agrees.
*/
#include "interp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the format spec ------------------------------------------------------------------------ */

typedef struct Spec {
  char fill, align;     /* align: '<' '>' '^' '=' or 0 (the type's default) */
  char sign;            /* '+' '-' ' ' or 0 */
  bool z, alt, zero;    /* 'z': -0.0 formats as 0.0; '#': alternate form; '0' before width */
  int64_t width;        /* -1: none */
  char grouping;        /* ',' '_' or 0 */
  int64_t precision;    /* -1: none */
  char type;            /* the presentation type, 0 for none */
} Spec;

static int invalid_spec(Interp *I, const char *spec, size_t len, const char *tname) {
  return IERR_VALUE(I, "Invalid format specifier '%.*s' for object of type '%s'", (int)len, spec,
                    tname);
}

static bool is_align(char ch) { return ch == '<' || ch == '>' || ch == '^' || ch == '='; }

/* Parses spec[0..len) (ASCII fill characters only). */
static int parse_spec(Interp *I, const char *spec, size_t len, const char *tname, Spec *s) {
  memset(s, 0, sizeof *s);
  s->fill = ' ';
  s->width = s->precision = -1;
  size_t i = 0;
  bool fill_given = false;
  if (len >= 2 && is_align(spec[1])) { s->fill = spec[0]; s->align = spec[1]; i = 2; fill_given = true; }
  else if (len >= 1 && is_align(spec[0])) { s->align = spec[0]; i = 1; }
  if (i < len && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) s->sign = spec[i++];
  if (i < len && spec[i] == 'z') { s->z = true; i++; }
  if (i < len && spec[i] == '#') { s->alt = true; i++; }
  if (i < len && spec[i] == '0') {   /* zero padding: the fill unless one was given; and for
                                        numbers without an alignment, after the sign */
    s->zero = true;
    if (!fill_given) s->fill = '0';
    if (!s->align && strcmp(tname, "str") != 0) s->align = '=';
    i++;
  }
  if (i < len && spec[i] >= '0' && spec[i] <= '9') {
    s->width = 0;
    while (i < len && spec[i] >= '0' && spec[i] <= '9') {
      if (s->width > 100000000) return IERR_VALUE(I, "Too many decimal digits in format string");
      s->width = s->width * 10 + (spec[i++] - '0');
    }
  }
  if (i < len && (spec[i] == ',' || spec[i] == '_')) s->grouping = spec[i++];
  if (i < len && (spec[i] == ',' || spec[i] == '_')) return IERR_VALUE(I, "Cannot specify both ',' and '_'.");
  if (i < len && spec[i] == '.') {
    i++;
    if (i >= len || spec[i] < '0' || spec[i] > '9') return IERR_VALUE(I, "Format specifier missing precision");
    s->precision = 0;
    while (i < len && spec[i] >= '0' && spec[i] <= '9') {
      if (s->precision > 100000000) return IERR_VALUE(I, "Too many decimal digits in format string");
      s->precision = s->precision * 10 + (spec[i++] - '0');
    }
  }
  if (len - i > 1) return invalid_spec(I, spec, len, tname);
  if (i < len) s->type = spec[i];
  if (s->grouping && s->type && !strchr("deEfFgG%", s->type)) {
    if (s->grouping == '_' && strchr("boxX", s->type)) return 0;
    return IERR_VALUE(I, "Cannot specify '%c' with '%c'.", s->grouping, s->type);
  }
  return 0;
}

static int unknown_code(Interp *I, char type, const char *tname) {
  if ((unsigned char)type >= 32 && (unsigned char)type < 127)
    return IERR_VALUE(I, "Unknown format code '%c' for object of type '%s'", type, tname);
  return IERR_VALUE(I, "Unknown format code '\\x%x' for object of type '%s'", (unsigned char)type,
                    tname);
}

/* Writes body (already signed and prefixed as sign_len + prefix_len leading characters, then
   the digits) padded to the spec's width with its fill and alignment.  `numeric`: the default
   alignment is right, and '=' pads between the sign/prefix and the digits. */
static void pad(Buf *b, const Spec *s, const char *body, size_t n, size_t lead, bool numeric) {
  char align = s->align ? s->align : numeric ? '>' : '<';
  size_t width = s->width > 0 ? (size_t)s->width : 0;
  size_t total = n > width ? 0 : width - n;
  size_t left = align == '>' ? total : align == '^' ? total / 2 : align == '=' ? 0 : 0;
  size_t right = align == '<' ? total : align == '^' ? total - total / 2 : 0;
  if (align == '=') {
    buf_putn(b, body, lead);
    buf_fill(b, s->fill, total);
    buf_putn(b, body + lead, n - lead);
    return;
  }
  buf_fill(b, s->fill, left);
  buf_putn(b, body, n);
  buf_fill(b, s->fill, right);
}

/* digits[0..n) with a separator every `every` digits from the right, into out (big enough);
   when min_len > 0, zero-padded on the left (separators included) to at least min_len. */
static size_t group_digits(const char *digits, size_t n, char sep, int every, size_t min_len,
                           char *out) {
  char tmp[1200];
  size_t k = 0, count = 0;
  for (size_t i = n; i > 0; i--) {
    if (count && count % (size_t)every == 0) tmp[k++] = sep;
    tmp[k++] = digits[i - 1];
    count++;
  }
  while (k < min_len) {
    if (count % (size_t)every == 0) {
      tmp[k++] = sep;
      if (k >= min_len) { tmp[k++] = '0'; count++; break; }   /* never start with a separator */
    }
    tmp[k++] = '0';
    count++;
  }
  for (size_t i = 0; i < k; i++) out[i] = tmp[k - 1 - i];
  return k;
}

/* Assembles sign + prefix + number (integer digits ipart[0..ni), then the rest: fraction,
   exponent, '%') with grouping and padding. */
static void emit_number(Buf *b, const Spec *s, bool negative, const char *prefix,
                        const char *ipart, size_t ni, const char *rest, int every) {
  char body[1400];
  size_t n = 0;
  if (negative) body[n++] = '-';
  else if (s->sign == '+') body[n++] = '+';
  else if (s->sign == ' ') body[n++] = ' ';
  size_t plen = strlen(prefix);
  memcpy(body + n, prefix, plen);
  n += plen;
  size_t lead = n, rest_len = strlen(rest);
  if (s->grouping) {
    size_t min_len = 0;
    if (s->align == '=' && s->fill == '0' && s->width > 0 &&
        (size_t)s->width > lead + rest_len)
      min_len = (size_t)s->width - lead - rest_len;
    n += group_digits(ipart, ni, s->grouping, every, min_len, body + n);
  } else {
    memcpy(body + n, ipart, ni);
    n += ni;
  }
  memcpy(body + n, rest, rest_len);
  n += rest_len;
  pad(b, s, body, n, lead, true);
}

/* ---- ints --------------------------------------------------------------------------------------- */

static int format_double(Interp *I, Buf *b, double v, const Spec *s, const char *tname);

static int format_int(Interp *I, Buf *b, int64_t v, const Spec *s, const char *tname) {
  char type = s->type ? s->type : 'd';
  if (strchr("eEfFgG%", type)) return format_double(I, b, (double)v, s, tname);
  if (!strchr("dnbcoxX", type)) return unknown_code(I, type, tname);
  if (s->precision >= 0) return IERR_VALUE(I, "Precision not allowed in integer format specifier");
  if (type == 'c') {
    if (s->sign) return IERR_VALUE(I, "Sign not allowed with integer format specifier 'c'");
    if (s->alt) return IERR_VALUE(I, "Alternate form (#) not allowed with integer format specifier 'c'");
    if (v < 0 || v > 0x10ffff) return ERR_OVERFLOW(interp_ctx(I), "%%c arg not in range(0x110000)");
    char u[4];
    size_t n = utf8_put(u, (uint32_t)v);
    pad(b, s, u, n, 0, true);
    return 0;
  }
  uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  int base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
  const char *dig = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  char digits[70], rev[70];
  size_t n = 0;
  do { rev[n++] = dig[mag % (uint64_t)base]; mag /= (uint64_t)base; } while (mag);
  for (size_t i = 0; i < n; i++) digits[i] = rev[n - 1 - i];
  const char *prefix = "";
  if (s->alt) prefix = type == 'b' ? "0b" : type == 'o' ? "0o" : type == 'x' ? "0x" : type == 'X' ? "0X" : "";
  emit_number(b, s, v < 0, prefix, digits, n, "", base == 10 ? 3 : 4);
  return 0;
}

/* ---- floats ------------------------------------------------------------------------------------- */

/* Removes trailing zeros of the fraction in num (and the point when nothing is left after it,
   unless keep_one: then one zero stays, "12.0"). */
static void strip_zeros(char *num, bool keep_one) {
  char *e = strpbrk(num, "eE"), exp[16] = "";
  if (e) { snprintf(exp, sizeof exp, "%s", e); *e = 0; }
  char *dot = strchr(num, '.');
  if (dot) {
    char *end = num + strlen(num);
    while (end > dot + 1 && end[-1] == '0') *--end = 0;
    if (end == dot + 1) {
      if (keep_one) { dot[1] = '0'; dot[2] = 0; }
      else *dot = 0;
    }
  }
  strcat(num, exp);
}

static int format_double(Interp *I, Buf *b, double v, const Spec *s, const char *tname) {
  char type = s->type;
  if (type && !strchr("eEfFgGn%", type)) return unknown_code(I, type, tname);
  bool negative = signbit(v) && !isnan(v);
  double a = fabs(v);
  char num[1200];
  bool upper = type == 'E' || type == 'F' || type == 'G';
  int64_t p = s->precision;
  if (p > 1000) return IERR_VALUE(I, "precision too big");
  const char *suffix = "";
  if (isnan(v) || isinf(v)) {
    snprintf(num, sizeof num, "%s", isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
    if (type == '%') suffix = "%";
  } else if (type == 'e' || type == 'E') {
    snprintf(num, sizeof num, s->alt ? "%#.*e" : "%.*e", (int)(p < 0 ? 6 : p), a);
  } else if (type == 'f' || type == 'F') {
    snprintf(num, sizeof num, s->alt ? "%#.*f" : "%.*f", (int)(p < 0 ? 6 : p), a);
  } else if (type == '%') {
    snprintf(num, sizeof num, s->alt ? "%#.*f" : "%.*f", (int)(p < 0 ? 6 : p), a * 100);
    suffix = "%";
  } else if (type == 'g' || type == 'G' || type == 'n') {
    snprintf(num, sizeof num, s->alt ? "%#.*g" : "%.*g", (int)(p < 0 ? 6 : p == 0 ? 1 : p), a);
  } else if (p < 0) {   /* no type, no precision: repr */
    Buf r;
    buf_init(&r, interp_ctx(I));
    fmt_pyfloat(&r, a);
    snprintf(num, sizeof num, "%s", r.failed ? "" : buf_str(&r));
    buf_free(&r);
    if (r.failed) return ERR_MEMORY(interp_ctx(I), "out of memory");
    char *e = strchr(num, 'e');
    if (s->alt && e && !memchr(num, '.', (size_t)(e - num))) {   /* '#': "1.e+300" */
      memmove(e + 1, e, strlen(e) + 1);
      *e = '.';
    }
  } else {              /* no type with a precision: 'g', with a digit after the point */
    int prec = p == 0 ? 1 : (int)p;
    snprintf(num, sizeof num, s->alt ? "%#.*e" : "%.*e", prec - 1, a);
    int x = atoi(strchr(num, 'e') + 1);
    if (x >= -4 && x < prec - 1) {
      snprintf(num, sizeof num, s->alt ? "%#.*f" : "%.*f", prec - 1 - x, a);
      if (!s->alt) strip_zeros(num, true);
    } else if (!s->alt) {
      strip_zeros(num, false);
    }
  }
  if (upper) for (char *q = num; *q; q++) if (*q == 'e') *q = 'E';
  if (s->z && negative && isfinite(v)) {   /* 'z': a value that rounds to zero loses its sign */
    bool zero = true;
    for (const char *q = num; *q && *q != 'e' && *q != 'E'; q++) if (*q >= '1' && *q <= '9') zero = false;
    if (zero) negative = false;
  }
  /* split into the integer digits and the rest for grouping */
  size_t ni = isfinite(v) ? strspn(num, "0123456789") : 0;
  char rest[1300];
  snprintf(rest, sizeof rest, "%s%s", num + ni, suffix);
  if (isnan(v) || isinf(v)) {   /* no digits to group: the padding stays plain */
    Spec plain = *s;
    plain.grouping = 0;
    emit_number(b, &plain, negative, "", "", 0, rest, 3);
    return 0;
  }
  emit_number(b, s, negative, "", num, ni, rest, 3);
  return 0;
}

/* ---- strings and the dispatch ------------------------------------------------------------------- */

static int format_text(Interp *I, Buf *b, const char *t, size_t n, const Spec *s) {
  if (s->type && s->type != 's') return unknown_code(I, s->type, "str");
  if (s->sign) return IERR_VALUE(I, "Sign not allowed in string format specifier");
  if (s->alt) return IERR_VALUE(I, "Alternate form (#) not allowed in string format specifier");
  if (s->align == '=') return IERR_VALUE(I, "'=' alignment not allowed in string format specifier");
  if (s->precision >= 0) {   /* the first `precision` code points */
    size_t k = 0, cps = 0;
    while (k < n && cps < (size_t)s->precision) {
      k++;
      while (k < n && ((unsigned char)t[k] & 0xc0) == 0x80) k++;
      cps++;
    }
    n = k;
  }
  /* width counts code points: pad with the byte length adjusted */
  size_t cps = 0;
  for (size_t k = 0; k < n; k++) cps += ((unsigned char)t[k] & 0xc0) != 0x80;
  Spec w = *s;
  if (w.width > 0) w.width += (int64_t)(n - cps);
  pad(b, &w, t, n, 0, false);
  return 0;
}

static int format_spec(Interp *I, Buf *b, Value v, const char *spec, size_t len) {
  if (value_scalar_to_python(I, v, &v)) return -1;
  if (len == 0) {
    value_to_string(I, b, v);
    return 0;
  }
  const char *tname = v.type == V_FLOAT ? "float" : v.type == V_STR ? "str" : "int";
  Spec s;
  switch (v.type) {
  case V_BOOL: case V_INT:
    if (parse_spec(I, spec, len, tname, &s)) return -1;
    return format_int(I, b, v.type == V_BOOL ? v.b : v.i, &s, tname);
  case V_FLOAT:
    if (parse_spec(I, spec, len, tname, &s)) return -1;
    return format_double(I, b, v.f, &s, tname);
  case V_STR:
    if (parse_spec(I, spec, len, tname, &s)) return -1;
    return format_text(I, b, as_str(v)->s, as_str(v)->len, &s);
  default:
    return IERR_TYPE(I, "unsupported format string passed to %s.__format__",
                     v.type == V_TENSOR ? "numpy.ndarray" : value_type_name(v));
  }
}

int format_object(Interp *I, Buf *b, Value v, const char *spec, size_t len) {
  size_t start = b->n;
  int rc = format_spec(I, b, v, spec, len);
  /* the characters written (padding included) are charged to the step budget */
  if (rc == 0 && b->n > start && !buf_work(b, b->n - start, WORK_CHAR)) rc = -1;
  return rc;
}

/* ---- printf-style formatting: str % args ------------------------------------------------------- */

/* The number for %d/%i/%u (int() of a real: floats truncate), %x/%o/%X (integers only), %c. */
static int percent_int(Interp *I, char conv, Value v, int64_t *out) {
  if (value_scalar_to_python(I, v, &v)) return -1;
  if (v.type == V_BOOL || v.type == V_INT) { *out = v.type == V_BOOL ? v.b : v.i; return 0; }
  if (v.type == V_FLOAT && (conv == 'd' || conv == 'i' || conv == 'u')) {
    Value iv;
    if (value_float_to_int(I, trunc(v.f), &iv)) return -1;
    *out = iv.i;
    return 0;
  }
  if (conv == 'd' || conv == 'i' || conv == 'u')
    return IERR_TYPE(I, "%%%c format: a real number is required, not %s", conv, value_type_name(v));
  return IERR_TYPE(I, "%%%c format: an integer is required, not %s", conv, value_type_name(v));
}

int format_percent(Interp *I, Value fmt, Value args, Value *out) {
  Ctx *c = interp_ctx(I);
  const char *f = as_str(fmt)->s;
  size_t n = as_str(fmt)->len;
  bool tuple = args.type == V_TUPLE;
  int64_t nargs = tuple ? as_list(args)->n : 1, used = 0;
  Buf b;
  buf_init(&b, c);
  int rc = 0;
#define NEXT_ARG(dst)                                                                    \
  do {                                                                                   \
    if (used >= nargs) { rc = IERR_TYPE(I, "not enough arguments for format string"); goto done; } \
    dst = tuple ? as_list(args)->items[used] : args;                                     \
    used++;                                                                              \
  } while (0)
  for (size_t i = 0; i < n; i++) {
    if (f[i] != '%') { buf_putc(&b, f[i]); continue; }
    i++;
    if (i < n && f[i] == '(') { rc = IERR_TYPE(I, "format requires a mapping"); goto done; }
    Spec s;
    memset(&s, 0, sizeof s);
    s.fill = ' ';
    s.width = s.precision = -1;
    for (; i < n && strchr("-+ #0", f[i]); i++) {
      if (f[i] == '-') s.align = '<';
      else if (f[i] == '+') s.sign = '+';
      else if (f[i] == ' ') { if (s.sign != '+') s.sign = ' '; }
      else if (f[i] == '#') s.alt = true;
      else s.zero = true;
    }
    if (i < n && f[i] == '*') {
      Value w;
      int64_t wi;
      NEXT_ARG(w);
      if (w.type != V_INT && w.type != V_BOOL) { rc = IERR_TYPE(I, "* wants int"); goto done; }
      wi = w.type == V_BOOL ? w.b : w.i;
      if (wi == INT64_MIN) { rc = IERR_VALUE(I, "width too big"); goto done; }
      if (wi < 0) { s.align = '<'; wi = -wi; }
      s.width = wi;
      i++;
    } else if (i < n && f[i] >= '0' && f[i] <= '9') {
      s.width = 0;
      while (i < n && f[i] >= '0' && f[i] <= '9')
        if (size_mul(s.width, 10, &s.width) || size_add(s.width, f[i++] - '0', &s.width)) {
          rc = IERR_VALUE(I, "width too big");   /* CPython's words past Py_ssize_t */
          goto done;
        }
    }
    if (i < n && f[i] == '.') {
      i++;
      s.precision = 0;
      if (i < n && f[i] == '*') {
        Value p;
        NEXT_ARG(p);
        if (p.type != V_INT && p.type != V_BOOL) { rc = IERR_TYPE(I, "* wants int"); goto done; }
        s.precision = p.type == V_BOOL ? p.b : (p.i < 0 ? 0 : p.i);
        i++;
      } else {
        while (i < n && f[i] >= '0' && f[i] <= '9')
          if (size_mul(s.precision, 10, &s.precision) ||
              size_add(s.precision, f[i++] - '0', &s.precision)) {
            rc = IERR_VALUE(I, "precision too big");
            goto done;
          }
      }
    }
    while (i < n && (f[i] == 'h' || f[i] == 'l' || f[i] == 'L')) i++;
    if (i >= n) { rc = IERR_VALUE(I, "incomplete format"); goto done; }
    char conv = f[i];
    if (conv == '%') { buf_putc(&b, '%'); continue; }
    if (s.zero && s.align != '<') { s.fill = '0'; s.align = '='; }
    if (!s.align) s.align = '>';
    Value v;
    if (!strchr("diouxXeEfFgGcrsa", conv)) {
      rc = IERR_VALUE(I, "unsupported format character '%c' (0x%x) at index %zu", conv,
                      (unsigned char)conv, i);
      goto done;
    }
    NEXT_ARG(v);
    if (conv == 's' || conv == 'r' || conv == 'a') {
      Buf t;
      buf_init(&t, c);
      if (conv == 's') value_to_string(I, &t, v); else value_repr(I, &t, v);
      const char *ts = t.failed ? "" : buf_str(&t);
      Spec ss = s;
      ss.sign = 0; ss.alt = false; ss.fill = ' ';
      if (ss.align == '=') ss.align = '>';
      rc = format_text(I, &b, ts, strlen(ts), &ss);
      bool failed = t.failed;
      buf_free(&t);
      if (failed) rc = ERR_MEMORY(c, "out of memory");
      if (rc) goto done;
      continue;
    }
    if (conv == 'c') {
      int64_t cp;
      if (v.type == V_STR) {
        Spec ss = s;
        ss.precision = -1;
        ss.alt = false;
        ss.sign = 0;
        ss.fill = ' ';
        if (ss.align == '=') ss.align = '>';
        rc = format_text(I, &b, as_str(v)->s, as_str(v)->len, &ss);
        if (rc) goto done;
        continue;
      }
      if (percent_int(I, 'c', v, &cp)) { rc = -1; goto done; }
      if (cp < 0 || cp > 0x10ffff) { rc = ERR_OVERFLOW(c, "%%c arg not in range(0x110000)"); goto done; }
      Buf t;   /* the character, then padded by code points with spaces */
      buf_init(&t, c);
      Spec one = {0};
      one.fill = ' ';
      one.width = one.precision = -1;
      one.type = 'c';
      rc = format_int(I, &t, cp, &one, "int");
      Spec ss = s;
      ss.precision = -1;
      ss.alt = false;
      ss.sign = 0;
      ss.fill = ' ';
      if (ss.align == '=') ss.align = '>';
      if (rc == 0) rc = t.failed ? ERR_MEMORY(c, "out of memory") : format_text(I, &b, t.p, t.n, &ss);
      buf_free(&t);
      if (rc) goto done;
      continue;
    }
    if (strchr("diouxX", conv)) {
      int64_t iv;
      if (percent_int(I, conv, v, &iv)) { rc = -1; goto done; }
      int64_t prec = s.precision;
      s.precision = -1;
      s.type = conv == 'i' || conv == 'u' ? 'd' : conv;
      if (prec > 0) {   /* %.3d: at least prec digits, as zero padding inside the sign */
        Buf t;
        buf_init(&t, c);
        Spec z = s;
        size_t lead = (iv < 0 || s.sign ? 1 : 0) + (s.alt && strchr("oxX", conv) ? 2 : 0);
        z.width = prec + (int64_t)lead;
        z.fill = '0'; z.align = '=';
        rc = format_int(I, &t, iv, &z, "int");
        if (rc == 0 && !t.failed) pad(&b, &s, buf_str(&t), t.n, lead, true);
        buf_free(&t);
        if (rc) goto done;
        continue;
      }
      if ((rc = format_int(I, &b, iv, &s, "int"))) goto done;
      continue;
    }
    /* e E f F g G: real numbers */
    Value pv;
    double d;
    if (value_scalar_to_python(I, v, &pv)) { rc = -1; goto done; }
    if (pv.type != V_BOOL && pv.type != V_INT && pv.type != V_FLOAT && pv.type != V_TENSOR) {
      rc = IERR_TYPE(I, "must be real number, not %s", value_type_name(pv));
      goto done;
    }
    if (value_to_double(I, pv, &d)) { rc = -1; goto done; }
    s.type = conv;
    if (s.precision < 0) s.precision = 6;
    if ((rc = format_double(I, &b, d, &s, "float"))) goto done;
  }
  if (used < nargs && tuple) { rc = IERR_TYPE(I, "not all arguments converted during string formatting"); goto done; }
  if (!tuple && used == 0 && args.type != V_NAMESPACE) {   /* a mapping may go unused */
    rc = IERR_TYPE(I, "not all arguments converted during string formatting");
    goto done;
  }
done:
#undef NEXT_ARG
  if (rc == 0) buf_work(&b, b.n, WORK_CHAR);   /* the characters written, padding included */
  if (rc == 0 && b.failed) rc = ERR_MEMORY(c, "out of memory");
  if (rc == 0) {
    *out = value_str(I, b.p ? b.p : "", b.n);
    if (out->type == V_UNDEF) rc = -1;
  }
  buf_free(&b);
  return rc;
}

/* format(value, format_spec='') */
static int bi_format(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "format", "value,format_spec=", s)) return -1;
  const char *spec = "";
  size_t len = 0;
  if (s[1].type != V_UNDEF) {
    if (s[1].type != V_STR)
      return IERR_TYPE(I, "format() argument 2 must be str, not %s", value_type_name(s[1]));
    spec = as_str(s[1])->s;
    len = as_str(s[1])->len;
  }
  Buf b;
  buf_init(&b, interp_ctx(I));
  int rc = format_object(I, &b, s[0], spec, len);
  if (rc == 0 && b.failed) rc = ERR_MEMORY(interp_ctx(I), "out of memory");
  if (rc == 0) {
    *out = value_str(I, b.p ? b.p : "", b.n);
    if (out->type == V_UNDEF) rc = -1;
  }
  buf_free(&b);
  return rc;
}

const Builtin builtins_format_table[] = {
  {"builtins", "format", bi_format, "format(value, format_spec='', /)\n\nvalue formatted by the "
   "format-spec mini-language."},
  {NULL, NULL, NULL, NULL}
};
