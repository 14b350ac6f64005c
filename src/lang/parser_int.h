/*
** parser_int.h -- the front end's internal header: the token the lexer hands to the Lemon
** parser, the parser's state, and the AST constructors that grammar/tsr.y's actions call.
** Nothing here is visible outside src/lang/lex.c, ast.c, parse.c and the generated grammar.c.
*/
#ifndef TSR_PARSER_INT_H
#define TSR_PARSER_INT_H

#include "ast.h"
#include "lex.h"

/* A list of nodes under construction (linked through Node.next).  `comma` records a trailing
   or separating comma (so `a,` is a tuple). */
typedef struct NodeList {
  Node *head, *tail;
  int n;
  uint8_t comma, kw;
} NodeList;

/* The state of one parse_chunk call; the %extra_context of the Lemon parser. */
typedef struct Parser {
  Ctx *c;
  Chunk *ch;
  Lexer lex;
  Node *root;          /* set when the parser accepts */
  bool failed;         /* an error has been recorded (in c) */
  bool incomplete;     /* ... and it is "input ended early" */
  int err_line, err_col;
  Token prev;          /* the token fed before the current one (for error messages) */
  Token prev2;         /* and the one before that */
  int prev_code, prev2_code;
  Token line_first;    /* first token of the current logical line (compound keyword) */
  int line_first_code;
  Token line_second;     /* the second token of that line */
  int line_second_code;  /* and its code (0 if none yet) */
} Parser;

/* Records a syntax error (kind "SyntaxError", "IndentationError" or "TabError") at
   line/col unless one is already recorded. */
