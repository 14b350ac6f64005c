/*
** parse.c -- the parser driver: runs the lexer and feeds its tokens to the Lemon engine
** generated from grammar/tsr.y, and turns syntax errors into CPython's messages, telling
** "the input ended early" (PARSE_INCOMPLETE, for the REPL's '... ') from a wrong token.
*/
#include "parser_int.h"

#include <stdio.h>
#include <string.h>

#include "grammar.h"

/* The parser charges one step per token, PARSE_POLL_TOKENS at a time (ctx_poll), so that
   max_steps and tsr_interrupt stop a pathological parse. */
#define PARSE_POLL_TOKENS 256

void parse_error(Parser *P, int line, int col, const char *kind, const char *fmt, ...) {
  if (P->failed) return;
  va_list ap;
  va_start(ap, fmt);
  ctx_verr(P->c, TSR_ERR_SYNTAX, kind, fmt, ap);
  va_end(ap);
  P->failed = true;
  P->err_line = line;
  P->err_col = col;
}

void parse_too_complex(Parser *P) {
  parse_error(P, P->prev.line, P->prev.col, "SyntaxError", "too complex");
}

static bool ends_operand(int code) {
  switch (code) {
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_IMAG: case TK_STRING: case TK_RP: case TK_RB:
    case TK_RBRACE: case TK_FEND: case TK_TRUE: case TK_FALSE: case TK_NONE: case TK_ELLIPSIS:
      return true;
    default: return false;
  }
}

static bool starts_operand(int code) {
  switch (code) {
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_IMAG: case TK_STRING: case TK_FSTART:
    case TK_LP: case TK_LB: case TK_LBRACE:
    case TK_TRUE: case TK_FALSE: case TK_NONE: case TK_ELLIPSIS: case TK_TILDE:
      return true;
    default: return false;
  }
}

/* What CPython calls the statement a header belongs to, in "expected an indented block
   after ..." */
static const char *header_name(int code) {
  switch (code) {
    case TK_IF: return "'if' statement";
    case TK_ELIF: return "'elif' statement";
    case TK_ELSE: return "'else' statement";
    case TK_FOR: return "'for' statement";
    case TK_WHILE: return "'while' statement";
    case TK_DEF: return "function definition";
    case TK_CLASS: return "class definition";
    case TK_TRY: return "'try' statement";
    case TK_EXCEPT: return "'except' statement";
    case TK_FINALLY: return "'finally' statement";
    case TK_WITH: return "'with' statement";
    default: return NULL;
  }
}

/* The parser cannot take token `code` (tok) here.  Records the error with CPython 3.11's
   wording: a missing indented block, an unexpected indent, a missing ':', a missing comma
   inside brackets, or plain "invalid syntax".  End of input (code 0) can only come where an
   indented block (or a try's handler) must follow, and is "incomplete". */
