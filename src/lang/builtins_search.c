/*
** builtins_search.c -- NumPy's searching and counting functions: searchsorted (also the
** method), digitize, bincount, histogram, interp, convolve and correlate.  The binary search
** and the sliding dot product are the runtime's (src/runtime/search.c).
*/
#include "builtins.h"

#include <math.h>
#include <string.h>

/* --------------------------------------------------------------------------------------------
** Helpers
*/

/* A 1-d operand, C-contiguous (NumPy's PyArray_ContiguousFromAny(obj, type, 1, 1); errors for
   other ranks).  dtype -1 keeps the operand's.  New reference or NULL. */
static Tensor *vector_arg(Interp *I, Value v, int dtype) {
  Tensor *t = value_to_tensor_strong(I, v, dtype);
  if (t && t->ndim == 1) {
    /* callers read it as a C array: a strided or reversed view is copied */
    Tensor *cc = tensor_contiguous(interp_ctx(I), t, t->dtype);
    tensor_release(t);
    return cc;
  }
  if (!t) return t;
  if (t->ndim == 0) IERR_VALUE(I, "object of too small depth for desired array");
  else IERR_VALUE(I, "object too deep for desired array");
  tensor_release(t);
  return NULL;
}

/* The elements of a 1-d or any-shape tensor as a contiguous float64 copy (new reference). */
static Tensor *as_f64(Ctx *c, Tensor *t) { return tensor_contiguous(c, t, TSR_FLOAT64); }

/* Records the text of b (built by the caller) as a ValueError, or a TypeError, and frees b;
   a failed b has recorded its MemoryError already.  Returns -1. */
static int buf_error(Interp *I, Buf *b, bool type_error) {
  const char *s = buf_str(b);
  if (s && type_error) IERR_TYPE(I, "%s", s);
  else if (s) IERR_VALUE(I, "%s", s);
  buf_free(b);
  return -1;
}

/* A side= option: "left" (false) or "right" (true); as NumPy 1.24, any string whose first
   letter is l or r in either case. */
static int side_arg(Interp *I, Value v, bool *right) {
  *right = false;
  if (v.type == V_UNDEF) return 0;
  if (v.type != V_STR)
    return IERR_TYPE(I, "search side must be str, not %s", value_type_name(v));
  char first = as_str(v)->s[0];
  if (first == 'l' || first == 'L') return 0;
  if (first == 'r' || first == 'R') { *right = true; return 0; }
  Buf b;
  buf_init(&b, interp_ctx(I));
  buf_puts(&b, "search side must be 'left' or 'right' (got ");
  value_repr(I, &b, v);
  buf_putc(&b, ')');
  return buf_error(I, &b, false);
}

/* --------------------------------------------------------------------------------------------
** searchsorted, digitize
*/

/* searchsorted(a, v, side='left', sorter=None) / a.searchsorted(v, side, sorter). */
static int bi_searchsorted(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "searchsorted", "a,v,side=,sorter=", s)) return -1;
  bool right;
  if (side_arg(I, s[2], &right)) return -1;
  Tensor *x = NULL, *v = NULL, *sorter = NULL, *r = NULL;
  if (!(x = vector_arg(I, s[0], -1)) || !(v = arg_tensor(I, s[1]))) goto done;
  if (given(s[3]) && !(sorter = vector_arg(I, s[3], TSR_INT64))) goto done;
  r = search_sorted(interp_ctx(I), x, v, right, sorter);
done:
  tensor_release(x);
  tensor_release(v);
  tensor_release(sorter);
  return ret_tensor(r, out);
}
static int m_searchsorted(Interp *I, const Args *a, Value *out) {
  return call_with_self(I, a, bi_searchsorted, out);
}

/* +1 if bins (1-d) never decrease, -1 if they never increase (and some pair differs), 0
   otherwise (numpy's _monotonicity). */
static int monotonicity(Ctx *c, Tensor *bins, int *dir) {
  Tensor *f = as_f64(c, bins);
  if (!f) return -1;
  const double *b = (const double *)tensor_data(f);
  int64_t n = tensor_size(f), i = 0;
  while (i + 1 < n && b[i] == b[i + 1]) i++;
  *dir = 1;
  if (i + 1 < n) {
    *dir = b[i] < b[i + 1] ? 1 : b[i] > b[i + 1] ? -1 : 0;
    for (; *dir != 0 && i + 1 < n; i++)
      if (*dir > 0 ? !(b[i] <= b[i + 1]) : !(b[i] >= b[i + 1])) *dir = 0;
  }
  tensor_release(f);
  return 0;
}

