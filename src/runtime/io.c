/*
** io.c -- the runtime's file readers.  All file access of the runtime goes through here and
** is refused when the state runs with TSR_SANDBOX.  Reads IDX files (the MNIST format), plain
** or gzipped, through zlib.
*/
#include "rt.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

/* Bytes read from the file per gzread call (and between interrupt polls). */
#define READ_CHUNK (1u << 22)

static bool host_is_little_endian(void) {
  const uint16_t probe = 1;
  return *(const uint8_t *)&probe == 1;
}

/* Reverses the byte order of n elements of size sz in place. */
static void swap_bytes(char *p, int64_t n, size_t sz) {
  for (int64_t i = 0; i < n; i++, p += sz)
    for (size_t a = 0, b = sz - 1; a < b; a++, b--) {
      char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

/* Reads exactly n bytes; returns false on a short read or a zlib error. */
static bool read_full(Ctx *c, gzFile f, char *dst, uint64_t n, bool *interrupted) {
  while (n > 0) {
    unsigned want = n > READ_CHUNK ? READ_CHUNK : (unsigned)n;
    int got = gzread(f, dst, want);
    if (got <= 0) return false;
    dst += got;
    n -= (uint64_t)got;
    if (ctx_poll(c, (uint64_t)got / 4096)) { *interrupted = true; return false; }
  }
  return true;
}

/* The dtype of an IDX type code (0x08 ubyte, 0x09 byte, 0x0B short, 0x0C int, 0x0D float,
   0x0E double); -1 if unknown. */
static int idx_dtype(unsigned code) {
  switch (code) {
  case 0x08: return TSR_UINT8;
  case 0x09: return TSR_INT8;
  case 0x0B: return TSR_INT16;
  case 0x0C: return TSR_INT32;
  case 0x0D: return TSR_FLOAT32;
  case 0x0E: return TSR_FLOAT64;
  default: return -1;
  }
}

/* Reads the IDX file at path (gzipped or not): magic 00 00 TYPE NDIM, NDIM big-endian uint32
   dims, then the big-endian data in C order.  Returns a new tensor of the file's dtype and
   shape, or NULL with PermissionError (TSR_ERR_SANDBOX) "file access is disabled in this
   sandbox", OSError "[Errno 2] No such file or directory: 'PATH'", ValueError "not an IDX
   file: PATH" or "truncated IDX file: PATH". */
Tensor *io_load_idx(Ctx *c, const char *path) {
  unsigned char head[4], dimb[4 * TSR_MAXDIMS];
  int64_t shape[TSR_MAXDIMS];
  Tensor *t = NULL;
  bool interrupted = false;
  if (c->flags & TSR_SANDBOX) {
    ctx_err(c, TSR_ERR_SANDBOX, "PermissionError", "file access is disabled in this sandbox");
    return NULL;
  }
  errno = 0;
  gzFile f = gzopen(path, "rb");
  if (!f) {
    int e = errno ? errno : ENOMEM;
    if (e == ENOMEM) ERR_MEMORY(c, "out of memory opening '%s'", path);
    else ERR_IO(c, "[Errno %d] %s: '%s'", e, strerror(e), path);
    return NULL;
  }
  if (!read_full(c, f, (char *)head, 4, &interrupted) || head[0] || head[1] ||
      idx_dtype(head[2]) < 0 || head[3] == 0 || head[3] > TSR_MAXDIMS) {
    if (!interrupted) ERR_VALUE(c, "not an IDX file: %s", path);
    goto fail;
  }
  DType dt = (DType)idx_dtype(head[2]);
  int ndim = head[3];
  if (!read_full(c, f, (char *)dimb, 4u * (unsigned)ndim, &interrupted)) {
    if (!interrupted) ERR_VALUE(c, "truncated IDX file: %s", path);
    goto fail;
  }
  for (int i = 0; i < ndim; i++) {
    const unsigned char *b = dimb + 4 * i;
    shape[i] = (int64_t)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
  }
  if (!(t = tensor_empty(c, dt, ndim, shape))) goto fail;
  int64_t n = tensor_size(t);
  size_t sz = dtype_size(dt);
  if (!read_full(c, f, tensor_data(t), (uint64_t)n * sz, &interrupted)) {
    if (!interrupted) ERR_VALUE(c, "truncated IDX file: %s", path);
    goto fail;
  }
  if (sz > 1 && host_is_little_endian()) swap_bytes(tensor_data(t), n, sz);
  gzclose(f);
  return t;
fail:
  gzclose(f);
  if (t) tensor_release(t);
  return NULL;
}
