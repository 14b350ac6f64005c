/*
** builtins_random.c -- the `random` namespace: numpy.random's legacy functions (seed, rand,
** randn, random_sample, uniform, normal, randint, permutation, shuffle, choice, get_state,
** set_state, and the distributions of dist_specs: gamma, beta, poisson ...) drawing
** from the interpreter's RandomState (src/runtime/random.h), so that a seeded program prints
** the numbers NumPy 1.24 prints.  Argument checks, error texts and the order in which values
** are drawn follow RandomState's.
*/
#include "builtins.h"
#include "interp.h"

#include <math.h>
#include <string.h>

static RandomState *state_of(Interp *I) { return &I->random; }

/* --------------------------------------------------------------------------------------------
** Shapes: size= arguments and NumPy's broadcasting of distribution parameters
*/

/* A size= argument: None (*has = false) or an int or a tuple of ints. */
static int get_size(Interp *I, Value v, bool *has, int *nd, int64_t *shape) {
  *has = given(v);
  *nd = 0;
  if (!*has) return 0;
  return value_to_shape(I, v, nd, shape, false);
}

/* t (may be NULL), marked as a real 0-d array when it is 0-d and a size= was given: NumPy's
   draws with size=() are array(3), not the scalar 3 that no size gives. */
static Tensor *sized_result(Tensor *t, bool has_size) {
  if (t && has_size && t->ndim == 0) t->ndarray = 1;
  return t;
}

/* Broadcasts n shapes as NumPy's multi-iterator does, recording its ValueError "shape
   mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with
   shape (3,) and arg 1 with shape (2,)." (args numbered from first_arg).  0 or -1. */
static int broadcast_args(Interp *I, int n, const int *nds, const int64_t *const *shapes,
                          int first_arg, int *nd_out, int64_t *shape_out) {
  int nd = 0;
  for (int k = 0; k < n; k++) if (nds[k] > nd) nd = nds[k];
  for (int i = 0; i < nd; i++) {
    int src = -1;
    shape_out[i] = 1;
    for (int k = 0; k < n; k++) {
      int j = i + nds[k] - nd;
      if (j < 0 || shapes[k][j] == 1) continue;
      if (shape_out[i] == 1) {
        shape_out[i] = shapes[k][j];
        src = k;
      } else if (shape_out[i] != shapes[k][j]) {
        Ctx *c = interp_ctx(I);
        Buf b1, b2;
        buf_init(&b1, c);
        buf_init(&b2, c);
        shape_format(&b1, nds[src], shapes[src]);
        shape_format(&b2, nds[k], shapes[k]);
        ERR_VALUE(c, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                  "is between arg %d with shape %s and arg %d with shape %s.", src + first_arg,
                  buf_str(&b1), k + first_arg, buf_str(&b2));
        buf_free(&b1);
        buf_free(&b2);
        return -1;
      }
    }
  }
  *nd_out = nd;
  return 0;
}

/* Charges draw i (counting from 0) to the step budget (WORK_SAMPLE) and polls for an
   interrupt.  0 or -1 with the error recorded. */
static int poll_draws(Interp *I, int64_t i) {
  (void)i;
  return ctx_work(interp_ctx(I), 1, WORK_SAMPLE);
}

/* Steps a C-order multi-index over shape; false after the last element. */
static bool next_index(int nd, const int64_t *shape, int64_t *idx) {
  for (int i = nd - 1; i >= 0; i--) {
    if (++idx[i] < shape[i]) return true;
    idx[i] = 0;
  }
  return false;
}

/* --------------------------------------------------------------------------------------------
** Distributions with up to two float parameters (NumPy's `cont` and `disc` helpers)
*/

/* A distribution draws one value from the parameters (a, b): a double (cont) or an int64
   (disc); exactly one of the two is set. */
typedef double (*ContFn)(RandomState *rs, double a, double b);
typedef int64_t (*DiscFn)(RandomState *rs, double a, double b);
typedef struct Dist { ContFn cont; DiscFn disc; } Dist;

static double draw_sample(RandomState *rs, double a, double b) {
  (void)a; (void)b;
  return random_next_double(rs);
}
static double draw_gauss(RandomState *rs, double a, double b) {
  (void)a; (void)b;
  return random_gauss(rs);
}
static double draw_uniform(RandomState *rs, double low, double range) {
  return low + range * random_next_double(rs);
}
static double draw_normal(RandomState *rs, double loc, double scale) {
  return loc + scale * random_gauss(rs);
}

/* Draws into element i of t (float64 for cont, int64 for disc). */
static void draw_into(RandomState *rs, const Dist *d, Tensor *t, int64_t i, double a, double b) {
  if (d->disc) ((int64_t *)tensor_data(t))[i] = d->disc(rs, a, b);
  else ((double *)tensor_data(t))[i] = d->cont(rs, a, b);
}

/* Draws d(pa, pb) for every element of the output: a Python float (int for disc) when size
   is None and both parameters are 0-d, else a float64 (int64) tensor of shape size, or of the
   parameters' broadcast shape when size is None.  pa and pb are float64 tensors (borrowed),
   or NULL for none (pb NULL when pa is).  ValueError as NumPy for shapes that do not
   broadcast or do not fit size. */
static int dist_draw(Interp *I, const Dist *d, Value size, Tensor *pa, Tensor *pb, Value *out) {
  Ctx *c = interp_ctx(I);
  RandomState *rs = state_of(I);
  DType dt = d->disc ? TSR_INT64 : TSR_FLOAT64;
  bool has_size;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (get_size(I, size, &has_size, &nd, shape)) return -1;
  bool scalar = (!pa || pa->ndim == 0) && (!pb || pb->ndim == 0);
  if (scalar) {
    double a = pa ? dtype_get_f64(TSR_FLOAT64, tensor_data(pa)) : 0.0;
    double b = pb ? dtype_get_f64(TSR_FLOAT64, tensor_data(pb)) : 0.0;
    if (!has_size) {
      *out = d->disc ? v_int(d->disc(rs, a, b)) : v_float(d->cont(rs, a, b));
      return 0;
    }
    Tensor *t = tensor_empty(c, dt, nd, shape);
    if (!t) return -1;
    int64_t n = tensor_size(t);
    for (int64_t i = 0; i < n; i++) {
      draw_into(rs, d, t, i, a, b);
      if (poll_draws(I, i)) {
        tensor_release(t);
        return -1;
      }
    }
    return ret_tensor(sized_result(t, has_size), out);
  }
  /* array parameters: broadcast (size first when given), then draw in C order */
  int nds[3], k = 0, bnd;
  const int64_t *shapes[3];
  int64_t bshape[TSR_MAXDIMS];
  if (has_size) { nds[k] = nd; shapes[k++] = shape; }
  nds[k] = pa->ndim; shapes[k++] = pa->shape;
  if (pb) { nds[k] = pb->ndim; shapes[k++] = pb->shape; }
  if (broadcast_args(I, k, nds, shapes, 0, &bnd, bshape)) return -1;
  if (has_size) {
    bool same = bnd == nd;
    for (int i = 0; same && i < nd; i++) same = bshape[i] == shape[i];
    if (!same) {
      Buf b1, b2;
      buf_init(&b1, c);
      buf_init(&b2, c);
      shape_format(&b1, nd, shape);
      shape_format(&b2, bnd, bshape);
      ERR_VALUE(c, "Output size %s is not compatible with broadcast dimensions of inputs %s.",
                buf_str(&b1), buf_str(&b2));
      buf_free(&b1);
      buf_free(&b2);
      return -1;
    }
  }
  Tensor *t = tensor_empty(c, dt, bnd, bshape);
  Tensor *va = t ? tensor_broadcast_to(c, pa, bnd, bshape) : NULL;
  Tensor *vb = va && pb ? tensor_broadcast_to(c, pb, bnd, bshape) : NULL;
  if (!va || (pb && !vb)) {
    tensor_release(t);
    tensor_release(va);
    return -1;
  }
  int64_t n = tensor_size(t), idx[TSR_MAXDIMS] = {0};
  int rc = 0;
  for (int64_t i = 0; i < n && rc == 0; i++) {
    draw_into(rs, d, t, i, *(double *)tensor_at(va, idx),
              vb ? *(double *)tensor_at(vb, idx) : 0.0);
    next_index(bnd, bshape, idx);
    rc = poll_draws(I, i);
  }
  tensor_release(va);
  tensor_release(vb);
  if (rc) {
    tensor_release(t);
    return -1;
  }
  return ret_tensor(t, out);
}