/* digitize(x, bins, right=False): the bin index of each x (numpy.digitize). */
static int bi_digitize(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "digitize", "x,bins,right=", s)) return -1;
  bool right;
  if (get_bool(I, s[2], false, &right)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = NULL, *bins = NULL, *rev = NULL, *r = NULL;
  int dir;
  if (!(x = arg_tensor(I, s[0])) || !(bins = vector_arg(I, s[1], -1)) ||
      monotonicity(c, bins, &dir))
    goto done;
  if (dir == 0) {
    ERR_VALUE(c, "bins must be monotonically increasing or decreasing");
  } else if (dir > 0) {
    r = search_sorted(c, bins, x, !right, NULL);
  } else if ((rev = tensor_flip(c, bins, 0)) && (r = search_sorted(c, rev, x, !right, NULL))) {
    int64_t *p = (int64_t *)tensor_data(r), n = tensor_size(r);
    for (int64_t i = 0; i < n; i++) p[i] = bins->shape[0] - p[i];
  }
done:
  tensor_release(x);
  tensor_release(bins);
  tensor_release(rev);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** bincount
*/

/* Can dt be cast to int64 under NumPy's 'safe' rule? */
static bool safe_to_int64(DType dt) {
  return dt == TSR_BOOL || (dtype_is_int(dt) && dt != TSR_UINT64);
}

/* The list argument of bincount: a tensor must cast safely to int64; lists and scalars are
   converted (truncating), as NumPy's PyArray_ContiguousFromAny does.  New reference. */
static Tensor *bincount_list(Interp *I, Value v) {
  if (v.type == V_TENSOR && !safe_to_int64(v.t->dtype)) {
    Buf b;
    buf_init(&b, interp_ctx(I));
    buf_puts(&b, "Cannot cast array data from ");
    fmt_dtype_repr(&b, v.t->dtype);
    buf_puts(&b, " to dtype('int64') according to the rule 'safe'");
    buf_error(I, &b, true);
    return NULL;
  }
  return vector_arg(I, v, TSR_INT64);
}

/* bincount(x, /, weights=None, minlength=0): occurrences (int64) or summed weights (float64)
   of each non-negative integer of the 1-d x. */
static int bi_bincount(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "bincount", "x,weights=,minlength=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int64_t minlength = 0;
  if (given(s[2]) && value_to_int(I, s[2], &minlength)) return -1;
  Tensor *x = bincount_list(I, s[0]), *w = NULL, *r = NULL;
  if (!x) return -1;
  if (minlength < 0) {
    ERR_VALUE(c, "'minlength' must not be negative");
    goto done;
  }
  const int64_t *p = (const int64_t *)tensor_data(x);
  int64_t n = x->shape[0], len = minlength;
  for (int64_t i = 0; i < n; i++) {
    if (p[i] < 0) {
      ERR_VALUE(c, "'list' argument must have no negative elements");
      goto done;
    }
    if (p[i] >= len) len = p[i] + 1;
  }
  if (ctx_work(c, (uint64_t)n * 2, WORK_ELEMENT)) goto done;   /* a scan, a count */
  if (given(s[1])) {
    if (!(w = vector_arg(I, s[1], TSR_FLOAT64))) goto done;
    if (w->shape[0] != n) {
      ERR_VALUE(c, "The weights and list don't have the same length.");
      goto done;
    }
    if (!(r = tensor_zeros(c, TSR_FLOAT64, 1, &len))) goto done;
    double *acc = (double *)tensor_data(r);
    const double *wp = (const double *)tensor_data(w);
    for (int64_t i = 0; i < n; i++) acc[p[i]] += wp[i];
  } else {
    if (!(r = tensor_zeros(c, TSR_INT64, 1, &len))) goto done;
    int64_t *acc = (int64_t *)tensor_data(r);
    for (int64_t i = 0; i < n; i++) acc[p[i]]++;
  }
done:
  tensor_release(x);
  tensor_release(w);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** histogram
*/

/* The outer edges of an equal-width histogram (numpy's _get_outer_edges): from range=
   (a 2-sequence) or from a's min and max (0 and 1 when a is empty), widened by 0.5 each side
   when equal.  a is float64. */
static int outer_edges(Interp *I, Tensor *a, Value range, double *first, double *last) {
  Ctx *c = interp_ctx(I);
  if (given(range)) {
    if ((range.type != V_TUPLE && range.type != V_LIST) || as_list(range)->n != 2)
      return IERR_VALUE(I, "too many values to unpack (expected 2)");
    Value lo = as_list(range)->items[0], hi = as_list(range)->items[1];
    if (value_to_double(I, lo, first) || value_to_double(I, hi, last)) return -1;
    if (*first > *last) return IERR_VALUE(I, "max must be larger than min in range parameter.");
    if (!isfinite(*first) || !isfinite(*last)) {
      Buf b;
      buf_init(&b, c);
      buf_puts(&b, "supplied range of [");
      value_repr(I, &b, lo);
      buf_puts(&b, ", ");
      value_repr(I, &b, hi);
      buf_puts(&b, "] is not finite");
      return buf_error(I, &b, false);
    }
  } else if (tensor_size(a) == 0) {
    *first = 0;
    *last = 1;
  } else {
    const double *p = (const double *)tensor_data(a);
    int64_t n = tensor_size(a);
    double lo = p[0], hi = p[0];
    for (int64_t i = 1; i < n; i++) {
      if (p[i] < lo || isnan(p[i])) lo = isnan(lo) ? lo : p[i];
      if (p[i] > hi || isnan(p[i])) hi = isnan(hi) ? hi : p[i];
    }
    if (!isfinite(lo) || !isfinite(hi)) {
      Buf b;
      buf_init(&b, c);
      buf_puts(&b, "autodetected range of [");
      fmt_pyfloat(&b, lo);
      buf_puts(&b, ", ");
      fmt_pyfloat(&b, hi);
      buf_puts(&b, "] is not finite");
      return buf_error(I, &b, false);
    }
    *first = lo;
    *last = hi;
  }
  if (*first == *last) {
    *first -= 0.5;
    *last += 0.5;
  }
  return 0;
}

/* Adds a block's weighted sums (double) into total as NumPy's `n += bincount(...)
   .astype(ntype)` does: rounded to float32, or truncated to an integer, per block. */
static void add_block(double *total, double *block, int64_t nbins, DType ntype) {
  for (int64_t k = 0; k < nbins; k++) {
    double v = block[k];
    if (ntype == TSR_FLOAT32) total[k] = (float)(total[k] + (float)v);
    else if (ntype == TSR_FLOAT64) total[k] += v;
    else total[k] += trunc(v);
    block[k] = 0;
  }
}

enum { HIST_BLOCK = 65536 };

/* Counts (or sums weights w, float64 or NULL) of float64 a into nbins equal-width bins
   [first, last] whose edges are `edges` (nbins + 1, float64), the last bin closed: NumPy's
   fast path, the index computed from the position and corrected against the edges.  For a
   float32 a (adt) the bounds and the position are float32, as NumPy computes them.  cnt
   (int64) or wsum (float64) receive the result, zeroed by the caller; scratch holds nbins
   doubles. */
static void count_uniform(const double *a, const double *w, int64_t n, double first,
                          double last, const double *edges, int64_t nbins, DType adt,
                          DType ntype, int64_t *cnt, double *wsum, double *scratch) {
  double norm = (double)nbins / (last - first);
  if (adt == TSR_FLOAT32) {
    first = (float)first;
    last = (float)last;
  }
  for (int64_t i = 0; i < n; i++) {
    double x = a[i];
    if (x >= first && x <= last) {
      double pos = adt == TSR_FLOAT32 ? (double)((float)(x - first) * (float)norm)
                                      : (x - first) * norm;
      int64_t k = (int64_t)pos;
      if (k >= nbins) k = nbins - 1;
      if (k < 0) k = 0;
      if (x < edges[k]) k--;
      else if (k != nbins - 1 && x >= edges[k + 1]) k++;
      if (w) scratch[k] += w[i];
      else cnt[k]++;
    }
    if (w && ((i + 1) % HIST_BLOCK == 0 || i + 1 == n)) add_block(wsum, scratch, nbins, ntype);
  }
}

/* The counts of sorted-through-order a in the bins with edges e (nbins + 1, non-decreasing),
   the last bin closed (NumPy's searchsorted path): with weights, differences of their
   running sums in the order of the sorted a (kept in ntype's precision). */
static int count_edges(Ctx *c, Tensor *a, Tensor *w, Tensor *edges, DType ntype, Tensor *res) {
  int rc = -1;
  Tensor *order = sort_argsort(c, a, 0), *sa = NULL, *lo = NULL, *hi = NULL;
  double *cw = NULL;
  int64_t n = a->shape[0], nb = edges->shape[0] - 1;
  if (!order) return -1;
  const int64_t *ord = (const int64_t *)tensor_data(order);
  if (!(sa = tensor_empty(c, TSR_FLOAT64, 1, &n))) goto done;
  const double *ap = (const double *)tensor_data(a);
  double *sp = (double *)tensor_data(sa);
  for (int64_t i = 0; i < n; i++) sp[i] = ap[ord[i]];
  if (!(lo = search_sorted(c, sa, edges, false, NULL)) ||
      !(hi = search_sorted(c, sa, edges, true, NULL)))
    goto done;
  int64_t *l = (int64_t *)tensor_data(lo), *h = (int64_t *)tensor_data(hi);
  l[nb] = h[nb];
  if (w) {
    if (!(cw = ctx_malloc(c, sizeof(double) * (size_t)(n + 1)))) goto done;
    const double *wp = (const double *)tensor_data(w);
    cw[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      double v = cw[i] + wp[ord[i]];
      cw[i + 1] = ntype == TSR_FLOAT32 ? (double)(float)v : v;
    }
    double *rp = (double *)tensor_data(res);
    for (int64_t k = 0; k < nb; k++) {
      double d = cw[l[k + 1]] - cw[l[k]];
      rp[k] = ntype == TSR_FLOAT32 ? (double)(float)d : d;
    }
    ctx_free(c, cw, sizeof(double) * (size_t)(n + 1));
  } else {
    int64_t *rp = (int64_t *)tensor_data(res);
    for (int64_t k = 0; k < nb; k++) rp[k] = l[k + 1] - l[k];
  }
  rc = 0;
done:
  tensor_release(order);
  tensor_release(sa);
  tensor_release(lo);
  tensor_release(hi);
  return rc;
}

/* numpy.histogram_bin_edges's bin-width estimators, by their names (stone is left out). */
enum { EST_AUTO, EST_FD, EST_DOANE, EST_RICE, EST_SCOTT, EST_SQRT, EST_STURGES, EST_COUNT };
static const char *const estimator_names[EST_COUNT] = {"auto", "fd", "doane", "rice", "scott",
                                                       "sqrt", "sturges"};

/* The q-th quantile (0..1) of the n sorted values s, NumPy's default 'linear' method with its
   own rounding: virtual index n*q + (1 - q) - 1 and the two-sided lerp. */
static double quantile_sorted(const double *s, int64_t n, double q) {
  double vi = (double)n * q + (1.0 - q) - 1.0, prev = floor(vi);
  int64_t i = (int64_t)prev, j = i + 1;
  if (vi >= (double)(n - 1)) { i = j = n - 1; prev = -1; }
  if (vi < 0) { i = j = 0; }
  double a = s[i], b = s[j], t = vi - prev, diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/* The value of a 0-d float64 reduction of x (op RED_MEAN, or std when var is true), or NAN
   with the error recorded (*failed set). */
static double scalar_stat(Ctx *c, Tensor *x, bool var, bool *failed) {
  Tensor *r = var ? reduce_var(c, x, NULL, -1, false, 0, true, -1)
                  : reduce(c, RED_MEAN, x, NULL, -1, false, -1);
  if (!r) { *failed = true; return NAN; }
  double v = dtype_get_f64(r->dtype, tensor_data(r));
  tensor_release(r);
  return v;
}

/* The bin width that estimator est gives for the n float64 values x (n > 0), as NumPy's
   _hist_bin_* functions compute it; 0 means one bin.  -1 with the error recorded. */
static double bin_width(Ctx *c, int est, Tensor *x) {
  int64_t n = x->shape[0];
  const double *p = (const double *)tensor_data(x);
  double lo = p[0], hi = p[0], dn = (double)n;
  for (int64_t i = 1; i < n; i++) {
    if (p[i] < lo) lo = p[i];
    if (p[i] > hi) hi = p[i];
  }
  double ptp = hi - lo, sturges = ptp / (log2(dn) + 1.0);
  bool failed = false;
  switch (est) {
  case EST_SQRT: return ptp / sqrt(dn);
  case EST_STURGES: return sturges;
  case EST_RICE: return ptp / (2.0 * pow(dn, 1.0 / 3));
  case EST_SCOTT: {
    double sd = scalar_stat(c, x, true, &failed);
    return failed ? -1 : pow(24.0 * pow(M_PI, 0.5) / dn, 1.0 / 3.0) * sd;
  }
  case EST_DOANE: {
    if (n <= 2) return 0;
    double sg1 = sqrt(6.0 * (double)(n - 2) / ((dn + 1.0) * (double)(n + 3)));
    double sigma = scalar_stat(c, x, true, &failed), mean = scalar_stat(c, x, false, &failed);
    if (failed) return -1;
    if (!(sigma > 0.0)) return 0;
    Tensor *cube = tensor_empty(c, TSR_FLOAT64, 1, &n);
    if (!cube) return -1;
    double *q = (double *)tensor_data(cube);
    for (int64_t i = 0; i < n; i++) q[i] = pow((p[i] - mean) / sigma, 3);
    double g1 = scalar_stat(c, cube, false, &failed);
    tensor_release(cube);
    if (failed) return -1;
    return ptp / (1.0 + log2(dn) + log2(1.0 + fabs(g1) / sg1));
  }
  default: {
    Tensor *sorted = sort_sorted(c, x, 0);
    if (!sorted) return -1;
    const double *sp = (const double *)tensor_data(sorted);
    double iqr = quantile_sorted(sp, n, 0.75) - quantile_sorted(sp, n, 0.25);
    tensor_release(sorted);
    double fd = 2.0 * iqr * pow(dn, -1.0 / 3.0);
    if (est == EST_FD) return fd;
    return fd != 0 ? (sturges < fd ? sturges : fd) : sturges;
  }
  }
}

/* The number of equal-width bins estimator est chooses for the float64 a within [first,
   last] (numpy's _get_bin_edges for a string bins).  0 or -1. */
static int estimate_bins(Ctx *c, int est, Tensor *a, double first, double last,
                         int64_t *nbins) {
  int64_t n = a->shape[0], k = 0;
  const double *p = (const double *)tensor_data(a);
  for (int64_t i = 0; i < n; i++) k += p[i] >= first && p[i] <= last;
  Tensor *kept = tensor_empty(c, TSR_FLOAT64, 1, &k);
  if (!kept) return -1;
  double *q = (double *)tensor_data(kept);
  for (int64_t i = 0, j = 0; i < n; i++)
    if (p[i] >= first && p[i] <= last) q[j++] = p[i];
  double width = k == 0 ? 0 : bin_width(c, est, kept);
  tensor_release(kept);
  if (width < 0) return -1;
  *nbins = width != 0 ? (int64_t)ceil((last - first) / width) : 1;
  return 0;
}

/* density=True: hist / diff(edges) / hist.sum(), float64. */
static Tensor *density_of(Ctx *c, Tensor *hist, Tensor *edges) {
  int64_t nb = hist->shape[0];
  Tensor *db = tensor_empty(c, TSR_FLOAT64, 1, &nb), *sum = NULL, *q = NULL, *r = NULL;
  if (!db) return NULL;
  double *d = (double *)tensor_data(db);
  size_t sz = dtype_size(edges->dtype);
  const char *e = tensor_data(edges);
  for (int64_t k = 0; k < nb; k++) {
    double hi = dtype_get_f64(edges->dtype, e + (size_t)(k + 1) * sz);
    double lo = dtype_get_f64(edges->dtype, e + (size_t)k * sz);
    d[k] = edges->dtype == TSR_FLOAT32 ? (double)(float)(hi - lo) : hi - lo;
  }
  if ((sum = reduce(c, RED_SUM, hist, NULL, -1, false, -1)) &&
      (q = ufunc_binary(c, UF_TRUE_DIVIDE, hist, db, NULL)))
    r = ufunc_binary(c, UF_TRUE_DIVIDE, q, sum, NULL);
  tensor_release(db);
  tensor_release(sum);
  tensor_release(q);
  return r;
}

/* histogram(a, bins=10, range=None, weights=None, density=None): (hist, bin_edges) as
   numpy.histogram, with an integer count of equal-width bins or an array of edges. */
static int bi_histogram(Interp *I, const Args *a, Value *out) {
  Value s[5];
  if (args_parse(I, a, "histogram", "a,bins=,range=,weights=,density=", s)) return -1;
  Ctx *c = interp_ctx(I);
  bool density;
  if (get_bool(I, s[4].type == V_NONE ? v_undef() : s[4], false, &density)) return -1;
  Tensor *raw = NULL, *flat = NULL, *x = NULL, *wf = NULL, *edges = NULL, *ef = NULL,
         *hist = NULL, *acc = NULL;
  double *scratch = NULL;
  int rc = -1;
  int64_t nbins = 10;
  Value bins = s[1];
  int est = -1;
  if (bins.type == V_STR) {
    for (int k = 0; k < EST_COUNT; k++)
      if (strcmp(as_str(bins)->s, estimator_names[k]) == 0) est = k;
    if (est < 0 && strcmp(as_str(bins)->s, "stone") == 0)
      return IERR_VALUE(I, "histogram: bins='stone' is not supported by tsr");
    if (est < 0) return IERR_VALUE(I, "'%s' is not a valid estimator for `bins`", as_str(bins)->s);
  } else if (bins.type == V_FLOAT || bins.type == V_NONE) {
    return IERR_TYPE(I, "`bins` must be an integer, a string, or an array");
  }
  bool count_bins = !given(bins) || est >= 0 || bins.type == V_INT || bins.type == V_BOOL ||
                    (bins.type == V_TENSOR && bins.t->ndim == 0);
  if (count_bins && given(bins) && est < 0) {
    if (bins.type == V_TENSOR && dtype_is_float(bins.t->dtype))
      return IERR_TYPE(I, "`bins` must be an integer, a string, or an array");
    if (value_to_int(I, bins, &nbins)) return -1;
    if (nbins < 1) return IERR_VALUE(I, "`bins` must be positive, when an integer");
  }
  if (!(raw = arg_tensor(I, s[0])) || !(flat = tensor_ravel(c, raw)) || !(x = as_f64(c, flat)))
    goto fail;
  DType ntype = TSR_INT64;
  if (given(s[3])) {
    Tensor *wt = arg_tensor(I, s[3]), *wflat = NULL;
    if (!wt) goto fail;
    bool same = wt->ndim == raw->ndim;
    for (int k = 0; same && k < wt->ndim; k++) same = wt->shape[k] == raw->shape[k];
    if (!same) {
      tensor_release(wt);
      ERR_VALUE(c, "weights should have the same shape as a.");
      goto fail;
    }
    ntype = wt->dtype;
    wflat = tensor_ravel(c, wt);
    tensor_release(wt);
    if (!wflat) goto fail;
    wf = as_f64(c, wflat);
    tensor_release(wflat);
    if (!wf) goto fail;
  }
  int64_t n = x->shape[0];
  if (est >= 0 && wf) {
    ERR_TYPE(c, "Automated estimation of the number of bins is not supported for weighted "
             "data");
    goto fail;
  }
  if (count_bins) {
    double first, last;
    if (outer_edges(I, x, s[2], &first, &last)) goto fail;
    if (est >= 0 && estimate_bins(c, est, x, first, last, &nbins)) goto fail;
    DType edt = dtype_is_float(raw->dtype) ? raw->dtype : TSR_FLOAT64;
    int64_t nedges;
    if (size_add(nbins, 1, &nedges)) { err_too_big(c); goto fail; }
    if (!(edges = create_linspace(c, first, last, nedges, true, edt)) ||
        !(ef = as_f64(c, edges)))
      goto fail;
    if (!(acc = tensor_zeros(c, wf ? TSR_FLOAT64 : TSR_INT64, 1, &nbins))) goto fail;
    if (wf && !(scratch = ctx_calloc_n(c, nbins, sizeof(double)))) goto fail;
    count_uniform((const double *)tensor_data(x), wf ? (const double *)tensor_data(wf) : NULL,
                  n, first, last, (const double *)tensor_data(ef), nbins, raw->dtype, ntype,
                  (int64_t *)tensor_data(acc), (double *)tensor_data(acc), scratch);
  } else {
    if (!(edges = arg_tensor(I, bins))) goto fail;
    if (edges->ndim != 1) {
      ERR_VALUE(c, "`bins` must be 1d, when an array");
      goto fail;
    }
    if (!(ef = as_f64(c, edges))) goto fail;
    const double *e = (const double *)tensor_data(ef);
    for (int64_t k = 0; k + 1 < edges->shape[0]; k++)
      if (e[k] > e[k + 1]) {
        ERR_VALUE(c, "`bins` must increase monotonically, when an array");
        goto fail;
      }
    nbins = edges->shape[0] - 1;
    if (nbins < 0) nbins = 0;
    if (!(acc = tensor_zeros(c, wf ? TSR_FLOAT64 : TSR_INT64, 1, &nbins))) goto fail;
    if (nbins > 0 && count_edges(c, x, wf, ef, ntype, acc)) goto fail;
  }
  if (ctx_work(c, (uint64_t)n * 2, WORK_COMPARE)) goto fail;   /* a bin found, a count */
  hist = wf ? tensor_astype(c, acc, ntype) : tensor_retain(acc);
  if (!hist) goto fail;
  if (density) {
    Tensor *d = density_of(c, hist, edges);
    tensor_release(hist);
    if (!(hist = d)) goto fail;
  }
  Value tup = value_tuple(I, 2);
  if (tup.type == V_UNDEF) goto fail;
  as_list(tup)->items[0] = v_tensor(hist);
  as_list(tup)->items[1] = v_tensor(edges);
  hist = edges = NULL;
  *out = tup;
  rc = 0;
fail:
  tensor_release(raw);
  tensor_release(flat);
  tensor_release(x);
  tensor_release(wf);
  tensor_release(edges);
  tensor_release(ef);
  tensor_release(hist);
  tensor_release(acc);
  if (scratch) ctx_free(c, scratch, sizeof(double) * (size_t)nbins);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** interp
*/

/* NumPy's floating mod (the sign of the divisor). */
static double float_mod(double a, double b) {
  double m = fmod(a, b);
  if (m != 0) {
    if ((b < 0) != (m < 0)) m += b;
  } else {
    m = copysign(0.0, b);
  }
  return m;
}

/* One interpolated value of numpy.interp: xp (n >= 1, increasing), fp. */
static double interp_one(double x, const double *xp, const double *fp, int64_t n, double left,
                         double right) {
  if (isnan(x)) return x;
  if (x < xp[0]) return left;
  if (x > xp[n - 1]) return right;
  if (x == xp[n - 1]) return fp[n - 1];
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + ((hi - lo) >> 1);
    if (x >= xp[mid]) lo = mid + 1; else hi = mid;
  }
  int64_t j = lo - 1;
  if (xp[j] == x) return fp[j];
  double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  double r = slope * (x - xp[j]) + fp[j];
  if (isnan(r)) {
    r = slope * (x - xp[j + 1]) + fp[j + 1];
    if (isnan(r) && fp[j] == fp[j + 1]) r = fp[j];
  }
  return r;
}

/* For period=: xp and x reduced modulo period, xp sorted (with fp) and extended by one
   point on each side.  Replaces *xp and *fp (new 1-d float64 tensors of n + 2). */
static int interp_periodic(Ctx *c, Tensor **xp, Tensor **fp, double period) {
  int64_t n = (*xp)->shape[0], n2 = n + 2;
  double *xs = (double *)tensor_data(*xp);
  for (int64_t i = 0; i < n; i++) xs[i] = float_mod(xs[i], period);
  Tensor *order = sort_argsort(c, *xp, 0), *nx = NULL, *nf = NULL;
  if (!order || !(nx = tensor_empty(c, TSR_FLOAT64, 1, &n2)) ||
      !(nf = tensor_empty(c, TSR_FLOAT64, 1, &n2))) {
    tensor_release(order);
    tensor_release(nx);
    return -1;
  }
  const int64_t *o = (const int64_t *)tensor_data(order);
  const double *fs = (const double *)tensor_data(*fp);
  double *dx = (double *)tensor_data(nx), *df = (double *)tensor_data(nf);
  for (int64_t i = 0; i < n; i++) {
    dx[i + 1] = xs[o[i]];
    df[i + 1] = fs[o[i]];
  }
  dx[0] = dx[n] - period;
  df[0] = df[n];
  dx[n + 1] = dx[1] + period;
  df[n + 1] = df[1];
  tensor_release(order);
  tensor_release(*xp);
  tensor_release(*fp);
  *xp = nx;
  *fp = nf;
  return 0;
}

/* interp(x, xp, fp, left=None, right=None, period=None): numpy.interp for real values;
   float64 of x's shape. */
static int bi_interp(Interp *I, const Args *a, Value *out) {
  Value s[6];
  if (args_parse(I, a, "interp", "x,xp,fp,left=,right=,period=", s)) return -1;
  Ctx *c = interp_ctx(I);
  double left = NAN, right = NAN, period = 0;
  if ((given(s[3]) && value_to_double(I, s[3], &left)) ||
      (given(s[4]) && value_to_double(I, s[4], &right)) ||
      (given(s[5]) && value_to_double(I, s[5], &period)))
    return -1;
  if (given(s[5]) && period == 0) return IERR_VALUE(I, "period must be a non-zero value");
  Tensor *x = NULL, *xp = NULL, *fp = NULL, *r = NULL, *xv = NULL, *xpc = NULL;
  if (!(xv = value_to_tensor_strong(I, s[0], TSR_FLOAT64)) ||
      !(x = tensor_contiguous(c, xv, TSR_FLOAT64)) || !(xpc = vector_arg(I, s[1], TSR_FLOAT64)) ||
      !(fp = vector_arg(I, s[2], TSR_FLOAT64)))
    goto done;
  if (!(xp = tensor_copy(c, xpc))) goto done;
  int64_t n = xp->shape[0];
  if (fp->shape[0] != n) {
    ERR_VALUE(c, "fp and xp are not of the same length.");
    goto done;
  }
  if (n == 0) {
    ERR_VALUE(c, "array of sample points is empty");
    goto done;
  }
  if (!(r = tensor_empty(c, TSR_FLOAT64, x->ndim, x->shape))) goto done;
  int64_t nx = tensor_size(x);
  const double *xs = (const double *)tensor_data(x);
  double *rs = (double *)tensor_data(r);
  if (given(s[5])) {
    period = fabs(period);
    if (interp_periodic(c, &xp, &fp, period)) goto fail;
    n += 2;
  }
  const double *xps = (const double *)tensor_data(xp), *fps = (const double *)tensor_data(fp);
  if (!given(s[3]) || given(s[5])) left = fps[0];
  if (!given(s[4]) || given(s[5])) right = fps[n - 1];
  for (int64_t i = 0; i < nx; i++) {
    double v = given(s[5]) ? float_mod(xs[i], period) : xs[i];
    rs[i] = interp_one(v, xps, fps, n, left, right);
  }
  uint64_t per_x = 1;   /* a binary search: log2 n + 1 levels of two comparisons' worth */
  while (per_x < 64 && ((int64_t)1 << (per_x - 1)) <= n) per_x++;
  per_x *= 2;
  if (ctx_work(c, (uint64_t)nx * per_x, WORK_COMPARE)) goto fail;
  goto done;
fail:
  tensor_release(r);
  r = NULL;
done:
  tensor_release(xv);
  tensor_release(x);
  tensor_release(xpc);
  tensor_release(xp);
  tensor_release(fp);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** convolve, correlate
*/

enum { MODE_VALID, MODE_SAME, MODE_FULL };

/* A mode= option: 'valid', 'same', 'full' or 0, 1, 2. */
static int mode_arg(Interp *I, Value v, int def, int *mode) {
  *mode = def;
  if (!given(v)) return 0;
  if (v.type == V_STR) {
    static const char *const names[] = {"valid", "same", "full"};
    for (int k = 0; k < 3; k++)
      if (strcmp(as_str(v)->s, names[k]) == 0) { *mode = k; return 0; }
    return IERR_VALUE(I, "mode must be one of 'valid', 'same', or 'full' (got '%s')",
                      as_str(v)->s);
  }
  int64_t m;
  if (value_to_int(I, v, &m)) return -1;
  if (m < 0 || m > 2) return IERR_VALUE(I, "integer convolve/correlate mode must be 0, 1, or 2");
  *mode = (int)m;
  return 0;
}

/* numpy.correlate(a, v, mode) of two non-empty 1-d tensors: the longer one slides under the
   shorter (the result reversed when v is the longer).  New reference or NULL. */
static Tensor *correlate_mode(Ctx *c, Tensor *a, Tensor *v, int mode) {
  bool inverted = a->shape[0] < v->shape[0];
  if (inverted) {
    Tensor *t = a;
    a = v;
    v = t;
  }
  int64_t n1 = a->shape[0], n2 = v->shape[0], pad = 0, nout = n1 - n2 + 1;
  if (mode == MODE_SAME) {
    pad = n2 / 2;
    nout = n1;
  } else if (mode == MODE_FULL) {
    pad = n2 - 1;
    nout = n1 + n2 - 1;
  }
  Tensor *r = search_correlate(c, a, v, pad, nout);
  if (!r || !inverted) return r;
  Tensor *flip = tensor_flip(c, r, 0), *rc = flip ? tensor_copy(c, flip) : NULL;
  tensor_release(flip);
  tensor_release(r);
  return rc;
}

/* Binds a and v of convolve/correlate (1-d; 0-d taken as 1-d when ndmin_one) and the mode. */
static int correlate_args(Interp *I, const Args *a, const char *name, int def, bool ndmin_one,
                          Tensor **x, Tensor **y, int *mode) {
  Value s[3];
  *x = *y = NULL;
  if (args_parse(I, a, name, "a,v,mode=", s) || mode_arg(I, s[2], def, mode)) return -1;
  for (int k = 0; k < 2; k++) {
    Tensor *t = arg_tensor(I, s[k]);
    if (t && ndmin_one && t->ndim == 0) {
      int64_t one = 1;
      Tensor *r = tensor_reshape(interp_ctx(I), t, 1, &one);
      tensor_release(t);
      t = r;
    }
    if (t && t->ndim != 1) {
      IERR_VALUE(I, t->ndim == 0 ? "object of too small depth for desired array"
                                 : "object too deep for desired array");
      tensor_release(t);
      t = NULL;
    }
    if (!t) {
      tensor_release(*x);
      *x = NULL;
      return -1;
    }
    *(k == 0 ? x : y) = t;
  }
  return 0;
}

/* convolve(a, v, mode='full'): the discrete linear convolution of two 1-d sequences. */
static int bi_convolve(Interp *I, const Args *a, Value *out) {
  Tensor *x, *y, *r = NULL, *rev = NULL;
  int mode;
  if (correlate_args(I, a, "convolve", MODE_FULL, true, &x, &y, &mode)) return -1;
  Ctx *c = interp_ctx(I);
  if (y->shape[0] > x->shape[0]) {
    Tensor *t = x;
    x = y;
    y = t;
  }
  if (x->shape[0] == 0) ERR_VALUE(c, "a cannot be empty");
  else if (y->shape[0] == 0) ERR_VALUE(c, "v cannot be empty");
  else if ((rev = tensor_flip(c, y, 0))) r = correlate_mode(c, x, rev, mode);
  tensor_release(x);
  tensor_release(y);
  tensor_release(rev);
  return ret_tensor(r, out);
}

/* correlate(a, v, mode='valid'): the cross-correlation of two 1-d sequences. */
static int bi_correlate(Interp *I, const Args *a, Value *out) {
  Tensor *x, *y, *r = NULL;
  int mode;
  if (correlate_args(I, a, "correlate", MODE_VALID, false, &x, &y, &mode)) return -1;
  Ctx *c = interp_ctx(I);
  if (x->shape[0] == 0) ERR_VALUE(c, "first array argument cannot be empty");
  else if (y->shape[0] == 0) ERR_VALUE(c, "second array argument cannot be empty");
  else r = correlate_mode(c, x, y, mode);
  tensor_release(x);
  tensor_release(y);
  return ret_tensor(r, out);
}

/* --------------------------------------------------------------------------------------------
** The table
*/

/* The builtins of this file, listed in builtin_tables (builtins.c). */
const Builtin builtins_search_table[] = {
  {NULL, "searchsorted", bi_searchsorted, "searchsorted(a, v, side='left', sorter=None)\n\n"
   "Find indices where elements should be inserted to maintain order."},
  {NULL, "digitize", bi_digitize, "digitize(x, bins, right=False)\n\nReturn the indices of "
   "the bins to which each value in input array belongs."},
  {NULL, "bincount", bi_bincount, "bincount(x, /, weights=None, minlength=0)\n\nCount number "
   "of occurrences of each value in array of non-negative ints."},
  {NULL, "histogram", bi_histogram, "histogram(a, bins=10, range=None, weights=None, "
   "density=None)\n\nCompute the histogram of a dataset (tsr: of the bin estimators, all "
   "but 'stone')."},
  {NULL, "interp", bi_interp, "interp(x, xp, fp, left=None, right=None, period=None)\n\n"
   "One-dimensional linear interpolation for monotonically increasing sample points."},
  {NULL, "convolve", bi_convolve, "convolve(a, v, mode='full')\n\nReturns the discrete, "
   "linear convolution of two one-dimensional sequences."},
  {NULL, "correlate", bi_correlate, "correlate(a, v, mode='valid')\n\nCross-correlation of "
   "two 1-dimensional sequences."},
  {"ndarray", "searchsorted", m_searchsorted, "a.searchsorted(v, side='left', sorter=None)"
   "\n\nFind indices where elements of v should be inserted in a to maintain order."},
  {NULL, NULL, NULL, NULL}
};
