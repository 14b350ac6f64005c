/*
** math.c -- Python's math module: libm's functions with CPython 3.11's argument rules,
** results (Python floats, or ints for floor/ceil/trunc and the integer functions) and errors
** (ValueError "math domain error" for a NaN made from numbers, OverflowError "math range
** error" for an infinity made from finite numbers where CPython says so).
**
** Python's ints beyond 64 bits are not there yet: factorial, comb, perm, lcm and floor of a
** huge float raise OverflowError where CPython would return a big int.
*/
#include "lib.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ---- arguments ------------------------------------------------------------------------------ */

/* A real number argument as a double: bool, int, float, or a size-1 tensor (its __float__);
   TypeError "must be real number, not str" for the rest. */
static int arg_real(Interp *I, Value v, double *out) {
  switch (v.type) {
  case V_BOOL: case V_INT: case V_FLOAT: case V_TENSOR: return value_to_double(I, v, out);
  default:
    return IERR_TYPE(I, "must be real number, not %s", value_type_name(v));
  }
}

/* The arguments of a function of fixed arity n (positional only), as doubles. */
static int args_real(Interp *I, const Args *a, const char *name, int n, double *x) {
  if (a->nkw) return IERR_TYPE(I, "%s() takes no keyword arguments", name);
  if (a->npos != n) {
    if (n == 1) return IERR_TYPE(I, "math.%s() takes exactly one argument (%d given)", name, a->npos);
    return IERR_TYPE(I, "%s expected %d arguments, got %d", name, n, a->npos);
  }
  for (int i = 0; i < n; i++)
    if (arg_real(I, a->pos[i], &x[i])) return -1;
  return 0;
}

static int domain_error(Interp *I) { return IERR_VALUE(I, "math domain error"); }
static int range_error(Interp *I) { return ERR_OVERFLOW(interp_ctx(I), "math range error"); }

/* CPython's rule for a libm result r of finite-or-not inputs: a NaN from no NaN is a domain
   error; an infinity from finite inputs is a range error when the function can overflow,
   else a domain error (log(0.0)). */
static int checked(Interp *I, double r, bool any_nan, bool all_finite, bool can_overflow,
                   Value *out) {
  if (isnan(r) && !any_nan) return domain_error(I);
  if (isinf(r) && all_finite) return can_overflow ? range_error(I) : domain_error(I);
  *out = v_float(r);
  return 0;
}

/* ---- functions of one float, from a table --------------------------------------------------- */

static double m_degrees(double x) { return x * (180.0 / 3.141592653589793); }
static double m_radians(double x) { return x * (3.141592653589793 / 180.0); }

/* name, libm function, can overflow (an infinite result from a finite argument is an
   OverflowError rather than a ValueError) */
#define MATH_UNARY(X)                                                               \
  X(acos, acos, 0) X(acosh, acosh, 0) X(asin, asin, 0) X(asinh, asinh, 0)            \
  X(atan, atan, 0) X(atanh, atanh, 0) X(cbrt, cbrt, 0) X(cos, cos, 0)                \
  X(cosh, cosh, 1) X(erf, erf, 0) X(erfc, erfc, 0) X(exp, exp, 1) X(exp2, exp2, 1)   \
  X(expm1, expm1, 1) X(fabs, fabs, 0) X(log10, log10, 0) X(log1p, log1p, 0)          \
  X(log2, log2, 0) X(sin, sin, 0) X(sinh, sinh, 1) X(sqrt, sqrt, 0) X(tan, tan, 0)   \
  X(tanh, tanh, 0) X(degrees, m_degrees, 1) X(radians, m_radians, 0)

