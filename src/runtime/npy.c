/*
** npy.c -- NumPy's file formats: .npy files (NEP 1 / numpy.lib.format versions 1.0-3.0),
** .npz archives through libzip, and numpy.loadtxt / numpy.savetxt text tables.
**
** A .npy file is the magic "\x93NUMPY", a major and a minor version byte, the header length
** (little-endian uint16 in 1.0, uint32 in 2.0 and 3.0), a Python dict literal
** {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), } padded with spaces and a final
** newline so that the data starts on a multiple of 64 bytes, then the raw data.  Every length
** read from a file is checked against the bytes there before use.  Files are reached only
** through io.c's gate (npy.h).
*/
#include "npy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
/* NumPy leaves room in the header for the growing axis to reach this many digits. */
#define NPY_GROWTH_DIGITS 21
/* Headers longer than this are refused (NumPy's own limit is 10000 bytes by default). */
#define NPY_MAX_HEADER (1u << 20)
/* Bytes per fread/fwrite (and between interrupt polls). */
#define IO_CHUNK ((size_t)1 << 22)

static bool host_little(void) {
  const uint16_t probe = 1;
  return *(const uint8_t *)&probe == 1;
}

/* Reverses the byte order of n elements of size sz in place. */
static void swap_elements(char *p, int64_t n, size_t sz) {
  if (sz < 2) return;
  for (int64_t i = 0; i < n; i++, p += sz)
    for (size_t a = 0, b = sz - 1; a < b; a++, b--) {
      char t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
}

/* Makes every byte of a bool buffer 0 or 1 (a file may hold any nonzero byte for True). */
static void normalize_bool(char *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) p[i] = p[i] != 0;
}

/* --------------------------------------------------------------------------------------------
** dtype descriptors: '<f8', '|u1', '>i4' ...
*/

/* The descr NumPy writes for dt on this host, e.g. "<f8", "|b1". */
static void descr_of(DType dt, char out[8]) {
  size_t sz = dtype_size(dt);
  char kind = dt == TSR_BOOL ? 'b' : dtype_info[dt].kind;
  char order = sz == 1 ? '|' : host_little() ? '<' : '>';
  snprintf(out, 8, "%c%c%zu", order, kind, sz);
}

/* Parses a simple descr: an optional byte order ('<', '>', '|', '='), a kind (b i u f) and
   a size in bytes.  Sets *dt and *swap (the data's byte order differs from the host's).
   Returns 0, or -1 (no error recorded) for anything tsr has no dtype for. */
static int descr_parse(const char *s, DType *dt, bool *swap) {
  char order = '=';
  if (*s && strchr("<>|=", *s)) order = *s++;
  char kind = *s++;
  if (!kind || !strchr("biuf", kind)) return -1;
  char *end;
  if (*s < '0' || *s > '9') return -1;
  long sz = strtol(s, &end, 10);
  if (*end) return -1;
  for (int d = 0; d < DTYPE_COUNT; d++) {
    char k = d == TSR_BOOL ? 'b' : dtype_info[d].kind;
    if (k == kind && (long)dtype_info[d].itemsize == sz) {
      *dt = (DType)d;
      *swap = sz > 1 && ((order == '<' && !host_little()) || (order == '>' && host_little()));
      return 0;
    }
  }
  return -1;
}

/* --------------------------------------------------------------------------------------------
** Writing
*/

/* Appends the whole .npy prefix (magic, version, length, padded dict) for an array of dtype dt
   and shape, in Fortran order or not, exactly as NumPy 1.24's format.write_array does. */
static void npy_header(Buf *b, DType dt, bool fortran, int ndim, const int64_t *shape) {
  Buf d;
  buf_init(&d, b->ctx);
  char descr[8];
  descr_of(dt, descr);
  buf_printf(&d, "{'descr': '%s', 'fortran_order': %s, 'shape': ", descr,
             fortran ? "True" : "False");
  shape_format(&d, ndim, shape);   /* Python's repr of the tuple */
  buf_puts(&d, ", }");
  if (ndim > 0) {
    char digits[32];
    int nd = snprintf(digits, sizeof digits, "%lld", (long long)shape[fortran ? ndim - 1 : 0]);
    for (int i = nd; i < NPY_GROWTH_DIGITS; i++) buf_putc(&d, ' ');
  }
  size_t hlen = d.n + 1;
  int version = 1;
  size_t prefix = NPY_MAGIC_LEN + 2 + 2;
  size_t pad = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
  if (hlen + pad > 65535) {
    version = 2;
    prefix = NPY_MAGIC_LEN + 2 + 4;
    pad = NPY_ALIGN - (prefix + hlen) % NPY_ALIGN;
  }
  size_t total = hlen + pad;
  buf_putn(b, NPY_MAGIC, NPY_MAGIC_LEN);
  buf_putc(b, (char)version);
  buf_putc(b, 0);
  buf_putc(b, (char)(total & 0xff));
  buf_putc(b, (char)((total >> 8) & 0xff));
  if (version == 2) {
    buf_putc(b, (char)((total >> 16) & 0xff));
    buf_putc(b, (char)((total >> 24) & 0xff));
  }
  buf_putn(b, d.p ? d.p : "", d.n);
  for (size_t i = 0; i < pad; i++) buf_putc(b, ' ');
  buf_putc(b, '\n');
  if (d.failed) b->failed = true;
  buf_free(&d);
}

/* Where npy_encode's data goes: a FILE (path for messages) or a memory buffer. */
typedef struct Sink { FILE *f; const char *path; Buf *b; } Sink;

static int sink_write(Ctx *c, Sink *s, const char *p, size_t n) {
  if (s->b) {
    buf_putn(s->b, p, n);
    return s->b->failed ? -1 : 0;
  }
  while (n > 0) {
    size_t k = n > IO_CHUNK ? IO_CHUNK : n;
    if (fwrite(p, 1, k, s->f) != k) {
      int e = errno ? errno : EIO;
      return ctx_err(c, TSR_ERR_IO, "OSError", "[Errno %d] %s: writing '%s'", e, strerror(e),
                     s->path);
    }
    p += k;
    n -= k;
    if (ctx_work(c, k, WORK_ELEMENT)) return -1;
  }
  return 0;
}

