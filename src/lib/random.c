/*
** random.c -- Python's random module: CPython's Mersenne Twister stream (the same MT19937 as
** numpy's legacy one, in a state of its own, seeded as CPython seeds it) and the functions of
** CPython 3.11's Lib/random.py built on it, drawing the same numbers in the same order, so that
** random.seed(n) gives CPython's values: random, getrandbits, randrange, randint, choice,
** choices, shuffle, sample, uniform, triangular, gauss, normalvariate, lognormvariate,
** expovariate.
**
** Not yet: str/bytes seeds (CPython hashes them with SHA-512), getstate/setstate, the Random
** class, the rarer distributions (betavariate, gammavariate, vonmisesvariate ...).
*/
#include "lib.h"

#include <math.h>
#include <string.h>

static RandomState *state(Interp *I) { return &I->py_random; }

/* Python's hash of a float (the numeric hash of the language reference: the value modulo the
   Mersenne prime 2**61 - 1, signed, -1 mapped to -2), which seeds the stream for float seeds. */
static int64_t hash_double(double v) {
  const uint64_t P = ((uint64_t)1 << 61) - 1;
  if (isinf(v)) return v > 0 ? 314159 : -314159;
  int e;
  double m = frexp(fabs(v), &e);
  uint64_t x = 0;
  while (m) {
    x = ((x << 28) & P) | x >> (61 - 28);
    m *= 268435456.0;   /* 2**28 */
    e -= 28;
    uint64_t y = (uint64_t)m;
    m -= (double)y;
    x += y;
    if (x >= P) x -= P;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  x = ((x << e) & P) | x >> (61 - e);
  int64_t h = v < 0 ? -(int64_t)x : (int64_t)x;
  return h == -1 ? -2 : h;
}

/* seed(n): init_by_array over the 32-bit words of |n|, least significant first. */
static void seed_int(Interp *I, uint64_t n) {
  uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
  random_seed_by_array(state(I), key, key[1] ? 2 : 1);
  I->py_gauss_valid = false;
}

static int rnd_seed(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "seed", "a=,version=", s)) return -1;
  Value v = s[0];
  if (v.type == V_UNDEF || v.type == V_NONE) {
    random_seed_entropy(state(I));
    I->py_gauss_valid = false;
  } else if (v.type == V_BOOL || v.type == V_INT ||
             (v.type == V_TENSOR && dtype_is_int(v.t->dtype) && tensor_size(v.t) == 1)) {
    int64_t n;
    if (value_to_int(I, v, &n)) return -1;
    seed_int(I, n < 0 ? 0 - (uint64_t)n : (uint64_t)n);
  } else if (v.type == V_FLOAT) {
    if (isnan(v.f)) return IERR_TYPE(I, "tsr: a NaN seed is not supported (CPython hashes it "
                                     "by identity)");
    int64_t h = hash_double(v.f);
    seed_int(I, h < 0 ? 0 - (uint64_t)h : (uint64_t)h);
  } else if (v.type == V_STR) {
    return IERR_TYPE(I, "tsr: str seeds are not supported yet");
  } else {
    return IERR_TYPE(I, "The only supported seed types are: None,\nint, float, str, bytes, "
                     "and bytearray.");
  }
  *out = v_none();
  return 0;
}

static double next_random(Interp *I) { return random_next_double(state(I)); }

static int rnd_random(Interp *I, const Args *a, Value *out) {
  if (a->npos || a->nkw) return IERR_TYPE(I, "random() takes no arguments");
  *out = v_float(next_random(I));
  return 0;
}

/* getrandbits(k), 0 <= k <= 64: 32-bit draws, least significant word first, the last one cut
   to the bits still wanted. */
static uint64_t getrandbits(Interp *I, int k) {
  if (k == 0) return 0;
  if (k <= 32) return random_next_uint32(state(I)) >> (32 - k);
  uint64_t lo = random_next_uint32(state(I));
  uint64_t hi = random_next_uint32(state(I)) >> (64 - k);
  return lo | hi << 32;
}

