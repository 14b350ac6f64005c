/*
** tsr.y -- the Lemon grammar of tsr, the NumPy-flavoured subset of Python (DESIGN.md §1).
**
** The lexer (src/lang/lex.c) feeds tokens one at a time, with NEWLINE, INDENT and DEDENT as
** CPython's tokenizer makes them, and 0 at the end.  Every action is a one-line call to an
** AST constructor in src/lang/ast.c; the tree lives in the chunk's arena, so destructors
** have nothing to free.  Python's precedence: the boolean and comparison levels are written
** as layered non-terminals (so `a == not b` stays a syntax error, as in Python), the
** arithmetic levels with precedence declarations.
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
  parse_syntax_error(P, yymajor, &yyminor, yy_find_shift_action(TK_COLON, yypParser->yytos->stateno) < YY_ERROR_ACTION);
}

/* Token codes, in a fixed order; some are produced by the lexer only to be rejected. */
%token NEWLINE INDENT DEDENT NAME INT FLOAT STRING.
%token AND AS ASSERT BREAK CONTINUE DEF DEL ELIF ELSE FALSE FOR FROM GLOBAL IF IMPORT IN IS
       NONE NOT OR PASS RETURN TRUE WHILE RESERVED.
%token LP RP LB RB LBRACE RBRACE COMMA COLON SEMI DOT ELLIPSIS ASSIGN ARROW WALRUS BANG.
%token PLUSEQ MINUSEQ STAREQ SLASHEQ SLASHSLASHEQ PERCENTEQ POWEQ ATEQ AMPEQ PIPEEQ CARETEQ
       LSHIFTEQ RSHIFTEQ.
%token LT LE GT GE EQ NE.

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
%type elist {NodeList}
%destructor elist {(void)$$;}
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
%type augop {int}
%type cmpop {int}

%destructor small {(void)$$;}
%destructor compound {(void)$$;}
%destructor suite {(void)$$;}
%destructor else_part {(void)$$;}
%destructor iname {(void)$$;}
%destructor dotted {(void)$$;}
%destructor param {(void)$$;}
%destructor testlist {(void)$$;}
%destructor xtarget {(void)$$;}
%destructor test {(void)$$;}
%destructor or_test {(void)$$;}
%destructor and_test {(void)$$;}
%destructor not_test {(void)$$;}
%destructor comparison {(void)$$;}
%destructor expr {(void)$$;}
%destructor primary {(void)$$;}
%destructor atom {(void)$$;}
%destructor strings {(void)$$;}
%destructor arg {(void)$$;}
%destructor sub {(void)$$;}
%destructor subs {(void)$$;}
%destructor sliceopt {(void)$$;}

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

/* ---------------------------------------------------------------------------------------
** Simple statements.
*/
small(A) ::= testlist(E).                             { A = ast_expr_stmt(P, E); }
small(A) ::= assign_lhs(L) testlist(E).               { A = ast_assign(P, L, E); }
assign_lhs(A) ::= testlist(T) ASSIGN.                 { A = ast_list_new(P, T); }
assign_lhs(A) ::= assign_lhs(L) testlist(T) ASSIGN.   { A = ast_list_add(P, L, T); }
small(A) ::= testlist(T) augop(O) testlist(E).        { A = ast_augassign(P, T, O, E); }

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
small(A) ::= GLOBAL(T) names(L).                      { A = ast_global(P, T, L); }
small(A) ::= ASSERT(T) test(E).                       { A = ast_assert(P, T, E, 0); }
small(A) ::= ASSERT(T) test(E) COMMA test(M).         { A = ast_assert(P, T, E, M); }
small(A) ::= DEL(T) xlist(L).                         { A = ast_del(P, T, L); }
small(A) ::= DEL(T) xlist(L) COMMA.                   { A = ast_del(P, T, L); }
names(A) ::= NAME(N).                                 { A = ast_list_new(P, ast_name(P, N)); }
names(A) ::= names(L) COMMA NAME(N).                  { A = ast_list_add(P, L, ast_name(P, N)); }

