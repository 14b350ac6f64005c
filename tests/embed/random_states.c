/*
** random_states.c -- the random stream lives in each interpreter state: two states seeded
** alike draw alike, interleaving their calls changes nothing, reseeding one leaves the other
** alone, a state never seeded still draws (from OS entropy), long draws stop at the step
** budget, and failed allocations end in MemoryError.  Uses tsr.h alone.
*/
#include "tsr.h"
#include "../unit/check.h"

#include <stdlib.h>

/* An allocator that fails every allocation after the first `fail_after` (-1: never fails). */
static long fail_after = -1;
static void *failing_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  (void)ud;
  if (new_size == 0) {
    free(ptr);
    return NULL;
  }
  if (new_size > old_size && fail_after >= 0) {
    if (fail_after == 0) return NULL;
    fail_after--;
  }
  return realloc(ptr, new_size);
}

/* Runs script with every allocation failing in turn (after the first k, k = 0, 1, ...): each
   run ends in a MemoryError or, once the allocations suffice, in status `final`; never a crash
   or a leak (LSan checks the latter under make test-asan).  Returns the number of MemoryError
   runs. */
static int run_failing(const char *script, tsr_Status final) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.alloc = failing_alloc;
  int final_runs = 0, mem_runs = 0, other = 0;
  for (long k = 0; k < 1000 && final_runs == 0; k++) {
    fail_after = -1;
    tsr_State *S = tsr_open(&cfg);
    if (!S) { other++; break; }
    fail_after = k;
    tsr_Status st = tsr_eval(S, script, "alloc", NULL);
    fail_after = -1;
    if (st == final && (st == TSR_OK || tsr_last_error(S)->message[0])) final_runs++;
    else if (st == TSR_ERR_MEMORY) mem_runs++;
    else other++;
    tsr_close(S);
  }
  CHECK(final_runs == 1);
  CHECK(other == 0);
  return mem_runs;
}

static void test_allocation_failures(void) {
  static const char *const script =
      "random.seed([1, 2, 3])\n"
      "a = random.rand(3, 2) + random.randn(4).sum() + random.random_sample(2)[0]\n"
      "b = random.normal([0.0, 1.0], [[1.0], [2.0]]) + random.uniform(0, [1, 2], size=(2, 2))\n"
      "c = random.randint([1, 5], [[9], [7]], dtype=int8).sum() + random.randint(9, size=3)\n"
      "d = random.permutation(arange(6).reshape(3, 2)); random.shuffle(d); random.shuffle([1, 2])\n"
      "e = random.choice(5, 3, replace=False, p=[0.1, 0.2, 0.3, 0.2, 0.2])\n"
      "f = random.choice([1.5, 2.5], 4, p=[0.5, 0.5]) + random.choice(7, 4, replace=False)\n"
      "g = random.gamma([0.5, 3.0], 2, size=(2, 2)) + random.beta(0.5, 2, 2) + random.f(2, 3)\n"
      "h = random.poisson([1.0, 50.0], size=(3, 2)) + random.geometric(0.1, 2)\n"
      "random.set_state(random.get_state())\n";
  CHECK(run_failing(script, TSR_OK) > 20);
  static const char *const failing[] = {
    "random.normal([0.0, 1.0, 2.0], [1.0, 2.0])", "random.normal([0, 1], 1, size=(2, 1))",
    "random.seed([[1, 2]])", "random.seed([1.5])", "random.choice(2, p=[0.5, 0.6])",
    "random.randint([3, 4], size=(3,))", "random.randint([1, 2], [0, 5])",
    "random.uniform([0, 1], [2, inf])", "random.choice(3, 3, replace=False, p=[0.5, 0.5, 0])",
    "random.poisson([1.0, -1.0])", "random.gamma([1, 2], [[1], [2], [3]], size=(3, 1))",
  };
  for (size_t k = 0; k < sizeof failing / sizeof failing[0]; k++)
    run_failing(failing[k], k == 3 ? TSR_ERR_TYPE : TSR_ERR_VALUE);
}

