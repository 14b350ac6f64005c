/*
** fmt.c -- printing tensors exactly as NumPy 1.24 does (array_str, array_repr, scalar str)
** and Python's repr of a float.  Three stages, as numpy/core/arrayprint.py: pick the elements
** that will be shown (summarising with '...'), choose one element format for the whole
** tensor from those elements, then recurse over the axes with a hanging indent and wrap rows
** at the line width.  Everything is written into a Buf.
*/
#include "rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest number of fractional digits we ever print (NumPy's Dragon4 has a similar cap). */
#define PREC_MAX 400
/* Room for the digits of any double printed with up to PREC_MAX fractional digits. */
#define DIG_MAX (PREC_MAX + 330)
/* Room for one formatted element, padding included. */
#define ELEM_MAX (DIG_MAX + 64)

void printoptions_default(PrintOptions *po) {
  po->precision = 8;
  po->threshold = 1000;
  po->edgeitems = 3;
  po->linewidth = 75;
  po->suppress = false;
  po->sign = '-';
  po->floatmode = FLOATMODE_MAXPREC;
  strcpy(po->nanstr, "nan");
  strcpy(po->infstr, "inf");
}

/* ==========================================================================================
** Decimal digits of a double.  A finite value |v| is d[0].d[1]...d[n-1] x 10^exp (digits past
** n are zeros); zero is "0" with exp 0.
*/
typedef struct Digits { int n, exp; char d[DIG_MAX]; } Digits;

static void digits_zero(Digits *D) { D->n = 1; D->d[0] = '0'; D->exp = 0; }

/* Parses the output of printf's "%.*e" ("1.2345e+05", "1e-07"). */
static void digits_parse_e(const char *s, Digits *D) {
  D->n = 0;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9' && D->n < DIG_MAX) D->d[D->n++] = *s;
  D->exp = *s == 'e' ? (int)strtol(s + 1, NULL, 10) : 0;
  if (D->n == 0) digits_zero(D);
}

/* |v| correctly rounded to nfrac digits after the first significant one (printf's exact,
   round-half-even conversion: what Dragon4 gives when it stops at a cutoff).  Returns whether
   those digits read back as v (as a float32 when f32). */
static bool digits_sci(double v, bool f32, int nfrac, Digits *D) {
  char tmp[DIG_MAX + 32];
  if (nfrac > PREC_MAX) nfrac = PREC_MAX;
  snprintf(tmp, sizeof tmp, "%.*e", nfrac, fabs(v));
  digits_parse_e(tmp, D);
  return f32 ? strtof(tmp, NULL) == (float)fabs(v) : strtod(tmp, NULL) == fabs(v);
}

/* |v| correctly rounded to nfrac digits after the decimal point; returns as digits_sci. */
static bool digits_fixed(double v, bool f32, int nfrac, Digits *D) {
  char tmp[DIG_MAX + 32], all[DIG_MAX + 32];
  if (nfrac > PREC_MAX) nfrac = PREC_MAX;
  int len = snprintf(tmp, sizeof tmp, "%.*f", nfrac, fabs(v));
  if (len < 0 || (size_t)len >= sizeof tmp) return digits_sci(v, f32, nfrac, D);
  int nint = 0, n = 0;
  const char *s = tmp;
  for (; *s && *s != '.'; s++) all[n++] = *s, nint++;
  if (*s == '.') s++;
  for (; *s; s++) all[n++] = *s;
  int first = 0;
  while (first < n && all[first] == '0') first++;
  if (first == n) digits_zero(D);
  else {
    D->n = n - first;
    memcpy(D->d, all + first, (size_t)D->n);
    D->exp = nint - 1 - first;
  }
  return f32 ? strtof(tmp, NULL) == (float)fabs(v) : strtod(tmp, NULL) == fabs(v);
}

/* digits_sci, or when the nearest nfrac+1 digits do not read back as |v|, the neighbouring
   decimal of as many digits on the other side of |v| (one unit up or down in its last place),
   if that one does: the shortest round-trip string need not be the nearest one when the
   rounding interval is lopsided (a power of two: 2.0**-44 is 5.684341886080802e-14, whose
   nearest 16 digits ...801e-14 fall outside it).  Returns whether D reads back as |v|. */
static bool digits_sci_interval(double v, bool f32, int nfrac, Digits *D) {
  if (digits_sci(v, f32, nfrac, D)) return true;
  char tmp[DIG_MAX + 32];
  Digits E = *D;
  snprintf(tmp, sizeof tmp, "%c.%.*se%d", E.d[0], E.n - 1, E.d + 1, E.exp);
  bool up = strtod(tmp, NULL) < fabs(v);
  int i = E.n - 1;
  if (up) {
    while (i >= 0 && E.d[i] == '9') E.d[i--] = '0';
    if (i >= 0) E.d[i]++;
    else { E.d[0] = '1'; E.exp++; }              /* 9.99 -> 10.0 = 1.00e+1 */
  } else {
    while (i >= 0 && E.d[i] == '0') E.d[i--] = '9';
    if (i < 0) return false;
    E.d[i]--;
    if (E.d[0] == '0') {                          /* 1.00 -> 0.99 = 9.9(9)e-1 */
      memmove(E.d, E.d + 1, (size_t)E.n - 1);
      E.d[E.n - 1] = '9';
      E.exp--;
    }
  }
  snprintf(tmp, sizeof tmp, "%c.%.*se%d", E.d[0], E.n - 1, E.d + 1, E.exp);
  bool ok = f32 ? strtof(tmp, NULL) == (float)fabs(v) : strtod(tmp, NULL) == fabs(v);
  if (ok) *D = E;
  return ok;
}

