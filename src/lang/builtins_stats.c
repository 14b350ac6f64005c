/*
** builtins_stats.c -- NumPy's statistics: median, percentile, quantile (runtime/stats.c), the
** nan* functions that ignore NaNs (nansum ... nancumprod, nanmedian, nanpercentile,
** nanquantile), average with weights, and ptp.  Results, dtypes, warnings and error messages
** are NumPy 1.24's.
*/
#include "builtins.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------------------------------------
** Helpers
*/

/* Shows message as a RuntimeWarning at the calling line (Python's warnings.warn, which
   numpy.seterr does not govern). */
static void warn(Interp *I, const char *message) {
  Ctx *c = interp_ctx(I);
  if (c->fperr.report) c->fperr.report(c, FPMODE_WARN, message);
}

/* t with every NaN replaced by fill (NumPy's _replace_nan): a new tensor of t's dtype for
   float input, else t itself (a new reference).  *mask (when not NULL) gets isnan(t) for
   float input and NULL otherwise (new reference). */
static Tensor *nan_replaced(Ctx *c, Tensor *t, double fill, Tensor **mask) {
  if (mask) *mask = NULL;
  if (!dtype_is_float(t->dtype)) return tensor_retain(t);
  Tensor *m = ufunc_unary(c, UF_ISNAN, t, NULL), *f = NULL, *r = NULL;
  if (m && (f = tensor_scalar_f64(c, t->dtype, fill))) r = ufunc_where(c, m, f, t);
  tensor_release(f);
  if (r && mask) *mask = m;
  else tensor_release(m);
  return r;
}

/* Is any element of t true?  1 or 0, or -1 on error. */
static int any_true(Ctx *c, Tensor *t) {
  Tensor *r = reduce(c, RED_ANY, t, NULL, -1, false, -1);
  if (!r) return -1;
  int yes = *(const bool *)tensor_data(r);
  tensor_release(r);
  return yes;
}

/* The options shared by the reductions: axis (None / int / tuple), dtype=, keepdims=,
   out=. */
typedef struct RedArgs {
  int axes[TSR_MAXDIMS], naxes, dt;
  bool keep;
  Tensor *out;
} RedArgs;

static int red_args(Interp *I, Value axis, Value dtype, Value keep, Value out, RedArgs *r) {
  r->dt = -1;
  r->out = NULL;
  if (value_to_axes(I, axis, r->axes, &r->naxes) || value_to_dtype(I, dtype, &r->dt) ||
      get_bool(I, keep, false, &r->keep) || builtins_out_arg(I, out, &r->out))
    return -1;
  return 0;
}

/* num[i] = num[i] / (cnt[i] - ddof) in num's float dtype, computed in float64 and cast back
   (NumPy's _divide_by_count, with floating-point errors ignored).  num and cnt C-contiguous of
   the same size.  Returns whether some divisor was <= 0. */
static bool divide_by_counts(Tensor *num, Tensor *cnt, int64_t ddof) {
  int64_t n = tensor_size(num);
  const int64_t *k = (const int64_t *)tensor_data(cnt);
  char *p = tensor_data(num);
  size_t sz = dtype_size(num->dtype);
  bool bad = false;
  for (int64_t i = 0; i < n; i++) {
    double d = (double)(k[i] - ddof);
    bad |= d <= 0;
    dtype_set_f64(num->dtype, p + i * sz, dtype_get_f64(num->dtype, p + i * sz) / d);
  }
  return bad;
}

/* The count of non-NaN elements of float t over the axes (int64, new reference). */
static Tensor *valid_counts(Ctx *c, Tensor *mask, const RedArgs *r, bool keep) {
  Tensor *inv = ufunc_unary(c, UF_LOGICAL_NOT, mask, NULL), *cnt = NULL;
  if (inv) cnt = reduce(c, RED_SUM, inv, r->axes, r->naxes, keep, TSR_INT64);
  tensor_release(inv);
  return cnt;
}

/* --------------------------------------------------------------------------------------------
** median, percentile, quantile and their nan variants
*/

typedef enum { Q_MEDIAN, Q_PERCENTILE, Q_QUANTILE } QuantileKind;

