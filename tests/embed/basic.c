/*
** basic.c -- a host program that embeds libtsr through tsr.h alone: evaluates code, reads and
** writes tensors (copied, borrowed, strided, read-only), registers a host function, inspects
** errors and limits, and closes.  Prints "unit embed: N passed, N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------ */

static int release_calls;

static void count_release(void *ud, void *data) {
  (void)data;
  release_calls++;
  CHECK(ud == (void *)&release_calls);
}

/* Output captured through tsr_Config.write. */
typedef struct { char text[4096]; size_t len; int err_len; } Capture;

static void capture_write(void *ud, int stream, const char *s, size_t n) {
  Capture *c = ud;
  if (stream == 2) { c->err_len += (int)n; return; }
  if (c->len + n >= sizeof c->text) n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, s, n);
  c->len += n;
  c->text[c->len] = '\0';
}

/* Copies global `name` of S as float64 into out (at most cap values); returns the count, or -1. */
static int get_doubles(tsr_State *S, const char *name, double *out, int cap) {
  tsr_Tensor *t = tsr_get(S, name);
  if (!t) return -1;
  tsr_TensorInfo info;
  int n = -1;
  if (tsr_tensor_info(t, &info) == TSR_OK) {
    int64_t size = 1;
    for (int i = 0; i < info.ndim; i++) size *= info.shape[i];
    if (size <= cap &&
        tsr_tensor_copy_to(t, TSR_FLOAT64, out, (size_t)cap * sizeof(double)) == TSR_OK)
      n = (int)size;
  }
  tsr_tensor_release(t);
  return n;
}

/* A host function: hostscale(a) returns a * (*(double *)ud) as float64; any other arity is a
   ValueError. */
static tsr_Status hostscale(tsr_Call *call, void *ud) {
  double factor = *(double *)ud;
  int argc = tsr_arg_count(call);
  if (argc != 1) return tsr_raise(call, TSR_ERR_VALUE, "hostscale takes 1 argument, got %d", argc);
  tsr_Tensor *a = tsr_arg(call, 0);
  if (!a) return tsr_raise(call, TSR_ERR_TYPE, "hostscale needs a number or an array");
  tsr_TensorInfo in;
  if (tsr_tensor_info(a, &in) != TSR_OK) return tsr_raise(call, TSR_ERR_TYPE, "no info");
  tsr_Tensor *r = tsr_tensor_new(tsr_call_state(call), TSR_FLOAT64, in.ndim, in.shape);
  if (!r) return tsr_raise(call, TSR_ERR_MEMORY, "no memory");
  tsr_TensorInfo out;
  if (tsr_tensor_info(r, &out) != TSR_OK || (in.ndim > 0 && !in.shape) || !out.data) {
    tsr_tensor_release(r);
    return tsr_raise(call, TSR_ERR_RUNTIME, "tsr_tensor_info failed");
  }
  int64_t size = 1;
  for (int i = 0; i < in.ndim; i++) size *= in.shape[i];
  double *d = out.data;
  tsr_tensor_copy_to(a, TSR_FLOAT64, d, (size_t)size * sizeof(double));
  for (int64_t i = 0; i < size; i++) d[i] *= factor;
  return tsr_return(call, r);
}

static void collect_name(void *ud, const char *candidate) {
  if (strcmp(candidate, "arange") == 0) *(int *)ud = 1;
}

/* ---- the checks ----------------------------------------------------------------------------- */

