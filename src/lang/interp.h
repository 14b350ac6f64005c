/*
** interp.h -- the interpreter state and the evaluator's internals, shared by value.c,
** dict.c, eval.c and the public API layer (src/api/).
*/
#ifndef TSR_INTERP_H
#define TSR_INTERP_H

#include "value.h"
#include "../runtime/random.h"

/* ---- Dict: an open-addressing hash map from names to Values (keys copied) ---- */
typedef struct DictEntry { char *key; size_t keylen; uint64_t hash; Value value; } DictEntry;
/* version changes whenever a key is added or removed (so Value pointers into the table and
   the absence of a key stay valid while it is unchanged: eval.c caches name lookups). */
struct Dict { Ctx *ctx; DictEntry *slots; size_t cap, count; uint64_t version; };
RT_HIDDEN Dict *dict_new(Ctx *c);
RT_HIDDEN void dict_free(Dict *d);
/* Borrowed pointer to the value bound to key, or NULL. */
RT_HIDDEN Value *dict_get(Dict *d, const char *key);
/* Binds key to v, taking the reference to v (released on failure).  0 or -1 (MemoryError). */
RT_HIDDEN int dict_set(Dict *d, const char *key, Value v);
/* Removes key; 1 if it was there, 0 if not. */
RT_HIDDEN int dict_del(Dict *d, const char *key);

/* A compiled chunk kept alive by the functions defined in it. */
typedef struct ChunkRef { int64_t refcnt; Chunk *chunk; } ChunkRef;

/* A user-defined function. */
typedef struct Func {
  Obj h;
  Node *def;            /* N_DEF */
  ChunkRef *chunk;      /* holds def alive */
  Dict *globals;        /* the module namespace it was defined in (borrowed: lives as long
                           as the interpreter) */
  int nparams;
  Value *defaults;      /* nparams entries, V_UNDEF where no default */
  const char *doc;      /* first-statement docstring or NULL (points into the arena) */
  const struct Proto *proto;   /* its bytecode, found on the first call (vm.c) */
} Func;

/* A host function registered with tsr_register. */
typedef struct CFunc { Obj h; tsr_CFunction fn; void *ud; char name[64]; } CFunc;

/* The local variables of a function, found by the resolver (resolve.c) before the chunk
   runs: names[0..nparams) are its parameters in order, then every other name its body binds
   (assigns, for-loop targets, def, import, del) and does not declare global.  Lives in the
   chunk's arena; N_DEF.cache points to it. */
typedef struct FuncScope {
  int nlocals, nparams; const char **names;
  struct Proto *proto;   /* its bytecode (compile.c), set before the chunk runs */
} FuncScope;

/* Resolves every function of ch (once; sets ch->resolved): N_DEF.cache gets its FuncScope,
   and each N_NAME of a function body its slot (ast.h).  Returns 0, or -1 with the error in c
   (MemoryError; SyntaxError "name 'x' is parameter and global", RecursionError for a tree
   too deep for the C stack) and *where set to the offending node when there is one. */
RT_HIDDEN int resolve_chunk(Ctx *c, Chunk *ch, Node **where);

/* Checks that the evaluator can run every construct of ch (support.c), before any of it runs.
   Returns 0, or -1 with SyntaxError "<construct> is not supported yet" (RecursionError for a
   tree too deep for the C stack) in c and *where set to the node. */
RT_HIDDEN int eval_check_supported(Ctx *c, Chunk *ch, Node **where);

/* A Python standard module written in C (src/lib/, one file a module): its functions (Builtin
   rows, ending with a row whose name is NULL; their ns field is ignored), an init that binds
   its other members (constants such as math.pi) or NULL, and flags.  The list the state
   imports from is handed to it by the API layer (interp.module_defs), so that src/lang/ does
   not depend on src/lib/. */
enum { MODULE_UNSAFE = 1 };   /* touches files or the process: no such module in a sandbox */
typedef struct ModuleDef {
  const char *name;
  const Builtin *functions;
  int (*init)(Interp *I, Dict *members);
  unsigned flags;
} ModuleDef;