/* ---------------------------------------------------------------------------------------
** Imports: only numpy exists, but any dotted name parses (the evaluator says ImportError).
*/
small(A) ::= IMPORT(T) dotted(D).                     { A = ast_import(P, T, D, 0); }
small(A) ::= IMPORT(T) dotted(D) AS NAME(N).          { A = ast_import(P, T, D, ast_name(P, N)); }
small(A) ::= FROM(T) dotted(D) IMPORT STAR.           { A = ast_from_import(P, T, D, ast_list_empty(P)); }
small(A) ::= FROM(T) dotted(D) IMPORT inames(L).      { A = ast_from_import(P, T, D, L); }
small(A) ::= FROM(T) dotted(D) IMPORT LP inames(L) RP. { A = ast_from_import(P, T, D, L); }
small(A) ::= FROM(T) dotted(D) IMPORT LP inames(L) COMMA RP. { A = ast_from_import(P, T, D, L); }
inames(A) ::= iname(X).                               { A = ast_list_new(P, X); }
inames(A) ::= inames(L) COMMA iname(X).               { A = ast_list_add(P, L, X); }
iname(A) ::= NAME(N).                                 { A = ast_import_name(P, N, 0); }
iname(A) ::= NAME(N) AS NAME(M).                      { A = ast_import_name(P, N, ast_name(P, M)); }
dotted(A) ::= NAME(N).                                { A = ast_name(P, N); }
dotted(A) ::= dotted(D) DOT NAME(N).                  { A = ast_dotted(P, D, N); }

/* ---------------------------------------------------------------------------------------
** Compound statements.  A suite is either the rest of the header's line or an indented
** block; `elif` chains nest as N_IF in the else slot.
*/
compound(A) ::= IF(T) test(C) COLON suite(B) else_part(E).     { A = ast_if(P, T, C, B, E); }
else_part(A) ::= .                                             { A = 0; }
else_part(A) ::= ELSE COLON suite(B).                          { A = B; }
else_part(A) ::= ELIF(T) test(C) COLON suite(B) else_part(E).  { A = ast_if(P, T, C, B, E); }
compound(A) ::= WHILE(T) test(C) COLON suite(B).               { A = ast_while(P, T, C, B); }
compound(A) ::= FOR(T) xtarget(X) IN testlist(E) COLON suite(B). { A = ast_for(P, T, X, E, B); }
compound(A) ::= DEF(T) NAME(N) LP params_opt(L) RP COLON suite(B). { A = ast_def(P, T, N, L, B); }

params_opt(A) ::= .                                   { A = ast_list_empty(P); }
params_opt(A) ::= params(L).                          { A = L; }
params_opt(A) ::= params(L) COMMA.                    { A = L; }
params(A) ::= param(X).                               { A = ast_param_add(P, ast_list_empty(P), X); }
params(A) ::= params(L) COMMA param(X).               { A = ast_param_add(P, L, X); }
param(A) ::= NAME(N).                                 { A = ast_param(P, N, 0); }
param(A) ::= NAME(N) ASSIGN test(E).                  { A = ast_param(P, N, E); }

suite(A) ::= simple_line(L).                          { A = ast_block(P, L); }
suite(A) ::= NEWLINE INDENT stmts(L) DEDENT.          { A = ast_block(P, L); }

/* ---------------------------------------------------------------------------------------
** Expression lists: a bare comma makes a tuple (`a, b = b, a`, `return a, b`, `1,`).
*/
testlist(A) ::= elist(L).                             { A = ast_testlist(P, L); }
testlist(A) ::= elist(L) COMMA.                       { A = ast_testlist(P, ast_list_comma(P, L)); }
elist(A) ::= test(X).                                 { A = ast_list_new(P, X); }
elist(A) ::= elist(L) COMMA test(X).                  { A = ast_list_add(P, L, X); }

