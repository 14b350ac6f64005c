/*
** api.c -- the public C API (src/tsr.h): states, evaluation, errors, tensors crossing the
** boundary, host functions, interrupt and completion.  A tsr_State is an Interp.
*/
#include "../lang/interp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE(S) ((Interp *)(S))

const char *tsr_version(void) { return "0.1.0"; }

void tsr_config_init(tsr_Config *cfg) { memset(cfg, 0, sizeof *cfg); }

tsr_State *tsr_open(const tsr_Config *cfg) { return (tsr_State *)interp_new(cfg); }

void tsr_close(tsr_State *S) { interp_free(STATE(S)); }

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
  Buf *b = &I->errbuf;
  buf_free(b);
  buf_init(b, c);
  if (I->err_line > 0) {
    buf_printf(b, "  File \"%s\", line %d, column %d\n", I->errchunk, I->err_line, I->err_col);
    if (src) {
      const char *ls; size_t n;
      source_line(src, len, I->err_line, &ls, &n);
      size_t skip = 0;
      while (skip < n && (ls[skip] == ' ' || ls[skip] == '\t')) skip++;
      /* a very long line (a 10 MB literal) is shown as a window around the column */
      enum { WINDOW = 160 };
      bool cut_left = false, cut_right = false;
      size_t col0 = I->err_col > 1 ? (size_t)I->err_col - 1 : 0;   /* characters, ~bytes */
      if (n - skip > 2 * WINDOW) {
        size_t from = col0 > skip + WINDOW ? col0 - WINDOW : skip;
        while (from < n && ((unsigned char)ls[from] & 0xC0) == 0x80) from++;
        cut_left = from > skip;
        skip = from;
        if (n - skip > 2 * WINDOW) {
          size_t to = skip + 2 * WINDOW;
          while (to > skip && ((unsigned char)ls[to] & 0xC0) == 0x80) to--;
          n = to;
          cut_right = true;
        }
      }
      if (n > skip) {
        buf_puts(b, cut_left ? "    ..." : "    ");
        buf_putn(b, ls + skip, n - skip);
        buf_puts(b, cut_right ? "...\n" : "\n");
        int col = I->err_col - 1 - (int)skip + (cut_left ? 3 : 0);
        if (col < 0) col = 0;
        buf_puts(b, "    ");
        for (int i = 0; i < col; i++) buf_putc(b, ' ');
        buf_puts(b, "^\n");
      }
    }
  }
  buf_printf(b, "%s: %s", c->kind && *c->kind ? c->kind : "RuntimeError", c->msg);
  I->error.status = st;
  I->error.kind = c->kind && *c->kind ? c->kind : "RuntimeError";
  I->error.message = c->msg;
  I->error.chunk = I->errchunk;
  I->error.line = I->err_line;
  I->error.column = I->err_col;
  if (I->err_chunk) { chunkref_release(I, I->err_chunk); I->err_chunk = NULL; }
  return st;
}

static void reset_error(Interp *I) {
  interp_clear_error(I);
  memset(&I->error, 0, sizeof I->error);
  I->error.kind = ""; I->error.message = ""; I->error.chunk = "";
  buf_free(&I->errbuf);
  buf_init(&I->errbuf, &I->ctx);
  I->ctx.steps = 0;
  I->ctx.interrupted = 0;
}

static Tensor *value_as_result(Interp *I, Value v) {
  if (v.type == V_TENSOR) return tensor_retain(v.t);
  if (v.type == V_BOOL || v.type == V_INT || v.type == V_FLOAT) {
    Tensor *t = value_to_tensor_strong(I, v, -1);
    return t;
  }
  return NULL;
}

