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
#include <sys/resource.h>
#include <unistd.h>

extern void *__libc_stack_end;   /* glibc: the initial thread's stack pointer at process start */

/* Room left below the guard for what runs between two checks: a BLAS call, printf, the
   formatter's buffers.  Stacks smaller than 4 * MARGIN keep a quarter of their size. */
#define MARGIN ((size_t)256 * 1024)
/* Used when the thread's stack bounds are unknown: this much below the entry frame. */
#define FALLBACK ((size_t)1024 * 1024)

/* The guard of the process's initial thread without pthread_getattr_np, which for that thread
   reads and parses /proc/self/maps (a tenth of tsr's start-up): its stack ends near
   __libc_stack_end and may grow to RLIMIT_STACK, of which the arguments and environment above
   __libc_stack_end take at most a quarter (Linux's limit), so three quarters are surely ours.
   False when that cannot be known (another thread, an unlimited stack, odd addresses). */
static bool initial_thread_limit(char *here, char **limit) {
  if (getpid() != gettid()) return false;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return false;
  char *top = __libc_stack_end;
  size_t size = (size_t)rl.rlim_cur / 4 * 3;
  if (!top || here > top || size < 4 * MARGIN || (uintptr_t)top < size) return false;
  char *bottom = top - size;
  if (here <= bottom + MARGIN) return false;
  *limit = bottom + MARGIN;
  return true;
}

void ctx_stack_init(Ctx *c) {
  pthread_t self = pthread_self();
  if (c->stack_known && c->stack_thread == (unsigned long)self) return;
  char *here = __builtin_frame_address(0);
  char *limit = here - FALLBACK;
  pthread_attr_t attr;
  if (initial_thread_limit(here, &limit)) {
    /* limit set */
  } else if (pthread_getattr_np(self, &attr) == 0) {
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