/* The q argument as float64 fractions in [0, 1] (percentiles divided by 100), C-contiguous
   (new reference); *q_f32 tells that q was a float32 array of 1 dim or more, which NumPy
   divides and indexes with in float32.  ValueError "Percentiles must be in the range
   [0, 100]" / "Quantiles must be in the range [0, 1]". */
static Tensor *quantile_fractions(Interp *I, Value qv, QuantileKind kind, bool *q_f32) {
  Ctx *c = interp_ctx(I);
  Tensor *q = value_to_tensor_strong(I, qv, -1), *f = NULL;
  if (!q) return NULL;
  *q_f32 = q->dtype == TSR_FLOAT32 && q->ndim > 0;
  f = tensor_astype(c, q, TSR_FLOAT64);
  tensor_release(q);
  if (!f) return NULL;
  double *p = (double *)tensor_data(f);
  int64_t n = tensor_size(f);
  for (int64_t i = 0; i < n; i++) {
    if (kind == Q_PERCENTILE) p[i] = *q_f32 ? (double)((float)p[i] / 100.0f) : p[i] / 100;
    if (!(p[i] >= 0 && p[i] <= 1)) {
      tensor_release(f);
      IERR_VALUE(I, kind == Q_PERCENTILE ? "Percentiles must be in the range [0, 100]"
                                         : "Quantiles must be in the range [0, 1]");
      return NULL;
    }
  }
  return f;
}

/* The body of median / percentile / quantile and the nan* ones: slots a, q (V_UNDEF for the
   median), axis, out, method (V_UNDEF for the median), keepdims. */
static int quantile_call(Interp *I, QuantileKind kind, bool skip_nan, const Value *s,
                         Value *out) {
  Ctx *c = interp_ctx(I);
  RedArgs ra;
  QuantileMethod m = kind == Q_MEDIAN ? QM_MEDIAN : QM_LINEAR;
  if (red_args(I, s[2], v_undef(), s[5], s[3], &ra)) return -1;
  if (given(s[4])) {
    if (s[4].type != V_STR || stats_method_from_name(as_str(s[4])->s, &m)) {
      Buf b;
      buf_init(&b, c);
      value_to_string(I, &b, s[4]);
      if (!b.failed)
        IERR_VALUE(I, "'%s' is not a valid method. Use one of: dict_keys(['inverted_cdf', "
                      "'averaged_inverted_cdf', 'closest_observation', "
                      "'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', "
                      "'median_unbiased', 'normal_unbiased', 'lower', 'higher', 'midpoint', "
                      "'nearest'])", buf_str(&b));
      buf_free(&b);
      return -1;
    }
  }
  Tensor *q = NULL, *t = NULL, *r = NULL;
  bool q_f32 = false;
  if (kind != Q_MEDIAN && !(q = quantile_fractions(I, s[1], kind, &q_f32))) return -1;
  if (!(t = arg_tensor(I, s[0]))) goto done;
  int flags = 0;
  if (skip_nan && tensor_size(t) == 0) {   /* NumPy answers with nanmean */
    r = stats_quantile(c, t, NULL, false, 0, NULL, QM_MEDIAN, ra.axes, ra.naxes, ra.keep, true,
                       &flags);
    if (r) warn(I, "Mean of empty slice");
    goto done;
  }
  r = stats_quantile(c, t, q ? (const double *)tensor_data(q) : NULL, q_f32, q ? q->ndim : 0,
                     q ? q->shape : NULL, m, ra.axes, ra.naxes, ra.keep, skip_nan, &flags);
  if (r && (flags & STATS_ALL_NAN)) warn(I, "All-NaN slice encountered");
  if (r && (flags & STATS_EMPTY)) {   /* numpy.mean's warning, then its 0/0 */
    warn(I, "Mean of empty slice.");
    if (fperr_report(c, FPE_INVALID, r->ndim ? "divide" : "scalar divide") < 0) {
      tensor_release(r);
      r = NULL;
    }
  }
done:
  tensor_release(q);
  tensor_release(t);
  if (r && ra.keep && r->ndim == 0) r->ndarray = 1;   /* NumPy reshapes: array(3.5) */
  return builtins_deliver(I, r, ra.out, out);
}

#define MEDIAN_SPEC "a,axis=,out=,overwrite_input=,keepdims="
#define QUANTILE_SPEC "a,q,axis=,out=,overwrite_input=,method=,keepdims="

