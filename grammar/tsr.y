/*
** tsr.y -- the Lemon grammar of tsr: Python 3.11's syntax (DESIGN.md §1), but for `async`,
** `await` and `match`, which the parser driver reports as not supported.
**
** The lexer (src/lang/lex.c) feeds tokens one at a time, with NEWLINE, INDENT and DEDENT as
** CPython's tokenizer makes them, and 0 at the end.  Every action is a one-line call to an
** AST constructor in src/lang/ast.c; the tree lives in the chunk's arena, so destructors
** have nothing to free.  Python's precedence: the boolean and comparison levels are written
** as layered non-terminals (so `a == not b` stays a syntax error, as in Python), the
** arithmetic levels with precedence declarations.  Where Python's PEG grammar looks ahead,
** this LALR(1) grammar parses the wider form and the AST constructors check it: assignment
** targets are parsed as expressions, parameter lists as flat item lists (ast_params orders
** them), and `with (a as b, c):` as a parenthesised list whose items may carry `as`.
*/

%include {
#define NDEBUG 1
#define YYNOERRORRECOVERY 1
#define tsrParser_ENGINEALWAYSONSTACK 1
#include <stddef.h>
#include "parser_int.h"
}

%token_prefix TK_
%token_type {Token}
%default_type {Node *}
%extra_context {Parser *P}
%name tsrParser
%stack_size 5000
%start_symbol chunk

%stack_overflow { parse_too_complex(P); }

%syntax_error {
  parse_syntax_error(P, yymajor, &yyminor, yypParser->yytos->stateno);
}

/* Token codes, in a fixed order; some are produced by the lexer only to be rejected. */
%token NEWLINE INDENT DEDENT NAME INT FLOAT STRING.
%token AND AS ASSERT BREAK CONTINUE DEF DEL ELIF ELSE FALSE FOR FROM GLOBAL IF IMPORT IN IS
       NONE NOT OR PASS RETURN TRUE WHILE RESERVED.
%token LP RP LB RB LBRACE RBRACE COMMA COLON SEMI DOT ELLIPSIS ASSIGN ARROW WALRUS BANG.
%token PLUSEQ MINUSEQ STAREQ SLASHEQ SLASHSLASHEQ PERCENTEQ POWEQ ATEQ AMPEQ PIPEEQ CARETEQ
       LSHIFTEQ RSHIFTEQ.
%token LT LE GT GE EQ NE.
%token CLASS EXCEPT FINALLY LAMBDA NONLOCAL RAISE TRY WITH YIELD.
%token IMAG FSTART FMIDDLE FEND FDEBUG.

%left PIPE.
%left CARET.
%left AMP.
%left LSHIFT RSHIFT.
%left PLUS MINUS.
%left STAR SLASH SLASHSLASH PERCENT AT.
%right UNARY TILDE.
%right POW.