#define X_FN(name, fn, ovf)                                                         \
  static int math_##name(Interp *I, const Args *a, Value *out) {                    \
    double x;                                                                       \
    if (args_real(I, a, #name, 1, &x)) return -1;                                   \
    return checked(I, fn(x), isnan(x), isfinite(x), ovf, out);                      \
  }
MATH_UNARY(X_FN)
#undef X_FN

/* ---- gamma and lgamma ------------------------------------------------------------------------
** CPython computes these itself rather than with libm, and tsr gives its bits: Lanczos'
** approximation with N = 13 and g = 6.024680040776729583740234375 (parameters among Boost's),
** the sum written as a rational function (evaluated in x below 5 and in 1/x above, against
** overflow), a first-order correction for the rounding error of x + g - 0.5, exact values at
** the small integers, and the reflection formula for negative x. */

#define LANCZOS_N 13
static const double lanczos_g = 6.024680040776729583740234375;
static const double lanczos_g_minus_half = 5.524680040776729583740234375;
static const double lanczos_num[LANCZOS_N] = {
  23531376880.410759688572007674451636754734846804940,
  42919803642.649098768957899047001988850926355848959,
  35711959237.355668049440185451547166705960488635843,
  17921034426.037209699919755754458931112671403265390,
  6039542586.3520280050642916443072979210699388420708,
  1439720407.3117216736632230727949123939715485786772,
  248874557.86205415651146038641322942321632125127801,
  31426415.585400194380614231628318205362874684987640,
  2876370.6289353724412254090516208496135991145378768,
  186056.26539522349504029498971604569928220784236328,
  8071.6720023658162106380029022722506138218516325024,
  210.82427775157934587250973392071336271166969580291,
  2.5066282746310002701649081771338373386264310793408,
};
/* x (x+1) ... (x+11) expanded: the denominator of the rational form */
static const double lanczos_den[LANCZOS_N] = {
  0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0, 2637558.0,
  357423.0, 32670.0, 1925.0, 66.0, 1.0,
};
static const double pi_ = 3.141592653589793238462643383279502884197;
static const double log_pi = 1.144729885849400174143427351353058711647;

static double lanczos_sum(double x) {   /* x > 0 */
  double num = 0.0, den = 0.0;
  if (x < 5.0) {
    for (int i = LANCZOS_N - 1; i >= 0; i--) {
      num = num * x + lanczos_num[i];
      den = den * x + lanczos_den[i];
    }
  } else {
    for (int i = 0; i < LANCZOS_N; i++) {
      num = num / x + lanczos_num[i];
      den = den / x + lanczos_den[i];
    }
  }
  return num / den;
}

/* sin(pi * x) for finite x, exact at the multiples of 1/2. */
static double sin_pi(double x) {
  double y = fmod(fabs(x), 2.0), r;
  switch ((int)round(2.0 * y)) {
  case 0: r = sin(pi_ * y); break;
  case 1: r = cos(pi_ * (y - 0.5)); break;
  case 2: r = sin(pi_ * (1.0 - y)); break;   /* not -sin(pi (y - 1)): that is -0.0 at 1 */
  case 3: r = -cos(pi_ * (y - 1.5)); break;
  default: r = sin(pi_ * (y - 2.0)); break;
  }
  return copysign(1.0, x) * r;
}

/* Gamma(x) for finite x that is not 0 or a negative integer. */
static double gamma_of(double x) {
  static const double small_int[23] = {
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0, 3628800.0, 39916800.0,
    479001600.0, 6227020800.0, 87178291200.0, 1307674368000.0, 20922789888000.0,
    355687428096000.0, 6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0,
  };
  if (x == floor(x) && x <= 23) return small_int[(int)x - 1];
  double ax = fabs(x);
  if (ax < 1e-20) return 1.0 / x;
  if (ax > 200.0) return x < 0.0 ? 0.0 / sin_pi(x) : INFINITY;
  double y = ax + lanczos_g_minus_half;
  /* z: the rounding error of y, times g / y (the correction factor's first order) */
  double z = ax > lanczos_g_minus_half ? (y - ax) - lanczos_g_minus_half
                                       : (y - lanczos_g_minus_half) - ax;
  z = z * lanczos_g / y;
  double r;
  if (x < 0.0) {
    r = -pi_ / sin_pi(ax) / ax * exp(y) / lanczos_sum(ax);
    r -= z * r;
    if (ax < 140.0) {
      r /= pow(y, ax - 0.5);
    } else {
      double half = pow(y, ax / 2.0 - 0.25);
      r /= half;
      r /= half;
    }
  } else {
    r = lanczos_sum(ax) / exp(y);
    r += z * r;
    if (ax < 140.0) {
      r *= pow(y, ax - 0.5);
    } else {
      double half = pow(y, ax / 2.0 - 0.25);
      r *= half;
      r *= half;
    }
  }
  return r;
}

/* log|Gamma(x)| for finite x that is not a non-positive integer. */
static double lgamma_of(double x) {
  if (x == floor(x) && x <= 2.0) return 0.0;   /* lgamma(1) = lgamma(2) = 0 */
  double ax = fabs(x);
  if (ax < 1e-20) return -log(ax);
  double r = log(lanczos_sum(ax)) - lanczos_g;
  r += (ax - 0.5) * (log(ax + lanczos_g - 0.5) - 1);
  if (x < 0.0) r = log_pi - log(fabs(sin_pi(ax))) - log(ax) - r;
  return r;
}

/* gamma and lgamma: 0, the negative integers and -inf are domain errors. */
static int math_gamma(Interp *I, const Args *a, Value *out) {
  double x;
  if (args_real(I, a, "gamma", 1, &x)) return -1;
  if (isnan(x) || x == INFINITY) { *out = v_float(x); return 0; }
  if (x == -INFINITY || (x <= 0 && x == floor(x))) return domain_error(I);
  return checked(I, gamma_of(x), false, true, true, out);
}
static int math_lgamma(Interp *I, const Args *a, Value *out) {
  double x;
  if (args_real(I, a, "lgamma", 1, &x)) return -1;
  if (!isfinite(x)) { *out = v_float(fabs(x)); return 0; }
  if (x <= 0 && x == floor(x)) return domain_error(I);
  return checked(I, lgamma_of(x), false, true, true, out);
}

/* log(x[, base]): the natural logarithm, or log(x) / log(base). */
static int math_log(Interp *I, const Args *a, Value *out) {
  if (a->nkw) return IERR_TYPE(I, "log() takes no keyword arguments");
  if (a->npos < 1 || a->npos > 2)
    return IERR_TYPE(I, "log expected at least 1 argument, got %d", a->npos);
  double x[2];
  for (int i = 0; i < a->npos; i++) {
    if (arg_real(I, a->pos[i], &x[i])) return -1;
    if (!isnan(x[i]) && x[i] <= 0) return domain_error(I);
  }
  double num = log(x[0]);
  if (a->npos == 1) { *out = v_float(num); return 0; }
  double den = log(x[1]);
  if (den == 0) return ERR_ZERODIV(interp_ctx(I), "float division by zero");
  *out = v_float(num / den);
  return 0;
}

/* ---- floor, ceil, trunc: ints ---------------------------------------------------------------- */

static int to_int_by(Interp *I, const Args *a, const char *name, double (*fn)(double),
                     Value *out) {
  if (a->nkw || a->npos != 1)
    return IERR_TYPE(I, "math.%s() takes exactly one argument (%d given)", name, a->npos);
  Value v = a->pos[0];
  if (v.type == V_INT) { *out = v; return 0; }
  if (v.type == V_BOOL) { *out = v_int(v.b); return 0; }
  if (v.type == V_TENSOR && dtype_is_int(v.t->dtype) && tensor_size(v.t) == 1) {
    int64_t i;
    if (value_to_int(I, v, &i)) return -1;
    *out = v_int(i);
    return 0;
  }
  double x;
  if (arg_real(I, v, &x)) return -1;
  return value_float_to_int(I, fn(x), out);
}

static int math_floor(Interp *I, const Args *a, Value *out) { return to_int_by(I, a, "floor", floor, out); }
static int math_ceil(Interp *I, const Args *a, Value *out) { return to_int_by(I, a, "ceil", ceil, out); }
static int math_trunc(Interp *I, const Args *a, Value *out) { return to_int_by(I, a, "trunc", trunc, out); }

/* ---- functions of two floats ------------------------------------------------------------------ */

static int two(Interp *I, const Args *a, const char *name, double (*fn)(double, double),
               bool can_overflow, Value *out) {
  double x[2];
  if (args_real(I, a, name, 2, x)) return -1;
  return checked(I, fn(x[0], x[1]), isnan(x[0]) || isnan(x[1]), isfinite(x[0]) && isfinite(x[1]),
                 can_overflow, out);
}

static double m_fmod(double x, double y) { return isinf(y) && isfinite(x) ? x : fmod(x, y); }

static int math_atan2(Interp *I, const Args *a, Value *out) { return two(I, a, "atan2", atan2, false, out); }
static int math_copysign(Interp *I, const Args *a, Value *out) { return two(I, a, "copysign", copysign, false, out); }
static int math_fmod(Interp *I, const Args *a, Value *out) { return two(I, a, "fmod", m_fmod, false, out); }
static int math_remainder(Interp *I, const Args *a, Value *out) { return two(I, a, "remainder", remainder, false, out); }
static int math_nextafter(Interp *I, const Args *a, Value *out) { return two(I, a, "nextafter", nextafter, false, out); }

/* pow(x, y): C99's pow, with 0 ** negative a domain error and a finite overflow a range error. */
static int math_pow(Interp *I, const Args *a, Value *out) {
  double x[2];
  if (args_real(I, a, "pow", 2, x)) return -1;
  double r = pow(x[0], x[1]);
  if (isfinite(x[0]) && isfinite(x[1]) && !isfinite(r)) {
    if (isnan(r) || x[0] == 0) return domain_error(I);
    return range_error(I);
  }
  *out = v_float(r);
  return 0;
}

static int math_ldexp(Interp *I, const Args *a, Value *out) {
  if (a->nkw || a->npos != 2) return IERR_TYPE(I, "ldexp expected 2 arguments, got %d", a->npos);
  double x;
  int64_t e;
  if (arg_real(I, a->pos[0], &x)) return -1;
  if (a->pos[1].type != V_INT && a->pos[1].type != V_BOOL &&
      !(a->pos[1].type == V_TENSOR && dtype_is_int(a->pos[1].t->dtype)))
    return IERR_TYPE(I, "Expected an int as second argument to ldexp.");
  if (value_to_int(I, a->pos[1], &e)) return -1;
  if (x == 0 || !isfinite(x)) { *out = v_float(x); return 0; }
  int ei = e > 100000 ? 100000 : e < -100000 ? -100000 : (int)e;
  double r = ldexp(x, ei);
  if (isinf(r)) return range_error(I);
  *out = v_float(r);
  return 0;
}

static int pair(Interp *I, Value x, Value y, Value *out) {
  Value t = value_tuple(I, 2);
  if (t.type == V_UNDEF) return -1;
  as_list(t)->items[0] = x;
  as_list(t)->items[1] = y;
  *out = t;
  return 0;
}

static int math_frexp(Interp *I, const Args *a, Value *out) {
  double x;
  if (args_real(I, a, "frexp", 1, &x)) return -1;
  int e = 0;
  double m = isfinite(x) ? frexp(x, &e) : x;
  return pair(I, v_float(m), v_int(e), out);
}

static int math_modf(Interp *I, const Args *a, Value *out) {
  double x, ip;
  if (args_real(I, a, "modf", 1, &x)) return -1;
  if (isinf(x)) return pair(I, v_float(copysign(0.0, x)), v_float(x), out);
  double f = modf(x, &ip);
  return pair(I, v_float(f), v_float(ip), out);
}

static int math_ulp(Interp *I, const Args *a, Value *out) {
  double x;
  if (args_real(I, a, "ulp", 1, &x)) return -1;
  if (isnan(x) || isinf(x)) { *out = v_float(fabs(x)); return 0; }
  x = fabs(x);
  double up = nextafter(x, INFINITY);
  *out = v_float(isinf(up) ? x - nextafter(x, -INFINITY) : up - x);
  return 0;
}

/* ---- predicates -------------------------------------------------------------------------------- */

static int predicate(Interp *I, const Args *a, const char *name, int (*fn)(double), Value *out) {
  double x;
  if (args_real(I, a, name, 1, &x)) return -1;
  *out = v_bool(fn(x) != 0);
  return 0;
}
static int is_nan(double x) { return isnan(x); }
static int is_inf(double x) { return isinf(x); }
static int is_finite(double x) { return isfinite(x); }
static int math_isnan(Interp *I, const Args *a, Value *out) { return predicate(I, a, "isnan", is_nan, out); }
static int math_isinf(Interp *I, const Args *a, Value *out) { return predicate(I, a, "isinf", is_inf, out); }
static int math_isfinite(Interp *I, const Args *a, Value *out) { return predicate(I, a, "isfinite", is_finite, out); }

/* isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0) */
static int math_isclose(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "isclose", "a,b,*,rel_tol=,abs_tol=", s)) return -1;
  double x, y, rel = 1e-9, abs_tol = 0.0;
  if (arg_real(I, s[0], &x) || arg_real(I, s[1], &y)) return -1;
  if (s[2].type != V_UNDEF && arg_real(I, s[2], &rel)) return -1;
  if (s[3].type != V_UNDEF && arg_real(I, s[3], &abs_tol)) return -1;
  if (rel < 0 || abs_tol < 0) return IERR_VALUE(I, "tolerances must be non-negative");
  if (x == y) { *out = v_bool(true); return 0; }
  if (isinf(x) || isinf(y)) { *out = v_bool(false); return 0; }
  double diff = fabs(y - x);
  *out = v_bool(diff <= fabs(rel * y) || diff <= fabs(rel * x) || diff <= abs_tol);
  return 0;
}

