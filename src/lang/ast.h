/*
** ast.h -- the abstract syntax tree of a tsr chunk, and the parser's interface.
**
** Nodes live in an arena owned by the chunk (freed all at once, never recursively).  Lists
** (call arguments, tuple/list elements, block statements, parameters, assignment targets) are
** singly linked through Node.next, with their length in the parent's `n`.
*/
#ifndef TSR_AST_H
#define TSR_AST_H

#include "../runtime/rt.h"

#define AST_KINDS(X)                                                                 \
  /* expressions */                                                                   \
  X(N_INT)        /* ival */                                                          \
  X(N_FLOAT)      /* fval */                                                          \
  X(N_STR)        /* str,len: decoded bytes (adjacent literals joined); op = 1 when  \
                     the first literal has a u prefix (Python's kind='u') */           \
  X(N_NAME)       /* str,len */                                                       \
  X(N_TRUE) X(N_FALSE) X(N_NONE) X(N_ELLIPSIS)                                        \
  X(N_BINOP)      /* op (OP_*), a, b */                                               \
  X(N_UNARY)      /* op: OP_NEG, OP_POS, OP_INVERT, OP_NOT; a */                      \
  X(N_AND) X(N_OR)/* a, b (short-circuit) */                                          \
  X(N_COMPARE)    /* a = first operand; b = list of N_CMPITEM (n of them) */          \
  X(N_CMPITEM)    /* op: OP_LT ... OP_IS_NOT; a = operand */                          \
  X(N_IFEXP)      /* a if b else c */                                                 \
  X(N_CALL)       /* a = callee; b = list of args (N_KWARG for keywords), n */        \
  X(N_KWARG)      /* str,len = keyword; a = value */                                  \
  X(N_ATTR)       /* a = object; str,len = attribute name */                          \
  X(N_SUBSCRIPT)  /* a = object; b = index (N_TUPLE when commas; N_SLICE items) */    \
  X(N_SLICE)      /* a = start, b = stop, c = step; each may be NULL */               \
  X(N_TUPLE)      /* a = list of elements, n */                                       \
  X(N_LIST)       /* a = list of elements, n */                                       \
  /* statements */                                                                    \
  X(N_BLOCK)      /* a = list of statements, n */                                     \
  X(N_EXPR)       /* a = expression */                                                \
  X(N_ASSIGN)     /* a = list of targets (a = b = v gives 2), n; b = value */         \
  X(N_AUGASSIGN)  /* op (OP_ADD...), a = target, b = value */                         \
  X(N_DEF)        /* str,len = name; a = list of N_PARAM, n; b = body (N_BLOCK);     \
                     c = decorators or NULL; d = return annotation or NULL */          \
  X(N_PARAM)      /* str,len = name; a = default or NULL; b = annotation or NULL;    \
                     op = ParamKind (PARAM_NORMAL for a plain positional-or-keyword one) */ \
  X(N_RETURN)     /* a = value or NULL */                                             \
  X(N_IF)         /* a = cond, b = body, c = else (N_BLOCK, or N_IF for elif) or NULL */ \
  X(N_FOR)        /* a = target, b = iterable, c = body; d = else block or NULL */   \
  X(N_WHILE)      /* a = cond, b = body; d = else block or NULL */                    \
  X(N_BREAK) X(N_CONTINUE) X(N_PASS)                                                  \
  X(N_GLOBAL)     /* a = list of N_NAME, n */                                         \
  X(N_ASSERT)     /* a = test, b = message or NULL */                                 \
  X(N_DEL)        /* a = list of targets, n */                                        \
  X(N_IMPORT)     /* str,len = dotted module ("numpy"); a = alias N_NAME or NULL;     \
                     op = 1 when it continues the previous one (`import a, b`) */      \
  X(N_FROMIMPORT) /* str,len = module ("" for `from . import x`); ival = level (dots); a = list of N_NAME (alias in their a), n; n == 0 means import-star */ \
  /* ---- added for Python 3.11's whole grammar (issue 17); the evaluator rejects them before  \
     a chunk runs (eval_check_supported) until it can run them ---- */                \
  X(N_BIGINT)     /* str,len = the literal without underscores ("0x1f...", "123..."): an  \
                     int literal beyond int64 */                                       \
  X(N_IMAG)       /* fval = imaginary part (1j, 2.5e3J) */                            \
  X(N_BYTES)      /* str,len = the bytes of a bytes literal (adjacent ones joined) */ \
  X(N_FSTRING)    /* a = list of parts (N_STR constants, N_FORMATTED), n: a JoinedStr */ \
  X(N_FORMATTED)  /* a = value; op = conversion 'r' 's' 'a' or 0; b = format spec (an \
                     N_FSTRING) or NULL */                                             \
  X(N_STARRED)    /* a = value: `*x` in a display, call, target or subscript */       \
  X(N_DSTAR)      /* a = value: `**x` in a call's arguments or a dict display */      \
  X(N_NAMEDEXPR)  /* a = target (N_NAME), b = value: `a := b` */                      \
  X(N_LAMBDA)     /* a = list of N_PARAM, n; b = body expression */                  \
  X(N_YIELD)      /* a = value or NULL */                                             \
  X(N_YIELDFROM)  /* a = value */                                                     \
  X(N_DICT)       /* a = list of N_DICTITEM and N_DSTAR, n */                          \
  X(N_DICTITEM)   /* a = key, b = value */                                            \
  X(N_SET)        /* a = list of elements, n */                                       \
  X(N_LISTCOMP) X(N_SETCOMP) X(N_GENEXP)                                              \
                  /* a = element; b = list of N_COMPFOR, n */                          \
  X(N_DICTCOMP)   /* a = N_DICTITEM (key, value); b = list of N_COMPFOR, n */           \
  X(N_COMPFOR)    /* a = target, b = iterable, c = list of `if` conditions, n */      \
  X(N_ANNASSIGN)  /* a = target, b = annotation, c = value or NULL; op = 1 for a plain \
                     name not in parentheses (Python's `simple`) */                    \
  X(N_NONLOCAL)   /* a = list of N_NAME, n */                                         \
  X(N_CLASS)      /* str,len = name; a = list of bases and keywords (as N_CALL's \
                     arguments), n; b = body (N_BLOCK); c = decorators or NULL */      \
  X(N_TRY)        /* a = body; b = list of N_EXCEPT, n; c = else block or NULL; d =   \
                     finally block or NULL; op = 1 for `except*` handlers (TryStar) */ \
  X(N_EXCEPT)     /* a = type or NULL (bare except); b = body; c = N_NAME of `as` or NULL */ \
  X(N_RAISE)      /* a = exception or NULL (re-raise); b = cause (`from`) or NULL */  \
  X(N_WITH)       /* a = list of N_WITHITEM, n; b = body */                           \
  X(N_WITHITEM)   /* a = context manager, b = `as` target or NULL */