/* The shortest digits, at most max_digits of them, that read back as |v| (float32 round trip
   when f32); the closest such digits when several exist: the digits of Python's repr and of
   NumPy's unique Dragon4.  max_digits must be a length known to round-trip. */
static void digits_shortest(double v, bool f32, int max_digits, Digits *D) {
  v = fabs(v);
  if (v == 0) { digits_zero(D); return; }
  int lo = 1, hi = max_digits;
  while (lo < hi) {                 /* round-tripping is monotone in the digit count */
    int mid = (lo + hi) / 2;
    if (digits_sci_interval(v, f32, mid - 1, D)) hi = mid; else lo = mid + 1;
  }
  digits_sci_interval(v, f32, lo - 1, D);
  while (D->n > 1 && D->d[D->n - 1] == '0') D->n--;
}

static char digit_at(const Digits *D, int i) { return i >= 0 && i < D->n ? D->d[i] : '0'; }

/* Did rounding |v| to the digits D go up (D is not a prefix of |v|'s exact digits)?  Dragon4
   in unique mode then ends at the digit the carry reached: no trailing zeros. */
static bool rounded_up(double v, const Digits *D) {
  Digits L;
  if (D->n == 1 && D->d[0] == '0') return false;
  digits_sci(v, false, PREC_MAX, &L);
  if (L.exp != D->exp) return true;
  for (int i = 0; i < D->n; i++)
    if (digit_at(&L, i) != D->d[i]) return true;
  return false;
}

static void strip_zeros(Digits *D) {
  while (D->n > 1 && D->d[D->n - 1] == '0') D->n--;
}

/* Chooses the digits of v as Dragon4 does (positional or scientific): unique mode gives the
   shortest round-trip digits, cut at `precision` fractional digits (-1: no cutoff) and
   extended with exact digits to at least `min_digits` (<= precision when both are given);
   non-unique mode the exact value rounded to `precision`.  Returns the number of fractional
   digits to show before trimming. */
static int choose_digits(double v, bool f32, bool sci, bool unique, int precision,
                         int min_digits, Digits *D) {
  if (precision > PREC_MAX) precision = PREC_MAX;
  if (min_digits > PREC_MAX) min_digits = PREC_MAX;
  if (!unique) {
    if (precision < 0) precision = 0;
    if (sci) digits_sci(v, f32, precision, D); else digits_fixed(v, f32, precision, D);
    return precision;
  }
  int max_digits = f32 ? 9 : 17;
  if (precision >= 0) {
    /* The digits at the cutoff: when they do not round-trip, the shortest digits are longer
       and the cutoff applies; otherwise the shortest digits are no longer than they are. */
    bool exact = sci ? digits_sci(v, f32, precision, D) : digits_fixed(v, f32, precision, D);
    if (!exact && rounded_up(v, D)) {
      strip_zeros(D);
      int k = sci ? D->n - 1 : D->n - 1 - D->exp;
      return k < min_digits ? min_digits : k < 0 ? 0 : k;
    }
    if (!exact) return precision;
    while (D->n > 1 && D->d[D->n - 1] == '0') D->n--;
    if (D->n < max_digits) max_digits = D->n;
  }
  digits_shortest(v, f32, max_digits, D);
  int k = sci ? D->n - 1 : D->n - 1 - D->exp;
  if (k < 0) k = 0;
  if (k < min_digits) {
    if (sci) digits_sci(v, f32, min_digits, D); else digits_fixed(v, f32, min_digits, D);
    return min_digits;
  }
  return k;
}


/* Trim modes of Dragon4: 'k' keep everything, '.' drop trailing zeros but keep the point,
   '0' drop trailing zeros but keep one ("1.0"), '-' drop trailing zeros and the point. */
static int trim_frac(const Digits *D, int first_frac_index, int F, int min_digits, char trim) {
  if (trim == 'k') return F;
  while (F > min_digits && F > 0 && digit_at(D, first_frac_index + F - 1) == '0') F--;
  return F;
}

static size_t put_spaces(char *out, size_t at, int n) {
  for (int i = 0; i < n; i++) out[at++] = ' ';
  return at;
}

/* Writes v's digits in positional notation ("-12.5", "0.", "1.0") into out (ELEM_MAX bytes),
   with the integer part padded to pad_left and the fraction to pad_right characters.
   plus: print '+' for non-negative values.  Returns the length. */