%type stmts_opt {NodeList}
%destructor stmts_opt {(void)$$;}
%type stmts {NodeList}
%destructor stmts {(void)$$;}
%type stmt {NodeList}
%destructor stmt {(void)$$;}
%type simple_line {NodeList}
%destructor simple_line {(void)$$;}
%type simples {NodeList}
%destructor simples {(void)$$;}
%type assign_lhs {NodeList}
%destructor assign_lhs {(void)$$;}
%type names {NodeList}
%destructor names {(void)$$;}
%type inames {NodeList}
%destructor inames {(void)$$;}
%type params_opt {NodeList}
%destructor params_opt {(void)$$;}
%type params {NodeList}
%destructor params {(void)$$;}
%type lparams_opt {NodeList}
%destructor lparams_opt {(void)$$;}
%type lparams {NodeList}
%destructor lparams {(void)$$;}
%type elist {NodeList}
%destructor elist {(void)$$;}
%type nlist {NodeList}
%destructor nlist {(void)$$;}
%type plist {NodeList}
%destructor plist {(void)$$;}
%type xlist {NodeList}
%destructor xlist {(void)$$;}
%type alist {NodeList}
%destructor alist {(void)$$;}
%type args {NodeList}
%destructor args {(void)$$;}
%type slist {NodeList}
%destructor slist {(void)$$;}
%type cmpitems {NodeList}
%destructor cmpitems {(void)$$;}
%type dotted_as_names {NodeList}
%destructor dotted_as_names {(void)$$;}
%type strings {NodeList}
%destructor strings {(void)$$;}
%type fparts {NodeList}
%destructor fparts {(void)$$;}
%type specparts {NodeList}
%destructor specparts {(void)$$;}
%type comp_fors {NodeList}
%destructor comp_fors {(void)$$;}
%type comp_ifs {NodeList}
%destructor comp_ifs {(void)$$;}
%type decorators {NodeList}
%destructor decorators {(void)$$;}
%type handlers {NodeList}
%destructor handlers {(void)$$;}
%type ifchain {NodeList}
%destructor ifchain {(void)$$;}
%type withitems {NodeList}
%type dlist {NodeList}
%destructor dlist {(void)$$;}
%destructor ditem {(void)$$;}
%destructor withitems {(void)$$;}
%destructor small {(void)$$;}
%destructor compound {(void)$$;}
%destructor suite {(void)$$;}
%destructor else_opt {(void)$$;}
%destructor finally_opt {(void)$$;}
%destructor iname {(void)$$;}
%destructor dotted {(void)$$;}
%destructor dotted_as_name {(void)$$;}
%destructor param {(void)$$;}
%destructor lparam {(void)$$;}
%destructor testlist {(void)$$;}
%destructor ntestlist {(void)$$;}
%destructor xtarget {(void)$$;}
%destructor test {(void)$$;}
%destructor or_test {(void)$$;}
%destructor and_test {(void)$$;}
%destructor not_test {(void)$$;}
%destructor comparison {(void)$$;}
%destructor expr {(void)$$;}
%destructor primary {(void)$$;}
%destructor atom {(void)$$;}
%destructor arg {(void)$$;}
%destructor sub {(void)$$;}
%destructor subs {(void)$$;}
%destructor sliceopt {(void)$$;}
%destructor namedexpr {(void)$$;}
%destructor star_expr {(void)$$;}
%destructor titem {(void)$$;}
%destructor nitem {(void)$$;}
%destructor pitem {(void)$$;}
%destructor rhs {(void)$$;}
%destructor yield_expr {(void)$$;}
%destructor lambdef {(void)$$;}
%destructor comp_for {(void)$$;}
%destructor strpart {(void)$$;}
%destructor field {(void)$$;}
%destructor fexpr {(void)$$;}
%destructor fdebug {(void)$$;}
%destructor fspec {(void)$$;}
%destructor funcdef {(void)$$;}
%destructor classdef {(void)$$;}
%destructor decorator {(void)$$;}
%destructor handler {(void)$$;}
%destructor withitem {(void)$$;}
%destructor annot_opt {(void)$$;}
%destructor default_opt {(void)$$;}
%destructor ret_opt {(void)$$;}
%destructor from_module {(void)$$;}
%type augop {int}
%type cmpop {int}
%type dots {int}
%type fconv {int}
%destructor xitem {(void)$$;}

/* ---------------------------------------------------------------------------------------
** A chunk is a sequence of statements.
*/
chunk ::= stmts_opt(L).                               { ast_chunk(P, L); }
stmts_opt(A) ::= .                                    { A = ast_list_empty(P); }
stmts_opt(A) ::= stmts(L).                            { A = L; }
stmts(A) ::= stmt(L).                                 { A = L; }
stmts(A) ::= stmts(L) stmt(M).                        { A = ast_list_cat(P, L, M); }
stmt(A) ::= simple_line(L).                           { A = L; }
stmt(A) ::= compound(S).                              { A = ast_list_new(P, S); }
simple_line(A) ::= simples(L) NEWLINE.                { A = L; }
simple_line(A) ::= simples(L) SEMI NEWLINE.           { A = L; }
simples(A) ::= small(S).                              { A = ast_list_new(P, S); }
simples(A) ::= simples(L) SEMI small(S).              { A = ast_list_add(P, L, S); }
simples(A) ::= IMPORT(T) dotted_as_names(L).          { A = ast_import_list(P, T, L); }
simples(A) ::= simples(L) SEMI IMPORT(T) dotted_as_names(M). { A = ast_list_cat(P, L, ast_import_list(P, T, M)); }

/* ---------------------------------------------------------------------------------------
** Simple statements.  Targets are parsed as expressions; ast.c checks that they can be
** assigned to (or deleted).
*/
small(A) ::= testlist(E).                             { A = ast_expr_stmt(P, E); }
small(A) ::= yield_expr(E).                           { A = ast_expr_stmt(P, E); }
small(A) ::= assign_lhs(L) rhs(E).                    { A = ast_assign(P, L, E); }
assign_lhs(A) ::= testlist(T) ASSIGN.                 { A = ast_list_new(P, T); }
assign_lhs(A) ::= assign_lhs(L) testlist(T) ASSIGN.   { A = ast_list_add(P, L, T); }
rhs(A) ::= testlist(E).                               { A = E; }
rhs(A) ::= yield_expr(E).                             { A = E; }
small(A) ::= testlist(T) augop(O) rhs(E).             { A = ast_augassign(P, T, O, E); }
small(A) ::= testlist(T) COLON test(X).               { A = ast_annassign(P, T, X, 0); }
small(A) ::= testlist(T) COLON test(X) ASSIGN rhs(E). { A = ast_annassign(P, T, X, E); }