/* median(a, axis=None, out=None, overwrite_input=False, keepdims=False); also nanmedian. */
static int median_common(Interp *I, const Args *a, const char *name, bool skip_nan,
                         Value *out) {
  Value s[5], q[6];
  if (args_parse(I, a, name, MEDIAN_SPEC, s)) return -1;
  q[0] = s[0]; q[1] = v_undef(); q[2] = s[1]; q[3] = s[2]; q[4] = v_undef(); q[5] = s[4];
  return quantile_call(I, Q_MEDIAN, skip_nan, q, out);
}

/* percentile / quantile (a, q, axis=None, out=None, overwrite_input=False, method='linear',
   keepdims=False); also nanpercentile / nanquantile. */
static int quantile_common(Interp *I, const Args *a, const char *name, QuantileKind kind,
                           bool skip_nan, Value *out) {
  Value s[7], q[6];
  if (args_parse(I, a, name, QUANTILE_SPEC, s)) return -1;
  q[0] = s[0]; q[1] = s[1]; q[2] = s[2]; q[3] = s[3]; q[4] = s[5]; q[5] = s[6];
  return quantile_call(I, kind, skip_nan, q, out);
}

static int bi_median(Interp *I, const Args *a, Value *out) {
  return median_common(I, a, "median", false, out);
}
static int bi_nanmedian(Interp *I, const Args *a, Value *out) {
  return median_common(I, a, "nanmedian", true, out);
}
static int bi_percentile(Interp *I, const Args *a, Value *out) {
  return quantile_common(I, a, "percentile", Q_PERCENTILE, false, out);
}
static int bi_quantile(Interp *I, const Args *a, Value *out) {
  return quantile_common(I, a, "quantile", Q_QUANTILE, false, out);
}
static int bi_nanpercentile(Interp *I, const Args *a, Value *out) {
  return quantile_common(I, a, "nanpercentile", Q_PERCENTILE, true, out);
}
static int bi_nanquantile(Interp *I, const Args *a, Value *out) {
  return quantile_common(I, a, "nanquantile", Q_QUANTILE, true, out);
}

/* --------------------------------------------------------------------------------------------
** nansum, nanprod, nancumsum, nancumprod, nanmax, nanmin, nanargmax, nanargmin
*/

/* nansum / nanprod (a, axis=None, dtype=None, out=None, keepdims=False): sum / prod with NaN
   read as 0 / 1. */
static int nan_fold(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[5];
  RedArgs ra;
  if (args_parse(I, a, name, "a,axis=,dtype=,out=,keepdims=", s) ||
      red_args(I, s[1], s[2], s[4], s[3], &ra))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *f = NULL, *r = NULL;
  if (t && (f = nan_replaced(c, t, op == RED_SUM ? 0 : 1, NULL)))
    r = reduce(c, op, f, ra.axes, ra.naxes, ra.keep, ra.dt);
  tensor_release(t);
  tensor_release(f);
  return builtins_deliver(I, r, ra.out, out);
}
static int bi_nansum(Interp *I, const Args *a, Value *out) {
  return nan_fold(I, a, "nansum", RED_SUM, out);
}
static int bi_nanprod(Interp *I, const Args *a, Value *out) {
  return nan_fold(I, a, "nanprod", RED_PROD, out);
}

/* nancumsum / nancumprod (a, axis=None, dtype=None, out=None). */
static int nan_cumulative(Interp *I, const Args *a, const char *name, Reduction op,
                          Value *out) {
  Value s[4];
  int64_t axis = INT32_MIN;
  int dt = -1;
  Tensor *o;
  if (args_parse(I, a, name, "a,axis=,dtype=,out=", s) ||
      (given(s[1]) && value_to_int(I, s[1], &axis)) || value_to_dtype(I, s[2], &dt) ||
      builtins_out_arg(I, s[3], &o))
    return -1;
  if (given(s[1]) && (axis < INT32_MIN + 1 || axis > INT32_MAX)) axis = INT32_MAX;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *f = NULL, *r = NULL;
  if (t && (f = nan_replaced(c, t, op == RED_SUM ? 0 : 1, NULL)))
    r = reduce_cumulative(c, op, f, (int)axis, dt);
  tensor_release(t);
  tensor_release(f);
  return builtins_deliver(I, r, o, out);
}
static int bi_nancumsum(Interp *I, const Args *a, Value *out) {
  return nan_cumulative(I, a, "nancumsum", RED_SUM, out);
}
static int bi_nancumprod(Interp *I, const Args *a, Value *out) {
  return nan_cumulative(I, a, "nancumprod", RED_PROD, out);
}