static size_t render_positional(char *out, double v, bool plus, const Digits *D, int F,
                                int min_digits, char trim, int pad_left, int pad_right) {
  char ip[DIG_MAX + 2];
  size_t ni = 0, at = 0;
  if (signbit(v)) ip[ni++] = '-';
  else if (plus) ip[ni++] = '+';
  if (D->exp < 0) ip[ni++] = '0';
  else
    for (int i = 0; i <= D->exp && ni < sizeof ip; i++) ip[ni++] = digit_at(D, i);
  F = trim_frac(D, D->exp + 1, F, min_digits, trim);
  at = put_spaces(out, at, pad_left - (int)ni);
  memcpy(out + at, ip, ni);
  at += ni;
  if (!(trim == '-' && F == 0)) out[at++] = '.';
  for (int j = 0; j < F; j++) out[at++] = digit_at(D, D->exp + 1 + j);
  int nfrac = F;
  if (trim == '0' && F == 0) { out[at++] = '0'; nfrac = 1; }
  at = put_spaces(out, at, pad_right - nfrac);
  out[at] = 0;
  return at;
}

/* Writes v's digits in scientific notation ("1.5e-05", "1.e+00", "-2e+16") into out, the
   mantissa's integer part padded to pad_left and the exponent to at least exp_digits digits
   (2 when exp_digits <= 0).  Returns the length. */
static size_t render_scientific(char *out, double v, bool plus, const Digits *D, int F,
                                int min_digits, char trim, int pad_left, int exp_digits) {
  size_t at = 0;
  int ni = 1 + (signbit(v) || plus);
  at = put_spaces(out, at, pad_left - ni);
  if (signbit(v)) out[at++] = '-';
  else if (plus) out[at++] = '+';
  out[at++] = D->d[0];
  F = trim_frac(D, 1, F, min_digits, trim);
  if (!(trim == '-' && F == 0)) out[at++] = '.';
  for (int j = 0; j < F; j++) out[at++] = digit_at(D, 1 + j);
  if (trim == '0' && F == 0) out[at++] = '0';
  int e = D->n == 1 && D->d[0] == '0' ? 0 : D->exp;
  char eb[16];
  int ne = snprintf(eb, sizeof eb, "%d", e < 0 ? -e : e);
  out[at++] = 'e';
  out[at++] = e < 0 ? '-' : '+';
  if (exp_digits <= 0) exp_digits = 2;
  for (int i = ne; i < exp_digits; i++) out[at++] = '0';
  memcpy(out + at, eb, (size_t)ne);
  at += (size_t)ne;
  out[at] = 0;
  return at;
}

/* ==========================================================================================
** Scalars.
*/

/* Python's repr(float): shortest round-trip digits, positional when the decimal exponent is
   in [-4, 16) ("0.0001", "1.0", "123.5"), else scientific ("1e-05", "1.5e+16"). */
void fmt_pyfloat(Buf *b, double v) {
  char out[ELEM_MAX];
  Digits D;
  if (isnan(v)) { buf_puts(b, "nan"); return; }
  if (isinf(v)) { buf_puts(b, v < 0 ? "-inf" : "inf"); return; }
  digits_shortest(v, false, 17, &D);
  bool positional = v == 0 || (D.exp >= -4 && D.exp < 16);
  int F = positional ? D.n - 1 - D.exp : D.n - 1;
  if (F < 0) F = 0;
  size_t n = positional ? render_positional(out, v, false, &D, F, 0, '0', 0, 0)
                        : render_scientific(out, v, false, &D, F, 0, '-', 0, 0);
  buf_putn(b, out, n);
}

/* str() of a NumPy 1.24 float scalar: like Python's repr, but the positional range is decided
   on the value (1e-4 <= |v| < 1e16), and float32 values use float32 round-trip digits
   (float32(0.1) is "0.1", float32(1e-4) is "1e-04"). */
static void fmt_float_scalar(Buf *b, double v, bool f32) {
  char out[ELEM_MAX];
  Digits D;
  if (isnan(v)) { buf_puts(b, "nan"); return; }
  if (isinf(v)) { buf_puts(b, v < 0 ? "-inf" : "inf"); return; }
  double a = fabs(v);
  bool positional = v == 0 || (a < 1e16 && a >= 1e-4);
  int F = choose_digits(v, f32, !positional, true, -1, 0, &D);
  size_t n = positional ? render_positional(out, v, false, &D, F, 0, '0', 0, 0)
                        : render_scientific(out, v, false, &D, F, 0, '-', 0, 0);
  buf_putn(b, out, n);
}

/* str() of the NumPy scalar stored at p. */
static void fmt_scalar(Buf *b, DType dt, const char *p) {
  if (dt == TSR_BOOL) buf_puts(b, dtype_get_i64(dt, p) ? "True" : "False");
  else if (dt == TSR_FLOAT32 || dt == TSR_FLOAT64)
    fmt_float_scalar(b, dtype_get_f64(dt, p), dt == TSR_FLOAT32);
  else if (dtype_is_unsigned(dt)) buf_printf(b, "%llu", (unsigned long long)dtype_get_u64(dt, p));
  else buf_printf(b, "%lld", (long long)dtype_get_i64(dt, p));
}

void fmt_dtype_repr(Buf *b, DType dt) {
  buf_puts(b, "dtype('");
  buf_puts(b, dtype_name(dt));
  buf_puts(b, "')");
}