void parse_syntax_error(Parser *P, int code, const Token *tok, int state) {
  if (P->failed) return;
  bool colon_ok = tsrParserAccepts(state, TK_COLON);
  bool except_ok = tsrParserAccepts(state, TK_EXCEPT);
  if (except_ok && code != TK_EXCEPT && code != TK_FINALLY) {   /* a try with no handler */
    bool eof = code == 0;
    parse_error(P, eof ? P->line_first.line : tok->line, eof ? P->line_first.col : tok->col,
                "SyntaxError", "expected 'except' or 'finally' block");
    P->incomplete = eof && !P->lex.blank_at_end;   /* the REPL waits for the handler */
    return;
  }
  const char *hdr = header_name(P->line_first_code);
  if (code == 0) {
    if (hdr && P->prev_code == TK_NEWLINE && P->prev2_code == TK_COLON)
      parse_error(P, P->prev2.line, P->prev2.col + 1, "IndentationError",
                  "expected an indented block after %s on line %d", hdr, P->line_first.line);
    else
      parse_error(P, tok->line, tok->col, "SyntaxError", "unexpected EOF while parsing");
    P->incomplete = true;
    return;
  }
  if (code == TK_INDENT) {
    parse_error(P, tok->line, tok->col, "IndentationError", "unexpected indent");
    return;
  }
  if (hdr && P->prev_code == TK_NEWLINE && P->prev2_code == TK_COLON) {
    parse_error(P, tok->line, tok->col, "IndentationError",
                "expected an indented block after %s on line %d", hdr, P->line_first.line);
    return;
  }
  if (code == TK_RESERVED) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "'%.*s' is not supported by tsr",
                tok->n, tok->z);
    return;
  }
  if (P->line_first_code == TK_NAME && P->line_first.n == 5 &&
      memcmp(P->line_first.z, "match", 5) == 0 && starts_operand(P->line_second_code) &&
      tok->line >= P->line_first.line) {
    parse_error(P, P->line_first.line, P->line_first.col, "SyntaxError",
                "'match' statements are not supported by tsr");
    return;
  }
  if (P->line_first_code == TK_NAME && P->line_first.n == 5 &&
      memcmp(P->line_first.z, "print", 5) == 0 && P->line_second_code == code &&
      P->line_second.z == tok->z && starts_operand(code)) {
    parse_error(P, P->line_first.line, P->line_first.col, "SyntaxError",
                "Missing parentheses in call to 'print'. Did you mean print(...)?");
    return;
  }
  if (code == TK_ASSIGN && P->lex.depth == 0 && P->lex.nfstr == 0 &&
      (P->line_first_code == TK_IF || P->line_first_code == TK_ELIF ||
       P->line_first_code == TK_WHILE) && P->line_second_code) {
    parse_error(P, P->line_second.line, P->line_second.col, "SyntaxError",
                "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    return;
  }
  if (P->prev_code == TK_BANG && P->lex.nfstr > 0) {
    parse_error(P, tok->line, tok->col, "SyntaxError",
                "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    return;
  }
  if (tsrParserAccepts(state, TK_ELSE) && !tsrParserAccepts(state, TK_ELIF) &&
      !tsrParserAccepts(state, TK_EXCEPT) && code != TK_INDENT) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "expected 'else' after 'if' expression");
    return;
  }
  bool in_field = false;             /* inside an f-string's replacement field */
  for (int i = 0; i < P->lex.nfstr; i++) in_field |= P->lex.fstr[i].kind == FS_FIELD;
  const char *fs = in_field ? "f-string: " : "";
  if (P->lex.nfstr > 0 && P->prev_code == TK_LBRACE &&
      (code == TK_RBRACE || code == TK_BANG || code == TK_COLON || code == TK_FDEBUG)) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "f-string: empty expression not allowed");
    return;
  }
  if (P->lex.depth > 0 && tok->line > P->lex.bline[P->lex.depth - 1]) {
    int d = P->lex.depth - 1;                 /* an error after the line of an open bracket */
    parse_error(P, P->lex.bline[d], P->lex.bcol[d], "SyntaxError", "'%c' was never closed",
                P->lex.bracket[d]);
    return;
  }
  if (colon_ok && P->lex.nfstr == 0 &&
      (code == TK_NEWLINE || P->line_first_code == TK_DEF || P->line_first_code == TK_ELSE ||
       P->line_first_code == TK_CLASS || P->line_first_code == TK_TRY ||
       P->line_first_code == TK_FINALLY)) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "expected ':'");
    return;
  }
  if (P->lex.depth > 0 && ends_operand(P->prev_code) && starts_operand(code)) {
    parse_error(P, P->prev.line, P->prev.col, "SyntaxError",
                "%sinvalid syntax. Perhaps you forgot a comma?", fs);
    return;
  }
  if (P->lex.nfstr > 0 && (code == TK_FMIDDLE || code == TK_FEND || code == TK_LBRACE)) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "f-string: expecting '}'");
    return;
  }
  parse_error(P, tok->line, tok->col, "SyntaxError", "%sinvalid syntax", fs);
}

/* Line and column (1-based) of byte offset off in src. */
static void position_of(const char *src, size_t off, int *line, int *col) {
  int l = 1;
  size_t start = 0;
  for (size_t i = 0; i < off; i++)
    if (src[i] == '\n') { l++; start = i + 1; }
  *line = l;
  *col = (int)(off - start) + 1;
}