/* ---- sums and norms ---------------------------------------------------------------------------- */

/* The items of an iterable as doubles, into a buffer of the state (*xs; free with
   ctx_free(c, *xs, n * sizeof(double))). */
static int iter_doubles(Interp *I, Value it, double **xs, int64_t *n) {
  Ctx *c = interp_ctx(I);
  *xs = NULL;
  if (interp_iter_len(I, it, n)) return -1;
  if (*n == 0) return 0;
  size_t bytes;
  if (__builtin_mul_overflow((size_t)*n, sizeof(double), &bytes))
    return ERR_MEMORY(c, "too many items");
  if (!(*xs = ctx_malloc(c, bytes))) return -1;
  for (int64_t i = 0; i < *n; i++) {
    Value v;
    int rc = interp_iter_item(I, it, i, &v);
    if (rc == 0) { rc = arg_real(I, v, &(*xs)[i]); value_decref(v); }
    if (rc) { ctx_free(c, *xs, bytes); *xs = NULL; return -1; }
  }
  return 0;
}

/* fsum(iterable): the correctly rounded sum, by Shewchuk's exact partial sums (non-overlapping
   doubles whose sum is the exact running total), then a half-even correction of the final
   rounding. */
static int math_fsum(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  Value s[1];
  if (args_parse(I, a, "fsum", "seq", s)) return -1;
  double *xs, small[32], *p = small, special = 0.0, inf_sum = 0.0;
  int64_t n;
  size_t np = 0, cap = 32;
  int rc = 0;
  if (iter_doubles(I, s[0], &xs, &n)) return -1;
  for (int64_t k = 0; k < n && rc == 0; k++) {
    double x = xs[k];
    if (!isfinite(x)) {
      if (isinf(x)) inf_sum += x;
      special += x;
      continue;
    }
    size_t i = 0;
    for (size_t j = 0; j < np; j++) {
      double y = p[j];
      if (fabs(x) < fabs(y)) { double t = x; x = y; y = t; }
      double hi = x + y, lo = y - (hi - x);
      if (lo != 0.0) p[i++] = lo;
      x = hi;
    }
    if (!isfinite(x) && special == 0.0) {
      rc = ERR_OVERFLOW(c, "intermediate overflow in fsum");
      break;
    }
    if (i == cap) {
      double *grown = ctx_malloc(c, 2 * cap * sizeof(double));
      if (!grown) { rc = -1; break; }
      memcpy(grown, p, i * sizeof(double));
      if (p != small) ctx_free(c, p, cap * sizeof(double));
      p = grown;
      cap *= 2;
    }
    p[i++] = x;
    np = i;
  }
  double hi = 0.0;
  if (rc == 0 && special != 0.0) {
    if (isnan(inf_sum)) rc = IERR_VALUE(I, "-inf + inf in fsum");
    else hi = special;
  } else if (rc == 0 && np > 0) {
    size_t i = np;
    double lo = 0.0;
    hi = p[--i];
    while (i > 0) {
      double x = hi, y = p[--i];
      hi = x + y;
      lo = y - (hi - x);
      if (lo != 0.0) break;
    }
    if (i > 0 && ((lo < 0 && p[i - 1] < 0) || (lo > 0 && p[i - 1] > 0))) {
      double y = lo * 2, x = hi + y;
      if (y == x - hi) hi = x;
    }
  }
  if (p != small) ctx_free(c, p, cap * sizeof(double));
  if (xs) ctx_free(c, xs, (size_t)n * sizeof(double));
  if (rc) return -1;
  *out = v_float(hi);
  return 0;
}