/* dist_draw for a continuous distribution. */
static int cont(Interp *I, ContFn fn, Value size, Tensor *pa, Tensor *pb, Value *out) {
  Dist d = {fn, NULL};
  return dist_draw(I, &d, size, pa, pb, out);
}

/* A distribution parameter as a float64 tensor (lists, scalars, tensors of any dtype);
   new reference or NULL. */
static Tensor *float_param(Interp *I, Value v, double def) {
  if (v.type == V_UNDEF) return tensor_scalar_f64(interp_ctx(I), TSR_FLOAT64, def);
  return value_to_tensor_strong(I, v, TSR_FLOAT64);
}

/* Is any element of t (float64) not finite? */
static bool any_nonfinite(Tensor *t) {
  int64_t n = tensor_size(t), idx[TSR_MAXDIMS] = {0};
  for (int64_t i = 0; i < n; i++, next_index(t->ndim, t->shape, idx))
    if (!isfinite(*(double *)tensor_at(t, idx))) return true;
  return false;
}

/* Is any element of t (float64) negative, -0.0 included, NaN excluded (NumPy's
   CONS_NON_NEGATIVE check)? */
/* 1 if an element of t has its sign bit set (NaN aside), 0 if none, -1 when the step budget
   or an interrupt stops the scan (a broadcast view may have 2**62 elements). */
static int any_signbit(Ctx *c, Tensor *t) {
  int64_t n = tensor_size(t), idx[TSR_MAXDIMS] = {0};
  for (int64_t i = 0; i < n; i++, next_index(t->ndim, t->shape, idx)) {
    double v = *(double *)tensor_at(t, idx);
    if (!isnan(v) && signbit(v)) return 1;
    if ((i & 4095) == 4095 && ctx_work(c, 4096, WORK_ELEMENT) < 0) return -1;
  }
  return 0;
}

static long double get_ld(DType dt, const char *p);

/* --------------------------------------------------------------------------------------------
** seed, random_sample, rand, randn, standard_normal, uniform, normal
*/

/* seed(seed=None): an integer in [0, 2**32) seeds MT19937 by init_genrand (a tensor of one
   element counts as that integer, as NumPy squeezes it); a 1-d sequence of such integers by
   init_by_array; None from the OS entropy source.  Drops the cached Gaussian. */
static int bi_seed(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "seed", "seed=", s)) return -1;
  RandomState *rs = state_of(I);
  Ctx *c = interp_ctx(I);
  Value v = s[0];
  if (!given(v)) {
    random_seed_entropy(rs);
    *out = v_none();
    return 0;
  }
  if (v.type == V_INT || v.type == V_BOOL) {
    int64_t n = v.type == V_INT ? v.i : v.b;
    if (n < 0 || n > (int64_t)0xffffffff)
      return IERR_VALUE(I, "Seed must be between 0 and 2**32 - 1");
    random_seed(rs, (uint32_t)n);
    *out = v_none();
    return 0;
  }
  if (v.type == V_FLOAT)
    return IERR_TYPE(I, "Cannot cast scalar from dtype('float64') to dtype('int64') according "
                     "to the rule 'safe'");
  if (v.type == V_STR)
    return IERR_TYPE(I, "Cannot cast scalar from dtype('<U%zu') to dtype('int64') according "
                     "to the rule 'safe'", as_str(v)->len);
  Tensor *t = value_to_tensor_strong(I, v, -1);
  if (!t) return -1;
  bool squeezed = v.type == V_TENSOR && tensor_size(t) == 1;
  int rc = -1;
  uint32_t *words = NULL;
  int64_t n = tensor_size(t);
  if (n == 0 && !squeezed) {
    ERR_VALUE(c, "Seed must be non-empty");
    goto done;
  }
  if (dtype_is_float(t->dtype) || (t->dtype == TSR_UINT64 && !squeezed)) {
    ERR_TYPE(c, "Cannot cast %s from dtype('%s') to dtype('int64') according to the rule "
             "'safe'", squeezed ? "scalar" : "array data", dtype_name(t->dtype));
    goto done;
  }
  if (!squeezed && t->ndim != 1) {
    ERR_VALUE(c, "Seed array must be 1-d");
    goto done;
  }
  if (!(words = ctx_malloc(c, (size_t)n * sizeof *words))) goto done;
  int64_t idx[TSR_MAXDIMS] = {0};
  for (int64_t i = 0; i < n; i++, next_index(t->ndim, t->shape, idx)) {
    long double w = get_ld(t->dtype, tensor_at(t, idx));
    if (w < 0 || w > 0xffffffffu) {
      ERR_VALUE(c, "Seed must be between 0 and 2**32 - 1");
      goto done;
    }
    words[i] = (uint32_t)w;
  }
  if (squeezed) random_seed(rs, words[0]);
  else random_seed_by_array(rs, words, (size_t)n);
  *out = v_none();
  rc = 0;
done:
  if (words) ctx_free(c, words, (size_t)n * sizeof *words);
  tensor_release(t);
  return rc;
}

/* random_sample(size=None) and its aliases random, ranf, sample: doubles in [0, 1). */
static int sample_common(Interp *I, const Args *a, const char *name, Value *out) {
  Value s[1];
  if (args_parse(I, a, name, "size=", s)) return -1;
  return cont(I, draw_sample, s[0], NULL, NULL, out);
}
static int bi_random_sample(Interp *I, const Args *a, Value *out) {
  return sample_common(I, a, "random_sample", out);
}
static int bi_random(Interp *I, const Args *a, Value *out) {
  return sample_common(I, a, "random", out);
}
static int bi_ranf(Interp *I, const Args *a, Value *out) {
  return sample_common(I, a, "ranf", out);
}
static int bi_sample(Interp *I, const Args *a, Value *out) {
  return sample_common(I, a, "sample", out);
}

/* standard_normal(size=None): legacy Gaussians. */
static int bi_standard_normal(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "standard_normal", "size=", s)) return -1;
  return cont(I, draw_gauss, s[0], NULL, NULL, out);
}

/* rand(d0, d1, ...) / randn(d0, d1, ...): the shape as separate integers; no arguments give
   one Python float. */
