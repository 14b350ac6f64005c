/*
** test_parse.c -- unit tests of the front end (lexer, grammar, AST constructors, parse_chunk):
** trees as S-expressions, error messages and positions, incomplete input, deep nesting.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lang/ast.h"
#include "tsr.h"
#include <stdio.h>

static Ctx ctx;

/* ---- S-expression dumper ---------------------------------------------------------------- */

static char out[1 << 16];
static size_t outn;

static void put(const char *s) {
  size_t n = strlen(s);
  if (outn + n >= sizeof out) n = sizeof out - 1 - outn;
  memcpy(out + outn, s, n);
  outn += n;
  out[outn] = 0;
}

static void dump(const Node *x);

static void dump_list(const Node *x) {
  for (; x; x = x->next) { put(" "); dump(x); }
}

static void dump_opt(const Node *x) {
  put(" ");
  if (x) dump(x);
  else put("_");
}

static void dump(const Node *x) {
  char buf[64];
  if (!x) { put("NULL"); return; }
  switch (x->kind) {
    case N_INT: snprintf(buf, sizeof buf, "%lld", (long long)x->ival); put(buf); break;
    case N_FLOAT: snprintf(buf, sizeof buf, "%.17g", x->fval); put(buf); if (!strpbrk(buf, ".en")) put(".0"); break;
    case N_STR:
      put("\"");
      for (size_t i = 0; i < x->len; i++) {
        unsigned char ch = (unsigned char)x->str[i];
        if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') snprintf(buf, sizeof buf, "\\x%02x", ch);
        else snprintf(buf, sizeof buf, "%c", ch);
        put(buf);
      }
      put("\"");
      break;
    case N_NAME:
      put(x->str);
      if (x->a) { put(" as "); dump(x->a); }
      break;
    case N_TRUE: put("True"); break;
    case N_FALSE: put("False"); break;
    case N_NONE: put("None"); break;
    case N_ELLIPSIS: put("..."); break;
    case N_BINOP: put("("); put(ast_op_symbol(x->op)); dump_list(x->a); put(" "); dump(x->b); put(")"); break;
    case N_UNARY:
      put(x->op == OP_NEG ? "(neg " : x->op == OP_POS ? "(pos " : x->op == OP_INVERT ? "(inv " : "(not ");
      dump(x->a);
      put(")");
      break;
    case N_AND: case N_OR:
      put(x->kind == N_AND ? "(and " : "(or "); dump(x->a); put(" "); dump(x->b); put(")"); break;
    case N_COMPARE:
      put("(cmp "); dump(x->a);
      for (const Node *i = x->b; i; i = i->next) { put(" "); put(ast_op_symbol(i->op)); put(" "); dump(i->a); }
      put(")");
      break;
    case N_IFEXP: put("(ifexp"); dump_opt(x->a); dump_opt(x->b); dump_opt(x->c); put(")"); break;
    case N_CALL: put("(call "); dump(x->a); dump_list(x->b); put(")"); break;
    case N_KWARG: put("(kw "); put(x->str); put(" "); dump(x->a); put(")"); break;
    case N_ATTR: put("(. "); dump(x->a); put(" "); put(x->str); put(")"); break;
    case N_SUBSCRIPT: put("(sub "); dump(x->a); put(" "); dump(x->b); put(")"); break;
    case N_SLICE: put("(slice"); dump_opt(x->a); dump_opt(x->b); dump_opt(x->c); put(")"); break;
    case N_TUPLE: put("(tuple"); dump_list(x->a); put(")"); break;
    case N_LIST: put("(list"); dump_list(x->a); put(")"); break;
    case N_BLOCK: put("(block"); dump_list(x->a); put(")"); break;
    case N_EXPR: dump(x->a); break;
    case N_ASSIGN: put("(="); dump_list(x->a); put(" "); dump(x->b); put(")"); break;
    case N_AUGASSIGN: put("("); put(ast_op_symbol(x->op)); put("= "); dump(x->a); put(" "); dump(x->b); put(")"); break;
    case N_DEF: if (x->c) { put("(@"); dump_list(x->c); put(") "); } put("(def "); put(x->str); put(" ("); for (const Node *p = x->a; p; p = p->next) { if (p != x->a) put(" "); dump(p); } put(") "); dump(x->b); put(")"); break;
    case N_PARAM: {
      static const char *const pre[] = {"", "/", "*", "kw:", "**"};
      if (x->a || x->b) put("(");
      put(pre[x->op]); put(x->str);
      if (x->b) { put(" : "); dump(x->b); }
      if (x->a) { put(" "); dump(x->a); }
      if (x->a || x->b) put(")");
      break;
    }
    case N_RETURN: put("(return"); if (x->a) { put(" "); dump(x->a); } put(")"); break;
    case N_IF: put("(if "); dump(x->a); put(" "); dump(x->b); if (x->c) { put(" "); dump(x->c); } put(")"); break;
    case N_FOR: put("(for "); dump(x->a); put(" "); dump(x->b); put(" "); dump(x->c); if (x->d) { put(" else "); dump(x->d); } put(")"); break;
    case N_WHILE: put("(while "); dump(x->a); put(" "); dump(x->b); if (x->d) { put(" else "); dump(x->d); } put(")"); break;
    case N_BREAK: put("break"); break;
    case N_CONTINUE: put("continue"); break;
    case N_PASS: put("pass"); break;
    case N_GLOBAL: put("(global"); dump_list(x->a); put(")"); break;
    case N_ASSERT: put("(assert "); dump(x->a); if (x->b) { put(" "); dump(x->b); } put(")"); break;
    case N_DEL: put("(del"); dump_list(x->a); put(")"); break;
    case N_IMPORT: put(x->op ? "(import, " : "(import "); put(x->str); if (x->a) { put(" as "); dump(x->a); } put(")"); break;
    case N_FROMIMPORT: put("(from "); for (int64_t i = 0; i < x->ival; i++) put("."); put(x->str); if (!x->n) put(" *"); dump_list(x->a); put(")"); break;
    case N_BIGINT: put(x->str); break;
    case N_IMAG: snprintf(buf, sizeof buf, "%gj", x->fval); put(buf); break;
    case N_BYTES: put("b"); put(x->str); break;
    case N_FSTRING: put("(f"); dump_list(x->a); put(")"); break;
    case N_FORMATTED:
      put("{"); dump(x->a);
      if (x->op) { snprintf(buf, sizeof buf, "!%c", x->op); put(buf); }
      if (x->b) { put(":"); dump(x->b); }
      put("}");
      break;
    case N_STARRED: put("*"); dump(x->a); break;
    case N_DSTAR: put("**"); dump(x->a); break;
    case N_NAMEDEXPR: put("(:= "); dump(x->a); put(" "); dump(x->b); put(")"); break;
    case N_LAMBDA:
      put("(lambda ("); for (const Node *p = x->a; p; p = p->next) { if (p != x->a) put(" "); dump(p); }
      put(") "); dump(x->b); put(")");
      break;
    case N_YIELD: put("(yield"); if (x->a) { put(" "); dump(x->a); } put(")"); break;
    case N_YIELDFROM: put("(yield-from "); dump(x->a); put(")"); break;
    case N_DICT: put("(dict"); dump_list(x->a); put(")"); break;
    case N_DICTITEM: dump(x->a); put(":"); dump(x->b); break;
    case N_SET: put("(set"); dump_list(x->a); put(")"); break;
    case N_LISTCOMP: case N_SETCOMP: case N_DICTCOMP: case N_GENEXP:
      put(x->kind == N_LISTCOMP ? "(listcomp " : x->kind == N_SETCOMP ? "(setcomp " :
          x->kind == N_DICTCOMP ? "(dictcomp " : "(genexp ");
      dump(x->a); dump_list(x->b); put(")");
      break;
    case N_COMPFOR: put("(for "); dump(x->a); put(" "); dump(x->b); for (const Node *c = x->c; c; c = c->next) { put(" if "); dump(c); } put(")"); break;
    case N_ANNASSIGN: put("(: "); dump(x->a); put(" "); dump(x->b); if (x->c) { put(" "); dump(x->c); } put(")"); break;
    case N_NONLOCAL: put("(nonlocal"); dump_list(x->a); put(")"); break;
    case N_CLASS: put("(class "); put(x->str); put(" ("); for (const Node *a = x->a; a; a = a->next) { if (a != x->a) put(" "); dump(a); } put(") "); dump(x->b); put(")"); break;
    case N_TRY:
      put(x->op ? "(try* " : "(try "); dump(x->a);
      for (const Node *h = x->b; h; h = h->next) {
        put(" (except"); if (h->a) { put(" "); dump(h->a); } if (h->c) { put(" as "); dump(h->c); } put(" "); dump(h->b); put(")");
      }
      if (x->c) { put(" else "); dump(x->c); }
      if (x->d) { put(" finally "); dump(x->d); }
      put(")");
      break;
    case N_RAISE: put("(raise"); if (x->a) { put(" "); dump(x->a); } if (x->b) { put(" from "); dump(x->b); } put(")"); break;
    case N_WITH: put("(with"); dump_list(x->a); put(" "); dump(x->b); put(")"); break;
    case N_WITHITEM: dump(x->a); if (x->b) { put(" as "); dump(x->b); } break;
    default: put("?"); put(ast_kind_name(x->kind)); break;
  }
}