static void test_eval_get(tsr_State *S) {
  CHECK(tsr_eval(S, "x = arange(6).reshape(2,3) * 2", "basic", NULL) == TSR_OK);
  tsr_Tensor *x = tsr_get(S, "x");
  CHECK(x != NULL);
  if (!x) return;
  tsr_TensorInfo info;
  CHECK(tsr_tensor_info(x, &info) == TSR_OK);
  CHECK(info.dtype == TSR_INT64);
  CHECK(info.ndim == 2);
  CHECK(info.itemsize == 8);
  CHECK(info.shape != NULL && info.strides != NULL && info.data != NULL);
  if (info.shape && info.strides && info.data) {
    CHECK(info.shape[0] == 2 && info.shape[1] == 3);
    CHECK(info.strides[0] == 24 && info.strides[1] == 8);
    const int64_t *data = info.data;
    CHECK(data[0] == 0 && data[1] == 2 && data[5] == 10);
  }

  double d[6];
  CHECK(tsr_tensor_copy_to(x, TSR_FLOAT64, d, sizeof d) == TSR_OK);
  CHECK(d[0] == 0.0 && d[3] == 6.0 && d[5] == 10.0);
  int32_t small[6];
  CHECK(tsr_tensor_copy_to(x, TSR_INT32, small, sizeof small) == TSR_OK);
  CHECK(small[4] == 8);
  CHECK(tsr_tensor_copy_to(x, TSR_FLOAT64, d, 5 * sizeof(double)) == TSR_ERR_VALUE);

  CHECK(tsr_tensor_retain(x) == x);
  tsr_tensor_release(x);
  tsr_tensor_release(x);

  CHECK(tsr_get(S, "no_such_name") == NULL);

  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "x.sum()", NULL, &r) == TSR_OK);
  CHECK(r != NULL);
  if (r) {
    double v = -1;
    CHECK(tsr_tensor_info(r, &info) == TSR_OK && info.ndim == 0);
    CHECK(tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == 30.0);
    tsr_tensor_release(r);
  }
  r = (tsr_Tensor *)&r;
  CHECK(tsr_eval(S, "y = 1", NULL, &r) == TSR_OK);
  CHECK(r == NULL);
  CHECK(tsr_eval(S, "2.5", NULL, &r) == TSR_OK);
  if (r) {
    double v = 0;
    CHECK(tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == 2.5);
    tsr_tensor_release(r);
  } else {
    CHECK(!"a scalar result becomes a 0-d tensor");
  }
}