static int dims_common(Interp *I, const Args *a, const char *name, ContFn fn, Value *out) {
  if (a->nkw)
    return IERR_TYPE(I, "%s() got an unexpected keyword argument '%s'", name, a->kwnames[0]);
  if (a->npos == 0) return cont(I, fn, v_none(), NULL, NULL, out);
  if (a->npos > TSR_MAXDIMS)
    return IERR_VALUE(I, "maximum supported dimension for an ndarray is %d, found %d",
                      TSR_MAXDIMS, a->npos);
  int64_t shape[TSR_MAXDIMS];
  for (int i = 0; i < a->npos; i++)
    if (value_to_int(I, a->pos[i], &shape[i])) return -1;
  Value tup = value_int_tuple(I, a->npos, shape);
  if (tup.type == V_UNDEF) return -1;
  int rc = cont(I, fn, tup, NULL, NULL, out);
  value_decref(tup);
  return rc;
}
static int bi_rand(Interp *I, const Args *a, Value *out) {
  return dims_common(I, a, "rand", draw_sample, out);
}
static int bi_randn(Interp *I, const Args *a, Value *out) {
  return dims_common(I, a, "randn", draw_gauss, out);
}

/* uniform(low=0.0, high=1.0, size=None): low + (high - low) * random_sample().  OverflowError
   "Range exceeds valid bounds" when high - low is not finite. */
static int bi_uniform(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "uniform", "low=,high=,size=", s)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *low = float_param(I, s[0], 0.0), *high = low ? float_param(I, s[1], 1.0) : NULL;
  Tensor *range = high ? ufunc_binary(c, UF_SUBTRACT, high, low, NULL) : NULL;
  int rc = -1;
  if (range) {
    if (any_nonfinite(range)) ERR_OVERFLOW(c, "Range exceeds valid bounds");
    else rc = cont(I, draw_uniform, s[2], low, range, out);
  }
  tensor_release(low);
  tensor_release(high);
  tensor_release(range);
  return rc;
}

/* normal(loc=0.0, scale=1.0, size=None): loc + scale * gauss.  ValueError "scale < 0" for a
   negative scale (-0.0 included, as NumPy's sign-bit test). */
static int bi_normal(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "normal", "loc=,scale=,size=", s)) return -1;
  Tensor *loc = float_param(I, s[0], 0.0), *scale = loc ? float_param(I, s[1], 1.0) : NULL;
  int rc = -1;
  if (scale) {
    int neg = any_signbit(interp_ctx(I), scale);
    if (neg > 0) IERR_VALUE(I, "scale < 0");
    else if (neg == 0) rc = cont(I, draw_normal, s[2], loc, scale, out);
  }
  tensor_release(loc);
  tensor_release(scale);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** Further legacy distributions, one table entry each: parameters, defaults, constraints
*/

static double draw_standard_exponential(RandomState *rs, double a, double b) {
  (void)a; (void)b;
  return random_standard_exponential(rs);
}
static double draw_exponential(RandomState *rs, double scale, double b) {
  (void)b;
  return scale * random_standard_exponential(rs);
}
static double draw_standard_gamma(RandomState *rs, double shape, double b) {
  (void)b;
  return random_standard_gamma(rs, shape);
}
static double draw_gamma(RandomState *rs, double shape, double scale) {
  return scale * random_standard_gamma(rs, shape);
}
static double draw_beta(RandomState *rs, double a, double b) { return random_beta(rs, a, b); }
static double draw_chisquare(RandomState *rs, double df, double b) {
  (void)b;
  return 2.0 * random_standard_gamma(rs, df / 2.0);
}
static double draw_f(RandomState *rs, double dfnum, double dfden) {
  double num = 2.0 * random_standard_gamma(rs, dfnum / 2.0);
  double den = 2.0 * random_standard_gamma(rs, dfden / 2.0);
  return (num * dfden) / (den * dfnum);
}
static double draw_standard_t(RandomState *rs, double df, double b) {
  (void)b;
  double num = random_gauss(rs), den = random_standard_gamma(rs, df / 2);
  return sqrt(df / 2) * num / sqrt(den);
}
static double draw_lognormal(RandomState *rs, double mean, double sigma) {
  return exp(mean + sigma * random_gauss(rs));
}
static double draw_standard_cauchy(RandomState *rs, double a, double b) {
  (void)a; (void)b;
  double num = random_gauss(rs);
  return num / random_gauss(rs);
}
static double draw_laplace(RandomState *rs, double loc, double scale) {
  for (;;) {
    double u = random_next_double(rs);
    if (u >= 0.5) return loc - scale * log(2.0 - u - u);
    if (u > 0.0) return loc + scale * log(u + u);
  }
}
static double draw_gumbel(RandomState *rs, double loc, double scale) {
  for (;;) {
    double u = 1.0 - random_next_double(rs);
    if (u < 1.0) return loc - scale * log(-log(u));
  }
}
static double draw_logistic(RandomState *rs, double loc, double scale) {
  for (;;) {
    double u = random_next_double(rs);
    if (u > 0.0) return loc + scale * log(u / (1.0 - u));
  }
}
static double draw_rayleigh(RandomState *rs, double scale, double b) {
  (void)b;
  return scale * sqrt(2.0 * random_standard_exponential(rs));
}
static double draw_weibull(RandomState *rs, double a, double b) {
  (void)b;
  if (a == 0.0) return 0.0;
  return pow(random_standard_exponential(rs), 1.0 / a);
}
static double draw_pareto(RandomState *rs, double a, double b) {
  (void)b;
  return exp(random_standard_exponential(rs) / a) - 1;
}
static double draw_power(RandomState *rs, double a, double b) {
  (void)b;
  return pow(1 - exp(-random_standard_exponential(rs)), 1.0 / a);
}
static int64_t draw_poisson(RandomState *rs, double lam, double b) {
  (void)b;
  return random_poisson(rs, lam);
}
static int64_t draw_geometric(RandomState *rs, double p, double b) {
  (void)b;
  return random_geometric(rs, p);
}

/* NumPy's checks of distribution parameters. */
typedef enum {
  CONS_NONE,
  CONS_NON_NEGATIVE,     /* "scale < 0": sign bit set (-0.0 too), NaN allowed */
  CONS_POSITIVE,         /* "a <= 0": NaN allowed */
  CONS_BOUNDED_GT_0_1,   /* "p <= 0, p > 1 or p contains NaNs" */
  CONS_POISSON,          /* "lam value too large" (NaN in arrays too), "lam < 0 or lam is
                            NaN" (0-d) / "... contains NaNs" (arrays); -0.0 allowed */
} Constraint;

typedef struct DistSpec {
  const char *name, *spec;     /* builtin name and args_parse spec; size= last */
  int nparams;                 /* 0..2 */
  const char *pname[2];        /* parameter names in messages */
  double def[2];               /* defaults of optional parameters */
  Constraint cons[2];
  Dist dist;
} DistSpec;

/* Checks every element of the float64 parameter t against cons; 0 or -1 (ValueError). */
static int check_constraint(Interp *I, Tensor *t, const char *name, Constraint cons) {
  const double lam_max = (double)INT64_MAX - sqrt((double)INT64_MAX) * 10;
  int64_t n = tensor_size(t), idx[TSR_MAXDIMS] = {0};
  for (int64_t i = 0; i < n; i++, next_index(t->ndim, t->shape, idx)) {
    double v = *(double *)tensor_at(t, idx);
    if ((i & 4095) == 4095 && ctx_work(interp_ctx(I), 4096, WORK_ELEMENT) < 0) return -1;
    switch (cons) {
    case CONS_NONE:
      break;
    case CONS_NON_NEGATIVE:
      if (!isnan(v) && signbit(v)) return IERR_VALUE(I, "%s < 0", name);
      break;
    case CONS_POSITIVE:
      if (v <= 0) return IERR_VALUE(I, "%s <= 0", name);
      break;
    case CONS_BOUNDED_GT_0_1:
      if (!(v > 0) || !(v <= 1))
        return IERR_VALUE(I, "%s <= 0, %s > 1 or %s contains NaNs", name, name, name);
      break;
    case CONS_POISSON:   /* 0-d: one check; arrays: two passes below */
      if (t->ndim == 0 && (isnan(v) || v < 0))
        return IERR_VALUE(I, "%s < 0 or %s is NaN", name, name);
      if (isnan(v) || v >= lam_max) return IERR_VALUE(I, "%s value too large", name);
      break;
    }
  }
  if (cons == CONS_POISSON) {   /* arrays: NaN and too large first, then negative */
    memset(idx, 0, sizeof idx);
    for (int64_t i = 0; i < n; i++, next_index(t->ndim, t->shape, idx)) {
      if (*(double *)tensor_at(t, idx) < 0)
        return IERR_VALUE(I, "%s < 0 or %s contains NaNs", name, name);
      if ((i & 4095) == 4095 && ctx_work(interp_ctx(I), 4096, WORK_ELEMENT) < 0) return -1;
    }
  }
  return 0;
}

