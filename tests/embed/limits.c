/*
** limits.c -- a host that trusts tsr with hostile input: the step budget, an interrupt sent
** from a second thread during a long kernel, deep nesting in source and data, the sandbox, a
** host function that raises, output only through the write callback, and two states running in
** two threads at once.  After every failure the state is used again.  Prints
** "unit limits: N passed, N failed".
*/
#include <tsr.h>
#include "../unit/check.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Under valgrind everything is ~50x slower: time limits scale. */
static double slow(void) { return getenv("TSR_TEST_VALGRIND") ? 50.0 : 1.0; }

/* Evaluates src and checks that S still works afterwards. */
static void still_usable(tsr_State *S) {
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "arange(5).sum()", "after", &r) == TSR_OK);
  int64_t v = 0;
  CHECK(r && tsr_tensor_copy_to(r, TSR_INT64, &v, sizeof v) == TSR_OK && v == 10);
  tsr_tensor_release(r);
}

typedef struct { char text[8192]; size_t len; size_t err; } Capture;

static void capture(void *ud, int stream, const char *s, size_t n) {
  Capture *c = ud;
  if (stream == 2) { c->err += n; return; }
  if (c->len + n >= sizeof c->text) n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, s, n);
  c->len += n;
  c->text[c->len] = 0;
}

/* ---- step budget ------------------------------------------------------------------------------ */

static void test_steps(void) {
  double t0;
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_steps = 20000;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  /* a loop in the script */
  CHECK(tsr_eval(S, "i = 0\nwhile True:\n    i += 1", "loop", NULL) == TSR_ERR_LIMIT);
  CHECK_STR(tsr_last_error(S)->kind, "LimitError");
  /* inside the loop: its test or its body, depending on the steps parsing took */
  CHECK(tsr_last_error(S)->line == 2 || tsr_last_error(S)->line == 3);
  still_usable(S);
  /* parsing is charged too (a step per token, polling the interrupt flag as it goes; see
     test_parse.c's test_steps): 100 000 keyword arguments in one call (issue 25: 56 s and
     unstoppable before) stop at the budget */
  {
    size_t n = 100000;
    char *src = malloc(n * 12 + 16), *p = src;
    p += sprintf(p, "f(");
    for (size_t i = 0; i < n; i++) p += sprintf(p, "k%zu=1, ", i);
    sprintf(p, ")\n");
    t0 = now();
    CHECK(tsr_eval(S, src, "kwargs", NULL) == TSR_ERR_LIMIT);
    CHECK_STR(tsr_last_error(S)->kind, "LimitError");
    CHECK(now() - t0 < 1 * slow());
    free(src);
    still_usable(S);
  }
  /* one long kernel: the budget is charged per chunk of elements (4096 elements a step) */
  t0 = now();
  CHECK(tsr_eval(S, "s = broadcast_to(ones(1), (10**12,)).sum()", "kernel", NULL) ==
        TSR_ERR_LIMIT);
  CHECK(now() - t0 < 30 * slow());
  still_usable(S);
  /* the budget is per tsr_eval: the same work again is fine */
  CHECK(tsr_eval(S, "i = 0\nwhile i < 1000:\n    i += 1", NULL, NULL) == TSR_OK);
  CHECK(tsr_eval(S, "i = 0\nwhile i < 1000:\n    i += 1", NULL, NULL) == TSR_OK);
  /* recursion in scripts is an error, not a stack overflow */
  CHECK(tsr_eval(S, "def f(n):\n    return f(n + 1)\nf(0)", "rec", NULL) == TSR_ERR_RUNTIME);
  CHECK_STR(tsr_last_error(S)->kind, "RecursionError");
  still_usable(S);
  tsr_close(S);
}

/* Each family of operations is charged in proportion to its work: a loop of n operations
   under a budget of 20 000 steps ends in LimitError (uncharged, the loop's own statements cost
   2 n steps, within the budget), and one operation alone fits the budget. */