/* ==========================================================================================
** Stage 1: the elements shown.  When summarising, an axis longer than 2*edgeitems shows only
** its first and last edgeitems entries (with edgeitems 0, NumPy's a[-0:] keeps the whole
** axis for the format, and the printing shows only the last entry).
*/
typedef void (*ElemVisit)(void *ud, const char *p);

typedef struct Walk {
  Buf *b;                      /* the output: each visit is charged to its Ctx */
  const Tensor *t;
  bool summary;
  int64_t edge;
  size_t itemsize;
  ElemVisit visit;
  void *ud;
} Walk;

static void walk_axis(const Walk *w, int axis, int64_t off) {
  const Tensor *t = w->t;
  if (axis == t->ndim) {
    w->visit(w->ud, t->storage->data + off * (int64_t)w->itemsize);
    buf_work(w->b, 1, WORK_DIGITS);
    return;
  }
  int64_t n = t->shape[axis], st = t->strides[axis];
  if (w->summary && w->edge > 0 && n > 2 * w->edge) {
    for (int64_t i = 0; i < w->edge && !w->b->failed; i++) walk_axis(w, axis + 1, off + i * st);
    for (int64_t i = n - w->edge; i < n && !w->b->failed; i++)
      walk_axis(w, axis + 1, off + i * st);
  } else {
    for (int64_t i = 0; i < n && !w->b->failed; i++) walk_axis(w, axis + 1, off + i * st);
  }
}

/* Visits the shown elements of t in C order (stops early once b has failed). */
static void walk(Buf *b, const Tensor *t, bool summary, int64_t edge, ElemVisit visit,
                 void *ud) {
  Walk w = { b, t, summary, edge, dtype_size(t->dtype), visit, ud };
  walk_axis(&w, 0, t->offset);
}

/* ==========================================================================================
** Stage 2: one format for the whole tensor (NumPy's FloatingFormat, IntegerFormat,
** BoolFormat).
*/
typedef struct FloatFormat {
  bool f32, exp_format, unique;
  int precision, min_digits;   /* precision -1: no cutoff */
  char trim;                   /* 'k', '.', '0', '-' */
  int pad_left, pad_right, exp_size;
  char sign;                   /* '-', '+', ' ' */
  const char *nanstr, *infstr; /* the print options' words for nan and inf */
} FloatFormat;

typedef struct ElemFormat {
  DType dt;
  bool zero_d;                 /* bool of a 0-d array: "True", not " True" */
  int int_width;               /* integers: common width */
  FloatFormat ff;
} ElemFormat;

/* Statistics of the shown float values, gathered by the first walk. */
typedef struct FloatStats {
  bool f32, any_finite, any_nonfinite, any_neginf, any_signbit;
  double max_abs, min_abs;     /* over finite non-zero values; valid when any_nonzero */
  bool any_nonzero;
  int max_int, max_frac, max_exp;   /* lengths measured by the second walk */
  const FloatFormat *ff;
} FloatStats;

static void float_stats_visit(void *ud, const char *p) {
  FloatStats *s = ud;
  double v = dtype_get_f64(s->f32 ? TSR_FLOAT32 : TSR_FLOAT64, p);
  if (!isfinite(v)) {
    s->any_nonfinite = true;
    if (isinf(v) && v < 0) s->any_neginf = true;
    return;
  }
  s->any_finite = true;
  if (signbit(v)) s->any_signbit = true;
  if (v == 0) return;
  double a = fabs(v);
  if (!s->any_nonzero) { s->max_abs = s->min_abs = a; s->any_nonzero = true; return; }
  if (a > s->max_abs) s->max_abs = a;
  if (a < s->min_abs) s->min_abs = a;
}

/* Formats finite v without padding as the first pass of FloatingFormat does. */
static size_t float_first_pass(const FloatFormat *f, double v, char *out) {
  Digits D;
  bool plus = f->sign == '+';
  int F = choose_digits(v, f->f32, f->exp_format, f->unique, f->precision, 0, &D);
  if (f->exp_format) return render_scientific(out, v, plus, &D, F, 0, f->trim, 0, 0);
  return render_positional(out, v, plus, &D, F, 0, f->trim, 0, 0);
}

static void float_measure_visit(void *ud, const char *p) {
  FloatStats *s = ud;
  double v = dtype_get_f64(s->f32 ? TSR_FLOAT32 : TSR_FLOAT64, p);
  if (!isfinite(v)) return;
  char out[ELEM_MAX];
  size_t n = float_first_pass(s->ff, v, out);
  const char *dot = memchr(out, '.', n);
  const char *e = memchr(out, 'e', n);
  const char *end = out + n;
  int ni, nf, ne = 0;
  if (e) { ne = (int)(end - e) - 2; end = e; }   /* "e+05" -> 2 exponent digits */
  if (dot) { ni = (int)(dot - out); nf = (int)(end - dot - 1); }
  else { ni = (int)(end - out); nf = 0; }
  if (ni > s->max_int) s->max_int = ni;
  if (nf > s->max_frac) s->max_frac = nf;
  if (ne > s->max_exp) s->max_exp = ne;
}

