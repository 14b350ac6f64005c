/*
** test_npy.c -- unit tests of the file formats (npy.c) and the file-system gate (io.c):
** corrupt and lying .npy/.npz files each get their own clean error (run under ASan by
** `make test-asan`: no read outside a buffer, no leak); every truncation of a valid file
** fails cleanly; TSR_SANDBOX refuses every file builtin; and, when /usr/bin/python3 has NumPy,
** a differential pass both ways (tests/unit/npy_interop.py): files NumPy wrote (every dtype,
** shape, order, byte order, format version) load bit for bit, and files tsr writes are
** byte-identical to numpy.save's / numpy.savetxt's.
*/
#include "runtime/npy.h"
#include "check.h"
#include "tsr.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>
#include <zip.h>

static Ctx C;
static char dir[64];
static char errbuf[1200];

static const char *path_of(const char *name) {
  static char p[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
  return p[k];
}

static void write_bytes(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); exit(1); }
  if (n && fwrite(data, 1, n, f) != n) { perror(path); exit(1); }
  fclose(f);
}

/* An .npy image: magic, version, header length, dict text (no padding), data. */
static size_t make_npy(unsigned char *out, int major, const char *dict, const void *data,
                       size_t n) {
  size_t k = 0, hl = strlen(dict);
  memcpy(out, "\x93NUMPY", 6);
  k = 6;
  out[k++] = (unsigned char)major;
  out[k++] = 0;
  out[k++] = (unsigned char)(hl & 0xff);
  out[k++] = (unsigned char)(hl >> 8);
  if (major != 1) { out[k++] = 0; out[k++] = 0; }
  memcpy(out + k, dict, hl);
  k += hl;
  if (n) memcpy(out + k, data, n);
  return k + n;
}

/* Loads path; returns "OK" or "Kind: message" (with the path replaced by P). */
static const char *load_result(const char *path, char mmap_mode) {
  Tensor *t = NULL;
  NpyMembers m;
  int rc = npy_load(&C, path, mmap_mode, &t, &m);
  if (rc == 0) {
    if (t) tensor_release(t);
    npy_members_free(&C, &m);
    return "OK";
  }
  CHECK(t == NULL);
  char msg[1100];
  snprintf(msg, sizeof msg, "%s: %s", C.kind, C.msg);
  ctx_clear(&C);
  /* replace the path by P */
  char *q = errbuf;
  size_t pl = strlen(path);
  for (const char *p = msg; *p && q < errbuf + sizeof errbuf - 2;) {
    if (strncmp(p, path, pl) == 0) { *q++ = 'P'; p += pl; }
    else *q++ = *p++;
  }
  *q = 0;
  return errbuf;
}

static const char *load_bytes(const void *data, size_t n, char mmap_mode) {
  const char *p = path_of("corrupt.npy");
  write_bytes(p, data, n);
  return load_result(p, mmap_mode);
}

