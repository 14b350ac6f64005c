/*
** api.c -- the public C API (src/tsr.h): states, evaluation, errors, tensors crossing the
** boundary, host functions, interrupt and completion.  A tsr_State is an Interp.
*/
#include "../lang/interp.h"
#include "../lib/lib.h"

#include <dlpack/dlpack.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE(S) ((Interp *)(S))

const char *tsr_version(void) { return "0.1.0"; }

void tsr_config_init(tsr_Config *cfg) { memset(cfg, 0, sizeof *cfg); }

/* A private Ctx flag: the host called tsr_close while it still held tensors; the Interp
   memory (which holds the Ctx they allocate through) is freed with the last of them. */
#define API_CLOSED 0x80000000u
/* Bytes kept for the formatted error message, allocated with the state so that reporting an
   error (MemoryError above all) never needs memory. */
#define ERRBUF_CAP 4096

static Interp *ctx_interp(Ctx *c) { return (Interp *)((char *)c - offsetof(Interp, ctx)); }
static void fp_report(Ctx *c, FpMode how, const char *message);
static void show_warning(Ctx *c, const char *category, const char *message);
static void fp_registry_free(Interp *I);

/* Is an evaluation of I running (so this API call comes from a host function)? */
static bool running(const Interp *I) { return I->cur_chunk != NULL; }

tsr_State *tsr_open(const tsr_Config *cfg) {
  Interp *I = interp_new(cfg);
  if (!I) return NULL;
  I->module_defs = lib_modules;
  Buf *b = &I->errbuf;
  buf_free(b);
  b->p = ctx_malloc(&I->ctx, ERRBUF_CAP);
  if (!b->p) { interp_free(I); return NULL; }
  b->cap = ERRBUF_CAP;
  b->p[0] = 0;
  ctx_clear(&I->ctx);
  I->ctx.fperr.report = fp_report;
  I->ctx.fperr.warn = show_warning;
  I->ctx.mem_used += sizeof(Interp);   /* the state itself is in the account too */
  return (tsr_State *)I;
}

/* Frees the Interp of a closed state once nothing allocated from it is alive. */
static void maybe_finish_close(Ctx *c) {
  if ((c->flags & API_CLOSED) && c->mem_used == 0)
    c->alloc(c->alloc_ud, ctx_interp(c), sizeof(Interp), 0);
}

void tsr_close(tsr_State *S) {
  if (!S) return;
  Interp *I = STATE(S);
  fp_registry_free(I);
  interp_free_contents(I);
  I->ctx.mem_used -= sizeof(Interp);
  I->ctx.flags |= API_CLOSED;
  maybe_finish_close(&I->ctx);   /* else the host's last tsr_tensor_release does it */
}

/* The source line `line` (1-based) of src, without its newline (a NUL byte also ends it, so
   that the error text stays one C string). */
static void source_line(const char *src, size_t len, int line, const char **start, size_t *n) {
  const char *p = src, *end = src + len;
  for (int l = 1; l < line && p < end; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) { p = end; break; }
    p = nl + 1;
  }
  const char *e = p;
  while (e < end && *e != '\n' && *e != '\r' && *e != '\0') e++;
  *start = p; *n = (size_t)(e - p);
}

/* ------------------------------------------------------------------------------------------
** RuntimeWarnings of floating-point errors (numpy.seterr 'warn' and 'print'; fperr.c decides
** which).  Shown as Python's warnings module shows them under its default filter, on the
** stderr stream of the write callback:
**     FILE:LINE: RuntimeWarning: divide by zero encountered in divide
**       SOURCE LINE, STRIPPED
** once per (message, line), as the "default" action's registry (one per module: tsr has one
** module, __main__, so the file name is not in the key).  FILE:LINE is where the frame that
** called the ufunc is (its chunk and the line of the node it last evaluated); the source line
** is left out for chunks named like "<stdin>" or "<string>", as Python's linecache does.
** Other warnings (the DeprecationWarning of an == that cannot broadcast) are shown the same
** way under their own category (show_warning, the fperr.warn hook).
*/
typedef struct WarnKey { uint64_t hash; int line; } WarnKey;
typedef struct WarnRegistry { size_t n, cap; WarnKey *keys; } WarnRegistry;

static uint64_t warn_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
  return h;
}

static void fp_registry_free(Interp *I) {
  WarnRegistry *r = I->ctx.fperr.registry;
  if (!r) return;
  if (r->keys) ctx_free(&I->ctx, r->keys, r->cap * sizeof *r->keys);
  ctx_free(&I->ctx, r, sizeof *r);
  I->ctx.fperr.registry = NULL;
}

