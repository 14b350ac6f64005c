/*
** warnings.c -- NumPy's floating-point error handling as a host sees it: RuntimeWarnings go to
** the write callback's stream 2 in Python's format, once per (message, line) for the life of
** the state; seterr's modes (ignore, print, raise) and FloatingPointError; warnings raised on
** the pool's worker threads reach the caller; the state stays usable after a raise.
** Prints "unit embed_warnings: N passed, N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char out[8192], err[8192]; size_t nout, nerr; int err_calls; } Capture;

static void capture_write(void *ud, int stream, const char *s, size_t n) {
  Capture *c = ud;
  char *buf = stream == 2 ? c->err : c->out;
  size_t *len = stream == 2 ? &c->nerr : &c->nout;
  if (stream == 2) c->err_calls++;
  if (*len + n >= sizeof c->out) n = sizeof c->out - 1 - *len;
  memcpy(buf + *len, s, n);
  *len += n;
  buf[*len] = '\0';
}

static void reset(Capture *c) {
  c->nout = c->nerr = 0;
  c->out[0] = c->err[0] = '\0';
  c->err_calls = 0;
}

/* Runs src as chunk `name`; returns the status, the capture holding what it wrote. */
static tsr_Status run(tsr_State *S, Capture *c, const char *src, const char *name) {
  reset(c);
  return tsr_eval(S, src, name, NULL);
}