/* ------------------------------------------------------------------------------------------
** Python's compile-time checks on the finished tree, in source order: `return` only inside a
** function, `break` and `continue` only inside a loop, `yield` only in a function and not in a
** comprehension, `nonlocal` not at module level, `import *` not in a function, starred
** expressions only where they unpack, `x as y` only in a `with`.  Left-leaning chains
** (`a.b.c...`, `f()()...`, `1 + 1 + ...`) are walked in a loop; the other nesting is bounded
** by the parser's stack, and a tree still too deep for the C stack is the parser's
** SyntaxError "too complex".
*/
/* The names a function binds, for `nonlocal` (CPython's symtable check "no binding for
   nonlocal 'x' found"). */

/* An open-addressing set of names (slices of the arena's strings), on the Ctx heap. */
typedef struct Name { const char *s; size_t n; } Name;
typedef struct Names { Name *slot; size_t cap, n; } Names;

static uint64_t names_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return h;
}

static bool names_has(const Names *set, const char *s, size_t n) {
  if (!set->cap) return false;
  for (size_t i = names_hash(s, n) & (set->cap - 1); set->slot[i].s; i = (i + 1) & (set->cap - 1))
    if (set->slot[i].n == n && memcmp(set->slot[i].s, s, n) == 0) return true;
  return false;
}

static void names_put(Name *slot, size_t cap, Name x) {
  size_t j = names_hash(x.s, x.n) & (cap - 1);
  while (slot[j].s) j = (j + 1) & (cap - 1);
  slot[j] = x;
}

/* Adds s[0..n); false on MemoryError (recorded, P failed). */
static bool names_add(Parser *P, Names *set, const char *s, size_t n) {
  if (P->failed) return false;
  if (names_has(set, s, n)) return true;
  if (2 * (set->n + 1) > set->cap) {
    size_t cap = set->cap ? 2 * set->cap : 16;
    Name *slot = ctx_malloc(P->c, cap * sizeof *slot);
    if (!slot) { P->failed = true; return false; }
    memset(slot, 0, cap * sizeof *slot);
    for (size_t i = 0; i < set->cap; i++)
      if (set->slot[i].s) names_put(slot, cap, set->slot[i]);
    if (set->slot) ctx_free(P->c, set->slot, set->cap * sizeof *slot);
    set->slot = slot;
    set->cap = cap;
  }
  names_put(set->slot, set->cap, (Name){s, n});
  set->n++;
  return true;
}

static void names_free(Parser *P, Names *set) {
  if (set->slot) ctx_free(P->c, set->slot, set->cap * sizeof *set->slot);
}

static void bind_expr(Parser *P, Names *set, const Node *x);

/* The names target t binds: a name, or the names in a tuple or list (starred or not). */
static void bind_target(Parser *P, Names *set, const Node *t) {
  for (; t && t->kind == N_STARRED; t = t->a) {}
  if (!t || P->failed) return;
  if (t->kind == N_NAME) names_add(P, set, t->str, t->len);
  else if (t->kind == N_TUPLE || t->kind == N_LIST)
    for (const Node *e = t->a; e; e = e->next) bind_target(P, set, e);
  else bind_expr(P, set, t);
}

/* The targets of `:=` in expression x (they bind in the enclosing function, even from inside
   a comprehension); a lambda's are its own.  Left-leaning chains in a loop. */
static void bind_expr(Parser *P, Names *set, const Node *x) {
  while (x && !P->failed && !ctx_stack_exhausted(P->c)) {
    if (x->kind == N_LAMBDA) return;
    if (x->kind == N_NAMEDEXPR) names_add(P, set, x->a->str, x->a->len);
    for (const Node *c = x->b; c; c = c->next) bind_expr(P, set, c);
    for (const Node *c = x->c; c; c = c->next) bind_expr(P, set, c);
    if (x->a && x->a->next) { for (const Node *c = x->a; c; c = c->next) bind_expr(P, set, c); return; }
    x = x->a;
  }
}

/* The names a function body binds: assignment, for, with, except, import, def and class
   names, del, `:=`, and its `nonlocal` names (resolved further out).  Nested functions and
   classes contribute their name only. */