/* Has (message, line) been shown?  If not, records it (best effort: when memory runs out the
   warning is shown again later, and no error is left behind). */
static bool warn_seen(Interp *I, const char *message, int line) {
  Ctx *c = &I->ctx;
  uint64_t h = warn_hash(message);
  WarnRegistry *r = c->fperr.registry;
  if (r)
    for (size_t i = 0; i < r->n; i++)
      if (r->keys[i].hash == h && r->keys[i].line == line) return true;
  bool clean = c->status == TSR_OK;
  if (!r) {
    if (!(r = ctx_calloc(c, sizeof *r))) goto oom;
    c->fperr.registry = r;
  }
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 16;
    WarnKey *k = ctx_realloc(c, r->keys, r->cap * sizeof *k, cap * sizeof *k);
    if (!k) goto oom;
    r->keys = k;
    r->cap = cap;
  }
  r->keys[r->n].hash = h;
  r->keys[r->n].line = line;
  r->n++;
  return false;
oom:
  if (clean) ctx_clear(c);
  return false;
}

static bool py_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f' ||
         (ch >= 0x1c && ch <= 0x1f);
}

static void show_warning(Ctx *c, const char *category, const char *message) {
  Interp *I = ctx_interp(c);
  char head[1024];
  int k;
  const Chunk *ch = I->cur_chunk ? I->cur_chunk->chunk : NULL;
  int line = ch && I->frame ? I->frame->line : 1;
  const char *file = ch && ch->name ? ch->name : "sys";   /* Python's name with no frame */
  if (warn_seen(I, message, line)) return;
  k = snprintf(head, sizeof head, "%s:%d: %s: %s\n", file, line, category, message);
  if (k < 0) return;
  size_t n = (size_t)k < sizeof head ? (size_t)k : sizeof head - 1;
  size_t flen = strlen(file);
  bool source = ch && ch->source && !(flen >= 2 && file[0] == '<' && file[flen - 1] == '>');
  const char *ls = NULL;
  size_t len = 0;
  if (source) {
    /* line past the end of the source: Python's linecache finds nothing either */
    int lines = 1;
    for (size_t i = 0; i + 1 < ch->source_len; i++) lines += ch->source[i] == '\n';
    source = line >= 1 && line <= lines;
  }
  if (source) {
    source_line(ch->source, ch->source_len, line, &ls, &len);
    while (len && py_space(*ls)) { ls++; len--; }
    while (len && py_space(ls[len - 1])) len--;
  }
  if (source && n + len + 3 <= sizeof head) {
    memcpy(head + n, "  ", 2);
    memcpy(head + n + 2, ls, len);
    head[n + 2 + len] = '\n';
    interp_write(I, 2, head, n + len + 3);
  } else {
    interp_write(I, 2, head, n);
    if (source) {
      interp_write(I, 2, "  ", 2);
      interp_write(I, 2, ls, len);
      interp_write(I, 2, "\n", 1);
    }
  }
}

static void fp_report(Ctx *c, FpMode how, const char *message) {
  if (how == FPMODE_PRINT) {   /* NumPy's 'print' mode writes to stderr */
    char head[1024];
    int k = snprintf(head, sizeof head, "Warning: %s\n", message);
    if (k > 0)
      interp_write(ctx_interp(c), 2, head, (size_t)k < sizeof head ? (size_t)k : sizeof head - 1);
    return;
  }
  show_warning(c, "RuntimeWarning", message);
}

/* Fills S->error and S->errbuf from the pending error; src/len are the source of the chunk
   in which the error happened (NULL if unknown). */