static void test_steps_per_family(void) {
  static const struct { const char *setup, *op; int n; } rows[] = {
    {"x = ones(20000)", "y = x * 2.0", 2000},                      /* under one chunk */
    {"x = ones(20000)", "s = x.sum()", 2000},
    {"x = ones(20000)", "y = x.copy()", 2000},
    {"a = ones((50, 50))", "y = a @ a", 2000},
    {"x = ones(2000)", "y = repeat(x, 10)", 2000},
    {"x = ones(20000)", "y = nonzero(x)", 2000},
    {"x = random.rand(10000)", "y = sort(x)", 100},               /* one lane */
    {"x = random.rand(10000)", "y = argsort(x)", 100},
    {"x = random.rand(100, 100)", "x.sort(axis=1)", 100},
    {"x = random.randint(0, 100, 10000)", "y = unique(x)", 100},
    {"x = random.randint(0, 100, 10000); v = arange(50)", "y = in1d(x, v)", 100},
    {"x = random.rand(10000)", "y = median(x)", 500},
    {"x = random.rand(10000)", "y = percentile(x, [10, 90])", 500},
    {"x = random.rand(10000)", "y = partition(x, 5000)", 500},
    {"v = arange(10000); x = random.rand(10000) * 10000", "y = searchsorted(v, x)", 100},
    {"x = random.rand(10000)", "y = histogram(x)", 500},
    {"x = ones(1000)", "y = correlate(x, x, 'full')", 100},
    {"", "y = random.rand(10000)", 500},
    {"", "y = random.randint(0, 10, 10000)", 500},
    {"", "y = random.permutation(10000)", 500},
    {"x = ones(10000)", "y = x.tolist()", 500},
    {"l = [1.0] * 10000", "y = array(l)", 500},
    {"x = random.rand(1000)", "s = str(x)", 500},
    {"x = random.rand(1000)", "s = repr(x)", 500},
    {"l = random.rand(1000).tolist()", "s = repr(l)", 500},
    {"", "y = [0] * 10000", 500},
    {"l = [0] * 5000", "y = l + l", 500},
    {"l = [0] * 10000; m = [0] * 10000", "y = l == m", 500},
    {"l = [0] * 10000; m = [0] * 10000", "y = l < m", 500},
    {"l = [0] * 10000", "y = -1 in l", 500},
    {"l = [0] * 10000", "y = list(l)", 500},
    {"", "s = '%20000d' % 5", 2000},
    {"", "s = format(5, '>20000')", 2000},
    {"l = [0] * 10000", "y = sum(l)", 500},
    {"l = random.rand(5000).tolist()", "y = sorted(l)", 100},
    {"import random as r\nl = [0] * 10000", "r.shuffle(l)", 500},
    {"s = 'ab'", "y = s * 100000", 2000},
    {"s = 'a' * 200000", "y = 'b' in s", 2000},
    {"s = 'a' * 200000; t = 'a' * 200000", "y = s == t", 2000},
    {"s = 'a' * 200000", "y = s.find('ab')", 2000},
    {"s = 'a' * 2000", "y = s.find('a' * 1000 + 'b')", 500},     /* quadratic search */
    {"s = 'a b' * 10000", "y = s.split()", 100},
    {"s = 'a,b' * 10000", "y = s.split(',')", 100},
    {"s = 'ab' * 100000", "y = s.replace('a', 'cc')", 500},
    {"l = ['ab'] * 10000", "y = ','.join(l)", 500},
    {"s = 'ab' * 100000", "y = s.upper()", 2000},
    {"", "y = ones(20000)", 2000},
    {"", "y = full(20000, 7)", 2000},
    {"", "y = zeros(20000)", 2000},
  };
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_steps = 20000;
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    tsr_State *S = tsr_open(&cfg);
    CHECK(S != NULL);
    if (!S) return;
    char src[512];
    CHECK(tsr_eval(S, rows[r].setup, "setup", NULL) == TSR_OK);
    snprintf(src, sizeof src, "for i in range(1):\n    %s", rows[r].op);
    tsr_Status once = tsr_eval(S, src, "once", NULL);
    CHECK(once == TSR_OK);
    snprintf(src, sizeof src, "for i in range(%d):\n    %s", rows[r].n, rows[r].op);
    tsr_Status st = tsr_eval(S, src, "loop", NULL);
    if (st != TSR_ERR_LIMIT || once != TSR_OK)
      fprintf(stderr, "%s: once %d, %d times %d: %s\n", rows[r].op, (int)once, rows[r].n,
              (int)st, tsr_error_message(S));
    CHECK(st == TSR_ERR_LIMIT);
    CHECK_STR(tsr_last_error(S)->message, "evaluation exceeded the step budget of 20000 steps");
    still_usable(S);
    tsr_close(S);
  }
}

