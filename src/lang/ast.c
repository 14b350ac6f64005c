/*
** ast.c -- the syntax tree of a chunk: the arena it lives in, the constructors that the
** grammar's actions call (they decode literals, check assignment targets and argument order,
** and set every node's position), and the names of kinds and operators for messages.
*/
#include "parser_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------
** The arena.
*/
struct ArenaBlock {
  ArenaBlock *next;
  size_t size;                        /* bytes of data */
  _Alignas(16) unsigned char data[];
};

void arena_init(Arena *a, Ctx *c) {
  a->ctx = c;
  a->head = NULL;
  a->used_in_head = 0;
  a->total = 0;
}

/* Returns n bytes (16-byte aligned, uninitialised) that live until arena_free, or NULL with
   MemoryError recorded in the arena's Ctx. */
void *arena_alloc(Arena *a, size_t n) {
  if (n > SIZE_MAX / 2) { ERR_MEMORY(a->ctx, "Unable to allocate %zu bytes", n); return NULL; }
  n = (n + 15) & ~(size_t)15;
  if (a->head && a->head->size - a->used_in_head >= n) {
    void *p = a->head->data + a->used_in_head;
    a->used_in_head += n;
    return p;
  }
  size_t size = a->total < 8192 ? 4096 : a->total < 262144 ? 32768 : 262144;
  if (size < n) size = n;
  ArenaBlock *b = ctx_malloc(a->ctx, sizeof(ArenaBlock) + size);
  if (!b) return NULL;
  b->size = size;
  b->next = a->head;
  a->head = b;
  a->used_in_head = n;
  a->total += size;
  return b->data;
}

void arena_free(Arena *a) {
  ArenaBlock *b = a->head;
  while (b) {
    ArenaBlock *next = b->next;
    ctx_free(a->ctx, b, sizeof(ArenaBlock) + b->size);
    b = next;
  }
  a->head = NULL;
  a->used_in_head = 0;
  a->total = 0;
}

void chunk_free(Ctx *c, Chunk *ch) {
  if (!ch) return;
  arena_free(&ch->arena);
  ctx_free(c, ch, sizeof *ch);
}

/* ------------------------------------------------------------------------------------------
** Names for messages.
*/
#define X_NAME(k) #k,
static const char *const kind_names[] = {AST_KINDS(X_NAME)};
#undef X_NAME
_Static_assert(sizeof kind_names / sizeof kind_names[0] == N_COUNT, "one name per kind");

const char *ast_kind_name(int kind) {
  return kind >= 0 && kind < N_COUNT ? kind_names[kind] + 2 : "?";
}

static const char *const op_symbols[] = {
  "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^",
  "-", "+", "~", "not",
  "<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not",
};
_Static_assert(sizeof op_symbols / sizeof op_symbols[0] == OP_COUNT, "one symbol per op");

const char *ast_op_symbol(int op) { return op >= 0 && op < OP_COUNT ? op_symbols[op] : "?"; }

/* ------------------------------------------------------------------------------------------
** Helpers.
*/

/* A fresh zeroed node at line/col, or NULL (MemoryError, or an earlier error). */
static Node *node(Parser *P, int kind, int line, int col) {
  if (P->failed) return NULL;
  Node *x = arena_alloc(&P->ch->arena, sizeof *x);
  if (!x) { P->failed = true; return NULL; }
  memset(x, 0, sizeof *x);
  x->kind = (uint8_t)kind;
  x->line = line;
  x->col = col;
  return x;
}

/* Node at the position of the first token of expression e (its '(' when parenthesised). */
static Node *node_at(Parser *P, int kind, const Node *e) {
  return e->paren ? node(P, kind, e->paren_line, e->paren_col) : node(P, kind, e->line, e->col);
}

