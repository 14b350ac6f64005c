/*
** iter.c -- the iteration engine every elementwise kernel runs on (NumPy's raw-array
** iteration recipe): drop size-1 dims, order dims by stride, coalesce dims that are contiguous
** with each other, then call the kernel's inner loop on runs of the innermost dim.
*/
#include "rt.h"

#define ITER_MAXOP 8
#define ITER_CHUNK 65536   /* elements between interrupt polls */

/* Should axis a be iterated inside (faster than) axis b?  The first operand whose strides on
   both axes are nonzero and differ decides; otherwise C order (later axis inside). */
static bool axis_inner(int nop, const int64_t (*st)[TSR_MAXDIMS], int a, int b) {
  for (int k = 0; k < nop; k++) {
    int64_t sa = st[k][a] < 0 ? -st[k][a] : st[k][a];
    int64_t sb = st[k][b] < 0 ? -st[k][b] : st[k][b];
    if (sa == 0 || sb == 0 || sa == sb) continue;
    return sa < sb;
  }
  return a > b;
}

/* Runs loop over ops[0]'s shape (all operands of the same shape).  Never allocates.  Inner
   runs longer than ITER_CHUNK are split so that c is polled at least every ITER_CHUNK
   elements. */
int iter_run(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux) {
  int64_t st[ITER_MAXOP][TSR_MAXDIMS];   /* byte strides per operand, per original axis */
  int64_t shape[TSR_MAXDIMS], strides[ITER_MAXOP][TSR_MAXDIMS];
  int perm[TSR_MAXDIMS];
  char *data[ITER_MAXOP];
  int64_t steps[ITER_MAXOP];
  const Tensor *t0 = ops[0];

  if (nop < 1 || nop > ITER_MAXOP)
    return ERR_RUNTIME(c, "iter_run: %d operands (at most %d)", nop, ITER_MAXOP);
  for (int k = 0; k < nop; k++) {
    int64_t isz = (int64_t)dtype_size(ops[k]->dtype);
    data[k] = tensor_data(ops[k]);
    for (int i = 0; i < t0->ndim; i++) st[k][i] = ops[k]->strides[i] * isz;
  }

  /* drop size-1 dims; an empty tensor has nothing to iterate */
  int nd = 0;
  for (int i = 0; i < t0->ndim; i++) {
    if (t0->shape[i] == 0) return 0;
    if (t0->shape[i] != 1) perm[nd++] = i;
  }
  /* order: insertion sort, innermost first (perm[0] is the fastest axis) */
  for (int i = 0; i < nd / 2; i++) { int x = perm[i]; perm[i] = perm[nd - 1 - i]; perm[nd - 1 - i] = x; }
  for (int i = 1; i < nd; i++) {
    int x = perm[i], j = i;
    while (j > 0 && axis_inner(nop, (const int64_t (*)[TSR_MAXDIMS])st, x, perm[j - 1])) {
      perm[j] = perm[j - 1];
      j--;
    }
    perm[j] = x;
  }
  /* coalesce: axis i+1 (outer) folds into axis i when every operand steps over it by
     exactly the extent of axis i */
  int n = 0;
  for (int i = 0; i < nd; i++) {
    int ax = perm[i];
    if (n > 0) {
      bool ok = true;
      for (int k = 0; k < nop && ok; k++)
        ok = st[k][ax] == strides[k][n - 1] * shape[n - 1];
      if (ok) { shape[n - 1] *= t0->shape[ax]; continue; }
    }
    shape[n] = t0->shape[ax];
    for (int k = 0; k < nop; k++) strides[k][n] = st[k][ax];
    n++;
  }

  if (n == 0) {   /* 0-d or all size-1: one element */
    for (int k = 0; k < nop; k++) steps[k] = 0;
    loop(data, steps, 1, aux);
    return ctx_poll(c, 0);
  }

  int64_t inner = shape[0], done = 0;
  int64_t idx[TSR_MAXDIMS] = {0};
  char *ptr[ITER_MAXOP];
  for (int k = 0; k < nop; k++) steps[k] = strides[k][0];
  for (;;) {
    for (int64_t j = 0; j < inner; j += ITER_CHUNK) {
      int64_t m = inner - j < ITER_CHUNK ? inner - j : ITER_CHUNK;
      for (int k = 0; k < nop; k++) ptr[k] = data[k] + j * steps[k];
      loop(ptr, steps, m, aux);
      done += m;
      if (done >= ITER_CHUNK) {
        if (ctx_poll(c, (uint64_t)done / 4096) < 0) return -1;
        done = 0;
      }
    }
    /* advance the outer index (odometer) */
    int d = 1;
    for (; d < n; d++) {
      for (int k = 0; k < nop; k++) data[k] += strides[k][d];
      if (++idx[d] < shape[d]) break;
      for (int k = 0; k < nop; k++) data[k] -= strides[k][d] * shape[d];
      idx[d] = 0;
    }
    if (d >= n) break;
  }
  return 0;
}
