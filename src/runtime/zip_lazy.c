/*
** zip_lazy.c -- libzip loaded on first use.  Linking libzip pulls libcrypto and libbz2 into
** every process at start-up (most of `tsr -c 'print(1)'`'s time), although only .npz files
** need it.  This file defines the libzip functions that io.c and npy.c call, with libzip's
** own signatures (from <zip.h>), as hidden forwarders to libzip.so.4 opened with dlopen the
** first time one is called.  When the library cannot be loaded, opening an archive fails with
** libzip's "Internal error" (ZIP_ER_INTERNAL) and its error helpers still work.
*/
#define ZIP_EXTERN   /* these definitions stay hidden in libtsr (-fvisibility=hidden) */
#include <zip.h>

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

/* X(return type, name, parameters, arguments) for every function used. */
#define ZIP_FUNCTIONS(X)                                                                   \
  X(int, zip_close, (zip_t *z), (z))                                                       \
  X(void, zip_discard, (zip_t *z), (z))                                                    \
  X(int, zip_fclose, (zip_file_t *f), (f))                                                 \
  X(zip_int64_t, zip_file_add, (zip_t *z, const char *n, zip_source_t *s, zip_flags_t fl), \
    (z, n, s, fl))                                                                         \
  X(const char *, zip_file_strerror, (zip_file_t *f), (f))                                 \
  X(zip_file_t *, zip_fopen_index, (zip_t *z, zip_uint64_t i, zip_flags_t fl), (z, i, fl)) \
  X(zip_int64_t, zip_fread, (zip_file_t *f, void *b, zip_uint64_t n), (f, b, n))           \
  X(const char *, zip_get_name, (zip_t *z, zip_uint64_t i, zip_flags_t fl), (z, i, fl))    \
  X(zip_int64_t, zip_get_num_entries, (zip_t *z, zip_flags_t fl), (z, fl))                 \
  X(int, zip_set_file_compression, (zip_t *z, zip_uint64_t i, zip_int32_t m, zip_uint32_t f), \
    (z, i, m, f))                                                                          \
  X(zip_source_t *, zip_source_buffer, (zip_t *z, const void *d, zip_uint64_t n, int fr),  \
    (z, d, n, fr))                                                                         \
  X(void, zip_source_free, (zip_source_t *s), (s))                                         \
  X(const char *, zip_strerror, (zip_t *z), (z))

/* Functions with an answer of their own when libzip is missing. */
#define ZIP_FUNCTIONS_FALLBACK(X)                                                          \
  X(int, zip_error_code_system, (const zip_error_t *e), (e))                               \
  X(void, zip_error_fini, (zip_error_t *e), (e))                                           \
  X(void, zip_error_init, (zip_error_t *e), (e))                                           \
  X(void, zip_error_init_with_code, (zip_error_t *e, int code), (e, code))                 \
  X(const char *, zip_error_strerror, (zip_error_t *e), (e))                               \
  X(int, zip_error_system_type, (const zip_error_t *e), (e))                               \
  X(zip_t *, zip_open, (const char *p, int fl, int *err), (p, fl, err))                    \
  X(zip_t *, zip_open_from_source, (zip_source_t *s, int fl, zip_error_t *e), (s, fl, e))  \
  X(zip_source_t *, zip_source_filep_create,                                               \
    (FILE *f, zip_uint64_t start, zip_int64_t len, zip_error_t *e), (f, start, len, e))

static struct {
#define X_FIELD(ret, name, params, args) ret (*name) params;
  ZIP_FUNCTIONS(X_FIELD)
  ZIP_FUNCTIONS_FALLBACK(X_FIELD)
#undef X_FIELD
  void *handle;
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_load(void) {
  void *h = dlopen("libzip.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libzip.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) return;
#define X_LOAD(ret, name, params, args) *(void **)&lib.name = dlsym(h, #name); if (!lib.name) goto missing;
  ZIP_FUNCTIONS(X_LOAD)
  ZIP_FUNCTIONS_FALLBACK(X_LOAD)
#undef X_LOAD
  lib.handle = h;
  return;
missing:
  dlclose(h);
  memset(&lib, 0, sizeof lib);
}

/* Is libzip there (loading it the first time)? */
static int loaded(void) {
  pthread_once(&lib_once, lib_load);
  return lib.handle != NULL;
}

/* Functions that receive an object only libzip makes: libzip is loaded when they are
   reached. */
#define X_FORWARD(ret, name, params, args) ret name params { loaded(); return lib.name args; }
ZIP_FUNCTIONS(X_FORWARD)
#undef X_FORWARD

int zip_error_code_system(const zip_error_t *e) {
  return loaded() ? lib.zip_error_code_system(e) : 0;
}

void zip_error_fini(zip_error_t *e) {
  if (loaded()) lib.zip_error_fini(e);
}

void zip_error_init(zip_error_t *e) {
  if (loaded()) lib.zip_error_init(e);
  else memset(e, 0, sizeof *e);
}

void zip_error_init_with_code(zip_error_t *e, int code) {
  if (loaded()) { lib.zip_error_init_with_code(e, code); return; }
  memset(e, 0, sizeof *e);
  e->zip_err = code;
}

const char *zip_error_strerror(zip_error_t *e) {
  return loaded() ? lib.zip_error_strerror(e) : "Internal error (libzip.so.4 could not be loaded)";
}

int zip_error_system_type(const zip_error_t *e) {
  return loaded() ? lib.zip_error_system_type(e) : ZIP_ET_NONE;
}

zip_t *zip_open(const char *p, int fl, int *err) {
  if (loaded()) return lib.zip_open(p, fl, err);
  if (err) *err = ZIP_ER_INTERNAL;
  return NULL;
}

zip_t *zip_open_from_source(zip_source_t *s, int fl, zip_error_t *e) {
  if (loaded()) return lib.zip_open_from_source(s, fl, e);
  if (e) zip_error_init_with_code(e, ZIP_ER_INTERNAL);
  return NULL;
}

zip_source_t *zip_source_filep_create(FILE *f, zip_uint64_t start, zip_int64_t len,
                                      zip_error_t *e) {
  if (loaded()) return lib.zip_source_filep_create(f, start, len, e);
  if (e) zip_error_init_with_code(e, ZIP_ER_INTERNAL);
  return NULL;
}