/* NumPy's FloatingFormat.fillFormat over the shown elements of t. */
static void float_format_fill(Buf *b, FloatFormat *f, const Tensor *t, bool summary,
                              const PrintOptions *po) {
  FloatStats s;
  memset(&s, 0, sizeof s);
  s.f32 = t->dtype == TSR_FLOAT32;
  walk(b, t, summary, po->edgeitems, float_stats_visit, &s);

  int prec = po->precision < 0 ? 0 : po->precision > PREC_MAX ? PREC_MAX : po->precision;
  f->f32 = s.f32;
  f->sign = po->sign;
  f->nanstr = po->nanstr;
  f->infstr = po->infstr;
  f->precision = po->floatmode == FLOATMODE_UNIQUE ? -1 : prec;
  f->exp_format = false;
  if (s.any_nonzero) {
    double ratio = s.f32 ? (double)((float)s.max_abs / (float)s.min_abs) : s.max_abs / s.min_abs;
    if (s.max_abs >= 1e8 || (!po->suppress && (s.min_abs < 1e-4 || ratio > 1000.0)))
      f->exp_format = true;
  }
  bool fixed = po->floatmode == FLOATMODE_FIXED;
  if (!s.any_finite) {
    f->pad_left = f->pad_right = 0;
    f->trim = '.';
    f->exp_size = -1;
    f->unique = true;
    f->min_digits = 0;
  } else {
    f->unique = !fixed;
    f->trim = fixed ? 'k' : '.';
    f->min_digits = 0;
    s.ff = f;
    walk(b, t, summary, po->edgeitems, float_measure_visit, &s);
    if (f->exp_format) {
      f->exp_size = s.max_exp;
      f->trim = 'k';
      f->precision = f->min_digits = s.max_frac;
      f->pad_left = s.max_int;
      f->pad_right = f->exp_size + 2 + f->precision;
    } else {
      f->pad_left = s.max_int;
      f->pad_right = s.max_frac;
      f->exp_size = -1;
      if (fixed || po->floatmode == FLOATMODE_MAXPREC_EQUAL) {
        f->precision = f->min_digits = f->pad_right;
        f->trim = 'k';
      } else {
        f->trim = '.';
        f->min_digits = 0;
      }
    }
  }
  if (f->sign == ' ' && !s.any_signbit) f->pad_left += 1;
  if (s.any_nonfinite) {
    int neginf = f->sign != '-' || s.any_neginf;
    int offset = f->pad_right + 1;
    int nanlen = (int)strlen(f->nanstr), inflen = (int)strlen(f->infstr) + neginf;
    if (nanlen - offset > f->pad_left) f->pad_left = nanlen - offset;
    if (inflen - offset > f->pad_left) f->pad_left = inflen - offset;
  }
}

/* Formats one float element with the common format (FloatingFormat.__call__). */
static size_t float_format_value(const FloatFormat *f, double v, char *out) {
  bool plus = f->sign == '+';
  if (!isfinite(v)) {
    char word[80];
    snprintf(word, sizeof word, "%s%s", isnan(v) ? (plus ? "+" : "") : v < 0 ? "-" : plus ? "+" : "",
             isnan(v) ? f->nanstr : f->infstr);
    size_t at = put_spaces(out, 0, f->pad_left + f->pad_right + 1 - (int)strlen(word));
    strcpy(out + at, word);
    return at + strlen(word);
  }
  Digits D;
  int F = choose_digits(v, f->f32, f->exp_format, f->unique, f->precision, f->min_digits, &D);
  if (f->exp_format)
    return render_scientific(out, v, plus, &D, F, f->min_digits, f->trim, f->pad_left,
                             f->exp_size);
  return render_positional(out, v, plus, &D, F, f->min_digits, f->trim, f->pad_left,
                           f->pad_right);
}

typedef struct IntStats { DType dt; bool any; int64_t lo, hi; uint64_t ulo, uhi; } IntStats;

static void int_stats_visit(void *ud, const char *p) {
  IntStats *s = ud;
  if (dtype_is_unsigned(s->dt)) {
    uint64_t v = dtype_get_u64(s->dt, p);
    if (!s->any || v < s->ulo) s->ulo = v;
    if (!s->any || v > s->uhi) s->uhi = v;
  } else {
    int64_t v = dtype_get_i64(s->dt, p);
    if (!s->any || v < s->lo) s->lo = v;
    if (!s->any || v > s->hi) s->hi = v;
  }
  s->any = true;
}

/* NumPy's IntegerFormat: every element right-aligned to the width of the longer of str(max)
   and str(min) over the shown elements. */
static int int_format_width(Buf *out, const Tensor *t, bool summary, const PrintOptions *po) {
  IntStats s;
  memset(&s, 0, sizeof s);
  s.dt = t->dtype;
  walk(out, t, summary, po->edgeitems, int_stats_visit, &s);
  char a[32], b[32];
  int na, nb;
  if (dtype_is_unsigned(t->dtype)) {
    na = snprintf(a, sizeof a, "%llu", (unsigned long long)s.ulo);
    nb = snprintf(b, sizeof b, "%llu", (unsigned long long)s.uhi);
  } else {
    na = snprintf(a, sizeof a, "%lld", (long long)s.lo);
    nb = snprintf(b, sizeof b, "%lld", (long long)s.hi);
  }
  return na > nb ? na : nb;
}