static int rnd_getrandbits(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t k;
  if (args_parse(I, a, "getrandbits", "k", s) || value_to_int(I, s[0], &k)) return -1;
  if (k < 0) return IERR_VALUE(I, "number of bits must be non-negative");
  if (k > 63) return ERR_OVERFLOW(interp_ctx(I), "tsr: getrandbits beyond 63 bits needs Python's "
                                  "big ints, not supported yet");
  *out = v_int((int64_t)getrandbits(I, (int)k));
  return 0;
}

/* _randbelow(n), n >= 1: getrandbits(n.bit_length()) until below n. */
static uint64_t randbelow(Interp *I, uint64_t n) {
  int k = 64 - __builtin_clzll(n);
  uint64_t r = getrandbits(I, k);
  while (r >= n) r = getrandbits(I, k);
  return r;
}

/* An integer argument of randrange: an int, or a float with an integral value (CPython 3.11
   still converts those); ValueError "non-integer arg 1 for randrange()" otherwise. */
static int arg_int(Interp *I, Value v, const char *what, int64_t *out) {
  if (v.type == V_FLOAT) {
    if (v.f != floor(v.f) || !isfinite(v.f))
      return IERR_VALUE(I, "non-integer %s for randrange()", what);
    *out = (int64_t)v.f;
    return 0;
  }
  return value_to_int(I, v, out);
}

static int randrange(Interp *I, Value start_v, Value stop_v, Value step_v, Value *out) {
  int64_t start, stop, step = 1, width;
  if (arg_int(I, start_v, "arg 1", &start)) return -1;
  if (step_v.type != V_UNDEF && arg_int(I, step_v, "step", &step)) return -1;
  if (stop_v.type == V_UNDEF || stop_v.type == V_NONE) {
    if (step != 1) return IERR_TYPE(I, "Missing a non-None stop argument");
    if (start > 0) { *out = v_int((int64_t)randbelow(I, (uint64_t)start)); return 0; }
    return IERR_VALUE(I, "empty range for randrange()");
  }
  if (arg_int(I, stop_v, "stop", &stop)) return -1;
  if (__builtin_sub_overflow(stop, start, &width))
    return ERR_OVERFLOW(interp_ctx(I), "tsr: randrange width beyond 64 bits");
  if (step == 1) {
    if (width > 0) { *out = v_int(start + (int64_t)randbelow(I, (uint64_t)width)); return 0; }
    return IERR_VALUE(I, "empty range for randrange() (%lld, %lld, %lld)", (long long)start,
                      (long long)stop, (long long)width);
  }
  if (step == 0) return IERR_VALUE(I, "zero step for randrange()");
  /* Python's ceiling division, without the overflow of width + step - 1 */
  uint64_t n = progression_count(start, stop, step);
  if (n == 0) return IERR_VALUE(I, "empty range for randrange()");
  *out = v_int(progression_item(start, step, randbelow(I, n)));
  return 0;
}

static int rnd_randrange(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "randrange", "start,stop=,step=", s)) return -1;
  return randrange(I, s[0], s[1], s[2], out);
}

static int rnd_randint(Interp *I, const Args *a, Value *out) {
  Value s[2];
  int64_t b;
  if (args_parse(I, a, "randint", "a,b", s) || arg_int(I, s[1], "stop", &b)) return -1;
  if (b == INT64_MAX) return ERR_OVERFLOW(interp_ctx(I), "tsr: randint bound beyond 64 bits");
  return randrange(I, s[0], v_int(b + 1), v_undef(), out);
}

/* The length of a sequence argument (list, tuple, str, range, ndarray). */
static int seq_len(Interp *I, Value v, int64_t *n) {
  if (v.type != V_LIST && v.type != V_TUPLE && v.type != V_STR && v.type != V_RANGE &&
      v.type != V_TENSOR)
    return IERR_TYPE(I, "Population must be a sequence.  For dicts or sets, use sorted(d).");
  return interp_iter_len(I, v, n);
}