static void bind_block(Parser *P, Names *set, const Node *block) {
  for (const Node *s = block ? block->a : NULL; s && !P->failed; s = s->next) {
    if (ctx_stack_exhausted(P->c)) return;
    switch (s->kind) {
      case N_DEF: case N_CLASS: names_add(P, set, s->str, s->len); break;
      case N_IMPORT: {
        const char *dot = memchr(s->str, '.', s->len);
        if (s->a) names_add(P, set, s->a->str, s->a->len);
        else names_add(P, set, s->str, dot ? (size_t)(dot - s->str) : s->len);
        break;
      }
      case N_FROMIMPORT:
        for (const Node *m = s->a; m; m = m->next)
          names_add(P, set, m->a ? m->a->str : m->str, m->a ? m->a->len : m->len);
        break;
      case N_NONLOCAL:
        for (const Node *m = s->a; m; m = m->next) names_add(P, set, m->str, m->len);
        break;
      case N_ASSIGN: case N_DEL:
        for (const Node *t = s->a; t; t = t->next) bind_target(P, set, t);
        bind_expr(P, set, s->b);
        break;
      case N_AUGASSIGN: case N_ANNASSIGN:
        bind_target(P, set, s->a);
        bind_expr(P, set, s->b);
        bind_expr(P, set, s->c);
        break;
      case N_FOR:
        bind_target(P, set, s->a);
        bind_expr(P, set, s->b);
        bind_block(P, set, s->c);
        bind_block(P, set, s->d);
        break;
      case N_WHILE:
        bind_expr(P, set, s->a);
        bind_block(P, set, s->b);
        bind_block(P, set, s->d);
        break;
      case N_IF:
        for (const Node *i = s; i; i = i->c) {
          if (i->kind != N_IF) { bind_block(P, set, i); break; }
          bind_expr(P, set, i->a);
          bind_block(P, set, i->b);
        }
        break;
      case N_TRY:
        bind_block(P, set, s->a);
        for (const Node *h = s->b; h; h = h->next) {
          if (h->c) names_add(P, set, h->c->str, h->c->len);
          bind_block(P, set, h->b);
        }
        bind_block(P, set, s->c);
        bind_block(P, set, s->d);
        break;
      case N_WITH:
        for (const Node *w = s->a; w; w = w->next) {
          bind_expr(P, set, w->a);
          bind_target(P, set, w->b);
        }
        bind_block(P, set, s->b);
        break;
      default:
        for (const Node *c = s->a; c; c = c->next) bind_expr(P, set, c);
        for (const Node *c = s->b; c; c = c->next) bind_expr(P, set, c);
        break;
    }
  }
}

enum { SC_MODULE, SC_FUNCTION, SC_CLASS };
/* A function or class body being checked, and the ones around it. */
typedef struct Scope {
  int kind;                 /* SC_FUNCTION or SC_CLASS */
  const Node *def;          /* its N_DEF or N_CLASS */
  Names names;              /* SC_FUNCTION: the names it binds */
  const struct Scope *up;
} Scope;
typedef struct Check {
  Parser *P;
  int scope;          /* SC_* of the innermost function or class body */
  bool loop;          /* inside a loop body of that scope */
  int comp;           /* the comprehension kind an expression is inside (0 = none) */
  const Scope *up;    /* the innermost function or class body, NULL at module level */
} Check;

static void check_fail(Check *k, const Node *x, const char *msg) {
  parse_error(k->P, x->line, x->col, "SyntaxError", "%s", msg);
}

static bool check_deep(Check *k, const Node *x) {
  if (k->P->failed) return true;
  if (!ctx_stack_exhausted(k->P->c)) return false;
  parse_error(k->P, x->line, x->col, "SyntaxError", "too complex");
  return true;
}

static void check_block(Check *k, const Node *block);
static void check_expr(Check *k, const Node *x, bool star_ok);

static void check_list(Check *k, const Node *x, bool star_ok) {
  for (; x && !k->P->failed; x = x->next) check_expr(k, x, star_ok);
}