static tsr_Status record_error(Interp *I, const char *chunk_name, const char *src, size_t len) {
  Ctx *c = &I->ctx;
  tsr_Status st = c->status == TSR_OK ? TSR_ERR_RUNTIME : c->status;
  if (I->err_chunk) {
    src = I->err_chunk->chunk->source;
    len = I->err_chunk->chunk->source_len;
    chunk_name = I->err_chunk->chunk->name;
  }
  snprintf(I->errchunk, sizeof I->errchunk, "%s", chunk_name ? chunk_name : "<string>");
  /* formatted into the preallocated buffer, truncated if need be: never allocates */
  Buf *b = &I->errbuf;
  char *p = b->p;
  size_t cap = b->cap, n = 0;
#define EMIT(...)                                                                           \
  do {                                                                                      \
    if (p && n < cap) {                                                                     \
      int k_ = snprintf(p + n, cap - n, __VA_ARGS__);                                       \
      if (k_ > 0) n += (size_t)k_ < cap - n ? (size_t)k_ : cap - n - 1;                     \
    }                                                                                       \
  } while (0)
  if (I->err_line > 0) {
    EMIT("  File \"%s\", line %d, column %d\n", I->errchunk, I->err_line, I->err_col);
    if (src) {
      const char *ls; size_t len_line;
      source_line(src, len, I->err_line, &ls, &len_line);
      size_t skip = 0;
      while (skip < len_line && (ls[skip] == ' ' || ls[skip] == '\t')) skip++;
      /* a very long line (a 10 MB literal) is shown as a window around the column */
      enum { WINDOW = 160 };
      bool cut_left = false, cut_right = false;
      size_t col0 = I->err_col > 1 ? (size_t)I->err_col - 1 : 0;   /* characters, ~bytes */
      if (col0 > len_line) col0 = len_line;   /* the line may end early, at a NUL byte */
      if (len_line - skip > 2 * WINDOW) {
        size_t from = col0 > skip + WINDOW ? col0 - WINDOW : skip;
        while (from < len_line && ((unsigned char)ls[from] & 0xC0) == 0x80) from++;
        cut_left = from > skip;
        skip = from;
        if (len_line - skip > 2 * WINDOW) {
          size_t to = skip + 2 * WINDOW;
          while (to > skip && ((unsigned char)ls[to] & 0xC0) == 0x80) to--;
          len_line = to;
          cut_right = true;
        }
      }
      if (len_line > skip) {
        int shown = (int)(len_line - skip);
        EMIT("    %s%.*s%s\n", cut_left ? "..." : "", shown, ls + skip, cut_right ? "..." : "");
        int col = I->err_col - 1 - (int)skip + (cut_left ? 3 : 0);
        shown += cut_left ? 3 : 0;
        if (col < 0) col = 0;
        if (col > shown) col = shown;
        EMIT("    %*s^\n", col, "");
      }
    }
  }
  EMIT("%s: %s", c->kind && *c->kind ? c->kind : "RuntimeError", c->msg);
#undef EMIT
  if (p) b->n = n;
  I->error.status = st;
  I->error.kind = c->kind && *c->kind ? c->kind : "RuntimeError";
  I->error.message = c->msg;
  I->error.chunk = I->errchunk;
  I->error.line = I->err_line;
  I->error.column = I->err_col;
  if (I->err_chunk) { chunkref_release(I, I->err_chunk); I->err_chunk = NULL; }
  return st;
}

/* Starts an API call: forgets the last error and, for a new evaluation, resets the step count
   and any stale interrupt.  An API call made by a host function while an evaluation runs
   changes nothing (its errors stay pending in the Ctx and end that evaluation). */
static void reset_error(Interp *I) {
  if (running(I)) return;
  interp_clear_error(I);
  memset(&I->error, 0, sizeof I->error);
  I->error.kind = ""; I->error.message = ""; I->error.chunk = "";
  I->errbuf.n = 0;
  if (I->errbuf.p) I->errbuf.p[0] = 0;
  I->ctx.steps = I->ctx.work = 0;
  I->ctx.interrupted = 0;
}

/* Records the pending error of an API call; inside a running evaluation it stays pending. */
static tsr_Status api_error(Interp *I) {
  if (running(I)) return I->ctx.status == TSR_OK ? TSR_ERR_RUNTIME : I->ctx.status;
  return record_error(I, "<api>", NULL, 0);
}

static Tensor *value_as_result(Interp *I, Value v) {
  if (v.type == V_TENSOR) return tensor_retain(v.t);
  if (v.type == V_BOOL || v.type == V_INT || v.type == V_FLOAT) {
    Tensor *t = value_to_tensor_strong(I, v, -1);
    return t;
  }
  return NULL;
}

/* Headroom over max_memory granted while parsing: the parser's engine (a fixed stack, freed
   when the parse ends) must not make a state whose data fills the cap unable to run even
   `x = None`.  The AST it builds stays accounted as usual. */
#define PARSE_ALLOWANCE ((size_t)512 << 10)

static ParseResult parse_allowed(Interp *I, const char *src, size_t len, const char *name,
                                 unsigned flags, Chunk **ch, int *line, int *col) {
  size_t cap = I->ctx.mem_max;
  if (cap) I->ctx.mem_max = cap + PARSE_ALLOWANCE;
  ParseResult pr = parse_chunk_ex(&I->ctx, src, len, name, flags, ch, line, col);
  I->ctx.mem_max = cap;
  return pr;
}

static tsr_Status run_chunk(Interp *I, const char *src, size_t len, const char *name,
                            bool interactive, tsr_Tensor **result);

/* Runs src; afterwards the buffer cache is emptied, so that between API calls tsr holds only
   the memory its values need (tsr_memory_used equals what the host allocator has handed out;
   the cache speeds up loops inside one evaluation). */