/* Parses src and returns its statements as S-expressions separated by "; ", or
   "ERR kind: message @line:col" / "INCOMPLETE kind: message @line:col". */
static const char *P(const char *src) {
  static char res[1 << 16];
  Chunk *ch = NULL;
  int line = -1, col = -1;
  ctx_clear(&ctx);
  ParseResult r = parse_chunk(&ctx, src, strlen(src), "test", &ch, &line, &col);
  outn = 0;
  out[0] = 0;
  if (r == PARSE_OK) {
    for (const Node *s = ch->root->a; s; s = s->next) {
      if (s != ch->root->a) put("; ");
      dump(s);
    }
    snprintf(res, sizeof res, "%s", out);
    chunk_free(&ctx, ch);
  } else {
    snprintf(res, sizeof res, "%s %s: %s @%d:%d", r == PARSE_INCOMPLETE ? "INCOMPLETE" : "ERR",
             ctx.kind, ctx.msg, line, col);
    if (ch) snprintf(res, sizeof res, "chunk returned on error");
  }
  return res;
}

static ParseResult result_of(const char *src, size_t len, unsigned flags) {
  Chunk *ch = NULL;
  int line, col;
  ctx_clear(&ctx);
  ParseResult r = parse_chunk_ex(&ctx, src, len, "t", flags, &ch, &line, &col);
  chunk_free(&ctx, ch);
  return r;
}

/* The first statement's node (and its position) of src. */
static Chunk *pos_chunk;
static const Node *first(const char *src) {
  int line, col;
  if (pos_chunk) chunk_free(&ctx, pos_chunk);
  pos_chunk = NULL;
  ctx_clear(&ctx);
  if (parse_chunk(&ctx, src, strlen(src), "t", &pos_chunk, &line, &col) != PARSE_OK) return NULL;
  return pos_chunk->root->a;
}
#define POS(x, l, c) CHECK((x) && (x)->line == (l) && (x)->col == (c))

static char *repeat(const char *pre, const char *unit, long n, const char *post) {
  size_t a = strlen(pre), u = strlen(unit), b = strlen(post);
  char *s = malloc(a + u * (size_t)n + b + 1);
  memcpy(s, pre, a);
  for (long i = 0; i < n; i++) memcpy(s + a + u * (size_t)i, unit, u);
  memcpy(s + a + u * (size_t)n, post, b + 1);
  return s;
}