/* x * y as an exact sum hi + lo (Dekker's product through a fused multiply-add). */
static void exact_mul(double x, double y, double *hi, double *lo) {
  *hi = x * y;
  *lo = fma(x, y, -*hi);
}

/* The Euclidean norm of v[0..n) (finite, >= 0, max its largest), as CPython 3.11 computes it:
   scaled by a power of two so the largest is in [0.5, 1), the squares summed exactly in
   double-length arithmetic from 1.0, then a square root with one Newton correction — so the
   result is correctly rounded in nearly every case and agrees with CPython's bits. */
static double vector_norm(int64_t n, double *v, double max) {
  if (max == 0.0 || n <= 1) return max;
  int max_e;
  frexp(max, &max_e);
  if (max_e < -1023) {   /* subnormal largest: scale everything up first */
    for (int64_t i = 0; i < n; i++) v[i] /= DBL_MIN;
    return DBL_MIN * vector_norm(n, v, max / DBL_MIN);
  }
  double scale = ldexp(1.0, -max_e);
  double csum = 1.0, frac1 = 0.0, frac2 = 0.0, hi, lo;
  for (int64_t i = 0; i < n; i++) {
    double x = v[i] * scale;
    exact_mul(x, x, &hi, &lo);
    double s = csum + hi;
    frac2 += hi - (s - csum);
    csum = s;
    frac1 += lo;
  }
  double h = sqrt(csum - 1.0 + (frac1 + frac2));
  exact_mul(-h, h, &hi, &lo);
  double s = csum + hi;
  frac2 += hi - (s - csum);
  csum = s;
  frac1 += lo;
  double x = csum - 1.0 + (frac1 + frac2);
  h += x / (2.0 * h);
  return h / scale;
}

