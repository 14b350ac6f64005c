/*
** interp.c -- creating and freeing an interpreter: the numpy module (builtin tables, dtypes,
** constants, submodules such as linalg, and the stdlib functions written in tsr: the stdlib
** folder's .tsr files, compiled in at build time), Python's builtins module, and DESIGN §1's
** namespace rule that chooses between them.
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
  Value *v = dict_get(I->numpy_dict, ns);
  if (v && v->type == V_NAMESPACE) return ((Namespace *)v->o)->members;
  Dict *d = dict_new(&I->ctx);
  if (!d) return NULL;
  Value nv = new_namespace(I, ns, d);
  if (nv.type == V_UNDEF) { dict_free(d); return NULL; }
  if (dict_set(I->numpy_dict, ns, nv) < 0) return NULL;
  return d;
}

static int register_builtins(Interp *I) {
  for (int t = 0; builtin_tables[t]; t++) {
    for (const Builtin *b = builtin_tables[t]; b->name; b++) {
      if ((I->ctx.flags & TSR_SANDBOX) && !sandbox_allows(b)) continue;
      Value v; v.type = V_BUILTIN; v.bi = b;
      Dict *d;
      if (!b->ns) d = I->numpy_dict;
      else if (strcmp(b->ns, "builtins") == 0) d = I->py_builtins;
      else if (strcmp(b->ns, "ndarray") == 0) d = I->methods;
      else if (strcmp(b->ns, "str") == 0) d = I->str_methods;
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
    if (dict_set(I->numpy_dict, dtypes[i].name, v_dtype(dtypes[i].dt)) < 0) return -1;
  static const struct { const char *name; double v; } consts[] = {
    {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"inf", INFINITY}, {"Inf", INFINITY},
    {"nan", NAN}, {"NaN", NAN}, {"euler_gamma", 0.5772156649015329},
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (dict_set(I->numpy_dict, consts[i].name, v_float(consts[i].v)) < 0) return -1;
  if (dict_set(I->numpy_dict, "newaxis", v_none()) < 0) return -1;
  return 0;
}

/* Runs the stdlib files with numpy's members as their globals (and Python's builtins as
   their builtins), so the functions they define become members of numpy. */