/* The common format of t's shown elements; the passes over them are charged to b's Ctx. */
static void elem_format_init(Buf *b, ElemFormat *ef, const Tensor *t, bool summary,
                             const PrintOptions *po) {
  memset(ef, 0, sizeof *ef);
  ef->dt = t->dtype;
  ef->zero_d = t->ndim == 0;
  if (dtype_is_float(t->dtype)) float_format_fill(b, &ef->ff, t, summary, po);
  else if (dtype_is_int(t->dtype)) ef->int_width = int_format_width(b, t, summary, po);
}

/* Formats the element at p with the common format into out (ELEM_MAX bytes). */
static size_t elem_format(const ElemFormat *ef, const char *p, char *out) {
  int n;
  if (ef->dt == TSR_BOOL) {
    n = snprintf(out, ELEM_MAX, "%s", dtype_get_i64(ef->dt, p) ? (ef->zero_d ? "True" : " True") : "False");
  } else if (dtype_is_float(ef->dt)) {
    return float_format_value(&ef->ff, dtype_get_f64(ef->dt, p), out);
  } else if (dtype_is_unsigned(ef->dt)) {
    n = snprintf(out, ELEM_MAX, "%*llu", ef->int_width,
                 (unsigned long long)dtype_get_u64(ef->dt, p));
  } else {
    n = snprintf(out, ELEM_MAX, "%*lld", ef->int_width, (long long)dtype_get_i64(ef->dt, p));
  }
  return n < 0 ? 0 : (size_t)n;
}

/* ==========================================================================================
** Stage 3: recursion over the axes (NumPy's _formatArray, legacy=False).  Output goes straight
** into the Buf; line_start is where the current output line begins, so the column is
** b->n - line_start, which equals the length of NumPy's `line` at every step.
*/
typedef struct Printer {
  Buf *b;
  const Tensor *t;
  size_t itemsize;
  size_t line_start;
  size_t charged;              /* b->n when characters were last charged */
  bool summary;
  int64_t edge;
  const char *sep;             /* ", " (repr) or " " (str) */
  size_t sep_len, sep_rstrip_len;
  ElemFormat ef;
} Printer;

static void put_spaces_buf(Buf *b, int64_t n) {
  static const char spaces[] = "                                ";
  while (n > 0) {
    int64_t k = n < 32 ? n : 32;
    buf_putn(b, spaces, (size_t)k);
    n -= k;
  }
}

static void newline(Printer *pr) {
  buf_putc(pr->b, '\n');
  pr->line_start = pr->b->n;
}

/* NumPy's _extendLine: wraps before word when it would pass width and the line holds more
   than the hanging indent; the wrapped line loses its trailing spaces. */
static void extend_line(Printer *pr, const char *word, size_t len, int64_t width, int64_t hang) {
  Buf *b = pr->b;
  int64_t col = (int64_t)(b->n - pr->line_start);
  if (col + (int64_t)len > width && col > hang && !b->failed) {
    while (b->n > pr->line_start && b->p[b->n - 1] == ' ') b->n--;
    b->p[b->n] = 0;
    newline(pr);
    put_spaces_buf(b, hang);
  }
  buf_putn(b, word, len);
}

/* Prints one element, charging it (WORK_DIGITS) and the characters written since the last
   one (WORK_CHAR). */
static void print_elem(Printer *pr, int64_t off, int64_t width, int64_t hang) {
  if (pr->b->failed) return;   /* out of memory, budget or time: nothing more to format */
  char out[ELEM_MAX];
  size_t n = elem_format(&pr->ef, pr->t->storage->data + off * (int64_t)pr->itemsize, out);
  extend_line(pr, out, n, width, hang);
  if (buf_work(pr->b, 1, WORK_DIGITS) && pr->b->n > pr->charged)
    buf_work(pr->b, pr->b->n - pr->charged, WORK_CHAR);
  pr->charged = pr->b->n;
}

/* Before a sub-block: the hanging indent, except for the first, which follows the '['. */
static void block_start(Printer *pr, bool *first, int64_t hang) {
  if (!*first) put_spaces_buf(pr->b, hang);
  *first = false;
}

/* After each sub-block but the last: the separator without its space, then one newline per
   axis below, so the blocks of a 3-d tensor are parted by a blank line. */
static void block_end(Printer *pr, int axes_left) {
  buf_putn(pr->b, pr->sep, pr->sep_rstrip_len);
  for (int k = 0; k < axes_left - 1; k++) newline(pr);
}

/* Prints axis `axis` of the tensor (element offset off) at hanging indent `hang` columns with
   `width` columns available (NumPy's recurser(index, hanging_indent, curr_width)). */