/* The norm of absolute values v[0..n): inf if any is infinite, else NaN if any is NaN. */
static double norm_of(int64_t n, double *v) {
  double max = 0.0;
  bool nan = false;
  for (int64_t i = 0; i < n; i++) {
    v[i] = fabs(v[i]);
    if (isinf(v[i])) return INFINITY;
    if (isnan(v[i])) nan = true;
    else if (v[i] > max) max = v[i];
  }
  if (nan) return NAN;
  return vector_norm(n, v, max);
}

static int math_hypot(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  if (a->nkw) return IERR_TYPE(I, "hypot() takes no keyword arguments");
  double small[8], *v = small;
  size_t bytes = (size_t)a->npos * sizeof(double);
  if (a->npos > 8 && !(v = ctx_malloc(c, bytes))) return -1;
  int rc = 0;
  for (int i = 0; i < a->npos && rc == 0; i++) rc = arg_real(I, a->pos[i], &v[i]);
  if (rc == 0) *out = v_float(norm_of(a->npos, v));
  if (v != small) ctx_free(c, v, bytes);
  return rc;
}

/* dist(p, q): the norm of p - q, for two iterables of the same length. */
static int math_dist(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  Value s[2];
  if (args_parse(I, a, "dist", "p,q", s)) return -1;
  for (int k = 0; k < 2; k++)
    if (s[k].type != V_LIST && s[k].type != V_TUPLE && s[k].type != V_TENSOR)
      return IERR_TYPE(I, "dist(): argument %d must be tuple, not %s", k + 1,
                       value_type_name(s[k]));
  double *p, *q;
  int64_t n, m;
  if (iter_doubles(I, s[0], &p, &n)) return -1;
  if (iter_doubles(I, s[1], &q, &m)) { if (p) ctx_free(c, p, (size_t)n * sizeof(double)); return -1; }
  int rc = 0;
  if (n != m) rc = IERR_VALUE(I, "both points must have the same number of dimensions");
  else {
    for (int64_t i = 0; i < n; i++) p[i] -= q[i];
    *out = v_float(norm_of(n, p));
  }
  if (p) ctx_free(c, p, (size_t)n * sizeof(double));
  if (q) ctx_free(c, q, (size_t)m * sizeof(double));
  return rc;
}