static tsr_Status run(Interp *I, const char *src, size_t len, const char *name, bool interactive,
                      tsr_Tensor **result) {
  tsr_Status st = run_chunk(I, src, len, name, interactive, result);
  if (!running(I)) ctx_cache_flush(&I->ctx);
  return st;
}

static tsr_Status run_chunk(Interp *I, const char *src, size_t len, const char *name,
                            bool interactive, tsr_Tensor **result) {
  if (result) *result = NULL;
  if (running(I))
    return ctx_err(&I->ctx, TSR_ERR_RUNTIME, "RuntimeError",
                   "tsr_eval cannot be called while the state is evaluating"), TSR_ERR_RUNTIME;
  reset_error(I);
  ctx_stack_init(&I->ctx);
  if (!name) name = "<string>";
  Chunk *ch = NULL;
  int line = 0, col = 0;
  ParseResult pr = parse_allowed(I, src, len, name, 0, &ch, &line, &col);
  if (pr != PARSE_OK) {
    if (I->ctx.status == TSR_OK)
      ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "invalid syntax");
    I->err_line = line; I->err_col = col;
    return record_error(I, name, src, len);
  }
  interp_choose_namespace(I, ch);
  ChunkRef *cr = chunkref_new(I, ch);
  if (!cr) { chunk_free(&I->ctx, ch); return record_error(I, name, src, len); }
  Value res = v_none();
  int rc = eval_chunk(I, cr, interactive, result ? &res : NULL);
  /* an interrupt that arrived after the last poll (during a statement that polls nowhere,
     such as a short `s = str(x)`) is reported, not dropped */
  if (rc >= 0 && ctx_poll(&I->ctx, 0) < 0) rc = -1;
  chunkref_release(I, cr);
  if (rc < 0) { value_decref(res); return record_error(I, name, src, len); }
  if (result) {
    *result = value_as_result(I, res);
    value_decref(res);
    if (I->ctx.status != TSR_OK) return record_error(I, name, src, len);
  }
  return TSR_OK;
}

tsr_Status tsr_eval(tsr_State *S, const char *src, const char *chunk_name, tsr_Tensor **result) {
  return run(STATE(S), src, strlen(src), chunk_name, false, result);
}

tsr_Status tsr_eval_interactive(tsr_State *S, const char *src, const char *chunk_name) {
  return run(STATE(S), src, strlen(src), chunk_name ? chunk_name : "<stdin>", true, NULL);
}

tsr_Status tsr_eval_file(tsr_State *S, const char *path) {
  Interp *I = STATE(S);
  if (running(I)) return run(I, "", 0, path, false, NULL);
  reset_error(I);
  if (I->ctx.flags & TSR_SANDBOX) {
    ctx_err(&I->ctx, TSR_ERR_SANDBOX, "PermissionError", "file access is disabled in this sandbox");
    return record_error(I, path, NULL, 0);
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    ctx_err(&I->ctx, TSR_ERR_IO, "FileNotFoundError (OSError)",
            "[Errno 2] No such file or directory: '%s'", path);
    return record_error(I, path, NULL, 0);
  }
  Buf b; buf_init(&b, &I->ctx);
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) buf_putn(&b, tmp, n);
  int err = ferror(f);
  fclose(f);
  if (err || b.failed) {
    buf_free(&b);
    if (I->ctx.status == TSR_OK) ctx_err(&I->ctx, TSR_ERR_IO, "OSError", "cannot read '%s'", path);
    return record_error(I, path, NULL, 0);
  }
  tsr_Status st = run(I, b.p ? b.p : "", b.n, path, false, NULL);
  buf_free(&b);
  return st;
}

tsr_Status tsr_check(tsr_State *S, const char *src) {
  Interp *I = STATE(S);
  if (running(I)) return run(I, "", 0, NULL, false, NULL);
  reset_error(I);
  Chunk *ch = NULL;
  int line, col;
  ParseResult pr = parse_allowed(I, src, strlen(src), "<stdin>", PARSE_INTERACTIVE, &ch, &line,
                                 &col);
  if (pr == PARSE_OK) { chunk_free(&I->ctx, ch); return TSR_OK; }
  if (pr == PARSE_INCOMPLETE) { ctx_clear(&I->ctx); return TSR_INCOMPLETE; }
  I->err_line = line; I->err_col = col;
  return record_error(I, "<stdin>", src, strlen(src));
}

const tsr_Error *tsr_last_error(const tsr_State *S) { return &((const Interp *)S)->error; }

const char *tsr_error_message(const tsr_State *S) {
  Interp *I = (Interp *)S;
  return I->error.status == TSR_OK ? "" : buf_str(&I->errbuf);
}

