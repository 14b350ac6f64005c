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

/* A set of names for the duplicate checks (parameters, keyword arguments): open addressing
   over the arena-free Ctx heap, so that 100 000 names cost linear time.  Lists of up to
   NAMESET_SMALL names are compared pairwise without allocating. */
#define NAMESET_SMALL 8
typedef struct NameSet { Ctx *c; const Node **slot; size_t cap; } NameSet;

static uint64_t name_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

/* Prepares set for n names; false (MemoryError, P failed) if it cannot. */
static bool nameset_init(Parser *P, NameSet *set, int n) {
  set->c = P->c;
  set->slot = NULL;
  set->cap = 0;
  if (n <= NAMESET_SMALL) return true;
  size_t cap = 16;
  while (cap < (size_t)n * 2) cap *= 2;
  set->slot = ctx_malloc(P->c, cap * sizeof *set->slot);
  if (!set->slot) { P->failed = true; return false; }
  memset((void *)set->slot, 0, cap * sizeof *set->slot);
  set->cap = cap;
  return true;
}

static void nameset_free(NameSet *set) {
  if (set->slot) ctx_free(set->c, (void *)set->slot, set->cap * sizeof *set->slot);
}

static bool same_name(const Node *x, const Node *y) {
  return x->len == y->len && memcmp(x->str, y->str, x->len) == 0;
}

/* Adds x (its str,len); true if an equal name was there.  first is the list's head, for
   the small case (the names before x in the list). */
static bool nameset_seen(NameSet *set, const Node *first, const Node *x) {
  if (!set->slot) {
    for (const Node *y = first; y && y != x; y = y->next)
      if (y->kind == x->kind && y->str && same_name(x, y)) return true;
    return false;
  }
  size_t i = name_hash(x->str, x->len) & (set->cap - 1);
  while (set->slot[i]) {
    if (same_name(set->slot[i], x)) return true;
    i = (i + 1) & (set->cap - 1);
  }
  set->slot[i] = x;
  return false;
}

/* ------------------------------------------------------------------------------------------
** Literals and atoms.
*/
Node *ast_name(Parser *P, Token t) { return named(P, N_NAME, t); }

Node *ast_const(Parser *P, int kind, Token t) { return node(P, kind, t.line, t.col); }

/* Arena copy of token t's text without underscores ("1_000" -> "1000"), length in *n. */
static char *strip_underscores(Parser *P, Token t, size_t *n) {
  char *buf = arena_alloc(&P->ch->arena, (size_t)t.n + 1);
  if (!buf) { P->failed = true; return NULL; }
  size_t k = 0;
  for (int i = 0; i < t.n; i++)
    if (t.z[i] != '_') buf[k++] = t.z[i];
  buf[k] = 0;
  *n = k;
  return buf;
}

/* An int literal (decimal, 0x, 0o, 0b, with underscores): an N_INT, or an N_BIGINT keeping
   the digits when the value is above 2**63-1. */
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
      x->kind = N_BIGINT;
      x->str = strip_underscores(P, t, &x->len);
      return x->str ? x : NULL;
    }
    v = v * base + d;
  }
  x->ival = (int64_t)v;
  return x;
}

/* A float literal ("1.", ".5", "1e-3", "1_000.5"); strtod after removing underscores. */
Node *ast_float(Parser *P, Token t) {
  Node *x = node(P, N_FLOAT, t.line, t.col);
  size_t n;
  char *buf = x ? strip_underscores(P, t, &n) : NULL;
  if (!buf) return NULL;
  x->fval = strtod(buf, NULL);
  return x;
}