/* nanmax / nanmin (a, axis=None, out=None, keepdims=False): numpy.fmax.reduce /
   fmin.reduce; an all-NaN slice gives NaN and the RuntimeWarning "All-NaN slice encountered"
   ("All-NaN axis encountered" when a is not an array, as NumPy's other path says). */
static int nan_extreme(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[4];
  RedArgs ra;
  if (args_parse(I, a, name, "a,axis=,out=,keepdims=", s) ||
      red_args(I, s[1], v_undef(), s[3], s[2], &ra))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *f = NULL, *mask = NULL, *all = NULL, *nan = NULL;
  Tensor *r = NULL;
  if (!t) return -1;
  bool list = s[0].type != V_TENSOR;   /* NumPy's path for non-arrays: amax and other words */
  if (tensor_size(t) == 0) {
    /* the sum checks the axes; an empty reduced axis fails, as in reduce.c's max */
    Tensor *probe = reduce(c, RED_SUM, t, ra.axes, ra.naxes, false, -1);
    bool empty_axis = ra.naxes < 0;
    for (int k = 0; probe && k < ra.naxes; k++)
      empty_axis |= t->shape[ra.axes[k] < 0 ? ra.axes[k] + t->ndim : ra.axes[k]] == 0;
    if (probe && empty_axis)
      IERR_VALUE(I, "zero-size array to reduction operation %s which has no identity",
                 op == RED_MAX ? (list ? "maximum" : "fmax") : (list ? "minimum" : "fmin"));
    else if (probe)
      r = reduce(c, op, t, ra.axes, ra.naxes, ra.keep, -1);
    tensor_release(probe);
    goto done;
  }
  if (!(f = nan_replaced(c, t, op == RED_MAX ? -INFINITY : INFINITY, &mask))) goto done;
  if (!(r = reduce(c, op, f, ra.axes, ra.naxes, ra.keep, -1)) || !mask) goto done;
  if (!(all = reduce(c, RED_ALL, mask, ra.axes, ra.naxes, ra.keep, -1))) goto fail;
  int some = any_true(c, all);
  if (some < 0) goto fail;
  if (some) {
    Tensor *w;
    if (!(nan = tensor_scalar_f64(c, r->dtype, NAN)) || !(w = ufunc_where(c, all, nan, r)))
      goto fail;
    tensor_release(r);
    r = w;
    warn(I, list ? "All-NaN axis encountered" : "All-NaN slice encountered");
  }
  goto done;
fail:
  tensor_release(r);
  r = NULL;
done:
  tensor_release(t);
  tensor_release(f);
  tensor_release(mask);
  tensor_release(all);
  tensor_release(nan);
  return builtins_deliver(I, r, ra.out, out);
}
static int bi_nanmax(Interp *I, const Args *a, Value *out) {
  return nan_extreme(I, a, "nanmax", RED_MAX, out);
}
static int bi_nanmin(Interp *I, const Args *a, Value *out) {
  return nan_extreme(I, a, "nanmin", RED_MIN, out);
}

/* nanargmax / nanargmin (a, axis=None, out=None, *, keepdims=False): ValueError "All-NaN
   slice encountered" when some slice is all NaN (or empty). */
