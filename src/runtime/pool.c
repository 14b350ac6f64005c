/*
** pool.c -- a small thread pool per interpreter state for large elementwise, fused and
** reduction kernels.  The calling thread works too; idle workers sleep on a condition
** variable, so they never compete with OpenBLAS's threads (tsr never runs BLAS and a pool
** loop at the same time).  Work is cut into ranges that tasks must treat independently, so
** results never depend on the number of threads.
*/
#include "rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define POOL_MAX 64

struct Pool {
  int nworkers;
  pthread_t th[POOL_MAX];
  pthread_mutex_t mu;
  pthread_cond_t wake, done;
  uint64_t gen;            /* bumped for every parallel loop (under mu) */
  bool stop;
  /* the current loop: written by the caller before it publishes the ticket word */
  PoolTask task;
  void *arg;
  int64_t n;
  /* The ticket word: the loop's part count in the high 32 bits, the next part to take in the
     low ones.  One atomic increment both takes a part and tells which loop it belongs to, so
     a worker that wakes late (its loop already finished by the others) takes nothing, and
     the caller never waits for a worker that has not started. */
  atomic_uint_fast64_t ticket;
  atomic_int_fast64_t finished;   /* parts of the current loop completed */
  atomic_int fpflags;             /* FPU flags (FPE_*) the workers' parts raised */
};

/* Takes parts of the current loop until none are left.  A worker (not the caller) hands the
   FPU flags its parts raised to the caller through p->fpflags: the flags are per thread. */
static void run_parts(struct Pool *p, bool worker) {
  for (;;) {
    uint64_t t = atomic_fetch_add(&p->ticket, 1);
    int64_t k = (int64_t)(t & 0xffffffffu), nparts = (int64_t)(t >> 32);
    if (k >= nparts) return;
    int64_t lo = p->n * k / nparts, hi = p->n * (k + 1) / nparts;
    if (worker) fperr_clear();
    if (hi > lo) p->task(p->arg, lo, hi);
    if (worker) {
      int raised = fperr_test();
      if (raised) atomic_fetch_or(&p->fpflags, raised);
    }
    if (atomic_fetch_add(&p->finished, 1) + 1 == nparts) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_broadcast(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

static void *worker(void *arg) {
  struct Pool *p = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stop && p->gen == seen) pthread_cond_wait(&p->wake, &p->mu);
    if (p->stop) break;
    seen = p->gen;
    pthread_mutex_unlock(&p->mu);
    run_parts(p, true);
    pthread_mutex_lock(&p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

/* Starts c's pool with c->nthreads - 1 workers (the caller is the last thread).  The pool
   object comes from the Ctx allocator (so from the host's allocator, and counted in its
   memory); a failure only means running serially, with no error left pending.  Returns the
   pool or NULL. */
static struct Pool *pool_start(Ctx *c) {
  struct Pool *p = ctx_calloc(c, sizeof *p);
  if (!p) { ctx_clear(c); return NULL; }
  if (pthread_mutex_init(&p->mu, NULL)) { ctx_free(c, p, sizeof *p); return NULL; }
  if (pthread_cond_init(&p->wake, NULL)) {
    pthread_mutex_destroy(&p->mu); ctx_free(c, p, sizeof *p); return NULL;
  }
  if (pthread_cond_init(&p->done, NULL)) {
    pthread_cond_destroy(&p->wake); pthread_mutex_destroy(&p->mu); ctx_free(c, p, sizeof *p);
    return NULL;
  }
  int want = c->nthreads - 1;
  if (want > POOL_MAX) want = POOL_MAX;
  for (int i = 0; i < want; i++) {
    if (pthread_create(&p->th[i], NULL, worker, p)) break;
    p->nworkers++;
  }
  c->pool = p;
  if (p->nworkers == 0) { pool_stop(c); c->nthreads = 1; return NULL; }
  return p;
}

void pool_stop(Ctx *c) {
  struct Pool *p = c->pool;
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->th[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->mu);
  ctx_free(c, p, sizeof *p);
  c->pool = NULL;
}

int pool_width(const Ctx *c, int64_t n, int64_t grain) {
  if (c->nthreads <= 1 || grain < 1 || n < 2 * grain) return 1;
  int64_t w = n / grain;
  return w < c->nthreads ? (int)w : c->nthreads;
}

void pool_parallel_for(Ctx *c, int64_t n, int64_t grain, PoolTask task, void *arg) {
  int width = pool_width(c, n, grain);
  struct Pool *p = c->pool;
  if (width > 1 && !p) p = pool_start(c);
  if (width <= 1 || !p) {
    if (n > 0) task(arg, 0, n);
    return;
  }
  if (width > p->nworkers + 1) width = p->nworkers + 1;
  /* a few parts per thread evens out a busy machine */
  int64_t nparts = (int64_t)width * 4;
  if (nparts > n / grain) nparts = n / grain;
  if (nparts < width) nparts = width;
  p->task = task;
  p->arg = arg;
  p->n = n;
  atomic_store(&p->finished, 0);
  atomic_store(&p->fpflags, 0);
  atomic_store(&p->ticket, (uint64_t)nparts << 32);   /* publishes the loop */
  pthread_mutex_lock(&p->mu);
  p->gen++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  run_parts(p, false);
  /* wait only for parts that workers have taken and not yet finished */
  if (atomic_load(&p->finished) < nparts) {
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->finished) < nparts) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
  }
  int raised = atomic_load(&p->fpflags);
  if (raised) fperr_raise(raised);
}

/* pool_parallel_for_polled: the same loop in rounds, polling c between rounds. */
typedef struct { PoolTask task; void *arg; int64_t base; } Shifted;

static void shifted_task(void *arg, int64_t lo, int64_t hi) {
  Shifted *sh = arg;
  sh->task(sh->arg, sh->base + lo, sh->base + hi);
}

/* Elements (work units) per round: a round of this size takes a few milliseconds, so an
   interrupt or the step budget stops a long kernel promptly. */
#define POLL_ROUND ((int64_t)1 << 22)

int pool_parallel_for_polled(Ctx *c, int64_t n, int64_t grain, PoolTask task, void *arg,
                             int64_t work_per_item) {
  if (work_per_item < 1) work_per_item = 1;
  int64_t round = POLL_ROUND / work_per_item;
  int64_t min_round = grain * (c->nthreads > 1 ? c->nthreads : 1) * 4;
  if (round < min_round) round = min_round;
  if (round < 1) round = 1;
  for (int64_t lo = 0; lo < n; lo += round) {
    int64_t m = n - lo < round ? n - lo : round;
    Shifted sh = {task, arg, lo};
    pool_parallel_for(c, m, grain, shifted_task, &sh);
    if (ctx_work(c, (uint64_t)(m * work_per_item), 1)) return -1;
  }
  return 0;
}