static tsr_Status run(Interp *I, const char *src, size_t len, const char *name, bool interactive,
                      tsr_Tensor **result) {
  if (result) *result = NULL;
  reset_error(I);
  ctx_stack_init(&I->ctx);
  if (!name) name = "<string>";
  Chunk *ch = NULL;
  int line = 0, col = 0;
  ParseResult pr = parse_chunk(&I->ctx, src, len, name, &ch, &line, &col);
  if (pr != PARSE_OK) {
    if (I->ctx.status == TSR_OK)
      ctx_err(&I->ctx, TSR_ERR_SYNTAX, "SyntaxError", "invalid syntax");
    I->err_line = line; I->err_col = col;
    return record_error(I, name, src, len);
  }
  ChunkRef *cr = chunkref_new(I, ch);
  if (!cr) { chunk_free(&I->ctx, ch); return record_error(I, name, src, len); }
  Value res = v_none();
  int rc = eval_chunk(I, cr, interactive, result ? &res : NULL);
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
  reset_error(I);
  Chunk *ch = NULL;
  int line, col;
  ParseResult pr = parse_chunk_ex(&I->ctx, src, strlen(src), "<stdin>", PARSE_INTERACTIVE, &ch,
                                  &line, &col);
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
  Tensor *t = tensor_wrap(&I->ctx, dtype, ndim, shape, strides, data, nbytes, flags, release, ud);
  if (!t) record_error(I, "<api>", NULL, 0);
  return t;
}

tsr_Tensor *tsr_tensor_new(tsr_State *S, tsr_DType dtype, int ndim, const int64_t *shape) {
  Interp *I = STATE(S);
  reset_error(I);
  Tensor *t = tensor_zeros(&I->ctx, dtype, ndim, shape);
  if (!t) record_error(I, "<api>", NULL, 0);
  return t;
}

tsr_Tensor *tsr_tensor_retain(tsr_Tensor *t) { return tensor_retain(t); }

void tsr_tensor_release(tsr_Tensor *t) { if (t) tensor_release(t); }

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
  Ctx *c = t->ctx;
  int64_t n = tensor_size(t);
  if ((uint64_t)n * dtype_size(as) > dst_bytes) return TSR_ERR_VALUE;
  int64_t strides[TSR_MAXDIMS];
  strides_c_order(t->ndim, t->shape, strides);
  Tensor *d = tensor_wrap(c, as, t->ndim, t->shape, NULL, dst, dst_bytes, 0, NULL, NULL);
  if (!d) return c->status;
  int rc = tensor_assign(c, d, (Tensor *)t);
  tensor_release(d);
  return rc < 0 ? c->status : TSR_OK;
}

tsr_Status tsr_set(tsr_State *S, const char *name, tsr_Tensor *t) {
  Interp *I = STATE(S);
  reset_error(I);
  if (!t) return TSR_ERR_VALUE;
  if (dict_set(I->globals, name, v_tensor(tensor_retain(t))) < 0)
    return record_error(I, "<api>", NULL, 0);
  return TSR_OK;
}

tsr_Tensor *tsr_get(tsr_State *S, const char *name) {
  Interp *I = STATE(S);
  Value *v = dict_get(I->globals, name);
  if (!v) return NULL;
  Tensor *t = value_as_result(I, *v);
  if (!t) ctx_clear(&I->ctx);
  return t;
}

/* ---------------------------------------------------------------------------------------- */

tsr_Status tsr_register(tsr_State *S, const char *name, tsr_CFunction fn, void *ud) {
  Interp *I = STATE(S);
  reset_error(I);
  CFunc *f = ctx_calloc(&I->ctx, sizeof(CFunc));
  if (!f) return record_error(I, "<api>", NULL, 0);
  f->h.refcnt = 1; f->h.ctx = &I->ctx; f->h.size = sizeof(CFunc); f->h.type = V_CFUNC;
  f->fn = fn; f->ud = ud;
  snprintf(f->name, sizeof f->name, "%s", name);
  Value v; v.type = V_CFUNC; v.o = &f->h;
  if (dict_set(I->globals, name, v) < 0) return record_error(I, "<api>", NULL, 0);
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
