/*
** resolve.c -- the resolver: a pass over a parsed chunk, before it runs, that decides for
** every name in a function body whether it is one of the function's local variables (a slot
** of the call's frame, found by index) or a global/builtin name (looked up in the module's
** dict, through a cache), with Python's rule: a name is local to a function when the body
** binds it anywhere (assignment, augmented assignment, for target, def, import, del) or it is
** a parameter, unless a `global` statement names it.  Module-level names stay in the globals
** dict, which the REPL, tsr_set/tsr_get and introspection share.
*/
#include "interp.h"

#include <string.h>

/* Functions with up to this many locals (or globals statements' names) are resolved with no
   allocation but the FuncScope in the chunk's arena; more move to the heap, and the locals
   get a hash index. */
#define RESOLVE_SMALL 32

typedef struct Resolver {
  Ctx *c;
  Arena *arena;
  Node **where;          /* the node an error is about */
  /* the function being resolved */
  const char **names; int n, cap;      /* its locals */
  Dict *index;                         /* name -> V_INT index into names, past RESOLVE_SMALL */
  const char **globals; int ng, gcap;  /* names of its `global` statements */
  const char *small_names[RESOLVE_SMALL], *small_globals[RESOLVE_SMALL];
} Resolver;

/* Appends name to the array *arr (small: its initial storage in the Resolver). */
static int push_name(Resolver *R, const char ***arr, const char **small, int *n, int *cap,
                     const char *name) {
  if (*n == *cap) {
    int ncap = 2 * *cap;
    const char **a = ctx_malloc(R->c, (size_t)ncap * sizeof *a);
    if (!a) return -1;
    memcpy((void *)a, *arr, (size_t)*n * sizeof *a);
    if (*arr != small) ctx_free(R->c, (void *)*arr, (size_t)*cap * sizeof *a);
    *arr = a; *cap = ncap;
  }
  (*arr)[(*n)++] = name;
  return 0;
}

/* Index of local name, or -1. */
static int local_index(const Resolver *R, const char *name) {
  if (R->index) {
    Value *k = dict_get(R->index, name);
    return k ? (int)k->i : -1;
  }
  for (int i = 0; i < R->n; i++)
    if (strcmp(R->names[i], name) == 0) return i;
  return -1;
}

static bool is_global(const Resolver *R, const char *name) {
  for (int i = 0; i < R->ng; i++)
    if (strcmp(R->globals[i], name) == 0) return true;
  return false;
}

/* Makes name a local of the function (once). */
static int add_local(Resolver *R, const char *name) {
  if (is_global(R, name) || local_index(R, name) >= 0) return 0;
  if (!R->index && R->n == RESOLVE_SMALL) {   /* many locals: index them */
    if (!(R->index = dict_new(R->c))) return -1;
    for (int i = 0; i < R->n; i++)
      if (dict_set(R->index, R->names[i], v_int(i)) < 0) return -1;
  }
  if (R->index && dict_set(R->index, name, v_int(R->n)) < 0) return -1;
  return push_name(R, &R->names, R->small_names, &R->n, &R->cap, name);
}

static int deep(Resolver *R, Node *n) {
  *R->where = n;
  return ctx_err(R->c, TSR_ERR_RUNTIME, "RecursionError", "maximum recursion depth exceeded");
}

/* Names bound by an assignment target (names inside tuple/list targets too). */
static int bind_target(Resolver *R, Node *t) {
  if (ctx_stack_exhausted(R->c)) return deep(R, t);
  if (t->kind == N_NAME) return add_local(R, t->str);
  if (t->kind == N_TUPLE || t->kind == N_LIST)
    for (Node *e = t->a; e; e = e->next)
      if (bind_target(R, e) < 0) return -1;
  return 0;
}

enum { PASS_GLOBALS, PASS_LOCALS, PASS_ANNOTATE };

static int resolve_def(Resolver *outer, Node *def);

/* One pass over the nodes of list (and their subtrees) that belong to the function's scope:
   nested functions contribute their name and default values, not their bodies. */