/* numpy.random's parameter checks scan their (broadcast) parameters before drawing: a view of
   2**58 elements must meet the budget there, not loop for days (it did: no charge, no poll). */
static void test_random_parameter_scan(void) {
  static const char *const progs[] = {
    "x = random.normal(0, broadcast_to(1.0, (2**58,)))",
    "x = random.exponential(broadcast_to(1.0, (2**58,)))",
    "x = random.poisson(broadcast_to(1.0, (2**58,)))",
  };
  for (size_t k = 0; k < sizeof progs / sizeof progs[0]; k++) {
    tsr_Config cfg;
    tsr_config_init(&cfg);
    cfg.max_steps = 100000;
    tsr_State *S = tsr_open(&cfg);
    CHECK(S != NULL);
    if (!S) continue;
    CHECK(tsr_eval(S, progs[k], NULL, NULL) == TSR_ERR_LIMIT);
    still_usable(S);
    tsr_close(S);
  }
}

/* tsr_open gives a state whatever the budget: setting it up is not charged. */
static void test_open_tiny_budget(void) {
  static const uint64_t budgets[] = {1, 2, 32, 33, 1000};
  for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++) {
    tsr_Config cfg;
    tsr_config_init(&cfg);
    cfg.max_steps = budgets[k];
    tsr_State *S = tsr_open(&cfg);
    CHECK(S != NULL);
    if (!S) continue;
    /* parsing is charged a step per token: a budget of 1 or 2 runs nothing, but the state
       stays usable and reports the limit */
    tsr_Status want = budgets[k] < 8 ? TSR_ERR_LIMIT : TSR_OK;
    CHECK(tsr_eval(S, "x = 1", NULL, NULL) == want);
    CHECK(tsr_eval(S, "while True:\n    pass", NULL, NULL) == TSR_ERR_LIMIT);
    CHECK(tsr_eval(S, want == TSR_OK ? "y = x + 1" : "y = 1", NULL, NULL) == want);
    tsr_close(S);
  }
}

/* ---- interrupt from another thread ------------------------------------------------------------ */

typedef struct { tsr_State *S; double delay, sent; } Interrupter;

static void *interrupter(void *arg) {
  Interrupter *it = arg;
  usleep((useconds_t)(it->delay * 1e6));
  it->sent = now();
  tsr_interrupt(it->S);
  return NULL;
}

static void interrupt_during(tsr_State *S, const char *src) {
  Interrupter it = {S, 0.2 * slow(), 0};
  pthread_t th;
  CHECK(pthread_create(&th, NULL, interrupter, &it) == 0);
  tsr_Status st = tsr_eval(S, src, "long", NULL);
  double done = now();
  pthread_join(th, NULL);
  CHECK(st == TSR_ERR_INTERRUPT);
  CHECK_STR(tsr_last_error(S)->kind, "KeyboardInterrupt");
  /* kernels poll every 65536 elements (tens of microseconds); the bound is generous for a
     loaded machine, and tiny next to the hours these kernels would run */
  double late = done - it.sent;
  if (late > 2.0 * slow()) fprintf(stderr, "%s: stopped %.3f s after the interrupt\n", src, late);
  CHECK(late < 2.0 * slow());
  still_usable(S);
}

/* An interrupt that arrives during the last statement, after its last poll, is reported: the
   host function blocks until a second thread has called tsr_interrupt, then returns, and
   nothing of the script polls again. */
typedef struct { tsr_State *S; volatile int in_call, sent; } LateInterrupt;

static void *late_interrupter(void *arg) {
  LateInterrupt *li = arg;
  while (!li->in_call) usleep(100);
  tsr_interrupt(li->S);
  li->sent = 1;
  return NULL;
}