/* An imaginary literal ("1j", "2.5e3J"): its imaginary part. */
Node *ast_imag(Parser *P, Token t) {
  Node *x = node(P, N_IMAG, t.line, t.col);
  size_t n;
  char *buf = x ? strip_underscores(P, t, &n) : NULL;
  if (!buf) return NULL;
  buf[n - 1] = 0;                      /* the j */
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

/* Decodes the body [s, e) of a literal from token t (for error positions) into out, which
   has room for e - s bytes: escapes unless raw; a bytes literal takes \x and octal escapes as
   bytes and has no \u \U \N.  Returns the decoded length, or -1 with a SyntaxError recorded
   (bad \x, \u, \U escapes, as Python's "(unicode error)"; non-ASCII bytes). */
static long decode_body(Parser *P, Token t, const char *s, const char *e, bool raw, bool bytes,
                        char *out) {
  const char *body = s;
  size_t n = 0;
  while (s < e) {
    if (*s != '\\') {
      if (bytes && (unsigned char)*s >= 0x80) {
        parse_error(P, t.line, t.col, "SyntaxError", "bytes can only contain ASCII literal characters");
        return -1;
      }
      out[n++] = *s++;
      continue;
    }
    if (raw || s + 1 >= e) {                    /* a raw string keeps the backslash, as */
      out[n++] = *s++;                          /* does one that ends an f-string's text */
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
        if (bytes) out[n++] = (char)(v & 0xFF);
        else n += put_utf8(out + n, v);
        break;
      }
      case 'x': digits = 2; break;
      case 'u': case 'U': case 'N':
        if (!bytes) {
          if (ch == 'N') {
            parse_error(P, t.line, t.col, "SyntaxError", "\\N{...} escapes are not supported by tsr");
            return -1;
          }
          digits = ch == 'u' ? 4 : 8;
          break;
        }
        out[n++] = '\\';                      /* not an escape in bytes */
        out[n++] = ch;
        break;
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
                    "(unicode error) '%sescape' codec can't decode bytes in position "
                    "%ld-%ld: truncated %s escape", bytes ? "" : "unicode", pos, pos + 1 + got,
                    ch == 'x' ? "\\xXX" : ch == 'u' ? "\\uXXXX" : "\\UXXXXXXXX");
        return -1;
      }
      if (v > 0x10FFFF) {
        parse_error(P, t.line, t.col, "SyntaxError",
                    "(unicode error) 'unicodeescape' codec can't decode bytes in position "
                    "%ld-%ld: illegal Unicode character", pos, pos + 9);
        return -1;
      }
      if (bytes) out[n++] = (char)v;
      else n += put_utf8(out + n, v);
    }
  }
  return (long)n;
}

/* A string or bytes literal token (prefix, quotes, escapes): an N_STR (op = 1 for a u
   prefix) or an N_BYTES. */
Node *ast_str(Parser *P, Token t) {
  Node *x = node(P, N_STR, t.line, t.col);
  if (!x) return NULL;
  const char *s = t.z, *e = t.z + t.n;
  bool raw = false, bytes = false;
  while (*s != '\'' && *s != '"') {
    char k = (char)(*s | 0x20);
    raw |= k == 'r';
    bytes |= k == 'b';
    if (*s == 'u') x->op = 1;             /* Python's kind='u': lowercase only */
    s++;
  }
  char q = *s;
  size_t qn = (e - s >= 6 && s[1] == q && s[2] == q) ? 3 : 1;
  char *buf = arena_alloc(&P->ch->arena, (size_t)t.n + 1);
  if (!buf) { P->failed = true; return NULL; }
  long n = decode_body(P, t, s + qn, e - qn, raw, bytes, buf);
  if (n < 0) return NULL;
  buf[n] = 0;
  if (bytes) x->kind = N_BYTES;
  x->str = buf;
  x->len = (size_t)n;
  return x;
}

/* Literal text of an f-string (FMIDDLE): an N_STR. */
Node *ast_fmiddle(Parser *P, Token t) {
  Node *x = node(P, N_STR, t.line, t.col);
  char *buf = x ? arena_alloc(&P->ch->arena, (size_t)t.n + 1) : NULL;
  if (!buf) { P->failed = true; return NULL; }
  long n = decode_body(P, t, t.z, t.z + t.n, (t.flags & TOKF_RAW) != 0, false, buf);
  if (n < 0) return NULL;
  buf[n] = 0;
  x->str = buf;
  x->len = (size_t)n;
  return x;
}

/* The text of a self-documenting field (`{x = }` gives "x = "), kept as written. */
Node *ast_debug_text(Parser *P, Token t) { return named(P, N_STR, t); }