/* ---------------------------------------------------------------------------------------- */

tsr_Tensor *tsr_tensor_wrap(tsr_State *S, tsr_DType dtype, int ndim, const int64_t *shape,
                            const int64_t *strides, void *data, size_t nbytes, unsigned flags,
                            void (*release)(void *ud, void *data), void *ud) {
  Interp *I = STATE(S);
  reset_error(I);
  Tensor *t = NULL;
  if ((unsigned)dtype >= DTYPE_COUNT) ERR_VALUE(&I->ctx, "unknown dtype %d", (int)dtype);
  else t = tensor_wrap(&I->ctx, dtype, ndim, shape, strides, data, nbytes, flags, release, ud);
  if (!t) api_error(I);
  return t;
}

tsr_Tensor *tsr_tensor_new(tsr_State *S, tsr_DType dtype, int ndim, const int64_t *shape) {
  Interp *I = STATE(S);
  reset_error(I);
  Tensor *t = NULL;
  if ((unsigned)dtype >= DTYPE_COUNT) ERR_VALUE(&I->ctx, "unknown dtype %d", (int)dtype);
  else if (ndim > 0 && !shape) ERR_VALUE(&I->ctx, "shape is NULL");
  else t = tensor_zeros(&I->ctx, dtype, ndim, shape);
  if (!t) api_error(I);
  return t;
}

tsr_Tensor *tsr_tensor_retain(tsr_Tensor *t) { return tensor_retain(t); }

void tsr_tensor_release(tsr_Tensor *t) {
  if (!t) return;
  Ctx *c = t->ctx;
  tensor_release(t);
  maybe_finish_close(c);
}

tsr_Status tsr_tensor_info(const tsr_Tensor *t, tsr_TensorInfo *out) {
  if (!t || !out) return TSR_ERR_VALUE;
  tsr_Tensor *m = (tsr_Tensor *)t;   /* byte_strides is a cache for the host */
  for (int i = 0; i < t->ndim; i++)
    m->byte_strides[i] = t->strides[i] * (int64_t)dtype_size(t->dtype);
  out->dtype = t->dtype;
  out->ndim = t->ndim;
  out->shape = t->shape;
  out->strides = m->byte_strides;
  out->data = tensor_data(t);
  out->itemsize = dtype_size(t->dtype);
  return TSR_OK;
}

tsr_Status tsr_tensor_copy_to(const tsr_Tensor *t, tsr_DType as, void *dst, size_t dst_bytes) {
  if (!t || (unsigned)as >= DTYPE_COUNT) return TSR_ERR_VALUE;
  Ctx *c = t->ctx;
  int64_t n = tensor_size(t);
  if ((uint64_t)n * dtype_size(as) > dst_bytes) return TSR_ERR_VALUE;
  if (n == 0) return TSR_OK;
  /* A plain copy: no step budget, no interrupt, and no error left behind in the state. */
  tsr_Status saved_status = c->status;
  const char *saved_kind = c->kind;
  uint64_t saved_steps = c->steps, saved_max = c->max_steps;
  int saved_intr = c->interrupted;
  char saved_msg[sizeof c->msg];
  memcpy(saved_msg, c->msg, sizeof saved_msg);
  c->status = TSR_OK;
  c->max_steps = 0;
  c->interrupted = 0;
  tsr_Status st = TSR_OK;
  Tensor *d = tensor_wrap(c, as, t->ndim, t->shape, NULL, dst, dst_bytes, 0, NULL, NULL);
  if (!d || tensor_assign(c, d, (Tensor *)t) < 0) st = c->status ? c->status : TSR_ERR_RUNTIME;
  if (d) tensor_release(d);
  c->status = saved_status;
  c->kind = saved_kind;
  memcpy(c->msg, saved_msg, sizeof saved_msg);
  c->steps = saved_steps;
  c->max_steps = saved_max;
  if (saved_intr) c->interrupted = 1;
  return st;
}

/* Refuses a tensor of another state (records ValueError). */
static int check_owner(Interp *I, const Tensor *t) {
  if (!t) return ERR_VALUE(&I->ctx, "tensor is NULL");
  if (t->ctx != &I->ctx) return ERR_VALUE(&I->ctx, "the tensor belongs to another tsr_State");
  return 0;
}

tsr_Status tsr_set(tsr_State *S, const char *name, tsr_Tensor *t) {
  Interp *I = STATE(S);
  reset_error(I);
  if (!name) ERR_VALUE(&I->ctx, "name is NULL");
  if (!name || check_owner(I, t) < 0) return api_error(I);
  if (dict_set(I->globals, name, v_tensor(tensor_retain(t))) < 0) return api_error(I);
  return TSR_OK;
}

