/*
** random.h -- NumPy's legacy random stream (numpy.random.RandomState on MT19937): the Mersenne
** Twister, its two seeding procedures, the 53-bit doubles, the polar Gaussian with its cached
** second value and the masked bounded-integer method, so seeded tsr programs draw exactly the
** numbers NumPy 1.24 draws.  The state is a plain struct owned by its user (one per
** interpreter); nothing here allocates, fails or touches a global.
*/
#ifndef TSR_RANDOM_H
#define TSR_RANDOM_H

#include "rt.h"

#define RANDOM_MT_N 624

typedef struct RandomState {
  uint32_t key[RANDOM_MT_N];   /* MT19937 state words */
  int pos;                     /* next word of key to temper; RANDOM_MT_N = regenerate first */
  bool seeded;                 /* false until the first seed (then draws seed from entropy) */
  bool has_gauss;              /* the polar method's second value is cached in gauss */
  double gauss;
} RandomState;

/* The bit buffer that NumPy's bounded 8-bit, 16-bit and bool draws share between consecutive
   values of one call: one 32-bit draw serves 4 uint8, 2 uint16 or 32 bool values.  Zero it
   at the start of each call (NumPy does). */
typedef struct RandomBuffer { int bcnt; uint32_t buf; } RandomBuffer;

/* RandomState.seed(n) for an integer 0 <= n < 2**32: MT19937's init_genrand; drops the cached
   Gaussian. */
RT_HIDDEN void random_seed(RandomState *rs, uint32_t seed);
/* RandomState.seed(array): MT19937's init_by_array over n >= 1 32-bit words; drops the cached
   Gaussian. */
RT_HIDDEN void random_seed_by_array(RandomState *rs, const uint32_t *key, size_t n);
/* RandomState.seed(None): init_by_array over words from the OS entropy source (getentropy),
   mixed with the clock and an address if that fails. */
RT_HIDDEN void random_seed_entropy(RandomState *rs);

/* The next tempered 32-bit output of MT19937. */
RT_HIDDEN uint32_t random_next_uint32(RandomState *rs);
/* Two 32-bit outputs, the first in the high half (NumPy's MT19937 next_uint64). */
RT_HIDDEN uint64_t random_next_uint64(RandomState *rs);
/* A double in [0, 1) from two 32-bit outputs a, b: ((a >> 5) * 2**26 + (b >> 6)) / 2**53
   (random_sample, rand, uniform). */
RT_HIDDEN double random_next_double(RandomState *rs);
/* A standard normal by the Marsaglia polar method: each accepted pair yields two values, the
   second cached until the next call or a reseed (legacy gauss: randn, normal). */
RT_HIDDEN double random_gauss(RandomState *rs);
/* The smallest all-ones bit mask covering max (max | max >> 1 | ... ). */
RT_HIDDEN uint64_t random_mask(uint64_t max);
/* A uniform integer in [0, max] by masked rejection on 32-bit draws when max fits 32 bits,
   else 64-bit draws (legacy shuffle/permutation). */
RT_HIDDEN uint64_t random_interval(RandomState *rs, uint64_t max);
/* One bounded integer off + v, v uniform in [0, rng], drawn as NumPy's legacy randint does for
   an output of dtype dt (masked rejection; 64-bit dtypes use 32-bit draws when rng fits 32
   bits; 8/16-bit and bool dtypes take their bits from *b).  rng and off are the two's
   complement bit patterns of high - low and low; rng must fit the dtype's width.  The result
   is the bit pattern of the value (callers store it truncated to the dtype). */
RT_HIDDEN uint64_t random_bounded(RandomState *rs, DType dt, uint64_t off, uint64_t rng,
                                  RandomBuffer *b);

/* Legacy samplers of further distributions (RandomState's), each drawing from rs as NumPy
   1.24 does so that the values agree to the bit. */
/* -log(1 - U): standard_exponential, exponential, and the exponential inside gamma. */
RT_HIDDEN double random_standard_exponential(RandomState *rs);
/* standard_gamma(shape >= 0): Ahrens-Dieter GS below 1, Marsaglia-Tsang (legacy Gaussians)
   above, exponential at 1, 0 at 0. */
RT_HIDDEN double random_standard_gamma(RandomState *rs, double shape);
/* beta(a > 0, b > 0): Johnk's algorithm when both are <= 1, else Ga / (Ga + Gb). */
RT_HIDDEN double random_beta(RandomState *rs, double a, double b);
/* poisson(lam >= 0): multiplication of uniforms below 10, Hormann's PTRS from 10 up. */
RT_HIDDEN int64_t random_poisson(RandomState *rs, double lam);
/* geometric(0 < p <= 1): trials up to the first success, >= 1; search for p >= 1/3, else
   inversion ceil(log(1 - U) / log(1 - p)). */
RT_HIDDEN int64_t random_geometric(RandomState *rs, double p);

#endif