/* `!r`, `!s` or `!a` right after the expression of a field: the conversion character. */
int ast_conversion(Parser *P, Token bang, Token name) {
  if (P->failed) return -1;
  if (name.n != 1 || !strchr("rsa", name.z[0]) || name.line != bang.line ||
      name.col != bang.col + 1) {
    parse_error(P, name.line, name.col, "SyntaxError",
                "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    return -1;
  }
  return name.z[0];
}

/* A replacement field `{expr=!c:spec}`: an N_FORMATTED whose c holds the debug text until
   ast_fparts_add places it before the field.  With `=` and neither conversion nor spec, the
   conversion is 'r' (as Python). */
Node *ast_formatted(Parser *P, Token t, Node *e, Node *debug, int conv, Node *spec) {
  if (P->failed || !e) return NULL;
  Node *r = node(P, N_FORMATTED, t.line, t.col);
  if (!r) return NULL;
  if (e->kind == N_TUPLE && !e->paren) { e->line = t.line; e->col = t.col; }  /* `{a, b}`: at '{' */
  r->a = e;
  r->b = spec;
  r->c = debug;
  r->op = (uint8_t)(conv > 0 ? conv : debug && !spec ? 'r' : 0);
  return r;
}

NodeList ast_fparts_add(Parser *P, NodeList l, Node *field) {
  if (P->failed || !field) return l;
  if (field->c) { l = ast_list_add(P, l, field->c); field->c = NULL; }
  return ast_list_add(P, l, field);
}

/* The parts of a JoinedStr: adjacent constants joined (one copy per run), empty ones
   dropped.  parts is a list of N_STR and N_FORMATTED nodes; the result starts at line/col. */
static Node *joined(Parser *P, NodeList parts, int line, int col) {
  Node *r = node(P, N_FSTRING, line, col);
  if (!r) return NULL;
  NodeList out = ast_list_empty(P);
  Node *x = parts.head;
  while (x) {
    if (x->kind != N_STR && x->kind != N_BYTES) {
      Node *next = x->next;
      out = ast_list_add(P, out, x);
      x = next;
      continue;
    }
    size_t total = 0;
    Node *y = x;
    for (; y && (y->kind == N_STR || y->kind == N_BYTES); y = y->next) total += y->len;
    if (total) {
      char *buf = arena_alloc(&P->ch->arena, total + 1);
      if (!buf) { P->failed = true; return NULL; }
      size_t k = 0;
      for (Node *z = x; z != y; z = z->next) { memcpy(buf + k, z->str, z->len); k += z->len; }
      buf[k] = 0;
      x->str = buf;
      x->len = total;
      out = ast_list_add(P, out, x);
    }
    x = y;
  }
  r->a = out.head;
  r->n = out.n;
  return r;
}

/* FSTART parts FEND: the f-string as an N_FSTRING (adjacent literals join it in
   ast_strings). */
Node *ast_fstring(Parser *P, Token t, NodeList parts) {
  if (P->failed) return NULL;
  return joined(P, parts, t.line, t.col);
}

/* The format spec of a field: an N_FSTRING of its text and nested fields. */
Node *ast_fspec(Parser *P, Token colon, NodeList parts) {
  if (P->failed) return NULL;
  return joined(P, parts, colon.line, colon.col);
}

/* Adjacent literals (N_STR, N_BYTES, N_FSTRING parts) as one constant or one f-string:
   "a" "b" is "ab", "a" f"{b}" a JoinedStr.  Bytes cannot mix with the others. */
Node *ast_strings(Parser *P, NodeList l) {
  if (P->failed || !l.head) return NULL;
  bool any_bytes = false, any_text = false, any_f = false;
  for (Node *x = l.head; x; x = x->next) {
    any_bytes |= x->kind == N_BYTES;
    any_text |= x->kind != N_BYTES;
    any_f |= x->kind == N_FSTRING;
  }
  if (any_bytes && any_text) {
    err_at(P, l.head, "%s", "cannot mix bytes and nonbytes literals");
    return NULL;
  }
  Node *first = l.head;
  if (l.n == 1) return first;
  if (!any_f) {                        /* one constant: join the runs of text */
    NodeList one = l;
    Node *r = joined(P, one, first->line, first->col);
    if (!r) return NULL;
    Node *c = r->a;
    if (!c) { first->str = ""; first->len = 0; first->next = NULL; return first; }
    c->kind = first->kind;
    c->op = first->op;
    c->line = first->line;
    c->col = first->col;
    return c;
  }
  NodeList parts = ast_list_empty(P);  /* flatten the f-strings' parts */
  for (Node *x = l.head, *next; x; x = next) {
    next = x->next;
    if (x->kind != N_FSTRING) { parts = ast_list_add(P, parts, x); continue; }
    for (Node *y = x->a, *ny; y; y = ny) { ny = y->next; parts = ast_list_add(P, parts, y); }
  }
  return joined(P, parts, first->line, first->col);
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

/* Checks call (or class) arguments in one pass, as CPython 3.11: no positional argument
   after a keyword one or after `**`, no `*` after `**`, no keyword twice (a hash set: linear
   in the number of arguments), a bare generator expression only as the sole argument.
   Returns false with the SyntaxError recorded. */
static bool check_args(Parser *P, NodeList args) {
  bool kw = false, dstar = false, ok = true;
  int nkw = 0;
  for (Node *x = args.head; x; x = x->next) nkw += x->kind == N_KWARG;
  NameSet set;
  if (!nameset_init(P, &set, nkw)) return false;
  for (Node *x = args.head; x && ok; x = x->next) {
    switch (x->kind) {
      case N_KWARG:
        if (nameset_seen(&set, args.head, x)) {
          err_at(P, x, "keyword argument repeated: %s", x->str);
          ok = false;
        }
        kw = true;
        break;
      case N_DSTAR: dstar = true; break;
      case N_STARRED:
        if (dstar) {
          err_at(P, x, "%s", "iterable argument unpacking follows keyword argument unpacking");
          ok = false;
        }
        break;
      default:
        if (x->kind == N_GENEXP && !x->paren && (args.n > 1 || args.comma)) {
          err_at(P, x, "%s", "Generator expression must be parenthesized");
          ok = false;
        } else if (kw || dstar) {
          err_at(P, x, "%s", dstar ? "positional argument follows keyword argument unpacking"
                                   : "positional argument follows keyword argument");
          ok = false;
        }
        break;
    }
  }
  nameset_free(&set);
  return ok;
}

/* f(args): b = the arguments in source order (positional, N_STARRED, N_KWARG, N_DSTAR).  A
   sole generator expression without parentheses of its own starts at the call's '(' (as
   Python's). */
Node *ast_call(Parser *P, Node *f, Token open, NodeList args) {
  if (P->failed || !f || !check_args(P, args)) return NULL;
  if (args.n == 1 && args.head->kind == N_GENEXP && !args.head->paren) {
    args.head->line = open.line;
    args.head->col = open.col;
  }
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
  if (index->kind == N_STARRED) {      /* x[*a] indexes with the tuple (*a,) */
    Node *t = node_at(P, N_TUPLE, index);
    if (!t) return NULL;
    t->a = index;
    t->n = 1;
    index = t;
  }
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
    case N_INT: case N_FLOAT: case N_STR: case N_BIGINT: case N_IMAG: case N_BYTES:
      return "literal";
    case N_FSTRING: return "f-string expression";
    case N_LAMBDA: return "lambda";
    case N_YIELD: case N_YIELDFROM: return "yield expression";
    case N_NAMEDEXPR: return "named expression";
    case N_DICT: return "dict literal";
    case N_SET: return "set display";
    case N_LISTCOMP: return "list comprehension";
    case N_SETCOMP: return "set comprehension";
    case N_DICTCOMP: return "dict comprehension";
    case N_GENEXP: return "generator expression";
    case N_STARRED: return "starred";
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
        const Node *bad = invalid_target(x->kind == N_STARRED ? x->a : x);
        if (bad) return bad;
      }
      return NULL;
    default: return e;
  }
}