static void test_corrupt_npy(void) {
  unsigned char img[4096];
  double six[6] = {0, 1, 2, 3, 4, 5};
  size_t n;
  CHECK_STR(load_bytes("", 0, 0), "EOFError: No data left in file 'P'");
  CHECK_STR(load_bytes("hello world", 11, 0), "ValueError: Cannot load file containing pickled "
            "data when allow_pickle=False (not an .npy or .npz file: 'P')");
  CHECK_STR(load_bytes("\x93NUMPY", 6, 0), "ValueError: truncated .npy header in 'P'");
  CHECK_STR(load_bytes("\x93NUMPY\x01\x00\x50", 9, 0), "ValueError: truncated .npy header in 'P'");
  n = make_npy(img, 4, "{}", NULL, 0);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: unsupported .npy format version 4.0 in 'P' "
            "(tsr reads 1.0, 2.0 and 3.0)");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "OK");
  CHECK_STR(load_bytes(img, n - 8, 0), "ValueError: truncated .npy file 'P': shape (2, 3) "
            "float64 needs 48 bytes of data, found 40");
  CHECK_STR(load_bytes(img, n - 8, 'r'), "ValueError: truncated .npy file 'P': shape (2, 3) "
            "float64 needs 48 bytes of data, found 40");
  img[8] = 200;   /* the header length runs past the end of the file */
  CHECK_STR(load_bytes(img, 60, 0), "ValueError: truncated .npy header in 'P'");
  /* a header that lies about its shape: no allocation of the claimed size */
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (100000000000,), }",
               six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: truncated .npy file 'P': shape (100000000000,) "
            "float64 needs 800000000000 bytes of data, found 48");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, "
               "4294967296), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': the shape "
            "is too big");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }",
               six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': dimension "
            "too large");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': negative "
            "dimension");
  n = make_npy(img, 1, "{'descr': '<c16', 'fortran_order': False, 'shape': (3,), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: unknown dtype '<c16' in the .npy header of 'P' "
            "(tsr has bool, int8-int64, uint8-uint64, float32, float64)");
  n = make_npy(img, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: unknown dtype '<f2' in the .npy header of 'P' "
            "(tsr has bool, int8-int64, uint8-uint64, float32, float64)");
  n = make_npy(img, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: unknown dtype '|O' in the .npy header of 'P' "
            "(tsr has bool, int8-int64, uint8-uint64, float32, float64)");
  n = make_npy(img, 1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,), }",
               six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: unknown dtype (a structured dtype) in the .npy "
            "header of 'P' (tsr has bool, int8-int64, uint8-uint64, float32, float64)");
  n = make_npy(img, 1, "{'descr': '<f8', 'shape': (3,), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': the header "
            "does not contain the keys 'descr', 'fortran_order' and 'shape'");
  n = make_npy(img, 1, "[1, 2, 3]", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': the header "
            "is not a dict");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': unexpected "
            "key 'x'");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (3,)}", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': "
            "fortran_order is not a valid bool");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3)}", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': shape is "
            "not a tuple");
  n = make_npy(img, 1, "{'descr': '<f8", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': "
            "unterminated string");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,"
               "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': more than "
            "32 dimensions");
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), } junk", six, 48);
  CHECK_STR(load_bytes(img, n, 0), "ValueError: cannot parse the .npy header of 'P': text after "
            "the dict");
  /* Python 2 headers: long ints, double quotes; a bool byte other than 0/1 reads as True */
  n = make_npy(img, 2, "{\"descr\": \"|b1\", \"fortran_order\": False, \"shape\": (3L,)}\n",
               "\0\2\1", 3);
  Tensor *t = NULL;
  NpyMembers m;
  write_bytes(path_of("py2.npy"), img, n);
  CHECK(npy_load(&C, path_of("py2.npy"), 0, &t, &m) == 0 && t && t->dtype == TSR_BOOL &&
        t->ndim == 1 && t->shape[0] == 3);
  if (t) {
    const unsigned char *b = (const unsigned char *)tensor_data(t);
    CHECK(b[0] == 0 && b[1] == 1 && b[2] == 1);
    tensor_release(t);
  }
  CHECK_STR(load_result(path_of("py2.npy"), 'w'), "ValueError: cannot memory-map 'P': its bool "
            "data holds bytes other than 0 and 1");
  t = NULL;
  CHECK(npy_load(&C, path_of("py2.npy"), 'r', &t, &m) == 0 && t && t->storage->readonly &&
        ((const unsigned char *)tensor_data(t))[1] == 1);
  if (t) tensor_release(t);
  /* data that does not start on a multiple of the itemsize: read for 'r', refused for 'r+' */
  n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", six, 48);
  write_bytes(path_of("misaligned.npy"), img, n);
  t = NULL;
  CHECK(npy_load(&C, path_of("misaligned.npy"), 'r', &t, &m) == 0 && t &&
        ((double *)tensor_data(t))[5] == 5.0);
  if (t) tensor_release(t);
  CHECK_STR(load_result(path_of("misaligned.npy"), 'w'), "ValueError: cannot memory-map 'P': "
            "its data offset 69 is not a multiple of the itemsize 8");
  CHECK_STR(load_result(path_of("no-such-file.npy"), 0), "FileNotFoundError: [Errno 2] No such "
            "file or directory: 'P'");
  CHECK_STR(load_result(dir, 0), "IsADirectoryError: [Errno 21] Is a directory: 'P'");
  /* big-endian data cannot be mapped for writing; read-only mapping reads a copy */
  n = make_npy(img, 1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
               "\0\0\0\1\0\0\1\0", 8);
  write_bytes(path_of("be.npy"), img, n);
  CHECK_STR(load_result(path_of("be.npy"), 'w'), "ValueError: cannot memory-map 'P' with "
            "mmap_mode='r+': its data is not in the host's byte order (load it without mmap_mode)");
  t = NULL;
  CHECK(npy_load(&C, path_of("be.npy"), 'r', &t, &m) == 0 && t && t->storage->readonly &&
        ((int32_t *)tensor_data(t))[0] == 1 && ((int32_t *)tensor_data(t))[1] == 256);
  if (t) tensor_release(t);
}