tsr_Tensor *tsr_get(tsr_State *S, const char *name) {
  Interp *I = STATE(S);
  if (!name) return NULL;
  Value *v = dict_get(I->globals, name);
  if (!v) return NULL;
  Tensor *t = value_as_result(I, *v);
  if (!t && !running(I)) ctx_clear(&I->ctx);
  return t;
}

/* ---------------------------------------------------------------------------------------- */
/* DLPack 0.6 */

/* tsr dtype of a DLPack dtype; -1 if tsr has no such type. */
static int dtype_from_dl(DLDataType d) {
  static const tsr_DType ints[4] = {TSR_INT8, TSR_INT16, TSR_INT32, TSR_INT64};
  static const tsr_DType uints[4] = {TSR_UINT8, TSR_UINT16, TSR_UINT32, TSR_UINT64};
  int k = d.bits == 8 ? 0 : d.bits == 16 ? 1 : d.bits == 32 ? 2 : d.bits == 64 ? 3 : -1;
  if (k < 0) return -1;
  if (d.code == kDLInt) return (int)ints[k];
  if (d.code == kDLUInt) return (int)uints[k];
  if (d.code == kDLFloat && k >= 2) return k == 2 ? TSR_FLOAT32 : TSR_FLOAT64;
  return -1;
}

static DLDataType dtype_to_dl(tsr_DType dt) {
  DLDataType d;
  d.code = dtype_is_float(dt) ? kDLFloat : dtype_info[dt].kind == 'i' ? kDLInt : kDLUInt;
  d.bits = (uint8_t)(8 * dtype_size(dt));
  d.lanes = 1;
  return d;
}

static void dl_release(void *ud, void *data) {
  (void)data;
  DLManagedTensor *m = ud;
  if (m->deleter) m->deleter(m);
}

tsr_Status tsr_from_dlpack(tsr_State *S, struct DLManagedTensor *m, tsr_Tensor **out) {
  Interp *I = STATE(S);
  Ctx *c = &I->ctx;
  reset_error(I);
  if (out) *out = NULL;
  if (!m || !out) { ERR_VALUE(c, "tsr_from_dlpack: NULL argument"); return api_error(I); }
  const DLTensor *dl = &m->dl_tensor;
  int dt = dtype_from_dl(dl->dtype);
  int64_t byte_strides[TSR_MAXDIMS];
  if (dl->ndim < 0 || dl->ndim > TSR_MAXDIMS)
    ctx_err(c, TSR_ERR_RUNTIME, "RuntimeError",
            "maxdims of DLPack tensor is higher than the supported maxdims.");
  else if (dl->device.device_type != kDLCPU)
    ctx_err(c, TSR_ERR_RUNTIME, "RuntimeError", "Unsupported device in DLTensor.");
  else if (dl->dtype.lanes != 1)
    ctx_err(c, TSR_ERR_RUNTIME, "RuntimeError", "Unsupported lanes in DLTensor dtype.");
  else if (dt < 0)
    ctx_err(c, TSR_ERR_RUNTIME, "RuntimeError", "Unsupported dtype in DLTensor.");
  else if (dl->ndim > 0 && !dl->shape)
    ERR_VALUE(c, "DLTensor shape is NULL");
  if (c->status != TSR_OK) return api_error(I);
  int ndim = dl->ndim;
  int64_t isz = (int64_t)dtype_size((tsr_DType)dt), size = 1, lo = 0, hi = 0;
  bool empty = false;
  for (int i = 0; i < ndim; i++) {
    if (dl->shape[i] < 0) {
      ERR_VALUE(c, "negative dimensions are not allowed");
      return api_error(I);
    }
    if (dl->shape[i] == 0) empty = true;
    else if (__builtin_mul_overflow(size, dl->shape[i], &size)) size = INT64_MAX;
  }
  for (int i = 0; i < ndim; i++) {
    int64_t es;   /* element stride */
    if (dl->strides) es = dl->strides[i];
    else { es = 1; for (int j = i + 1; j < ndim; j++) es *= dl->shape[j] ? dl->shape[j] : 1; }
    int64_t ext;
    if (__builtin_mul_overflow(es, isz, &byte_strides[i]) ||
        (!empty && (__builtin_mul_overflow(dl->shape[i] - 1, byte_strides[i], &ext) ||
                    (ext < 0 ? __builtin_add_overflow(lo, ext, &lo)
                             : __builtin_add_overflow(hi, ext, &hi))))) {
      ERR_VALUE(c, "DLTensor strides overflow");
      return api_error(I);
    }
  }
  char *data = (char *)dl->data + dl->byte_offset;
  size_t nbytes = empty ? 0 : (size_t)(hi - lo) + (size_t)isz;
  /* tensor_wrap measures the span from the lowest element: data is element [0, ..., 0] */
  Tensor *t = tensor_wrap(c, (tsr_DType)dt, ndim, dl->shape, byte_strides, empty ? NULL : data,
                          nbytes, 0, dl_release, m);
  if (!t) return api_error(I);
  *out = t;
  return TSR_OK;
}