static int rnd_choice(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t n;
  if (args_parse(I, a, "choice", "seq", s) || interp_iter_len(I, s[0], &n)) return -1;
  if (n == 0) return ERR_INDEX(interp_ctx(I), "Cannot choose from an empty sequence");
  return interp_iter_item(I, s[0], (int64_t)randbelow(I, (uint64_t)n), out);
}

/* shuffle(x): for i from len-1 down to 1, swap x[i] with x[j], j = _randbelow(i + 1).  On an
   ndarray this is `x[i], x[j] = x[j], x[i]` as Python runs it: elements swap, but rows of a 2-d
   array are views, so row j is copied over row i and row j stays (NumPy users meet this). */
static int rnd_shuffle(Interp *I, const Args *a, Value *out) {
  Value s[1];
  int64_t n;
  if (args_parse(I, a, "shuffle", "x", s)) return -1;
  Value x = s[0];
  if (x.type != V_LIST && x.type != V_TENSOR)
    return IERR_TYPE(I, "'%s' object does not support item assignment", value_type_name(x));
  if (interp_iter_len(I, x, &n)) return -1;
  Ctx *c = interp_ctx(I);
  for (int64_t i = n - 1; i >= 1; i--) {
    if (((n - 1 - i) & 4095) == 0 &&   /* the step budget: a draw and a swap, per 4096 */
        ctx_work(c, (uint64_t)(i < 4096 ? i : 4096), WORK_SAMPLE))
      return -1;
    int64_t j = (int64_t)randbelow(I, (uint64_t)i + 1);
    if (x.type == V_LIST) {
      Value *it = as_list(x)->items, t = it[i];
      it[i] = it[j];
      it[j] = t;
      continue;
    }
    if (x.t->readonly) return IERR_VALUE(I, "assignment destination is read-only");
    if (x.t->ndim == 1) {   /* scalars: a real swap */
      size_t sz = dtype_size(x.t->dtype);
      char *pi = tensor_data(x.t) + i * x.t->strides[0] * (int64_t)sz, tmp[16];
      char *pj = tensor_data(x.t) + j * x.t->strides[0] * (int64_t)sz;
      memcpy(tmp, pi, sz);
      memcpy(pi, pj, sz);
      memcpy(pj, tmp, sz);
      continue;
    }
    IndexItem ii = {0}, jj = {0};
    ii.kind = jj.kind = IDX_INT;
    ii.i = i;
    jj.i = j;
    Tensor *ti = index_get(c, x.t, &ii, 1), *tj = ti ? index_get(c, x.t, &jj, 1) : NULL;
    int rc = tj ? tensor_assign(c, ti, tj) : -1;
    if (ti) tensor_release(ti);
    if (tj) tensor_release(tj);
    if (rc) return -1;
  }
  *out = v_none();
  return 0;
}

/* sample(population, k): CPython's two methods, chosen by the same size rule: a partial
   Fisher-Yates over a copy for small populations, rejection of repeated indices otherwise. */
