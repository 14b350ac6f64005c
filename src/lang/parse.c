/*
** parse.c -- the parser driver: runs the lexer and feeds its tokens to the Lemon engine
** generated from grammar/tsr.y, and turns syntax errors into CPython's messages, telling
** "the input ended early" (PARSE_INCOMPLETE, for the REPL's '... ') from a wrong token.
*/
#include "parser_int.h"

#include <string.h>

#include "grammar.h"

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
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_STRING: case TK_RP: case TK_RB:
    case TK_TRUE: case TK_FALSE: case TK_NONE: case TK_ELLIPSIS:
      return true;
    default: return false;
  }
}

static bool starts_operand(int code) {
  switch (code) {
    case TK_NAME: case TK_INT: case TK_FLOAT: case TK_STRING: case TK_LP: case TK_LB:
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
    default: return NULL;
  }
}

/* The parser cannot take token `code` (tok) here.  Records the error with CPython 3.11's
   wording: a missing indented block, an unexpected indent, a missing ':', a missing comma
   inside brackets, or plain "invalid syntax".  End of input (code 0) can only come where an
   indented block must follow, and is "incomplete". */
void parse_syntax_error(Parser *P, int code, const Token *tok, bool colon_ok) {
  if (P->failed) return;
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
  if (P->lex.depth > 0 && tok->line > P->lex.bline[P->lex.depth - 1]) {
    int d = P->lex.depth - 1;                 /* an error after the line of an open bracket */
    parse_error(P, P->lex.bline[d], P->lex.bcol[d], "SyntaxError", "'%c' was never closed",
                P->lex.bracket[d]);
    return;
  }
  if (colon_ok && (code == TK_NEWLINE || P->line_first_code == TK_DEF ||
                   P->line_first_code == TK_ELSE)) {
    parse_error(P, tok->line, tok->col, "SyntaxError", "expected ':'");
    return;
  }
  if (P->lex.depth > 0 && ends_operand(P->prev_code) && starts_operand(code)) {
    parse_error(P, P->prev.line, P->prev.col, "SyntaxError",
                "invalid syntax. Perhaps you forgot a comma?");
    return;
  }
  parse_error(P, tok->line, tok->col, "SyntaxError", "invalid syntax");
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

/* Python's compile-time checks on the finished tree, in source order: `return` only inside
   a function, `break` and `continue` only inside a loop.  Recursion follows the statement
   nesting, which the lexer bounds (LEX_MAXINDENT). */
static void check_block(Parser *P, const Node *block, bool in_func, bool in_loop) {
  for (const Node *s = block ? block->a : NULL; s && !P->failed; s = s->next) {
    switch (s->kind) {
      case N_RETURN:
        if (!in_func) parse_error(P, s->line, s->col, "SyntaxError", "'return' outside function");
        break;
      case N_BREAK:
        if (!in_loop) parse_error(P, s->line, s->col, "SyntaxError", "'break' outside loop");
        break;
      case N_CONTINUE:
        if (!in_loop)
          parse_error(P, s->line, s->col, "SyntaxError", "'continue' not properly in loop");
        break;
      case N_DEF: check_block(P, s->b, true, false); break;
      case N_FOR: check_block(P, s->c, in_func, true); break;
      case N_WHILE: check_block(P, s->b, in_func, true); break;
      case N_IF:
        for (const Node *i = s; i && !P->failed; i = i->c) {
          if (i->kind != N_IF) { check_block(P, i, in_func, in_loop); break; }
          check_block(P, i->b, in_func, in_loop);
        }
        break;
      default: break;
    }
  }
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
  for (;;) {
    Token t;
    int code = lex_next(&P.lex, &t);
    if (code < 0) {
      P.failed = true;
      P.incomplete = P.lex.incomplete;
      P.err_line = P.lex.err_line;
      P.err_col = P.lex.err_col;
      break;
    }
    tsrParser(engine, code, t);
    if (P.failed || code == 0) break;
    if (code == TK_NEWLINE || code == TK_INDENT || code == TK_DEDENT) {
      line_start = true;
    } else if (line_start) {
      line_start = false;
      P.line_first = t;
      P.line_first_code = code;
    }
    P.prev2 = P.prev;
    P.prev2_code = P.prev_code;
    P.prev = t;
    P.prev_code = code;
  }
  tsrParserFinalize(engine);
  if (c->cache_on && !c->parse_spare) {
    c->parse_spare = engine;
    c->parse_spare_size = engine_size;
  } else {
    ctx_free(c, engine, engine_size);
  }

  if (!P.failed && !P.root)
    parse_error(&P, P.prev.line, P.prev.col, "SyntaxError", "invalid syntax");
  if (!P.failed) check_block(&P, P.root, false, false);
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