static const char *comp_name(int kind) {
  switch (kind) {
    case N_LISTCOMP: return "list comprehension";
    case N_SETCOMP: return "set comprehension";
    case N_DICTCOMP: return "dict comprehension";
    default: return "generator expression";
  }
}

/* The first `:=` in expression x outside lambdas (whose target is in vars, when given), or
   NULL. */
static const Node *find_walrus(Parser *P, const Node *x, const Names *vars) {
  for (; x && !ctx_stack_exhausted(P->c); x = x->next) {
    if (x->kind == N_LAMBDA) continue;
    if (x->kind == N_NAMEDEXPR && (!vars || names_has(vars, x->a->str, x->a->len))) return x;
    const Node *w = NULL;
    if ((x->a && (w = find_walrus(P, x->a, vars))) || (x->b && (w = find_walrus(P, x->b, vars))) ||
        (x->c && (w = find_walrus(P, x->c, vars))))
      return w;
  }
  return NULL;
}

/* CPython's rules for `:=` in comprehension x: not in an iterable, not rebinding an
   iteration variable, not in a class body. */
static void check_comp_walrus(Check *k, const Node *x) {
  const Node *w;
  for (const Node *g = x->b; g; g = g->next) {
    if ((w = find_walrus(k->P, g->b, NULL)) != NULL) {
      check_fail(k, w, "assignment expression cannot be used in a comprehension iterable expression");
      return;
    }
  }
  Names vars = {NULL, 0, 0};
  for (const Node *g = x->b; g; g = g->next) bind_target(k->P, &vars, g->a);
  w = find_walrus(k->P, x->a, &vars);
  for (const Node *g = x->b; g && !w; g = g->next) w = find_walrus(k->P, g->c, &vars);
  if (w) {
    char msg[300];
    snprintf(msg, sizeof msg, "assignment expression cannot rebind comprehension iteration variable '%.200s'",
             w->a->str);
    check_fail(k, w, msg);
  } else if (k->scope == SC_CLASS && (w = find_walrus(k->P, x->a, NULL)) != NULL) {
    check_fail(k, w, "assignment expression within a comprehension cannot be used in a class body");
  }
  names_free(k->P, &vars);
}

/* `__debug__` cannot be bound (CPython's compiler): is s[0..n) that name? */
static bool is_debug(const char *s, size_t n) { return s && n == 9 && memcmp(s, "__debug__", 9) == 0; }

/* Target t of an assignment (attr_too: an attribute named __debug__ is refused too), a for,
   a with or a comprehension, or of a del: `cannot assign to __debug__` at the name. */
static void check_store(Check *k, const Node *t, bool attr_too, bool del) {
  if (!t || k->P->failed) return;
  if (t->kind == N_STARRED) t = t->a;
  if (t->kind == N_TUPLE || t->kind == N_LIST) {
    for (const Node *e = t->a; e; e = e->next) check_store(k, e, attr_too, del);
  } else if ((t->kind == N_NAME || (attr_too && t->kind == N_ATTR)) && is_debug(t->str, t->len)) {
    check_fail(k, t, del ? "cannot delete __debug__" : "cannot assign to __debug__");
  }
}

/* Parameters of def or lambda x named __debug__: the error at x. */
static void check_param_names(Check *k, const Node *x) {
  for (const Node *p = x->a; p && !k->P->failed; p = p->next)
    if (is_debug(p->str, p->len)) check_fail(k, x, "cannot assign to __debug__");
}

/* A parameter list's defaults and annotations (evaluated in the enclosing scope). */
static void check_params(Check *k, const Node *p) {
  for (; p && !k->P->failed; p = p->next) {
    check_expr(k, p->a, false);
    check_expr(k, p->b, p->op == PARAM_VARARGS);
  }
}