static void test_expressions(void) {
  CHECK_STR(P("1 + 2 * 3"), "(+ 1 (* 2 3))");
  CHECK_STR(P("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  CHECK_STR(P("a - b - c"), "(- (- a b) c)");
  CHECK_STR(P("-2**2"), "(neg (** 2 2))");
  CHECK_STR(P("2**-1"), "(** 2 (neg 1))");
  CHECK_STR(P("a**b**c"), "(** a (** b c))");
  CHECK_STR(P("a ** -b ** c"), "(** a (neg (** b c)))");
  CHECK_STR(P("-x.T"), "(neg (. x T))");
  CHECK_STR(P("~a + +b"), "(+ (inv a) (pos b))");
  CHECK_STR(P("a | b ^ c & d << 1 >> 2"), "(| a (^ b (& c (>> (<< d 1) 2))))");
  CHECK_STR(P("a @ b % c // d / e"), "(/ (// (% (@ a b) c) d) e)");
  CHECK_STR(P("a < b < c"), "(cmp a < b < c)");
  CHECK_STR(P("(a < b) < c"), "(cmp (cmp a < b) < c)");
  CHECK_STR(P("a not in b is not c in d is e != f"), "(cmp a not in b is not c in d is e != f)");
  CHECK_STR(P("not a == b"), "(not (cmp a == b))");
  CHECK_STR(P("a or b and not c"), "(or a (and b (not c)))");
  CHECK_STR(P("a or b or c"), "(or (or a b) c)");
  CHECK_STR(P("x if c else y if d else z"), "(ifexp x c (ifexp y d z))");
  CHECK_STR(P("a + b if c or d else e"), "(ifexp (+ a b) (or c d) e)");
  CHECK_STR(P("True, False, None, ..."), "(tuple True False None ...)");
  CHECK_STR(P("()"), "(tuple)");
  CHECK_STR(P("(1,)"), "(tuple 1)");
  CHECK_STR(P("(1, 2)"), "(tuple 1 2)");
  CHECK_STR(P("((1, 2))"), "(tuple 1 2)");
  CHECK_STR(P("[]"), "(list)");
  CHECK_STR(P("[1, [2, 3],]"), "(list 1 (list 2 3))");
  CHECK_STR(P("1,"), "(tuple 1)");
  CHECK_STR(P("1, 2"), "(tuple 1 2)");
  CHECK_STR(P("f()"), "(call f)");
  CHECK_STR(P("f(1, x, axis=0, keepdims=True,)"), "(call f 1 x (kw axis 0) (kw keepdims True))");
  CHECK_STR(P("np.linalg.norm(x)"), "(call (. (. np linalg) norm) x)");
  CHECK_STR(P("f(a)(b)[c].d"), "(. (sub (call (call f a) b) c) d)");
  CHECK_STR(P("x[1]"), "(sub x 1)");
  CHECK_STR(P("x[i][j]"), "(sub (sub x i) j)");
  CHECK_STR(P("x[1, 2]"), "(sub x (tuple 1 2))");
  CHECK_STR(P("x[1,]"), "(sub x (tuple 1))");
  CHECK_STR(P("x[()]"), "(sub x (tuple))");
  CHECK_STR(P("x[:]"), "(sub x (slice _ _ _))");
  CHECK_STR(P("x[::]"), "(sub x (slice _ _ _))");
  CHECK_STR(P("x[::-1]"), "(sub x (slice _ _ (neg 1)))");
  CHECK_STR(P("x[1:, None, ..., 2]"), "(sub x (tuple (slice 1 _ _) None ... 2))");
  CHECK_STR(P("x[a:b:c, :b, a:, ::c]"),
            "(sub x (tuple (slice a b c) (slice _ b _) (slice a _ _) (slice _ _ c)))");
  CHECK_STR(P("x[1:2, ::2] = e"), "(= (sub x (tuple (slice 1 2 _) (slice _ _ 2))) e)");
  CHECK_STR(P("x[x > 0]"), "(sub x (cmp x > 0))");
}

static void test_literals(void) {
  CHECK_STR(P("0x1F + 0o17 + 0b101 + 1_000"), "(+ (+ (+ 31 15) 5) 1000)");
  CHECK_STR(P("9223372036854775807"), "9223372036854775807");
  CHECK_STR(P("x = 9223372036854775808"), "(= x 9223372036854775808)");
  CHECK_STR(P("0x1_FFFF_FFFF_FFFF_FFFF_FFFF"), "0x1FFFFFFFFFFFFFFFFFFFF");
  CHECK_STR(P("1j + 2.5e3J + 1_0j"), "(+ (+ 1j 2500j) 10j)");
  CHECK_STR(P("1. + .5 + 1e-3 + 1E+3 + 1.5e2 + 1_0.2_5"), "(+ (+ (+ (+ (+ 1.0 0.5) 0.001) 1000.0) 150.0) 10.25)");
  CHECK_STR(P("0"), "0");
  CHECK_STR(P("00 + 0.0 + 0e0"), "(+ (+ 0 0.0) 0.0)");
  CHECK_STR(P("'a' \"b\" '''c''' \"\"\"d\"\"\""), "\"abcd\"");
  CHECK_STR(P("'\\n\\t\\\\\\'\\\"\\x41\\u00e9\\0\\101'"), "\"\\x0a\\x09\\x5c'\\x22A\\xc3\\xa9\\x00A\"");
  CHECK_STR(P("'a\\\nb'"), "\"ab\"");
  CHECK_STR(P("r'a\\nb'"), "\"a\\x5cnb\"");
  CHECK_STR(P("'\\d'"), "\"\\x5cd\"");
  CHECK_STR(P("'''a\nb'''"), "\"a\\x0ab\"");
  CHECK_STR(P("u'x'"), "\"x\"");
  CHECK_STR(P("'\\U0001F600'"), "\"\\xf0\\x9f\\x98\\x80\"");
  CHECK_STR(P("x = 'a\\xZZ'"),
            "ERR SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in "
            "position 1-2: truncated \\xXX escape @1:5");
  CHECK_STR(P("x = 0777"),
            "ERR SyntaxError: leading zeros in decimal integer literals are not permitted; "
            "use an 0o prefix for octal integers @1:5");
  CHECK_STR(P("x = 1abc"), "ERR SyntaxError: invalid decimal literal @1:5");
  CHECK_STR(P("x = 1_"), "ERR SyntaxError: invalid decimal literal @1:6");
  CHECK_STR(P("x = 1__0"), "ERR SyntaxError: invalid decimal literal @1:6");
  CHECK_STR(P("x = 0x"), "ERR SyntaxError: invalid hexadecimal literal @1:7");
  CHECK_STR(P("x = 5e"), "ERR SyntaxError: invalid decimal literal @1:5");
  CHECK_STR(P("1if x else 2"), "(ifexp 1 x 2)");
  CHECK_STR(P("b'x' B'\\x41\\u00e9' rb'\\d'"), "bxA\\u00e9\\d");
  CHECK_STR(P("b'\xc3\xa9'"), "ERR SyntaxError: bytes can only contain ASCII literal characters @1:1");
  CHECK_STR(P("b'a' 'b'"), "ERR SyntaxError: cannot mix bytes and nonbytes literals @1:1");
  CHECK_STR(P("f'x'"), "(f \"x\")");
}

static void test_statements(void) {
  CHECK_STR(P("x = 1"), "(= x 1)");
  CHECK_STR(P("a = b = c"), "(= a b c)");
  CHECK_STR(P("a, b = b, a"), "(= (tuple a b) (tuple b a))");
  CHECK_STR(P("m, n = x.shape"), "(= (tuple m n) (. x shape))");
  CHECK_STR(P("[a, (b, c)] = x"), "(= (list a (tuple b c)) x)");
  CHECK_STR(P("x.y = z[0] = 1"), "(= (. x y) (sub z 0) 1)");
  CHECK_STR(P("x += 1; y -= 2; z *= 3; a /= 4; b //= 5; c %= 6; d **= 7; e @= f"),
            "(+= x 1); (-= y 2); (*= z 3); (/= a 4); (//= b 5); (%= c 6); (**= d 7); (@= e f)");
  CHECK_STR(P("a &= 1; a |= 2; a ^= 3; a <<= 4; a >>= 5;"),
            "(&= a 1); (|= a 2); (^= a 3); (<<= a 4); (>>= a 5)");
  CHECK_STR(P("x[1:] += y"), "(+= (sub x (slice 1 _ _)) y)");
  CHECK_STR(P("while x: pass; break; continue"), "(while x (block pass break continue))");
  CHECK_STR(P("def f(): return"), "(def f () (block (return)))");
  CHECK_STR(P("def f(): return a, b"), "(def f () (block (return (tuple a b))))");
  CHECK_STR(P("global a, b"), "(global a b)");
  CHECK_STR(P("assert x > 0, 'bad'"), "(assert (cmp x > 0) \"bad\")");
  CHECK_STR(P("assert x"), "(assert x)");
  CHECK_STR(P("del x, y[0], z.a"), "(del x (sub y 0) (. z a))");
  CHECK_STR(P("import numpy"), "(import numpy)");
  CHECK_STR(P("import numpy as np"), "(import numpy as np)");
  CHECK_STR(P("import numpy.linalg as la"), "(import numpy.linalg as la)");
  CHECK_STR(P("from numpy import *"), "(from numpy *)");
  CHECK_STR(P("from numpy import zeros, ones as o"), "(from numpy zeros ones as o)");
  CHECK_STR(P("from numpy import (zeros,\n ones,)"), "(from numpy zeros ones)");
  CHECK_STR(P("if x: y = 1"), "(if x (block (= y 1)))");
  CHECK_STR(P("if x: a; b\nelse: c"), "(if x (block a b) (block c))");
  CHECK_STR(P("if a:\n  x\nelif b:\n  y\nelif c:\n  z\nelse:\n  w\n"),
            "(if a (block x) (if b (block y) (if c (block z) (block w))))");
  CHECK_STR(P("for i in range(3):\n    print(i)\n"), "(for i (call range 3) (block (call print i)))");
  CHECK_STR(P("for i, x in enumerate(a): pass"), "(for (tuple i x) (call enumerate a) (block pass))");
  CHECK_STR(P("for x in 1, 2: pass"), "(for x (tuple 1 2) (block pass))");
  CHECK_STR(P("while x < 3:\n  x += 1\n  if x: break\n"), "(while (cmp x < 3) (block (+= x 1) (if x (block break))))");
  CHECK_STR(P("def f(a, b=1, c=2,):\n    return a\n"), "(def f (a (b 1) (c 2)) (block (return a)))");
  CHECK_STR(P("def f(): pass"), "(def f () (block pass))");
  CHECK_STR(P("def f(x):\n  def g(y):\n    return x + y\n  return g\nz = f(1)(2)\n"),
            "(def f (x) (block (def g (y) (block (return (+ x y)))) (return g))); (= z (call (call f 1) 2))");
  CHECK_STR(P(""), "");
  CHECK_STR(P("\n\n# only a comment\n   \n"), "");
  CHECK_STR(P("x = 1  # comment\n\n\n  # indented comment\ny = 2"), "(= x 1); (= y 2)");
  CHECK_STR(P("x = (1 +\n     2)\ny = [1,\n  2]"), "(= x (+ 1 2)); (= y (list 1 2))");
  CHECK_STR(P("x = 1 + \\\n  2"), "(= x (+ 1 2))");
  CHECK_STR(P("if x:\n\ty\n\tz\n"), "(if x (block y z))");
  CHECK_STR(P("if x:\n        y\n\tz\n"), "ERR TabError: inconsistent use of tabs and spaces in indentation @3:1");
  CHECK_STR(P("if x:\n  \ty\n  \tz\n"), "(if x (block y z))");
  CHECK_STR(P("if x:\r\n  y\r\n"), "(if x (block y))");
  CHECK_STR(P("if a:\n  if b:\n    x\nelse:\n  y\n"), "(if a (block (if b (block x))) (block y))");
  CHECK_STR(P("x = 1;"), "(= x 1)");
  CHECK_STR(P("x = \"\"\"a\nb\"\"\"; y = 2"), "(= x \"a\\x0ab\"); (= y 2)");
}

static void test_errors(void) {
  CHECK_STR(P("x = "), "ERR SyntaxError: invalid syntax @1:5");
  CHECK_STR(P("x = 1 +"), "ERR SyntaxError: invalid syntax @1:8");
  CHECK_STR(P("x = 1 2"), "ERR SyntaxError: invalid syntax @1:7");
  CHECK_STR(P("f(1 2)"), "ERR SyntaxError: invalid syntax. Perhaps you forgot a comma? @1:3");
  CHECK_STR(P("x = [1 2]"), "ERR SyntaxError: invalid syntax. Perhaps you forgot a comma? @1:6");
  CHECK_STR(P("\"abc"), "ERR SyntaxError: unterminated string literal (detected at line 1) @1:1");
  CHECK_STR(P("x = \"abc\ndef\""), "ERR SyntaxError: unterminated string literal (detected at line 1) @1:5");
  CHECK_STR(P("x = (1))"), "ERR SyntaxError: unmatched ')' @1:8");
  CHECK_STR(P("x = (1, 2]"), "ERR SyntaxError: closing parenthesis ']' does not match opening parenthesis '(' @1:10");
  CHECK_STR(P("x = (1,\n 2]"), "ERR SyntaxError: closing parenthesis ']' does not match opening parenthesis '(' on line 1 @2:3");
  CHECK_STR(P("if x\n  pass"), "ERR SyntaxError: expected ':' @1:5");
  CHECK_STR(P("for i in x\n  pass"), "ERR SyntaxError: expected ':' @1:11");
  CHECK_STR(P("def f()\n pass"), "ERR SyntaxError: expected ':' @1:8");
  CHECK_STR(P("else: pass"), "ERR SyntaxError: invalid syntax @1:1");
  CHECK_STR(P("if x:\npass"), "ERR IndentationError: expected an indented block after 'if' statement on line 1 @2:1");
  CHECK_STR(P("def f(x):\nreturn x"), "ERR IndentationError: expected an indented block after function definition on line 1 @2:1");
  CHECK_STR(P(" x"), "ERR IndentationError: unexpected indent @1:1");
  CHECK_STR(P("x = 1\n  y = 2"), "ERR IndentationError: unexpected indent @2:2");
  CHECK_STR(P("if 1:\n  a\n      b"), "ERR IndentationError: unexpected indent @3:6");
  CHECK_STR(P("if x:\n  a\n b"), "ERR IndentationError: unindent does not match any outer indentation level @3:3");
  CHECK_STR(P("if 1:\n  a\n\tb"), "ERR TabError: inconsistent use of tabs and spaces in indentation @3:1");
  CHECK_STR(P("f(a=1, 2)"), "ERR SyntaxError: positional argument follows keyword argument @1:8");
  CHECK_STR(P("f(a=1, a=2)"), "ERR SyntaxError: keyword argument repeated: a @1:8");
  CHECK_STR(P("def f(a=1, b): pass"), "ERR SyntaxError: non-default argument follows default argument @1:12");
  CHECK_STR(P("def f(a, a): pass"), "ERR SyntaxError: duplicate argument 'a' in function definition @1:10");
  CHECK_STR(P("f() = 1"), "ERR SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:1");
  CHECK_STR(P("a, f() = 1, 2"), "ERR SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:4");
  CHECK_STR(P("a, [f()] = 1, 2"), "ERR SyntaxError: cannot assign to function call @1:5");
  CHECK_STR(P("(a, f()) = 1"), "ERR SyntaxError: cannot assign to function call @1:5");
  CHECK_STR(P("(f()) = 1"), "ERR SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? @1:2");
  CHECK_STR(P("x = 1 = 2"), "ERR SyntaxError: cannot assign to literal @1:5");
  CHECK_STR(P("if x:\n  a\nelse"), "ERR SyntaxError: expected ':' @3:5");
  CHECK_STR(P("x = f() = 1"), "ERR SyntaxError: cannot assign to function call @1:5");
  CHECK_STR(P("[1] = x"), "ERR SyntaxError: cannot assign to literal @1:2");
  CHECK_STR(P("(a) + 1 = 2"), "ERR SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='? @1:1");
  CHECK_STR(P("not a = 1"), "ERR SyntaxError: cannot assign to expression @1:1");
  CHECK_STR(P("a < b = 1"), "ERR SyntaxError: cannot assign to comparison @1:1");
  CHECK_STR(P("a if b else c = 1"), "ERR SyntaxError: cannot assign to conditional expression @1:1");
  CHECK_STR(P("None = 1"), "ERR SyntaxError: cannot assign to None @1:1");
  CHECK_STR(P("1 = x"), "ERR SyntaxError: cannot assign to literal here. Maybe you meant '==' instead of '='? @1:1");
  CHECK_STR(P("f() += 1"), "ERR SyntaxError: 'function call' is an illegal expression for augmented assignment @1:1");
  CHECK_STR(P("(a, b) += 1"), "ERR SyntaxError: 'tuple' is an illegal expression for augmented assignment @1:1");
  CHECK_STR(P("for f() in x: pass"), "ERR SyntaxError: cannot assign to function call @1:5");
  CHECK_STR(P("del f()"), "ERR SyntaxError: cannot delete function call @1:5");
  CHECK_STR(P("async def f(): pass"), "ERR SyntaxError: 'async' is not supported by tsr @1:1");
  CHECK_STR(P("x = await y"), "ERR SyntaxError: 'await' is not supported by tsr @1:5");
  CHECK_STR(P("x = $"), "ERR SyntaxError: invalid syntax @1:5");
  CHECK_STR(P("x = 1 \\ y"), "ERR SyntaxError: unexpected character after line continuation character @1:8");
  CHECK_STR(P("x = {,}"), "ERR SyntaxError: invalid syntax @1:6");
  CHECK_STR(P("a == not b"), "ERR SyntaxError: invalid syntax @1:6");
  CHECK_STR(P("x[]"), "ERR SyntaxError: invalid syntax @1:3");
  CHECK_STR(P("x[1,,2]"), "ERR SyntaxError: invalid syntax @1:5");
  CHECK_STR(P("x = 1\ny = (\n"), "INCOMPLETE SyntaxError: '(' was never closed @2:5");
  CHECK_STR(P("x = 1\ny = +\n"), "ERR SyntaxError: invalid syntax @2:6");
  CHECK_STR(P("while x: pass\n  y"), "ERR IndentationError: unexpected indent @2:2");
  CHECK_STR(P("s = '\xc3\xa9' + )"), "ERR SyntaxError: unmatched ')' @1:11");
  CHECK_STR(P("x = 1\x01"), "ERR SyntaxError: invalid non-printable character U+0001 @1:6");
  CHECK_STR(P("while x:\n  pass\nreturn 5"), "ERR SyntaxError: 'return' outside function @3:1");
  CHECK_STR(P("for i in x:\n  def g():\n    break"), "ERR SyntaxError: 'break' outside loop @3:5");
  CHECK_STR(P("if x:\n  pass\nelif y:\n  continue"), "ERR SyntaxError: 'continue' not properly in loop @4:3");
  CHECK_STR(P("def f():\n  for i in x:\n    if i: break\n    elif j: continue\n    else: return 2\n  return 1"),
            "(def f () (block (for i x (block (if i (block break) (if j (block continue) (block (return 2)))))) (return 1)))");
  CHECK_STR(P("def f(x) pass"), "ERR SyntaxError: expected ':' @1:10");
  CHECK_STR(P("x = (1, 2\ny = 3"), "ERR SyntaxError: '(' was never closed @1:5");
  CHECK_STR(P("x = 0o8"), "ERR SyntaxError: invalid digit '8' in octal literal @1:7");
  CHECK_STR(P("\tx = 1"), "ERR IndentationError: unexpected indent @1:1");
  /* a syntax error anywhere means nothing parses */
  CHECK_STR(P("x = 1\ny = 2\nz = )"), "ERR SyntaxError: unmatched ')' @3:5");
}

static void test_incomplete(void) {
  CHECK_STR(P("for i in x:"), "INCOMPLETE IndentationError: expected an indented block after 'for' statement on line 1 @1:12");
  CHECK_STR(P("if x:\n    a\nelse:\n"), "INCOMPLETE IndentationError: expected an indented block after 'else' statement on line 3 @3:6");
  CHECK_STR(P("f(1,"), "INCOMPLETE SyntaxError: '(' was never closed @1:2");
  CHECK_STR(P("f(1, (2,"), "INCOMPLETE SyntaxError: '(' was never closed @1:6");
  CHECK_STR(P("(1,\n[2"), "INCOMPLETE SyntaxError: '[' was never closed @2:1");
  CHECK_STR(P("\"\"\"abc"), "INCOMPLETE SyntaxError: unterminated triple-quoted string literal (detected at line 1) @1:1");
  CHECK_STR(P("x = '''abc\n\ndef"), "INCOMPLETE SyntaxError: unterminated triple-quoted string literal (detected at line 3) @1:5");
  CHECK_STR(P("x = 1 + \\"), "INCOMPLETE SyntaxError: unexpected EOF while parsing @1:10");
  CHECK_STR(P("x = 1 + \\\n"), "INCOMPLETE SyntaxError: unexpected EOF while parsing @2:1");
  /* a script may end inside a block; the REPL mode waits for a blank line */
  const char *blk = "for i in x:\n    print(i)\n";
  CHECK(result_of(blk, strlen(blk), 0) == PARSE_OK);
  CHECK(result_of(blk, strlen(blk), PARSE_INTERACTIVE) == PARSE_INCOMPLETE);
  const char *blk2 = "for i in x:\n    print(i)\n\n";
  CHECK(result_of(blk2, strlen(blk2), PARSE_INTERACTIVE) == PARSE_OK);
  const char *blk3 = "if x:\n    a\n";
  CHECK(result_of(blk3, strlen(blk3), PARSE_INTERACTIVE) == PARSE_INCOMPLETE);
  const char *simple = "x = 1\n";
  CHECK(result_of(simple, strlen(simple), PARSE_INTERACTIVE) == PARSE_OK);
  const char *oneline = "if x: y\n";
  CHECK(result_of(oneline, strlen(oneline), PARSE_INTERACTIVE) == PARSE_OK);
  const char *hdr = "for i in x:\n";
  CHECK(result_of(hdr, strlen(hdr), PARSE_INTERACTIVE) == PARSE_INCOMPLETE);
  CHECK_STR(P("try:\n  pass\nx = 1\n"), "ERR SyntaxError: expected 'except' or 'finally' block @3:1");
  const char *try1 = "try:\n    x = 1\n";
  CHECK(result_of(try1, strlen(try1), PARSE_INTERACTIVE) == PARSE_INCOMPLETE);
  const char *try2 = "try:\n    x = 1\nexcept E:\n    pass\n\n";
  CHECK(result_of(try2, strlen(try2), PARSE_INTERACTIVE) == PARSE_OK);
  const char *try3 = "try:\n    x = 1\n\n";
  CHECK(result_of(try3, strlen(try3), PARSE_INTERACTIVE) == PARSE_ERROR);
  const char *cls = "class A:\n";
  CHECK(result_of(cls, strlen(cls), PARSE_INTERACTIVE) == PARSE_INCOMPLETE);
  const char *bad = "x = )\n";
  CHECK(result_of(bad, strlen(bad), PARSE_INTERACTIVE) == PARSE_ERROR);
}

static void test_limits(void) {
  const char nul[] = "x = 1\ny = \0 2";
  CHECK(result_of(nul, sizeof nul - 1, 0) == PARSE_ERROR);
  CHECK_STR(ctx.msg, "source code cannot contain null bytes");
  CHECK(ctx.status == TSR_ERR_SYNTAX);

  char *s = repeat("", "(", 100000, "");
  CHECK_STR(P(s), "ERR SyntaxError: too many nested parentheses @1:201");
  free(s);
  s = repeat("x = ", "(", 200, "1");
  char *s2 = repeat(s, ")", 200, "");
  CHECK(result_of(s2, strlen(s2), 0) == PARSE_OK);
  free(s);
  free(s2);
  s = repeat("x = 1", "+1", 100000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = ", "-", 1000, "x\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = ", "-", 100000, "x\n");
  ParseResult r = result_of(s, strlen(s), 0);
  CHECK(r == PARSE_ERROR && strcmp(ctx.msg, "too complex") == 0);
  free(s);
  s = repeat("x = 2", "**2", 100000, "\n");
  r = result_of(s, strlen(s), 0);
  CHECK(r == PARSE_ERROR && strcmp(ctx.msg, "too complex") == 0);
  free(s);
  s = repeat("x = [", "1, ", 100000, "]\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = 1", "; y = 2", 10000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  /* 100 levels of indentation are fine, 101 are not */
  char buf[20000];
  size_t n = 0;
  for (int i = 0; i < 101; i++) {
    for (int j = 0; j < i; j++) buf[n++] = ' ';
    memcpy(buf + n, "if x:\n", 6);
    n += 6;
  }
  for (int j = 0; j < 101; j++) buf[n++] = ' ';
  memcpy(buf + n, "pass\n", 6);
  CHECK(result_of(buf, strlen(buf), 0) == PARSE_ERROR);
  CHECK_STR(ctx.msg, "too many levels of indentation");
  /* a memory cap is a MemoryError, not a crash */
  ctx.mem_max = ctx.mem_used + 1000;
  s = repeat("x = [", "1, ", 1000, "]\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_ERROR);
  CHECK(ctx.status == TSR_ERR_MEMORY);
  ctx.mem_max = 0;
  free(s);
}


static void test_grammar(void) {
  /* expressions */
  CHECK_STR(P("lambda: 0"), "(lambda () 0)");
  CHECK_STR(P("lambda x, y=1, *a, z, w=2, **k: x"), "(lambda (x (y 1) *a kw:z (kw:w 2) **k) x)");
  CHECK_STR(P("lambda a, /, b, *, c: a"), "(lambda (/a b kw:c) a)");
  CHECK_STR(P("(y := f(x))"), "(:= y (call f x))");
  CHECK_STR(P("f(x := 1)"), "(call f (:= x 1))");
  CHECK_STR(P("f(a, *b, c=1, **d)"), "(call f a *b (kw c 1) **d)");
  CHECK_STR(P("f(x for x in y)"), "(call f (genexp x (for x y)))");
  CHECK_STR(P("[x * y for x in a if x for y in b if y if z]"),
            "(listcomp (* x y) (for x a if x) (for y b if y if z))");
  CHECK_STR(P("{k: v for k, v in d}"), "(dictcomp k:v (for (tuple k v) d))");
  CHECK_STR(P("{x for x in s}"), "(setcomp x (for x s))");
  CHECK_STR(P("(x for x in s)"), "(genexp x (for x s))");
  CHECK_STR(P("{}"), "(dict)");
  CHECK_STR(P("{1: 2, **d, 3: 4,}"), "(dict 1:2 **d 3:4)");
  CHECK_STR(P("{1, *a, 2}"), "(set 1 *a 2)");
  CHECK_STR(P("[*a, b]"), "(list *a b)");
  CHECK_STR(P("x[*a]"), "(sub x (tuple *a))");
  CHECK_STR(P("a if b else lambda: c"), "(ifexp a b (lambda () c))");
  CHECK_STR(P("def f():\n  x = yield\n  y = yield from z\n  yield 1, 2"),
            "(def f () (block (= x (yield)) (= y (yield-from z)) (yield (tuple 1 2))))");
  /* f-strings: fields parsed into nodes, constants joined */
  CHECK_STR(P("f'a{x!r:>{w}}b'"), "(f \"a\" {x!r:(f \">\" {w})} \"b\")");
  CHECK_STR(P("f'{x=}'"), "(f \"x=\" {x!r})");
  CHECK_STR(P("f'{x = :>3}'"), "(f \"x = \" {x:(f \">3\")})");
  CHECK_STR(P("'a' f'{{b}}' 'c' f'{d}'"), "(f \"a{b}c\" {d})");
  CHECK_STR(P("f'{d[\"k\"]}' rf'\\d{x}'"), "(f {(sub d \"k\")} \"\\x5cd\" {x})");
  CHECK_STR(P("f'''a\n{x}\nb'''"), "(f \"a\\x0a\" {x} \"\\x0ab\")");
  CHECK_STR(P("f'{f\"{x}\"}'"), "(f {(f {x})})");
  CHECK_STR(P("f''"), "(f)");
  /* statements */
  CHECK_STR(P("a, *b = c"), "(= (tuple a *b) c)");
  CHECK_STR(P("x: int = 1"), "(: x int 1)");
  CHECK_STR(P("x.y: int"), "(: (. x y) int)");
  CHECK_STR(P("import a.b as c, d"), "(import a.b as c); (import, d)");
  CHECK_STR(P("from .. a import b"), "(from ..a b)");
  CHECK_STR(P("from . import (x as y,)"), "(from . x as y)");
  CHECK_STR(P("nonlocal_ = 1\ndef f():\n  x = 1\n  def g():\n    nonlocal x"),
            "(= nonlocal_ 1); (def f () (block (= x 1) (def g () (block (nonlocal x)))))");
  CHECK_STR(P("for x in y: pass\nelse: z"), "(for x y (block pass) else (block z))");
  CHECK_STR(P("while x: pass\nelse: z"), "(while x (block pass) else (block z))");
  CHECK_STR(P("try: a\nexcept E as e: b\nexcept: c\nelse: d\nfinally: f"),
            "(try (block a) (except E as e (block b)) (except (block c)) else (block d) finally (block f))");
  CHECK_STR(P("try: a\nexcept* E: b"), "(try* (block a) (except E (block b)))");
  CHECK_STR(P("try: a\nfinally: b"), "(try (block a) finally (block b))");
  CHECK_STR(P("raise"), "(raise)");
  CHECK_STR(P("raise E from c"), "(raise E from c)");
  CHECK_STR(P("with a as b, c: pass"), "(with a as b c (block pass))");
  CHECK_STR(P("with (a as b, c,): pass"), "(with a as b c (block pass))");
  CHECK_STR(P("with (a, b) as c: pass"), "(with (tuple a b) as c (block pass))");
  CHECK_STR(P("with (a, b): pass"), "(with a b (block pass))");
  CHECK_STR(P("@d\n@e(1)\ndef f(a: int = 1, *, b, **k) -> str: pass"),
            "(@ d (call e 1)) (def f ((a : int 1) kw:b **k) (block pass))");
  CHECK_STR(P("class A(B, metaclass=M):\n  x = 1"), "(class A (B (kw metaclass M)) (block (= x 1)))");
  CHECK_STR(P("match = 1\nmatch.x = case"), "(= match 1); (= (. match x) case)");
}

static void test_python_errors(void) {
  /* CPython 3.11's compile-time messages (checked with /usr/bin/python3); inside f-strings the
     positions are those of tsr's tokens (3.11's own are offsets into a re-parsed copy) */
  CHECK_STR(P("def f(*): pass"), "ERR SyntaxError: named arguments must follow bare * @1:7");
  CHECK_STR(P("def f(**k, a): pass"), "ERR SyntaxError: arguments cannot follow var-keyword argument @1:12");
  CHECK_STR(P("def f(a, /, b, /): pass"), "ERR SyntaxError: / may appear only once @1:16");
  CHECK_STR(P("def f(*, a, /): pass"), "ERR SyntaxError: / must be ahead of * @1:13");
  CHECK_STR(P("def f(*a, *b): pass"), "ERR SyntaxError: * argument may appear only once @1:11");
  CHECK_STR(P("lambda a, a: 0"), "ERR SyntaxError: duplicate argument 'a' in function definition @1:11");
  CHECK_STR(P("f(**k, 2)"), "ERR SyntaxError: positional argument follows keyword argument unpacking @1:8");
  CHECK_STR(P("f(**k, *a)"), "ERR SyntaxError: iterable argument unpacking follows keyword argument unpacking @1:8");
  CHECK_STR(P("f(x for x in y, 1)"), "ERR SyntaxError: Generator expression must be parenthesized @1:3");
  CHECK_STR(P("f'{}'"), "ERR SyntaxError: f-string: empty expression not allowed @1:4");
  CHECK_STR(P("f'{x!z}'"), "ERR SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a' @1:6");
  CHECK_STR(P("f'{x'"), "ERR SyntaxError: f-string: expecting '}' @1:5");
  CHECK_STR(P("f'}'"), "ERR SyntaxError: f-string: single '}' is not allowed @1:3");
  CHECK_STR(P("f'{a b}'"), "ERR SyntaxError: f-string: invalid syntax. Perhaps you forgot a comma? @1:4");
  CHECK_STR(P("f'{x:{y:{z}}}'"), "ERR SyntaxError: f-string: expressions nested too deeply @1:9");
  CHECK_STR(P("f'{#}'"), "ERR SyntaxError: f-string expression part cannot include '#' @1:4");
  CHECK_STR(P("f'{\\n}'"), "ERR SyntaxError: f-string expression part cannot include a backslash @1:4");
  CHECK_STR(P("nonlocal x"), "ERR SyntaxError: nonlocal declaration not allowed at module level @1:1");
  CHECK_STR(P("def f():\n  nonlocal x"), "ERR SyntaxError: no binding for nonlocal 'x' found @2:3");
  CHECK_STR(P("a, __debug__ = 1, 2"), "ERR SyntaxError: cannot assign to __debug__ @1:4");
  CHECK_STR(P("def f(__debug__): pass"), "ERR SyntaxError: cannot assign to __debug__ @1:1");
  CHECK_STR(P("f(__debug__=1)"), "ERR SyntaxError: cannot assign to __debug__ @1:1");
  CHECK_STR(P("del __debug__"), "ERR SyntaxError: cannot delete __debug__ @1:5");
  CHECK_STR(P("with a as __debug__: pass"), "ERR SyntaxError: cannot assign to __debug__ @1:11");
  CHECK_STR(P("del x.__debug__; x[0].__debug__ += 1; print(__debug__)"),
            "(del (. x __debug__)); (+= (. (sub x 0) __debug__) 1); (call print __debug__)");
  CHECK_STR(P("[x := 1 for x in y]"), "ERR SyntaxError: assignment expression cannot rebind comprehension iteration variable 'x' @1:2");
  CHECK_STR(P("[i for i in (j := range(3))]"), "ERR SyntaxError: assignment expression cannot be used in a comprehension iterable expression @1:14");
  CHECK_STR(P("class A:\n  [(y := 1) for a in b]"), "ERR SyntaxError: assignment expression within a comprehension cannot be used in a class body @2:5");
  CHECK_STR(P("[[(a := 1) for b in c] for a in d]"), "ERR SyntaxError: assignment expression cannot rebind comprehension iteration variable 'a' @1:4");
  CHECK_STR(P("def f(x):\n  nonlocal x"), "ERR SyntaxError: name 'x' is parameter and nonlocal @2:3");
  CHECK_STR(P("class C:\n  z = 1\n  def h():\n    nonlocal z"), "ERR SyntaxError: no binding for nonlocal 'z' found @4:5");
  CHECK_STR(P("def f():\n  def g():\n    nonlocal y\n  [(y := 1) for a in b]"),
            "(def f () (block (def g () (block (nonlocal y))) (listcomp (:= y 1) (for a b))))");
  CHECK_STR(P("yield 1"), "ERR SyntaxError: 'yield' outside function @1:1");
  CHECK_STR(P("class A: return 1"), "ERR SyntaxError: 'return' outside function @1:10");
  CHECK_STR(P("class A: yield 1"), "ERR SyntaxError: 'yield' outside function @1:10");
  CHECK_STR(P("def f(): [(yield 1) for x in y]"), "ERR SyntaxError: 'yield' inside list comprehension @1:12");
  CHECK_STR(P("def f(): return lambda: (yield)"), "(def f () (block (return (lambda () (yield)))))");
  CHECK_STR(P("*a = 1"), "ERR SyntaxError: starred assignment target must be in a list or tuple @1:1");
  CHECK_STR(P("*a"), "ERR SyntaxError: can't use starred expression here @1:1");
  CHECK_STR(P("x = *a"), "ERR SyntaxError: can't use starred expression here @1:5");
  CHECK_STR(P("a, *b, *c = 1"), "ERR SyntaxError: multiple starred expressions in assignment @1:1");
  CHECK_STR(P("del *a"), "ERR SyntaxError: cannot delete starred @1:5");
  CHECK_STR(P("a, b: int"), "ERR SyntaxError: only single target (not tuple) can be annotated @1:1");
  CHECK_STR(P("[a]: int"), "ERR SyntaxError: only single target (not list) can be annotated @1:1");
  CHECK_STR(P("f(): int"), "ERR SyntaxError: illegal target for annotation @1:1");
  CHECK_STR(P("x += yield"), "ERR SyntaxError: 'yield' outside function @1:6");
  CHECK_STR(P("def f(): from x import *"), "ERR SyntaxError: import * only allowed at module level @1:10");
  CHECK_STR(P("try:\n  pass\nexcept:\n  pass\nexcept E:\n  pass"), "ERR SyntaxError: default 'except:' must be last @3:1");
  CHECK_STR(P("try:\n  pass\nexcept E:\n  pass\nexcept* F:\n  pass"),
            "ERR SyntaxError: cannot have both 'except' and 'except*' on the same 'try' @5:1");
  CHECK_STR(P("for x in y: pass\nelse: break"), "ERR SyntaxError: 'break' outside loop @2:7");
  CHECK_STR(P("while 1:\n  pass\nelse:\n  continue"), "ERR SyntaxError: 'continue' not properly in loop @4:3");
  CHECK_STR(P("lambda: 1 = 1"), "ERR SyntaxError: cannot assign to lambda @1:1");
  CHECK_STR(P("a := 1"), "ERR SyntaxError: invalid syntax @1:3");
  CHECK_STR(P("with (a as b).c: pass"), "ERR SyntaxError: invalid syntax @1:12");
  CHECK_STR(P("match x:\n  case 1: pass"), "ERR SyntaxError: 'match' statements are not supported by tsr @1:1");
  CHECK_STR(P("match (x):\n  case 1: pass"), "ERR SyntaxError: 'match' statements are not supported by tsr @1:1");
  CHECK_STR(P("class A:\npass"), "ERR IndentationError: expected an indented block after class definition on line 1 @2:1");
  CHECK_STR(P("try:\npass"), "ERR IndentationError: expected an indented block after 'try' statement on line 1 @2:1");
  CHECK_STR(P("class A\n  pass"), "ERR SyntaxError: expected ':' @1:8");
  CHECK_STR(P("print f"), "ERR SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)? @1:1");
  CHECK_STR(P("if x = 1:\n  pass"), "ERR SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='? @1:4");
  CHECK_STR(P("x = 1 if y"), "ERR SyntaxError: expected 'else' after 'if' expression @1:11");
  CHECK_STR(P("def f(*a=1): pass"), "ERR SyntaxError: var-positional argument cannot have default value @1:10");
  CHECK_STR(P("def f(**a=1): pass"), "ERR SyntaxError: var-keyword argument cannot have default value @1:11");
  CHECK_STR(P("f'{x!}'"), "ERR SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a' @1:6");
  CHECK_STR(P("class A(x for x in y): pass"), "ERR SyntaxError: invalid syntax @1:11");
}

/* Issue 25: parsing is linear in the number of arguments, parameters, literals and elifs. */
static void test_linear(void) {
  char *s = malloc(2000000), *p = s;
  p += sprintf(p, "f(");
  for (int i = 0; i < 100000; i++) p += sprintf(p, "k%d=1, ", i);
  sprintf(p, ")\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  p = s + sprintf(s, "def f(");
  for (int i = 0; i < 100000; i++) p += sprintf(p, "p%d, ", i);
  sprintf(p, "): pass\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  p = s + sprintf(s, "def f(");
  for (int i = 0; i < 100000; i++) p += sprintf(p, "p%d, ", i);
  sprintf(p, "p5): pass\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_ERROR);
  CHECK_STR(ctx.msg, "duplicate argument 'p5' in function definition");
  p = s + sprintf(s, "f(");
  for (int i = 0; i < 100000; i++) p += sprintf(p, "k%d=1, ", i);
  sprintf(p, "k99999=2)\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_ERROR);
  CHECK_STR(ctx.msg, "keyword argument repeated: k99999");
  free(s);
  s = repeat("x = ", "'ab' ", 100000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = ", "f'{a}b' ", 20000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("if x: pass\n", "elif y: pass\n", 100000, "else: pass\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = {", "1: 2, ", 100000, "}\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  /* long left-leaning chains: deep trees, walked without recursion by the checks */
  s = repeat("x = a", ".b", 100000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = f", "()", 100000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
  s = repeat("x = a", " and a", 100000, "\n");
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  free(s);
}

/* The parser charges a step per token: max_steps stops a long parse (a LimitError, not a
   SyntaxError). */
static void test_steps(void) {
  char *s = repeat("x = [", "1, ", 100000, "]\n");
  ctx.max_steps = 1000;
  ctx.steps = 0;
  CHECK(result_of(s, strlen(s), 0) == PARSE_ERROR);
  CHECK(ctx.status == TSR_ERR_LIMIT);
  ctx.max_steps = 0;
  ctx.steps = 0;
  CHECK(result_of(s, strlen(s), 0) == PARSE_OK);
  CHECK(ctx.steps >= 200000);
  ctx.interrupted = 1;
  CHECK(result_of(s, strlen(s), 0) == PARSE_ERROR);
  CHECK(ctx.status == TSR_ERR_INTERRUPT);
  ctx.steps = 0;
  free(s);
}

/* The evaluator refuses each construct it cannot run yet with one SyntaxError, raised before
   the chunk runs: nothing of the script has run. */
static void test_unsupported(void) {
  static const struct { const char *src, *msg; } cases[] = {
    {"y = lambda: 0", "lambda is not supported yet"},
    {"y = {}", "dict displays are not supported yet"},
    {"y = {1}", "set displays are not supported yet"},
    {"y = [i for i in range(3)]", "list comprehensions are not supported yet"},
    {"y = f'{x}'", "f-strings are not supported yet"},
    {"y = b'x'", "bytes literals are not supported yet"},
    {"y = 1j", "complex numbers are not supported yet"},
    {"y = 2**64 + 18446744073709551616", "integers beyond 64 bits are not supported yet"},
    {"class A: pass", "class definitions are not supported yet"},
    {"try:\n  pass\nexcept E:\n  pass", "try statements are not supported yet"},
    {"with a: pass", "with statements are not supported yet"},
    {"raise E", "raise is not supported yet"},
    {"def f():\n  yield 1", "yield is not supported yet"},
    {"def f(*a): pass", "keyword-only, positional-only, *args and **kwargs parameters are not supported yet"},
    {"def f(a: int): pass", "annotations are not supported yet"},
    {"@d\ndef f(): pass", "decorators are not supported yet"},
    {"for i in x: pass\nelse: pass", "else clauses of loops are not supported yet"},
    {"print(*x)", "starred expressions are not supported yet"},
    {"if (y := 1): pass", "assignment expressions are not supported yet"},
    {"from . import x", "relative imports are not supported yet"},
    {"y: int = 1", "annotated assignments are not supported yet"},
  };
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char src[256];
    snprintf(src, sizeof src, "ran = 1\n%s\n", cases[i].src);
    CHECK(tsr_eval(S, src, "t", NULL) == TSR_ERR_SYNTAX);
    CHECK_STR(tsr_last_error(S)->kind, "SyntaxError");
    CHECK_STR(tsr_last_error(S)->message, cases[i].msg);
    CHECK(tsr_last_error(S)->line >= 2);
    tsr_Tensor *ran = tsr_get(S, "ran");
    CHECK(ran == NULL);
    if (ran) tsr_tensor_release(ran);
  }
  /* what the evaluator runs still runs, whatever new syntax it is written in */
  CHECK(tsr_eval(S, "import numpy as np, numpy as onp\nx = onp.ones(3)\nran = x.sum()", "t", NULL) == TSR_OK);
  tsr_close(S);
}

static void test_positions(void) {
  const Node *x = first("x = 1");
  POS(x, 1, 1);
  x = first("  \n\n(a + b) * c");
  POS(x, 3, 1);
  POS(x->a, 3, 1);
  POS(x->a->a, 3, 2);
  x = first("y = (a +\n  b) * c");
  POS(x->b, 1, 5);
  POS(x->b->a->b, 2, 3);
  x = first("foo.bar(1)[2]");
  POS(x->a, 1, 1);
  POS(x->a->a, 1, 1);
  POS(x->a->b, 1, 12);
  x = first("if x:\n    y = -z\n");
  POS(x, 1, 1);
  POS(x->b, 2, 5);
  POS(x->b->a, 2, 5);
  POS(x->b->a->b, 2, 9);
  x = first("a, b = 1, 2");
  POS(x->a, 1, 1);
  POS(x->b, 1, 8);
  x = first("x[1:2, :3]");
  POS(x->a->b->a, 1, 3);
  POS(x->a->b->a->next, 1, 8);
  x = first("f(x, k=2)");
  POS(x->a->b->next, 1, 6);
  x = first("s = 'ab' \\\n  'cd'");
  POS(x->b, 1, 5);
  x = first("t = '''a\nb''' + c");
  POS(x->b->b, 2, 8);
  if (pos_chunk) {
    CHECK_STR(pos_chunk->source, "t = '''a\nb''' + c");
    CHECK_STR(pos_chunk->name, "t");
    chunk_free(&ctx, pos_chunk);
    pos_chunk = NULL;
  }
  CHECK_STR(ast_kind_name(N_SUBSCRIPT), "SUBSCRIPT");
  CHECK_STR(ast_op_symbol(OP_NOT_IN), "not in");
}

int main(void) {
  ctx_init(&ctx, NULL, NULL);
  ctx_stack_init(&ctx);
  test_expressions();
  test_literals();
  test_statements();
  test_errors();
  test_incomplete();
  test_limits();
  test_positions();
  test_grammar();
  test_python_errors();
  test_linear();
  test_steps();
  test_unsupported();
  CHECK(ctx.mem_used == 0);
  return CHECK_DONE("parse");
}