static tsr_Status host_wait_interrupt(tsr_Call *call, void *ud) {
  LateInterrupt *li = ud;
  li->in_call = 1;
  while (!li->sent) usleep(100);
  (void)call;
  return TSR_OK;
}

static void test_late_interrupt(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return;
  LateInterrupt li = {S, 0, 0};
  CHECK(tsr_register(S, "wait_interrupt", host_wait_interrupt, &li) == TSR_OK);
  static const char *const programs[] = {
    "wait_interrupt()",                 /* the last statement: nothing polls after it */
    "x = 1\nwait_interrupt()",
    "def f():\n    wait_interrupt()\nf()",
  };
  for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
    li.in_call = li.sent = 0;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, late_interrupter, &li) == 0);
    tsr_Tensor *r = NULL;
    tsr_Status st = tsr_eval(S, programs[k], "late", &r);
    pthread_join(th, NULL);
    CHECK(st == TSR_ERR_INTERRUPT);
    CHECK(r == NULL);
    CHECK_STR(tsr_last_error(S)->kind, "KeyboardInterrupt");
    tsr_tensor_release(r);
    still_usable(S);
  }
  tsr_close(S);
}

static void test_interrupt(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return;
  interrupt_during(S, "s = broadcast_to(ones(1), (10**13,)).sum()");     /* a reduction */
  interrupt_during(S, "s = broadcast_to(arange(4.0), (10**11, 4)).std()"); /* var/std */
  interrupt_during(S, "s = broadcast_to(arange(3.0), (10**12, 3)).max(axis=0)");  /* axis */
  interrupt_during(S, "i = 0\nwhile True:\n    i += 1");                   /* a script loop */
  interrupt_during(S, "x = [0]\nwhile True:\n    y = x * 10**7");       /* list * n */
  interrupt_during(S, "set_printoptions(threshold=10**12)\n"              /* formatting */
                      "s = str(broadcast_to(1.5, (10**9,)))");
  /* an interrupt is not remembered into the next evaluation */
  tsr_interrupt(S);
  still_usable(S);
  tsr_close(S);
}

/* ---- depth --------------------------------------------------------------------------------- */

static char *repeat3(const char *pre, const char *open, int n, const char *mid, const char *close,
                     const char *post) {
  size_t lo = strlen(open), lc = strlen(close), lm = strlen(mid);
  char *s = malloc(strlen(pre) + (lo + lc) * (size_t)n + lm + strlen(post) + 1);
  if (!s) return NULL;
  char *p = s;
  p += sprintf(p, "%s", pre);
  for (int i = 0; i < n; i++) { memcpy(p, open, lo); p += lo; }
  memcpy(p, mid, lm); p += lm;
  for (int i = 0; i < n; i++) { memcpy(p, close, lc); p += lc; }
  strcpy(p, post);
  return s;
}

static void test_depth(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return;
  const int n = 100000;
  struct { const char *open, *mid, *close; tsr_Status want; } cases[] = {
    {"(", "1", ")", TSR_ERR_SYNTAX},
    {"[", "1", "]", TSR_ERR_SYNTAX},
    {"-", "1", "", TSR_ERR_SYNTAX},
    {"not ", "1", "", TSR_ERR_SYNTAX},
    {"1+", "1", "", TSR_OK},           /* a long flat chain: a deep left-leaning tree */
    {"2**", "1", "", TSR_ERR_SYNTAX},
    {"x[", "0", "]", TSR_ERR_SYNTAX},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char *src = repeat3("y = ", cases[k].open, n, cases[k].mid, cases[k].close, "\n");
    CHECK(src != NULL);
    if (!src) continue;
    tsr_Status st = tsr_eval(S, src, "deep", NULL);
    /* fails cleanly: a SyntaxError, or a RecursionError when it parses (never a crash) */
    CHECK(st != TSR_OK);
    if (cases[k].want == TSR_ERR_SYNTAX) CHECK(st == TSR_ERR_SYNTAX);
    else CHECK(st == TSR_ERR_RUNTIME && strcmp(tsr_last_error(S)->kind, "RecursionError") == 0);
    CHECK(tsr_last_error(S)->message[0] != 0);
    if (cases[k].want == TSR_ERR_SYNTAX) CHECK(tsr_check(S, src) == TSR_ERR_SYNTAX);
    free(src);
    still_usable(S);
  }
  /* deep data built by a loop: printing and comparing are RecursionErrors, freeing is fine */
  CHECK(tsr_eval(S, "a = []\nb = []\nfor i in range(300000):\n    a = [a]\n    b = [b]", NULL,
                 NULL) == TSR_OK);
  CHECK(tsr_eval(S, "print(a)", NULL, NULL) == TSR_ERR_RUNTIME);
  CHECK_STR(tsr_last_error(S)->kind, "RecursionError");
  CHECK(tsr_eval(S, "a == b", NULL, NULL) == TSR_ERR_RUNTIME);
  CHECK(tsr_eval(S, "a = b = 0", NULL, NULL) == TSR_OK);
  still_usable(S);
  tsr_close(S);
}