augop(A) ::= PLUSEQ.                                  { A = OP_ADD; }
augop(A) ::= MINUSEQ.                                 { A = OP_SUB; }
augop(A) ::= STAREQ.                                  { A = OP_MUL; }
augop(A) ::= SLASHEQ.                                 { A = OP_DIV; }
augop(A) ::= SLASHSLASHEQ.                            { A = OP_FLOORDIV; }
augop(A) ::= PERCENTEQ.                               { A = OP_MOD; }
augop(A) ::= POWEQ.                                   { A = OP_POW; }
augop(A) ::= ATEQ.                                    { A = OP_MATMUL; }
augop(A) ::= AMPEQ.                                   { A = OP_BITAND; }
augop(A) ::= PIPEEQ.                                  { A = OP_BITOR; }
augop(A) ::= CARETEQ.                                 { A = OP_BITXOR; }
augop(A) ::= LSHIFTEQ.                                { A = OP_LSHIFT; }
augop(A) ::= RSHIFTEQ.                                { A = OP_RSHIFT; }

small(A) ::= PASS(T).                                 { A = ast_simple(P, N_PASS, T); }
small(A) ::= BREAK(T).                                { A = ast_simple(P, N_BREAK, T); }
small(A) ::= CONTINUE(T).                             { A = ast_simple(P, N_CONTINUE, T); }
small(A) ::= RETURN(T).                               { A = ast_return(P, T, 0); }
small(A) ::= RETURN(T) testlist(E).                   { A = ast_return(P, T, E); }
small(A) ::= RAISE(T).                                { A = ast_raise(P, T, 0, 0); }
small(A) ::= RAISE(T) test(E).                        { A = ast_raise(P, T, E, 0); }
small(A) ::= RAISE(T) test(E) FROM test(C).           { A = ast_raise(P, T, E, C); }
small(A) ::= GLOBAL(T) names(L).                      { A = ast_global(P, N_GLOBAL, T, L); }
small(A) ::= NONLOCAL(T) names(L).                    { A = ast_global(P, N_NONLOCAL, T, L); }
small(A) ::= ASSERT(T) test(E).                       { A = ast_assert(P, T, E, 0); }
small(A) ::= ASSERT(T) test(E) COMMA test(M).         { A = ast_assert(P, T, E, M); }
small(A) ::= DEL(T) xlist(L).                         { A = ast_del(P, T, L); }
small(A) ::= DEL(T) xlist(L) COMMA.                   { A = ast_del(P, T, L); }
names(A) ::= NAME(N).                                 { A = ast_list_new(P, ast_name(P, N)); }
names(A) ::= names(L) COMMA NAME(N).                  { A = ast_list_add(P, L, ast_name(P, N)); }

/* ---------------------------------------------------------------------------------------
** Imports.  `import a, b` is one N_IMPORT per module (ast_import_list); `from .. x import y`
** keeps its level of dots.
*/
dotted_as_names(A) ::= dotted_as_name(X).             { A = ast_list_new(P, X); }
dotted_as_names(A) ::= dotted_as_names(L) COMMA dotted_as_name(X). { A = ast_list_add(P, L, X); }
dotted_as_name(A) ::= dotted(D).                      { A = D; }
dotted_as_name(A) ::= dotted(D) AS NAME(N).           { A = ast_alias(P, D, ast_name(P, N)); }
small(A) ::= FROM(T) from_module(D) IMPORT STAR.      { A = ast_from_import(P, T, D, ast_list_empty(P)); }
small(A) ::= FROM(T) from_module(D) IMPORT inames(L). { A = ast_from_import(P, T, D, L); }
small(A) ::= FROM(T) from_module(D) IMPORT LP inames(L) RP. { A = ast_from_import(P, T, D, L); }
small(A) ::= FROM(T) from_module(D) IMPORT LP inames(L) COMMA RP. { A = ast_from_import(P, T, D, L); }
from_module(A) ::= dotted(D).                         { A = ast_relative(P, 0, D); }
from_module(A) ::= dots(N) dotted(D).                 { A = ast_relative(P, N, D); }
from_module(A) ::= dots(N).                           { A = ast_relative(P, N, 0); }
dots(A) ::= DOT.                                      { A = 1; }
dots(A) ::= ELLIPSIS.                                 { A = 3; }
dots(A) ::= dots(N) DOT.                              { A = N + 1; }
dots(A) ::= dots(N) ELLIPSIS.                         { A = N + 3; }
inames(A) ::= iname(X).                               { A = ast_list_new(P, X); }
inames(A) ::= inames(L) COMMA iname(X).               { A = ast_list_add(P, L, X); }
iname(A) ::= NAME(N).                                 { A = ast_import_name(P, N, 0); }
iname(A) ::= NAME(N) AS NAME(M).                      { A = ast_import_name(P, N, ast_name(P, M)); }
dotted(A) ::= NAME(N).                                { A = ast_name(P, N); }
dotted(A) ::= dotted(D) DOT NAME(N).                  { A = ast_dotted(P, D, N); }