static const DistSpec dist_specs[] = {
  {"standard_exponential", "size=", 0, {NULL, NULL}, {0, 0}, {CONS_NONE, CONS_NONE},
   {draw_standard_exponential, NULL}},
  {"exponential", "scale=,size=", 1, {"scale", NULL}, {1.0, 0}, {CONS_NON_NEGATIVE, CONS_NONE},
   {draw_exponential, NULL}},
  {"standard_gamma", "shape,size=", 1, {"shape", NULL}, {0, 0}, {CONS_NON_NEGATIVE, CONS_NONE},
   {draw_standard_gamma, NULL}},
  {"gamma", "shape,scale=,size=", 2, {"shape", "scale"}, {0, 1.0},
   {CONS_NON_NEGATIVE, CONS_NON_NEGATIVE}, {draw_gamma, NULL}},
  {"beta", "a,b,size=", 2, {"a", "b"}, {0, 0}, {CONS_POSITIVE, CONS_POSITIVE},
   {draw_beta, NULL}},
  {"chisquare", "df,size=", 1, {"df", NULL}, {0, 0}, {CONS_POSITIVE, CONS_NONE},
   {draw_chisquare, NULL}},
  {"f", "dfnum,dfden,size=", 2, {"dfnum", "dfden"}, {0, 0}, {CONS_POSITIVE, CONS_POSITIVE},
   {draw_f, NULL}},
  {"standard_t", "df,size=", 1, {"df", NULL}, {0, 0}, {CONS_POSITIVE, CONS_NONE},
   {draw_standard_t, NULL}},
  {"lognormal", "mean=,sigma=,size=", 2, {"mean", "sigma"}, {0.0, 1.0},
   {CONS_NONE, CONS_NON_NEGATIVE}, {draw_lognormal, NULL}},
  {"standard_cauchy", "size=", 0, {NULL, NULL}, {0, 0}, {CONS_NONE, CONS_NONE},
   {draw_standard_cauchy, NULL}},
  {"laplace", "loc=,scale=,size=", 2, {"loc", "scale"}, {0.0, 1.0},
   {CONS_NONE, CONS_NON_NEGATIVE}, {draw_laplace, NULL}},
  {"gumbel", "loc=,scale=,size=", 2, {"loc", "scale"}, {0.0, 1.0},
   {CONS_NONE, CONS_NON_NEGATIVE}, {draw_gumbel, NULL}},
  {"logistic", "loc=,scale=,size=", 2, {"loc", "scale"}, {0.0, 1.0},
   {CONS_NONE, CONS_NON_NEGATIVE}, {draw_logistic, NULL}},
  {"rayleigh", "scale=,size=", 1, {"scale", NULL}, {1.0, 0}, {CONS_NON_NEGATIVE, CONS_NONE},
   {draw_rayleigh, NULL}},
  {"weibull", "a,size=", 1, {"a", NULL}, {0, 0}, {CONS_NON_NEGATIVE, CONS_NONE},
   {draw_weibull, NULL}},
  {"pareto", "a,size=", 1, {"a", NULL}, {0, 0}, {CONS_POSITIVE, CONS_NONE},
   {draw_pareto, NULL}},
  {"power", "a,size=", 1, {"a", NULL}, {0, 0}, {CONS_POSITIVE, CONS_NONE},
   {draw_power, NULL}},
  {"poisson", "lam=,size=", 1, {"lam", NULL}, {1.0, 0}, {CONS_POISSON, CONS_NONE},
   {NULL, draw_poisson}},
  {"geometric", "p,size=", 1, {"p", NULL}, {0, 0}, {CONS_BOUNDED_GT_0_1, CONS_NONE},
   {NULL, draw_geometric}},
};
enum { DIST_COUNT = sizeof dist_specs / sizeof dist_specs[0] };

/* The builtin of dist_specs[k]: binds the parameters (float64, defaults filled in), checks
   them in order, and draws. */
static int dist_builtin(Interp *I, const Args *a, int k, Value *out) {
  const DistSpec *d = &dist_specs[k];
  Value s[3];
  if (args_parse(I, a, d->name, d->spec, s)) return -1;
  Tensor *p[2] = {NULL, NULL};
  int rc = -1;
  for (int i = 0; i < d->nparams; i++) {
    if (!(p[i] = float_param(I, s[i], d->def[i]))) goto done;
    if (check_constraint(I, p[i], d->pname[i], d->cons[i])) goto done;
  }
  rc = dist_draw(I, &d->dist, s[d->nparams], p[0], p[1], out);
done:
  tensor_release(p[0]);
  tensor_release(p[1]);
  return rc;
}

#define DIST_BUILTIN(k, name) \
  static int bi_##name(Interp *I, const Args *a, Value *out) { return dist_builtin(I, a, k, out); }
DIST_BUILTIN(0, standard_exponential)
DIST_BUILTIN(1, exponential)
DIST_BUILTIN(2, standard_gamma)
DIST_BUILTIN(3, gamma)
DIST_BUILTIN(4, beta)
DIST_BUILTIN(5, chisquare)
DIST_BUILTIN(6, f)
DIST_BUILTIN(7, standard_t)
DIST_BUILTIN(8, lognormal)
DIST_BUILTIN(9, standard_cauchy)
DIST_BUILTIN(10, laplace)
DIST_BUILTIN(11, gumbel)
DIST_BUILTIN(12, logistic)
DIST_BUILTIN(13, rayleigh)
DIST_BUILTIN(14, weibull)
DIST_BUILTIN(15, pareto)
DIST_BUILTIN(16, power)
DIST_BUILTIN(17, poisson)
DIST_BUILTIN(18, geometric)
_Static_assert(DIST_COUNT == 19, "one DIST_BUILTIN per dist_specs entry");

/* --------------------------------------------------------------------------------------------
** randint
*/

/* The closed bounds of an integer dtype, as long doubles (exact for every 64-bit value). */
static void dtype_bounds(DType dt, long double *lo, long double *hi) {
  switch (dt) {
  case TSR_BOOL: *lo = 0; *hi = 1; break;
  case TSR_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
  case TSR_INT16: *lo = INT16_MIN; *hi = INT16_MAX; break;
  case TSR_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
  case TSR_UINT8: *lo = 0; *hi = UINT8_MAX; break;
  case TSR_UINT16: *lo = 0; *hi = UINT16_MAX; break;
  case TSR_UINT32: *lo = 0; *hi = UINT32_MAX; break;
  case TSR_UINT64: *lo = 0; *hi = (long double)UINT64_MAX; break;
  default: *lo = (long double)INT64_MIN; *hi = (long double)INT64_MAX; break;
  }
}

