/*
** io.c -- the runtime's one gate to the file system.  Every function that opens, maps or
** creates a file by path lives here and first asks io_gate, which refuses all of them when
** the state runs with TSR_SANDBOX.  Also reads IDX files (the MNIST format), plain or
** gzipped, through zlib.  The .npy/.npz/text formats are in npy.c, on top of these calls.
*/
#include "rt.h"
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

/* Bytes read or written per call (and between interrupt polls). */
#define READ_CHUNK (1u << 22)

/* --------------------------------------------------------------------------------------------
** The gate and the opening calls
*/

int io_gate(Ctx *c) {
  if (!(c->flags & TSR_SANDBOX)) return 0;
  return ctx_err(c, TSR_ERR_SANDBOX, "PermissionError", "file access is disabled in this sandbox");
}

int io_errno(Ctx *c, int e, const char *path) {
  const char *kind;
  switch (e) {
  case ENOENT: kind = "FileNotFoundError"; break;
  case EACCES: case EPERM: kind = "PermissionError"; break;
  case EISDIR: kind = "IsADirectoryError"; break;
  case ENOTDIR: kind = "NotADirectoryError"; break;
  case EEXIST: kind = "FileExistsError"; break;
  case ENOMEM: return ERR_MEMORY(c, "out of memory opening '%s'", path);
  default: kind = "OSError"; break;
  }
  return ctx_err(c, TSR_ERR_IO, kind, "[Errno %d] %s: '%s'", e, strerror(e), path);
}

FILE *io_fopen(Ctx *c, const char *path, const char *mode) {
  if (io_gate(c)) return NULL;
  errno = 0;
  FILE *f = fopen(path, mode);
  if (!f) {
    io_errno(c, errno ? errno : EIO, path);
    return NULL;
  }
  /* fopen succeeds on a directory opened for reading; Python's open() does not */
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    io_errno(c, EISDIR, path);
    return NULL;
  }
  return f;
}

/* What a mapped file's storage releases: the whole mapping. */
typedef struct MapRegion { Ctx *ctx; void *base; size_t len; } MapRegion;

static void map_release(void *ud, void *data) {
  (void)data;
  MapRegion *r = ud;
  munmap(r->base, r->len);
  ctx_free(r->ctx, r, sizeof *r);
}

Tensor *io_map_tensor(Ctx *c, const char *path, char mode, uint64_t offset, DType dt, int ndim,
                      const int64_t *shape, const int64_t *strides_bytes) {
  if (io_gate(c)) return NULL;
  int fd = open(path, mode == 'w' ? O_RDWR : O_RDONLY);
  if (fd < 0) { io_errno(c, errno, path); return NULL; }
  struct stat st;
  if (fstat(fd, &st) < 0) { io_errno(c, errno, path); close(fd); return NULL; }
  size_t len = (size_t)st.st_size;
  if ((uint64_t)st.st_size < offset) {
    close(fd);
    ERR_VALUE(c, "cannot memory-map '%s': the file ends before its data", path);
    return NULL;
  }
  MapRegion *r = ctx_malloc(c, sizeof *r);
  if (!r) { close(fd); return NULL; }
  int prot = mode == 'r' ? PROT_READ : PROT_READ | PROT_WRITE;
  int flags = mode == 'w' ? MAP_SHARED : MAP_PRIVATE;
  void *base = mmap(NULL, len ? len : 1, prot, flags, fd, 0);
  int e = errno;
  close(fd);
  if (base == MAP_FAILED) {
    ctx_free(c, r, sizeof *r);
    ctx_err(c, TSR_ERR_IO, "OSError", "[Errno %d] %s: cannot memory-map '%s'", e, strerror(e),
            path);
    return NULL;
  }
  r->ctx = c;
  r->base = base;
  r->len = len ? len : 1;
  char *data = (char *)base + offset;
  if ((uintptr_t)data % dtype_size(dt)) {
    map_release(r, data);
    ERR_VALUE(c, "cannot memory-map '%s': its data offset %llu is not a multiple of the "
              "itemsize %zu", path, (unsigned long long)offset, dtype_size(dt));
    return NULL;
  }
  Tensor *t = tensor_wrap(c, dt, ndim, shape, strides_bytes, data, len - (size_t)offset,
                          mode == 'r' ? TSR_READONLY : 0, map_release, r);
  if (!t) map_release(r, data);
  return t;
}

