/*
** check.h -- the tiny assertion kit of tsr's C unit tests.  Each test binary counts its checks
** and ends with "unit NAME: N passed, N failed"; tests/run adds the counts up.
*/
#ifndef TSR_CHECK_H
#define TSR_CHECK_H
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond) do {                                                          \
    if (cond) check_passed++;                                                     \
    else { check_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n",           \
                                   __FILE__, __LINE__, #cond); }                  \
  } while (0)
#define CHECK_STR(got, want) do {                                                 \
    const char *g_ = (got), *w_ = (want);                                         \
    if (g_ && strcmp(g_, w_) == 0) check_passed++;                                \
    else { check_failed++; fprintf(stderr, "%s:%d: got\n%s\nwant\n%s\n",          \
                                   __FILE__, __LINE__, g_ ? g_ : "(null)", w_); } \
  } while (0)
#define CHECK_DONE(name)                                                          \
  (printf("unit %s: %d passed, %d failed\n", (name), check_passed, check_failed), \
   check_failed ? 1 : 0)
#endif