/* Element p of dtype dt as a long double (exact for 64-bit integers). */
static long double get_ld(DType dt, const char *p) {
  if (dtype_is_float(dt)) return dtype_get_f64(dt, p);
  if (dt == TSR_UINT64) return (long double)dtype_get_u64(dt, p);
  return (long double)dtype_get_i64(dt, p);
}

/* Python's int() of a 0-d bound (floats truncate; NaN and infinity are errors). */
static int scalar_bound(Interp *I, Tensor *t, long double *out) {
  long double v = get_ld(t->dtype, tensor_data(t));
  if (dtype_is_float(t->dtype)) {
    if (isnan(v)) return IERR_VALUE(I, "cannot convert float NaN to integer");
    if (isinf(v))
      return ERR_OVERFLOW(interp_ctx(I), "cannot convert float infinity to integer");
    v = truncl(v);
  }
  *out = v;
  return 0;
}

/* The low-above-high message: "high <= 0" when every low is 0 (the one-argument form),
   else "low >= high". */
static int bounds_error(Interp *I, Tensor *low) {
  int64_t n = tensor_size(low), idx[TSR_MAXDIMS] = {0};
  for (int64_t i = 0; i < n; i++, next_index(low->ndim, low->shape, idx))
    if (get_ld(low->dtype, tensor_at(low, idx)) != 0) return IERR_VALUE(I, "low >= high");
  return IERR_VALUE(I, "high <= 0");
}

/* The two's complement bit pattern of an integral long double in [-2**63, 2**64). */
static uint64_t ld_bits(long double v) {
  return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
}

/* randint with two 0-d bounds: Python int() of each, bounds checked against the dtype. */
static int randint_scalar(Interp *I, Tensor *low, Tensor *high, DType dt, bool has_size, int nd,
                          const int64_t *shape, bool python_int, Value *out) {
  Ctx *c = interp_ctx(I);
  long double lo, hi, lb, hb;
  if (scalar_bound(I, low, &lo) || scalar_bound(I, high, &hi)) return -1;
  hi -= 1;
  dtype_bounds(dt, &lb, &hb);
  if (lo < lb) return IERR_VALUE(I, "low is out of bounds for %s", dtype_name(dt));
  if (hi > hb) return IERR_VALUE(I, "high is out of bounds for %s", dtype_name(dt));
  if (lo > hi) return IERR_VALUE(I, lo == 0 ? "high <= 0" : "low >= high");
  uint64_t off = ld_bits(lo), rng = ld_bits(hi) - off;
  RandomState *rs = state_of(I);
  RandomBuffer buf = {0, 0};
  if (!has_size) {
    uint64_t v = random_bounded(rs, dt, off, rng, &buf);
    if (python_int) {
      *out = v_int((int64_t)v);
      return 0;
    }
    Tensor *t = tensor_empty(c, dt, 0, NULL);
    if (!t) return -1;
    dtype_set_u64(dt, tensor_data(t), v);
    return ret_tensor(t, out);
  }
  Tensor *t = tensor_empty(c, dt, nd, shape);
  if (!t) return -1;
  char *d = tensor_data(t);
  size_t item = dtype_size(dt);
  int64_t n = tensor_size(t);
  for (int64_t i = 0; i < n; i++) {
    dtype_set_u64(dt, d + (size_t)i * item, random_bounded(rs, dt, off, rng, &buf));
    if (poll_draws(I, i)) {
      tensor_release(t);
      return -1;
    }
  }
  return ret_tensor(sized_result(t, has_size), out);
}

/* randint with array bounds: every pair of broadcast bounds draws one value, in C order. */
static int randint_broadcast(Interp *I, Tensor *low, Tensor *high, DType dt, bool has_size,
                             int nd, const int64_t *shape, Value *out) {
  Ctx *c = interp_ctx(I);
  long double lb, hb;
  dtype_bounds(dt, &lb, &hb);
  int64_t idx[TSR_MAXDIMS] = {0};
  int64_t n = tensor_size(low);
  for (int64_t i = 0; i < n; i++, next_index(low->ndim, low->shape, idx))
    if (get_ld(low->dtype, tensor_at(low, idx)) < lb)
      return IERR_VALUE(I, "low is out of bounds for %s", dtype_name(dt));
  memset(idx, 0, sizeof idx);
  n = tensor_size(high);
  for (int64_t i = 0; i < n; i++, next_index(high->ndim, high->shape, idx))
    if (get_ld(high->dtype, tensor_at(high, idx)) - 1 > hb)
      return IERR_VALUE(I, "high is out of bounds for %s", dtype_name(dt));
  int nds[3] = {low->ndim, high->ndim, nd}, bnd;
  const int64_t *shapes[3] = {low->shape, high->shape, shape};
  int64_t bshape[TSR_MAXDIMS];
  if (broadcast_args(I, 2, nds, shapes, 0, &bnd, bshape)) return -1;
  Tensor *vl = tensor_broadcast_to(c, low, bnd, bshape);
  Tensor *vh = vl ? tensor_broadcast_to(c, high, bnd, bshape) : NULL;
  if (!vh) {
    tensor_release(vl);
    return -1;
  }
  int rc = -1;
  Tensor *t = NULL;
  memset(idx, 0, sizeof idx);
  n = tensor_size(vl);
  for (int64_t i = 0; i < n; i++, next_index(bnd, bshape, idx))
    if (get_ld(vl->dtype, tensor_at(vl, idx)) > get_ld(vh->dtype, tensor_at(vh, idx)) - 1) {
      bounds_error(I, low);
      goto done;
    }
  if (has_size) {
    /* NumPy iterates the broadcast of (low, high, out) for out.size steps */
    if (broadcast_args(I, 3, nds, shapes, 0, &bnd, bshape)) goto done;
    tensor_release(vl);
    tensor_release(vh);
    vh = NULL;
    if (!(vl = tensor_broadcast_to(c, low, bnd, bshape)) ||
        !(vh = tensor_broadcast_to(c, high, bnd, bshape)) ||
        !(t = tensor_empty(c, dt, nd, shape)))
      goto done;
  } else if (!(t = tensor_empty(c, dt, bnd, bshape))) {
    goto done;
  }
  RandomState *rs = state_of(I);
  RandomBuffer buf = {0, 0};
  char *d = tensor_data(t);
  size_t item = dtype_size(dt);
  n = tensor_size(t);
  memset(idx, 0, sizeof idx);
  for (int64_t i = 0; i < n; i++, next_index(bnd, bshape, idx)) {
    long double lo = get_ld(vl->dtype, tensor_at(vl, idx));
    long double hi = get_ld(vh->dtype, tensor_at(vh, idx));
    uint64_t off = ld_bits(truncl(lo)), top = ld_bits(truncl(hi)) - 1;
    dtype_set_u64(dt, d + (size_t)i * item, random_bounded(rs, dt, off, top - off, &buf));
    if (poll_draws(I, i)) goto done;
  }
  rc = 0;
done:
  tensor_release(vl);
  tensor_release(vh);
  if (rc) tensor_release(t);
  else *out = v_tensor(sized_result(t, has_size));
  return rc;
}

/* randint(low, high=None, size=None, dtype=int): integers in [low, high) (or [0, low)) by
   NumPy's legacy masked rejection sampling for the dtype.  ValueError "low >= high",
   "high <= 0", "low is out of bounds for int8" ...; TypeError "Unsupported dtype
   dtype('float64') for randint". */