/* Targets of `for` and `del` stop below the comparisons, so `in` ends them. */
xtarget(A) ::= xlist(L).                              { A = ast_testlist(P, L); }
xtarget(A) ::= xlist(L) COMMA.                        { A = ast_testlist(P, ast_list_comma(P, L)); }
xlist(A) ::= expr(X).                                 { A = ast_list_new(P, X); }
xlist(A) ::= xlist(L) COMMA expr(X).                  { A = ast_list_add(P, L, X); }

/* ---------------------------------------------------------------------------------------
** Boolean and comparison levels: `x if c else y`, or, and, not, chained comparisons.
*/
test(A) ::= or_test(X).                               { A = X; }
test(A) ::= or_test(X) IF or_test(C) ELSE test(Y).    { A = ast_ifexp(P, X, C, Y); }
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
primary(A) ::= primary(X) LP RP.                      { A = ast_call(P, X, ast_list_empty(P)); }
primary(A) ::= primary(X) LP args(L) RP.              { A = ast_call(P, X, L); }
primary(A) ::= primary(X) LB subs(I) RB.              { A = ast_subscript(P, X, I); }

args(A) ::= alist(L).                                 { A = L; }
args(A) ::= alist(L) COMMA.                           { A = L; }
alist(A) ::= arg(X).                                  { A = ast_arg_add(P, ast_list_empty(P), X); }
alist(A) ::= alist(L) COMMA arg(X).                   { A = ast_arg_add(P, L, X); }
arg(A) ::= test(X).                                   { A = X; }
arg(A) ::= NAME(N) ASSIGN test(X).                    { A = ast_kwarg(P, N, X); }

subs(A) ::= slist(L).                                 { A = ast_testlist(P, L); }
subs(A) ::= slist(L) COMMA.                           { A = ast_testlist(P, ast_list_comma(P, L)); }
slist(A) ::= sub(X).                                  { A = ast_list_new(P, X); }
slist(A) ::= slist(L) COMMA sub(X).                   { A = ast_list_add(P, L, X); }
sub(A) ::= test(X).                                   { A = X; }
sub(A) ::= sliceopt(X) COLON(T) sliceopt(Y).          { A = ast_slice(P, T, X, Y, 0); }
sub(A) ::= sliceopt(X) COLON(T) sliceopt(Y) COLON sliceopt(Z). { A = ast_slice(P, T, X, Y, Z); }
sliceopt(A) ::= .                                     { A = 0; }
sliceopt(A) ::= test(X).                              { A = X; }

/* ---------------------------------------------------------------------------------------
** Atoms.
*/
atom(A) ::= NAME(N).                                  { A = ast_name(P, N); }
atom(A) ::= INT(N).                                   { A = ast_int(P, N); }
atom(A) ::= FLOAT(N).                                 { A = ast_float(P, N); }
atom(A) ::= strings(X).                               { A = X; }
atom(A) ::= TRUE(T).                                  { A = ast_const(P, N_TRUE, T); }
atom(A) ::= FALSE(T).                                 { A = ast_const(P, N_FALSE, T); }
atom(A) ::= NONE(T).                                  { A = ast_const(P, N_NONE, T); }
atom(A) ::= ELLIPSIS(T).                              { A = ast_const(P, N_ELLIPSIS, T); }
atom(A) ::= LP(T) RP.                                 { A = ast_seq(P, N_TUPLE, T, ast_list_empty(P)); }
atom(A) ::= LP(T) testlist(X) RP.                     { A = ast_paren(P, T, X); }
atom(A) ::= LB(T) RB.                                 { A = ast_seq(P, N_LIST, T, ast_list_empty(P)); }
atom(A) ::= LB(T) elist(L) RB.                        { A = ast_seq(P, N_LIST, T, L); }
atom(A) ::= LB(T) elist(L) COMMA RB.                  { A = ast_seq(P, N_LIST, T, L); }
strings(A) ::= STRING(S).                             { A = ast_str(P, S); }
strings(A) ::= strings(X) STRING(S).                  { A = ast_str_cat(P, X, S); }

/* The engine's size and life cycle for parse.c, which allocates it through the Ctx. */
%code {
size_t tsrParserSize(void) { return sizeof(yyParser); }
}