static int nan_arg(Interp *I, const Args *a, const char *name, Reduction op, Value *out) {
  Value s[4];
  RedArgs ra;
  if (args_parse(I, a, name, "a,axis=,out=,*,keepdims=", s)) return -1;
  if (given(s[1])) {
    int64_t ax;
    if (value_to_int(I, s[1], &ax)) return -1;
    s[1] = v_int(ax);
  }
  if (red_args(I, s[1], v_undef(), s[3], s[2], &ra)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *f = NULL, *mask = NULL, *all = NULL, *r = NULL;
  if (!t) return -1;
  bool fl = dtype_is_float(t->dtype);
  if (!(f = nan_replaced(c, t, op == RED_ARGMAX ? -INFINITY : INFINITY, &mask))) goto done;
  if (fl) {
    all = reduce(c, RED_ALL, mask, ra.axes, ra.naxes, false, -1);
    int some = all ? any_true(c, all) : -1;
    if (some > 0) IERR_VALUE(I, "All-NaN slice encountered");
    if (some) goto done;
  }
  r = reduce(c, op, f, ra.axes, ra.naxes, ra.keep, -1);
done:
  tensor_release(t);
  tensor_release(f);
  tensor_release(mask);
  tensor_release(all);
  return builtins_deliver(I, r, ra.out, out);
}
static int bi_nanargmax(Interp *I, const Args *a, Value *out) {
  return nan_arg(I, a, "nanargmax", RED_ARGMAX, out);
}
static int bi_nanargmin(Interp *I, const Args *a, Value *out) {
  return nan_arg(I, a, "nanargmin", RED_ARGMIN, out);
}

/* --------------------------------------------------------------------------------------------
** nanmean, nanvar, nanstd
*/

/* nanmean(a, axis=None, dtype=None, out=None, keepdims=False): the sum with NaN read as 0
   divided by the count of the others; "Mean of empty slice" when a count is 0. */
static int bi_nanmean(Interp *I, const Args *a, Value *out) {
  Value s[5];
  RedArgs ra;
  if (args_parse(I, a, "nanmean", "a,axis=,dtype=,out=,keepdims=", s) ||
      red_args(I, s[1], s[2], s[4], s[3], &ra))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *f = NULL, *mask = NULL, *cnt = NULL, *r = NULL;
  if (!t) return -1;
  if (!dtype_is_float(t->dtype)) {
    r = reduce(c, RED_MEAN, t, ra.axes, ra.naxes, ra.keep, ra.dt);
    goto done;
  }
  if (!(f = nan_replaced(c, t, 0, &mask)) || !(cnt = valid_counts(c, mask, &ra, ra.keep)) ||
      !(r = reduce(c, RED_SUM, f, ra.axes, ra.naxes, ra.keep, ra.dt)))
    goto done;
  if (divide_by_counts(r, cnt, 0)) warn(I, "Mean of empty slice");
done:
  tensor_release(t);
  tensor_release(f);
  tensor_release(mask);
  tensor_release(cnt);
  return builtins_deliver(I, r, ra.out, out);
}

/* numpy.nanvar of float t (NumPy's _nanvar): the mean of the non-NaN values, the squared
   deviations with NaN read as 0, their sum over count - ddof; NaN and the RuntimeWarning
   "Degrees of freedom <= 0 for slice." where that is <= 0.  New reference or NULL. */
static Tensor *nan_variance(Interp *I, Tensor *t, const RedArgs *ra, int64_t ddof) {
  Ctx *c = interp_ctx(I);
  Tensor *f = NULL, *mask = NULL, *cnt = NULL, *avg = NULL, *dev = NULL, *zero = NULL;
  Tensor *sq = NULL, *r = NULL, *tmp;
  if (!(f = nan_replaced(c, t, 0, &mask)) || !(cnt = valid_counts(c, mask, ra, true)) ||
      !(avg = reduce(c, RED_SUM, f, ra->axes, ra->naxes, true, ra->dt)))
    goto done;
  divide_by_counts(avg, cnt, 0);
  /* NumPy subtracts into its copy of a: the deviations have a's dtype whatever dtype= says */
  if (!(dev = ufunc_binary(c, UF_SUBTRACT, f, avg, NULL))) goto done;
  if (dev->dtype != f->dtype) {
    if (!(tmp = tensor_astype(c, dev, f->dtype))) goto done;
    tensor_release(dev);
    dev = tmp;
  }
  if (!(zero = tensor_scalar_f64(c, dev->dtype, 0)) || !(tmp = ufunc_where(c, mask, zero, dev)))
    goto done;
  tensor_release(dev);
  dev = tmp;
  if (!(sq = ufunc_binary(c, UF_MULTIPLY, dev, dev, NULL)) ||
      !(r = reduce(c, RED_SUM, sq, ra->axes, ra->naxes, ra->keep, ra->dt)))
    goto done;
  if (divide_by_counts(r, cnt, ddof)) {
    const int64_t *k = (const int64_t *)tensor_data(cnt);
    char *p = tensor_data(r);
    size_t sz = dtype_size(r->dtype);
    for (int64_t i = 0; i < tensor_size(r); i++)
      if (k[i] - ddof <= 0) dtype_set_f64(r->dtype, p + i * sz, NAN);
    warn(I, "Degrees of freedom <= 0 for slice.");
  }
done:
  tensor_release(f);
  tensor_release(mask);
  tensor_release(cnt);
  tensor_release(avg);
  tensor_release(dev);
  tensor_release(zero);
  tensor_release(sq);
  return r;
}

/* nanvar / nanstd (a, axis=None, dtype=None, out=None, ddof=0, keepdims=False). */
static int nan_var_common(Interp *I, const Args *a, const char *name, bool take_sqrt,
                          Value *out) {
  Value s[6];
  RedArgs ra;
  int64_t ddof = 0;
  if (args_parse(I, a, name, "a,axis=,dtype=,out=,ddof=,keepdims=", s) ||
      red_args(I, s[1], s[2], s[5], s[3], &ra) || (given(s[4]) && value_to_int(I, s[4], &ddof)))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *r = NULL;
  if (!t) return -1;
  if (!dtype_is_float(t->dtype)) {   /* numpy.var */
    r = reduce_var(c, t, ra.axes, ra.naxes, ra.keep,
                   (int)(ddof > INT32_MAX ? INT32_MAX : ddof < INT32_MIN ? INT32_MIN : ddof),
                   take_sqrt, ra.dt);
  } else if ((r = nan_variance(I, t, &ra, ddof)) && take_sqrt) {
    Tensor *root = ufunc_unary(c, UF_SQRT, r, r);
    if (root) tensor_release(root);
    else { tensor_release(r); r = NULL; }
  }
  tensor_release(t);
  return builtins_deliver(I, r, ra.out, out);
}
static int bi_nanvar(Interp *I, const Args *a, Value *out) {
  return nan_var_common(I, a, "nanvar", false, out);
}
static int bi_nanstd(Interp *I, const Args *a, Value *out) {
  return nan_var_common(I, a, "nanstd", true, out);
}

/* --------------------------------------------------------------------------------------------
** average, ptp
*/

/* The weights of average broadcast against a (shape of a, or 1-d along axis): a view (new
   reference) with NumPy's TypeError/ValueError when they do not fit. */
static Tensor *average_weights(Interp *I, Tensor *t, Tensor *w, const RedArgs *ra) {
  Ctx *c = interp_ctx(I);
  bool same = t->ndim == w->ndim;
  for (int i = 0; same && i < t->ndim; i++) same = t->shape[i] == w->shape[i];
  if (same) return tensor_retain(w);
  if (ra->naxes < 0) {
    ERR_TYPE(c, "Axis must be specified when shapes of a and weights differ.");
    return NULL;
  }
  if (w->ndim != 1) {
    ERR_TYPE(c, "1D weights expected when shapes of a and weights differ.");
    return NULL;
  }
  int ax;
  if (axis_normalize(c, ra->axes[0], t->ndim, &ax)) return NULL;
  if (w->shape[0] != t->shape[ax]) {
    ERR_VALUE(c, "Length of weights not compatible with specified axis.");
    return NULL;
  }
  int64_t shape[TSR_MAXDIMS];
  for (int i = 0; i < t->ndim; i++) shape[i] = i == ax ? w->shape[0] : 1;
  return tensor_reshape(c, w, t->ndim, shape);
}

/* avg and the sum of weights (NumPy's scl) for average with weights; 0 or -1. */
static int weighted_average(Interp *I, Tensor *t, Value wv, const RedArgs *ra, Tensor **avg,
                            Tensor **scl) {
  Ctx *c = interp_ctx(I);
  Tensor *w = arg_tensor(I, wv), *wb = NULL, *ta = NULL, *wa = NULL, *prod = NULL, *sum = NULL;
  Tensor *zero = NULL, *eq = NULL;
  int rc = -1;
  if (!w) return -1;
  DType rt = dtype_promote(t->dtype, w->dtype);
  if (!dtype_is_float(t->dtype)) rt = dtype_promote(rt, TSR_FLOAT64);
  if (!(wb = average_weights(I, t, w, ra)) ||
      !(*scl = reduce(c, RED_SUM, wb, ra->axes, ra->naxes, ra->keep, rt)) ||
      !(zero = tensor_scalar_f64(c, rt, 0)) || !(eq = ufunc_binary(c, UF_EQUAL, *scl, zero, NULL)))
    goto done;
  int some = any_true(c, eq);
  if (some > 0) ERR_ZERODIV(c, "Weights sum to zero, can't be normalized");
  if (some) goto done;
  if ((ta = tensor_astype(c, t, rt)) && (wa = tensor_astype(c, wb, rt)) &&
      (prod = ufunc_binary(c, UF_MULTIPLY, ta, wa, NULL)) &&
      (sum = reduce(c, RED_SUM, prod, ra->axes, ra->naxes, ra->keep, -1)) &&
      (*avg = ufunc_binary(c, UF_TRUE_DIVIDE, sum, *scl, NULL)))
    rc = 0;
done:
  if (rc) { tensor_release(*scl); *scl = NULL; }
  tensor_release(w);
  tensor_release(wb);
  tensor_release(ta);
  tensor_release(wa);
  tensor_release(prod);
  tensor_release(sum);
  tensor_release(zero);
  tensor_release(eq);
  return rc;
}

/* average(a, axis=None, weights=None, returned=False, *, keepdims=False): the mean, or the
   weighted mean sum(a * w) / sum(w) in float64 (integer a) or the promoted float dtype;
   returned=True gives (average, sum of weights broadcast to the average's shape). */
static int bi_average(Interp *I, const Args *a, Value *out) {
  Value s[5];
  RedArgs ra;
  bool returned;
  if (args_parse(I, a, "average", "a,axis=,weights=,returned=,*,keepdims=", s) ||
      red_args(I, s[1], v_undef(), s[4], v_undef(), &ra) || get_bool(I, s[3], false, &returned))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *avg = NULL, *scl = NULL, *b = NULL;
  if (!t) return -1;
  int rc = -1;
  if (given(s[2])) {
    if (weighted_average(I, t, s[2], &ra, &avg, &scl)) goto done;
  } else {
    if (!(avg = reduce(c, RED_MEAN, t, ra.axes, ra.naxes, ra.keep, -1))) goto done;
    int64_t as = tensor_size(avg);
    if (as == 0) {
      ERR_ZERODIV(c, "division by zero");
      goto done;
    }
    if (!(scl = tensor_scalar_f64(c, avg->dtype, (double)tensor_size(t) / (double)as)))
      goto done;
  }
  if (!returned) {
    *out = v_tensor(avg);
    avg = NULL;
    rc = 0;
    goto done;
  }
  if (!(b = tensor_broadcast_to(c, scl, avg->ndim, avg->shape))) goto done;
  tensor_release(scl);
  if (!(scl = tensor_copy(c, b))) goto done;
  Value tup = value_tuple(I, 2);
  if (tup.type == V_UNDEF) goto done;
  as_list(tup)->items[0] = v_tensor(avg);
  as_list(tup)->items[1] = v_tensor(scl);
  avg = scl = NULL;
  *out = tup;
  rc = 0;
done:
  tensor_release(t);
  tensor_release(avg);
  tensor_release(scl);
  tensor_release(b);
  return rc;
}

/* ptp(a, axis=None, out=None, keepdims=False): max - min along the axes. */
static int bi_ptp(Interp *I, const Args *a, Value *out) {
  Value s[4];
  RedArgs ra;
  if (args_parse(I, a, "ptp", "a,axis=,out=,keepdims=", s) ||
      red_args(I, s[1], v_undef(), s[3], s[2], &ra))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *t = arg_tensor(I, s[0]), *hi = NULL, *lo = NULL, *r = NULL;
  if (t && (hi = reduce(c, RED_MAX, t, ra.axes, ra.naxes, ra.keep, -1)) &&
      (lo = reduce(c, RED_MIN, t, ra.axes, ra.naxes, ra.keep, -1)))
    r = ufunc_binary(c, UF_SUBTRACT, hi, lo, NULL);
  tensor_release(t);
  tensor_release(hi);
  tensor_release(lo);
  return builtins_deliver(I, r, ra.out, out);
}
static int m_ptp(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_ptp, out);
}