/* Every prefix of a valid file fails cleanly (or, for the full file, loads); every single-byte
   change of the header either loads or fails cleanly. */
static void test_truncations(void) {
  int64_t shape[3] = {2, 3, 4};
  Tensor *x = tensor_full_f64(&C, TSR_FLOAT32, 3, shape, 1.5);
  CHECK(x && npy_save(&C, path_of("valid.npy"), x) == 0);
  Tensor *v = x;
  const char *names[2] = {"a", "b"};
  Tensor *arrays[2] = {x, x};
  CHECK(npy_savez(&C, path_of("valid.npz"), 2, names, arrays, true) == 0);
  tensor_release(v);
  for (int z = 0; z < 2; z++) {
    FILE *f = fopen(path_of(z ? "valid.npz" : "valid.npy"), "rb");
    unsigned char img[8192];
    size_t n = f ? fread(img, 1, sizeof img, f) : 0;
    if (f) fclose(f);
    CHECK(n > 128);
    int clean = 0;
    for (size_t k = 0; k < n; k++) {
      const char *r = load_bytes(img, k, 0);
      clean += strcmp(r, "OK") != 0;
    }
    CHECK(clean == (int)n);
    CHECK_STR(load_bytes(img, n, 0), "OK");
    int handled = 0;
    size_t limit = z ? n : 128;
    for (size_t k = 0; k < limit; k++) {
      unsigned char save = img[k];
      img[k] = (unsigned char)(save ^ 0x5a);
      load_bytes(img, n, 0);
      img[k] = save;
      handled++;
    }
    CHECK(handled == (int)limit);
  }
  CHECK(C.mem_used == 0);
}

static void test_corrupt_npz(void) {
  /* a member that is itself a bad .npy */
  const char *p = path_of("bad.npz");
  zip_t *z = zip_open(p, ZIP_CREATE | ZIP_TRUNCATE, NULL);
  static unsigned char img[512];
  double six[6] = {0};
  size_t n = make_npy(img, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                      six, 40);
  zip_source_t *s = zip_source_buffer(z, img, n, 0);
  CHECK(zip_file_add(z, "x.npy", s, 0) >= 0);
  s = zip_source_buffer(z, "hello", 5, 0);
  CHECK(zip_file_add(z, "notes.txt", s, 0) >= 0);
  CHECK(zip_close(z) == 0);
  CHECK_STR(load_result(p, 0), "ValueError: bad .npz file 'P': truncated .npy data 'x.npy': "
            "shape (2, 3) float64 needs 48 bytes of data, found 40");
  /* a stored member whose bytes were changed: the CRC catches it */
  int64_t shape[1] = {64};
  Tensor *x = tensor_full_f64(&C, TSR_INT64, 1, shape, 7);
  const char *names[1] = {"a"};
  CHECK(npy_savez(&C, p, 1, names, &x, false) == 0);
  tensor_release(x);
  FILE *f = fopen(p, "r+b");
  fseek(f, 300, SEEK_SET);
  fputc('X', f);
  fclose(f);
  CHECK_STR(load_result(p, 0), "ValueError: bad .npz file 'P': member 'a.npy': CRC error");
  /* only the zip signature */
  CHECK_STR(load_bytes("PK\3\4garbage", 11, 0), "ValueError: bad .npz file 'P': Not a zip "
            "archive");
  /* non-.npy members are skipped; an empty archive has no members */
  CHECK(npy_savez(&C, p, 0, NULL, NULL, false) == 0);
  Tensor *t = NULL;
  NpyMembers m;
  CHECK(npy_load(&C, p, 0, &t, &m) == 0 && !t && m.n == 0);
  npy_members_free(&C, &m);
}

