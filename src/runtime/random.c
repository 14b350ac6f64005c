/*
** random.c -- the Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998) and the ways
** NumPy's legacy RandomState turns its 32-bit outputs into doubles, Gaussians and bounded
** integers.  Written from the published algorithms; see random.h for the contracts.
*/
#include "random.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu

void random_seed(RandomState *rs, uint32_t seed) {
  rs->key[0] = seed;
  for (int i = 1; i < RANDOM_MT_N; i++) {
    uint32_t prev = rs->key[i - 1];
    rs->key[i] = 1812433253u * (prev ^ (prev >> 30)) + (uint32_t)i;
  }
  rs->pos = RANDOM_MT_N;
  rs->seeded = true;
  rs->has_gauss = false;
  rs->gauss = 0.0;
}

void random_seed_by_array(RandomState *rs, const uint32_t *init_key, size_t n) {
  uint32_t *mt = rs->key;
  random_seed(rs, 19650218u);
  size_t i = 1, j = 0;
  for (size_t k = n > RANDOM_MT_N ? n : RANDOM_MT_N; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + init_key[j] + (uint32_t)j;
    i++;
    j++;
    if (i >= RANDOM_MT_N) { mt[0] = mt[RANDOM_MT_N - 1]; i = 1; }
    if (j >= n) j = 0;
  }
  for (size_t k = RANDOM_MT_N - 1; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
    i++;
    if (i >= RANDOM_MT_N) { mt[0] = mt[RANDOM_MT_N - 1]; i = 1; }
  }
  mt[0] = 0x80000000u;   /* a non-zero initial state is assured */
  rs->pos = RANDOM_MT_N;
}

void random_seed_entropy(RandomState *rs) {
  uint32_t words[8];
  if (getentropy(words, sizeof words) != 0) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t mix = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^
                   (uint64_t)(uintptr_t)rs ^ ((uint64_t)getpid() << 32);
    for (int k = 0; k < 8; k++) {
      mix = mix * 6364136223846793005u + 1442695040888963407u;
      words[k] = (uint32_t)(mix >> 32);
    }
  }
  random_seed_by_array(rs, words, 8);
}