typedef struct DLExport {
  DLManagedTensor m;
  int64_t shape[TSR_MAXDIMS], strides[TSR_MAXDIMS];
} DLExport;

static void dl_export_deleter(DLManagedTensor *m) {
  DLExport *e = (DLExport *)m;   /* m is the first member */
  Tensor *t = m->manager_ctx;
  ctx_free(t->ctx, e, sizeof *e);
  tsr_tensor_release(t);
}

tsr_Status tsr_to_dlpack(tsr_Tensor *t, struct DLManagedTensor **out) {
  if (!t || !out) return TSR_ERR_VALUE;
  *out = NULL;
  Interp *I = ctx_interp(t->ctx);
  Ctx *c = t->ctx;
  reset_error(I);
  if (t->storage->readonly) {
    ctx_err(c, TSR_ERR_VALUE, "BufferError",
            "Cannot export readonly array since signalling readonly is unsupported by DLPack.");
    return api_error(I);
  }
  DLExport *e = ctx_calloc(c, sizeof *e);
  if (!e) return api_error(I);
  for (int i = 0; i < t->ndim; i++) { e->shape[i] = t->shape[i]; e->strides[i] = t->strides[i]; }
  e->m.dl_tensor.data = tensor_data(t);
  e->m.dl_tensor.device.device_type = kDLCPU;
  e->m.dl_tensor.device.device_id = 0;
  e->m.dl_tensor.ndim = t->ndim;
  e->m.dl_tensor.dtype = dtype_to_dl(t->dtype);
  e->m.dl_tensor.shape = e->shape;
  e->m.dl_tensor.strides = e->strides;
  e->m.dl_tensor.byte_offset = 0;
  e->m.manager_ctx = tensor_retain(t);
  e->m.deleter = dl_export_deleter;
  *out = &e->m;
  return TSR_OK;
}

/* ---------------------------------------------------------------------------------------- */

tsr_Status tsr_set_argv(tsr_State *S, int argc, const char *const *argv) {
  Interp *I = STATE(S);
  reset_error(I);
  if (argc < 0 || (argc > 0 && !argv)) {
    ERR_VALUE(&I->ctx, "tsr_set_argv: negative argc or NULL argv");
    return api_error(I);
  }
  for (int i = 0; i < argc; i++)
    if (!argv[i]) {
      ERR_VALUE(&I->ctx, "tsr_set_argv: argv[%d] is NULL", i);
      return api_error(I);
    }
  char **copy = argc ? ctx_calloc(&I->ctx, (size_t)argc * sizeof(char *)) : NULL;
  if (argc && !copy) return api_error(I);
  for (int i = 0; i < argc; i++) {
    size_t n = strlen(argv[i]) + 1;
    if (!(copy[i] = ctx_malloc(&I->ctx, n))) {
      interp_free_argv(&I->ctx, copy, argc);
      return api_error(I);
    }
    memcpy(copy[i], argv[i], n);
  }
  interp_free_argv(&I->ctx, I->argv, I->argc);
  I->argv = copy;
  I->argc = argc;
  return TSR_OK;
}

tsr_Status tsr_register(tsr_State *S, const char *name, tsr_CFunction fn, void *ud) {
  Interp *I = STATE(S);
  reset_error(I);
  if (!name || !fn) {
    ERR_VALUE(&I->ctx, "tsr_register: NULL name or function");
    return api_error(I);
  }
  CFunc *f = ctx_calloc(&I->ctx, sizeof(CFunc));
  if (!f) return api_error(I);
  f->h.refcnt = 1; f->h.ctx = &I->ctx; f->h.size = sizeof(CFunc); f->h.type = V_CFUNC;
  f->fn = fn; f->ud = ud;
  snprintf(f->name, sizeof f->name, "%s", name);
  Value v; v.type = V_CFUNC; v.o = &f->h;
  if (dict_set(I->globals, name, v) < 0) return api_error(I);
  return TSR_OK;
}

tsr_State *tsr_call_state(const tsr_Call *call) { return (tsr_State *)call->I; }

int tsr_arg_count(const tsr_Call *call) { return call->args->npos; }