static int rnd_sample(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  Value s[3];
  int64_t n, k;
  if (args_parse(I, a, "sample", "population,k,*,counts=", s)) return -1;
  if (s[2].type != V_UNDEF && s[2].type != V_NONE)
    return IERR_TYPE(I, "tsr: sample(counts=) is not supported yet");
  if (seq_len(I, s[0], &n) || value_to_int(I, s[1], &k)) return -1;
  if (k < 0 || k > n) return IERR_VALUE(I, "Sample larger than population or is negative");
  if (ctx_work(c, (uint64_t)k * 2, WORK_SAMPLE)) return -1;   /* draws, rejections, items */
  Value res = value_list(I, k);
  if (res.type == V_UNDEF) return -1;
  Value *r = as_list(res)->items;
  int64_t setsize = 21;
  if (k > 5) setsize += (int64_t)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
  if (n <= setsize) {
    int64_t *pool = ctx_malloc(c, (size_t)(n ? n : 1) * sizeof(int64_t));
    if (!pool) { value_decref(res); return -1; }
    for (int64_t i = 0; i < n; i++) pool[i] = i;
    int rc = 0;
    for (int64_t i = 0; i < k && rc == 0; i++) {
      int64_t j = (int64_t)randbelow(I, (uint64_t)(n - i));
      value_decref(r[i]);
      rc = interp_iter_item(I, s[0], pool[j], &r[i]);
      if (rc) r[i] = v_none();
      pool[j] = pool[n - i - 1];
    }
    ctx_free(c, pool, (size_t)(n ? n : 1) * sizeof(int64_t));
    if (rc) { value_decref(res); return -1; }
  } else {
    /* the chosen indices, in a small open-addressing set */
    size_t cap = 16;
    while (cap < (size_t)k * 2 + 2) cap *= 2;
    int64_t *set = ctx_malloc(c, cap * sizeof(int64_t));
    if (!set) { value_decref(res); return -1; }
    for (size_t q = 0; q < cap; q++) set[q] = -1;
    int rc = 0;
    for (int64_t i = 0; i < k && rc == 0; i++) {
      for (;;) {
        int64_t j = (int64_t)randbelow(I, (uint64_t)n);
        size_t q = (size_t)j * 0x9E3779B97F4A7C15ull >> 7 & (cap - 1);
        while (set[q] != -1 && set[q] != j) q = (q + 1) & (cap - 1);
        if (set[q] == j) continue;
        set[q] = j;
        value_decref(r[i]);
        rc = interp_iter_item(I, s[0], j, &r[i]);
        if (rc) r[i] = v_none();
        break;
      }
    }
    ctx_free(c, set, cap * sizeof(int64_t));
    if (rc) { value_decref(res); return -1; }
  }
  *out = res;
  return 0;
}

/* choices(population, weights=None, *, cum_weights=None, k=1) */
static int rnd_choices(Interp *I, const Args *a, Value *out) {
  Ctx *c = interp_ctx(I);
  Value s[4];
  int64_t n, k = 1;
  if (args_parse(I, a, "choices", "population,weights=,*,cum_weights=,k=", s)) return -1;
  if (seq_len(I, s[0], &n)) return -1;
  if (s[3].type != V_UNDEF && value_to_int(I, s[3], &k)) return -1;
  bool has_w = s[1].type != V_UNDEF && s[1].type != V_NONE;
  bool has_cum = s[2].type != V_UNDEF && s[2].type != V_NONE;
  if (has_w && has_cum) return IERR_TYPE(I, "Cannot specify both weights and cumulative weights");
  if (ctx_work(c, (uint64_t)(k > 0 ? k : 0) * 2 + (uint64_t)n, WORK_SAMPLE)) return -1;
  Value res = value_list(I, k > 0 ? k : 0);
  if (res.type == V_UNDEF) return -1;
  Value *r = as_list(res)->items;
  int rc = 0;
  if (!has_w && !has_cum) {
    for (int64_t i = 0; i < k && rc == 0; i++) {
      value_decref(r[i]);
      rc = interp_iter_item(I, s[0], (int64_t)floor(next_random(I) * (double)n), &r[i]);
      if (rc) r[i] = v_none();
    }
    if (rc) { value_decref(res); return -1; }
    *out = res;
    return 0;
  }
  Value wv = has_w ? s[1] : s[2];
  int64_t nw;
  double *cum = NULL;
  if (interp_iter_len(I, wv, &nw)) { value_decref(res); return -1; }
  cum = ctx_malloc(c, (size_t)(nw ? nw : 1) * sizeof(double));
  if (!cum) { value_decref(res); return -1; }
  double acc = 0;
  for (int64_t i = 0; i < nw && rc == 0; i++) {
    Value w;
    double d = 0;
    rc = interp_iter_item(I, wv, i, &w);
    if (rc == 0) { rc = value_to_double(I, w, &d); value_decref(w); }
    acc = has_w ? acc + d : d;
    cum[i] = acc;
  }
  if (rc == 0 && nw != n) rc = IERR_VALUE(I, "The number of weights does not match the population");
  double total = rc == 0 && n ? cum[n - 1] : 0;
  if (rc == 0 && !(total > 0.0)) rc = IERR_VALUE(I, "Total of weights must be greater than zero");
  if (rc == 0 && !isfinite(total)) rc = IERR_VALUE(I, "Total of weights must be finite");
  for (int64_t i = 0; i < k && rc == 0; i++) {
    double x = next_random(I) * total;
    int64_t lo = 0, hi = n - 1;   /* bisect_right(cum, x, 0, n - 1) */
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (x < cum[mid]) hi = mid; else lo = mid + 1;
    }
    value_decref(r[i]);
    rc = interp_iter_item(I, s[0], lo, &r[i]);
    if (rc) r[i] = v_none();
  }
  ctx_free(c, cum, (size_t)(nw ? nw : 1) * sizeof(double));
  if (rc) { value_decref(res); return -1; }
  *out = res;
  return 0;
}

