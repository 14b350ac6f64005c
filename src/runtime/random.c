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
