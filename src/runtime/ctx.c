/*
** ctx.c -- the runtime's context: accounted allocation, the error slot, interrupt and step
** polling, and the growable text buffer.
*/
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include "rt.h"
#include "fuse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sched.h>
#include <unistd.h>

static void *libc_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  (void)ud; (void)old_size;
  if (new_size == 0) { free(ptr); return NULL; }
  return realloc(ptr, new_size);
}

void ctx_init(Ctx *c, void *(*alloc)(void *, void *, size_t, size_t), void *ud) {
  memset(c, 0, sizeof *c);
  c->alloc = alloc ? alloc : libc_alloc;
  c->alloc_ud = ud;
  c->status = TSR_OK;
  c->kind = "";
  printoptions_default(&c->print);
}

static bool over_cap(Ctx *c, size_t add) {
  return c->mem_max && (add > c->mem_max || c->mem_used > c->mem_max - add);
}

static void *oom(Ctx *c, size_t n) {
  if (c->status == TSR_OK) {
    if (c->mem_max)
      ERR_MEMORY(c, "Unable to allocate %zu bytes (memory limit %zu bytes, %zu in use)", n,
                 c->mem_max, c->mem_used);
    else
      ERR_MEMORY(c, "Unable to allocate %zu bytes", n);
  }
  return NULL;
}

void *ctx_malloc(Ctx *c, size_t n) {
  if (n == 0) n = 1;
  if (over_cap(c, n)) return oom(c, n);
  void *p = c->alloc(c->alloc_ud, NULL, 0, n);
  if (!p) return oom(c, n);
  c->mem_used += n;
  if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
  return p;
}

void *ctx_calloc(Ctx *c, size_t n) {
  void *p = ctx_malloc(c, n);
  if (p) memset(p, 0, n ? n : 1);
  return p;
}

void *ctx_realloc(Ctx *c, void *p, size_t old_n, size_t new_n) {
  if (!p) return ctx_malloc(c, new_n);
  if (old_n == 0) old_n = 1;
  if (new_n == 0) new_n = 1;
  if (new_n > old_n && over_cap(c, new_n - old_n)) return oom(c, new_n);
  void *q = c->alloc(c->alloc_ud, p, old_n, new_n);
  if (!q) return oom(c, new_n);
  c->mem_used = c->mem_used - old_n + new_n;
  if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
  return q;
}

void ctx_free(Ctx *c, void *p, size_t n) {
  if (!p) return;
  if (n == 0) n = 1;
  c->alloc(c->alloc_ud, p, n, 0);
  c->mem_used -= n;
}

/* The MemoryError of an array of n items whose byte count cannot be had. */
static void *oom_items(Ctx *c, int64_t n, size_t size) {
  if (c->status == TSR_OK)
    ERR_MEMORY(c, "Unable to allocate %lld items of %zu bytes", (long long)n, size);
  return NULL;
}

void *ctx_malloc_n(Ctx *c, int64_t n, size_t size) {
  size_t bytes;
  return size_bytes(n, size, &bytes) ? ctx_malloc(c, bytes) : oom_items(c, n, size);
}

void *ctx_calloc_n(Ctx *c, int64_t n, size_t size) {
  size_t bytes;
  return size_bytes(n, size, &bytes) ? ctx_calloc(c, bytes) : oom_items(c, n, size);
}

void *ctx_realloc_n(Ctx *c, void *p, int64_t old_n, int64_t new_n, size_t size) {
  size_t old_bytes, new_bytes;
  if (!size_bytes(old_n, size, &old_bytes) || !size_bytes(new_n, size, &new_bytes))
    return oom_items(c, new_n, size);
  return ctx_realloc(c, p, old_bytes, new_bytes);
}

void ctx_free_n(Ctx *c, void *p, int64_t n, size_t size) {
  ctx_free(c, p, (size_t)n * size);   /* n * size was checked when p was allocated */
}

int shape_count(int ndim, const int64_t *shape, size_t itemsize, int64_t *count) {
  int64_t n = itemsize ? (int64_t)itemsize : 1;
  bool zero = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) return -1;
    if (shape[i] == 0) zero = true;
    else if (size_mul(n, shape[i], &n)) return -1;
  }
  *count = zero ? 0 : n / (itemsize ? (int64_t)itemsize : 1);
  return 0;
}