/* ---- real-valued distributions ---------------------------------------------------------------- */

static int reals(Interp *I, const Args *a, const char *name, const char *spec, int n,
                 const double *defaults, double *x) {
  Value s[3];
  if (args_parse(I, a, name, spec, s)) return -1;
  for (int i = 0; i < n; i++) {
    if (s[i].type == V_UNDEF) { x[i] = defaults[i]; continue; }
    if (s[i].type != V_BOOL && s[i].type != V_INT && s[i].type != V_FLOAT && s[i].type != V_TENSOR)
      return IERR_TYPE(I, "must be real number, not %s", value_type_name(s[i]));
    if (value_to_double(I, s[i], &x[i])) return -1;
  }
  return 0;
}

static int rnd_uniform(Interp *I, const Args *a, Value *out) {
  double x[2];
  if (reals(I, a, "uniform", "a,b", 2, NULL, x)) return -1;
  *out = v_float(x[0] + (x[1] - x[0]) * next_random(I));
  return 0;
}

static int rnd_triangular(Interp *I, const Args *a, Value *out) {
  Value s[3];
  double x[3] = {0.0, 1.0, 0.0};
  if (args_parse(I, a, "triangular", "low=,high=,mode=", s)) return -1;
  bool has_mode = s[2].type != V_UNDEF && s[2].type != V_NONE;
  for (int i = 0; i < 3; i++)
    if (s[i].type != V_UNDEF && (i < 2 || has_mode) && value_to_double(I, s[i], &x[i])) return -1;
  double low = x[0], high = x[1], u = next_random(I), cc = 0.5;
  if (has_mode) {
    if (high == low) { *out = v_float(low); return 0; }   /* CPython's ZeroDivisionError path */
    cc = (x[2] - low) / (high - low);
  }
  if (u > cc) { u = 1.0 - u; cc = 1.0 - cc; double t = low; low = high; high = t; }
  *out = v_float(low + (high - low) * sqrt(u * cc));
  return 0;
}

static int rnd_gauss(Interp *I, const Args *a, Value *out) {
  static const double def[2] = {0.0, 1.0};
  double x[2];
  if (reals(I, a, "gauss", "mu=,sigma=", 2, def, x)) return -1;
  double z;
  if (I->py_gauss_valid) {
    z = I->py_gauss_next;
    I->py_gauss_valid = false;
  } else {
    double x2pi = next_random(I) * 6.283185307179586;
    double g2rad = sqrt(-2.0 * log(1.0 - next_random(I)));
    z = cos(x2pi) * g2rad;
    I->py_gauss_next = sin(x2pi) * g2rad;
    I->py_gauss_valid = true;
  }
  *out = v_float(x[0] + z * x[1]);
  return 0;
}