/* prod(iterable, *, start=1): start * item0 * item1 ..., with Python's operators. */
static int math_prod(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "prod", "iterable,*,start=", s)) return -1;
  Value acc = s[1].type == V_UNDEF ? v_int(1) : value_retain(s[1]);
  int64_t n;
  if (interp_iter_len(I, s[0], &n)) { value_decref(acc); return -1; }
  for (int64_t i = 0; i < n; i++) {
    Value item, next;
    if (interp_iter_item(I, s[0], i, &item)) { value_decref(acc); return -1; }
    int rc = interp_binary(I, OP_MUL, acc, item, &next);
    value_decref(item);
    value_decref(acc);
    if (rc) return -1;
    acc = next;
  }
  *out = acc;
  return 0;
}

/* ---- integer functions ---------------------------------------------------------------------- */

static int too_big(Interp *I) {
  return ERR_OVERFLOW(interp_ctx(I), "int too large: Python's ints beyond 64 bits are not "
                      "supported yet");
}

static uint64_t gcd_u(uint64_t x, uint64_t y) {
  while (y) { uint64_t t = x % y; x = y; y = t; }
  return x;
}

static int gcd_lcm(Interp *I, const Args *a, bool lcm, Value *out) {
  if (a->nkw) return IERR_TYPE(I, "%s() takes no keyword arguments", lcm ? "lcm" : "gcd");
  uint64_t acc = lcm ? 1 : 0;
  for (int i = 0; i < a->npos; i++) {
    int64_t v;
    if (value_to_int(I, a->pos[i], &v)) return -1;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (!lcm) acc = gcd_u(acc, u);
    else if (u == 0 || acc == 0) acc = 0;
    else if (__builtin_mul_overflow(acc / gcd_u(acc, u), u, &acc)) return too_big(I);
  }
  if (acc > INT64_MAX) return too_big(I);
  *out = v_int((int64_t)acc);
  return 0;
}
static int math_gcd(Interp *I, const Args *a, Value *out) { return gcd_lcm(I, a, false, out); }
static int math_lcm(Interp *I, const Args *a, Value *out) { return gcd_lcm(I, a, true, out); }

