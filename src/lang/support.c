/*
** support.c -- what the evaluator can run: one pass over a parsed chunk, before it runs, that
** rejects every construct of Python's grammar the evaluator does not run yet with one clean
** SyntaxError ("lambda is not supported yet"), so that a script with one either runs whole
** or not at all, and the evaluator never meets a node it does not know.  The front end
** (grammar/tsr.y) parses all of Python 3.11; this table shrinks as the VM learns constructs.
*/
#include "interp.h"

/* The message for each node kind the evaluator cannot run (NULL: it can). */
static const char *const unsupported[N_COUNT] = {
  [N_BIGINT] = "integers beyond 64 bits are not supported yet",
  [N_IMAG] = "complex numbers are not supported yet",
  [N_BYTES] = "bytes literals are not supported yet",
  [N_FSTRING] = "f-strings are not supported yet",
  [N_FORMATTED] = "f-strings are not supported yet",
  [N_STARRED] = "starred expressions are not supported yet",
  [N_DSTAR] = "** unpacking is not supported yet",
  [N_NAMEDEXPR] = "assignment expressions are not supported yet",
  [N_LAMBDA] = "lambda is not supported yet",
  [N_YIELD] = "yield is not supported yet",
  [N_YIELDFROM] = "yield is not supported yet",
  [N_DICT] = "dict displays are not supported yet",
  [N_DICTITEM] = "dict displays are not supported yet",
  [N_SET] = "set displays are not supported yet",
  [N_LISTCOMP] = "list comprehensions are not supported yet",
  [N_SETCOMP] = "set comprehensions are not supported yet",
  [N_DICTCOMP] = "dict comprehensions are not supported yet",
  [N_GENEXP] = "generator expressions are not supported yet",
  [N_COMPFOR] = "comprehensions are not supported yet",
  [N_ANNASSIGN] = "annotated assignments are not supported yet",
  [N_NONLOCAL] = "nonlocal is not supported yet",
  [N_CLASS] = "class definitions are not supported yet",
  [N_TRY] = "try statements are not supported yet",
  [N_EXCEPT] = "try statements are not supported yet",
  [N_RAISE] = "raise is not supported yet",
  [N_WITH] = "with statements are not supported yet",
  [N_WITHITEM] = "with statements are not supported yet",
};

/* The message for node x, or NULL if the evaluator runs it: its kind, or a new part of an
   old kind (decorators, annotations, loop else, parameter kinds, relative imports). */
static const char *unsupported_part(const Node *x) {
  if (unsupported[x->kind]) return unsupported[x->kind];
  switch (x->kind) {
    case N_DEF:
      if (x->c) return "decorators are not supported yet";
      if (x->d) return "annotations are not supported yet";
      return NULL;
    case N_PARAM:
      if (x->b) return "annotations are not supported yet";
      if (x->op != PARAM_NORMAL)
        return "keyword-only, positional-only, *args and **kwargs parameters are not supported yet";
      return NULL;
    case N_FOR: case N_WHILE:
      return x->d ? "else clauses of loops are not supported yet" : NULL;
    case N_FROMIMPORT:
      return x->ival ? "relative imports are not supported yet" : NULL;
    default:
      return NULL;
  }
}

/* Walks x, its siblings (next) and their subtrees.  The first child of a node without a
   sibling is walked in the loop, not by recursion, so that a long left-deep chain
   (1 + 1 + ... + 1) costs no stack. */
static int check(Ctx *c, Node *x, Node **where) {
  while (x) {
    if (ctx_stack_exhausted(c)) {
      *where = x;
      return ctx_err(c, TSR_ERR_RUNTIME, "RecursionError", "maximum recursion depth exceeded");
    }
    const char *msg = unsupported_part(x);
    if (msg) {
      *where = x;
      return ctx_err(c, TSR_ERR_SYNTAX, "SyntaxError", "%s", msg);
    }
    if ((x->b && check(c, x->b, where) < 0) || (x->c && check(c, x->c, where) < 0) ||
        (x->d && check(c, x->d, where) < 0))
      return -1;
    if (!x->next) { x = x->a; continue; }
    if (x->a && check(c, x->a, where) < 0) return -1;
    x = x->next;
  }
  return 0;
}

int eval_check_supported(Ctx *c, Chunk *ch, Node **where) {
  *where = NULL;
  return ch->root ? check(c, ch->root, where) : 0;
}