/* Kinderman and Monahan's ratio-of-uniforms method, as CPython draws it. */
static double normal(Interp *I) {
  const double magic = 4 * exp(-0.5) / sqrt(2.0);
  for (;;) {
    double u1 = next_random(I), u2 = 1.0 - next_random(I);
    double z = magic * (u1 - 0.5) / u2;
    if (z * z / 4.0 <= -log(u2)) return z;
  }
}

static int rnd_normalvariate(Interp *I, const Args *a, Value *out) {
  static const double def[2] = {0.0, 1.0};
  double x[2];
  if (reals(I, a, "normalvariate", "mu=,sigma=", 2, def, x)) return -1;
  *out = v_float(x[0] + normal(I) * x[1]);
  return 0;
}

static int rnd_lognormvariate(Interp *I, const Args *a, Value *out) {
  double x[2];
  if (reals(I, a, "lognormvariate", "mu,sigma", 2, NULL, x)) return -1;
  *out = v_float(exp(x[0] + normal(I) * x[1]));
  return 0;
}

static int rnd_expovariate(Interp *I, const Args *a, Value *out) {
  double x[1];
  if (reals(I, a, "expovariate", "lambd", 1, NULL, x)) return -1;
  double r = -log(1.0 - next_random(I));
  if (x[0] == 0) return ERR_ZERODIV(interp_ctx(I), "float division by zero");
  *out = v_float(r / x[0]);
  return 0;
}

static const Builtin random_functions[] = {
  {"random", "seed", rnd_seed, "seed(a=None, version=2)\n\nInitialize the random number "
   "generator (ints and floats as CPython seeds them)."},
  {"random", "random", rnd_random, "random()\n\nx in the interval [0, 1)."},
  {"random", "getrandbits", rnd_getrandbits, "getrandbits(k)\n\nAn int with k random bits."},
  {"random", "randrange", rnd_randrange, "randrange(start, stop=None, step=1)\n\nA randomly "
   "selected element from range(start, stop, step)."},
  {"random", "randint", rnd_randint, "randint(a, b)\n\nA random integer in [a, b], both ends "
   "included."},
  {"random", "choice", rnd_choice, "choice(seq)\n\nA random element from a non-empty "
   "sequence."},
  {"random", "choices", rnd_choices, "choices(population, weights=None, *, cum_weights=None, "
   "k=1)\n\nA k sized list of elements chosen with replacement."},
  {"random", "shuffle", rnd_shuffle, "shuffle(x)\n\nShuffle list x in place, and return "
   "None."},
  {"random", "sample", rnd_sample, "sample(population, k)\n\nA k length list of unique "
   "elements chosen from the population sequence."},
  {"random", "uniform", rnd_uniform, "uniform(a, b)\n\nA random number in the range [a, b) "
   "or [a, b] depending on rounding."},
  {"random", "triangular", rnd_triangular, "triangular(low=0.0, high=1.0, mode=None)\n\n"
   "Triangular distribution."},
  {"random", "gauss", rnd_gauss, "gauss(mu=0.0, sigma=1.0)\n\nGaussian distribution (faster "
   "than normalvariate; keeps a second value for the next call)."},
  {"random", "normalvariate", rnd_normalvariate, "normalvariate(mu=0.0, sigma=1.0)\n\n"
   "Normal distribution."},
  {"random", "lognormvariate", rnd_lognormvariate, "lognormvariate(mu, sigma)\n\nLog normal "
   "distribution."},
  {"random", "expovariate", rnd_expovariate, "expovariate(lambd)\n\nExponential "
   "distribution."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_random = {"random", random_functions, NULL, 0};