static void check_expr(Check *k, const Node *x, bool star_ok) {
again:
  if (!x || check_deep(k, x)) return;
  Check in = *k;
  switch (x->kind) {
    case N_STARRED:
      if (!star_ok) { check_fail(k, x, "can't use starred expression here"); return; }
      check_expr(k, x->a, false);
      return;
    case N_WITHITEM:
      check_fail(k, x->b, "invalid syntax");
      return;
    case N_YIELD: case N_YIELDFROM:
      if (k->comp) {
        char msg[64];
        snprintf(msg, sizeof msg, "'yield' inside %s", comp_name(k->comp));
        check_fail(k, x, msg);
        return;
      }
      if (k->scope != SC_FUNCTION) { check_fail(k, x, "'yield' outside function"); return; }
      check_expr(k, x->a, false);
      return;
    case N_TUPLE: case N_LIST: case N_SET:
      check_list(k, x->a, true);
      return;

    case N_CALL:
      for (const Node *a = x->b; a && !k->P->failed; a = a->next)
        if (a->kind == N_KWARG && is_debug(a->str, a->len)) check_fail(k, x, "cannot assign to __debug__");
      check_list(k, x->b, true);
      x = x->a;
      star_ok = false;
      goto again;
    case N_NAMEDEXPR:
      check_store(k, x->a, false, false);
      check_expr(k, x->b, false);
      return;
    case N_LAMBDA:
      check_param_names(k, x);
      check_params(k, x->a);
      in.scope = SC_FUNCTION;
      in.comp = 0;
      check_expr(&in, x->b, false);
      return;
    case N_LISTCOMP: case N_SETCOMP: case N_DICTCOMP: case N_GENEXP:
      check_comp_walrus(k, x);
      for (const Node *g = x->b; g && !k->P->failed; g = g->next) check_store(k, g->a, false, false);
      for (const Node *g = x->b; g && !k->P->failed; g = g->next) {
        check_expr(g == x->b ? k : &in, g->b, false);   /* the first iterable: outside */
        in.comp = x->kind;
        check_expr(&in, g->a, false);
        check_list(&in, g->c, false);
      }
      in.comp = x->kind;
      check_expr(&in, x->a, false);
      return;
    default:
      for (const Node *c = x->b; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      for (const Node *c = x->c; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      if (x->a && !x->a->next) {       /* a single first child: in the loop */
        x = x->a;
        star_ok = false;
        goto again;
      }
      for (const Node *c = x->a; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      return;
  }
}

static void check_stmt(Check *k, const Node *s) {
  if (check_deep(k, s)) return;
  Check in = *k;
  switch (s->kind) {
    case N_RETURN:
      if (k->scope != SC_FUNCTION) { check_fail(k, s, "'return' outside function"); return; }
      check_expr(k, s->a, false);
      return;
    case N_BREAK:
      if (!k->loop) check_fail(k, s, "'break' outside loop");
      return;
    case N_CONTINUE:
      if (!k->loop) check_fail(k, s, "'continue' not properly in loop");
      return;
    case N_NONLOCAL:
      if (k->scope == SC_MODULE) { check_fail(k, s, "nonlocal declaration not allowed at module level"); return; }
      if (k->scope != SC_FUNCTION) return;   /* in a class body: resolved at run time */
      for (const Node *m = s->a; m && !k->P->failed; m = m->next) {
        for (const Node *p = k->up->def->a; p; p = p->next)
          if (p->str && p->len == m->len && memcmp(p->str, m->str, m->len) == 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "name '%.200s' is parameter and nonlocal", m->str);
            check_fail(k, s, msg);
            return;
          }
        const Scope *sc = k->up->up;
        while (sc && (sc->kind != SC_FUNCTION || !names_has(&sc->names, m->str, m->len))) sc = sc->up;
        if (!sc) {
          char msg[300];
          snprintf(msg, sizeof msg, "no binding for nonlocal '%.200s' found", m->str);
          check_fail(k, s, msg);
          return;
        }
      }
      return;
    case N_FROMIMPORT: case N_IMPORT:
      if (s->kind == N_FROMIMPORT && s->n == 0 && k->scope == SC_FUNCTION)
        check_fail(k, s, "import * only allowed at module level");
      if (s->kind == N_IMPORT && s->a && is_debug(s->a->str, s->a->len))
        check_fail(k, s, "cannot assign to __debug__");
      for (const Node *m = s->kind == N_FROMIMPORT ? s->a : NULL; m && !k->P->failed; m = m->next)
        if (is_debug(m->a ? m->a->str : m->str, m->a ? m->a->len : m->len))
          check_fail(k, s, "cannot assign to __debug__");
      return;
    case N_ASSIGN: case N_AUGASSIGN: case N_ANNASSIGN: case N_DEL:
      if (s->kind == N_ASSIGN || s->kind == N_DEL)
        for (const Node *t = s->a; t && !k->P->failed; t = t->next)
          check_store(k, t, s->kind == N_ASSIGN, s->kind == N_DEL);
      else
        check_store(k, s->a, s->kind == N_ANNASSIGN, false);
      for (const Node *c = s->a; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      for (const Node *c = s->b; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      for (const Node *c = s->c; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      return;
    case N_DEF: case N_CLASS:
      if (is_debug(s->str, s->len)) { check_fail(k, s, "cannot assign to __debug__"); return; }
      if (s->kind == N_DEF) check_param_names(k, s);
      check_list(k, s->c, false);
      if (s->kind == N_DEF) { check_params(k, s->a); check_expr(k, s->d, false); }
      else check_list(k, s->a, true);
      in.scope = s->kind == N_DEF ? SC_FUNCTION : SC_CLASS;
      in.loop = false;
      Scope sc = {in.scope, s, {NULL, 0, 0}, k->up};
      if (s->kind == N_DEF) {
        for (const Node *p = s->a; p; p = p->next) names_add(k->P, &sc.names, p->str, p->len);
        bind_block(k->P, &sc.names, s->b);
      }
      in.up = &sc;
      check_block(&in, s->b);
      names_free(k->P, &sc.names);
      return;
    case N_FOR: case N_WHILE:
      if (s->kind == N_FOR) check_store(k, s->a, false, false);
      check_expr(k, s->a, false);
      if (s->kind == N_FOR) check_expr(k, s->b, false);
      in.loop = true;
      check_block(&in, s->kind == N_FOR ? s->c : s->b);
      check_block(k, s->d);
      return;
    case N_IF:
      for (const Node *i = s; i && !k->P->failed; i = i->c) {
        if (i->kind != N_IF) { check_block(k, i); break; }
        check_expr(k, i->a, false);
        check_block(k, i->b);
      }
      return;
    case N_TRY:
      check_block(k, s->a);
      for (const Node *h = s->b; h && !k->P->failed; h = h->next) {
        if (h->c && is_debug(h->c->str, h->c->len)) check_fail(k, h, "cannot assign to __debug__");
        check_expr(k, h->a, false);
        check_block(k, h->b);
      }
      check_block(k, s->c);
      check_block(k, s->d);
      return;
    case N_WITH:
      for (const Node *w = s->a; w && !k->P->failed; w = w->next) {
        check_store(k, w->b, false, false);
        check_expr(k, w->a, false);
        check_expr(k, w->b, false);
      }
      check_block(k, s->b);
      return;
    case N_BLOCK:
      check_block(k, s);
      return;
    default:                           /* expression-only statements */
      for (const Node *c = s->a; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      for (const Node *c = s->b; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      for (const Node *c = s->c; c && !k->P->failed; c = c->next) check_expr(k, c, false);
      return;
  }
}

static void check_block(Check *k, const Node *block) {
  for (const Node *s = block ? block->a : NULL; s && !k->P->failed; s = s->next) check_stmt(k, s);
}

ParseResult parse_chunk(Ctx *c, const char *src, size_t len, const char *name, Chunk **out,
                        int *err_line, int *err_col) {
  return parse_chunk_ex(c, src, len, name, 0, out, err_line, err_col);
}

/* See ast.h.  The chunk, its source copy and every node live in one arena.  The Lemon engine
   (a fixed stack of %stack_size entries, a quarter of a megabyte) is allocated through the Ctx
   and, when the state keeps caches (ctx_open_speedups), kept in c->parse_spare for the next
   parse: a fresh one per parse cost page faults on every tsr_eval. */
ParseResult parse_chunk_ex(Ctx *c, const char *src, size_t len, const char *name,
                           unsigned flags, Chunk **out, int *err_line, int *err_col) {
  int dummy_line, dummy_col;
  if (!err_line) err_line = &dummy_line;
  if (!err_col) err_col = &dummy_col;
  *out = NULL;
  *err_line = *err_col = 0;
  if (!name) name = "<string>";

  Chunk *ch = ctx_malloc(c, sizeof *ch);
  if (!ch) return PARSE_ERROR;
  memset(ch, 0, sizeof *ch);
  arena_init(&ch->arena, c);
  size_t name_len = strlen(name);
  char *source = arena_alloc(&ch->arena, len + 1);
  char *name_copy = arena_alloc(&ch->arena, name_len + 1);
  if (!source || !name_copy) { chunk_free(c, ch); return PARSE_ERROR; }
  if (len) memcpy(source, src, len);
  source[len] = 0;
  memcpy(name_copy, name, name_len + 1);
  ch->source = source;
  ch->source_len = len;
  ch->name = name_copy;

  const char *nul = len ? memchr(source, 0, len) : NULL;
  if (nul) {
    position_of(source, (size_t)(nul - source), err_line, err_col);
    ctx_err(c, TSR_ERR_SYNTAX, "SyntaxError", "source code cannot contain null bytes");
    chunk_free(c, ch);
    return PARSE_ERROR;
  }

  Parser P;
  memset(&P, 0, sizeof P);
  P.c = c;
  P.ch = ch;
  lex_init(&P.lex, c, source, len);
  size_t engine_size = tsrParserSize();
  void *engine = c->parse_spare;
  c->parse_spare = NULL;               /* taken: a nested parse would allocate its own */
  if (!engine && !(engine = ctx_malloc(c, engine_size))) { chunk_free(c, ch); return PARSE_ERROR; }
  tsrParserInit(engine, &P);

  bool line_start = true;
  int line_tokens = 0;
  unsigned ntokens = 0;
  for (;;) {
    Token t;
    int code = lex_next(&P.lex, &t);
    if (++ntokens == PARSE_POLL_TOKENS) {  /* a step per token; interrupts stop a parse */
      ntokens = 0;
      if (ctx_poll(c, PARSE_POLL_TOKENS) < 0) {
        P.failed = true;
        P.err_line = P.lex.line;
        P.err_col = 1;
        break;
      }
    }
    if (code < 0) {
      P.failed = true;
      P.incomplete = P.lex.incomplete;
      P.err_line = P.lex.err_line;
      P.err_col = P.lex.err_col;
      break;
    }
    if (!line_start && line_tokens == 1) {   /* seen by errors */
      P.line_second = t;
      P.line_second_code = code;
    }
    tsrParser(engine, code, t);
    if (P.failed || code == 0) break;
    if (code == TK_NEWLINE || code == TK_INDENT || code == TK_DEDENT) {
      line_start = true;
    } else if (line_start) {
      line_start = false;
      line_tokens = 1;
      P.line_first = t;
      P.line_first_code = code;
      P.line_second_code = 0;
    } else {
      line_tokens++;
    }
    P.prev2 = P.prev;
    P.prev2_code = P.prev_code;
    P.prev = t;
    P.prev_code = code;
  }
  c->steps += ntokens;                 /* the tokens since the last poll */
  tsrParserFinalize(engine);
  if (c->cache_on && !c->parse_spare) {
    c->parse_spare = engine;
    c->parse_spare_size = engine_size;
  } else {
    ctx_free(c, engine, engine_size);
  }

  if (!P.failed && !P.root)
    parse_error(&P, P.prev.line, P.prev.col, "SyntaxError", "invalid syntax");
  if (!P.failed) {
    Check k = {&P, SC_MODULE, false, 0, NULL};
    check_block(&k, P.root);
  }
  if (!P.failed && (flags & PARSE_INTERACTIVE) && P.lex.indented_at_end && !P.lex.blank_at_end) {
    parse_error(&P, P.prev.line, P.prev.col, "SyntaxError", "unexpected EOF while parsing");
    P.incomplete = true;
  }
  if (P.failed) {
    *err_line = P.err_line;
    *err_col = P.err_col;
    chunk_free(c, ch);
    return P.incomplete ? PARSE_INCOMPLETE : PARSE_ERROR;
  }
  ch->root = P.root;
  *out = ch;
  return PARSE_OK;
}