/* Writes t as a complete .npy image (header and data) to s.  A Fortran-contiguous (and not
   C-contiguous) t is written in Fortran order, any other t in C order (copied first when it
   is not C-contiguous), as numpy.save does. */
static int npy_encode(Ctx *c, Tensor *t, Sink *s) {
  bool fortran = t->ndim > 1 && tensor_is_f_contiguous(t) && !tensor_is_contiguous(t);
  Tensor *src = fortran ? tensor_retain(t) : tensor_contiguous(c, t, t->dtype);
  if (!src) return -1;
  Buf h;
  buf_init(&h, c);
  npy_header(&h, t->dtype, fortran, t->ndim, t->shape);
  int rc = -1;
  if (!h.failed && sink_write(c, s, h.p, h.n) == 0) {
    size_t nbytes = (size_t)tensor_size(src) * dtype_size(src->dtype);
    rc = nbytes ? sink_write(c, s, tensor_data(src), nbytes) : 0;
  }
  buf_free(&h);
  tensor_release(src);
  return rc;
}

int npy_save(Ctx *c, const char *path, Tensor *t) {
  FILE *f = io_fopen(c, path, "wb");
  if (!f) return -1;
  errno = 0;
  Sink s = {f, path, NULL};
  int rc = npy_encode(c, t, &s);
  if (fclose(f) != 0 && rc == 0) {
    int e = errno ? errno : EIO;
    rc = ctx_err(c, TSR_ERR_IO, "OSError", "[Errno %d] %s: writing '%s'", e, strerror(e), path);
  }
  return rc;
}

/* --------------------------------------------------------------------------------------------
** Reading the header
*/

/* What the header of an .npy file says. */
typedef struct NpyHeader {
  DType dtype;
  bool swap, fortran;
  int ndim;
  int64_t shape[TSR_MAXDIMS];
  uint64_t nbytes;      /* of the data */
} NpyHeader;

/* A cursor over the header dict text. */
typedef struct HeaderScan { const char *p, *end; char why[160]; } HeaderScan;

static void hs_space(HeaderScan *h) {
  while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
    h->p++;
}

static bool hs_char(HeaderScan *h, char ch) {
  hs_space(h);
  if (h->p < h->end && *h->p == ch) { h->p++; return true; }
  return false;
}

/* A quoted string ('...' or "..." without escapes) into out (size n).  false on error. */
static bool hs_string(HeaderScan *h, char *out, size_t n) {
  hs_space(h);
  if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) {
    snprintf(h->why, sizeof h->why, "expected a quoted string");
    return false;
  }
  char q = *h->p++;
  size_t k = 0;
  while (h->p < h->end && *h->p != q) {
    if (*h->p == '\\' || k + 1 >= n) {
      snprintf(h->why, sizeof h->why, "unsupported string");
      return false;
    }
    out[k++] = *h->p++;
  }
  if (h->p >= h->end) { snprintf(h->why, sizeof h->why, "unterminated string"); return false; }
  h->p++;
  out[k] = 0;
  return true;
}

static bool hs_word(HeaderScan *h, const char *w) {
  size_t n = strlen(w);
  hs_space(h);
  if ((size_t)(h->end - h->p) >= n && memcmp(h->p, w, n) == 0) { h->p += n; return true; }
  return false;
}

/* A non-negative int (Python 2's trailing L accepted). */
static bool hs_dim(HeaderScan *h, int64_t *out) {
  hs_space(h);
  const char *q = h->p;
  int64_t v = 0;
  if (q < h->end && *q == '-') { snprintf(h->why, sizeof h->why, "negative dimension"); return false; }
  if (q >= h->end || *q < '0' || *q > '9') return false;
  while (q < h->end && *q >= '0' && *q <= '9') {
    if (v > (INT64_MAX - (*q - '0')) / 10) {
      snprintf(h->why, sizeof h->why, "dimension too large");
      return false;
    }
    v = v * 10 + (*q++ - '0');
  }
  if (q < h->end && (*q == 'L' || *q == 'l')) q++;
  h->p = q;
  *out = v;
  return true;
}

/* Parses the dict text [p, p + n) of the file at path into *hd.  Records ValueError naming the
   file and returns -1 on anything malformed or unsupported. */