/* ---- sandbox, output, host functions ---------------------------------------------------------- */

static tsr_Status host_checked_sqrt(tsr_Call *call, void *ud) {
  int *calls = ud;
  (*calls)++;
  if (tsr_arg_count(call) != 1)
    return tsr_raise(call, TSR_ERR_TYPE, "checked_sqrt() takes 1 argument (%d given)",
                     tsr_arg_count(call));
  tsr_Tensor *a = tsr_arg(call, 0);
  double v = 0;
  if (!a || tsr_tensor_copy_to(a, TSR_FLOAT64, &v, sizeof v) != TSR_OK)
    return tsr_raise(call, TSR_ERR_TYPE, "checked_sqrt() needs a number");
  if (v < 0) return tsr_raise(call, TSR_ERR_VALUE, "math domain error");
  /* a host function may call into its state (no evaluation of its own) */
  tsr_Tensor *r = tsr_tensor_new(tsr_call_state(call), TSR_FLOAT64, 0, NULL);
  if (!r) return TSR_ERR_MEMORY;
  tsr_TensorInfo in;
  tsr_tensor_info(r, &in);
  double x = v / 2 + 0.5;
  for (int i = 0; i < 60 && x > 0; i++) x = (x + v / x) / 2;
  *(double *)in.data = x;
  return tsr_return(call, r);
}

static tsr_Status host_reenter(tsr_Call *call, void *ud) {
  (void)ud;
  /* evaluating from inside an evaluation is refused, not a corruption */
  tsr_Status st = tsr_eval(tsr_call_state(call), "1 + 1", NULL, NULL);
  return st == TSR_OK ? TSR_OK : st;
}

