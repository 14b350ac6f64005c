/*
** buffers.c -- host memory crossing the boundary without copies: an expression over a borrowed
** double buffer read back zero-copy, a script writing through a borrowed buffer, release
** callbacks called exactly once (also for tensors the host keeps past tsr_close), DLPack in
** both directions, and the memory account (every byte tsr holds goes through the host's
** allocator and is given back).  Prints "unit buffers: N passed, N failed".
*/
#include <tsr.h>
#include <dlpack/dlpack.h>
#include "../unit/check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a counting allocator: what tsr holds, at most, and whether it all comes back ---------- */
typedef struct { size_t live, peak, biggest; long calls; } Account;

static void *counting_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  Account *a = ud;
  a->calls++;
  if (ptr) a->live -= old_size;
  if (new_size == 0) { free(ptr); return NULL; }
  void *p = realloc(ptr, new_size);
  if (!p) { if (ptr) a->live += old_size; return NULL; }
  a->live += new_size;
  if (new_size > a->biggest) a->biggest = new_size;
  if (a->live > a->peak) a->peak = a->live;
  return p;
}

typedef struct { int calls; void *data; } Release;

static void on_release(void *ud, void *data) {
  Release *r = ud;
  r->calls++;
  r->data = data;
}

static int64_t size_of(const tsr_TensorInfo *in) {
  int64_t n = 1;
  for (int i = 0; i < in->ndim; i++) n *= in->shape[i];
  return n;
}

/* ---- borrowed buffers ---------------------------------------------------------------------- */