static int walk(Resolver *R, Node *list, int pass) {
  for (Node *n = list; n; n = n->next) {
    if (ctx_stack_exhausted(R->c)) return deep(R, n);
    switch (n->kind) {
    case N_NAME:
      if (pass == PASS_ANNOTATE) {
        int k = local_index(R, n->str);
        n->slot = k >= 0 ? k + 1 : -1;
      }
      continue;
    case N_GLOBAL:
      if (pass == PASS_GLOBALS)
        for (Node *g = n->a; g; g = g->next)
          if (push_name(R, &R->globals, R->small_globals, &R->ng, &R->gcap, g->str) < 0)
            return -1;
      continue;
    case N_DEF:
      if (pass == PASS_LOCALS && add_local(R, n->str) < 0) return -1;
      for (Node *p = n->a; p; p = p->next)
        if (p->a && walk(R, p->a, pass) < 0) return -1;
      if (pass == PASS_ANNOTATE && resolve_def(R, n) < 0) return -1;
      continue;
    case N_IMPORT:
      if (pass == PASS_LOCALS) {
        const char *name = n->a ? n->a->str : strchr(n->str, '.') ? "numpy" : n->str;
        if (add_local(R, name) < 0) return -1;
      }
      continue;
    case N_FROMIMPORT:
      if (pass == PASS_LOCALS)
        for (Node *m = n->a; m; m = m->next)
          if (add_local(R, m->a ? m->a->str : m->str) < 0) return -1;
      continue;
    case N_ASSIGN: case N_FOR: case N_DEL:
      if (pass == PASS_LOCALS)
        for (Node *t = n->a; t; t = t->next)
          if (bind_target(R, t) < 0) return -1;
      break;
    case N_AUGASSIGN:
      if (pass == PASS_LOCALS && bind_target(R, n->a) < 0) return -1;
      break;
    default:
      break;
    }
    if ((n->a && walk(R, n->a, pass) < 0) || (n->b && walk(R, n->b, pass) < 0) ||
        (n->c && walk(R, n->c, pass) < 0))
      return -1;
  }
  return 0;
}

static void resolver_init(Resolver *R, Ctx *c, Arena *arena, Node **where) {
  R->c = c; R->arena = arena; R->where = where;
  R->names = R->small_names; R->n = 0; R->cap = RESOLVE_SMALL;
  R->globals = R->small_globals; R->ng = 0; R->gcap = RESOLVE_SMALL;
  R->index = NULL;
}

static void resolver_free(Resolver *R) {
  if (R->names != R->small_names)
    ctx_free(R->c, (void *)R->names, (size_t)R->cap * sizeof *R->names);
  if (R->globals != R->small_globals)
    ctx_free(R->c, (void *)R->globals, (size_t)R->gcap * sizeof *R->globals);
  if (R->index) dict_free(R->index);
}

/* Resolves function def: its locals, its names' slots, and the functions nested in it. */
static int resolve_def(Resolver *outer, Node *def) {
  Resolver R;
  resolver_init(&R, outer->c, outer->arena, outer->where);
  int rc = -1;
  Node *body = def->b ? def->b->a : NULL;
  if (walk(&R, body, PASS_GLOBALS) < 0) goto done;
  for (Node *p = def->a; p; p = p->next) {
    if (is_global(&R, p->str)) {
      *R.where = p;
      ctx_err(R.c, TSR_ERR_SYNTAX, "SyntaxError", "name '%s' is parameter and global", p->str);
      goto done;
    }
    if (add_local(&R, p->str) < 0) goto done;
  }
  if (walk(&R, body, PASS_LOCALS) < 0 || walk(&R, body, PASS_ANNOTATE) < 0) goto done;
  FuncScope *sc = arena_alloc(R.arena, sizeof *sc);
  const char **names = sc ? arena_alloc(R.arena, (size_t)(R.n ? R.n : 1) * sizeof *names) : NULL;
  if (!names) goto done;
  if (R.n) memcpy((void *)names, R.names, (size_t)R.n * sizeof *names);
  sc->nlocals = R.n;
  sc->nparams = def->n;
  sc->names = names;
  sc->proto = NULL;
  def->cache = sc;
  rc = 0;
done:
  resolver_free(&R);
  return rc;
}

/* Module level: finds the functions, in blocks and in other functions' bodies. */
static int find_defs(Resolver *R, Node *list) {
  for (Node *n = list; n; n = n->next) {
    if (ctx_stack_exhausted(R->c)) return deep(R, n);
    switch (n->kind) {
    case N_DEF: if (resolve_def(R, n) < 0) return -1; break;
    case N_BLOCK: if (find_defs(R, n->a) < 0) return -1; break;
    case N_IF: if (find_defs(R, n->b) < 0 || find_defs(R, n->c) < 0) return -1; break;
    case N_FOR: if (find_defs(R, n->c) < 0) return -1; break;
    case N_WHILE: if (find_defs(R, n->b) < 0) return -1; break;
    default: break;
    }
  }
  return 0;
}

int resolve_chunk(Ctx *c, Chunk *ch, Node **where) {
  *where = NULL;
  if (ch->resolved) return 0;
  Resolver R;
  resolver_init(&R, c, &ch->arena, where);
  int rc = find_defs(&R, ch->root ? ch->root->a : NULL);
  resolver_free(&R);
  if (rc == 0) ch->resolved = true;
  return rc;
}