static int bi_randint(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "randint", "low,high=,size=,dtype=", s)) return -1;
  Ctx *c = interp_ctx(I);
  int dt = TSR_INT64;
  if (value_to_dtype(I, s[3], &dt)) return -1;
  if (dtype_is_float((DType)dt))
    return ERR_TYPE(c, "Unsupported dtype dtype('%s') for randint", dtype_name((DType)dt));
  bool has_size;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (get_size(I, s[2], &has_size, &nd, shape)) return -1;
  Tensor *low, *high;
  if (given(s[1])) {
    low = value_to_tensor_strong(I, s[0], -1);
    high = low ? value_to_tensor_strong(I, s[1], -1) : NULL;
  } else {
    low = tensor_scalar_i64(c, TSR_INT64, 0);
    high = low ? value_to_tensor_strong(I, s[0], -1) : NULL;
  }
  int rc = -1;
  if (high) {
    if (low->ndim == 0 && high->ndim == 0)
      rc = randint_scalar(I, low, high, (DType)dt, has_size, nd, shape, !given(s[3]), out);
    else
      rc = randint_broadcast(I, low, high, (DType)dt, has_size, nd, shape, out);
  }
  tensor_release(low);
  tensor_release(high);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** shuffle, permutation, choice
*/

/* The order legacy shuffle gives n items: Fisher-Yates from the end, swapping item i with
   item random_interval(i).  perm (n entries) receives the shuffled 0..n-1.  0, or -1 when
   interrupted. */
static int shuffled_range(Interp *I, int64_t *perm, int64_t n) {
  RandomState *rs = state_of(I);
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)random_interval(rs, (uint64_t)i);
    int64_t tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
    if (poll_draws(I, i)) return -1;
  }
  return 0;
}

/* A new int64 tensor holding the legacy shuffle of arange(n) (n < 0 gives an empty one). */
static Tensor *permuted_arange(Interp *I, int64_t n) {
  int64_t len = n < 0 ? 0 : n;
  Tensor *t = tensor_empty(interp_ctx(I), TSR_INT64, 1, &len);
  if (t && shuffled_range(I, (int64_t *)tensor_data(t), len)) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

/* x[perm] along the first axis (a copy); new reference or NULL. */
static Tensor *take_rows(Interp *I, Tensor *x, Tensor *perm) {
  IndexItem it;
  memset(&it, 0, sizeof it);
  it.kind = IDX_ARRAY;
  it.array = perm;
  return index_get(interp_ctx(I), x, &it, 1);
}

/* shuffle(x): permutes a tensor along its first axis, or a list, in place. */
static int bi_shuffle(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (a->nkw) return IERR_TYPE(I, "RandomState.shuffle() takes no keyword arguments");
  if (args_parse(I, a, "shuffle", "x", s)) return -1;
  Value x = s[0];
  if (x.type == V_LIST) {
    List *l = as_list(x);
    RandomState *rs = state_of(I);
    for (int64_t i = l->n - 1; i > 0; i--) {
      int64_t j = (int64_t)random_interval(rs, (uint64_t)i);
      Value tmp = l->items[i];
      l->items[i] = l->items[j];
      l->items[j] = tmp;
    }
    *out = v_none();
    return 0;
  }
  if (x.type != V_TENSOR) {
    if (x.type == V_TUPLE)
      return IERR_TYPE(I, "'tuple' object does not support item assignment");
    return IERR_TYPE(I, "object of type '%s' has no len()", value_type_name(x));
  }
  Tensor *t = x.t;
  if (t->ndim == 0) return IERR_TYPE(I, "len() of unsized object");
  Ctx *c = interp_ctx(I);
  if (tensor_check_writable(c, t)) return -1;
  Tensor *perm = permuted_arange(I, t->shape[0]);
  Tensor *g = perm ? take_rows(I, t, perm) : NULL;
  int rc = g ? tensor_assign(c, t, g) : -1;
  tensor_release(perm);
  tensor_release(g);
  if (rc == 0) *out = v_none();
  return rc;
}

/* Is v an integer (a Python int or bool, or an integer NumPy scalar)? */
static bool is_integer(Value v) {
  if (v.type == V_INT || v.type == V_BOOL) return true;
  return v.type == V_TENSOR && v.t->ndim == 0 && dtype_is_int(v.t->dtype);
}

/* permutation(x): a shuffled arange(x) for an integer x, else a shuffled copy of the array
   along its first axis.  IndexError "x must be an integer or at least 1-dimensional". */
static int bi_permutation(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (a->nkw) return IERR_TYPE(I, "RandomState.permutation() takes no keyword arguments");
  if (args_parse(I, a, "permutation", "x", s)) return -1;
  if (is_integer(s[0])) {
    int64_t n;
    if (value_to_int(I, s[0], &n)) return -1;
    return ret_tensor(permuted_arange(I, n), out);
  }
  Tensor *x = arg_tensor(I, s[0]);
  if (!x) return -1;
  Tensor *r = NULL;
  if (x->ndim == 0) {
    ctx_err(interp_ctx(I), TSR_ERR_INDEX, "IndexError",
            "x must be an integer or at least 1-dimensional");
  } else {
    Tensor *perm = permuted_arange(I, x->shape[0]);
    if (perm) r = take_rows(I, x, perm);
    tensor_release(perm);
  }
  tensor_release(x);
  return ret_tensor(r, out);
}

/* Sum of n doubles by Kahan's compensated summation (NumPy's check that p sums to 1). */
static double kahan_sum(const double *x, int64_t n) {
  if (n <= 0) return 0.0;
  double sum = x[0], comp = 0.0;
  for (int64_t i = 1; i < n; i++) {
    double y = x[i] - comp, t = sum + y;
    comp = (t - sum) - y;
    sum = t;
  }
  return sum;
}

/* The cumulative distribution of p (n entries): running sums, divided by the last. */
static void make_cdf(const double *p, double *cdf, int64_t n) {
  double acc = 0.0;
  for (int64_t i = 0; i < n; i++) cdf[i] = acc += p[i];
  double last = cdf[n - 1];
  for (int64_t i = 0; i < n; i++) cdf[i] /= last;
}

/* searchsorted(cdf, u, side='right'): the number of entries <= u. */
static int64_t search_right(const double *cdf, int64_t n, double u) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] <= u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Checks choice's p= against the population size (NumPy's messages, in NumPy's order) and
   returns it as a contiguous float64 tensor (new reference) or NULL. */
static Tensor *choice_p(Interp *I, Value pv, int64_t pop_size) {
  Ctx *c = interp_ctx(I);
  if (pv.type != V_LIST && pv.type != V_TUPLE && pv.type != V_TENSOR) {
    ERR_TYPE(c, "object of type '%s' has no len()", value_type_name(pv));
    return NULL;
  }
  if (pv.type == V_TENSOR && pv.t->ndim == 0) {
    ERR_TYPE(c, "len() of unsized object");
    return NULL;
  }
  double atol = sqrt(2.220446049250313e-16);
  if (pv.type == V_TENSOR && pv.t->dtype == TSR_FLOAT32) atol = fmax(atol, sqrt(1.1920929e-07));
  Tensor *p = value_to_tensor_strong(I, pv, TSR_FLOAT64);
  Tensor *pc = p ? tensor_contiguous(c, p, TSR_FLOAT64) : NULL;
  tensor_release(p);
  if (!pc) return NULL;
  const double *d = (const double *)tensor_data(pc);
  int64_t n = tensor_size(pc);
  double sum = 0.0;
  if (pc->ndim != 1) ERR_VALUE(c, "'p' must be 1-dimensional");
  else if (n != pop_size) ERR_VALUE(c, "'a' and 'p' must have same size");
  else if (isnan(sum = kahan_sum(d, n))) ERR_VALUE(c, "probabilities contain NaN");
  if (c->status != TSR_OK) goto fail;
  for (int64_t i = 0; i < n; i++)
    if (d[i] < 0) {
      ERR_VALUE(c, "probabilities are not non-negative");
      goto fail;
    }
  if (fabs(sum - 1.0) > atol) {
    ERR_VALUE(c, "probabilities do not sum to 1");
    goto fail;
  }
  return pc;
fail:
  tensor_release(pc);
  return NULL;
}

