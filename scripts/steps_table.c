/*
** steps_table.c -- measures what the step budget buys: for each family of operations, a script
** that repeats one operation forever runs in a fresh state under max_steps = 10^7 (or
** STEPS_BUDGET), and the host reports the wall time until LimitError, the iterations done and
** the steps one iteration costs; then the same script without a budget is interrupted from a
** second thread and the delay until tsr_eval returns is reported.  It makes the table of
** docs/robustness.md: `scripts/steps-table` builds and runs it (on an otherwise idle machine).
*/
#include <tsr.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU time of the process (every thread): what the wall time would be on an idle machine for
   serial work, and an upper bound for work split over the pool's threads. */
static double cpu(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

/* One row of the table: the family, the state it needs (run without a budget), and the body
   of the loop that repeats the operation. */
static const struct { const char *family, *setup, *body; } rows[] = {
  {"script loop (statements)", "", "pass"},
  {"ufunc, 10^6 float64", "x = ones(10**6)", "y = x * 2.0"},
  {"fill: ones(10^6)", "", "y = ones(10**6)"},
  {"copy, 10^6", "x = ones(10**6)", "y = x.copy()"},
  {"reduction: sum, 10^6", "x = ones(10**6)", "s = x.sum()"},
  {"sort 1-D, 10^6", "x = random.rand(10**6)", "y = sort(x)"},
  {"argsort 1-D, 10^6", "x = random.rand(10**6)", "y = argsort(x)"},
  {"sort 2-D rows, 1000x1000", "x = random.rand(1000, 1000)", "y = sort(x, axis=1)"},
  {"partition / median, 10^6", "x = random.rand(10**6)", "y = median(x)"},
  {"percentile, 10^6", "x = random.rand(10**6)", "y = percentile(x, 30)"},
  {"unique, 10^6", "x = random.randint(0, 1000, 10**6)", "y = unique(x)"},
  {"in1d, 10^6 in 10^5", "x = random.randint(0, 10**6, 10**6); v = arange(10**5)",
   "y = in1d(x, v)"},
  {"intersect1d, 10^6", "x = random.randint(0, 10**6, 10**6); v = arange(10**5)",
   "y = intersect1d(x, v)"},
  {"searchsorted, 10^6 in 10^6", "v = arange(10**6); x = random.rand(10**6) * 10**6",
   "y = searchsorted(v, x)"},
  {"histogram, 10^6", "x = random.rand(10**6)", "y = histogram(x, bins=100)"},
  {"correlate, 10^4 by 10^4", "x = random.rand(10**4)", "y = correlate(x, x, 'full')"},
  {"lstsq, 1000x200", "a = random.rand(1000, 200); b = random.rand(1000)",
   "y = linalg.lstsq(a, b, rcond=None)"},
  {"matmul, 300x300", "a = random.rand(300, 300)", "y = a @ a"},
  {"random.rand(10^6)", "", "y = random.rand(10**6)"},
  {"random.randn(10^6)", "", "y = random.randn(10**6)"},
  {"random.permutation(10^6)", "", "y = random.permutation(10**6)"},
  {"tolist, 10^6", "x = ones(10**6)", "y = x.tolist()"},
  {"array(list), 10^6", "l = ones(10**6).tolist()", "y = array(l)"},
  {"str(array), 10^5", "set_printoptions(threshold=10**9); x = random.rand(10**5)",
   "s = str(x)"},
  {"repr(list), 10^5 floats", "l = random.rand(10**5).tolist()", "s = repr(l)"},
  {"list * n, 10^6", "l = [1, 2]", "y = l * 500000"},
  {"list + list, 10^6", "l = [0] * 500000", "y = l + l"},
  {"list == list, 10^6", "l = [0] * 10**6; m = [0] * 10**6", "y = l == m"},
  {"x in list, 10^6", "l = [0] * 10**6", "y = -1 in l"},
  {"str * n, 10^6", "s = 'ab'", "y = s * 500000"},
  {"str in str, 10^6", "s = 'a' * 10**6", "y = 'b' in s"},
  {"str == str, 10^6", "s = 'a' * 10**6; t = 'a' * 10**6", "y = s == t"},
  {"tuple + tuple, 10^6", "t = (0,) * 500000", "y = t + t"},
  {"svd, 500x200", "a = random.rand(500, 200)", "y = linalg.svd(a)"},
  {"zeros(10^6)", "", "y = zeros(10**6)"},
  {"repr(array) of int64, 10^5", "set_printoptions(threshold=10**9); x = arange(10**5)",
   "s = repr(x)"},
};

static void quiet(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

static tsr_State *open_state(uint64_t max_steps) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_steps = max_steps;
  cfg.write = quiet;
  return tsr_open(&cfg);
}

typedef struct { tsr_State *S; double delay, sent; volatile int done; } Interrupter;

/* Sends tsr_interrupt after `delay` seconds unless the evaluation already ended. */
static void *interrupter(void *arg) {
  Interrupter *it = arg;
  double end = now() + it->delay;
  while (!it->done && now() < end) usleep(1000);
  if (it->done) return NULL;
  it->sent = now();
  tsr_interrupt(it->S);
  return NULL;
}

static void loop_source(char *src, size_t cap, const char *body) {
  snprintf(src, cap, "i = 0\nwhile True:\n    %s\n    i += 1\n", body);
}

static long long get_int(tsr_State *S, const char *name) {
  tsr_Tensor *t = tsr_get(S, name);
  int64_t v = -1;
  if (t) tsr_tensor_copy_to(t, TSR_INT64, &v, sizeof v);
  tsr_tensor_release(t);
  return (long long)v;
}

int main(int argc, char **argv) {
  uint64_t budget = 10000000;
  const char *only = argc > 1 ? argv[1] : NULL;
  if (getenv("STEPS_BUDGET")) budget = strtoull(getenv("STEPS_BUDGET"), NULL, 10);
  double cap = 60;   /* a row still running after this long is interrupted and shown as > cap */
  double load[1] = {0};
  getloadavg(load, 1);
  printf("budget %llu steps, load average %.1f at the start\n\n",
         (unsigned long long)budget, load[0]);
  printf("| family | operation | steps per operation | CPU time to LimitError (s) "
         "| wall time (s) | interrupt delay (ms) |\n|---|---|---|---|---|---|\n");
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    if (only && !strstr(rows[r].family, only)) continue;
    char src[512];
    loop_source(src, sizeof src, rows[r].body);
    /* under the budget */
    tsr_State *S = open_state(budget);
    if (!S || tsr_eval(S, rows[r].setup, "setup", NULL) != TSR_OK) {
      fprintf(stderr, "%s: setup failed: %s\n", rows[r].family, S ? tsr_error_message(S) : "");
      tsr_close(S);
      continue;
    }
    Interrupter it = {S, cap, 0, 0};
    pthread_t th;
    pthread_create(&th, NULL, interrupter, &it);
    double t0 = now(), c0 = cpu();
    tsr_Status st = tsr_eval(S, src, "loop", NULL);
    double wall = now() - t0, used = cpu() - c0;
    it.done = 1;
    pthread_join(th, NULL);
    long long iters = get_int(S, "i");
    char per[64];
    if (st != TSR_ERR_LIMIT) snprintf(per, sizeof per, "(%s)", tsr_last_error(S)->kind);
    else if (iters > 0) snprintf(per, sizeof per, "%.0f", (double)budget / (double)iters);
    else snprintf(per, sizeof per, "> %llu", (unsigned long long)budget);
    tsr_close(S);
    /* without a budget, interrupted after 0.3 s */
    S = open_state(0);
    double late = -1;
    if (S && tsr_eval(S, rows[r].setup, "setup", NULL) == TSR_OK) {
      Interrupter it2 = {S, 0.3, 0, 0};
      pthread_create(&th, NULL, interrupter, &it2);
      st = tsr_eval(S, src, "loop", NULL);
      double done = now();
      it2.done = 1;
      pthread_join(th, NULL);
      if (st == TSR_ERR_INTERRUPT && it2.sent > 0) late = (done - it2.sent) * 1e3;
    }
    tsr_close(S);
    printf("| %s | `%s` | %s | %.2f | %s%.2f | %.1f |\n", rows[r].family, rows[r].body, per,
           used, wall >= cap ? "> " : "", wall, late);
    fflush(stdout);
  }
  return 0;
}