tsr_Tensor *tsr_arg(const tsr_Call *call, int i) {
  if (i < 0 || i >= call->args->npos || i >= MAX_ARGS) return NULL;
  tsr_Call *c = (tsr_Call *)call;
  if (c->argt[i]) return c->argt[i];
  Value v = call->args->pos[i];
  if (!value_is_number(v) && v.type != V_LIST && v.type != V_TUPLE) return NULL;
  c->argt[i] = value_to_tensor_strong(call->I, v, -1);
  if (!c->argt[i]) ctx_clear(&call->I->ctx);
  return c->argt[i];
}

tsr_Status tsr_return(tsr_Call *call, tsr_Tensor *result) {
  if (result && result->ctx != &call->I->ctx) {
    tsr_tensor_release(result);
    return ERR_VALUE(&call->I->ctx, "the tensor belongs to another tsr_State"), TSR_ERR_VALUE;
  }
  value_decref(call->result);
  call->result = result ? v_tensor(result) : v_none();
  return TSR_OK;
}

tsr_Status tsr_raise(tsr_Call *call, tsr_Status kind, const char *fmt, ...) {
  static const char *const names[] = {
    "Error", "Error", "SyntaxError", "NameError", "TypeError", "ValueError", "IndexError",
    "MemoryError", "KeyboardInterrupt", "LimitError", "OSError", "PermissionError", "RuntimeError"};
  va_list ap;
  va_start(ap, fmt);
  ctx_verr(&call->I->ctx, kind, (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
                                                                                  : "RuntimeError",
           fmt, ap);
  va_end(ap);
  return kind;
}

size_t tsr_memory_used(const tsr_State *S, size_t *peak) {
  const Ctx *c = &((const Interp *)S)->ctx;
  if (peak) *peak = c->mem_peak > c->mem_used ? c->mem_peak : c->mem_used;
  return c->mem_used;
}

void tsr_interrupt(tsr_State *S) { STATE(S)->ctx.interrupted = 1; }

/* ---------------------------------------------------------------------------------------- */

static void emit_matches(Dict *d, const char *prefix, size_t n, const char *lead,
                         void (*emit)(void *, const char *), void *ud) {
  char tmp[1024];
  for (size_t i = 0; i < d->cap; i++) {
    const char *k = d->slots[i].key;
    if (k && strncmp(k, prefix, n) == 0 && k[0] != '_') {
      snprintf(tmp, sizeof tmp, "%s%s", lead, k);
      emit(ud, tmp);
    }
  }
}

tsr_Status tsr_complete(tsr_State *S, const char *line, size_t cursor,
                        void (*emit)(void *ud, const char *candidate), void *ud) {
  Interp *I = STATE(S);
  size_t len = strlen(line);
  if (cursor > len) cursor = len;
  size_t start = cursor;
  while (start > 0) {
    char ch = line[start - 1];
    if (ch == '_' || ch == '.' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
        (ch >= 'A' && ch <= 'Z'))
      start--;
    else break;
  }
  char word[256];
  size_t wn = cursor - start;
  if (wn >= sizeof word) return TSR_OK;
  memcpy(word, line + start, wn);
  word[wn] = 0;
  char *dot = strrchr(word, '.');
  if (!dot) {
    emit_matches(I->globals, word, wn, "", emit, ud);
    emit_matches(I->builtins, word, wn, "", emit, ud);
    return TSR_OK;
  }
  *dot = 0;
  const char *attr = dot + 1;
  char lead[300];
  snprintf(lead, sizeof lead, "%s.", word);
  /* resolve a dotted name of namespaces, e.g. np.linalg */
  Value cur = v_undef();
  char *save = NULL, *part = strtok_r(word, ".", &save);
  Value *v = part ? dict_get(I->globals, part) : NULL;
  if (!v && part) v = dict_get(I->builtins, part);
  if (v) cur = *v;
  while (v && (part = strtok_r(NULL, ".", &save))) {
    v = cur.type == V_NAMESPACE ? dict_get(((Namespace *)cur.o)->members, part) : NULL;
    if (v) cur = *v;
  }
  if (!v) return TSR_OK;
  if (cur.type == V_NAMESPACE) {
    emit_matches(((Namespace *)cur.o)->members, attr, strlen(attr), lead, emit, ud);
  } else if (cur.type == V_TENSOR) {
    static const char *const attrs[] = {"shape", "ndim", "size", "dtype", "T", "itemsize",
                                        "nbytes", "strides", NULL};
    char tmp[1024];
    for (int i = 0; attrs[i]; i++)
      if (strncmp(attrs[i], attr, strlen(attr)) == 0) {
        snprintf(tmp, sizeof tmp, "%s%s", lead, attrs[i]);
        emit(ud, tmp);
      }
    emit_matches(I->methods, attr, strlen(attr), lead, emit, ud);
  }
  return TSR_OK;
}