/* Allocation failure at every point of loading and saving: each call either succeeds or fails
   with MemoryError, and nothing leaks. */
static void test_alloc_failures(void) {
  const char *txt = "# t\n1 2 3\n4 5 6\n7 8 9\n10 11 12\n";
  write_bytes(path_of("cap.txt"), txt, strlen(txt));
  int64_t shape[2] = {20, 30};
  Tensor *x = tensor_full_f64(&C, TSR_INT16, 2, shape, 3);
  Tensor *xt = tensor_transpose(&C, x, NULL);
  const char *names[2] = {"a", "b"};
  Tensor *arrays[2] = {x, xt};
  const char *fmt[1] = {"%.3e"};
  NpyLoadtxtOptions o = {.dtype = TSR_FLOAT32, .comments = "#", .max_rows = -1};
  size_t base = C.mem_used;
  int failures = 0, successes = 0;
  for (size_t extra = 0; extra < 12000; extra += 61) {
    for (int op = 0; op < 6; op++) {
      C.mem_max = base + extra;
      Tensor *t = NULL;
      NpyMembers m = {0};
      int rc;
      switch (op) {
      case 0: rc = npy_load(&C, path_of("valid.npy"), 0, &t, &m); break;
      case 1: rc = npy_load(&C, path_of("valid.npz"), 0, &t, &m); break;
      case 2: rc = npy_savez(&C, path_of("cap.npz"), 2, names, arrays, op == 2); break;
      case 3: rc = npy_save(&C, path_of("cap.npy"), xt); break;
      case 4: rc = (t = npy_loadtxt(&C, path_of("cap.txt"), &o)) ? 0 : -1; break;
      default: rc = npy_savetxt(&C, path_of("cap.out"), x, 1, fmt, ",", "\n", "h", "", "# ");
      }
      if (rc == 0) successes++;
      else {
        if (C.status != TSR_ERR_MEMORY) fprintf(stderr, "op %d: %s: %s\n", op, C.kind, C.msg);
        CHECK(C.status == TSR_ERR_MEMORY);
        failures++;
      }
      ctx_clear(&C);
      tensor_release(t);
      npy_members_free(&C, &m);
      C.mem_max = 0;
      if (C.mem_used != base) fprintf(stderr, "op %d leaks with cap %zu\n", op, extra);
      CHECK(C.mem_used == base);
    }
  }
  CHECK(failures > 50 && successes > 50);
  tensor_release(xt);
  tensor_release(x);
}

/* TSR_SANDBOX refuses every file builtin, before touching the file system: the sandboxed
   namespace does not have them (NameError, src/api/sandbox.c's allow-list), and the runtime's
   one file gate refuses behind that (PermissionError). */