/* Sampling without replacement by weights p (pop_size entries, a private copy that is
   modified): rounds of random_sample draws mapped through the renormalised cdf, keeping each
   new index once in order of first appearance, until n indices are found. */
static int choice_weighted_unique(Interp *I, double *p, int64_t pop_size, int64_t *found,
                                  int64_t n) {
  Ctx *c = interp_ctx(I);
  RandomState *rs = state_of(I);
  size_t bytes = (size_t)pop_size * (sizeof(double) + 1);
  double *cdf = ctx_malloc(c, bytes);
  if (!cdf) return -1;
  unsigned char *seen = (unsigned char *)(cdf + pop_size);
  int64_t n_uniq = 0, draws = 0;
  int rc = 0;
  while (n_uniq < n && rc == 0) {
    int64_t want = n - n_uniq;
    for (int64_t k = 0; k < n_uniq; k++) p[found[k]] = 0.0;
    make_cdf(p, cdf, pop_size);
    memset(seen, 0, (size_t)pop_size);
    for (int64_t k = 0; k < want && rc == 0; k++) {
      int64_t j = search_right(cdf, pop_size, random_next_double(rs));
      rc = poll_draws(I, draws++);
      if (j >= pop_size) j = pop_size - 1;   /* unreachable: u < 1 == cdf[pop_size - 1] */
      if (!seen[j]) {
        seen[j] = 1;
        found[n_uniq++] = j;
      }
    }
  }
  ctx_free(c, cdf, bytes);
  return rc;
}

/* choice(a, size=None, replace=True, p=None): samples from arange(a) (an integer a) or the
   elements of a 1-d array, as NumPy's legacy choice draws them. */
static int bi_choice(Interp *I, const Args *a, Value *out) {
  Value s[4];
  if (args_parse(I, a, "choice", "a,size=,replace=,p=", s)) return -1;
  Ctx *c = interp_ctx(I);
  bool replace, has_size;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (get_bool(I, s[2], true, &replace) || get_size(I, s[1], &has_size, &nd, shape)) return -1;
  Tensor *arr = arg_tensor(I, s[0]);
  if (!arr) return -1;
  int64_t pop_size, size;
  if (shape_count(nd, shape, sizeof(int64_t), &size) < 0) {   /* before any draw */
    tensor_release(arr);
    return err_too_big(c);
  }
  bool from_int = arr->ndim == 0;
  Tensor *p = NULL, *idx = NULL, *r = NULL;
  int rc = -1;
  if (from_int) {
    if (!dtype_is_int(arr->dtype) && arr->dtype != TSR_BOOL) {
      ERR_VALUE(c, "a must be 1-dimensional or an integer");
      goto done;
    }
    pop_size = dtype_get_i64(arr->dtype, tensor_data(arr));
    if (pop_size <= 0 && (!has_size || size != 0)) {
      ERR_VALUE(c, "a must be greater than 0 unless no samples are taken");
      goto done;
    }
  } else if (arr->ndim != 1) {
    ERR_VALUE(c, "a must be 1-dimensional");
    goto done;
  } else {
    pop_size = arr->shape[0];
    if (pop_size == 0 && (!has_size || size != 0)) {
      ERR_VALUE(c, "'a' cannot be empty unless no samples are taken");
      goto done;
    }
  }
  if (given(s[3]) && !(p = choice_p(I, s[3], pop_size))) goto done;
  if (!(idx = tensor_empty(c, TSR_INT64, nd, shape))) goto done;
  int64_t *ix = (int64_t *)tensor_data(idx);
  RandomState *rs = state_of(I);
  if (replace) {
    if (p) {
      double *cdf = ctx_malloc(c, (size_t)pop_size * sizeof(double));
      if (!cdf) goto done;
      make_cdf((const double *)tensor_data(p), cdf, pop_size);
      int64_t k = 0;
      for (; k < size; k++) {
        ix[k] = search_right(cdf, pop_size, random_next_double(rs));
        if (poll_draws(I, k)) break;
      }
      ctx_free(c, cdf, (size_t)pop_size * sizeof(double));
      if (k < size) goto done;
    } else {
      RandomBuffer buf = {0, 0};
      for (int64_t k = 0; k < size; k++) {
        ix[k] = (int64_t)random_bounded(rs, TSR_INT64, 0, (uint64_t)(pop_size - 1), &buf);
        if (poll_draws(I, k)) goto done;
      }
    }
  } else {
    if (size > pop_size) {
      ERR_VALUE(c, "Cannot take a larger sample than population when 'replace=False'");
      goto done;
    }
    if (p) {
      const double *pd = (const double *)tensor_data(p);
      int64_t nonzero = 0;
      for (int64_t k = 0; k < pop_size; k++) nonzero += pd[k] > 0;
      if (nonzero < size) {
        ERR_VALUE(c, "Fewer non-zero entries in p than size");
        goto done;
      }
      Tensor *pcopy = tensor_copy(c, p);
      if (!pcopy) goto done;
      tensor_release(p);
      p = pcopy;
      if (choice_weighted_unique(I, (double *)tensor_data(p), pop_size, ix, size)) goto done;
    } else {
      Tensor *perm = permuted_arange(I, pop_size);
      if (!perm) goto done;
      memcpy(ix, tensor_data(perm), (size_t)size * sizeof(int64_t));
      tensor_release(perm);
    }
  }
  if (from_int) {
    if (!has_size) *out = v_int(ix[0]);
    else *out = v_tensor(sized_result(tensor_retain(idx), true));
    rc = 0;
    goto done;
  }
  if (!(r = tensor_empty(c, arr->dtype, nd, shape))) goto done;
  size_t item = dtype_size(arr->dtype);
  for (int64_t k = 0; k < size; k++) {
    int64_t at = ix[k];
    memcpy(tensor_data(r) + (size_t)k * item, tensor_at(arr, &at), item);
  }
  *out = v_tensor(sized_result(r, has_size));
  rc = 0;
done:
  tensor_release(arr);
  tensor_release(p);
  tensor_release(idx);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** get_state, set_state
*/

/* get_state(legacy=True): the tuple ('MT19937', key (624 uint32), pos, has_gauss,
   cached_gaussian), as NumPy's legacy state.  legacy=False (a dict) is not supported. */
static int bi_get_state(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "get_state", "legacy=", s)) return -1;
  bool legacy;
  if (get_bool(I, s[0], true, &legacy)) return -1;
  if (!legacy) return IERR_VALUE(I, "get_state(legacy=False) is not supported by tsr");
  RandomState *rs = state_of(I);
  if (!rs->seeded) random_seed_entropy(rs);
  int64_t n = RANDOM_MT_N;
  Tensor *key = tensor_empty(interp_ctx(I), TSR_UINT32, 1, &n);
  if (!key) return -1;
  memcpy(tensor_data(key), rs->key, sizeof rs->key);
  Value tup = value_tuple(I, 5);
  Value name = tup.type == V_UNDEF ? tup : value_str(I, "MT19937", 7);
  if (name.type == V_UNDEF) {
    value_decref(tup);
    tensor_release(key);
    return -1;
  }
  List *l = as_list(tup);
  l->items[0] = name;
  l->items[1] = v_tensor(key);
  l->items[2] = v_int(rs->pos);
  l->items[3] = v_int(rs->has_gauss);
  l->items[4] = v_float(rs->gauss);
  *out = tup;
  return 0;
}