/* ---------------------------------------------------------------------------------------
** Compound statements.  A suite is either the rest of the header's line or an indented
** block; `elif` chains nest as N_IF in the else slot (built left to right by ast_elif).
*/
compound(A) ::= ifchain(L) else_opt(E).                        { A = ast_if_end(P, L, E); }
ifchain(A) ::= IF(T) namedexpr(C) COLON suite(B).              { A = ast_elif(P, ast_list_empty(P), T, C, B); }
ifchain(A) ::= ifchain(L) ELIF(T) namedexpr(C) COLON suite(B). { A = ast_elif(P, L, T, C, B); }
else_opt(A) ::= .                                              { A = 0; }
else_opt(A) ::= ELSE COLON suite(B).                           { A = B; }
compound(A) ::= WHILE(T) namedexpr(C) COLON suite(B) else_opt(E). { A = ast_while(P, T, C, B, E); }
compound(A) ::= FOR(T) xtarget(X) IN testlist(E) COLON suite(B) else_opt(O). { A = ast_for(P, T, X, E, B, O); }

compound(A) ::= TRY(T) COLON suite(B) handlers(H) else_opt(E) finally_opt(F). { A = ast_try(P, T, B, H, E, F); }
compound(A) ::= TRY(T) COLON suite(B) FINALLY COLON suite(F).  { A = ast_try(P, T, B, ast_list_empty(P), 0, F); }
finally_opt(A) ::= .                                           { A = 0; }
finally_opt(A) ::= FINALLY COLON suite(B).                     { A = B; }
handlers(A) ::= handler(X).                                    { A = ast_list_new(P, X); }
handlers(A) ::= handlers(L) handler(X).                        { A = ast_list_add(P, L, X); }
handler(A) ::= EXCEPT(T) COLON suite(B).                       { A = ast_except(P, T, 0, 0, 0, B); }
handler(A) ::= EXCEPT(T) test(X) COLON suite(B).               { A = ast_except(P, T, 0, X, 0, B); }
handler(A) ::= EXCEPT(T) test(X) AS NAME(N) COLON suite(B).    { A = ast_except(P, T, 0, X, ast_name(P, N), B); }
handler(A) ::= EXCEPT(T) STAR test(X) COLON suite(B).          { A = ast_except(P, T, 1, X, 0, B); }
handler(A) ::= EXCEPT(T) STAR test(X) AS NAME(N) COLON suite(B). { A = ast_except(P, T, 1, X, ast_name(P, N), B); }

compound(A) ::= WITH(T) withitems(L) COLON suite(B).           { A = ast_with(P, T, L, B); }
withitems(A) ::= withitem(X).                                  { A = ast_list_new(P, X); }
withitems(A) ::= withitems(L) COMMA withitem(X).               { A = ast_list_add(P, L, X); }
withitem(A) ::= test(X).                                       { A = ast_withitem(P, X, 0); }
withitem(A) ::= test(X) AS expr(Y).                            { A = ast_withitem(P, X, Y); }

compound(A) ::= funcdef(X).                                    { A = X; }
compound(A) ::= classdef(X).                                   { A = X; }
compound(A) ::= decorators(D) funcdef(X).                      { A = ast_decorate(P, D, X); }
compound(A) ::= decorators(D) classdef(X).                     { A = ast_decorate(P, D, X); }
decorators(A) ::= decorator(X).                                { A = ast_list_new(P, X); }
decorators(A) ::= decorators(L) decorator(X).                  { A = ast_list_add(P, L, X); }
decorator(A) ::= AT namedexpr(X) NEWLINE.                      { A = X; }

