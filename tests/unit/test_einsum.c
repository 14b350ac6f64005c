/*
** test_einsum.c -- unit tests of src/runtime/einsum.c that the golden programs cannot reach:
** allocation failure at every allocation of an einsum and of einsum_path (each must fail
** cleanly with MemoryError and give back every byte), the plan cache (a repeated call plans
** nothing), and results of pairwise contractions against a plain reference loop.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/einsum.h"
#include "check.h"

/* An allocator that fails every allocation after the first `budget` ones (budget < 0: never). */
typedef struct Faulty { long budget, count; } Faulty;
static void *faulty_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  Faulty *f = ud;
  (void)old_size;
  if (new_size == 0) { free(ptr); return NULL; }
  if (f->budget >= 0 && f->count >= f->budget) return NULL;
  f->count++;
  return realloc(ptr, new_size);
}

/* A float64 tensor of the given shape with small integer values (exact in any order). */
static Tensor *ints(Ctx *c, int ndim, const int64_t *shape, int seed) {
  Tensor *t = tensor_empty(c, TSR_FLOAT64, ndim, shape);
  if (!t) return NULL;
  double *d = (double *)tensor_data(t);
  for (int64_t i = 0; i < tensor_size(t); i++) d[i] = (double)((i * 7 + seed * 3) % 5) - 2;
  return t;
}

/* Runs einsum (or einsum_path) once under an allocator with the given budget; returns 1 on
   success, 0 on a clean MemoryError, -1 on anything else.  Checks that memory comes back. */
static int run_once(long budget, bool path, EinsumOptKind kind) {
  Faulty f = {-1, 0};
  Ctx c;
  ctx_init(&c, faulty_alloc, &f);
  int64_t s1[2] = {3, 4}, s2[2] = {4, 5}, s3[2] = {5, 2}, s4[3] = {2, 3, 3};
  Tensor *ops[4] = {ints(&c, 2, s1, 1), ints(&c, 2, s2, 2), ints(&c, 2, s3, 3),
                    ints(&c, 3, s4, 4)};
  size_t base = c.mem_used;
  f.budget = f.count + budget;
  EinsumOpt o = {kind, -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
  int rc;
  if (path) {
    EinsumPath p;
    Buf rep;
    buf_init(&rep, &c);
    rc = einsum_path(&c, "ij,jk,kl,lii->l", 4, ops, &o, &p, &rep) == 0 ? 1 : 0;
    if (rc) einsum_path_free(&c, &p);
    buf_free(&rep);
  } else {
    Tensor *r = einsum_compute(&c, "ij,jk,kl,lii->l", 4, ops, &o, -1, NULL);
    rc = r ? 1 : 0;
    if (r) {
      /* reference: sum over i,j,k of A[i,j] B[j,k] C[k,l] D[l,i,i] */
      const double *A = (double *)tensor_data(ops[0]), *B = (double *)tensor_data(ops[1]),
                   *C = (double *)tensor_data(ops[2]), *D = (double *)tensor_data(ops[3]);
      bool ok = r->ndim == 1 && r->shape[0] == 2;
      for (int l = 0; ok && l < 2; l++) {
        double want = 0;
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 4; j++)
            for (int k = 0; k < 5; k++)
              want += A[i * 4 + j] * B[j * 5 + k] * C[k * 2 + l] * D[l * 9 + i * 3 + i];
        ok = *(double *)tensor_at(r, (int64_t[]){l}) == want;
      }
      CHECK(ok);
      tensor_release(r);
    }
  }
  if (!rc && c.status != TSR_ERR_MEMORY) rc = -1;
  einsum_cache_free(&c);
  f.budget = -1;
  if (c.mem_used != base) rc = -1;
  for (int i = 0; i < 4; i++)
    if (ops[i]) tensor_release(ops[i]);
  if (c.mem_used != 0) rc = -1;
  return rc;
}

static void test_faults(bool path, EinsumOptKind kind) {
  int outcome = 0;
  long budget = 0;
  for (; budget < 10000; budget++) {
    outcome = run_once(budget, path, kind);
    if (outcome != 0) break;
  }
  CHECK(outcome == 1);
  CHECK(budget > 3);
}