static int math_factorial(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t n, r = 1;
  if (args_parse(I, a, "factorial", "n", s) || value_to_int(I, s[0], &n)) return -1;
  if (n < 0) return IERR_VALUE(I, "factorial() not defined for negative values");
  for (int64_t k = 2; k <= n; k++)
    if (__builtin_mul_overflow(r, k, &r)) return too_big(I);
  *out = v_int(r);
  return 0;
}

/* perm(n, k) = n! / (n-k)!, comb(n, k) = n! / (k! (n-k)!), exactly (0 when k > n). */
static int perm_comb(Interp *I, const Args *a, bool comb, Value *out) {
  const char *name = comb ? "comb" : "perm";
  Value s[2];
  int64_t n, k;
  if (args_parse(I, a, name, comb ? "n,k" : "n,k=", s) || value_to_int(I, s[0], &n)) return -1;
  if (s[1].type == V_UNDEF || s[1].type == V_NONE) k = n;
  else if (value_to_int(I, s[1], &k)) return -1;
  if (n < 0) return IERR_VALUE(I, "n must be a non-negative integer");
  if (k < 0) return IERR_VALUE(I, "k must be a non-negative integer");
  if (k > n) { *out = v_int(0); return 0; }
  if (comb && k > n - k) k = n - k;
  __int128 r = 1;
  for (int64_t i = 0; i < k; i++) {
    r *= n - i;
    if (comb) r /= i + 1;   /* exact: a product of i + 1 consecutive ints is divisible */
    if (r > INT64_MAX) return too_big(I);
  }
  *out = v_int((int64_t)r);
  return 0;
}
static int math_comb(Interp *I, const Args *a, Value *out) { return perm_comb(I, a, true, out); }
static int math_perm(Interp *I, const Args *a, Value *out) { return perm_comb(I, a, false, out); }

static int math_isqrt(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t n;
  if (args_parse(I, a, "isqrt", "n", s) || value_to_int(I, s[0], &n)) return -1;
  if (n < 0) return IERR_VALUE(I, "isqrt() argument must be nonnegative");
  uint64_t r = (uint64_t)sqrt((double)n);
  while (r * r > (uint64_t)n) r--;
  while ((r + 1) * (r + 1) <= (uint64_t)n) r++;
  *out = v_int((int64_t)r);
  return 0;
}

/* ---- the module ------------------------------------------------------------------------------ */