funcdef(A) ::= DEF(T) NAME(N) LP params_opt(L) RP ret_opt(R) COLON suite(B). { A = ast_def(P, T, N, L, R, B); }
ret_opt(A) ::= .                                      { A = 0; }
ret_opt(A) ::= ARROW test(X).                         { A = X; }
params_opt(A) ::= .                                   { A = ast_list_empty(P); }
params_opt(A) ::= params(L).                          { A = L; }
params_opt(A) ::= params(L) COMMA.                    { A = L; }
params(A) ::= param(X).                               { A = ast_list_new(P, X); }
params(A) ::= params(L) COMMA param(X).               { A = ast_list_add(P, L, X); }
param(A) ::= NAME(N) annot_opt(X) default_opt(D).     { A = ast_param(P, N, X, D, PARAM_NORMAL); }
param(A) ::= STAR(T).                                 { A = ast_param(P, T, 0, 0, PARAM_STAR); }
param(A) ::= STAR(T) NAME(N) annot_opt(X) default_opt(D). { A = ast_param_star(P, T, N, X, D, PARAM_VARARGS); }
param(A) ::= STAR(T) NAME(N) COLON star_expr(X).      { A = ast_param_star(P, T, N, X, 0, PARAM_VARARGS); }
param(A) ::= POW(T) NAME(N) annot_opt(X) default_opt(D). { A = ast_param_star(P, T, N, X, D, PARAM_VARKW); }
param(A) ::= SLASH(T).                                { A = ast_param(P, T, 0, 0, PARAM_SLASH); }
annot_opt(A) ::= .                                    { A = 0; }
annot_opt(A) ::= COLON test(X).                       { A = X; }
default_opt(A) ::= .                                  { A = 0; }
default_opt(A) ::= ASSIGN test(X).                    { A = X; }

classdef(A) ::= CLASS(T) NAME(N) COLON suite(B).      { A = ast_class(P, T, N, ast_list_empty(P), B); }
classdef(A) ::= CLASS(T) NAME(N) LP RP COLON suite(B). { A = ast_class(P, T, N, ast_list_empty(P), B); }
classdef(A) ::= CLASS(T) NAME(N) LP args(L) RP COLON suite(B). { A = ast_class(P, T, N, L, B); }

suite(A) ::= simple_line(L).                          { A = ast_block(P, L); }
suite(A) ::= NEWLINE INDENT stmts(L) DEDENT.          { A = ast_block(P, L); }

/* ---------------------------------------------------------------------------------------
** Expression lists: a bare comma makes a tuple (`a, b = b, a`, `return a, b`, `1,`).
** Items may be starred (`a, *b = x`); the checks in parse.c reject a star where Python does.
*/
testlist(A) ::= elist(L).                             { A = ast_testlist(P, L); }
testlist(A) ::= elist(L) COMMA.                       { A = ast_testlist(P, ast_list_comma(P, L)); }
elist(A) ::= titem(X).                                { A = ast_list_new(P, X); }
elist(A) ::= elist(L) COMMA titem(X).                 { A = ast_list_add(P, L, X); }
titem(A) ::= test(X).                                 { A = X; }
titem(A) ::= star_expr(X).                            { A = X; }
star_expr(A) ::= STAR(T) expr(X).                     { A = ast_starred(P, T, X); }

/* Displays and parentheses also take `name := value` items. */
nlist(A) ::= nitem(X).                                { A = ast_list_new(P, X); }
nlist(A) ::= nlist(L) COMMA nitem(X).                 { A = ast_list_add(P, L, X); }
nitem(A) ::= namedexpr(X).                            { A = X; }
nitem(A) ::= star_expr(X).                            { A = X; }
namedexpr(A) ::= test(X).                             { A = X; }
namedexpr(A) ::= NAME(N) WALRUS test(X).              { A = ast_namedexpr(P, ast_name(P, N), X); }

/* Targets of `for`, `del` and comprehensions stop below the comparisons, so `in` ends them. */
xtarget(A) ::= xlist(L).                              { A = ast_testlist(P, L); }
xtarget(A) ::= xlist(L) COMMA.                        { A = ast_testlist(P, ast_list_comma(P, L)); }
xlist(A) ::= xitem(X).                                { A = ast_list_new(P, X); }
xlist(A) ::= xlist(L) COMMA xitem(X).                 { A = ast_list_add(P, L, X); }
xitem(A) ::= expr(X).                                 { A = X; }
xitem(A) ::= star_expr(X).                            { A = X; }

yield_expr(A) ::= YIELD(T).                           { A = ast_yield(P, T, N_YIELD, 0); }
yield_expr(A) ::= YIELD(T) testlist(X).               { A = ast_yield(P, T, N_YIELD, X); }
yield_expr(A) ::= YIELD(T) FROM test(X).              { A = ast_yield(P, T, N_YIELDFROM, X); }