static void test_borrowed(void) {
  Account acc = {0, 0, 0, 0};
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.alloc = counting_alloc;
  cfg.alloc_ud = &acc;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  CHECK(acc.live > 0 && acc.calls > 0);   /* the state itself comes from the host allocator */
  CHECK(tsr_memory_used(S, NULL) == acc.live);   /* every byte it holds is in the account */

  double *buf = malloc(12 * sizeof(double));
  for (int i = 0; i < 12; i++) buf[i] = i;
  int64_t shape[2] = {3, 4};
  Release rel = {0, NULL};
  tsr_Tensor *x = tsr_tensor_wrap(S, TSR_FLOAT64, 2, shape, NULL, buf, 12 * sizeof(double), 0,
                                  on_release, &rel);
  CHECK(x != NULL);
  CHECK(tsr_set(S, "x", x) == TSR_OK);
  tsr_tensor_release(x);
  CHECK(rel.calls == 0);

  /* An expression whose value is a view: its data points into the host buffer (no copy). */
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "x[1:, ::2].T", "view", &r) == TSR_OK);
  CHECK(r != NULL);
  if (r) {
    tsr_TensorInfo in;
    CHECK(tsr_tensor_info(r, &in) == TSR_OK);
    CHECK(in.ndim == 2 && in.shape[0] == 2 && in.shape[1] == 2);
    CHECK(in.data == (void *)(buf + 4));                    /* element [1, 0] of x */
    CHECK(in.strides[0] == 2 * (int64_t)sizeof(double));  /* bytes */
    CHECK(in.strides[1] == 4 * (int64_t)sizeof(double));
    const char *base = in.data;
    CHECK(*(const double *)(base + in.strides[0] * 1 + in.strides[1] * 1) == 10.0);
    tsr_tensor_release(r);
  }
  /* An expression computing on the borrowed buffer, read back zero-copy. */
  CHECK(tsr_eval(S, "(x * 2 + 1).sum(axis=0)", "sum", &r) == TSR_OK);
  if (r) {
    tsr_TensorInfo in;
    CHECK(tsr_tensor_info(r, &in) == TSR_OK && in.dtype == TSR_FLOAT64 && size_of(&in) == 4);
    const double *d = in.data;
    CHECK(d[0] == 27 && d[3] == 45);   /* (0+4+8)*2+3, (3+7+11)*2+3 */
    tsr_tensor_release(r);
  }

  /* A script writes through the borrowed buffer; C sees it at once. */
  CHECK(tsr_eval(S, "x[0] = -1\nx[:, 3] *= 10\nx[2, 0] += 0.5", "write", NULL) == TSR_OK);
  CHECK(buf[0] == -1 && buf[3] == -1 * 10 && buf[7] == 70 && buf[11] == 110 && buf[8] == 8.5);
  /* ... and in-place ufuncs with out= */
  CHECK(tsr_eval(S, "negative(x, out=x)", NULL, NULL) == TSR_OK);
  CHECK(buf[8] == -8.5 && buf[5] == -5);

  CHECK(tsr_memory_used(S, NULL) == acc.live);
  /* A view kept by the host outlives the script's name and the state itself. */
  tsr_Tensor *keep = NULL;
  CHECK(tsr_eval(S, "x[2]", NULL, &keep) == TSR_OK && keep != NULL);
  CHECK(tsr_eval(S, "del x", NULL, NULL) == TSR_OK || tsr_eval(S, "x = 0", NULL, NULL) == TSR_OK);
  CHECK(rel.calls == 0);

  /* TSR_COPY: the release callback runs at once (the copy is tsr's own). */
  Release rel2 = {0, NULL};
  float small[3] = {1, 2, 3};
  int64_t three = 3;
  tsr_Tensor *c = tsr_tensor_wrap(S, TSR_FLOAT32, 1, &three, NULL, small, sizeof small, TSR_COPY,
                                  on_release, &rel2);
  CHECK(c != NULL && rel2.calls == 1 && rel2.data == small);
  tsr_tensor_release(c);
  CHECK(rel2.calls == 1);

  /* A failed wrap does not call release: the buffer stays the host's. */
  Release rel3 = {0, NULL};
  int64_t big = 1000;
  CHECK(tsr_tensor_wrap(S, TSR_FLOAT64, 1, &big, NULL, buf, 12 * sizeof(double), 0, on_release,
                        &rel3) == NULL);
  CHECK(tsr_last_error(S)->status == TSR_ERR_VALUE);
  int64_t huge_stride = INT64_MAX / 2;
  int64_t two = 2;
  CHECK(tsr_tensor_wrap(S, TSR_FLOAT64, 1, &two, &huge_stride, buf, 12 * sizeof(double), 0,
                        on_release, &rel3) == NULL);
  int64_t neg_shape = -1;
  CHECK(tsr_tensor_wrap(S, TSR_FLOAT64, 1, &neg_shape, NULL, buf, 8, 0, on_release, &rel3) == NULL);
  CHECK(tsr_tensor_wrap(S, (tsr_DType)99, 1, &two, NULL, buf, 16, 0, on_release, &rel3) == NULL);
  CHECK(rel3.calls == 0);

  /* Negative byte strides: a reversed view of host memory. */
  int64_t rstride = -(int64_t)sizeof(double);
  double rev_src[4] = {1, 2, 3, 4};
  int64_t four = 4;
  tsr_Tensor *rv = tsr_tensor_wrap(S, TSR_FLOAT64, 1, &four, &rstride, &rev_src[3],
                                   sizeof rev_src, TSR_READONLY, NULL, NULL);
  CHECK(rv != NULL);
  if (rv) {
    double out[4];
    CHECK(tsr_tensor_copy_to(rv, TSR_FLOAT64, out, sizeof out) == TSR_OK);
    CHECK(out[0] == 4 && out[3] == 1);
    tsr_tensor_release(rv);
  }

  tsr_close(S);
  /* The host still holds `keep`: the buffer is not released and its memory is valid. */
  CHECK(rel.calls == 0);
  tsr_TensorInfo in;
  CHECK(tsr_tensor_info(keep, &in) == TSR_OK && in.data == (void *)(buf + 8));
  double row[4];
  CHECK(tsr_tensor_copy_to(keep, TSR_FLOAT64, row, sizeof row) == TSR_OK && row[0] == -8.5);
  CHECK(acc.live > 0);
  tsr_tensor_release(keep);
  CHECK(rel.calls == 1 && rel.data == buf);   /* exactly once, with the host's pointer */
  CHECK(acc.live == 0);                         /* every byte came back */
  free(buf);
}

/* ---- the memory account and its cap ---------------------------------------------------------- */