static void test_sandbox(void) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.flags = TSR_SANDBOX;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  static const char *const progs[] = {
    "save('/tmp/tsr-sandbox-test.npy', 1)", "load('/tmp/tsr-sandbox-test.npy')",
    "load('/tmp/tsr-sandbox-test.npy', mmap_mode='r')", "savez('/tmp/tsr-sandbox-test', a=1)",
    "savez_compressed('/tmp/tsr-sandbox-test', a=1)", "loadtxt('/tmp/tsr-sandbox-test.txt')",
    "savetxt('/tmp/tsr-sandbox-test.txt', [1, 2])", "load_idx('/tmp/tsr-sandbox-test.idx')",
  };
  for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
    CHECK(tsr_eval(S, progs[i], "sandbox", NULL) == TSR_ERR_NAME);
    const tsr_Error *e = tsr_last_error(S);
    CHECK_STR(e->kind, "NameError");
    CHECK(strncmp(e->message, "name '", 6) == 0);
  }
  /* the gate itself, as a builtin reaching the runtime would meet it */
  Ctx c;
  ctx_init(&c, NULL, NULL);
  c.flags = TSR_SANDBOX;
  CHECK(io_gate(&c) == -1);
  CHECK(c.status == TSR_ERR_SANDBOX);
  CHECK_STR(c.kind, "PermissionError");
  CHECK_STR(c.msg, "file access is disabled in this sandbox");
  FILE *f = io_fopen(&c, "/tmp/tsr-sandbox-test.npy", "wb");
  CHECK(f == NULL);
  if (f) fclose(f);
  CHECK(access("/tmp/tsr-sandbox-test.npy", F_OK) != 0);
  CHECK(access("/tmp/tsr-sandbox-test.npz", F_OK) != 0);
  CHECK(access("/tmp/tsr-sandbox-test.txt", F_OK) != 0);
  tsr_close(S);
}

/* The namespace load returns for an .npz: d.a as well as d["a"] (NumPy has only the second;
   d.a is a tsr extension, so the golden tests cannot show it), and `files`. */
static void test_npz_namespace(void) {
  tsr_State *S = tsr_open(NULL);
  char prog[600];
  snprintf(prog, sizeof prog, "savez('%s', arange(4), a=arange(3) * 2, files=ones(2))\n"
           "d = load('%s')\n"
           "s = float(d.a.sum() + d['a'][2] + d.arr_0.sum() + d.files.sum())",
           path_of("ns"), path_of("ns.npz"));
  CHECK(tsr_eval(S, prog, "npz", NULL) == TSR_OK);
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "s", "npz", &r) == TSR_OK && r);
  double v = 0;
  if (r) { tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v); tsr_tensor_release(r); }
  CHECK(v == 6 + 4 + 6 + 2);
  snprintf(prog, sizeof prog, "savez('%s', x=arange(3), y=ones(2))\nd = load('%s')\n"
           "n = 0\nfor k in d.files:\n    n += d[k].size\n", path_of("ns"), path_of("ns.npz"));
  CHECK(tsr_eval(S, prog, "npz", NULL) == TSR_OK);
  r = NULL;
  CHECK(tsr_eval(S, "float(n)", "npz", &r) == TSR_OK && r);
  v = 0;
  if (r) { tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v); tsr_tensor_release(r); }
  CHECK(v == 5);
  CHECK(tsr_eval(S, "d.z", "npz", NULL) == TSR_ERR_TYPE);
  CHECK_STR(tsr_last_error(S)->kind, "AttributeError");
  CHECK_STR(tsr_last_error(S)->message, "'NpzFile' object has no attribute 'z'");
  tsr_close(S);
}

/* A mapped file is a borrowed storage: it does not count against max_memory, so a state capped
   far below the file's size can still slice and reduce it (reading it is a MemoryError). */