/* Python's compile-time checks on the starred items of an assignment target: one star per
   tuple or list, and none outside one.  Returns false with the SyntaxError recorded. */
static bool check_starred_target(Parser *P, const Node *t) {
  if (t->kind == N_STARRED) {
    err_at(P, t, "%s", "starred assignment target must be in a list or tuple");
    return false;
  }
  if (t->kind != N_TUPLE && t->kind != N_LIST) return true;
  int stars = 0;
  for (const Node *x = t->a; x; x = x->next) {
    const Node *y = x;
    if (x->kind == N_STARRED) { stars++; y = x->a; }
    if (stars > 1) { err_at(P, t, "%s", "multiple starred expressions in assignment"); return false; }
    if (!check_starred_target(P, y)) return false;
  }
  return true;
}

/* Whether Python 3.11 says "... here. Maybe you meant '==' instead of '='?" for an invalid
   single target: when it is an operand-level expression written where `a = b` might have
   been meant as a comparison. */
static bool maybe_comparison(const Node *bad) {
  switch (bad->kind) {
    case N_LIST: case N_TUPLE: case N_TRUE: case N_FALSE: case N_NONE: case N_COMPARE:
    case N_AND: case N_OR: case N_IFEXP: case N_LAMBDA: case N_STARRED:
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
    if (t->kind == N_STARRED) return check_starred_target(P, t), NULL;
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
  for (Node *t = targets.head; t; t = t->next)
    if (!check_starred_target(P, t)) return NULL;
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

/* `raise`, `raise e`, `raise e from cause`. */
Node *ast_raise(Parser *P, Token t, Node *exc, Node *cause) {
  Node *r = node(P, N_RAISE, t.line, t.col);
  if (!r) return NULL;
  r->a = exc;
  r->b = cause;
  return r;
}

/* `global a, b` (kind N_GLOBAL) or `nonlocal a, b` (N_NONLOCAL). */
Node *ast_global(Parser *P, int kind, Token t, NodeList names) {
  Node *r = node(P, kind, t.line, t.col);
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
    const Node *bad = x->kind == N_STARRED ? x : invalid_target(x);
    if (!bad && (x->kind == N_TUPLE || x->kind == N_LIST))
      for (const Node *y = x->a; y && !bad; y = y->next) if (y->kind == N_STARRED) bad = y;
    if (bad) { err_at(P, bad, "cannot delete %s", expr_name(bad)); return NULL; }
  }
  Node *r = node(P, N_DEL, t.line, t.col);
  if (!r) return NULL;
  r->a = targets.head;
  r->n = targets.n;
  return r;
}

/* `x: T` or `x: T = v`: one target only (Python's messages), simple when a bare name. */
Node *ast_annassign(Parser *P, Node *target, Node *annotation, Node *value) {
  if (P->failed || !target || !annotation) return NULL;
  if (target->kind == N_TUPLE || target->kind == N_LIST) {
    err_at(P, target, "only single target (not %s) can be annotated",
           target->kind == N_TUPLE ? "tuple" : "list");
    return NULL;
  }
  if (target->kind != N_NAME && target->kind != N_ATTR && target->kind != N_SUBSCRIPT) {
    err_at(P, target, "%s", "illegal target for annotation");
    return NULL;
  }
  Node *r = node_at(P, N_ANNASSIGN, target);
  if (!r) return NULL;
  r->a = target;
  r->b = annotation;
  r->c = value;
  r->op = target->kind == N_NAME && !target->paren;
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

/* `dotted as name` in `import`: the alias in the dotted N_NAME's a. */
Node *ast_alias(Parser *P, Node *dotted, Node *alias) {
  if (P->failed || !dotted || !alias) return NULL;
  dotted->a = alias;
  return dotted;
}

/* `import a.b as c, d`: one N_IMPORT per module, the later ones marked (op = 1) as part of
   the same statement. */
NodeList ast_import_list(Parser *P, Token t, NodeList modules) {
  NodeList l = ast_list_empty(P);
  for (Node *m = modules.head, *next; m && !P->failed; m = next) {
    next = m->next;
    Node *r = node(P, N_IMPORT, t.line, t.col);
    if (!r) break;
    r->str = m->str;
    r->len = m->len;
    r->a = m->a;
    r->op = m != modules.head;
    l = ast_list_add(P, l, r);
  }
  return l;
}

Node *ast_import_name(Parser *P, Token name, Node *alias) {
  Node *r = named(P, N_NAME, name);
  if (r) r->a = alias;
  return r;
}

/* The module of `from ... import`: an N_NAME (str "" when only dots) with ival = level. */
Node *ast_relative(Parser *P, int level, Node *module) {
  if (P->failed) return NULL;
  Node *r = module;
  if (!r) {
    r = node(P, N_NAME, P->prev.line, P->prev.col);
    if (!r) return NULL;
    r->str = "";
  }
  r->ival = level;
  return r;
}

Node *ast_from_import(Parser *P, Token t, Node *module, NodeList names) {
  if (P->failed || !module) return NULL;
  Node *r = node(P, N_FROMIMPORT, t.line, t.col);
  if (!r) return NULL;
  r->str = module->str;
  r->len = module->len;
  r->ival = module->ival;
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

/* One more `if`/`elif` of a chain: chain.head is the outer N_IF, chain.tail the innermost,
   whose else slot takes the new one (so a long elif chain costs linear time and a shallow
   parser stack). */
NodeList ast_elif(Parser *P, NodeList chain, Token t, Node *cond, Node *body) {
  Node *r = ast_if(P, t, cond, body, NULL);
  if (!r) return chain;
  if (!chain.head) chain.head = r;
  else chain.tail->c = r;
  chain.tail = r;
  return chain;
}

Node *ast_if_end(Parser *P, NodeList chain, Node *orelse) {
  if (P->failed || !chain.head) return NULL;
  chain.tail->c = orelse;
  return chain.head;
}

Node *ast_while(Parser *P, Token t, Node *cond, Node *body, Node *orelse) {
  if (P->failed || !cond || !body) return NULL;
  Node *r = node(P, N_WHILE, t.line, t.col);
  if (!r) return NULL;
  r->a = cond;
  r->b = body;
  r->d = orelse;
  return r;
}

/* A `for` loop's or a comprehension's target. */
static bool check_for_target(Parser *P, Node *target) {
  const Node *bad = invalid_target(target);
  if (bad) { err_at(P, bad, "cannot assign to %s", expr_name(bad)); return false; }
  return check_starred_target(P, target);
}

Node *ast_for(Parser *P, Token t, Node *target, Node *iter, Node *body, Node *orelse) {
  if (P->failed || !target || !iter || !body || !check_for_target(P, target)) return NULL;
  Node *r = node(P, N_FOR, t.line, t.col);
  if (!r) return NULL;
  r->a = target;
  r->b = iter;
  r->c = body;
  r->d = orelse;
  return r;
}

/* try: body handlers else finally.  Handlers are all `except` or all `except*`, a bare
   `except:` only last. */
Node *ast_try(Parser *P, Token t, Node *body, NodeList handlers, Node *orelse, Node *final) {
  if (P->failed || !body) return NULL;
  int star = -1;
  for (Node *h = handlers.head; h; h = h->next) {
    if (!h->a && h->next) {
      parse_error(P, h->line, h->col, "SyntaxError", "default 'except:' must be last");
      return NULL;
    }
    if (star >= 0 && star != h->op) {
      parse_error(P, h->line, h->col, "SyntaxError",
                  "cannot have both 'except' and 'except*' on the same 'try'");
      return NULL;
    }
    star = h->op;
  }
  Node *r = node(P, N_TRY, t.line, t.col);
  if (!r) return NULL;
  r->a = body;
  r->b = handlers.head;
  r->n = handlers.n;
  r->c = orelse;
  r->d = final;
  r->op = star == 1;
  return r;
}

Node *ast_except(Parser *P, Token t, int star, Node *type, Node *name, Node *body) {
  if (P->failed || !body) return NULL;
  Node *r = node(P, N_EXCEPT, t.line, t.col);
  if (!r) return NULL;
  r->op = (uint8_t)star;
  r->a = type;
  r->b = body;
  r->c = name;
  return r;
}

/* `x` or `x as target` of a `with`, or inside parentheses (which only a `with` keeps). */
Node *ast_withitem(Parser *P, Node *x, Node *target) {
  if (P->failed || !x) return NULL;
  if (target && !check_for_target(P, target)) return NULL;
  if (!target) return x;
  Node *r = node_at(P, N_WITHITEM, x);
  if (!r) return NULL;
  r->a = x;
  r->b = target;
  return r;
}

/* Wraps a plain context expression as an N_WITHITEM. */
static Node *as_withitem(Parser *P, Node *x) {
  if (!x || x->kind == N_WITHITEM) return x;
  Node *r = node_at(P, N_WITHITEM, x);
  if (r) r->a = x;
  return r;
}

/* `with items: body`.  As Python's grammar: a sole parenthesised list of items with no `as`
   after it, `with (a, b as c):`, is the list of items, not a tuple. */
Node *ast_with(Parser *P, Token t, NodeList items, Node *body) {
  if (P->failed || !items.head || !body) return NULL;
  Node *only = items.head;
  if (items.n == 1 && only->paren && only->kind == N_TUPLE && only->n > 0 &&
      !(only->a->kind == N_STARRED && only->n == 1)) {
    items = ast_list_empty(P);
    for (Node *x = only->a, *next; x; x = next) { next = x->next; items = ast_list_add(P, items, x); }
  }
  NodeList wrapped = ast_list_empty(P);
  for (Node *x = items.head, *next; x; x = next) {
    next = x->next;
    wrapped = ast_list_add(P, wrapped, as_withitem(P, x));
  }
  Node *r = node(P, N_WITH, t.line, t.col);
  if (!r) return NULL;
  for (Node *x = wrapped.head; x; x = x->next) x->paren = 0;   /* consumed by this with */
  r->a = wrapped.head;
  r->n = wrapped.n;
  r->b = body;
  return r;
}

/* A parameter (kind ParamKind), or a `*` / `/` marker that ast_params removes. */
Node *ast_param(Parser *P, Token name, Node *annotation, Node *dflt, int kind) {
  Node *r = kind == PARAM_STAR || kind == PARAM_SLASH ? node(P, N_PARAM, name.line, name.col)
                                                       : named(P, N_PARAM, name);
  if (!r) return NULL;
  r->op = (uint8_t)kind;
  r->a = dflt;
  r->b = annotation;
  return r;
}

/* `*name` or `**name` (at its name, as Python's arg; a default is an error). */
Node *ast_param_star(Parser *P, Token star, Token name, Node *annotation, Node *dflt, int kind) {
  (void)star;
  if (P->failed) return NULL;
  if (dflt) {
    parse_error(P, dflt->line, dflt->col, "SyntaxError", "%s argument cannot have default value",
                kind == PARAM_VARARGS ? "var-positional" : "var-keyword");
    return NULL;
  }
  return ast_param(P, name, annotation, NULL, kind);
}

/* Orders a parsed parameter list as Python does: parameters before `/` are positional-only,
   those after `*` or `*args` keyword-only; the markers go.  Checks CPython 3.11's rules and
   duplicate names (a hash set: linear time).  Returns false with the SyntaxError recorded. */
static bool ast_params(Parser *P, NodeList *params) {
  NodeList out = ast_list_empty(P);
  bool slash = false, star = false, varkw = false, dflt = false;
  Node *bare_star = NULL;
  for (Node *x = params->head, *next; x; x = next) {
    next = x->next;
    if (varkw) { err_at(P, x, "%s", "arguments cannot follow var-keyword argument"); return false; }
    switch (x->op) {
      case PARAM_SLASH:
        if (slash) { err_at(P, x, "%s", "/ may appear only once"); return false; }
        if (star) { err_at(P, x, "%s", "/ must be ahead of *"); return false; }
        if (!out.head) { err_at(P, x, "%s", "at least one argument must precede /"); return false; }
        for (Node *y = out.head; y; y = y->next) y->op = PARAM_POSONLY;
        slash = true;
        continue;
      case PARAM_STAR: case PARAM_VARARGS:
        if (star) {                    /* at the star, before the name of a *args */
          parse_error(P, x->line, x->col - (x->op == PARAM_VARARGS), "SyntaxError", "%s",
                      "* argument may appear only once");
          return false;
        }
        star = true;
        if (x->op == PARAM_STAR) { bare_star = x; continue; }
        break;
      case PARAM_VARKW:
        if (bare_star) { err_at(P, bare_star, "%s", "named arguments must follow bare *"); return false; }
        varkw = true;
        break;
      default:
        if (star) { x->op = PARAM_KWONLY; bare_star = NULL; break; }
        if (x->a) dflt = true;
        else if (dflt) {
          err_at(P, x, "%s", "non-default argument follows default argument");
          return false;
        }
        break;
    }
    out = ast_list_add(P, out, x);
  }
  if (bare_star) { err_at(P, bare_star, "%s", "named arguments must follow bare *"); return false; }
  NameSet set;
  if (!nameset_init(P, &set, out.n)) return false;
  bool ok = true;
  for (Node *x = out.head; x && ok; x = x->next)
    if (nameset_seen(&set, out.head, x)) {
      err_at(P, x, "duplicate argument '%s' in function definition", x->str);
      ok = false;
    }
  nameset_free(&set);
  *params = out;
  return ok;
}

Node *ast_def(Parser *P, Token t, Token name, NodeList params, Node *returns, Node *body) {
  if (P->failed || !body || !ast_params(P, &params)) return NULL;
  Node *r = node(P, N_DEF, t.line, t.col);
  if (!r) return NULL;
  r->str = copy_str(P, name.z, (size_t)name.n);
  r->len = (size_t)name.n;
  r->a = params.head;
  r->n = params.n;
  r->b = body;
  r->d = returns;
  return r->str ? r : NULL;
}

Node *ast_lambda(Parser *P, Token t, NodeList params, Node *body) {
  if (P->failed || !body || !ast_params(P, &params)) return NULL;
  Node *r = node(P, N_LAMBDA, t.line, t.col);
  if (!r) return NULL;
  r->a = params.head;
  r->n = params.n;
  r->b = body;
  return r;
}

Node *ast_class(Parser *P, Token t, Token name, NodeList args, Node *body) {
  if (P->failed || !body || !check_args(P, args)) return NULL;
  for (Node *x = args.head; x; x = x->next)
    if (x->kind == N_GENEXP && !x->paren) {      /* class A(x for x in y) */
      parse_error(P, x->b->line, x->b->col, "SyntaxError", "invalid syntax");
      return NULL;
    }
  Node *r = named(P, N_CLASS, name);
  if (!r) return NULL;
  r->line = t.line;
  r->col = t.col;
  r->a = args.head;
  r->n = args.n;
  r->b = body;
  return r;
}

/* Decorators on a def or class: their list in its c. */
Node *ast_decorate(Parser *P, NodeList decorators, Node *def) {
  if (P->failed || !def) return NULL;
  def->c = decorators.head;
  return def;
}

/* ------------------------------------------------------------------------------------------
** Expressions added with the whole grammar.
*/
Node *ast_starred(Parser *P, Token t, Node *x) {
  if (P->failed || !x) return NULL;
  Node *r = node(P, N_STARRED, t.line, t.col);
  if (r) r->a = x;
  return r;
}

Node *ast_dstar(Parser *P, Token t, Node *x) {
  if (P->failed || !x) return NULL;
  Node *r = node(P, N_DSTAR, t.line, t.col);
  if (r) r->a = x;
  return r;
}

Node *ast_namedexpr(Parser *P, Node *name, Node *value) {
  if (P->failed || !name || !value) return NULL;
  Node *r = node_at(P, N_NAMEDEXPR, name);
  if (!r) return NULL;
  r->a = name;
  r->b = value;
  return r;
}

Node *ast_yield(Parser *P, Token t, int kind, Node *value) {
  if (P->failed) return NULL;
  Node *r = node(P, kind, t.line, t.col);
  if (r) r->a = value;
  return r;
}

Node *ast_dictitem(Parser *P, Node *key, Node *value) {
  if (P->failed || !key || !value) return NULL;
  Node *r = node_at(P, N_DICTITEM, key);
  if (!r) return NULL;
  r->a = key;
  r->b = value;
  return r;
}

/* One `for target in iter if c1 if c2` of a comprehension. */
Node *ast_compfor(Parser *P, Token t, Node *target, Node *iter, NodeList conds) {
  if (P->failed || !target || !iter || !check_for_target(P, target)) return NULL;
  Node *r = node(P, N_COMPFOR, t.line, t.col);
  if (!r) return NULL;
  r->a = target;
  r->b = iter;
  r->c = conds.head;
  r->n = conds.n;
  return r;
}

/* A comprehension of `kind` at its bracket (open), or, for a generator expression that is
   a call's argument without parentheses of its own (open NULL), at its element. */
Node *ast_comp(Parser *P, int kind, const Token *open, Node *elt, NodeList fors) {
  if (P->failed || !elt || !fors.head) return NULL;
  Node *r = open ? node(P, kind, open->line, open->col) : node_at(P, kind, elt);
  if (!r) return NULL;
  r->a = elt;
  r->b = fors.head;
  r->n = fors.n;
  r->paren = open != NULL;
  if (open) { r->paren_line = open->line; r->paren_col = open->col; }
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
