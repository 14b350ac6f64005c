/*
** test_random.c -- unit tests of src/runtime/random.c: MT19937 against the reference outputs
** of Matsumoto and Nishimura's mt19937ar (init_by_array {0x123, 0x234, 0x345, 0x456} and
** init_genrand(5489)), and the doubles, Gaussians, bounded integers and shuffle order against
** NumPy 1.24's RandomState (values printed by /usr/bin/python3, hex floats for exactness).
*/
#include "runtime/random.h"
#include "check.h"

static void test_mt19937(void) {
  static const uint32_t key[4] = {0x123, 0x234, 0x345, 0x456};
  static const uint32_t want[10] = {1067595299u, 955945823u, 477289528u, 4107218783u,
                                    4228976476u, 3344332714u, 3355579695u, 227628506u,
                                    810200273u, 2591290167u};
  RandomState rs = {0};
  random_seed_by_array(&rs, key, 4);
  for (int i = 0; i < 10; i++) CHECK(random_next_uint32(&rs) == want[i]);
  /* two twists later the stream still continues (no crash, deterministic) */
  for (int i = 0; i < 2000; i++) random_next_uint32(&rs);
  random_seed(&rs, 5489);
  CHECK(random_next_uint32(&rs) == 3499211612u);
  CHECK(random_next_uint32(&rs) == 581869302u);
  CHECK(random_next_uint64(&rs) >> 32 == 3890346734u);
}

static void test_doubles_and_gauss(void) {
  RandomState rs = {0};
  random_seed(&rs, 0);
  CHECK(random_next_double(&rs) == 0x1.18fe1565f12a8p-1);
  CHECK(random_next_double(&rs) == 0x1.6e2d4cf608733p-1);
  CHECK(random_gauss(&rs) == 0x1.f51d25222c9abp-1);
  CHECK(rs.has_gauss);
  CHECK(random_gauss(&rs) == 0x1.1ed5969e3314ep+1);   /* the cached second value */
  CHECK(!rs.has_gauss);
  CHECK(random_gauss(&rs) == 0x1.de1847cb13ddap+0);
  random_seed(&rs, 0);                                   /* reseeding drops the cache */
  CHECK(!rs.has_gauss && rs.gauss == 0.0);
}

static void test_bounded(void) {
  RandomState rs = {0};
  RandomBuffer b = {0, 0};
  random_seed(&rs, 7);
  static const int64_t w64[4] = {175, 196, 537, 502};
  for (int i = 0; i < 4; i++) CHECK((int64_t)random_bounded(&rs, TSR_INT64, 0, 999, &b) == w64[i]);
  static const int8_t w8[5] = {0, 0, -3, 0, -3};
  b.bcnt = 0;
  for (int i = 0; i < 5; i++)
    CHECK((int8_t)random_bounded(&rs, TSR_INT8, (uint64_t)-3, 5, &b) == w8[i]);
  static const bool wb[5] = {true, true, true, false, true};
  b.bcnt = 0;
  for (int i = 0; i < 5; i++) CHECK((random_bounded(&rs, TSR_BOOL, 0, 1, &b) != 0) == wb[i]);
  b.bcnt = 0;
  CHECK(random_bounded(&rs, TSR_UINT64, 0, (1ull << 40) - 1, &b) == 446582064476ull);
  CHECK(random_bounded(&rs, TSR_UINT64, 0, (1ull << 40) - 1, &b) == 796881771918ull);
  CHECK(random_bounded(&rs, TSR_INT32, 42, 0, &b) == 42);          /* rng 0 draws nothing */
  CHECK(random_mask(0) == 0 && random_mask(1) == 1 && random_mask(5) == 7);
  CHECK(random_mask(0x80000000u) == 0xffffffffu);
  CHECK(random_mask(1ull << 63) == UINT64_MAX);
}

static void test_interval(void) {
  RandomState rs = {0};
  random_seed(&rs, 7);
  static const int want[10] = {8, 5, 0, 2, 1, 9, 7, 3, 6, 4};   /* permutation(10) */
  int perm[10];
  for (int i = 0; i < 10; i++) perm[i] = i;
  for (int i = 9; i > 0; i--) {
    int j = (int)random_interval(&rs, (uint64_t)i);
    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
  for (int i = 0; i < 10; i++) CHECK(perm[i] == want[i]);
  CHECK(random_interval(&rs, 0) == 0);
}

static void test_entropy(void) {
  RandomState a = {0}, b = {0};
  CHECK(random_next_uint32(&a) != 0 || random_next_uint32(&a) != 0);   /* self-seeds */
  CHECK(a.seeded);
  random_seed_entropy(&b);
  uint64_t x = random_next_uint64(&a), y = random_next_uint64(&b);
  CHECK(x != y);   /* distinct entropy seeds (fails with probability 2**-64) */
}

int main(void) {
  test_mt19937();
  test_doubles_and_gauss();
  test_bounded();
  test_interval();
  test_entropy();
  return CHECK_DONE("random");
}
