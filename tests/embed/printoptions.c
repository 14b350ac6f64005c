/*
** printoptions.c -- print options belong to one interpreter state: set_printoptions in one
** state persists across its tsr_eval calls and leaves another state's printing alone;
** interactive echo (tsr_eval_interactive) is repr, print is str, both through the write
** callback.  Prints "unit embed_printoptions: N passed, N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <string.h>

typedef struct { char text[8192]; size_t len; } Capture;

static void capture_write(void *ud, int stream, const char *s, size_t n) {
  Capture *c = ud;
  if (stream != 1) return;
  if (c->len + n >= sizeof c->text) n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, s, n);
  c->len += n;
  c->text[c->len] = '\0';
}

static tsr_State *open_capturing(Capture *c) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = capture_write;
  cfg.write_ud = c;
  return tsr_open(&cfg);
}

/* Runs src in S and returns what it wrote (the capture is emptied first). */
static const char *run(tsr_State *S, Capture *c, const char *src, int interactive) {
  c->len = 0;
  c->text[0] = '\0';
  tsr_Status st = interactive ? tsr_eval_interactive(S, src, "test")
                              : tsr_eval(S, src, "test", NULL);
  CHECK(st == TSR_OK);
  return c->text;
}

int main(void) {
  Capture c1, c2;
  tsr_State *S1 = open_capturing(&c1), *S2 = open_capturing(&c2);
  CHECK(S1 && S2);
  if (!S1 || !S2) return CHECK_DONE("embed_printoptions");

  run(S1, &c1, "set_printoptions(precision=3, linewidth=20)", 0);
  CHECK_STR(run(S1, &c1, "print(array([pi, e]))", 0), "[3.142 2.718]\n");
  CHECK_STR(run(S2, &c2, "print(array([pi, e]))", 0), "[3.14159265 2.71828183]\n");
  /* later evaluations in S1 keep its options; echo is repr, with S1's line width */
  CHECK_STR(run(S1, &c1, "arange(8) * 1.5", 1), "array([ 0. ,  1.5,\n        3. ,  4.5,\n        6. ,  7.5,\n        9. , 10.5])\n");
  CHECK_STR(run(S2, &c2, "arange(3) * 1.5", 1), "array([0. , 1.5, 3. ])\n");
  CHECK_STR(run(S1, &c1, "print(get_printoptions()['precision'], get_printoptions()['linewidth'])", 0),
            "3 20\n");
  CHECK_STR(run(S2, &c2, "print(get_printoptions()['precision'])", 0), "8\n");
  /* 0-d arrays and NumPy scalars echo differently */
  CHECK_STR(run(S2, &c2, "array(5)\narange(6).sum()\nzeros((), dtype=float32)", 1),
            "array(5)\n15\narray(0., dtype=float32)\n");
  /* a failed set_printoptions changes nothing */
  CHECK(tsr_eval(S1, "set_printoptions(precision=5, sign='x')", "test", NULL) == TSR_ERR_VALUE);
  CHECK_STR(run(S1, &c1, "print(array([pi]))", 0), "[3.142]\n");

  tsr_close(S1);
  tsr_close(S2);
  return CHECK_DONE("embed_printoptions");
}