static void print_axis(Printer *pr, int axis, int64_t off, int64_t hang, int64_t width) {
  const Tensor *t = pr->t;
  Buf *b = pr->b;
  int64_t n = t->shape[axis], st = t->strides[axis];
  bool show = pr->summary && 2 * pr->edge < n;
  int64_t lead = show ? pr->edge : 0;
  int64_t trail = show ? pr->edge : n;
  int axes_left = t->ndim - axis;

  buf_putc(b, '[');
  if (axes_left == 1) {
    int64_t elem_width = width - (pr->sep_rstrip_len > 1 ? (int64_t)pr->sep_rstrip_len : 1);
    for (int64_t i = 0; i < lead && !b->failed; i++) {
      print_elem(pr, off + i * st, elem_width, hang);
      buf_putn(b, pr->sep, pr->sep_len);
    }
    if (show) {
      extend_line(pr, "...", 3, elem_width, hang);
      buf_putn(b, pr->sep, pr->sep_len);
    }
    for (int64_t i = trail; i > 1 && !b->failed; i--) {   /* stops once b has failed */
      print_elem(pr, off + (n - i) * st, elem_width, hang);
      buf_putn(b, pr->sep, pr->sep_len);
    }
    print_elem(pr, off + (n - 1) * st, elem_width, hang);
  } else {
    bool first = true;
    for (int64_t i = 0; i < lead && !b->failed; i++) {
      block_start(pr, &first, hang);
      print_axis(pr, axis + 1, off + i * st, hang + 1, width - 1);
      block_end(pr, axes_left);
    }
    if (show) {
      block_start(pr, &first, hang);
      buf_puts(b, "...");
      block_end(pr, axes_left);
    }
    for (int64_t i = trail; i > 1 && !b->failed; i--) {
      block_start(pr, &first, hang);
      print_axis(pr, axis + 1, off + (n - i) * st, hang + 1, width - 1);
      block_end(pr, axes_left);
    }
    block_start(pr, &first, hang);
    print_axis(pr, axis + 1, off + (n - 1) * st, hang + 1, width - 1);
  }
  buf_putc(b, ']');
}

/* NumPy's array2string for a non-empty tensor with ndim >= 1: prefix_len is the length of
   what precedes the '[' on its line ("array(" for repr), width the line width less the
   suffix.  Returns the start of the last output line. */
static size_t array2string(Buf *b, const Tensor *t, const PrintOptions *po, const char *sep,
                           size_t line_start, int64_t prefix_len, int64_t width) {
  Printer pr;
  memset(&pr, 0, sizeof pr);
  pr.b = b;
  pr.t = t;
  pr.itemsize = dtype_size(t->dtype);
  pr.line_start = line_start;
  pr.charged = b->n;
  pr.summary = tensor_size(t) > po->threshold;
  pr.edge = po->edgeitems < 0 ? 0 : po->edgeitems;
  pr.sep = sep;
  pr.sep_len = strlen(sep);
  pr.sep_rstrip_len = pr.sep_len;
  while (pr.sep_rstrip_len > 0 && sep[pr.sep_rstrip_len - 1] == ' ') pr.sep_rstrip_len--;
  elem_format_init(b, &pr.ef, t, pr.summary, po);
  print_axis(&pr, 0, t->offset, prefix_len + 1, width);
  return pr.line_start;
}

/* ==========================================================================================
** Entry points.
*/

/* print(x): numpy.array_str.  0-d tensors print as NumPy scalars; empty tensors as "[]". */
void fmt_str(Buf *b, Tensor *t, const PrintOptions *po) {
  PrintOptions def;
  if (!po) { printoptions_default(&def); po = &def; }
  if (t->ndim == 0) { fmt_scalar(b, t->dtype, tensor_data(t)); return; }
  if (tensor_size(t) == 0) { buf_puts(b, "[]"); return; }
  array2string(b, t, po, " ", b->n, 0, po->linewidth);
}

/* REPL echo: numpy.array_repr.  0-d NumPy scalars print as NumPy 1.24 scalar reprs (= str),
   real 0-d arrays as "array(5)", "array(1.5, dtype=float32)".  The
   dtype is shown unless implied (float64, int64, bool) and the tensor is non-empty; it moves
   to a new line when it would pass the line width. */
void fmt_repr(Buf *b, Tensor *t, const PrintOptions *po) {
  if (t->ndim == 0 && !t->ndarray) { fmt_scalar(b, t->dtype, tensor_data(t)); return; }
  fmt_repr_class(b, t, po, "array");
}

void fmt_repr_class(Buf *b, Tensor *t, const PrintOptions *po, const char *class_name) {
  PrintOptions def;
  if (!po) { printoptions_default(&def); po = &def; }
  size_t line_start = b->n;
  int64_t prefix_len = (int64_t)strlen(class_name) + 1;
  int64_t size = tensor_size(t);
  bool implied = t->dtype == TSR_FLOAT64 || t->dtype == TSR_INT64 || t->dtype == TSR_BOOL;
  bool skipdtype = implied && size > 0;
  buf_puts(b, class_name);
  buf_putc(b, '(');
  if (t->ndim == 0) {
    char out[ELEM_MAX];
    ElemFormat ef;
    elem_format_init(b, &ef, t, false, po);
    buf_putn(b, out, elem_format(&ef, tensor_data(t), out));
  } else if (size > 0)
    line_start = array2string(b, t, po, ", ", line_start, prefix_len,
                              (int64_t)po->linewidth - 1);
  else if (t->ndim == 1)
    buf_puts(b, "[]");
  else {
    buf_puts(b, "[], shape=");
    shape_format(b, t->ndim, t->shape);
  }
  if (skipdtype) { buf_putc(b, ')'); return; }
  buf_putc(b, ',');
  const char *name = dtype_name(t->dtype);
  int64_t last_line_len = (int64_t)(b->n - line_start);
  int64_t dtype_len = (int64_t)strlen("dtype=)") + (int64_t)strlen(name);
  if (last_line_len + dtype_len + 1 > po->linewidth) {
    buf_putc(b, '\n');
    put_spaces_buf(b, prefix_len);
  } else {
    buf_putc(b, ' ');
  }
  buf_puts(b, "dtype=");
  buf_puts(b, name);
  buf_putc(b, ')');
}