static void test_accounting(void) {
  Account acc = {0, 0, 0, 0};
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.alloc = counting_alloc;
  cfg.alloc_ud = &acc;
  cfg.max_memory = 8u << 20;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return;
  size_t base = acc.live;
  CHECK(tsr_eval(S, "a = ones(100000)\nb = a * 2\nc = [a, b, 'text', (1, 2)]", NULL, NULL) ==
        TSR_OK);
  CHECK(acc.live >= base + 2 * 800000);
  CHECK(tsr_memory_used(S, NULL) == acc.live);
  /* Over the cap: refused before allocating (the peak does not move), the state usable. */
  CHECK(tsr_eval(S, "z = zeros((10**6, 10**6))", "cap", NULL) == TSR_ERR_MEMORY);
  CHECK_STR(tsr_last_error(S)->kind, "MemoryError");
  CHECK(strstr(tsr_error_message(S), "MemoryError: ") != NULL);
  CHECK(strstr(tsr_error_message(S), "line 1") != NULL);
  CHECK(acc.biggest < (8u << 20));   /* never asked the allocator for the 8 TB */
  CHECK(tsr_eval(S, "d = ones(2000000)", NULL, NULL) == TSR_ERR_MEMORY);  /* 16 MB > 8 MB */
  CHECK(acc.peak <= (8u << 20) + 4096 + base);
  CHECK(tsr_eval(S, "a = b = c = 0", NULL, NULL) == TSR_OK);
  CHECK(acc.live <= base + 4096);
  /* Filling the cap with many small objects, then failing: the error text is still there. */
  CHECK(tsr_eval(S, "l = []\nwhile True:\n    l.append(ones(1000))", "fill", NULL) ==
        TSR_ERR_MEMORY);
  CHECK(strstr(tsr_error_message(S), "MemoryError") != NULL);
  size_t peak = 0;
  CHECK(tsr_memory_used(S, &peak) == acc.live && peak <= (8u << 20) + (512u << 10));
  CHECK(tsr_eval(S, "l = 0\nok = arange(10).sum()", NULL, NULL) == TSR_OK);
  CHECK(tsr_memory_used(S, NULL) == acc.live);
  if (tsr_last_error(S)->status) fprintf(stderr, "%s\n", tsr_error_message(S));
  tsr_close(S);
  CHECK(acc.live == 0);
}

/* ---- DLPack ------------------------------------------------------------------------------- */

typedef struct {
  DLManagedTensor m;
  int64_t shape[2], strides[2];
  int deleted;
} Producer;

static void producer_deleter(DLManagedTensor *m) { ((Producer *)m->manager_ctx)->deleted++; }