/* ---------------------------------------------------------------------------------------
** Boolean and comparison levels: lambda, `x if c else y`, or, and, not, chained comparisons.
*/
test(A) ::= or_test(X).                               { A = X; }
test(A) ::= or_test(X) IF or_test(C) ELSE test(Y).    { A = ast_ifexp(P, X, C, Y); }
test(A) ::= lambdef(X).                               { A = X; }
lambdef(A) ::= LAMBDA(T) COLON test(B).               { A = ast_lambda(P, T, ast_list_empty(P), B); }
lambdef(A) ::= LAMBDA(T) lparams(L) COLON test(B).    { A = ast_lambda(P, T, L, B); }
lambdef(A) ::= LAMBDA(T) lparams(L) COMMA COLON test(B). { A = ast_lambda(P, T, L, B); }
lparams(A) ::= lparam(X).                             { A = ast_list_new(P, X); }
lparams(A) ::= lparams(L) COMMA lparam(X).            { A = ast_list_add(P, L, X); }
lparam(A) ::= NAME(N) default_opt(D).                 { A = ast_param(P, N, 0, D, PARAM_NORMAL); }
lparam(A) ::= STAR(T).                                { A = ast_param(P, T, 0, 0, PARAM_STAR); }
lparam(A) ::= STAR(T) NAME(N) default_opt(D).         { A = ast_param_star(P, T, N, 0, D, PARAM_VARARGS); }
lparam(A) ::= POW(T) NAME(N) default_opt(D).          { A = ast_param_star(P, T, N, 0, D, PARAM_VARKW); }
lparam(A) ::= SLASH(T).                               { A = ast_param(P, T, 0, 0, PARAM_SLASH); }

or_test(A) ::= and_test(X).                           { A = X; }
or_test(A) ::= or_test(X) OR and_test(Y).             { A = ast_bool(P, N_OR, X, Y); }
and_test(A) ::= not_test(X).                          { A = X; }
and_test(A) ::= and_test(X) AND not_test(Y).          { A = ast_bool(P, N_AND, X, Y); }
not_test(A) ::= comparison(X).                        { A = X; }
not_test(A) ::= NOT(T) not_test(X).                   { A = ast_unary(P, T, OP_NOT, X); }
comparison(A) ::= expr(X).                            { A = X; }
comparison(A) ::= expr(X) cmpitems(L).                { A = ast_compare(P, X, L); }
cmpitems(A) ::= cmpop(O) expr(Y).                     { A = ast_list_new(P, ast_cmpitem(P, O, Y)); }
cmpitems(A) ::= cmpitems(L) cmpop(O) expr(Y).         { A = ast_list_add(P, L, ast_cmpitem(P, O, Y)); }

cmpop(A) ::= LT.                                      { A = OP_LT; }
cmpop(A) ::= LE.                                      { A = OP_LE; }
cmpop(A) ::= GT.                                      { A = OP_GT; }
cmpop(A) ::= GE.                                      { A = OP_GE; }
cmpop(A) ::= EQ.                                      { A = OP_EQ; }
cmpop(A) ::= NE.                                      { A = OP_NE; }
cmpop(A) ::= IN.                                      { A = OP_IN; }
cmpop(A) ::= NOT IN.                                  { A = OP_NOT_IN; }
cmpop(A) ::= IS.                                      { A = OP_IS; }
cmpop(A) ::= IS NOT.                                  { A = OP_IS_NOT; }

/* ---------------------------------------------------------------------------------------
** Arithmetic and bitwise levels, by the precedence declarations above.  `**` binds tighter
** than a unary operator on its left (-2**2 == -(2**2)) and is right-associative.
*/
expr(A) ::= expr(X) PIPE expr(Y).                     { A = ast_binop(P, OP_BITOR, X, Y); }
expr(A) ::= expr(X) CARET expr(Y).                    { A = ast_binop(P, OP_BITXOR, X, Y); }
expr(A) ::= expr(X) AMP expr(Y).                      { A = ast_binop(P, OP_BITAND, X, Y); }
expr(A) ::= expr(X) LSHIFT expr(Y).                   { A = ast_binop(P, OP_LSHIFT, X, Y); }
expr(A) ::= expr(X) RSHIFT expr(Y).                   { A = ast_binop(P, OP_RSHIFT, X, Y); }
expr(A) ::= expr(X) PLUS expr(Y).                     { A = ast_binop(P, OP_ADD, X, Y); }
expr(A) ::= expr(X) MINUS expr(Y).                    { A = ast_binop(P, OP_SUB, X, Y); }
expr(A) ::= expr(X) STAR expr(Y).                     { A = ast_binop(P, OP_MUL, X, Y); }
expr(A) ::= expr(X) SLASH expr(Y).                    { A = ast_binop(P, OP_DIV, X, Y); }
expr(A) ::= expr(X) SLASHSLASH expr(Y).               { A = ast_binop(P, OP_FLOORDIV, X, Y); }
expr(A) ::= expr(X) PERCENT expr(Y).                  { A = ast_binop(P, OP_MOD, X, Y); }
expr(A) ::= expr(X) AT expr(Y).                       { A = ast_binop(P, OP_MATMUL, X, Y); }
expr(A) ::= expr(X) POW expr(Y).                      { A = ast_binop(P, OP_POW, X, Y); }
expr(A) ::= MINUS(T) expr(X). [UNARY]                 { A = ast_unary(P, T, OP_NEG, X); }
expr(A) ::= PLUS(T) expr(X). [UNARY]                  { A = ast_unary(P, T, OP_POS, X); }
expr(A) ::= TILDE(T) expr(X). [UNARY]                 { A = ast_unary(P, T, OP_INVERT, X); }
expr(A) ::= primary(X).                               { A = X; }