/* Evaluates src in S and copies its float64 result (n values) into out; 0 on success. */
static int draw(tsr_State *S, const char *src, double *out, size_t n) {
  tsr_Tensor *r = NULL;
  int rc = -1;
  if (tsr_eval(S, src, "random_states", &r) == TSR_OK && r &&
      tsr_tensor_copy_to(r, TSR_FLOAT64, out, n * sizeof(double)) == TSR_OK)
    rc = 0;
  if (r) tsr_tensor_release(r);
  return rc;
}

int main(void) {
  tsr_State *a = tsr_open(NULL), *b = tsr_open(NULL);
  CHECK(a && b);
  if (!a || !b) return CHECK_DONE("random_states");
  double xa[8], xb[8], ya[4], yb[4];
  CHECK(tsr_eval(a, "random.seed(0)", "a", NULL) == TSR_OK);
  CHECK(tsr_eval(b, "import numpy as np\nnp.random.seed(0)", "b", NULL) == TSR_OK);
  /* interleaved calls: each state keeps its own position and its own cached Gaussian */
  CHECK(draw(a, "random.randn(3)", xa, 3) == 0);
  CHECK(draw(b, "np.random.randn(3)", xb, 3) == 0);
  CHECK(draw(a, "random.randn(5)", xa + 3, 5) == 0);
  CHECK(draw(b, "np.random.randn(5)", xb + 3, 5) == 0);
  for (int i = 0; i < 8; i++) CHECK(xa[i] == xb[i]);
  CHECK(xa[0] == 0x1.c398ef3e5cfa5p+0);   /* NumPy: 1.764052345967664 */
  /* reseeding a leaves b where it was */
  CHECK(tsr_eval(a, "random.seed(0)", "a", NULL) == TSR_OK);
  CHECK(draw(a, "random.rand(4)", ya, 4) == 0);
  CHECK(draw(b, "np.random.rand(4)", yb, 4) == 0);
  CHECK(ya[0] == 0x1.18fe1565f12a8p-1);   /* NumPy's first rand() after seed(0) */
  int differ = 0;
  for (int i = 0; i < 4; i++) differ += ya[i] != yb[i];
  CHECK(differ == 4);
  tsr_close(a);
  tsr_close(b);
  /* an unseeded state draws from entropy: two fresh states differ */
  tsr_State *c = tsr_open(NULL), *d = tsr_open(NULL);
  CHECK(c && d);
  if (c && d) {
    CHECK(draw(c, "random.rand(4)", ya, 4) == 0);
    CHECK(draw(d, "random.rand(4)", yb, 4) == 0);
    differ = 0;
    for (int i = 0; i < 4; i++) differ += ya[i] != yb[i];
    CHECK(differ == 4);
  }
  if (c) tsr_close(c);
  if (d) tsr_close(d);
  /* long draws charge the step budget and stop at it, leaving the state usable */
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_steps = 1000;
  tsr_State *e = tsr_open(&cfg);
  CHECK(e != NULL);
  if (e) {
    static const char *const longer[] = {
      "random.rand(10**7)", "random.randint(5, size=10**7, dtype=int8)",
      "random.normal([0.0, 1.0], 1, size=(5 * 10**6, 2))", "random.permutation(10**7)",
      "random.choice(10**7, 10**7)", "random.randint([3, 4], size=(5 * 10**6, 2))",
    };
    for (size_t k = 0; k < sizeof longer / sizeof longer[0]; k++)
      CHECK(tsr_eval(e, longer[k], "limit", NULL) == TSR_ERR_LIMIT);
    CHECK(draw(e, "random.rand(2)", ya, 2) == 0);
    tsr_close(e);
  }
  test_allocation_failures();
  return CHECK_DONE("random_states");
}