/* set_state(state): restores a tuple from get_state ('MT19937', key, pos[, has_gauss,
   cached_gaussian]).  TypeError "state must be a dict or a tuple."; ValueError for another
   generator's name, a key that is not 624 integers or a pos outside [0, 624]. */
static int bi_set_state(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "set_state", "state", s)) return -1;
  if (s[0].type != V_TUPLE) return IERR_TYPE(I, "state must be a dict or a tuple.");
  List *l = as_list(s[0]);
  if (l->n < 1 || l->items[0].type != V_STR || strcmp(as_str(l->items[0])->s, "MT19937") != 0)
    return IERR_VALUE(I, "set_state can only be used with legacy MT19937state instances.");
  if (l->n != 3 && l->n != 5)
    return IERR_VALUE(I, "state must be a 3-tuple or a 5-tuple, not a %lld-tuple",
                      (long long)l->n);
  int64_t pos, has_gauss = 0;
  double cached = 0.0;
  if (value_to_int(I, l->items[2], &pos)) return -1;
  if (l->n == 5 &&
      (value_to_int(I, l->items[3], &has_gauss) || value_to_double(I, l->items[4], &cached)))
    return -1;
  if (pos < 0 || pos > RANDOM_MT_N) return IERR_VALUE(I, "pos must be between 0 and 624");
  Tensor *key = value_to_tensor_strong(I, l->items[1], -1);
  if (!key) return -1;
  int rc = -1;
  if (!dtype_is_int(key->dtype) || key->ndim != 1 || key->shape[0] != RANDOM_MT_N) {
    IERR_VALUE(I, "state must be 624 elements");
  } else {
    RandomState *rs = state_of(I);
    for (int64_t i = 0; i < RANDOM_MT_N; i++)
      rs->key[i] = (uint32_t)dtype_get_u64(key->dtype, tensor_at(key, &i));
    rs->pos = (int)pos;
    rs->seeded = true;
    rs->has_gauss = has_gauss != 0;
    rs->gauss = cached;
    *out = v_none();
    rc = 0;
  }
  tensor_release(key);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** The table
*/

const Builtin builtins_random_table[] = {
  {"random", "seed", bi_seed, "seed(seed=None)\n\nSeed the legacy MT19937 generator: an int in "
   "[0, 2**32) or a 1-d sequence of them; None draws a seed from the OS."},
  {"random", "rand", bi_rand, "rand(d0, d1, ..., dn)\n\nRandom values in [0, 1) of the given "
   "shape."},
  {"random", "randn", bi_randn, "randn(d0, d1, ..., dn)\n\nStandard normal samples of the "
   "given shape."},
  {"random", "random_sample", bi_random_sample, "random_sample(size=None)\n\nRandom floats in "
   "the half-open interval [0.0, 1.0)."},
  {"random", "random", bi_random, "random(size=None)\n\nRandom floats in the half-open "
   "interval [0.0, 1.0)."},
  {"random", "ranf", bi_ranf, "ranf(size=None)\n\nAn alias of random_sample."},
  {"random", "sample", bi_sample, "sample(size=None)\n\nAn alias of random_sample."},
  {"random", "standard_normal", bi_standard_normal, "standard_normal(size=None)\n\nSamples "
   "from a standard Normal distribution (mean=0, stdev=1)."},
  {"random", "uniform", bi_uniform, "uniform(low=0.0, high=1.0, size=None)\n\nSamples "
   "uniformly distributed over [low, high)."},
  {"random", "normal", bi_normal, "normal(loc=0.0, scale=1.0, size=None)\n\nSamples from a "
   "normal (Gaussian) distribution."},
  {"random", "randint", bi_randint, "randint(low, high=None, size=None, dtype=int)\n\nRandom "
   "integers from low (inclusive) to high (exclusive)."},
  {"random", "permutation", bi_permutation, "permutation(x)\n\nRandomly permute a sequence, "
   "or return a permuted range."},
  {"random", "shuffle", bi_shuffle, "shuffle(x)\n\nModify a sequence in-place by shuffling "
   "its contents (along the first axis)."},
  {"random", "choice", bi_choice, "choice(a, size=None, replace=True, p=None)\n\nGenerates a "
   "random sample from a given 1-D array."},
  {"random", "standard_exponential", bi_standard_exponential, "standard_exponential(size=None)"
   "\n\nSamples from the standard exponential distribution."},
  {"random", "exponential", bi_exponential, "exponential(scale=1.0, size=None)\n\nSamples "
   "from an exponential distribution."},
  {"random", "standard_gamma", bi_standard_gamma, "standard_gamma(shape, size=None)\n\n"
   "Samples from a standard Gamma distribution."},
  {"random", "gamma", bi_gamma, "gamma(shape, scale=1.0, size=None)\n\nSamples from a Gamma "
   "distribution."},
  {"random", "beta", bi_beta, "beta(a, b, size=None)\n\nSamples from a Beta distribution."},
  {"random", "chisquare", bi_chisquare, "chisquare(df, size=None)\n\nSamples from a "
   "chi-square distribution."},
  {"random", "f", bi_f, "f(dfnum, dfden, size=None)\n\nSamples from an F distribution."},
  {"random", "standard_t", bi_standard_t, "standard_t(df, size=None)\n\nSamples from a "
   "Student's t distribution with df degrees of freedom."},
  {"random", "lognormal", bi_lognormal, "lognormal(mean=0.0, sigma=1.0, size=None)\n\n"
   "Samples from a log-normal distribution."},
  {"random", "standard_cauchy", bi_standard_cauchy, "standard_cauchy(size=None)\n\nSamples "
   "from a standard Cauchy distribution with mode = 0."},
  {"random", "laplace", bi_laplace, "laplace(loc=0.0, scale=1.0, size=None)\n\nSamples from "
   "the Laplace or double exponential distribution."},
  {"random", "gumbel", bi_gumbel, "gumbel(loc=0.0, scale=1.0, size=None)\n\nSamples from a "
   "Gumbel distribution."},
  {"random", "logistic", bi_logistic, "logistic(loc=0.0, scale=1.0, size=None)\n\nSamples "
   "from a logistic distribution."},
  {"random", "rayleigh", bi_rayleigh, "rayleigh(scale=1.0, size=None)\n\nSamples from a "
   "Rayleigh distribution."},
  {"random", "weibull", bi_weibull, "weibull(a, size=None)\n\nSamples from a Weibull "
   "distribution."},
  {"random", "pareto", bi_pareto, "pareto(a, size=None)\n\nSamples from a Pareto II or Lomax "
   "distribution with specified shape."},
  {"random", "power", bi_power, "power(a, size=None)\n\nSamples in [0, 1] from a power "
   "distribution with positive exponent a - 1."},
  {"random", "poisson", bi_poisson, "poisson(lam=1.0, size=None)\n\nSamples from a Poisson "
   "distribution."},
  {"random", "geometric", bi_geometric, "geometric(p, size=None)\n\nSamples from the "
   "geometric distribution."},
  {"random", "get_state", bi_get_state, "get_state(legacy=True)\n\nThe generator's state: "
   "('MT19937', key (624 uint32), pos, has_gauss, cached_gaussian)."},
  {"random", "set_state", bi_set_state, "set_state(state)\n\nRestore a state returned by "
   "get_state."},
  {NULL, NULL, NULL, NULL}
};