static long count_allocs(Ctx *c, Faulty *f, Tensor **ops) {
  long before = f->count;
  EinsumOpt o = {EINSUM_OPT_NONE, -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
  Tensor *r = einsum_compute(c, "ij,jk->ik", 2, ops, &o, -1, NULL);
  CHECK(r != NULL);
  if (r) tensor_release(r);
  return f->count - before;
}

static void test_cache(void) {
  Faulty f = {-1, 0};
  Ctx c;
  ctx_init(&c, faulty_alloc, &f);
  int64_t s1[2] = {3, 3};
  Tensor *ops[2] = {ints(&c, 2, s1, 1), ints(&c, 2, s1, 2)};
  long first = count_allocs(&c, &f, ops), second = count_allocs(&c, &f, ops);
  CHECK(c.einsum_cache != NULL);
  CHECK(second < first);
  long third = count_allocs(&c, &f, ops);
  CHECK(third == second);
  einsum_cache_free(&c);
  CHECK(c.einsum_cache == NULL);
  tensor_release(ops[0]);
  tensor_release(ops[1]);
  CHECK(c.mem_used == 0);
}

/* Integer contractions through the strided loop against a reference, int8 wrapping. */
static void test_int_wrap(void) {
  Ctx c;
  ctx_init(&c, NULL, NULL);
  int64_t sa[3] = {2, 3, 4}, sb[3] = {2, 4, 5};
  Tensor *a = tensor_empty(&c, TSR_INT8, 3, sa), *b = tensor_empty(&c, TSR_INT8, 3, sb);
  for (int i = 0; i < 24; i++) ((int8_t *)tensor_data(a))[i] = (int8_t)(i * 37);
  for (int i = 0; i < 40; i++) ((int8_t *)tensor_data(b))[i] = (int8_t)(i * 91 + 5);
  Tensor *ops[2] = {a, b};
  EinsumOpt o = {EINSUM_OPT_GREEDY, -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
  Tensor *r = einsum_compute(&c, "bij,bjk->bik", 2, ops, &o, -1, NULL);
  CHECK(r && r->dtype == TSR_INT8);
  bool ok = r != NULL;
  for (int bb = 0; ok && bb < 2; bb++)
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 5; k++) {
        int8_t acc = 0;
        for (int j = 0; j < 4; j++)
          acc = (int8_t)(acc + (int8_t)(((int8_t *)tensor_data(a))[bb * 12 + i * 4 + j] *
                                        ((int8_t *)tensor_data(b))[bb * 20 + j * 5 + k]));
        ok &= *(int8_t *)tensor_at(r, (int64_t[]){bb, i, k}) == acc;
      }
  CHECK(ok);
  if (r) tensor_release(r);
  tensor_release(a);
  tensor_release(b);
  einsum_cache_free(&c);
  CHECK(c.mem_used == 0);
}

/* Many operands (issue 9): 100 vectors multiplied elementwise, 'i,i,...,i->i', with every
   strategy that is not exponential in the operand count, and a chain of 100 matrices; 129
   operands are a clean ValueError "too many operands", never a crash. */
static void test_many_operands(void) {
  Ctx c;
  ctx_init(&c, NULL, NULL);
  enum { N = 129 };
  Tensor *ops[N];
  int64_t s1[1] = {3}, s2[2] = {2, 2};
  for (int i = 0; i < N; i++)
    ops[i] = tensor_full_f64(&c, TSR_FLOAT64, 1, s1, i % 2 ? 1.0 : -1.0);
  char subs[4 * N + 8];
  size_t k = 0;
  for (int i = 0; i < 100; i++) { if (i) subs[k++] = ','; subs[k++] = 'i'; }
  memcpy(subs + k, "->i", 4);
  EinsumOptKind kinds[2] = {EINSUM_OPT_NONE, EINSUM_OPT_GREEDY};
  for (int q = 0; q < 2; q++) {
    EinsumOpt o = {kinds[q], -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
    Tensor *r = einsum_compute(&c, subs, 100, ops, &o, -1, NULL);
    CHECK(r && r->ndim == 1 && r->shape[0] == 3 && ((double *)tensor_data(r))[2] == 1.0);
    if (r) tensor_release(r);
    ctx_clear(&c);
  }
  /* 129 operands */
  k = 0;
  for (int i = 0; i < N; i++) { if (i) subs[k++] = ','; subs[k++] = 'i'; }
  subs[k] = 0;
  EinsumOpt g = {EINSUM_OPT_GREEDY, -1, 0, NULL, NULL, NULL, EINSUM_CAST_SAFE};
  Tensor *r = einsum_compute(&c, subs, N, ops, &g, -1, NULL);
  CHECK(!r && c.status == TSR_ERR_VALUE && strcmp(c.msg, "too many operands") == 0);
  ctx_clear(&c);
  /* a chain of 100 2x2 matrices through 52 letters is impossible; use 'ab,ba,ab,...' pairs */
  for (int i = 0; i < 100; i++) {
    tensor_release(ops[i]);
    ops[i] = tensor_full_f64(&c, TSR_FLOAT64, 2, s2, 0.5);
  }
  k = 0;
  for (int i = 0; i < 100; i++) {
    if (i) subs[k++] = ',';
    subs[k++] = i % 2 ? 'b' : 'a';
    subs[k++] = i % 2 ? 'a' : 'b';
  }
  memcpy(subs + k, "->ab", 5);
  r = einsum_compute(&c, subs, 100, ops, &g, -1, NULL);
  CHECK(r && r->ndim == 2 && ((double *)tensor_data(r))[0] == ldexp(1.0, -100));
  if (r) tensor_release(r);
  for (int i = 0; i < N; i++) tensor_release(ops[i]);
  einsum_cache_free(&c);
  CHECK(c.mem_used == 0);
}

int main(void) {
  test_faults(false, EINSUM_OPT_NONE);
  test_faults(false, EINSUM_OPT_GREEDY);
  test_faults(false, EINSUM_OPT_OPTIMAL);
  test_faults(true, EINSUM_OPT_GREEDY);
  test_faults(true, EINSUM_OPT_OPTIMAL);
  test_cache();
  test_int_wrap();
  test_many_operands();
  return CHECK_DONE("einsum");
}