/* Arena copy of s[0..n) with a terminating NUL; NULL on MemoryError. */
static char *copy_str(Parser *P, const char *s, size_t n) {
  char *p = arena_alloc(&P->ch->arena, n + 1);
  if (!p) { P->failed = true; return NULL; }
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

static Node *named(Parser *P, int kind, Token t) {
  Node *x = node(P, kind, t.line, t.col);
  if (!x) return NULL;
  x->str = copy_str(P, t.z, (size_t)t.n);
  x->len = (size_t)t.n;
  return x->str ? x : NULL;
}

/* Records a SyntaxError at node x (its own position, inside any parentheses, as Python). */
static void err_at(Parser *P, const Node *x, const char *fmt, const char *arg) {
  parse_error(P, x->line, x->col, "SyntaxError", fmt, arg);
}

/* ------------------------------------------------------------------------------------------
** Lists.
*/
NodeList ast_list_empty(Parser *P) {
  (void)P;
  NodeList l;
  memset(&l, 0, sizeof l);
  return l;
}

NodeList ast_list_new(Parser *P, Node *x) { return ast_list_add(P, ast_list_empty(P), x); }

NodeList ast_list_add(Parser *P, NodeList l, Node *x) {
  if (P->failed || !x) return l;
  x->next = NULL;
  if (l.tail) l.tail->next = x;
  else l.head = x;
  l.tail = x;
  l.n++;
  return l;
}

NodeList ast_list_cat(Parser *P, NodeList l, NodeList m) {
  if (P->failed || !m.head) return l;
  if (!l.head) return m;
  l.tail->next = m.head;
  l.tail = m.tail;
  l.n += m.n;
  return l;
}

NodeList ast_list_comma(Parser *P, NodeList l) {
  (void)P;
  l.comma = 1;
  return l;
}

/* Appends call argument x, checking Python's order rules: no positional argument after a
   keyword one, no keyword twice. */
NodeList ast_arg_add(Parser *P, NodeList l, Node *x) {
  if (P->failed || !x) return l;
  if (x->kind == N_KWARG) {
    for (Node *y = l.head; y; y = y->next)
      if (y->kind == N_KWARG && y->len == x->len && memcmp(y->str, x->str, x->len) == 0) {
        err_at(P, x, "keyword argument repeated: %s", x->str);
        return l;
      }
    l.kw = 1;
  } else if (l.kw) {
    err_at(P, x, "%s", "positional argument follows keyword argument");
    return l;
  }
  return ast_list_add(P, l, x);
}

/* Appends parameter x: no parameter without a default after one with, no name twice. */
NodeList ast_param_add(Parser *P, NodeList l, Node *x) {
  if (P->failed || !x) return l;
  for (Node *y = l.head; y; y = y->next)
    if (y->len == x->len && memcmp(y->str, x->str, x->len) == 0) {
      err_at(P, x, "duplicate argument '%s' in function definition", x->str);
      return l;
    }
  if (x->a) l.kw = 1;
  else if (l.kw) {
    err_at(P, x, "%s", "non-default argument follows default argument");
    return l;
  }
  return ast_list_add(P, l, x);
}

/* ------------------------------------------------------------------------------------------
** Literals and atoms.
*/
Node *ast_name(Parser *P, Token t) { return named(P, N_NAME, t); }

Node *ast_const(Parser *P, int kind, Token t) { return node(P, kind, t.line, t.col); }

/* An int literal (decimal, 0x, 0o, 0b, with underscores).  Values above 2**63-1 are a
   SyntaxError: tsr's int is 64-bit. */
Node *ast_int(Parser *P, Token t) {
  Node *x = node(P, N_INT, t.line, t.col);
  if (!x) return NULL;
  const char *s = t.z, *e = t.z + t.n;
  unsigned base = 10;
  if (t.n > 1 && s[0] == '0' && strchr("xXoObB", s[1])) {
    char k = (char)(s[1] | 0x20);
    base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
    s += 2;
  }
  uint64_t v = 0;
  for (; s < e; s++) {
    unsigned d;
    if (*s == '_') continue;
    if (*s >= '0' && *s <= '9') d = (unsigned)(*s - '0');
    else d = (unsigned)((*s | 0x20) - 'a' + 10);
    if (v > ((uint64_t)INT64_MAX - d) / base) {
      parse_error(P, t.line, t.col, "SyntaxError", "integer literal too large");
      return NULL;
    }
    v = v * base + d;
  }
  x->ival = (int64_t)v;
  return x;
}

/* A float literal ("1.", ".5", "1e-3", "1_000.5"); strtod after removing underscores. */
Node *ast_float(Parser *P, Token t) {
  Node *x = node(P, N_FLOAT, t.line, t.col);
  if (!x) return NULL;
  char *buf = arena_alloc(&P->ch->arena, (size_t)t.n + 1);
  if (!buf) { P->failed = true; return NULL; }
  size_t k = 0;
  for (int i = 0; i < t.n; i++)
    if (t.z[i] != '_') buf[k++] = t.z[i];
  buf[k] = 0;
  x->fval = strtod(buf, NULL);
  return x;
}

static int hexval(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  ch = (char)(ch | 0x20);
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) { o[0] = (char)cp; return 1; }
  if (cp < 0x800) { o[0] = (char)(0xC0 | (cp >> 6)); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Decodes the string token t (prefix, quotes, escapes) into out, which has room for t.n
   bytes; returns the decoded length, or -1 with a SyntaxError recorded (bad \x, \u, \U, \N
   escapes, as Python's "(unicode error)"). */
static long decode_string(Parser *P, Token t, char *out) {
  const char *s = t.z, *e = t.z + t.n;
  bool raw = false;
  while (*s != '\'' && *s != '"') {
    if ((*s | 0x20) == 'r') raw = true;
    s++;
  }
  char q = *s;
  size_t qn = (e - s >= 6 && s[1] == q && s[2] == q) ? 3 : 1;
  s += qn;
  e -= qn;
  const char *body = s;
  size_t n = 0;
  while (s < e) {
    if (*s != '\\') { out[n++] = *s++; continue; }
    if (raw) {                                  /* a raw string keeps the backslash */
      out[n++] = *s++;
      if (s < e) out[n++] = *s++;
      continue;
    }
    const char *esc = s;
    s++;
    char ch = *s++;
    int digits = 0;
    switch (ch) {
      case '\n': break;
      case '\r': if (s < e && *s == '\n') s++; break;
      case '\\': out[n++] = '\\'; break;
      case '\'': out[n++] = '\''; break;
      case '"': out[n++] = '"'; break;
      case 'a': out[n++] = '\a'; break;
      case 'b': out[n++] = '\b'; break;
      case 'f': out[n++] = '\f'; break;
      case 'n': out[n++] = '\n'; break;
      case 'r': out[n++] = '\r'; break;
      case 't': out[n++] = '\t'; break;
      case 'v': out[n++] = '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
        uint32_t v = (uint32_t)(ch - '0');
        for (int i = 0; i < 2 && s < e && *s >= '0' && *s <= '7'; i++) v = v * 8 + (uint32_t)(*s++ - '0');
        n += put_utf8(out + n, v);
        break;
      }
      case 'x': digits = 2; break;
      case 'u': digits = 4; break;
      case 'U': digits = 8; break;
      case 'N':
        parse_error(P, t.line, t.col, "SyntaxError", "\\N{...} escapes are not supported by tsr");
        return -1;
      default:                                  /* unknown escapes stay as written */
        out[n++] = '\\';
        out[n++] = ch;
        break;
    }
    if (digits) {
      uint32_t v = 0;
      int got = 0;
      while (got < digits && s < e && hexval(*s) >= 0) { v = v * 16 + (uint32_t)hexval(*s++); got++; }
      long pos = (long)(esc - body);
      if (got < digits) {
        parse_error(P, t.line, t.col, "SyntaxError",
                    "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                    "%ld-%ld: truncated %s escape", pos, pos + 1 + got,
                    ch == 'x' ? "\\xXX" : ch == 'u' ? "\\uXXXX" : "\\UXXXXXXXX");
        return -1;
      }
      if (v > 0x10FFFF) {
        parse_error(P, t.line, t.col, "SyntaxError",
                    "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                    "%ld-%ld: illegal Unicode character", pos, pos + 9);
        return -1;
      }
      n += put_utf8(out + n, v);
    }
  }
  return (long)n;
}

Node *ast_str(Parser *P, Token t) {
  Node *x = node(P, N_STR, t.line, t.col);
  if (!x) return NULL;
  char *buf = arena_alloc(&P->ch->arena, (size_t)t.n + 1);
  if (!buf) { P->failed = true; return NULL; }
  long n = decode_string(P, t, buf);
  if (n < 0) return NULL;
  buf[n] = 0;
  x->str = buf;
  x->len = (size_t)n;
  return x;
}

/* Adjacent string literals are one constant: "ab" "cd" == "abcd". */
Node *ast_str_cat(Parser *P, Node *s, Token t) {
  if (P->failed || !s) return NULL;
  char *buf = arena_alloc(&P->ch->arena, s->len + (size_t)t.n + 1);
  if (!buf) { P->failed = true; return NULL; }
  memcpy(buf, s->str, s->len);
  long n = decode_string(P, t, buf + s->len);
  if (n < 0) return NULL;
  s->len += (size_t)n;
  buf[s->len] = 0;
  s->str = buf;
  return s;
}

/* A comma-separated list: its only item when there is one and no comma, else a tuple
   starting at its first item. */
Node *ast_testlist(Parser *P, NodeList l) {
  if (P->failed || !l.head) return NULL;
  if (l.n == 1 && !l.comma) return l.head;
  Node *x = node_at(P, N_TUPLE, l.head);
  if (!x) return NULL;
  x->a = l.head;
  x->n = l.n;
  return x;
}

/* A bracketed display: `()` or `[a, b]`, at its opening bracket. */
Node *ast_seq(Parser *P, int kind, Token open, NodeList l) {
  Node *x = node(P, kind, open.line, open.col);
  if (!x) return NULL;
  x->a = l.head;
  x->n = l.n;
  return x;
}

/* `( x )`: marks x parenthesised (which stops comparison chaining and makes enclosing nodes
   start at the '('); a tuple written in parentheses starts at its '(' itself. */
Node *ast_paren(Parser *P, Token open, Node *x) {
  if (P->failed || !x) return NULL;
  if (x->kind == N_TUPLE && !x->paren) { x->line = open.line; x->col = open.col; }
  x->paren = 1;
  x->paren_line = open.line;
  x->paren_col = open.col;
  return x;
}

/* ------------------------------------------------------------------------------------------
** Operators.
*/
Node *ast_binop(Parser *P, int op, Node *x, Node *y) {
  if (P->failed || !x || !y) return NULL;
  Node *r = node_at(P, N_BINOP, x);
  if (!r) return NULL;
  r->op = (uint8_t)op;
  r->a = x;
  r->b = y;
  return r;
}

Node *ast_unary(Parser *P, Token t, int op, Node *x) {
  if (P->failed || !x) return NULL;
  Node *r = node(P, N_UNARY, t.line, t.col);
  if (!r) return NULL;
  r->op = (uint8_t)op;
  r->a = x;
  return r;
}

Node *ast_bool(Parser *P, int kind, Node *x, Node *y) {
  if (P->failed || !x || !y) return NULL;
  Node *r = node_at(P, kind, x);
  if (!r) return NULL;
  r->a = x;
  r->b = y;
  return r;
}

Node *ast_cmpitem(Parser *P, int op, Node *y) {
  if (P->failed || !y) return NULL;
  Node *r = node_at(P, N_CMPITEM, y);
  if (!r) return NULL;
  r->op = (uint8_t)op;
  r->a = y;
  return r;
}

/* `x op1 y op2 z ...`: one N_COMPARE whatever the length of the chain. */
Node *ast_compare(Parser *P, Node *x, NodeList items) {
  if (P->failed || !x || !items.head) return NULL;
  Node *r = node_at(P, N_COMPARE, x);
  if (!r) return NULL;
  r->a = x;
  r->b = items.head;
  r->n = items.n;
  return r;
}

Node *ast_ifexp(Parser *P, Node *x, Node *cond, Node *y) {
  if (P->failed || !x || !cond || !y) return NULL;
  Node *r = node_at(P, N_IFEXP, x);
  if (!r) return NULL;
  r->a = x;
  r->b = cond;
  r->c = y;
  return r;
}

/* ------------------------------------------------------------------------------------------
** Primaries.
*/
Node *ast_attr(Parser *P, Node *x, Token name) {
  if (P->failed || !x) return NULL;
  Node *r = node_at(P, N_ATTR, x);
  if (!r) return NULL;
  r->a = x;
  r->str = copy_str(P, name.z, (size_t)name.n);
  r->len = (size_t)name.n;
  return r->str ? r : NULL;
}

Node *ast_call(Parser *P, Node *f, NodeList args) {
  if (P->failed || !f) return NULL;
  Node *r = node_at(P, N_CALL, f);
  if (!r) return NULL;
  r->a = f;
  r->b = args.head;
  r->n = args.n;
  return r;
}

Node *ast_kwarg(Parser *P, Token name, Node *x) {
  if (P->failed || !x) return NULL;
  Node *r = named(P, N_KWARG, name);
  if (!r) return NULL;
  r->a = x;
  return r;
}

Node *ast_subscript(Parser *P, Node *x, Node *index) {
  if (P->failed || !x || !index) return NULL;
  Node *r = node_at(P, N_SUBSCRIPT, x);
  if (!r) return NULL;
  r->a = x;
  r->b = index;
  return r;
}

Node *ast_slice(Parser *P, Token colon, Node *start, Node *stop, Node *step) {
  if (P->failed) return NULL;
  Node *r = start ? node_at(P, N_SLICE, start) : node(P, N_SLICE, colon.line, colon.col);
  if (!r) return NULL;
  r->a = start;
  r->b = stop;
  r->c = step;
  return r;
}

/* ------------------------------------------------------------------------------------------
** Statements.
*/

/* What Python calls expression e in "cannot assign to ..." messages. */
static const char *expr_name(const Node *e) {
  switch (e->kind) {
    case N_CALL: return "function call";
    case N_COMPARE: return "comparison";
    case N_IFEXP: return "conditional expression";
    case N_INT: case N_FLOAT: case N_STR: return "literal";
    case N_TRUE: return "True";
    case N_FALSE: return "False";
    case N_NONE: return "None";
    case N_ELLIPSIS: return "ellipsis";
    case N_TUPLE: return "tuple";
    case N_LIST: return "list";
    case N_NAME: return "name";
    case N_ATTR: return "attribute";
    case N_SUBSCRIPT: return "subscript";
    case N_SLICE: return "slice";
    default: return "expression";
  }
}

/* The first part of target e that cannot be assigned to (or deleted), or NULL. */
static const Node *invalid_target(const Node *e) {
  switch (e->kind) {
    case N_NAME: case N_ATTR: case N_SUBSCRIPT: return NULL;
    case N_TUPLE: case N_LIST:
      for (const Node *x = e->a; x; x = x->next) {
        const Node *bad = invalid_target(x);
        if (bad) return bad;
      }
      return NULL;
    default: return e;
  }
}

/* Whether Python 3.11 says "... here. Maybe you meant '==' instead of '='?" for an invalid
   single target: when it is an operand-level expression written where `a = b` might have
   been meant as a comparison. */
static bool maybe_comparison(const Node *bad) {
  switch (bad->kind) {
    case N_LIST: case N_TUPLE: case N_TRUE: case N_FALSE: case N_NONE: case N_COMPARE:
    case N_AND: case N_OR: case N_IFEXP:
      return false;
    case N_UNARY: return bad->op != OP_NOT || bad->paren;
    default: return true;
  }
}

Node *ast_expr_stmt(Parser *P, Node *e) {
  if (P->failed || !e) return NULL;
  Node *r = node_at(P, N_EXPR, e);
  if (!r) return NULL;
  r->a = e;
  return r;
}

Node *ast_assign(Parser *P, NodeList targets, Node *value) {
  if (P->failed || !targets.head || !value) return NULL;
  for (Node *t = targets.head; t; t = t->next) {
    const Node *bad = invalid_target(t);
    if (!bad) continue;
    bool direct = bad == t;
    if (t->kind == N_TUPLE && !t->paren)
      for (const Node *x = t->a; x; x = x->next) direct |= x == bad;
    if (targets.n == 1 && direct && maybe_comparison(bad))
      err_at(P, bad, "cannot assign to %s here. Maybe you meant '==' instead of '='?",
             expr_name(bad));
    else
      err_at(P, bad, "cannot assign to %s", expr_name(bad));
    return NULL;
  }
  Node *r = node_at(P, N_ASSIGN, targets.head);
  if (!r) return NULL;
  r->a = targets.head;
  r->n = targets.n;
  r->b = value;
  return r;
}

Node *ast_augassign(Parser *P, Node *target, int op, Node *value) {
  if (P->failed || !target || !value) return NULL;
  if (target->kind != N_NAME && target->kind != N_ATTR && target->kind != N_SUBSCRIPT) {
    err_at(P, target, "'%s' is an illegal expression for augmented assignment",
           expr_name(target));
    return NULL;
  }
  Node *r = node_at(P, N_AUGASSIGN, target);
  if (!r) return NULL;
  r->op = (uint8_t)op;
  r->a = target;
  r->b = value;
  return r;
}

Node *ast_simple(Parser *P, int kind, Token t) { return node(P, kind, t.line, t.col); }

Node *ast_return(Parser *P, Token t, Node *value) {
  Node *r = node(P, N_RETURN, t.line, t.col);
  if (r) r->a = value;
  return r;
}

Node *ast_global(Parser *P, Token t, NodeList names) {
  Node *r = node(P, N_GLOBAL, t.line, t.col);
  if (!r) return NULL;
  r->a = names.head;
  r->n = names.n;
  return r;
}

Node *ast_assert(Parser *P, Token t, Node *test, Node *msg) {
  if (P->failed || !test) return NULL;
  Node *r = node(P, N_ASSERT, t.line, t.col);
  if (!r) return NULL;
  r->a = test;
  r->b = msg;
  return r;
}

Node *ast_del(Parser *P, Token t, NodeList targets) {
  if (P->failed || !targets.head) return NULL;
  for (Node *x = targets.head; x; x = x->next) {
    const Node *bad = invalid_target(x);
    if (bad) { err_at(P, bad, "cannot delete %s", expr_name(bad)); return NULL; }
  }
  Node *r = node(P, N_DEL, t.line, t.col);
  if (!r) return NULL;
  r->a = targets.head;
  r->n = targets.n;
  return r;
}

/* `a.b.c` in an import: one N_NAME whose str is the dotted path. */
Node *ast_dotted(Parser *P, Node *left, Token name) {
  if (P->failed || !left) return NULL;
  char *s = arena_alloc(&P->ch->arena, left->len + 1 + (size_t)name.n + 1);
  if (!s) { P->failed = true; return NULL; }
  memcpy(s, left->str, left->len);
  s[left->len] = '.';
  memcpy(s + left->len + 1, name.z, (size_t)name.n);
  left->len += 1 + (size_t)name.n;
  s[left->len] = 0;
  left->str = s;
  return left;
}

Node *ast_import(Parser *P, Token t, Node *module, Node *alias) {
  if (P->failed || !module) return NULL;
  Node *r = node(P, N_IMPORT, t.line, t.col);
  if (!r) return NULL;
  r->str = module->str;
  r->len = module->len;
  r->a = alias;
  return r;
}

Node *ast_import_name(Parser *P, Token name, Node *alias) {
  Node *r = named(P, N_NAME, name);
  if (r) r->a = alias;
  return r;
}

Node *ast_from_import(Parser *P, Token t, Node *module, NodeList names) {
  if (P->failed || !module) return NULL;
  Node *r = node(P, N_FROMIMPORT, t.line, t.col);
  if (!r) return NULL;
  r->str = module->str;
  r->len = module->len;
  r->a = names.head;
  r->n = names.n;
  return r;
}

Node *ast_if(Parser *P, Token t, Node *cond, Node *body, Node *orelse) {
  if (P->failed || !cond || !body) return NULL;
  Node *r = node(P, N_IF, t.line, t.col);
  if (!r) return NULL;
  r->a = cond;
  r->b = body;
  r->c = orelse;
  return r;
}

Node *ast_while(Parser *P, Token t, Node *cond, Node *body) {
  if (P->failed || !cond || !body) return NULL;
  Node *r = node(P, N_WHILE, t.line, t.col);
  if (!r) return NULL;
  r->a = cond;
  r->b = body;
  return r;
}

Node *ast_for(Parser *P, Token t, Node *target, Node *iter, Node *body) {
  if (P->failed || !target || !iter || !body) return NULL;
  const Node *bad = invalid_target(target);
  if (bad) { err_at(P, bad, "cannot assign to %s", expr_name(bad)); return NULL; }
  Node *r = node(P, N_FOR, t.line, t.col);
  if (!r) return NULL;
  r->a = target;
  r->b = iter;
  r->c = body;
  return r;
}

Node *ast_def(Parser *P, Token t, Token name, NodeList params, Node *body) {
  if (P->failed || !body) return NULL;
  Node *r = node(P, N_DEF, t.line, t.col);
  if (!r) return NULL;
  r->str = copy_str(P, name.z, (size_t)name.n);
  r->len = (size_t)name.n;
  r->a = params.head;
  r->n = params.n;
  r->b = body;
  return r->str ? r : NULL;
}

Node *ast_param(Parser *P, Token name, Node *dflt) {
  Node *r = named(P, N_PARAM, name);
  if (r) r->a = dflt;
  return r;
}

/* A statement list; the block starts at its first statement. */
Node *ast_block(Parser *P, NodeList stmts) {
  if (P->failed) return NULL;
  Node *r = stmts.head ? node(P, N_BLOCK, stmts.head->line, stmts.head->col) : node(P, N_BLOCK, 1, 1);
  if (!r) return NULL;
  r->a = stmts.head;
  r->n = stmts.n;
  return r;
}

void ast_chunk(Parser *P, NodeList stmts) { P->root = ast_block(P, stmts); }