static int header_parse(Ctx *c, const char *path, const char *p, size_t n, NpyHeader *hd) {
  HeaderScan h = {p, p + n, ""};
  char key[32], descr[64] = "";
  bool have_descr = false, have_order = false, have_shape = false;
  for (size_t i = 0; i < n; i++)
    if (p[i] == 0) {
      snprintf(h.why, sizeof h.why, "NUL byte in the header");
      goto bad;
    }
  if (!hs_char(&h, '{')) { snprintf(h.why, sizeof h.why, "the header is not a dict"); goto bad; }
  while (!hs_char(&h, '}')) {
    if (!hs_string(&h, key, sizeof key)) goto bad;
    if (!hs_char(&h, ':')) { snprintf(h.why, sizeof h.why, "expected ':' after '%s'", key); goto bad; }
    if (strcmp(key, "descr") == 0 && !have_descr) {
      hs_space(&h);
      if (h.p < h.end && *h.p == '[') {
        ERR_VALUE(c, "unknown dtype (a structured dtype) in the .npy header of '%s' (tsr has "
                  "bool, int8-int64, uint8-uint64, float32, float64)", path);
        return -1;
      }
      if (!hs_string(&h, descr, sizeof descr)) goto bad;
      have_descr = true;
    } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
      if (hs_word(&h, "True")) hd->fortran = true;
      else if (hs_word(&h, "False")) hd->fortran = false;
      else { snprintf(h.why, sizeof h.why, "fortran_order is not a valid bool"); goto bad; }
      have_order = true;
    } else if (strcmp(key, "shape") == 0 && !have_shape) {
      if (!hs_char(&h, '(')) { snprintf(h.why, sizeof h.why, "shape is not a tuple"); goto bad; }
      hd->ndim = 0;
      bool comma = true;
      while (!hs_char(&h, ')')) {
        if (!comma) { snprintf(h.why, sizeof h.why, "shape is not valid"); goto bad; }
        if (hd->ndim == TSR_MAXDIMS) {
          snprintf(h.why, sizeof h.why, "more than %d dimensions", TSR_MAXDIMS);
          goto bad;
        }
        if (!hs_dim(&h, &hd->shape[hd->ndim])) {
          if (!h.why[0]) snprintf(h.why, sizeof h.why, "shape is not valid");
          goto bad;
        }
        hd->ndim++;
        comma = hs_char(&h, ',');
      }
      if (hd->ndim == 1 && !comma) { snprintf(h.why, sizeof h.why, "shape is not a tuple"); goto bad; }
      have_shape = true;
    } else {
      snprintf(h.why, sizeof h.why, "unexpected key '%s'", key);
      goto bad;
    }
    if (!hs_char(&h, ',')) {
      if (hs_char(&h, '}')) break;
      snprintf(h.why, sizeof h.why, "expected ',' or '}'");
      goto bad;
    }
  }
  hs_space(&h);
  if (h.p != h.end) { snprintf(h.why, sizeof h.why, "text after the dict"); goto bad; }
  if (!have_descr || !have_order || !have_shape) {
    snprintf(h.why, sizeof h.why, "the header does not contain the keys 'descr', "
             "'fortran_order' and 'shape'");
    goto bad;
  }
  if (descr_parse(descr, &hd->dtype, &hd->swap)) {
    ERR_VALUE(c, "unknown dtype '%s' in the .npy header of '%s' (tsr has bool, int8-int64, "
              "uint8-uint64, float32, float64)", descr, path);
    return -1;
  }
  uint64_t count = 1;
  bool overflow = false;
  for (int i = 0; i < hd->ndim; i++) {
    uint64_t d = (uint64_t)hd->shape[i];
    if (d && count > UINT64_MAX / d) overflow = true;
    count *= d;
  }
  for (int i = 0; i < hd->ndim; i++) if (hd->shape[i] == 0) { count = 0; overflow = false; }
  if (overflow || count > (uint64_t)INT64_MAX / dtype_size(hd->dtype)) {
    snprintf(h.why, sizeof h.why, "the shape is too big");
    goto bad;
  }
  hd->nbytes = count * dtype_size(hd->dtype);
  return 0;
bad:
  return ERR_VALUE(c, "cannot parse the .npy header of '%s': %s", path, h.why);
}

/* Parses the fixed prefix at the start of an .npy image (at least 8 bytes given in `head`):
   sets *prefix_len (bytes before the header text: 10 or 12).  -1 with ValueError. */