static void test_wrap(tsr_State *S) {
  /* A borrowed host buffer: tsr computes with it and writes through to it. */
  static double host[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape[2] = {2, 3};
  release_calls = 0;
  tsr_Tensor *h = tsr_tensor_wrap(S, TSR_FLOAT64, 2, shape, NULL, host, sizeof host, 0,
                                  count_release, &release_calls);
  CHECK(h != NULL);
  if (!h) return;
  CHECK(tsr_set(S, "h", h) == TSR_OK);
  tsr_tensor_release(h);
  CHECK(release_calls == 0);
  CHECK(tsr_eval(S, "y = h * x + 1\nh[0, 0] = 100\nhs = h.sum()", "wrap", NULL) == TSR_OK);
  double y[6];
  CHECK(get_doubles(S, "y", y, 6) == 6);
  CHECK(y[0] == 1 && y[1] == 5 && y[5] == 61);
  CHECK(host[0] == 100);
  double hs = 0;
  CHECK(get_doubles(S, "hs", &hs, 1) == 1 && hs == 120);

  /* A strided view of host memory: one column of a 3x4 matrix. */
  static double grid[3][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
  int64_t col_shape[1] = {3}, col_strides[1] = {4 * sizeof(double)};
  tsr_Tensor *col = tsr_tensor_wrap(S, TSR_FLOAT64, 1, col_shape, col_strides, &grid[0][1],
                                    sizeof grid - sizeof(double), 0, NULL, NULL);
  CHECK(col != NULL);
  if (col) {
    CHECK(tsr_set(S, "col", col) == TSR_OK);
    tsr_tensor_release(col);
    CHECK(tsr_eval(S, "cs = col.sum()\ncl = col[-1]", NULL, NULL) == TSR_OK);
    double v = 0;
    CHECK(get_doubles(S, "cs", &v, 1) == 1 && v == 15);
    CHECK(get_doubles(S, "cl", &v, 1) == 1 && v == 9);
  }
  /* TSR_COPY: later host writes do not show. */
  double src[2] = {7, 8};
  int64_t two[1] = {2};
  tsr_Tensor *c = tsr_tensor_wrap(S, TSR_FLOAT64, 1, two, NULL, src, sizeof src, TSR_COPY, NULL,
                                  NULL);
  CHECK(c != NULL);
  if (c) {
    src[0] = -1;
    CHECK(tsr_set(S, "c", c) == TSR_OK);
    tsr_tensor_release(c);
    double v[2];
    CHECK(get_doubles(S, "c", v, 2) == 2 && v[0] == 7);
  }

  /* TSR_READONLY: writes are errors, reads work, the state stays usable. */
  static float ro[3] = {1.5f, 2.5f, 3.5f};
  int64_t three[1] = {3};
  tsr_Tensor *r = tsr_tensor_wrap(S, TSR_FLOAT32, 1, three, NULL, ro, sizeof ro, TSR_READONLY,
                                  NULL, NULL);
  CHECK(r != NULL);
  if (r) {
    CHECK(tsr_set(S, "ro", r) == TSR_OK);
    tsr_tensor_release(r);
    CHECK(tsr_eval(S, "ro[0] = 5", NULL, NULL) != TSR_OK);
    CHECK(ro[0] == 1.5f);
    CHECK(tsr_eval(S, "rs = ro.sum()", NULL, NULL) == TSR_OK);
    double v = 0;
    CHECK(get_doubles(S, "rs", &v, 1) == 1 && v == 7.5);
  }

  /* Too small a buffer is refused. */
  int64_t big[1] = {100};
  CHECK(tsr_tensor_wrap(S, TSR_FLOAT64, 1, big, NULL, host, sizeof host, 0, NULL, NULL) == NULL);
  CHECK(tsr_last_error(S)->status != TSR_OK);

  /* A fresh zero tensor from the host. */
  tsr_Tensor *z = tsr_tensor_new(S, TSR_UINT8, 1, three);
  CHECK(z != NULL);
  if (z) {
    tsr_TensorInfo info;
    CHECK(tsr_tensor_info(z, &info) == TSR_OK && info.itemsize == 1);
    CHECK(info.data != NULL && ((unsigned char *)info.data)[2] == 0);
    tsr_tensor_release(z);
  }
}

static void test_host_function(tsr_State *S) {
  static double factor = 2.5;
  CHECK(tsr_register(S, "hostscale", hostscale, &factor) == TSR_OK);
  CHECK(tsr_eval(S, "z = hostscale(arange(3))\nw = hostscale(4) + 1", NULL, NULL) == TSR_OK);
  double z[3];
  CHECK(get_doubles(S, "z", z, 3) == 3 && z[0] == 0 && z[1] == 2.5 && z[2] == 5);
  double w = 0;
  CHECK(get_doubles(S, "w", &w, 1) == 1 && w == 11);

  CHECK(tsr_eval(S, "q = 1\nhostscale(1, 2)", "host", NULL) == TSR_ERR_VALUE);
  const tsr_Error *e = tsr_last_error(S);
  CHECK(e->status == TSR_ERR_VALUE);
  CHECK_STR(e->kind, "ValueError");
  CHECK_STR(e->message, "hostscale takes 1 argument, got 2");
  CHECK(e->line == 2);
}

static void test_errors(tsr_State *S) {
  CHECK(tsr_eval(S, "a = 1\nb = a + undefined_thing\n", "errs", NULL) == TSR_ERR_NAME);
  const tsr_Error *e = tsr_last_error(S);
  CHECK(e->status == TSR_ERR_NAME);
  CHECK_STR(e->kind, "NameError");
  CHECK_STR(e->message, "name 'undefined_thing' is not defined");
  CHECK_STR(e->chunk, "errs");
  CHECK(e->line == 2);
  CHECK(e->column >= 1);
  CHECK(strstr(tsr_error_message(S), "NameError: name 'undefined_thing' is not defined") != NULL);

  CHECK(tsr_eval(S, "ones((2,3)) + ones(4)", NULL, NULL) == TSR_ERR_VALUE);
  CHECK_STR(tsr_last_error(S)->kind, "ValueError");
  CHECK(tsr_eval(S, "arange(3)[5]", NULL, NULL) == TSR_ERR_INDEX);
  CHECK(tsr_eval(S, "1 / 0", NULL, NULL) != TSR_OK);
  CHECK_STR(tsr_last_error(S)->kind, "ZeroDivisionError");

  /* A syntax error anywhere means nothing runs. */
  CHECK(tsr_eval(S, "ran_before = 5\nx = = 1\n", "syn", NULL) == TSR_ERR_SYNTAX);
  CHECK_STR(tsr_last_error(S)->kind, "SyntaxError");
  CHECK(tsr_last_error(S)->line == 2);
  CHECK(tsr_get(S, "ran_before") == NULL);

  CHECK(tsr_check(S, "if x:\n") == TSR_INCOMPLETE);
  CHECK(tsr_check(S, "f(1,\n") == TSR_INCOMPLETE);
  CHECK(tsr_check(S, "x = 1\n") == TSR_OK);
  CHECK(tsr_check(S, "x = = 1\n") == TSR_ERR_SYNTAX);

  /* The state survives errors. */
  CHECK(tsr_eval(S, "after = x.sum() + 1", NULL, NULL) == TSR_OK);
  double v = 0;
  CHECK(get_doubles(S, "after", &v, 1) == 1 && v == 31);
  CHECK(tsr_last_error(S)->status == TSR_OK);
  CHECK_STR(tsr_error_message(S), "");

  int found = 0;
  CHECK(tsr_complete(S, "y = ara", 7, collect_name, &found) == TSR_OK);
  CHECK(found == 1);
}

static void test_config(void) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  CHECK(cfg.max_memory == 0 && cfg.max_steps == 0 && cfg.flags == 0);

  Capture cap = {{0}, 0, 0};
  cfg.write = capture_write;
  cfg.write_ud = &cap;
  cfg.max_memory = 1 << 20;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  CHECK(tsr_eval(S, "print('hi', 1 + 2)\nprint(arange(3))", NULL, NULL) == TSR_OK);
  CHECK_STR(cap.text, "hi 3\n[0 1 2]\n");
  CHECK(tsr_get(S, "x") == NULL);  /* states are independent */

  CHECK(tsr_eval(S, "big = zeros(10**7)", NULL, NULL) == TSR_ERR_MEMORY);
  CHECK_STR(tsr_last_error(S)->kind, "MemoryError");
  CHECK(tsr_eval(S, "small = ones(3).sum()", NULL, NULL) == TSR_OK);
  tsr_close(S);

  tsr_config_init(&cfg);
  cfg.max_steps = 100000;
  cfg.flags = TSR_SANDBOX;
  S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  CHECK(tsr_eval(S, "i = 0\nwhile i < 100000000:\n    i += 1\n", NULL, NULL) == TSR_ERR_LIMIT);
  CHECK(tsr_eval(S, "j = 1", NULL, NULL) == TSR_OK);
  CHECK(tsr_eval_file(S, "tests/embed/basic.c") == TSR_ERR_SANDBOX);
  tsr_close(S);
}

/* tsr_set_argv: sys.argv is a copy of the host's strings; a bad argv is refused; the first
   chunk's numpy import chooses Python's builtins (DESIGN §1). */
static void test_argv_namespace(void) {
  Capture cap = {{0}, 0, 0};
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = capture_write;
  cfg.write_ud = &cap;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  char arg0[] = "prog.py", arg1[] = "--n=3";
  const char *argv[] = {arg0, arg1};
  CHECK(tsr_set_argv(S, 2, argv) == TSR_OK);
  arg1[0] = 'X';   /* the state keeps its own copy */
  const char *bad[] = {arg0, NULL};
  CHECK(tsr_set_argv(S, 2, bad) == TSR_ERR_VALUE);
  CHECK(tsr_set_argv(S, -1, argv) == TSR_ERR_VALUE);
  CHECK(tsr_eval(S, "import numpy as np\nimport sys\nprint(sys.argv, round(2.5), "
                    "sum(range(5), -1))", NULL, NULL) == TSR_OK);
  CHECK_STR(cap.text, "['prog.py', '--n=3'] 2 9\n");
  CHECK(tsr_eval(S, "x = zeros(2)", NULL, NULL) == TSR_ERR_NAME);   /* no star import */
  tsr_close(S);

  cap.len = 0;
  cap.text[0] = 0;
  S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  CHECK(tsr_eval(S, "print(sum(range(5), -1), zeros(2))", NULL, NULL) == TSR_OK);
  CHECK(tsr_eval(S, "import numpy as np\nprint(np.sum([1, 2]), sum([[1, 2], [3, 4]]))", NULL,
                 NULL) == TSR_OK);   /* the first chunk chose: the star stays */
  CHECK(tsr_eval(S, "import sys\nprint(sys.argv)", NULL, NULL) == TSR_OK);
  CHECK_STR(cap.text, "10 [0. 0.]\n3 10\n['']\n");
  tsr_close(S);
}

int main(void) {
  test_argv_namespace();
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("embed");
  CHECK(tsr_version() != NULL && tsr_version()[0] != '\0');
  test_eval_get(S);
  test_wrap(S);
  test_host_function(S);
  test_errors(S);
  tsr_close(S);
  CHECK(release_calls == 1);  /* the borrowed buffer went back to its host exactly once */
  test_config();
  return CHECK_DONE("embed");
}