/* --------------------------------------------------------------------------------------------
** The table
*/

#define SIG_MEDIAN "(a, axis=None, out=None, overwrite_input=False, keepdims=False)\n\n"
#define SIG_Q(q) "(a, " q ", axis=None, out=None, overwrite_input=False, method='linear', " \
  "keepdims=False)\n\n"
#define SIG_RED "(a, axis=None, dtype=None, out=None, keepdims=False)\n\n"
#define SIG_CUM "(a, axis=None, dtype=None, out=None)\n\n"
#define SIG_EXT "(a, axis=None, out=None, keepdims=False)\n\n"
#define SIG_ARG "(a, axis=None, out=None, *, keepdims=False)\n\n"
#define SIG_VAR "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)\n\n"

const Builtin builtins_stats_table[] = {
  {NULL, "median", bi_median, "median" SIG_MEDIAN "Compute the median along the specified "
   "axis."},
  {NULL, "percentile", bi_percentile, "percentile" SIG_Q("q") "Compute the q-th percentile "
   "of the data along the specified axis."},
  {NULL, "quantile", bi_quantile, "quantile" SIG_Q("q") "Compute the q-th quantile of the "
   "data along the specified axis."},
  {NULL, "nanmedian", bi_nanmedian, "nanmedian" SIG_MEDIAN "Compute the median along the "
   "specified axis, while ignoring NaNs."},
  {NULL, "nanpercentile", bi_nanpercentile, "nanpercentile" SIG_Q("q") "Compute the qth "
   "percentile of the data along the specified axis, while ignoring nan values."},
  {NULL, "nanquantile", bi_nanquantile, "nanquantile" SIG_Q("q") "Compute the qth quantile "
   "of the data along the specified axis, while ignoring nan values."},
  {NULL, "nansum", bi_nansum, "nansum" SIG_RED "Return the sum of array elements over a "
   "given axis treating Not a Numbers (NaNs) as zero."},
  {NULL, "nanprod", bi_nanprod, "nanprod" SIG_RED "Return the product of array elements "
   "over a given axis treating Not a Numbers (NaNs) as ones."},
  {NULL, "nanmean", bi_nanmean, "nanmean" SIG_RED "Compute the arithmetic mean along the "
   "specified axis, ignoring NaNs."},
  {NULL, "nanvar", bi_nanvar, "nanvar" SIG_VAR "Compute the variance along the specified "
   "axis, while ignoring NaNs."},
  {NULL, "nanstd", bi_nanstd, "nanstd" SIG_VAR "Compute the standard deviation along the "
   "specified axis, while ignoring NaNs."},
  {NULL, "nanmax", bi_nanmax, "nanmax" SIG_EXT "Return the maximum of an array or maximum "
   "along an axis, ignoring any NaNs."},
  {NULL, "nanmin", bi_nanmin, "nanmin" SIG_EXT "Return minimum of an array or minimum along "
   "an axis, ignoring any NaNs."},
  {NULL, "nanargmax", bi_nanargmax, "nanargmax" SIG_ARG "Return the indices of the maximum "
   "values in the specified axis ignoring NaNs."},
  {NULL, "nanargmin", bi_nanargmin, "nanargmin" SIG_ARG "Return the indices of the minimum "
   "values in the specified axis ignoring NaNs."},
  {NULL, "nancumsum", bi_nancumsum, "nancumsum" SIG_CUM "Return the cumulative sum of array "
   "elements over a given axis treating Not a Numbers (NaNs) as zero."},
  {NULL, "nancumprod", bi_nancumprod, "nancumprod" SIG_CUM "Return the cumulative product "
   "of array elements over a given axis treating Not a Numbers (NaNs) as one."},
  {NULL, "average", bi_average, "average(a, axis=None, weights=None, returned=False, *, "
   "keepdims=False)\n\nCompute the weighted average along the specified axis."},
  {NULL, "ptp", bi_ptp, "ptp" SIG_EXT "Range of values (maximum - minimum) along an axis."},
  {"ndarray", "ptp", m_ptp, "a.ptp(axis=None, out=None, keepdims=False)\n\nPeak to peak "
   "(maximum - minimum) value along a given axis."},
  {NULL, NULL, NULL, NULL}
};
