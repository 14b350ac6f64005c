/*
** stack.c -- the C stack guard of a state.  tsr recurses over user input (the evaluator over
** nested expressions and script calls, repr and == over nested lists), and an embedded
** interpreter may run on a host thread with a small stack.  Rather than a fixed depth that is
** too small on one thread and too large on another, the guard is an address: the bottom of
** the calling thread's stack plus a margin.  Recursive code asks ctx_stack_exhausted (rt.h)
** and fails with RecursionError when below it.
*/
#define _GNU_SOURCE
#include "rt.h"

#include <pthread.h>

/* Room left below the guard for what runs between two checks: a BLAS call, printf, the
   formatter's buffers.  Stacks smaller than 4 * MARGIN keep a quarter of their size. */
#define MARGIN ((size_t)256 * 1024)
/* Used when the thread's stack bounds are unknown: this much below the entry frame. */
#define FALLBACK ((size_t)1024 * 1024)

void ctx_stack_init(Ctx *c) {
  pthread_t self = pthread_self();
  if (c->stack_known && c->stack_thread == (unsigned long)self) return;
  char *here = __builtin_frame_address(0);
  char *limit = here - FALLBACK;
  pthread_attr_t attr;
  if (pthread_getattr_np(self, &attr) == 0) {
    void *addr;
    size_t size;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0 && (char *)addr < here &&
        here <= (char *)addr + size) {
      size_t margin = size >= 4 * MARGIN ? MARGIN : size / 4;
      limit = (char *)addr + margin;
    }
    pthread_attr_destroy(&attr);
  }
  c->stack_limit = limit;
  c->stack_thread = (unsigned long)self;
  c->stack_known = true;
}