static void test_dlpack(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return;

  /* Import a strided (column-major) int32 matrix: element strides, byte_offset honoured. */
  int32_t mem[1 + 6] = {-99, 1, 4, 2, 5, 3, 6};   /* [[1,2,3],[4,5,6]] in Fortran order */
  Producer p;
  memset(&p, 0, sizeof p);
  p.shape[0] = 2; p.shape[1] = 3;
  p.strides[0] = 1; p.strides[1] = 2;              /* elements */
  p.m.dl_tensor.data = mem;
  p.m.dl_tensor.byte_offset = sizeof(int32_t);
  p.m.dl_tensor.device.device_type = kDLCPU;
  p.m.dl_tensor.ndim = 2;
  p.m.dl_tensor.dtype.code = kDLInt;
  p.m.dl_tensor.dtype.bits = 32;
  p.m.dl_tensor.dtype.lanes = 1;
  p.m.dl_tensor.shape = p.shape;
  p.m.dl_tensor.strides = p.strides;
  p.m.manager_ctx = &p;
  p.m.deleter = producer_deleter;

  /* Refusals leave ownership with the producer: the deleter is not called. */
  tsr_Tensor *t = (tsr_Tensor *)&p;
  p.m.dl_tensor.device.device_type = kDLCUDA;
  CHECK(tsr_from_dlpack(S, &p.m, &t) == TSR_ERR_RUNTIME && t == NULL);
  CHECK_STR(tsr_last_error(S)->message, "Unsupported device in DLTensor.");
  p.m.dl_tensor.device.device_type = kDLCPU;
  p.m.dl_tensor.dtype.lanes = 4;
  CHECK(tsr_from_dlpack(S, &p.m, &t) == TSR_ERR_RUNTIME);
  p.m.dl_tensor.dtype.lanes = 1;
  p.m.dl_tensor.dtype.code = kDLFloat;
  p.m.dl_tensor.dtype.bits = 16;
  CHECK(tsr_from_dlpack(S, &p.m, &t) == TSR_ERR_RUNTIME);
  CHECK_STR(tsr_last_error(S)->message, "Unsupported dtype in DLTensor.");
  p.m.dl_tensor.dtype.code = kDLInt;
  p.m.dl_tensor.dtype.bits = 32;
  CHECK(p.deleted == 0);

  CHECK(tsr_from_dlpack(S, &p.m, &t) == TSR_OK && t != NULL);
  if (t) {
    tsr_TensorInfo in;
    CHECK(tsr_tensor_info(t, &in) == TSR_OK && in.dtype == TSR_INT32);
    CHECK(in.data == (void *)(mem + 1));                    /* no copy */
    CHECK(in.strides[0] == 4 && in.strides[1] == 8);        /* bytes */
    CHECK(tsr_set(S, "m", t) == TSR_OK);
    tsr_tensor_release(t);
  }
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "m[1, 2] = 60\nm.sum(axis=1)", "dl", &r) == TSR_OK);
  CHECK(mem[6] == 60);
  if (r) {
    int64_t s[2];
    CHECK(tsr_tensor_copy_to(r, TSR_INT64, s, sizeof s) == TSR_OK && s[0] == 6 && s[1] == 69);
    tsr_tensor_release(r);
  }
  CHECK(p.deleted == 0);
  CHECK(tsr_eval(S, "m = None", NULL, NULL) == TSR_OK);
  CHECK(p.deleted == 1);   /* exactly once, when the last reference went */

  /* Export, then import the export: a round trip through DLPack shares memory. */
  CHECK(tsr_eval(S, "e = arange(12.0).reshape(3, 4)[:, 1::2]", NULL, NULL) == TSR_OK);
  tsr_Tensor *e = tsr_get(S, "e");
  DLManagedTensor *dm = NULL;
  CHECK(e && tsr_to_dlpack(e, &dm) == TSR_OK && dm != NULL);
  if (dm) {
    CHECK(dm->dl_tensor.device.device_type == kDLCPU && dm->dl_tensor.ndim == 2);
    CHECK(dm->dl_tensor.dtype.code == kDLFloat && dm->dl_tensor.dtype.bits == 64);
    CHECK(dm->dl_tensor.shape[0] == 3 && dm->dl_tensor.shape[1] == 2);
    CHECK(dm->dl_tensor.strides[0] == 4 && dm->dl_tensor.strides[1] == 2);   /* elements */
    CHECK(((double *)dm->dl_tensor.data)[dm->dl_tensor.byte_offset / 8] == 1.0);
    tsr_Tensor *back = NULL;
    CHECK(tsr_from_dlpack(S, dm, &back) == TSR_OK);   /* tsr now owns dm */
    tsr_TensorInfo a, b;
    CHECK(tsr_tensor_info(e, &a) == TSR_OK && tsr_tensor_info(back, &b) == TSR_OK);
    CHECK(a.data == b.data && a.strides[0] == b.strides[0] && b.strides[1] == 16);
    CHECK(tsr_set(S, "back", back) == TSR_OK);
    CHECK(tsr_eval(S, "back[2, 1] = -7\nok = bool(e[2, 1] == -7)", NULL, NULL) == TSR_OK);
    tsr_Tensor *ok = tsr_get(S, "ok");
    uint8_t v = 0;
    CHECK(ok && tsr_tensor_copy_to(ok, TSR_UINT8, &v, 1) == TSR_OK && v == 1);
    tsr_tensor_release(ok);
    tsr_tensor_release(back);
  }
  /* A second export is deleted by the consumer after tsr_close: still valid until then. */
  DLManagedTensor *late = NULL;
  CHECK(e && tsr_to_dlpack(e, &late) == TSR_OK);
  tsr_tensor_release(e);
  /* Read-only tensors are not exported. */
  static const double ro[2] = {1, 2};
  int64_t two = 2;
  tsr_Tensor *rt = tsr_tensor_wrap(S, TSR_FLOAT64, 1, &two, NULL, (void *)ro, sizeof ro,
                                   TSR_READONLY, NULL, NULL);
  DLManagedTensor *none = (DLManagedTensor *)&two;
  CHECK(rt && tsr_to_dlpack(rt, &none) == TSR_ERR_VALUE && none == NULL);
  CHECK_STR(tsr_last_error(S)->kind, "BufferError");
  tsr_tensor_release(rt);
  tsr_close(S);
  if (late) {
    const double *d = late->dl_tensor.data;
    CHECK(d[late->dl_tensor.strides[0] * 2 + late->dl_tensor.strides[1]] == -7);
    late->deleter(late);   /* frees the last of the closed state */
  }
}

int main(void) {
  test_borrowed();
  test_accounting();
  test_dlpack();
  return CHECK_DONE("buffers");
}