/* One activation of a user function (or the module). */
typedef struct Frame {
  Value *slots;            /* a function call's local variables (scope->nlocals of them,
                              V_UNDEF while unbound); NULL at module level */
  const FuncScope *scope;  /* NULL at module level: names go to globals */
  Dict *globals;
  struct Frame *parent;
  int line;             /* line of the node last evaluated in this frame (warning locations) */
} Frame;

struct Interp {
  Ctx ctx;
  tsr_Config cfg;
  Dict *globals;        /* the __main__ namespace */
  /* DESIGN §1's namespace rule.  A global name not bound in the module's globals is looked
     up in `builtins`, which is star_builtins (Python's builtins, then numpy's names that
     `from numpy import *` binds) for a program that does not import numpy, py_builtins
     (Python's builtins only) for one that does.  interp_choose_namespace picks one at the
     state's first chunk; until then star_builtins is in force. */
  Dict *builtins;       /* star_builtins or py_builtins (borrowed) */
  Dict *py_builtins;    /* Python's builtins module (rows of namespace "builtins") */
  Dict *star_builtins;  /* py_builtins overlaid by numpy's star-exported names */
  int namespace_rule;   /* 0 not chosen yet, 1 star (no numpy import), 2 plain */
  Dict *numpy_dict;     /* the numpy module's members: NumPy's functions, dtypes, constants,
                           submodules (linalg, random ...) and the stdlib's functions */
  Dict *methods;        /* "ndarray" methods: name -> V_BUILTIN */
  Dict *str_methods;    /* "str" methods (str.c): name -> V_BUILTIN */
  Value numpy;          /* the numpy module (import numpy as np); members numpy_dict */
  const ModuleDef *const *module_defs;   /* Python's modules it can import (NULL-ended) */
  Dict *modules;        /* the Python modules imported so far: name -> V_NAMESPACE */
  int argc;             /* sys.argv (tsr_set_argv): arena-free copies owned by the state */
  char **argv;
  Frame *frame;
  int depth;            /* nesting of eval calls (C stack guard) */
  int call_depth;       /* nesting of user function calls */
  struct VM *vm;        /* the virtual machine's stack and frames (vm.c); NULL until used */
  Value retval;         /* value of a `return` being unwound */
  /* error location of the pending error */
  int err_line, err_col;
  ChunkRef *err_chunk;  /* retained while an error is pending */
  tsr_Error error;
  Buf errbuf;           /* tsr_error_message text */
  char errchunk[256];
  ChunkRef *cur_chunk;  /* chunk of the code being run (borrowed) */
  RandomState random;   /* numpy.random's legacy MT19937 state (builtins_random.c) */
  RandomState py_random;   /* Python's random module's own MT19937 (src/lib/random.c) */
  bool py_gauss_valid;     /* random.gauss's second value is kept in py_gauss_next */
  double py_gauss_next;
  /* The cycle collector (value.c): the ring of tracked containers (gc_head a sentinel), their
     number, how many survived the last collection, and whether a container has been stored
     into a list since (the only way a cycle can form). */
  Obj gc_head;
  int64_t gc_count, gc_survivors;
  bool gc_dirty;        /* a container was stored into a list: a cycle may have formed */
  bool gc_cyclic;       /* gc_dirty was ever set: cycles may exist */
  bool gc_released;     /* a tracked container lost a reference and lives on */
  int gc_chunks;        /* top-level chunks run since the last collection */
};

/* Tracks o (a new list, tuple, function, method or slice) for the cycle collector. */
RT_HIDDEN void value_gc_track(Interp *I, Obj *o);
/* Notes that v was stored into an existing list (a cycle may have formed). */
static inline void value_gc_stored(Interp *I, Value v) {
  if (v.type == V_LIST || v.type == V_TUPLE || v.type == V_FUNC || v.type == V_METHOD ||
      v.type == V_SLICE)
    I->gc_dirty = I->gc_cyclic = true;
}
/* Frees the tracked containers that only reference each other (Python's cycle collection:
   counts minus references from tracked containers leave the externally held ones; whatever
   those do not reach is garbage).  Safe between statements.  Does nothing when it cannot
   allocate its work list. */
RT_HIDDEN void value_gc_collect(Interp *I);
/* At close, when nothing outside holds a container any more: frees every tracked container
   (whatever cycles are left) without the collector's work list, so it cannot fail. */