/* ---------------------------------------------------------------------------------------
** Primaries: attribute access, calls, subscripts.
*/
primary(A) ::= atom(X).                               { A = X; }
primary(A) ::= primary(X) DOT NAME(N).                { A = ast_attr(P, X, N); }
primary(A) ::= primary(X) LP(T) RP.                   { A = ast_call(P, X, T, ast_list_empty(P)); }
primary(A) ::= primary(X) LP(T) args(L) RP.           { A = ast_call(P, X, T, L); }
primary(A) ::= primary(X) LB subs(I) RB.              { A = ast_subscript(P, X, I); }

args(A) ::= alist(L).                                 { A = L; }
args(A) ::= alist(L) COMMA.                           { A = ast_list_comma(P, L); }
alist(A) ::= arg(X).                                  { A = ast_list_new(P, X); }
alist(A) ::= alist(L) COMMA arg(X).                   { A = ast_list_add(P, L, X); }
arg(A) ::= namedexpr(X).                              { A = X; }
arg(A) ::= namedexpr(X) comp_fors(L).                 { A = ast_comp(P, N_GENEXP, 0, X, L); }
arg(A) ::= STAR(T) test(X).                           { A = ast_starred(P, T, X); }
arg(A) ::= POW(T) test(X).                            { A = ast_dstar(P, T, X); }
arg(A) ::= NAME(N) ASSIGN test(X).                    { A = ast_kwarg(P, N, X); }

subs(A) ::= slist(L).                                 { A = ast_testlist(P, L); }
subs(A) ::= slist(L) COMMA.                           { A = ast_testlist(P, ast_list_comma(P, L)); }
slist(A) ::= sub(X).                                  { A = ast_list_new(P, X); }
slist(A) ::= slist(L) COMMA sub(X).                   { A = ast_list_add(P, L, X); }
sub(A) ::= namedexpr(X).                              { A = X; }
sub(A) ::= star_expr(X).                              { A = X; }
sub(A) ::= sliceopt(X) COLON(T) sliceopt(Y).          { A = ast_slice(P, T, X, Y, 0); }
sub(A) ::= sliceopt(X) COLON(T) sliceopt(Y) COLON sliceopt(Z). { A = ast_slice(P, T, X, Y, Z); }
sliceopt(A) ::= .                                     { A = 0; }
sliceopt(A) ::= test(X).                              { A = X; }

/* ---------------------------------------------------------------------------------------
** Atoms: literals, names, parentheses, displays and comprehensions.
*/
atom(A) ::= NAME(N).                                  { A = ast_name(P, N); }
atom(A) ::= INT(N).                                   { A = ast_int(P, N); }
atom(A) ::= FLOAT(N).                                 { A = ast_float(P, N); }
atom(A) ::= IMAG(N).                                  { A = ast_imag(P, N); }
atom(A) ::= strings(L).                               { A = ast_strings(P, L); }
atom(A) ::= TRUE(T).                                  { A = ast_const(P, N_TRUE, T); }
atom(A) ::= FALSE(T).                                 { A = ast_const(P, N_FALSE, T); }
atom(A) ::= NONE(T).                                  { A = ast_const(P, N_NONE, T); }
atom(A) ::= ELLIPSIS(T).                              { A = ast_const(P, N_ELLIPSIS, T); }
atom(A) ::= LP(T) RP.                                 { A = ast_seq(P, N_TUPLE, T, ast_list_empty(P)); }
atom(A) ::= LP(T) plist(L) RP.                        { A = ast_paren(P, T, ast_testlist(P, L)); }
atom(A) ::= LP(T) plist(L) COMMA RP.                  { A = ast_paren(P, T, ast_testlist(P, ast_list_comma(P, L))); }
atom(A) ::= LP(T) yield_expr(X) RP.                   { A = ast_paren(P, T, X); }
atom(A) ::= LP(T) namedexpr(X) comp_fors(L) RP.       { A = ast_comp(P, N_GENEXP, &T, X, L); }
atom(A) ::= LB(T) RB.                                 { A = ast_seq(P, N_LIST, T, ast_list_empty(P)); }
atom(A) ::= LB(T) nlist(L) RB.                        { A = ast_seq(P, N_LIST, T, L); }
atom(A) ::= LB(T) nlist(L) COMMA RB.                  { A = ast_seq(P, N_LIST, T, L); }
atom(A) ::= LB(T) namedexpr(X) comp_fors(L) RB.       { A = ast_comp(P, N_LISTCOMP, &T, X, L); }
atom(A) ::= LBRACE(T) RBRACE.                         { A = ast_seq(P, N_DICT, T, ast_list_empty(P)); }
atom(A) ::= LBRACE(T) dlist(L) RBRACE.                { A = ast_seq(P, N_DICT, T, L); }
atom(A) ::= LBRACE(T) dlist(L) COMMA RBRACE.          { A = ast_seq(P, N_DICT, T, L); }
atom(A) ::= LBRACE(T) nlist(L) RBRACE.                { A = ast_seq(P, N_SET, T, L); }
atom(A) ::= LBRACE(T) nlist(L) COMMA RBRACE.          { A = ast_seq(P, N_SET, T, L); }
atom(A) ::= LBRACE(T) namedexpr(X) comp_fors(L) RBRACE. { A = ast_comp(P, N_SETCOMP, &T, X, L); }
atom(A) ::= LBRACE(T) test(K) COLON test(V) comp_fors(L) RBRACE. { A = ast_comp(P, N_DICTCOMP, &T, ast_dictitem(P, K, V), L); }

