/*
** interp.c -- creating and freeing an interpreter: the builtin namespace (builtin tables,
** dtypes, constants, namespaces such as linalg), the numpy module object and the stdlib
** functions written in tsr (the stdlib folder's .tsr files, compiled in at build time).
*/
#include "interp.h"
#include "vm.h"
#include "../runtime/einsum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; const char *source; } StdlibFile;
RT_HIDDEN extern const StdlibFile stdlib_files[];

static Value new_namespace(Interp *I, const char *name, Dict *members) {
  Namespace *ns = ctx_calloc(&I->ctx, sizeof(Namespace));
  if (!ns) return v_undef();
  ns->h.refcnt = 1; ns->h.ctx = &I->ctx; ns->h.size = sizeof(Namespace); ns->h.type = V_NAMESPACE;
  ns->name = name; ns->members = members;
  Value v; v.type = V_NAMESPACE; v.o = &ns->h;
  return v;
}

static Dict *namespace_dict(Interp *I, const char *ns) {
  Value *v = dict_get(I->builtins, ns);
  if (v && v->type == V_NAMESPACE) return ((Namespace *)v->o)->members;
  Dict *d = dict_new(&I->ctx);
  if (!d) return NULL;
  Value nv = new_namespace(I, ns, d);
  if (nv.type == V_UNDEF) { dict_free(d); return NULL; }
  if (dict_set(I->builtins, ns, nv) < 0) return NULL;
  return d;
}

static int register_builtins(Interp *I) {
  for (int t = 0; builtin_tables[t]; t++) {
    for (const Builtin *b = builtin_tables[t]; b->name; b++) {
      if ((I->ctx.flags & TSR_SANDBOX) && !sandbox_allows(b)) continue;
      Value v; v.type = V_BUILTIN; v.bi = b;
      Dict *d;
      if (!b->ns) d = I->builtins;
      else if (strcmp(b->ns, "ndarray") == 0) d = I->methods;
      else d = namespace_dict(I, b->ns);
      if (!d || dict_set(d, b->name, v) < 0) return -1;
    }
  }
  return 0;
}

static int register_constants(Interp *I) {
  static const struct { const char *name; DType dt; } dtypes[] = {
    {"bool_", TSR_BOOL}, {"int8", TSR_INT8}, {"int16", TSR_INT16}, {"int32", TSR_INT32},
    {"int64", TSR_INT64}, {"uint8", TSR_UINT8}, {"uint16", TSR_UINT16}, {"uint32", TSR_UINT32},
    {"uint64", TSR_UINT64}, {"float32", TSR_FLOAT32}, {"float64", TSR_FLOAT64},
    {"intp", TSR_INT64}, {"uintp", TSR_UINT64}, {"single", TSR_FLOAT32}, {"double", TSR_FLOAT64},
    {"int_", TSR_INT64}, {"float_", TSR_FLOAT64}, {"ubyte", TSR_UINT8}, {"byte", TSR_INT8},
  };
  for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
    if (dict_set(I->builtins, dtypes[i].name, v_dtype(dtypes[i].dt)) < 0) return -1;
  static const struct { const char *name; double v; } consts[] = {
    {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"inf", INFINITY}, {"Inf", INFINITY},
    {"nan", NAN}, {"NaN", NAN}, {"euler_gamma", 0.5772156649015329},
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (dict_set(I->builtins, consts[i].name, v_float(consts[i].v)) < 0) return -1;
  if (dict_set(I->builtins, "newaxis", v_none()) < 0) return -1;
  return 0;
}

/* Runs the stdlib files with the builtins dict as their globals, so the functions they define
   become builtins. */
static int load_stdlib(Interp *I) {
  Dict *saved = I->globals;
  I->globals = I->builtins;
  int rc = 0;
  for (const StdlibFile *f = stdlib_files; f->name && rc == 0; f++) {
    Chunk *ch;
    int line, col;
    if (parse_chunk(&I->ctx, f->source, strlen(f->source), f->name, &ch, &line, &col) != PARSE_OK) {
      rc = -1;
      break;
    }
    ChunkRef *cr = chunkref_new(I, ch);
    if (!cr) { chunk_free(&I->ctx, ch); rc = -1; break; }
    rc = eval_chunk(I, cr, false, NULL);
    chunkref_release(I, cr);
  }
  I->globals = saved;
  return rc;
}

static void *libc_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  (void)ud; (void)old_size;
  if (new_size == 0) { free(ptr); return NULL; }
  return realloc(ptr, new_size);
}

Interp *interp_new(const tsr_Config *cfg) {
  tsr_Config def;
  if (!cfg) { tsr_config_init(&def); cfg = &def; }
  void *(*alloc)(void *, void *, size_t, size_t) = cfg->alloc ? cfg->alloc : libc_alloc;
  Interp *I = alloc(cfg->alloc_ud, NULL, 0, sizeof(Interp));
  if (!I) return NULL;
  memset(I, 0, sizeof *I);
  ctx_init(&I->ctx, alloc, cfg->alloc_ud);
  I->cfg = *cfg;
  I->cfg.alloc = alloc;
  I->ctx.mem_max = cfg->max_memory;
  I->ctx.max_steps = cfg->max_steps;
  I->ctx.flags = cfg->flags;
  ctx_stack_init(&I->ctx);
  ctx_open_speedups(&I->ctx, 0);   /* buffer cache and thread pool (TSR_NUM_THREADS) */
  I->retval = v_none();
  I->numpy = v_none();
  buf_init(&I->errbuf, &I->ctx);
  I->error.kind = "";
  I->error.message = "";
  I->error.chunk = "";
  if (!(I->globals = dict_new(&I->ctx)) || !(I->builtins = dict_new(&I->ctx)) ||
      !(I->methods = dict_new(&I->ctx)))
    goto fail;
  if (register_builtins(I) < 0 || register_constants(I) < 0) goto fail;
  I->numpy = new_namespace(I, "numpy", I->builtins);
  if (I->numpy.type == V_UNDEF) { I->numpy = v_none(); goto fail; }
  if (load_stdlib(I) < 0) goto fail;
  if (dict_set(I->globals, "__name__", value_str(I, "__main__", 8)) < 0) goto fail;
  ctx_clear(&I->ctx);
  return I;
fail:
  interp_free(I);
  return NULL;
}

void interp_clear_error(Interp *I) {
  ctx_clear(&I->ctx);
  I->err_line = I->err_col = 0;
  if (I->err_chunk) { chunkref_release(I, I->err_chunk); I->err_chunk = NULL; }
}

void interp_free(Interp *I) {
  if (!I) return;
  interp_free_contents(I);
  I->ctx.alloc(I->ctx.alloc_ud, I, sizeof(Interp), 0);
}

void interp_free_contents(Interp *I) {
  interp_clear_error(I);
  vm_free(I);
  value_decref(I->retval);
  if (I->numpy.type == V_NAMESPACE) {
    ((Namespace *)I->numpy.o)->members = NULL;   /* the builtins dict, freed below */
    value_decref(I->numpy);
  }
  /* functions in globals may refer to each other only through dicts: freeing the dicts
     releases everything */
  if (I->globals) dict_free(I->globals);
  if (I->builtins) dict_free(I->builtins);
  if (I->methods) dict_free(I->methods);
  value_gc_free_all(I);   /* whatever is left is cycles */
  buf_free(&I->errbuf);
  I->globals = I->builtins = I->methods = NULL;
  I->retval = I->numpy = v_none();
  ctx_close_speedups(&I->ctx);   /* stops the pool, returns the cached buffers */
  einsum_cache_free(&I->ctx);
}