int main(void) {
  setenv("TSR_NUM_THREADS", "4", 1);   /* a pool even on a small machine */
  Capture c;
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = capture_write;
  cfg.write_ud = &c;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("embed_warnings");

  /* Python's format on stream 2, nothing on stream 1; the source line stripped */
  CHECK(run(S, &c, "a = array([1.0, 0.0])\n  \nif True:\n    b = a / 0  \t\n", "prog.tsr") ==
        TSR_OK);
  CHECK_STR(c.out, "");
  CHECK_STR(c.err, "prog.tsr:4: RuntimeWarning: divide by zero encountered in divide\n"
                   "  b = a / 0\n"
                   "prog.tsr:4: RuntimeWarning: invalid value encountered in divide\n"
                   "  b = a / 0\n");
  CHECK(c.err_calls == 2);   /* one write per warning */

  /* once per (message, line) for the life of the state, whatever the chunk */
  CHECK(run(S, &c, "x = 1\ny = 2\nb = log(a) + a / 0\n", "other.tsr") == TSR_OK);
  CHECK_STR(c.err, "other.tsr:3: RuntimeWarning: divide by zero encountered in log\n"
                   "  b = log(a) + a / 0\n"
                   "other.tsr:3: RuntimeWarning: divide by zero encountered in divide\n"
                   "  b = log(a) + a / 0\n"
                   "other.tsr:3: RuntimeWarning: invalid value encountered in divide\n"
                   "  b = log(a) + a / 0\n");
  CHECK(run(S, &c, "\n\n\nb = a / 0\n", "prog.tsr") == TSR_OK);
  CHECK_STR(c.err, "");
  CHECK(run(S, &c, "for i in range(5):\n    b = sqrt(-a)\n", "loop.tsr") == TSR_OK);
  CHECK_STR(c.err, "loop.tsr:2: RuntimeWarning: invalid value encountered in sqrt\n"
                   "  b = sqrt(-a)\n");

  /* <stdin> and <string> chunks have no source line; a warning inside a function points at
     the function's line */
  CHECK(run(S, &c, "def f(x):\n    return x * 1e308 * 10\n\n\n\nf(a + 1)\n", "<stdin>") == TSR_OK);
  CHECK_STR(c.err, "<stdin>:2: RuntimeWarning: overflow encountered in multiply\n");
  CHECK(tsr_eval_interactive(S, "f(a + 2)\n", "<stdin>") == TSR_OK);
  CHECK_STR(c.err, "<stdin>:2: RuntimeWarning: overflow encountered in multiply\n");   /* seen */
  reset(&c);
  CHECK(tsr_eval_interactive(S, "sqrt(-a - 1)\n", "<stdin>") == TSR_OK);
  CHECK_STR(c.err, "<stdin>:1: RuntimeWarning: invalid value encountered in sqrt\n");
  CHECK(strncmp(c.out, "array([nan, nan])", 17) == 0);

  /* integer division by zero: NumPy's result 0 and its warning, scalars as "scalar ..." */
  CHECK(run(S, &c, "k = arange(3)\nprint(k // 0, k.sum() % 0)\n", "ints.tsr") == TSR_OK);
  CHECK_STR(c.out, "[0 0 0] 0\n");
  CHECK_STR(c.err, "ints.tsr:2: RuntimeWarning: divide by zero encountered in floor_divide\n"
                   "  print(k // 0, k.sum() % 0)\n"
                   "ints.tsr:2: RuntimeWarning: divide by zero encountered in scalar remainder\n"
                   "  print(k // 0, k.sum() % 0)\n");

  /* flags raised on worker threads reach the caller: one zero at a varying place in a large
     array (the pool takes the parts in any order), each on its own line */
  int seen = 0;
  for (int i = 0; i < 16; i++) {
    char src[512], blank[101];
    memset(blank, '\n', 100);   /* lines 101..104: no earlier warning was on those lines */
    blank[100] = '\0';
    snprintf(src, sizeof src, "%sz = ones(1000000)\nz[%d] = 0\nr = 1 / z\nr = z / z\n", blank,
             i * 62500 + 17);
    char name[32];
    snprintf(name, sizeof name, "pool%d.tsr", i);
    CHECK(run(S, &c, src, name) == TSR_OK);
    char want[256];
    snprintf(want, sizeof want,
             "%s:103: RuntimeWarning: divide by zero encountered in divide\n  r = 1 / z\n"
             "%s:104: RuntimeWarning: invalid value encountered in divide\n  r = z / z\n",
             name, name);
    seen += strstr(c.err, "divide by zero") != NULL;
    /* the registry is keyed on (message, line), not the file: only the first shows */
    if (i == 0) CHECK_STR(c.err, want);
    else CHECK_STR(c.err, "");
  }
  CHECK(seen == 1);
  /* the same with 'print' (no registry): every call shows, whichever thread saw the zero */
  CHECK(run(S, &c, "old = seterr(all='print')\nprint(old)\n", "p.tsr") == TSR_OK);
  CHECK_STR(c.out, "{'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid': 'warn'}\n");
  for (int i = 0; i < 16; i++) {
    char src[256];
    snprintf(src, sizeof src, "z = ones(1000000)\nz[%d] = 0\nr = 1 / z\n", i * 62500 + 17);
    CHECK(run(S, &c, src, "pool.tsr") == TSR_OK);
    CHECK_STR(c.err, "Warning: divide by zero encountered in divide\n");
  }
  /* 'print' shows only the first error of a call */
  CHECK(run(S, &c, "r = array([0.0, 1.0]) / 0\n", "p.tsr") == TSR_OK);
  CHECK_STR(c.err, "Warning: divide by zero encountered in divide\n");

  /* ignore: nothing; geterr reports the modes */
  CHECK(run(S, &c, "seterr(all='ignore')\nr = log(zeros(3)) * 1e308 * 10\nprint(geterr())\n",
            "i.tsr") == TSR_OK);
  CHECK_STR(c.err, "");
  CHECK_STR(c.out, "{'divide': 'ignore', 'over': 'ignore', 'under': 'ignore', 'invalid': "
                   "'ignore'}\n");

  /* raise: FloatingPointError with the warning's text; the state stays usable */
  CHECK(run(S, &c, "seterr(divide='raise')\nprint(1)\nr = 1 / zeros(2)\nprint(2)\n", "r.tsr") ==
        TSR_ERR_VALUE);
  const tsr_Error *e = tsr_last_error(S);
  CHECK(e && strcmp(e->kind, "FloatingPointError") == 0);
  CHECK(e && strcmp(e->message, "divide by zero encountered in divide") == 0);
  CHECK(e && e->line == 3);
  CHECK_STR(c.out, "1\n");
  CHECK(run(S, &c, "print(arange(3) * 2)\nr = sqrt(-ones(2))\n", "after.tsr") == TSR_OK);
  CHECK_STR(c.out, "[0 2 4]\n");
  CHECK_STR(c.err, "");   /* invalid is still 'ignore' */
  /* a raise inside a fused expression and for integer floor division */
  CHECK(run(S, &c, "x = ones(300000)\ny = (x - x) * 2 + x / (x - x)\n", "f.tsr") ==
        TSR_ERR_VALUE);
  CHECK(strcmp(tsr_last_error(S)->message, "divide by zero encountered in divide") == 0);
  CHECK(run(S, &c, "y = arange(5) // 0\n", "f.tsr") == TSR_ERR_VALUE);
  CHECK(strcmp(tsr_last_error(S)->message, "divide by zero encountered in floor_divide") == 0);
  /* bad modes change nothing */
  CHECK(run(S, &c, "seterr(all='call')\n", "m.tsr") == TSR_ERR_TYPE);
  CHECK(run(S, &c, "seterr(over='never')\n", "m.tsr") == TSR_ERR_INDEX);
  CHECK(strcmp(tsr_last_error(S)->kind, "KeyError") == 0);
  CHECK(run(S, &c, "print(geterr()['divide'], geterr()['over'])\n", "m.tsr") == TSR_OK);
  CHECK_STR(c.out, "raise ignore\n");

  /* a second state has its own modes and registry */
  Capture c2;
  cfg.write_ud = &c2;
  tsr_State *S2 = tsr_open(&cfg);
  CHECK(S2 != NULL);
  if (S2) {
    CHECK(run(S2, &c2, "a = array([1.0, 0.0])\n\n\nb = a / 0\n", "prog.tsr") == TSR_OK);
    CHECK(strncmp(c2.err, "prog.tsr:4: RuntimeWarning: divide by zero", 42) == 0);
    tsr_close(S2);
  }
  /* a sandboxed state may silence its warnings too */
  Capture c3;
  cfg.write_ud = &c3;
  cfg.flags = TSR_SANDBOX;
  tsr_State *S3 = tsr_open(&cfg);
  CHECK(S3 != NULL);
  if (S3) {
    CHECK(run(S3, &c3, "seterr(all='ignore')\nb = log(zeros(2))\nprint(geterr()['divide'])\n",
              "sb.tsr") == TSR_OK);
    CHECK_STR(c3.err, "");
    CHECK_STR(c3.out, "ignore\n");
    tsr_close(S3);
  }
  tsr_close(S);
  return CHECK_DONE("embed_warnings");
}