/* numpy.array2string(a, separator=sep, prefix=, suffix=): the elements only (no "array(",
   and the prefix itself is not written: its length only indents wrapped lines); the suffix
   length narrows the line.  0-d tensors give their one element in the array's format
   ("5", "1.5"), empty ones "[]". */
void fmt_array2string(Buf *b, Tensor *t, const PrintOptions *po, const char *sep,
                      size_t prefix_len, size_t suffix_len) {
  if (t->ndim == 0) {
    char out[ELEM_MAX];
    ElemFormat ef;
    elem_format_init(b, &ef, t, false, po);
    buf_putn(b, out, elem_format(&ef, tensor_data(t), out));
    return;
  }
  if (tensor_size(t) == 0) { buf_puts(b, "[]"); return; }
  /* the prefix is laid out in the buffer so that columns count it, then taken out */
  size_t start = b->n;
  put_spaces_buf(b, (int64_t)prefix_len);
  array2string(b, t, po, sep, start, (int64_t)prefix_len,
               (int64_t)po->linewidth - (int64_t)suffix_len);
  if (b->failed) return;
  memmove(b->p + start, b->p + start + prefix_len, b->n - start - prefix_len + 1);
  b->n -= prefix_len;
}

/* numpy.format_float_positional / numpy.format_float_scientific: v (a float32 value when
   o->f32) with Dragon4's options.  Written into b; nan and inf as "nan", "inf", "-inf"
   ("+inf" with sign).  The caller has checked the options as NumPy does. */
void fmt_float_dragon4(Buf *b, double v, const Dragon4Options *o) {
  if (isnan(v)) { buf_puts(b, "nan"); return; }
  if (isinf(v)) { buf_puts(b, v < 0 ? "-inf" : o->sign ? "+inf" : "inf"); return; }
  Digits D;
  int F, min_digits = o->min_digits < 0 ? 0 : o->min_digits;
  int precision = o->precision > PREC_MAX ? PREC_MAX : o->precision;
  if (o->sci || o->fractional) {
    F = choose_digits(v, o->f32, o->sci, o->unique, precision, min_digits, &D);
  } else {   /* positional with precision counting significant digits */
    int max_digits = o->f32 ? 9 : 17;
    if (o->unique) {
      digits_shortest(v, o->f32, max_digits, &D);
      if (precision >= 0 && D.n > precision) {
        digits_sci(v, o->f32, precision > 0 ? precision - 1 : 0, &D);
        if (rounded_up(v, &D)) strip_zeros(&D);
      }
      F = D.n - 1 - D.exp;
    } else {
      /* Dragon4 stops at an exact remainder and drops the zeros a carry leaves, so trailing
         zeros survive only where the value really has them with more digits after */
      int p = precision > 0 ? precision : 1;
      Digits L;
      digits_sci(v, o->f32, p - 1, &D);
      digits_sci(v, o->f32, PREC_MAX, &L);
      bool rounded_down = L.exp == D.exp, rest_nonzero = false;
      for (int i = 0; i < D.n && rounded_down; i++) rounded_down = digit_at(&L, i) == D.d[i];
      for (int i = D.n; i < L.n; i++) rest_nonzero |= L.d[i] != '0';
      if (!(rounded_down && rest_nonzero))
        while (D.n > 1 && D.d[D.n - 1] == '0') D.n--;
      int whole = D.exp + 1 > 1 ? D.exp + 1 : 1;
      F = D.n - 1 - D.exp;
      if (F < p - whole) F = p - whole;   /* padded with zeros to the total length */
    }
    if (D.n < min_digits) {
      digits_sci(v, o->f32, min_digits - 1, &D);
      if (D.n - 1 - D.exp > F) F = D.n - 1 - D.exp;
    }
    if (o->unique) F = D.n - 1 - D.exp;
    if (F < 0) F = 0;
    min_digits = 0;
  }
  int pad_left = o->pad_left < 0 ? 0 : o->pad_left > 100000 ? 100000 : o->pad_left;
  int pad_right = o->pad_right < 0 ? 0 : o->pad_right > 100000 ? 100000 : o->pad_right;
  size_t cap = ELEM_MAX + (size_t)pad_left + (size_t)pad_right;
  char *out = ctx_malloc(b->ctx, cap);
  if (!out) { b->failed = true; return; }
  size_t n = o->sci ? render_scientific(out, v, o->sign, &D, F, min_digits, o->trim, pad_left,
                                        o->exp_digits)
                    : render_positional(out, v, o->sign, &D, F, min_digits, o->trim, pad_left,
                                        pad_right);
  buf_putn(b, out, n);
  ctx_free(b->ctx, out, cap);
}