int err_too_big(Ctx *c) {
  return ERR_VALUE(c, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                      "maximum possible size.");
}

/* Aligned blocks keep, just before the aligned address, the raw pointer and the byte count
   given to ctx_malloc (a cached block may be larger than asked for). */
#define ALIGN 64
#define HDR (2 * sizeof(void *))
/* Buffers of at least this many bytes go to the cache when freed (smaller ones are cheap to
   get from malloc without page faults). */
#define CACHE_MIN ((size_t)64 << 10)
/* The cache holds at most this many bytes in all. */
#define CACHE_MAX ((size_t)512 << 20)

static void *aligned_in(char *raw, size_t total) {
  uintptr_t a = ((uintptr_t)raw + HDR + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
  ((void **)a)[-1] = raw;
  ((size_t *)a)[-2] = total;
  return (void *)a;
}

/* A cached block of total bytes in [need, need + need / 4], best fit, taken out of the cache
   and accounted in mem_used again; NULL if none. */
static char *cache_take(Ctx *c, size_t need, size_t *got) {
  int best = -1;
  for (int i = 0; i < c->ncached; i++)
    if (c->cache[i].total >= need && c->cache[i].total - need <= need / 4 &&
        (best < 0 || c->cache[i].total < c->cache[best].total))
      best = i;
  if (best < 0) return NULL;
  size_t total = c->cache[best].total;
  if (over_cap(c, total)) return NULL;
  char *raw = c->cache[best].raw;
  memmove(&c->cache[best], &c->cache[best + 1], (size_t)(c->ncached - best - 1) * sizeof c->cache[0]);
  c->ncached--;
  *got = total;
  c->cache_bytes -= total;
  c->mem_used += total;
  if (c->mem_used > c->mem_peak) c->mem_peak = c->mem_used;
  return raw;
}

void ctx_cache_flush(Ctx *c) {
  for (int i = 0; i < c->ncached; i++) c->alloc(c->alloc_ud, c->cache[i].raw, c->cache[i].total, 0);
  c->ncached = 0;
  c->cache_bytes = 0;
}

void *ctx_alloc_aligned(Ctx *c, size_t n) {
  if (n > SIZE_MAX - ALIGN - HDR) return oom(c, n);
  size_t total = n + ALIGN + HDR;
  char *raw = NULL;
  size_t got;
  if (c->ncached && total >= CACHE_MIN && (raw = cache_take(c, total, &got)))
    return aligned_in(raw, got);
  /* real memory held must stay under the cap: give back cached blocks first */
  if (c->ncached && c->mem_max && c->mem_used + c->cache_bytes + total > c->mem_max)
    ctx_cache_flush(c);
  raw = ctx_malloc(c, total);
  if (!raw) return NULL;
  void *a = aligned_in(raw, total);
#ifdef MADV_HUGEPAGE
  /* Large tensors: ask for transparent huge pages, as NumPy does, so that first touches of a
     fresh buffer fault 2 MiB at a time instead of 4 KiB. */
  if (n >= ((size_t)4 << 20)) {
    uintptr_t lo = ((uintptr_t)a + 4095) & ~(uintptr_t)4095, hi = ((uintptr_t)a + n) & ~(uintptr_t)4095;
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
  }
#endif
  return a;
}

void ctx_free_aligned(Ctx *c, void *p, size_t n) {
  (void)n;
  if (!p) return;
  void *raw = ((void **)p)[-1];
  size_t total = ((size_t *)p)[-2];
  if (c->cache_on && total >= CACHE_MIN && total <= CACHE_MAX) {
    /* make room: drop the oldest blocks */
    while (c->ncached && (c->ncached == CTX_CACHE_SLOTS || c->cache_bytes + total > CACHE_MAX)) {
      c->alloc(c->alloc_ud, c->cache[0].raw, c->cache[0].total, 0);
      c->cache_bytes -= c->cache[0].total;
      memmove(&c->cache[0], &c->cache[1], (size_t)(c->ncached - 1) * sizeof c->cache[0]);
      c->ncached--;
    }
    c->cache[c->ncached].raw = raw;
    c->cache[c->ncached].total = total;
    c->ncached++;
    c->cache_bytes += total;
    c->mem_used -= total;
    return;
  }
  ctx_free(c, raw, total);
}

void ctx_open_speedups(Ctx *c, int nthreads) {
  c->cache_on = true;
  if (nthreads <= 0) {
    const char *env = getenv("TSR_NUM_THREADS");
    long k = env && *env ? strtol(env, NULL, 10) : 0;
    if (k <= 0) {   /* the cores this process may run on: one system call, where sysconf
                       reads /sys at every start */
      cpu_set_t set;
      k = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
      if (k <= 0) k = sysconf(_SC_NPROCESSORS_ONLN);
    }
    nthreads = k < 1 ? 1 : k > 64 ? 64 : (int)k;
  }
  c->nthreads = nthreads;
}

void ctx_close_speedups(Ctx *c) {
  pool_stop(c);
  fuse_drop_spare(c);
  if (c->parse_spare) ctx_free(c, c->parse_spare, c->parse_spare_size);
  c->parse_spare = NULL;
  ctx_cache_flush(c);
  c->cache_on = false;
  c->nthreads = 0;
}

int ctx_verr(Ctx *c, tsr_Status st, const char *kind, const char *fmt, va_list ap) {
  if (c->status != TSR_OK) return -1;     /* the first error wins */
  c->status = st;
  c->kind = kind;
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  return -1;
}

int ctx_err(Ctx *c, tsr_Status st, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ctx_verr(c, st, kind, fmt, ap);
  va_end(ap);
  return -1;
}

void ctx_clear(Ctx *c) {
  c->status = TSR_OK;
  c->kind = "";
  c->msg[0] = 0;
}

int ctx_poll(Ctx *c, uint64_t work) {
  if (__builtin_add_overflow(c->steps, work, &c->steps)) c->steps = UINT64_MAX;
  if (c->interrupted) {
    c->interrupted = 0;
    c->status = TSR_OK;   /* an interrupt replaces any pending error */
    return ctx_err(c, TSR_ERR_INTERRUPT, "KeyboardInterrupt", "interrupted");
  }
  if (c->max_steps && c->steps > c->max_steps)
    return ctx_err(c, TSR_ERR_LIMIT, "LimitError",
                   "evaluation exceeded the step budget of %llu steps",
                   (unsigned long long)c->max_steps);
  return 0;
}

int ctx_work(Ctx *c, uint64_t n, unsigned rate) {
  uint64_t units;
  if (__builtin_mul_overflow(n, (uint64_t)rate, &units) ||
      __builtin_add_overflow(units, c->work, &units))
    units = UINT64_MAX;
  c->work = units % WORK_PER_STEP;
  return ctx_poll(c, units / WORK_PER_STEP);
}

/* ---------------------------------------------------------------------------------------- */

void buf_init(Buf *b, Ctx *c) { b->ctx = c; b->p = NULL; b->n = b->cap = 0; b->failed = false; }

void buf_free(Buf *b) {
  if (b->p) ctx_free(b->ctx, b->p, b->cap);
  b->p = NULL; b->n = b->cap = 0;
}

static bool buf_reserve(Buf *b, size_t extra) {
  if (b->failed) return false;
  if (extra > SIZE_MAX / 2 - b->n - 1) { b->failed = true; oom(b->ctx, extra); return false; }
  if (b->n + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->n + extra + 1) {
    if (cap > SIZE_MAX / 2) { b->failed = true; oom(b->ctx, cap); return false; }
    cap *= 2;
  }
  char *p = ctx_realloc(b->ctx, b->p, b->cap, cap);
  if (!p) { b->failed = true; return false; }
  b->p = p; b->cap = cap;
  return true;
}

void buf_putn(Buf *b, const char *s, size_t n) {
  if (!buf_reserve(b, n)) return;
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_fill(Buf *b, char ch, size_t n) {
  if (!buf_reserve(b, n)) return;
  memset(b->p + b->n, ch, n);
  b->n += n;
  b->p[b->n] = 0;
}

void buf_putc(Buf *b, char ch) { buf_putn(b, &ch, 1); }

void buf_printf(Buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  if ((size_t)k < sizeof small) { buf_putn(b, small, (size_t)k); return; }
  if (!buf_reserve(b, (size_t)k)) return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)k;
}

bool buf_work(Buf *b, uint64_t n, unsigned rate) {
  if (b->failed) return false;
  if (ctx_work(b->ctx, n, rate)) b->failed = true;
  return !b->failed;
}

const char *buf_str(Buf *b) { return b->p && !b->failed ? b->p : ""; }