#define X_ENUM(k) k,
typedef enum { AST_KINDS(X_ENUM) N_COUNT } NodeKind;
#undef X_ENUM

/* What an N_PARAM is.  PARAM_STAR (a bare `*`) and PARAM_SLASH (`/`) exist only while the
   parameter list is parsed: ast_params turns them into the kinds of their neighbours. */
typedef enum {
  PARAM_NORMAL, PARAM_POSONLY, PARAM_VARARGS, PARAM_KWONLY, PARAM_VARKW, PARAM_STAR, PARAM_SLASH
} ParamKind;

/* Operators (N_BINOP, N_UNARY, N_CMPITEM, N_AUGASSIGN). */
typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
  OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
  OP_NEG, OP_POS, OP_INVERT, OP_NOT,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_IN, OP_NOT_IN, OP_IS, OP_IS_NOT,
  OP_COUNT
} OpKind;

typedef struct Node Node;
struct Node {
  uint8_t kind;        /* NodeKind */
  uint8_t op;          /* OpKind */
  uint8_t paren;       /* expression was written in parentheses (stops comparison chaining) */
  int line, col;       /* 1-based position of the node's first token */
  int n;               /* length of the list in a (or b for N_CALL / N_COMPARE) */
  int64_t ival;
  double fval;
  const char *str;     /* arena copy, NUL-terminated */
  size_t len;
  Node *a, *b, *c;
  Node *d;             /* ADDED (front end): a fourth child, see AST_KINDS */
  Node *next;          /* next item of the list this node is in */
  void *cache;         /* free for the evaluator (e.g. an interned name) */
  uint8_t fusion_root; /* evaluator memo: 0 not known yet, 1 no, 2 heads a fusable tree */
  uint8_t unfused;     /* evaluator hint on a fusion root: its last evaluation met only
                          scalars and tiny tensors, so it is evaluated operator by operator */
  uint8_t plain_sub;   /* evaluator memo on an N_SUBSCRIPT: 0 not known yet, 1 no, 2 it is
                          name[index] with a plain index (eval.c's plain_index) */
  /* Names (resolve.c, eval.c).  slot: for an N_NAME in a function body, 1 + the index of
     its local variable, or -1 for a global or builtin name; 0 at module level.  The cache
     remembers where a global or builtin name was last found: the Value in dict (or, when
     dict2 is set, in dict2 with dict lacking it) while the dicts' versions are unchanged. */
  int slot;
  struct { void *dict, *dict2, *value; uint64_t version, version2; } name_cache;
  /* ADDED (front end): when paren is set, the position of the outermost '(' around the
     expression, so that an enclosing node starts there (`(a + b) * c` starts at col 1). */
  int paren_line, paren_col;
};