/* Regenerates all RANDOM_MT_N words of the state (the twist). */
static void mt_twist(uint32_t *mt) {
  int k;
  uint32_t y;
  for (k = 0; k < RANDOM_MT_N - MT_M; k++) {
    y = (mt[k] & MT_UPPER) | (mt[k + 1] & MT_LOWER);
    mt[k] = mt[k + MT_M] ^ (y >> 1) ^ (-(y & 1u) & MT_MATRIX_A);
  }
  for (; k < RANDOM_MT_N - 1; k++) {
    y = (mt[k] & MT_UPPER) | (mt[k + 1] & MT_LOWER);
    mt[k] = mt[k + (MT_M - RANDOM_MT_N)] ^ (y >> 1) ^ (-(y & 1u) & MT_MATRIX_A);
  }
  y = (mt[RANDOM_MT_N - 1] & MT_UPPER) | (mt[0] & MT_LOWER);
  mt[RANDOM_MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (-(y & 1u) & MT_MATRIX_A);
}

uint32_t random_next_uint32(RandomState *rs) {
  if (!rs->seeded) random_seed_entropy(rs);
  if (rs->pos >= RANDOM_MT_N) {
    mt_twist(rs->key);
    rs->pos = 0;
  }
  uint32_t y = rs->key[rs->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

uint64_t random_next_uint64(RandomState *rs) {
  uint64_t hi = random_next_uint32(rs);
  return hi << 32 | random_next_uint32(rs);
}

double random_next_double(RandomState *rs) {
  uint32_t a = random_next_uint32(rs) >> 5;
  uint32_t b = random_next_uint32(rs) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

double random_gauss(RandomState *rs) {
  if (rs->has_gauss) {
    rs->has_gauss = false;
    double g = rs->gauss;
    rs->gauss = 0.0;
    return g;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * random_next_double(rs) - 1.0;
    x2 = 2.0 * random_next_double(rs) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = sqrt(-2.0 * log(r2) / r2);
  rs->gauss = f * x1;
  rs->has_gauss = true;
  return f * x2;
}

uint64_t random_mask(uint64_t max) {
  max |= max >> 1;
  max |= max >> 2;
  max |= max >> 4;
  max |= max >> 8;
  max |= max >> 16;
  max |= max >> 32;
  return max;
}

uint64_t random_interval(RandomState *rs, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = random_mask(max), v;
  if (max <= 0xffffffffu) {
    do v = random_next_uint32(rs) & mask; while (v > max);
  } else {
    do v = random_next_uint64(rs) & mask; while (v > max);
  }
  return v;
}

/* The next `bits` (8 or 16) low bits of the shared buffer, refilled by one 32-bit draw every
   32 / bits values. */
static uint32_t buffered_bits(RandomState *rs, RandomBuffer *b, int bits) {
  if (b->bcnt == 0) {
    b->buf = random_next_uint32(rs);
    b->bcnt = 32 / bits - 1;
  } else {
    b->buf >>= bits;
    b->bcnt--;
  }
  return b->buf & ((1u << bits) - 1u);
}

uint64_t random_bounded(RandomState *rs, DType dt, uint64_t off, uint64_t rng, RandomBuffer *b) {
  if (rng == 0) return off;
  uint64_t mask = random_mask(rng), v;
  switch (dtype_size(dt)) {
  case 8:
    if (rng <= 0xffffffffu) {
      do v = random_next_uint32(rs) & mask; while (v > rng);
    } else {
      do v = random_next_uint64(rs) & mask; while (v > rng);
    }
    break;
  case 4:
    do v = random_next_uint32(rs) & mask; while (v > rng);
    break;
  case 2:
  case 1:
    if (dt == TSR_BOOL) {
      if (b->bcnt == 0) {
        b->buf = random_next_uint32(rs);
        b->bcnt = 31;
      } else {
        b->buf >>= 1;
        b->bcnt--;
      }
      v = b->buf & 1u;
    } else {
      int bits = (int)dtype_size(dt) * 8;
      do v = buffered_bits(rs, b, bits) & mask; while (v > rng);
    }
    break;
  default:
    v = 0;
    break;
  }
  return off + v;
}

double random_standard_exponential(RandomState *rs) {
  return -log(1.0 - random_next_double(rs));
}

double random_standard_gamma(RandomState *rs, double shape) {
  if (shape == 1.0) return random_standard_exponential(rs);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    /* Ahrens and Dieter's GS for shape < 1, with an exponential bound */
    for (;;) {
      double u = random_next_double(rs), v = random_standard_exponential(rs);
      if (u <= 1.0 - shape) {
        double x = pow(u, 1.0 / shape);
        if (x <= v) return x;
      } else {
        double y = -log((1.0 - u) / shape);
        double x = pow(1.0 - shape + shape * y, 1.0 / shape);
        if (x <= v + y) return x;
      }
    }
  }
  /* Marsaglia and Tsang's squeeze method on legacy Gaussians */
  double b = shape - 1.0 / 3.0, c = 1.0 / sqrt(9 * b);
  for (;;) {
    double x, v;
    do {
      x = random_gauss(rs);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = random_next_double(rs);
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (log(u) < 0.5 * x * x + b * (1.0 - v + log(v))) return b * v;
  }
}

double random_beta(RandomState *rs, double a, double b) {
  if (a <= 1.0 && b <= 1.0) {
    /* Johnk's algorithm, in logarithms when both powers underflow */
    for (;;) {
      double u = random_next_double(rs), v = random_next_double(rs);
      double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b);
      if (x + y <= 1.0) {
        if (x + y > 0) return x / (x + y);
        double logx = log(u) / a, logy = log(v) / b;
        double logm = logx > logy ? logx : logy;
        logx -= logm;
        logy -= logm;
        return exp(logx - log(exp(logx) + exp(logy)));
      }
    }
  }
  double ga = random_standard_gamma(rs, a), gb = random_standard_gamma(rs, b);
  return ga / (ga + gb);
}

/* log(Gamma(x)) for x >= 1 by the Stirling series, shifted up to x >= 7 (the series NumPy's
   Poisson sampler uses, so acceptance decisions agree to the bit). */
static double loggam(double x) {
  static const double a[10] = {8.333333333333333e-02, -2.777777777777778e-03,
                               7.936507936507937e-04, -5.952380952380952e-04,
                               8.417508417508418e-04, -1.917526917526918e-03,
                               6.410256410256410e-03, -2.955065359477124e-02,
                               1.796443723688307e-01, -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  int64_t n = x < 7.0 ? (int64_t)(7 - x) : 0;
  double x0 = x + (double)n, x2 = 1.0 / (x0 * x0), gl0 = a[9];
  for (int k = 8; k >= 0; k--) {
    gl0 *= x2;
    gl0 += a[k];
  }
  double gl = gl0 / x0 + 0.5 * log(2.0 * M_PI) + (x0 - 0.5) * log(x0) - x0;
  if (x < 7.0) {
    for (int64_t k = 1; k <= n; k++) {
      gl -= log(x0 - 1.0);
      x0 -= 1.0;
    }
  }
  return gl;
}

int64_t random_poisson(RandomState *rs, double lam) {
  if (lam >= 10) {
    /* Hormann's transformed rejection with squeeze (PTRS) */
    double slam = sqrt(lam), loglam = log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      double u = random_next_double(rs) - 0.5, v = random_next_double(rs);
      double us = 0.5 - fabs(u);
      int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
          -lam + (double)k * loglam - loggam((double)k + 1))
        return k;
    }
  }
  if (lam == 0) return 0;
  /* multiplication of uniforms until the product drops below exp(-lam) */
  double enlam = exp(-lam), prod = 1.0;
  int64_t x = 0;
  for (;;) {
    prod *= random_next_double(rs);
    if (prod > enlam) x++;
    else return x;
  }
}

int64_t random_geometric(RandomState *rs, double p) {
  if (p >= 0.333333333333333333333333) {
    /* sequential search of the cumulative distribution */
    double u = random_next_double(rs), sum = p, prod = p, q = 1.0 - p;
    int64_t x = 1;
    while (u > sum) {
      prod *= q;
      sum += prod;
      x++;
    }
    return x;
  }
  return (int64_t)ceil(log(1.0 - random_next_double(rs)) / log(1.0 - p));
}
