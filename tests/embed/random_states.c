/*
** random_states.c -- the random stream lives in each interpreter state: two states seeded
** alike draw alike, interleaving their calls changes nothing, reseeding one leaves the other
** alone, and a state never seeded still draws (from OS entropy).  Uses tsr.h alone.
*/
#include "tsr.h"
#include "../unit/check.h"

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
  return CHECK_DONE("random_states");
}