RT_HIDDEN void parse_error(Parser *P, int line, int col, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Called by the grammar's %syntax_error: the token `code` (0 = end of input) is not
   acceptable in parser state `state` (tsrParserAccepts tells which tokens would have been). */
RT_HIDDEN void parse_syntax_error(Parser *P, int code, const Token *tok, int state);
/* Called by the grammar's %stack_overflow. */
RT_HIDDEN void parse_too_complex(Parser *P);

/* The Lemon engine (generated into grammar.c). */
RT_HIDDEN size_t tsrParserSize(void);
RT_HIDDEN void tsrParserInit(void *engine, Parser *P);
RT_HIDDEN void tsrParserFinalize(void *engine);
RT_HIDDEN void tsrParser(void *engine, int code, Token tok);
RT_HIDDEN bool tsrParserAccepts(int state, int code);

/* ------------------------------------------------------------------------------------------
** AST constructors (ast.c).  Each returns a node in the chunk's arena, or NULL once P has
** failed (then every constructor accepts NULL arguments and returns NULL).
*/
RT_HIDDEN NodeList ast_list_empty(Parser *P);
RT_HIDDEN NodeList ast_list_new(Parser *P, Node *x);
RT_HIDDEN NodeList ast_list_add(Parser *P, NodeList l, Node *x);
RT_HIDDEN NodeList ast_list_cat(Parser *P, NodeList l, NodeList m);
RT_HIDDEN NodeList ast_list_comma(Parser *P, NodeList l);

RT_HIDDEN void ast_chunk(Parser *P, NodeList stmts);
RT_HIDDEN Node *ast_block(Parser *P, NodeList stmts);

/* Literals.  ast_strings joins adjacent literals (N_STR, N_BYTES, N_FSTRING parts). */
RT_HIDDEN Node *ast_name(Parser *P, Token t);
RT_HIDDEN Node *ast_int(Parser *P, Token t);
RT_HIDDEN Node *ast_float(Parser *P, Token t);
RT_HIDDEN Node *ast_imag(Parser *P, Token t);
RT_HIDDEN Node *ast_str(Parser *P, Token t);
RT_HIDDEN Node *ast_strings(Parser *P, NodeList parts);
RT_HIDDEN Node *ast_fstring(Parser *P, Token t, NodeList parts);
RT_HIDDEN Node *ast_fmiddle(Parser *P, Token t);
RT_HIDDEN NodeList ast_fparts_add(Parser *P, NodeList l, Node *field);
RT_HIDDEN Node *ast_formatted(Parser *P, Token t, Node *e, Node *debug, int conv, Node *spec);
RT_HIDDEN Node *ast_debug_text(Parser *P, Token t);
RT_HIDDEN int ast_conversion(Parser *P, Token bang, Token name);
RT_HIDDEN Node *ast_fspec(Parser *P, Token colon, NodeList parts);
RT_HIDDEN Node *ast_const(Parser *P, int kind, Token t);

/* Expressions. */
RT_HIDDEN Node *ast_testlist(Parser *P, NodeList l);
RT_HIDDEN Node *ast_seq(Parser *P, int kind, Token open, NodeList l);
RT_HIDDEN Node *ast_paren(Parser *P, Token open, Node *x);
RT_HIDDEN Node *ast_binop(Parser *P, int op, Node *x, Node *y);
RT_HIDDEN Node *ast_unary(Parser *P, Token t, int op, Node *x);
RT_HIDDEN Node *ast_bool(Parser *P, int kind, Node *x, Node *y);
RT_HIDDEN Node *ast_compare(Parser *P, Node *x, NodeList items);
RT_HIDDEN Node *ast_cmpitem(Parser *P, int op, Node *y);
RT_HIDDEN Node *ast_ifexp(Parser *P, Node *x, Node *cond, Node *y);
RT_HIDDEN Node *ast_attr(Parser *P, Node *x, Token name);
RT_HIDDEN Node *ast_call(Parser *P, Node *f, Token open, NodeList args);
RT_HIDDEN Node *ast_kwarg(Parser *P, Token name, Node *x);
RT_HIDDEN Node *ast_subscript(Parser *P, Node *x, Node *index);
RT_HIDDEN Node *ast_slice(Parser *P, Token colon, Node *start, Node *stop, Node *step);
RT_HIDDEN Node *ast_starred(Parser *P, Token t, Node *x);
RT_HIDDEN Node *ast_dstar(Parser *P, Token t, Node *x);
RT_HIDDEN Node *ast_namedexpr(Parser *P, Node *name, Node *value);
RT_HIDDEN Node *ast_yield(Parser *P, Token t, int kind, Node *value);
RT_HIDDEN Node *ast_lambda(Parser *P, Token t, NodeList params, Node *body);
RT_HIDDEN Node *ast_dictitem(Parser *P, Node *key, Node *value);
RT_HIDDEN Node *ast_compfor(Parser *P, Token t, Node *target, Node *iter, NodeList conds);
RT_HIDDEN Node *ast_comp(Parser *P, int kind, const Token *open, Node *elt, NodeList fors);
RT_HIDDEN Node *ast_withitem(Parser *P, Node *x, Node *target);

/* Statements. */
RT_HIDDEN Node *ast_expr_stmt(Parser *P, Node *e);
RT_HIDDEN Node *ast_assign(Parser *P, NodeList targets, Node *value);
RT_HIDDEN Node *ast_augassign(Parser *P, Node *target, int op, Node *value);
RT_HIDDEN Node *ast_annassign(Parser *P, Node *target, Node *annotation, Node *value);
RT_HIDDEN Node *ast_simple(Parser *P, int kind, Token t);
RT_HIDDEN Node *ast_return(Parser *P, Token t, Node *value);
RT_HIDDEN Node *ast_raise(Parser *P, Token t, Node *exc, Node *cause);
RT_HIDDEN Node *ast_global(Parser *P, int kind, Token t, NodeList names);
RT_HIDDEN Node *ast_assert(Parser *P, Token t, Node *test, Node *msg);
RT_HIDDEN Node *ast_del(Parser *P, Token t, NodeList targets);
RT_HIDDEN Node *ast_dotted(Parser *P, Node *left, Token name);
RT_HIDDEN Node *ast_alias(Parser *P, Node *dotted, Node *alias);
RT_HIDDEN NodeList ast_import_list(Parser *P, Token t, NodeList modules);
RT_HIDDEN Node *ast_import_name(Parser *P, Token name, Node *alias);
RT_HIDDEN Node *ast_relative(Parser *P, int level, Node *module);
RT_HIDDEN Node *ast_from_import(Parser *P, Token t, Node *module, NodeList names);
RT_HIDDEN Node *ast_if(Parser *P, Token t, Node *cond, Node *body, Node *orelse);
RT_HIDDEN NodeList ast_elif(Parser *P, NodeList chain, Token t, Node *cond, Node *body);
RT_HIDDEN Node *ast_if_end(Parser *P, NodeList chain, Node *orelse);
RT_HIDDEN Node *ast_while(Parser *P, Token t, Node *cond, Node *body, Node *orelse);
RT_HIDDEN Node *ast_for(Parser *P, Token t, Node *target, Node *iter, Node *body, Node *orelse);
RT_HIDDEN Node *ast_try(Parser *P, Token t, Node *body, NodeList handlers, Node *orelse,
                        Node *final);
RT_HIDDEN Node *ast_except(Parser *P, Token t, int star, Node *type, Node *name, Node *body);
RT_HIDDEN Node *ast_with(Parser *P, Token t, NodeList items, Node *body);
RT_HIDDEN Node *ast_def(Parser *P, Token t, Token name, NodeList params, Node *returns,
                        Node *body);
RT_HIDDEN Node *ast_param(Parser *P, Token name, Node *annotation, Node *dflt, int kind);
RT_HIDDEN Node *ast_param_star(Parser *P, Token star, Token name, Node *annotation, Node *dflt,
                               int kind);
RT_HIDDEN Node *ast_class(Parser *P, Token t, Token name, NodeList args, Node *body);
RT_HIDDEN Node *ast_decorate(Parser *P, NodeList decorators, Node *def);

#endif