RT_HIDDEN void value_gc_free_all(Interp *I);
/* When to collect.  Nothing to do until some container has been stored into a list (no
   cycle can exist before).  Between statements: when a cycle may have formed or been let go
   and the tracked count has doubled since the last collection (and passed 10 000), so a loop
   that makes cycles runs in bounded memory at amortized linear cost.  At the end of a
   top-level chunk: when this chunk stored a container into a list, or, once cycles may
   exist and a container was let go, when the count grew by half since the last collection
   or 16 chunks have run since (a host calling tsr_eval in a loop pays for a collection on
   one call in 16; a dropped cycle lives at most that long). */
static inline void value_gc_maybe(Interp *I) {
  if ((I->gc_dirty || (I->gc_cyclic && I->gc_released)) && I->gc_count > 10000 &&
      I->gc_count > 2 * I->gc_survivors)
    value_gc_collect(I);
}
static inline void value_gc_chunk_end(Interp *I) {
  I->gc_chunks++;
  if (I->gc_dirty || (I->gc_cyclic && I->gc_released &&
                      (2 * I->gc_count >= 3 * I->gc_survivors + 64 || I->gc_chunks >= 16)))
    value_gc_collect(I);
}

#define MAX_ARGS 64

/* The frame of a host function call (tsr_Call of the public API). */
typedef struct tsr_Call {
  Interp *I;
  const Args *args;
  Value result;               /* V_NONE until tsr_return */
  Tensor *argt[MAX_ARGS];     /* tensors made for tsr_arg, released after the call */
} HostCall;

/* Evaluator entry points (eval.c). */
/* Runs a parsed chunk at module level.  If interactive, echoes the repr of every non-None
   expression statement and binds it to `_`.  If result is not NULL, it receives the value of
   the final statement when that is an expression statement (new reference) or V_NONE.  0/-1. */
RT_HIDDEN int eval_chunk(Interp *I, ChunkRef *cr, bool interactive, Value *result);
RT_HIDDEN ChunkRef *chunkref_new(Interp *I, Chunk *ch);
RT_HIDDEN void chunkref_release(Interp *I, ChunkRef *cr);

/* Interpreter set-up and tear-down (interp.c). */
RT_HIDDEN Interp *interp_new(const tsr_Config *cfg);
RT_HIDDEN void interp_free(Interp *I);
/* Frees everything I owns but not I itself (its Ctx stays usable for objects still alive). */
RT_HIDDEN void interp_free_contents(Interp *I);
/* Is builtin b in the allow-list of TSR_SANDBOX states (src/api/sandbox.c)? */
RT_HIDDEN bool sandbox_allows(const Builtin *b);
/* Chooses the namespace rule (DESIGN §1) at the state's first user chunk ch: plain Python
   builtins if ch imports numpy anywhere (`import numpy...`, `from numpy... import`, at any
   depth), else numpy's star-exported names over them.  Later chunks keep the choice. */
RT_HIDDEN void interp_choose_namespace(Interp *I, const Chunk *ch);
/* Binds into d (a module's globals) every name `from numpy import *` binds: numpy's members
   except those outside numpy.__all__ (private names, abs, max, min, round).  0 or -1. */
RT_HIDDEN int interp_star_import_numpy(Interp *I, Dict *d);
/* The module `name` (a new reference in *out): numpy, a submodule of numpy ("numpy.linalg"),
   or one of module_defs, made on its first import and kept in I->modules.
   ModuleNotFoundError "No module named 'x'" for any other name (and for MODULE_UNSAFE
   modules in a sandboxed state).  0 or -1. */
RT_HIDDEN int interp_import(Interp *I, const char *name, Value *out);
/* Frees argv[0..argc) and argv (copies made by tsr_set_argv; either may be NULL). */
RT_HIDDEN void interp_free_argv(Ctx *c, char **argv, int argc);
/* Drops the pending error and its location. */
RT_HIDDEN void interp_clear_error(Interp *I);

/* Value helpers (value.c) used by the evaluator. */
RT_HIDDEN Value value_slice(Interp *I, Value start, Value stop, Value step);  /* takes refs */
RT_HIDDEN bool value_is_number(Value v);   /* bool, int, float, or tensor */
/* Python equality for non-tensor values (==); sets *eq. */
RT_HIDDEN int value_equal(Interp *I, Value a, Value b, bool *eq);

#endif