static int load_stdlib(Interp *I) {
  Dict *saved = I->globals;
  I->globals = I->numpy_dict;
  I->builtins = I->py_builtins;
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

/* Names numpy defines outside numpy.__all__, which `from numpy import *` does not bind (with
   every name that starts with an underscore): Python's builtins of those names stay. */
static const char *const numpy_not_star[] = {"abs", "max", "min", "round", NULL};

static bool numpy_star_exports(const char *name) {
  if (name[0] == '_') return false;
  for (const char *const *p = numpy_not_star; *p; p++)
    if (strcmp(*p, name) == 0) return false;
  return true;
}

int interp_star_import_numpy(Interp *I, Dict *d) {
  Dict *np = I->numpy_dict;
  for (size_t i = 0; i < np->cap; i++) {
    const DictEntry *e = &np->slots[i];
    if (e->key && numpy_star_exports(e->key) &&
        dict_set(d, e->key, value_retain(e->value)) < 0)
      return -1;
  }
  return 0;
}

/* star_builtins: a copy of Python's builtins with numpy's star-exported names bound over them
   (numpy's sum, any and all replace Python's, as `from numpy import *` does). */
static int make_star_builtins(Interp *I) {
  Dict *py = I->py_builtins;
  for (size_t i = 0; i < py->cap; i++)
    if (py->slots[i].key &&
        dict_set(I->star_builtins, py->slots[i].key, value_retain(py->slots[i].value)) < 0)
      return -1;
  return interp_star_import_numpy(I, I->star_builtins);
}

/* Does the tree under n hold an import of numpy (`import numpy...`, `from numpy... import`)?
   Walks every node (a, b, c, d, next) with an explicit stack, so any nesting is fine. */
static bool imports_numpy(Ctx *c, const Node *root) {
  const Node *small[64], **stack = small;
  size_t n = 0, cap = 64;
  bool found = false;
  if (root) stack[n++] = root;
  while (n && !found) {
    const Node *x = stack[--n];
    if ((x->kind == N_IMPORT || x->kind == N_FROMIMPORT) && x->str &&
        strncmp(x->str, "numpy", 5) == 0 && (x->str[5] == 0 || x->str[5] == '.'))
      found = true;
    const Node *kids[5] = {x->a, x->b, x->c, x->d, x->next};
    for (int k = 0; k < 5; k++) {
      if (!kids[k]) continue;
      if (n == cap) {
        const Node **grown = ctx_malloc(c, 2 * cap * sizeof *grown);
        if (!grown) { ctx_clear(c); goto done; }   /* out of memory: keep the default rule */
        memcpy(grown, stack, n * sizeof *grown);
        if (stack != small) ctx_free(c, stack, cap * sizeof *stack);
        stack = grown;
        cap *= 2;
      }
      stack[n++] = kids[k];
    }
  }
done:
  if (stack != small) ctx_free(c, stack, cap * sizeof *stack);
  return found;
}

int interp_import(Interp *I, const char *name, Value *out) {
  Ctx *c = &I->ctx;
  if (strcmp(name, "numpy") == 0) { *out = value_retain(I->numpy); return 0; }
  if (strncmp(name, "numpy.", 6) == 0) {
    Value *m = dict_get(I->numpy_dict, name + 6);
    if (!m || m->type != V_NAMESPACE) goto missing;
    *out = value_retain(*m);
    return 0;
  }
  Value *have = I->modules ? dict_get(I->modules, name) : NULL;
  if (have) { *out = value_retain(*have); return 0; }
  const ModuleDef *def = NULL;
  for (const ModuleDef *const *d = I->module_defs; d && *d && !def; d++)
    if (strcmp((*d)->name, name) == 0) def = *d;
  if (!def || ((def->flags & MODULE_UNSAFE) && (c->flags & TSR_SANDBOX))) goto missing;
  if (!I->modules && !(I->modules = dict_new(c))) return -1;
  Dict *members = dict_new(c);
  if (!members) return -1;
  Value ns = new_namespace(I, def->name, members);
  if (ns.type == V_UNDEF) { dict_free(members); return -1; }
  int rc = 0;
  for (const Builtin *b = def->functions; b && b->name && rc == 0; b++) {
    Value v; v.type = V_BUILTIN; v.bi = b;
    rc = dict_set(members, b->name, v);
  }
  if (rc == 0 && def->init) rc = def->init(I, members);
  if (rc == 0) rc = dict_set(members, "__name__", value_str(I, def->name, strlen(def->name)));
  if (rc == 0) rc = dict_set(I->modules, def->name, value_retain(ns));
  if (rc < 0) { value_decref(ns); return -1; }
  *out = ns;
  return 0;
missing:
  return ctx_err(c, TSR_ERR_NAME, "ModuleNotFoundError (ImportError)", "No module named '%s'",
                 name);
}

void interp_free_argv(Ctx *c, char **argv, int argc) {
  if (!argv) return;
  for (int i = 0; i < argc; i++)
    if (argv[i]) ctx_free(c, argv[i], strlen(argv[i]) + 1);
  ctx_free(c, argv, (size_t)argc * sizeof(char *));
}

void interp_choose_namespace(Interp *I, const Chunk *ch) {
  if (I->namespace_rule) return;
  bool plain = imports_numpy(&I->ctx, ch->root);
  I->namespace_rule = plain ? 2 : 1;
  I->builtins = plain ? I->py_builtins : I->star_builtins;
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
  I->ctx.max_steps = 0;   /* the budget is tsr_eval's: setting up the state is not charged */
  I->ctx.flags = cfg->flags;
  ctx_stack_init(&I->ctx);
  ctx_open_speedups(&I->ctx, 0);   /* buffer cache and thread pool (TSR_NUM_THREADS) */
  I->retval = v_none();
  I->numpy = v_none();
  buf_init(&I->errbuf, &I->ctx);
  I->error.kind = "";
  I->error.message = "";
  I->error.chunk = "";
  if (!(I->globals = dict_new(&I->ctx)) || !(I->numpy_dict = dict_new(&I->ctx)) ||
      !(I->py_builtins = dict_new(&I->ctx)) || !(I->star_builtins = dict_new(&I->ctx)) ||
      !(I->methods = dict_new(&I->ctx)) || !(I->str_methods = dict_new(&I->ctx)))
    goto fail;
  I->builtins = I->py_builtins;
  if (register_builtins(I) < 0 || register_constants(I) < 0) goto fail;
  I->numpy = new_namespace(I, "numpy", I->numpy_dict);
  if (I->numpy.type == V_UNDEF) { I->numpy = v_none(); goto fail; }
  if (load_stdlib(I) < 0 || make_star_builtins(I) < 0) goto fail;
  I->builtins = I->star_builtins;
  if (dict_set(I->globals, "__name__", value_str(I, "__main__", 8)) < 0) goto fail;
  ctx_clear(&I->ctx);
  I->ctx.max_steps = cfg->max_steps;
  I->ctx.steps = I->ctx.work = 0;
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
    ((Namespace *)I->numpy.o)->members = NULL;   /* numpy_dict, freed below */
    value_decref(I->numpy);
  }
  /* functions in globals may refer to each other only through dicts: freeing the dicts
     releases everything */
  if (I->globals) dict_free(I->globals);
  if (I->star_builtins) dict_free(I->star_builtins);
  if (I->py_builtins) dict_free(I->py_builtins);
  if (I->numpy_dict) dict_free(I->numpy_dict);
  if (I->methods) dict_free(I->methods);
  if (I->str_methods) dict_free(I->str_methods);
  if (I->modules) dict_free(I->modules);
  interp_free_argv(&I->ctx, I->argv, I->argc);
  I->argv = NULL;
  I->argc = 0;
  value_gc_free_all(I);   /* whatever is left is cycles */
  buf_free(&I->errbuf);
  I->globals = I->builtins = I->star_builtins = I->py_builtins = I->numpy_dict = I->methods = NULL;
  I->modules = I->str_methods = NULL;
  I->retval = I->numpy = v_none();
  ctx_close_speedups(&I->ctx);   /* stops the pool, returns the cached buffers */
  einsum_cache_free(&I->ctx);
}