/* The arena: bump allocation in chunks from the Ctx allocator. */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena { Ctx *ctx; ArenaBlock *head; size_t used_in_head, total; } Arena;
RT_HIDDEN void arena_init(Arena *a, Ctx *c);
RT_HIDDEN void *arena_alloc(Arena *a, size_t n);      /* 16-byte aligned; NULL + MemoryError */
RT_HIDDEN void arena_free(Arena *a);

/* A compiled chunk: the tree and the source it came from (kept for error messages). */
typedef struct Chunk {
  Arena arena;
  bool resolved;       /* resolve_chunk has run on it */
  Node *root;          /* N_BLOCK */
  char *source;        /* arena copy of the source text */
  size_t source_len;
  const char *name;    /* arena copy of the chunk name */
} Chunk;

/* Result of parsing. */
typedef enum { PARSE_OK, PARSE_INCOMPLETE, PARSE_ERROR } ParseResult;

/* Lexes and parses src (len bytes; may contain NULs, which are a SyntaxError) as a whole
   module named `name`.  On PARSE_OK, *out is a new chunk (free with chunk_free).  On
   PARSE_ERROR the SyntaxError (or IndentationError, TabError) is recorded in c with
   err_line and err_col set (1-based); on PARSE_INCOMPLETE (the input ended inside a bracket,
   an indented block, a string with triple quotes or after a backslash, or a compound
   statement header with no body yet) a SyntaxError "unexpected EOF while parsing" is
   recorded too, so callers that do not care can treat it as an error.  Nesting deeper than
   200 brackets/blocks is SyntaxError "too many nested parentheses". */
RT_HIDDEN ParseResult parse_chunk(Ctx *c, const char *src, size_t len, const char *name,
                                  Chunk **out, int *err_line, int *err_col);
RT_HIDDEN void chunk_free(Ctx *c, Chunk *ch);

/* ADDED (front end): parse_chunk with flags.  PARSE_INTERACTIVE is for the REPL (tsr_check):
   the input is also PARSE_INCOMPLETE when its last statement is inside an indented block and
   the input does not end with a blank line ("for i in x:\n    f(i)\n" needs one more
   "\n"), as Python's interactive prompt waits for an empty line.  parse_chunk(...) is
   parse_chunk_ex(..., 0, ...). */
enum { PARSE_INTERACTIVE = 1 };
RT_HIDDEN ParseResult parse_chunk_ex(Ctx *c, const char *src, size_t len, const char *name,
                                     unsigned flags, Chunk **out, int *err_line, int *err_col);

/* Writes the tree of ch as Python 3.11's `ast.dump(ast.parse(source))` would print it
   (annotate_fields, no attributes) into b: the differential AST test compares the two.  String
   constants are written with \x/\u/\U escapes for every non-ASCII or non-printable character,
   floats with 17 significant digits and big ints as written, so the text evaluates (with the
   `ast` module's names) to the same tree even where Python's repr would differ.  With
   positions, statements and expressions carry lineno and col_offset (0-based, counted in
   characters where Python counts UTF-8 bytes).  Returns 0, or -1 with RecursionError or
   MemoryError in c. */
RT_HIDDEN int ast_dump(Ctx *c, const Chunk *ch, Buf *b, bool positions);

/* Name of a node kind / operator symbol ("+", "<=", "not in"), for messages. */
RT_HIDDEN const char *ast_kind_name(int kind);
RT_HIDDEN const char *ast_op_symbol(int op);

#endif