static void test_mmap_beyond_cap(void) {
  unsigned char img[256];
  char dict[128] = "{'descr': '<f8', 'fortran_order': False, 'shape': (8388608,), }";
  size_t k = strlen(dict);
  while ((10 + k + 1) % 64) dict[k++] = ' ';   /* the data starts 64-byte aligned */
  dict[k++] = '\n';
  dict[k] = 0;
  size_t n = make_npy(img, 1, dict, NULL, 0);
  const char *p = path_of("big.npy");
  write_bytes(p, img, n);
  CHECK(truncate(p, (off_t)n + 8388608 * 8) == 0);   /* 64 MiB of zeros, sparse */
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_memory = 8u << 20;
  tsr_State *S = tsr_open(&cfg);
  char prog[600];
  snprintf(prog, sizeof prog, "x = load('%s', mmap_mode='r+')\nx[::4096] = 1.0\n"
           "s = (x[::1024].sum() + x[-1], x.shape[0])", p);
  CHECK(tsr_eval(S, prog, "mmap", NULL) == TSR_OK);
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "float(s[0])", "mmap", &r) == TSR_OK && r);
  double v = 0;
  if (r) { tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v); tsr_tensor_release(r); }
  CHECK(v == 2048.0);
  snprintf(prog, sizeof prog, "del x\ny = load('%s')", p);
  CHECK(tsr_eval(S, prog, "mmap", NULL) == TSR_ERR_MEMORY);
  snprintf(prog, sizeof prog, "float(load('%s', mmap_mode='r')[4096 * 7 : 4096 * 7 + 2].sum())",
           p);
  r = NULL;
  CHECK(tsr_eval(S, prog, "mmap", &r) == TSR_OK && r);
  v = 0;
  if (r) { tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v); tsr_tensor_release(r); }
  CHECK(v == 1.0);
  tsr_close(S);
}

/* --------------------------------------------------------------------------------------------
** The differential pass with NumPy
*/

static bool read_all(const char *path, char **data, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  *data = malloc(len > 0 ? (size_t)len : 1);
  *n = *data ? fread(*data, 1, (size_t)len, f) : 0;
  fclose(f);
  return *data && *n == (size_t)len;
}

/* Is the tensor's content, in C order, exactly the bytes of the file? */
static bool equals_raw(Tensor *t, const char *raw_path) {
  char *raw = NULL;
  size_t n = 0;
  bool ok = false;
  Tensor *c = tensor_contiguous(&C, t, t->dtype);
  if (c && read_all(raw_path, &raw, &n))
    ok = n == (size_t)tensor_size(c) * dtype_size(c->dtype) && (n == 0 || memcmp(raw, tensor_data(c), n) == 0);
  free(raw);
  if (c) tensor_release(c);
  return ok;
}