static int prefix_parse(Ctx *c, const char *path, const unsigned char *head, size_t *prefix_len) {
  int major = head[6], minor = head[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return ERR_VALUE(c, "unsupported .npy format version %d.%d in '%s' (tsr reads 1.0, 2.0 "
                     "and 3.0)", major, minor, path);
  *prefix_len = major == 1 ? 10 : 12;
  return 0;
}

static uint32_t header_length(const unsigned char *head, size_t prefix_len) {
  uint32_t n = (uint32_t)head[8] | (uint32_t)head[9] << 8;
  if (prefix_len == 12) n |= (uint32_t)head[10] << 16 | (uint32_t)head[11] << 24;
  return n;
}

/* The tensor for a header whose data lies in raw, laid out in the file's order: a Fortran-order
   file becomes a transposed view; data read into memory (in_memory) is also byte-swapped to
   the host's order and its bools normalised to 0/1.  Takes the reference to raw. */
static Tensor *finish_tensor(Ctx *c, Tensor *raw, const NpyHeader *hd, bool in_memory) {
  int64_t n = tensor_size(raw);
  if (in_memory && hd->swap) swap_elements(tensor_data(raw), n, dtype_size(hd->dtype));
  if (in_memory && hd->dtype == TSR_BOOL) normalize_bool(tensor_data(raw), n);
  if (!hd->fortran || hd->ndim < 2) return raw;
  Tensor *t = tensor_transpose(c, raw, NULL);
  tensor_release(raw);
  return t;
}

/* The shape the data has in the file: reversed for Fortran order. */
static void storage_shape(const NpyHeader *hd, int64_t *shape) {
  for (int i = 0; i < hd->ndim; i++)
    shape[i] = hd->fortran ? hd->shape[hd->ndim - 1 - i] : hd->shape[i];
}

static int truncated(Ctx *c, const char *what, const char *path, const NpyHeader *hd,
                     uint64_t found) {
  Buf b;
  buf_init(&b, c);
  shape_format(&b, hd->ndim, hd->shape);
  ERR_VALUE(c, "truncated %s '%s': shape %s %s needs %llu bytes of data, found %llu", what, path,
            buf_str(&b), dtype_name(hd->dtype), (unsigned long long)hd->nbytes,
            (unsigned long long)found);
  buf_free(&b);
  return -1;
}

/* Decodes a whole .npy image held in memory (an .npz member).  name is used in messages.
   New tensor or NULL. */
static Tensor *npy_decode(Ctx *c, const char *name, const unsigned char *p, size_t n) {
  NpyHeader hd = {0};
  size_t prefix = 0;
  if (n < 8 || memcmp(p, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
    ERR_VALUE(c, "'%s' is not an .npy file", name);
    return NULL;
  }
  if (prefix_parse(c, name, p, &prefix)) return NULL;
  if (n < prefix) { ERR_VALUE(c, "truncated .npy header in '%s'", name); return NULL; }
  uint32_t hlen = header_length(p, prefix);
  if (hlen > n - prefix) { ERR_VALUE(c, "truncated .npy header in '%s'", name); return NULL; }
  if (header_parse(c, name, (const char *)p + prefix, hlen, &hd)) return NULL;
  size_t avail = n - prefix - hlen;
  if (hd.nbytes > avail) { truncated(c, ".npy data", name, &hd, avail); return NULL; }
  int64_t shape[TSR_MAXDIMS];
  storage_shape(&hd, shape);
  Tensor *raw = tensor_empty(c, hd.dtype, hd.ndim, shape);
  if (!raw) return NULL;
  if (hd.nbytes) memcpy(tensor_data(raw), p + prefix + hlen, (size_t)hd.nbytes);
  return finish_tensor(c, raw, &hd, true);
}

/* Reads exactly n bytes; returns the count read (short at end of file or on error). */
static size_t read_some(Ctx *c, FILE *f, char *dst, size_t n, bool *interrupted) {
  size_t done = 0;
  while (done < n) {
    size_t want = n - done > IO_CHUNK ? IO_CHUNK : n - done;
    size_t got = fread(dst + done, 1, want, f);
    done += got;
    if (got < want) break;
    if (ctx_work(c, got, WORK_ELEMENT)) { *interrupted = true; break; }
  }
  return done;
}

/* Maps the data of the .npy file at path (numpy.load with mmap_mode; see io_map_tensor).
   Returns the tensor; or NULL with an error recorded; or NULL with no error when the data can
   only be read, not mapped as it is (bytes in the other byte order, bool bytes other than 0/1,
   an offset that is not a multiple of the itemsize) and the mode allows a copy ('r', 'c'). */
static Tensor *map_npy(Ctx *c, const char *path, char mode, uint64_t offset, const NpyHeader *hd,
                       const int64_t *shape) {
  if (hd->swap) {
    if (mode != 'w') return NULL;
    ERR_VALUE(c, "cannot memory-map '%s' with mmap_mode='r+': its data is not in the host's "
              "byte order (load it without mmap_mode)", path);
    return NULL;
  }
  if (offset % dtype_size(hd->dtype) && mode != 'w') return NULL;   /* misaligned: read it */
  DType as = hd->dtype == TSR_BOOL ? TSR_UINT8 : hd->dtype;
  Tensor *raw = io_map_tensor(c, path, mode, offset, as, hd->ndim, shape, NULL);
  if (!raw) return NULL;
  if (hd->dtype == TSR_BOOL) {
    const unsigned char *q = (const unsigned char *)tensor_data(raw);
    for (uint64_t i = 0; i < hd->nbytes; i++)
      if (q[i] > 1) {
        tensor_release(raw);
        if (mode != 'w') return NULL;
        ERR_VALUE(c, "cannot memory-map '%s': its bool data holds bytes other than 0 and 1",
                  path);
        return NULL;
      }
    raw->dtype = TSR_BOOL;
  }
  return finish_tensor(c, raw, hd, false);
}

/* Loads the .npy file open as f (its first 8 bytes already in head). */
static Tensor *load_npy(Ctx *c, const char *path, FILE *f, const unsigned char *head8,
                        char mmap_mode) {
  unsigned char head[12];
  size_t prefix = 0;
  bool interrupted = false;
  NpyHeader hd = {0};
  char *text = NULL;
  uint32_t hlen = 0;
  memcpy(head, head8, 8);
  if (prefix_parse(c, path, head, &prefix)) return NULL;
  if (read_some(c, f, (char *)head + 8, prefix - 8, &interrupted) != prefix - 8) {
    if (!interrupted) ERR_VALUE(c, "truncated .npy header in '%s'", path);
    return NULL;
  }
  hlen = header_length(head, prefix);
  struct stat st;
  bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  uint64_t fsize = regular ? (uint64_t)st.st_size : UINT64_MAX;
  if (hlen > NPY_MAX_HEADER || (uint64_t)prefix + hlen > fsize) {
    if (hlen > NPY_MAX_HEADER && (uint64_t)prefix + hlen <= fsize)
      ERR_VALUE(c, "the .npy header of '%s' is %u bytes long (tsr reads up to %u)", path, hlen,
                NPY_MAX_HEADER);
    else
      ERR_VALUE(c, "truncated .npy header in '%s'", path);
    return NULL;
  }
  if (!(text = ctx_malloc(c, hlen ? hlen : 1))) return NULL;
  if (read_some(c, f, text, hlen, &interrupted) != hlen) {
    if (!interrupted) ERR_VALUE(c, "truncated .npy header in '%s'", path);
    ctx_free(c, text, hlen ? hlen : 1);
    return NULL;
  }
  int rc = header_parse(c, path, text, hlen, &hd);
  ctx_free(c, text, hlen ? hlen : 1);
  if (rc) return NULL;
  uint64_t offset = (uint64_t)prefix + hlen;
  if (regular && hd.nbytes > fsize - offset) {
    truncated(c, ".npy file", path, &hd, fsize - offset);
    return NULL;
  }
  int64_t shape[TSR_MAXDIMS];
  storage_shape(&hd, shape);
  if (mmap_mode) {
    Tensor *mapped = map_npy(c, path, mmap_mode, offset, &hd, shape);
    if (mapped || c->status != TSR_OK) return mapped;
    /* else the data cannot be mapped as it is: read a copy (read-only for mode 'r') */
  }
  Tensor *raw = tensor_empty(c, hd.dtype, hd.ndim, shape);
  if (!raw) return NULL;
  size_t got = read_some(c, f, tensor_data(raw), (size_t)hd.nbytes, &interrupted);
  if (got != hd.nbytes) {
    if (!interrupted) truncated(c, ".npy file", path, &hd, got);
    tensor_release(raw);
    return NULL;
  }
  Tensor *t = finish_tensor(c, raw, &hd, true);
  if (t && mmap_mode) t->storage->readonly = mmap_mode == 'r';
  return t;
}

/* --------------------------------------------------------------------------------------------
** .npz archives
*/

void npy_members_free(Ctx *c, NpyMembers *m) {
  for (int i = 0; i < m->n; i++) {
    ctx_free(c, m->names[i], strlen(m->names[i]) + 1);
    tensor_release(m->arrays[i]);
  }
  if (m->cap) {
    ctx_free(c, m->names, (size_t)m->cap * sizeof *m->names);
    ctx_free(c, m->arrays, (size_t)m->cap * sizeof *m->arrays);
  }
  memset(m, 0, sizeof *m);
}

/* Appends (name, t) to m, taking the reference to t (released on failure). */
static int members_add(Ctx *c, NpyMembers *m, const char *name, size_t len, Tensor *t) {
  if (m->n == m->cap) {
    int cap = m->cap ? 2 * m->cap : 8;
    char **names = ctx_malloc(c, (size_t)cap * sizeof *names);
    Tensor **arrays = names ? ctx_malloc(c, (size_t)cap * sizeof *arrays) : NULL;
    if (!arrays) {
      if (names) ctx_free(c, names, (size_t)cap * sizeof *names);
      tensor_release(t);
      return -1;
    }
    if (m->n) {
      memcpy(names, m->names, (size_t)m->n * sizeof *names);
      memcpy(arrays, m->arrays, (size_t)m->n * sizeof *arrays);
      ctx_free(c, m->names, (size_t)m->cap * sizeof *names);
      ctx_free(c, m->arrays, (size_t)m->cap * sizeof *arrays);
    }
    m->names = names;
    m->arrays = arrays;
    m->cap = cap;
  }
  char *s = ctx_malloc(c, len + 1);
  if (!s) { tensor_release(t); return -1; }
  memcpy(s, name, len);
  s[len] = 0;
  m->names[m->n] = s;
  m->arrays[m->n++] = t;
  return 0;
}

/* Reads every ".npy" member of the zip archive open as f (f is handed to libzip, which closes
   it).  Other members are skipped (NumPy would return their bytes). */
static int load_npz(Ctx *c, const char *path, FILE *f, NpyMembers *m) {
  zip_error_t ze;
  zip_error_init(&ze);
  rewind(f);
  zip_source_t *src = zip_source_filep_create(f, 0, -1, &ze);
  if (!src) {
    fclose(f);
    ERR_VALUE(c, "bad .npz file '%s': %s", path, zip_error_strerror(&ze));
    zip_error_fini(&ze);
    return -1;
  }
  zip_t *z = zip_open_from_source(src, ZIP_RDONLY, &ze);
  if (!z) {
    zip_source_free(src);
    ERR_VALUE(c, "bad .npz file '%s': %s", path, zip_error_strerror(&ze));
    zip_error_fini(&ze);
    return -1;
  }
  zip_error_fini(&ze);
  int rc = 0;
  zip_int64_t count = zip_get_num_entries(z, 0);
  Buf b;
  buf_init(&b, c);
  for (zip_int64_t i = 0; i < count && rc == 0; i++) {
    const char *name = zip_get_name(z, (zip_uint64_t)i, ZIP_FL_ENC_GUESS);
    if (!name) continue;
    size_t len = strlen(name);
    if (len < 4 || strcmp(name + len - 4, ".npy") != 0) continue;
    zip_file_t *zf = zip_fopen_index(z, (zip_uint64_t)i, 0);
    if (!zf) {
      rc = ERR_VALUE(c, "bad .npz file '%s': member '%s': %s", path, name, zip_strerror(z));
      break;
    }
    b.n = 0;
    char chunk[1 << 16];
    zip_int64_t got;
    while ((got = zip_fread(zf, chunk, sizeof chunk)) > 0) {
      buf_putn(&b, chunk, (size_t)got);
      if (b.failed || ctx_work(c, got, WORK_ELEMENT)) { rc = -1; break; }
    }
    if (got < 0 && rc == 0)
      rc = ERR_VALUE(c, "bad .npz file '%s': member '%s': %s", path, name, zip_file_strerror(zf));
    zip_fclose(zf);
    if (rc) break;
    Tensor *t = npy_decode(c, name, (const unsigned char *)(b.p ? b.p : ""), b.n);
    if (!t && c->status != TSR_ERR_VALUE) { rc = -1; break; }   /* MemoryError, interrupt */
    if (!t) {
      char why[sizeof c->msg];
      snprintf(why, sizeof why, "%s", c->msg);
      ctx_clear(c);
      rc = ERR_VALUE(c, "bad .npz file '%s': %s", path, why);
      break;
    }
    rc = members_add(c, m, name, len - 4, t);
  }
  buf_free(&b);
  zip_discard(z);
  if (rc) npy_members_free(c, m);
  return rc;
}

int npy_load(Ctx *c, const char *path, char mmap_mode, Tensor **out, NpyMembers *members) {
  *out = NULL;
  memset(members, 0, sizeof *members);
  FILE *f = io_fopen(c, path, "rb");
  if (!f) return -1;
  unsigned char head[8];
  bool interrupted = false;
  size_t got = read_some(c, f, (char *)head, sizeof head, &interrupted);
  if (interrupted) { fclose(f); return -1; }
  if (got >= 4 && head[0] == 'P' && head[1] == 'K' &&
      ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6)))
    return load_npz(c, path, f, members);
  int rc = -1;
  if (got == 0) {
    ctx_err(c, TSR_ERR_VALUE, "EOFError", "No data left in file '%s'", path);
  } else if (got < NPY_MAGIC_LEN || memcmp(head, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
    ERR_VALUE(c, "Cannot load file containing pickled data when allow_pickle=False (not an "
              ".npy or .npz file: '%s')", path);
  } else if (got < 8) {
    ERR_VALUE(c, "truncated .npy header in '%s'", path);
  } else {
    *out = load_npy(c, path, f, head, mmap_mode);
    rc = *out ? 0 : -1;
  }
  fclose(f);
  return rc;
}

int npy_savez(Ctx *c, const char *path, int n, const char *const *names, Tensor *const *arrays,
              bool compress) {
  if (n == 0) {
    /* libzip removes an archive without members; write the empty zip NumPy writes */
    static const char empty[22] = {'P', 'K', 5, 6};
    FILE *f = io_fopen(c, path, "wb");
    if (!f) return -1;
    bool ok = fwrite(empty, 1, sizeof empty, f) == sizeof empty;
    if (fclose(f) != 0) ok = false;
    if (!ok) return ctx_err(c, TSR_ERR_IO, "OSError", "cannot write '%s'", path);
    return 0;
  }
  Buf *bufs = ctx_calloc(c, (size_t)n * sizeof *bufs);
  if (!bufs) return -1;
  for (int i = 0; i < n; i++) buf_init(&bufs[i], c);
  int rc = -1;
  zip_t *z = NULL;
  for (int i = 0; i < n; i++) {
    Sink s = {NULL, path, &bufs[i]};
    if (npy_encode(c, arrays[i], &s)) goto done;
  }
  if (!(z = io_zip_create(c, path))) goto done;
  for (int i = 0; i < n; i++) {
    Buf member;
    buf_init(&member, c);
    buf_printf(&member, "%s.npy", names[i]);
    if (member.failed) goto done;
    zip_source_t *src = zip_source_buffer(z, bufs[i].p ? bufs[i].p : "", bufs[i].n, 0);
    zip_int64_t idx = src ? zip_file_add(z, buf_str(&member), src,
                                         ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) : -1;
    buf_free(&member);
    if (idx < 0) {
      if (src) zip_source_free(src);
      ctx_err(c, TSR_ERR_IO, "OSError", "cannot write '%s': %s", path, zip_strerror(z));
      goto done;
    }
    if (zip_set_file_compression(z, (zip_uint64_t)idx, compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 0) < 0) {
      ctx_err(c, TSR_ERR_IO, "OSError", "cannot write '%s': %s", path, zip_strerror(z));
      goto done;
    }
  }
  if (zip_close(z) < 0) {
    ctx_err(c, TSR_ERR_IO, "OSError", "cannot write '%s': %s", path, zip_strerror(z));
    goto done;
  }
  z = NULL;
  rc = 0;
done:
  if (z) zip_discard(z);
  for (int i = 0; i < n; i++) buf_free(&bufs[i]);
  ctx_free(c, bufs, (size_t)n * sizeof *bufs);
  return rc;
}

/* --------------------------------------------------------------------------------------------
** loadtxt
*/

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f' || ch == '\r'; }

/* Parses the field [s, e) as dtype dt into dst; false when it is not a number of that kind
   (or out of the dtype's range). */
static bool parse_field(DType dt, const char *s, const char *e, char *dst) {
  while (s < e && is_space(*s)) s++;
  while (e > s && is_space(e[-1])) e--;
  size_t n = (size_t)(e - s);
  char tmp[512];
  if (n == 0 || n >= sizeof tmp) return false;
  memcpy(tmp, s, n);
  tmp[n] = 0;
  if (strpbrk(tmp, "xX_")) return false;   /* strtod's hex floats; Python has no such text */
  char *end;
  errno = 0;
  if (dtype_is_float(dt)) {
    double v = strtod(tmp, &end);
    if (*end) return false;
    dtype_set_f64(dt, dst, v);
    return true;
  }
  if (dtype_is_unsigned(dt)) {
    if (tmp[0] == '-') return false;
    unsigned long long v = strtoull(tmp, &end, 10);
    if (*end || errno) goto via_float;
    if (dt != TSR_UINT64 && v >> (8 * dtype_size(dt))) return false;
    dtype_set_u64(dt, dst, v);
    return true;
  }
  {
    long long v = strtoll(tmp, &end, 10);
    if (*end || errno) goto via_float;
    if (dt == TSR_BOOL) { *(bool *)dst = v != 0; return true; }
    int bits = 8 * (int)dtype_size(dt);
    if (bits < 64 && (v < -(1LL << (bits - 1)) || v >= (1LL << (bits - 1)))) return false;
    dtype_set_i64(dt, dst, v);
    return true;
  }
via_float: {
    /* NumPy 1.23+ still accepts an integral-valued float for an integer dtype (deprecated) */
    errno = 0;
    double v = strtod(tmp, &end);
    if (*end || errno || !isfinite(v) || v != trunc(v)) return false;
    if (dtype_is_unsigned(dt) ? (v < 0 || v >= 18446744073709551616.0)
                              : (v < -9223372036854775808.0 || v >= 9223372036854775808.0))
      return false;
    if (dtype_is_unsigned(dt)) dtype_set_u64(dt, dst, (uint64_t)v);
    else if (dt == TSR_BOOL) *(bool *)dst = v != 0;
    else dtype_set_i64(dt, dst, (int64_t)v);
    return true;
  }
}

/* The fields of one line: field k is [f[k].s, f[k].e); the array grows through the Ctx. */
typedef struct Field { const char *s, *e; } Field;
typedef struct Fields { Ctx *c; Field *f; int64_t n, cap; } Fields;

static int fields_push(Fields *f, const char *s, const char *e) {
  if (f->n == f->cap) {
    int64_t cap = f->cap ? 2 * f->cap : 16;
    Field *nf = ctx_realloc(f->c, f->f, (size_t)f->cap * sizeof *nf, (size_t)cap * sizeof *nf);
    if (!nf) return -1;
    f->f = nf;
    f->cap = cap;
  }
  f->f[f->n].s = s;
  f->f[f->n++].e = e;
  return 0;
}

/* Splits the line [s, e) (comments already cut) into fields: on runs of whitespace (leading
   and trailing whitespace ignored) when delim is NULL, else on every delim.  0 or -1
   (MemoryError). */
static int split_fields(Fields *f, const char *s, const char *e, const char *delim) {
  f->n = 0;
  if (!delim) {
    const char *p = s;
    for (;;) {
      while (p < e && is_space(*p)) p++;
      if (p >= e) break;
      const char *q = p;
      while (q < e && !is_space(*q)) q++;
      if (fields_push(f, p, q)) return -1;
      p = q;
    }
    return 0;
  }
  if (s == e) return 0;
  size_t dl = strlen(delim);
  const char *p = s;
  for (;;) {
    const char *q = p;
    while (q < e && !((size_t)(e - q) >= dl && memcmp(q, delim, dl) == 0)) q++;
    if (fields_push(f, p, q)) return -1;
    if (q >= e) break;
    p = q + dl;
  }
  return 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

Tensor *npy_loadtxt(Ctx *c, const char *path, const NpyLoadtxtOptions *o) {
  Buf text, data;
  buf_init(&text, c);
  buf_init(&data, c);
  Fields fl = {c, NULL, 0, 0};
  Tensor *t = NULL;
  if (io_read_all(c, path, ends_with(path, ".gz"), &text)) {
    if (strcmp(c->kind, "FileNotFoundError") == 0) {
      ctx_clear(c);
      ctx_err(c, TSR_ERR_IO, "FileNotFoundError", "%s not found.", path);
    }
    goto done;
  }
  DType dt = o->dtype;
  size_t isz = dtype_size(dt);
  const char *p = text.p ? text.p : "", *end = p + text.n;
  for (int64_t k = 0; k < o->skiprows && p < end; k++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : end;
  }
  int64_t rows = 0, ncols = o->nusecols > 0 ? o->nusecols : -1;
  char elem[8];
  while (p < end && (o->max_rows < 0 || rows < o->max_rows)) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *next = nl ? nl + 1 : end;
    if (le > p && le[-1] == '\r') le--;
    if (o->comments && *o->comments) {
      size_t cl = strlen(o->comments);
      for (const char *q = p; q + cl <= le; q++)
        if (memcmp(q, o->comments, cl) == 0) { le = q; break; }
    }
    if (split_fields(&fl, p, le, o->delimiter)) goto done;
    p = next;
    if (fl.n == 0) continue;
    if (ncols < 0) ncols = fl.n;
    if (o->nusecols == 0 && fl.n != ncols) {
      ERR_VALUE(c, "the number of columns changed from %lld to %lld at row %lld; use `usecols` "
                "to select a subset and avoid this error", (long long)ncols, (long long)fl.n,
                (long long)rows + 1);
      goto done;
    }
    for (int64_t j = 0; j < ncols; j++) {
      int64_t col = j;
      if (o->nusecols) {
        col = o->usecols[j];
        if (col < 0) col += fl.n;
        if (col < 0 || col >= fl.n) {
          ERR_VALUE(c, "invalid column index %lld at row %lld with %lld columns",
                    (long long)o->usecols[j], (long long)rows + 1, (long long)fl.n);
          goto done;
        }
      }
      if (!parse_field(dt, fl.f[col].s, fl.f[col].e, elem)) {
        int len = (int)(fl.f[col].e - fl.f[col].s);
        if (len > 100) len = 100;
        ERR_VALUE(c, "could not convert string '%.*s' to %s at row %lld, column %lld.", len,
                  fl.f[col].s, dtype_name(dt), (long long)rows, (long long)col + 1);
        goto done;
      }
      buf_putn(&data, elem, isz);
    }
    if (data.failed) goto done;
    rows++;
    if (ctx_work(c, ncols, WORK_ELEMENT)) goto done;
  }
  if (ncols < 0) ncols = 1;
  /* shape (rows, ncols), squeezed when ndmin < 2, then padded to ndmin */
  int64_t shape[2] = {rows, ncols}, sq[2];
  int nd = 0;
  if (o->ndmin < 2) {
    for (int i = 0; i < 2; i++) if (shape[i] != 1) sq[nd++] = shape[i];
    if (nd < o->ndmin) { sq[0] = nd ? sq[0] : 1; nd = 1; }
  } else {
    nd = 2;
    sq[0] = rows;
    sq[1] = ncols;
  }
  if (!(t = tensor_empty(c, dt, nd, sq))) goto done;
  if (data.n) memcpy(tensor_data(t), data.p, data.n);
  if (o->unpack && nd == 2) {
    Tensor *tt = tensor_transpose(c, t, NULL);
    tensor_release(t);
    t = tt;
  }
done:
  if (fl.cap) ctx_free(c, fl.f, (size_t)fl.cap * sizeof *fl.f);
  buf_free(&text);
  buf_free(&data);
  if (c->status != TSR_OK && t) { tensor_release(t); t = NULL; }
  return t;
}

/* --------------------------------------------------------------------------------------------
** savetxt: Python's %-formatting of one row of NumPy scalars
*/

/* Formats the values row[0..n) of dtype dt with the Python format string fmt into b.
   Returns 0, 1 for a mismatch (a TypeError of Python's % operator, which numpy.savetxt turns
   into its "Mismatch between array dtype" TypeError), or -1 with a ValueError recorded. */
static int percent_format(Ctx *c, Buf *b, const char *fmt, DType dt, const char *const *row,
                          int64_t n) {
  int64_t used = 0;
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t len = q ? (size_t)(q - p) : strlen(p);
      buf_putn(b, p, len);
      p += len;
      continue;
    }
    p++;
    if (*p == '%') { buf_putc(b, '%'); p++; continue; }
    if (*p == '(') return 1;                           /* a mapping key needs a dict */
    char spec[64];
    size_t k = 0;
    spec[k++] = '%';
    while (*p && strchr("-+ #0", *p)) { if (k < 20) spec[k++] = *p; p++; }
    if (*p == '*') return 1;
    while (*p >= '0' && *p <= '9') { if (k < 40) spec[k++] = *p; p++; }
    if (*p == '.') {
      if (k < 41) spec[k++] = *p;
      p++;
      if (*p == '*') return 1;
      while (*p >= '0' && *p <= '9') { if (k < 50) spec[k++] = *p; p++; }
    }
    while (*p && strchr("hlL", *p)) p++;
    char conv = *p;
    if (!conv) return ERR_VALUE(c, "incomplete format");
    p++;
    if (!strchr("diueEfFgGxXocsra", conv))
      return ERR_VALUE(c, "unsupported format character '%c' (0x%x) at index %d", conv,
                       (unsigned char)conv, (int)(p - 1 - fmt));
    if (used >= n) return 1;
    const char *v = row[used++];
    char out[512];
    if (strchr("eEfFgG", conv)) {
      spec[k++] = conv;
      spec[k] = 0;
      snprintf(out, sizeof out, spec, dtype_get_f64(dt, v));
      buf_puts(b, out);
    } else if (strchr("diuxXoc", conv)) {
      bool is_dec = strchr("diu", conv) != NULL;
      if (dtype_is_float(dt)) {
        if (!is_dec) return 1;
        double d = dtype_get_f64(dt, v);
        if (isnan(d)) return ERR_VALUE(c, "cannot convert float NaN to integer");
        if (isinf(d)) return ctx_err(c, TSR_ERR_VALUE, "OverflowError",
                                     "cannot convert float infinity to integer");
        d = trunc(d);
        if (fabs(d) < 9223372036854775808.0) {
          memcpy(spec + k, "lld", 4);
          snprintf(out, sizeof out, spec, (long long)d);
        } else {
          /* beyond int64: Python prints the exact integer, which %.0f of the integral double is */
          char *dot = strchr(spec, '.');
          if (dot) k = (size_t)(dot - spec);
          memcpy(spec + k, ".0f", 4);
          snprintf(out, sizeof out, spec, d);
        }
      } else if (conv == 'c') {
        int64_t i = dtype_get_i64(dt, v);
        if (i < 0 || i > 127) return 1;
        spec[k++] = 'c';
        spec[k] = 0;
        snprintf(out, sizeof out, spec, (int)i);
      } else if (dt == TSR_UINT64 || (dtype_is_unsigned(dt) && !is_dec)) {
        spec[k++] = 'l'; spec[k++] = 'l';
        spec[k++] = conv == 'i' || conv == 'd' ? 'u' : conv;
        spec[k] = 0;
        snprintf(out, sizeof out, spec, (unsigned long long)dtype_get_u64(dt, v));
      } else {
        int64_t i = dtype_get_i64(dt, v);
        bool neg = i < 0 && !is_dec;
        spec[k++] = 'l'; spec[k++] = 'l';
        spec[k++] = conv == 'u' ? 'd' : conv;
        spec[k] = 0;
        if (neg) {
          /* Python writes -0x1f where C would write the two's complement */
          char mag[400];
          snprintf(mag, sizeof mag, spec, (unsigned long long)(-(i + 1)) + 1);
          snprintf(out, sizeof out, "-%s", mag);
        } else {
          snprintf(out, sizeof out, spec, (long long)i);
        }
      }
      buf_puts(b, out);
    } else {
      /* %s / %r / %a: str() of the NumPy scalar */
      Tensor tmp_t;
      Storage tmp_s = {.refcnt = 2, .ctx = c, .data = (char *)v, .nbytes = dtype_size(dt)};
      memset(&tmp_t, 0, sizeof tmp_t);
      tmp_t.refcnt = 2;
      tmp_t.ctx = c;
      tmp_t.storage = &tmp_s;
      tmp_t.dtype = dt;
      Buf s;
      buf_init(&s, c);
      fmt_str(&s, &tmp_t, &c->print);
      spec[k++] = 's';
      spec[k] = 0;
      Buf o2;
      buf_init(&o2, c);
      buf_printf(&o2, spec, buf_str(&s));
      buf_putn(b, o2.p ? o2.p : "", o2.n);
      buf_free(&o2);
      buf_free(&s);
    }
  }
  return used == n ? 0 : 1;
}