static void test_sandbox_and_host(void) {
  Capture out;
  memset(&out, 0, sizeof out);
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.flags = TSR_SANDBOX;
  cfg.write = capture;
  cfg.write_ud = &out;
  cfg.max_memory = 64u << 20;
  cfg.max_steps = 100000;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  /* file builtins are not there at all */
  static const char *const file_fns[] = {"load_idx", "load", "save", "loadtxt", "savetxt",
                                         "fromfile", "open", NULL};
  for (int i = 0; file_fns[i]; i++) {
    char src[128];
    snprintf(src, sizeof src, "x = %s('/etc/passwd')", file_fns[i]);
    CHECK(tsr_eval(S, src, "sandbox", NULL) == TSR_ERR_NAME);
    snprintf(src, sizeof src, "import numpy as np\nx = np.%s('/etc/passwd')", file_fns[i]);
    CHECK(tsr_eval(S, src, "sandbox", NULL) != TSR_OK);
  }
  CHECK(tsr_eval_file(S, "/etc/passwd") == TSR_ERR_SANDBOX);
  /* everything else works, and output goes only to the callback */
  CHECK(tsr_eval(S, "import numpy as np\nprint(np.sqrt(arange(4.0)).sum() > 3, "
                    "isclose(1.0, 1.0 + 1e-12))\nprint(linalg.norm(ones(4)))", "ok", NULL) == TSR_OK);
  CHECK_STR(out.text, "True True\n2.0\n");
  CHECK(tsr_eval_interactive(S, "arange(3)\nNone\n", NULL) == TSR_OK);
  CHECK_STR(out.text, "True True\n2.0\narray([0, 1, 2])\n");

  /* a host function that raises; the script cannot swallow it; the state goes on */
  int calls = 0;
  CHECK(tsr_register(S, "checked_sqrt", host_checked_sqrt, &calls) == TSR_OK);
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "checked_sqrt(16.0) + 1", NULL, &r) == TSR_OK);
  double v = 0;
  CHECK(r && tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == 5.0);
  tsr_tensor_release(r);
  CHECK(tsr_eval(S, "a = 1\nb = checked_sqrt(-4.0)\nc = 3", "raise", NULL) == TSR_ERR_VALUE);
  const tsr_Error *e = tsr_last_error(S);
  CHECK_STR(e->kind, "ValueError");
  CHECK_STR(e->message, "math domain error");
  CHECK_STR(e->chunk, "raise");
  CHECK(e->line == 2);
  CHECK(strstr(tsr_error_message(S), "ValueError: math domain error") != NULL);
  CHECK(tsr_eval(S, "checked_sqrt(1, 2)", NULL, NULL) == TSR_ERR_TYPE);
  CHECK(tsr_eval(S, "checked_sqrt(x=1)", NULL, NULL) == TSR_ERR_TYPE);
  tsr_Tensor *c = tsr_get(S, "c");
  CHECK(c == NULL);   /* nothing after the error ran */
  tsr_Tensor *a = tsr_get(S, "a");
  CHECK(a != NULL);
  tsr_tensor_release(a);
  /* host calls in a loop still count against the step budget */
  CHECK(tsr_eval(S, "while True:\n    checked_sqrt(2.0)", NULL, NULL) == TSR_ERR_LIMIT);
  CHECK(calls > 100);
  CHECK(tsr_register(S, "reenter", host_reenter, NULL) == TSR_OK);
  CHECK(tsr_eval(S, "reenter()", NULL, NULL) == TSR_ERR_RUNTIME);
  still_usable(S);
  CHECK(out.err == 0);
  tsr_close(S);
}

/* ---- two states in two threads ------------------------------------------------------------- */

typedef struct { int id; int ok; double result; } Worker;

static void *worker(void *arg) {
  Worker *w = arg;
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_memory = 256u << 20;
  tsr_State *S = tsr_open(&cfg);
  if (!S) return NULL;
  double host[1000];
  for (int i = 0; i < 1000; i++) host[i] = i * (w->id + 1);
  int64_t n = 1000;
  tsr_Tensor *h = tsr_tensor_wrap(S, TSR_FLOAT64, 1, &n, NULL, host, sizeof host, 0, NULL, NULL);
  w->ok = h && tsr_set(S, "h", h) == TSR_OK;
  tsr_tensor_release(h);
  for (int k = 0; k < 20 && w->ok; k++) {
    tsr_Tensor *r = NULL;
    w->ok = tsr_eval(S, "acc = 0.0\nfor j in range(50):\n    acc += (h * j).sum() / 1000\n"
                        "m = arange(10000.0).reshape(100, 100)\nacc + (m @ m).trace() * 0",
                     "worker", &r) == TSR_OK &&
            r && tsr_tensor_copy_to(r, TSR_FLOAT64, &w->result, sizeof w->result) == TSR_OK;
    tsr_tensor_release(r);
  }
  tsr_close(S);
  return NULL;
}

static void test_threads(void) {
  Worker w[2] = {{0, 0, 0}, {1, 0, 0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, worker, &w[i]) == 0);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  /* sum over j of j * 499.5 * (id + 1) = 1225 * 499.5 * (id + 1) */
  for (int i = 0; i < 2; i++) {
    CHECK(w[i].ok);
    CHECK(w[i].result == 1225 * 499.5 * (i + 1));
  }
}

int main(void) {
  double t0 = now();
#define TIME(f) (f(), fprintf(stderr, #f ": %.2f s\n", now() - t0), t0 = now())
  TIME(test_steps);
  TIME(test_steps_per_family);
  TIME(test_open_tiny_budget);
  TIME(test_random_parameter_scan);
  TIME(test_interrupt);
  TIME(test_late_interrupt);
  TIME(test_depth);
  TIME(test_sandbox_and_host);
  TIME(test_threads);
  return CHECK_DONE("limits");
}