static void differential(void) {
  if (system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0) {
    printf("test_npy: NumPy not found in /usr/bin/python3: differential pass skipped\n");
    CHECK(1);
    return;
  }
  char cmd[512];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/unit/npy_interop.py prepare %s", dir);
  CHECK(system(cmd) == 0);
  /* NumPy's files load bit for bit; tsr writes each back */
  DIR *d = opendir(dir);
  struct dirent *e;
  int cases = 0;
  while (d && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "case_", 5) != 0 || len < 4 || strcmp(e->d_name + len - 4, ".npy"))
      continue;
    char name[256], raw[300], out[300];
    snprintf(name, sizeof name, "%.*s", (int)(len - 9), e->d_name + 5);
    snprintf(raw, sizeof raw, "case_%s.raw", name);
    snprintf(out, sizeof out, "tsr_%s.npy", name);
    for (int mm = 0; mm < 2; mm++) {
      Tensor *t = NULL;
      NpyMembers m;
      if (npy_load(&C, path_of(e->d_name), mm ? 'r' : 0, &t, &m) != 0 || !t) {
        fprintf(stderr, "load %s: %s\n", e->d_name, C.msg);
        ctx_clear(&C);
        CHECK(0);
        continue;
      }
      bool ok = equals_raw(t, path_of(raw));
      if (!ok) fprintf(stderr, "data of %s (mmap %d) differs from NumPy's\n", e->d_name, mm);
      CHECK(ok);
      if (!mm) CHECK(npy_save(&C, path_of(out), t) == 0);
      tensor_release(t);
    }
    cases++;
  }
  if (d) closedir(d);
  CHECK(cases > 200);
  /* .npz both ways */
  static const char *const kinds[2] = {"plain", "comp"};
  for (int k = 0; k < 2; k++) {
    char in[64], out[64];
    snprintf(in, sizeof in, "npz_%s.npz", kinds[k]);
    snprintf(out, sizeof out, "tsr_%s.npz", kinds[k]);
    Tensor *t = NULL;
    NpyMembers m;
    CHECK(npy_load(&C, path_of(in), 0, &t, &m) == 0 && !t && m.n == 5);
    for (int i = 0; i < m.n; i++) {
      char raw[64];
      snprintf(raw, sizeof raw, "npz_member_%s.raw", m.names[i]);
      bool ok = equals_raw(m.arrays[i], path_of(raw));
      if (!ok) fprintf(stderr, "member %s of %s differs\n", m.names[i], in);
      CHECK(ok);
    }
    CHECK(npy_savez(&C, path_of(out), m.n, (const char *const *)m.names, m.arrays, k == 1) == 0);
    npy_members_free(&C, &m);
  }
  /* savetxt cases */
  FILE *f = fopen(path_of("txtcases"), "r");
  char line[1024];
  int ntxt = 0;
  while (f && fgets(line, sizeof line, f)) {
    char *fields[7], *p = line;
    line[strcspn(line, "\n")] = 0;
    for (int i = 0; i < 7; i++) {
      fields[i] = p;
      p = strchr(p, '\x1f');
      if (p) *p++ = 0;
      else p = fields[i] + strlen(fields[i]);
    }
    char in[64], out[64], unesc[2][256];
    /* header and footer have their newlines written as backslash-n */
    for (int u = 0; u < 2; u++) {
      size_t k = 0;
      for (const char *q = fields[4 + u]; *q && k + 1 < sizeof unesc[u]; q++) {
        if (q[0] == '\\' && q[1] == 'n') { unesc[u][k++] = '\n'; q++; }
        else unesc[u][k++] = *q;
      }
      unesc[u][k] = 0;
    }
    snprintf(in, sizeof in, "txt_%s.npy", fields[0]);
    snprintf(out, sizeof out, "tsr_txt_%s_%s.txt", fields[0], fields[1]);
    Tensor *t = NULL;
    NpyMembers m;
    CHECK(npy_load(&C, path_of(in), 0, &t, &m) == 0 && t);
    if (!t) continue;
    const char *fmts[1] = {fields[2]};
    if (npy_savetxt(&C, path_of(out), t, 1, fmts, fields[3], "\n", unesc[0], unesc[1],
                    fields[6]) != 0) {
      fprintf(stderr, "savetxt %s %s: %s\n", in, fields[2], C.msg);
      ctx_clear(&C);
      CHECK(0);
    }
    tensor_release(t);
    ntxt++;
  }
  if (f) fclose(f);
  CHECK(ntxt > 50);
  /* NumPy checks tsr's files */
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 tests/unit/npy_interop.py verify %s", dir);
  FILE *pf = popen(cmd, "r");
  int pass = 0, fail = 0;
  while (pf && fgets(line, sizeof line, pf)) {
    if (strncmp(line, "PASS ", 5) == 0) pass++;
    else { fail++; fprintf(stderr, "%s", line); }
  }
  CHECK(pf && pclose(pf) == 0);
  CHECK(pass > 250);
  CHECK(fail == 0);
  check_passed += pass;
}

/* Removes the scratch folder's files and the folder. */
static void cleanup(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') unlink(path_of(e->d_name));
  if (d) closedir(d);
  rmdir(dir);
}

int main(void) {
  ctx_init(&C, NULL, NULL);
  snprintf(dir, sizeof dir, "/tmp/tsr-unit-npy.XXXXXX");
  if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
  test_corrupt_npy();
  test_truncations();
  test_corrupt_npz();
  test_alloc_failures();
  test_sandbox();
  test_mmap_beyond_cap();
  test_npz_namespace();
  differential();
  cleanup();
  CHECK(C.mem_used == 0);
  if (C.mem_used) fprintf(stderr, "leaked %zu bytes\n", C.mem_used);
  return CHECK_DONE("npy");
}
