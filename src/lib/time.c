/*
** time.c -- Python's time module: the clocks (time, perf_counter, monotonic, process_time and
** their _ns forms, as floats of seconds or ints of nanoseconds) and sleep, which polls the
** interrupt flag and charges one step per millisecond slept, so that tsr_interrupt and
** max_steps bound it like any other work.
*/
#include "lib.h"

#include <math.h>
#include <time.h>

static int64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int no_args(Interp *I, const Args *a, const char *name) {
  if (a->npos || a->nkw) return IERR_TYPE(I, "time.%s() takes no arguments (%d given)", name, a->npos + a->nkw);
  return 0;
}

/* One row per clock: the float form in seconds and the _ns form in nanoseconds. */
#define TIME_CLOCKS(X)                                                                     \
  X(time, CLOCK_REALTIME) X(perf_counter, CLOCK_MONOTONIC) X(monotonic, CLOCK_MONOTONIC) \
  X(process_time, CLOCK_PROCESS_CPUTIME_ID)

#define X_FN(name, id)                                                           \
  static int time_##name(Interp *I, const Args *a, Value *out) {                 \
    if (no_args(I, a, #name)) return -1;                                         \
    *out = v_float((double)clock_ns(id) * 1e-9);                                 \
    return 0;                                                                    \
  }                                                                              \
  static int time_##name##_ns(Interp *I, const Args *a, Value *out) {            \
    if (no_args(I, a, #name "_ns")) return -1;                                   \
    *out = v_int(clock_ns(id));                                                  \
    return 0;                                                                    \
  }
TIME_CLOCKS(X_FN)
#undef X_FN

/* sleep(secs): in slices of at most 10 ms, polling between them. */
static int time_sleep(Interp *I, const Args *a, Value *out) {
  Value s[1];
  double secs;
  if (args_parse(I, a, "sleep", "secs", s)) return -1;
  if (s[0].type != V_INT && s[0].type != V_FLOAT && s[0].type != V_BOOL && s[0].type != V_TENSOR)
    return IERR_TYPE(I, "'%s' object cannot be interpreted as an integer", value_type_name(s[0]));
  if (value_to_double(I, s[0], &secs)) return -1;
  if (isnan(secs)) return IERR_VALUE(I, "Invalid value NaN (not a number)");
  if (secs < 0) return IERR_VALUE(I, "sleep length must be non-negative");
  int64_t end = clock_ns(CLOCK_MONOTONIC) + (secs > 1e9 ? (int64_t)1e18 : (int64_t)(secs * 1e9));
  for (;;) {
    int64_t left = end - clock_ns(CLOCK_MONOTONIC);
    if (left <= 0) break;
    int64_t slice = left < 10000000 ? left : 10000000;
    struct timespec ts = {0, (long)slice};
    nanosleep(&ts, NULL);
    if (ctx_poll(interp_ctx(I), (uint64_t)(slice / 1000000) + 1) < 0) return -1;
  }
  *out = v_none();
  return 0;
}

#define X_ROW(name, id)                                                                  \
  {"time", #name, time_##name, #name "() -> float\n\nThe clock " #id " in seconds."},     \
  {"time", #name "_ns", time_##name##_ns, #name "_ns() -> int\n\nThe clock " #id         \
   " in nanoseconds."},
static const Builtin time_functions[] = {
  TIME_CLOCKS(X_ROW)
  {"time", "sleep", time_sleep, "sleep(secs)\n\nDelay execution for a given number of "
   "seconds (interruptible)."},
  {NULL, NULL, NULL, NULL}
};
#undef X_ROW

const ModuleDef lib_time = {"time", time_functions, NULL, 0};