int npy_savetxt(Ctx *c, const char *path, Tensor *t, int nfmt, const char *const *fmts,
                const char *delimiter, const char *newline, const char *header,
                const char *footer, const char *comments) {
  if (t->ndim == 0 || t->ndim > 2)
    return ERR_VALUE(c, "Expected 1D or 2D array, got %dD array instead", t->ndim);
  int64_t nrows = t->shape[0], ncols = t->ndim == 2 ? t->shape[1] : 1;
  Buf rowfmt, out;
  buf_init(&rowfmt, c);
  buf_init(&out, c);
  int rc = -1;
  const char **row = NULL;
  size_t row_bytes = (size_t)(ncols > 0 ? ncols : 1) * sizeof *row;
  if (nfmt > 1) {
    if (nfmt != ncols) {
      Buf l;
      buf_init(&l, c);
      buf_putc(&l, '[');
      for (int i = 0; i < nfmt; i++) buf_printf(&l, "%s'%s'", i ? ", " : "", fmts[i]);
      buf_putc(&l, ']');
      ctx_err(c, TSR_ERR_VALUE, "AttributeError", "fmt has wrong shape.  %s", buf_str(&l));
      buf_free(&l);
      goto done;
    }
    for (int i = 0; i < nfmt; i++) {
      if (i) buf_puts(&rowfmt, delimiter);
      buf_puts(&rowfmt, fmts[i]);
    }
  } else {
    int64_t npct = 0;
    for (const char *q = fmts[0]; *q; q++) npct += *q == '%';
    if (npct == 1) {
      for (int64_t i = 0; i < ncols; i++) {
        if (i) buf_puts(&rowfmt, delimiter);
        buf_puts(&rowfmt, fmts[0]);
      }
    } else if (npct < ncols) {
      ERR_VALUE(c, "fmt has wrong number of %% formats:  %s", fmts[0]);
      goto done;
    } else {
      buf_puts(&rowfmt, fmts[0]);
    }
  }
  if (rowfmt.failed) goto done;
  if (header && *header) {
    buf_puts(&out, comments);
    for (const char *q = header; *q; q++) {
      buf_putc(&out, *q);
      if (*q == '\n') buf_puts(&out, comments);
    }
    buf_puts(&out, newline);
  }
  if (!(row = ctx_malloc(c, row_bytes))) goto done;
  for (int64_t i = 0; i < nrows; i++) {
    for (int64_t j = 0; j < ncols; j++) {
      int64_t idx[2] = {i, j};
      row[j] = tensor_at(t, idx);
    }
    int r = percent_format(c, &out, buf_str(&rowfmt), t->dtype, row, ncols);
    if (r < 0) goto done;
    if (r > 0) {
      ERR_TYPE(c, "Mismatch between array dtype ('%s') and format specifier ('%s')",
               dtype_name(t->dtype), buf_str(&rowfmt));
      goto done;
    }
    buf_puts(&out, newline);
    if (out.failed || ctx_poll(c, (uint64_t)ncols / 256)) goto done;
  }
  if (footer && *footer) {
    buf_puts(&out, comments);
    for (const char *q = footer; *q; q++) {
      buf_putc(&out, *q);
      if (*q == '\n') buf_puts(&out, comments);
    }
    buf_puts(&out, newline);
  }
  if (out.failed) goto done;
  rc = io_write_all(c, path, ends_with(path, ".gz"), out.p ? out.p : "", out.n);
done:
  if (row) ctx_free(c, row, row_bytes);
  buf_free(&rowfmt);
  buf_free(&out);
  return rc;
}