struct zip *io_zip_create(Ctx *c, const char *path) {
  /* create the file first, so that a bad path fails as Python's open() does */
  FILE *f = io_fopen(c, path, "wb");
  if (!f) return NULL;
  fclose(f);
  int err = 0;
  zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, err);
    int e = zip_error_code_system(&ze);
    if (zip_error_system_type(&ze) == ZIP_ET_SYS && e) io_errno(c, e, path);
    else ctx_err(c, TSR_ERR_IO, "OSError", "cannot create zip file '%s': %s", path,
                 zip_error_strerror(&ze));
    zip_error_fini(&ze);
  }
  return z;
}

int io_read_all(Ctx *c, const char *path, bool gunzip, Buf *out) {
  FILE *f = io_fopen(c, path, "rb");
  if (!f) return -1;
  char chunk[1 << 16];
  if (!gunzip) {
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
      buf_putn(out, chunk, got);
      if (out->failed || ctx_work(c, got, WORK_ELEMENT)) break;
    }
    bool error = ferror(f) != 0;
    fclose(f);
    if (out->failed || c->status != TSR_OK) return -1;
    if (error) return ctx_err(c, TSR_ERR_IO, "OSError", "[Errno %d] %s: reading '%s'", EIO,
                              strerror(EIO), path);
    return 0;
  }
  int fd = dup(fileno(f));
  fclose(f);
  gzFile g = fd < 0 ? NULL : gzdopen(fd, "rb");
  if (!g) {
    if (fd >= 0) close(fd);
    return ERR_MEMORY(c, "out of memory opening '%s'", path);
  }
  int got;
  while ((got = gzread(g, chunk, sizeof chunk)) > 0) {
    buf_putn(out, chunk, (size_t)got);
    if (out->failed || ctx_work(c, got, WORK_ELEMENT)) break;
  }
  int zerr = Z_OK;
  const char *why = got < 0 ? gzerror(g, &zerr) : NULL;
  if (got < 0 && c->status == TSR_OK && !out->failed)
    ctx_err(c, TSR_ERR_VALUE, "ValueError", "bad gzip file '%s': %s", path, why);
  gzclose(g);
  return out->failed || c->status != TSR_OK ? -1 : 0;
}

int io_write_all(Ctx *c, const char *path, bool gzip, const char *data, size_t n) {
  FILE *f = io_fopen(c, path, "wb");
  if (!f) return -1;
  errno = 0;
  bool ok = true;
  if (!gzip) {
    for (size_t done = 0; ok && done < n;) {
      size_t k = n - done > READ_CHUNK ? READ_CHUNK : n - done;
      ok = fwrite(data + done, 1, k, f) == k;
      done += k;
      if (ok && ctx_work(c, k, WORK_ELEMENT)) { fclose(f); return -1; }
    }
    if (fclose(f) != 0) ok = false;
  } else {
    int fd = dup(fileno(f));
    fclose(f);
    gzFile g = fd < 0 ? NULL : gzdopen(fd, "wb");
    if (!g) {
      if (fd >= 0) close(fd);
      return ERR_MEMORY(c, "out of memory opening '%s'", path);
    }
    for (size_t done = 0; ok && done < n;) {
      unsigned k = n - done > READ_CHUNK ? READ_CHUNK : (unsigned)(n - done);
      ok = gzwrite(g, data + done, k) == (int)k;
      done += k;
    }
    if (gzclose(g) != Z_OK) ok = false;
  }
  if (ok) return 0;
  int e = errno ? errno : EIO;
  return ctx_err(c, TSR_ERR_IO, "OSError", "[Errno %d] %s: writing '%s'", e, strerror(e), path);
}


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
    if (ctx_work(c, got, WORK_ELEMENT)) { *interrupted = true; return false; }
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
   sandbox", FileNotFoundError "[Errno 2] No such file or directory: 'PATH'", ValueError "not an IDX
   file: PATH" or "truncated IDX file: PATH". */
Tensor *io_load_idx(Ctx *c, const char *path) {
  unsigned char head[4], dimb[4 * TSR_MAXDIMS];
  int64_t shape[TSR_MAXDIMS];
  Tensor *t = NULL;
  bool interrupted = false;
  if (io_gate(c)) return NULL;
  errno = 0;
  gzFile f = gzopen(path, "rb");
  if (!f) {
    int e = errno ? errno : ENOMEM;
    if (e == ENOMEM) ERR_MEMORY(c, "out of memory opening '%s'", path);
    else io_errno(c, e, path);
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