/* Inside parentheses an item may be `x as y`: only `with (a as b, c):` keeps it (ast_with). */
plist(A) ::= pitem(X).                                { A = ast_list_new(P, X); }
plist(A) ::= plist(L) COMMA pitem(X).                 { A = ast_list_add(P, L, X); }
pitem(A) ::= namedexpr(X).                            { A = X; }
pitem(A) ::= star_expr(X).                            { A = X; }
pitem(A) ::= test(X) AS expr(Y).                      { A = ast_withitem(P, X, Y); }

dlist(A) ::= ditem(X).                                { A = ast_list_new(P, X); }
dlist(A) ::= dlist(L) COMMA ditem(X).                 { A = ast_list_add(P, L, X); }
ditem(A) ::= test(K) COLON test(V).                   { A = ast_dictitem(P, K, V); }
ditem(A) ::= POW(T) expr(X).                          { A = ast_dstar(P, T, X); }

comp_fors(A) ::= comp_for(X).                         { A = ast_list_new(P, X); }
comp_fors(A) ::= comp_fors(L) comp_for(X).            { A = ast_list_add(P, L, X); }
comp_for(A) ::= FOR(T) xtarget(X) IN or_test(E) comp_ifs(L). { A = ast_compfor(P, T, X, E, L); }
comp_ifs(A) ::= .                                     { A = ast_list_empty(P); }
comp_ifs(A) ::= comp_ifs(L) IF or_test(C).            { A = ast_list_add(P, L, C); }

/* Adjacent literals are one constant (or one f-string): "a" f"{b}" 'c'. */
strings(A) ::= strpart(X).                            { A = ast_list_new(P, X); }
strings(A) ::= strings(L) strpart(X).                 { A = ast_list_add(P, L, X); }
strpart(A) ::= STRING(S).                             { A = ast_str(P, S); }
strpart(A) ::= FSTART(T) fparts(L) FEND.              { A = ast_fstring(P, T, L); }
fparts(A) ::= .                                       { A = ast_list_empty(P); }
fparts(A) ::= fparts(L) FMIDDLE(S).                   { A = ast_list_add(P, L, ast_fmiddle(P, S)); }
fparts(A) ::= fparts(L) field(X).                     { A = ast_fparts_add(P, L, X); }
field(A) ::= LBRACE(T) fexpr(E) fdebug(D) fconv(C) fspec(S) RBRACE. { A = ast_formatted(P, T, E, D, C, S); }
fexpr(A) ::= testlist(X).                             { A = X; }
fexpr(A) ::= yield_expr(X).                           { A = X; }
fdebug(A) ::= .                                       { A = 0; }
fdebug(A) ::= FDEBUG(T).                              { A = ast_debug_text(P, T); }
fconv(A) ::= .                                        { A = -1; }
fconv(A) ::= BANG(B) NAME(N).                         { A = ast_conversion(P, B, N); }
fspec(A) ::= .                                        { A = 0; }
fspec(A) ::= COLON(T) specparts(L).                   { A = ast_fspec(P, T, L); }
specparts(A) ::= .                                    { A = ast_list_empty(P); }
specparts(A) ::= specparts(L) FMIDDLE(S).             { A = ast_list_add(P, L, ast_fmiddle(P, S)); }
specparts(A) ::= specparts(L) field(X).               { A = ast_fparts_add(P, L, X); }

/* The engine's size and life cycle for parse.c, which allocates it through the Ctx. */
%code {
size_t tsrParserSize(void) { return sizeof(yyParser); }
bool tsrParserAccepts(int state, int code) {
  return yy_find_shift_action((YYCODETYPE)code, (YYACTIONTYPE)state) < YY_ERROR_ACTION;
}
}