static int math_init(Interp *I, Dict *m) {
  (void)I;
  static const struct { const char *name; double v; } consts[] = {
    {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"tau", 6.283185307179586},
    {"inf", INFINITY}, {"nan", NAN},
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (dict_set(m, consts[i].name, v_float(consts[i].v)) < 0) return -1;
  return 0;
}

#define X_ROW(name, fn, ovf) {"math", #name, math_##name, #name "(x, /)\n\nReturn " #name "(x)."},
static const Builtin math_functions[] = {
  MATH_UNARY(X_ROW)
  {"math", "gamma", math_gamma, "gamma(x, /)\n\nGamma function at x."},
  {"math", "lgamma", math_lgamma, "lgamma(x, /)\n\nNatural logarithm of the absolute value of "
   "the Gamma function at x."},
  {"math", "log", math_log, "log(x, [base=math.e])\n\nReturn the logarithm of x to the given "
   "base."},
  {"math", "floor", math_floor, "floor(x, /)\n\nReturn the floor of x as an Integral."},
  {"math", "ceil", math_ceil, "ceil(x, /)\n\nReturn the ceiling of x as an Integral."},
  {"math", "trunc", math_trunc, "trunc(x, /)\n\nTruncates the Real x to the nearest Integral "
   "toward 0."},
  {"math", "atan2", math_atan2, "atan2(y, x, /)\n\nReturn the arc tangent (measured in "
   "radians) of y/x."},
  {"math", "copysign", math_copysign, "copysign(x, y, /)\n\nReturn a float with the magnitude "
   "of x but the sign of y."},
  {"math", "fmod", math_fmod, "fmod(x, y, /)\n\nReturn fmod(x, y), according to platform C."},
  {"math", "remainder", math_remainder, "remainder(x, y, /)\n\nDifference between x and the "
   "closest integer multiple of y."},
  {"math", "nextafter", math_nextafter, "nextafter(x, y, /)\n\nReturn the next floating-point "
   "value after x towards y."},
  {"math", "pow", math_pow, "pow(x, y, /)\n\nReturn x**y (x to the power of y)."},
  {"math", "ldexp", math_ldexp, "ldexp(x, i, /)\n\nReturn x * (2**i)."},
  {"math", "frexp", math_frexp, "frexp(x, /)\n\nReturn the mantissa and exponent of x, as "
   "pair (m, e)."},
  {"math", "modf", math_modf, "modf(x, /)\n\nReturn the fractional and integer parts of x."},
  {"math", "ulp", math_ulp, "ulp(x, /)\n\nReturn the value of the least significant bit of "
   "the float x."},
  {"math", "isnan", math_isnan, "isnan(x, /)\n\nReturn True if x is a NaN."},
  {"math", "isinf", math_isinf, "isinf(x, /)\n\nReturn True if x is a positive or negative "
   "infinity."},
  {"math", "isfinite", math_isfinite, "isfinite(x, /)\n\nReturn True if x is neither an "
   "infinity nor a NaN."},
  {"math", "isclose", math_isclose, "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)\n\n"
   "Determine whether two floating point numbers are close in value."},
  {"math", "fsum", math_fsum, "fsum(seq, /)\n\nReturn an accurate floating point sum of "
   "values in the iterable seq."},
  {"math", "hypot", math_hypot, "hypot(*coordinates)\n\nMultidimensional Euclidean distance "
   "from the origin to a point."},
  {"math", "dist", math_dist, "dist(p, q, /)\n\nReturn the Euclidean distance between two "
   "points p and q."},
  {"math", "prod", math_prod, "prod(iterable, /, *, start=1)\n\nCalculate the product of all "
   "the elements in the input iterable."},
  {"math", "gcd", math_gcd, "gcd(*integers)\n\nGreatest Common Divisor."},
  {"math", "lcm", math_lcm, "lcm(*integers)\n\nLeast Common Multiple."},
  {"math", "factorial", math_factorial, "factorial(n, /)\n\nFind n!."},
  {"math", "comb", math_comb, "comb(n, k, /)\n\nNumber of ways to choose k items from n items "
   "without repetition and without order."},
  {"math", "perm", math_perm, "perm(n, k=None, /)\n\nNumber of ways to choose k items from n "
   "items without repetition and with order."},
  {"math", "isqrt", math_isqrt, "isqrt(n, /)\n\nReturn the integer part of the square root of "
   "the input."},
  {NULL, NULL, NULL, NULL}
};
#undef X_ROW

const ModuleDef lib_math = {"math", math_functions, math_init, 0};
