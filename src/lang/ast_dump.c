/*
** ast_dump.c -- a parsed chunk written as Python 3.11's `ast.dump(ast.parse(source))` prints
** it, for the differential AST test (tests/ast/): node and field names are Python's, the
** tree's shape is Python's (BoolOp values flattened, Compare ops and comparators, call
** arguments split into args and keywords, `arguments` of a def), and each expression carries
** the ctx (Load, Store, Del) Python gives it.
*/
#include "parser_int.h"

#include <stdio.h>
#include <string.h>

typedef struct Dumper {
  Ctx *c;
  Buf *b;
  bool failed, positions;
  const Node *fstring;   /* the outermost f-string being written: Python 3.11 gives its parts
                            (constants, fields, format specs) the f-string's position */
} Dumper;

enum { LOAD, STORE, DEL };
static const char *const ctx_names[] = {"Load()", "Store()", "Del()"};

static void expr(Dumper *d, const Node *x, int ctx);
static void stmts(Dumper *d, const Node *block);
static void position(Dumper *d, size_t start, const Node *x);

static void put(Dumper *d, const char *s) { buf_puts(d->b, s); }

static bool deep(Dumper *d) {
  if (d->failed) return true;
  if (!ctx_stack_exhausted(d->c)) return false;
  ctx_err(d->c, TSR_ERR_RUNTIME, "RecursionError", "maximum recursion depth exceeded");
  d->failed = true;
  return true;
}

/* A Python string literal for s[0..n): text (UTF-8, every non-ASCII code point escaped) or
   bytes. */
static void quoted(Dumper *d, const char *s, size_t n, bool bytes) {
  Buf *b = d->b;
  if (bytes) buf_putc(b, 'b');
  buf_putc(b, '\'');
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '\\' || ch == '\'') { buf_putc(b, '\\'); buf_putc(b, (char)ch); i++; continue; }
    if (ch == '\n') { put(d, "\\n"); i++; continue; }
    if (ch == '\t') { put(d, "\\t"); i++; continue; }
    if (ch == '\r') { put(d, "\\r"); i++; continue; }
    if (ch >= 0x20 && ch < 0x7f) { buf_putc(b, (char)ch); i++; continue; }
    if (bytes || ch < 0x80) { buf_printf(b, "\\x%02x", ch); i++; continue; }
    uint32_t cp;
    size_t len = ch >= 0xF0 ? 4 : ch >= 0xE0 ? 3 : ch >= 0xC0 ? 2 : 1;
    if (i + len > n) len = 1;
    cp = len == 1 ? ch : ch & (0x3F >> (len - 1));
    for (size_t k = 1; k < len; k++) cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
    if (cp < 0x100) buf_printf(b, "\\x%02x", cp);
    else if (cp < 0x10000) buf_printf(b, "\\u%04x", cp);
    else buf_printf(b, "\\U%08x", cp);
    i += len;
  }
  buf_putc(b, '\'');
}

static void number(Dumper *d, double v, const char *suffix) {
  char tmp[40];
  if (v > 1.7976931348623157e308) { buf_printf(d->b, "1e999%s", suffix); return; }
  snprintf(tmp, sizeof tmp, "%.17g", v);
  if (!*suffix && !strpbrk(tmp, ".e")) strcat(tmp, ".0");
  buf_printf(d->b, "%s%s", tmp, suffix);
}

/* A list of expressions: [x, y] (ctx for each). */
static void expr_list(Dumper *d, const Node *x, int ctx) {
  put(d, "[");
  for (const Node *y = x; y && !d->failed; y = y->next) {
    if (y != x) put(d, ", ");
    expr(d, y, ctx);
  }
  put(d, "]");
}

static const char *const binop_names[] = {
  [OP_ADD] = "Add()", [OP_SUB] = "Sub()", [OP_MUL] = "Mult()", [OP_DIV] = "Div()",
  [OP_FLOORDIV] = "FloorDiv()", [OP_MOD] = "Mod()", [OP_POW] = "Pow()", [OP_MATMUL] = "MatMult()",
  [OP_LSHIFT] = "LShift()", [OP_RSHIFT] = "RShift()", [OP_BITAND] = "BitAnd()",
  [OP_BITOR] = "BitOr()", [OP_BITXOR] = "BitXor()", [OP_NEG] = "USub()", [OP_POS] = "UAdd()",
  [OP_INVERT] = "Invert()", [OP_NOT] = "Not()", [OP_LT] = "Lt()", [OP_LE] = "LtE()",
  [OP_GT] = "Gt()", [OP_GE] = "GtE()", [OP_EQ] = "Eq()", [OP_NE] = "NotEq()", [OP_IN] = "In()",
  [OP_NOT_IN] = "NotIn()", [OP_IS] = "Is()", [OP_IS_NOT] = "IsNot()",
};

static void arg(Dumper *d, const Node *p) {
  size_t start = d->b->n;
  put(d, "arg(arg=");
  quoted(d, p->str, p->len, false);
  if (p->b) { put(d, ", annotation="); expr(d, p->b, LOAD); }
  put(d, ")");
  position(d, start, p);
}

/* Python's `arguments` node of a def or lambda. */
static void arguments(Dumper *d, const Node *params) {
  static const char *const groups[] = {"posonlyargs", "args", "kwonlyargs"};
  static const int kinds[] = {PARAM_POSONLY, PARAM_NORMAL, PARAM_KWONLY};
  put(d, "arguments(");
  for (int g = 0; g < 3; g++) {
    buf_printf(d->b, "%s%s=[", g ? ", " : "", groups[g]);
    bool first = true;
    for (const Node *p = params; p; p = p->next)
      if (p->op == kinds[g]) { if (!first) put(d, ", "); arg(d, p); first = false; }
    put(d, "]");
    if (g == 1)
      for (const Node *p = params; p; p = p->next)
        if (p->op == PARAM_VARARGS) { put(d, ", vararg="); arg(d, p); }
  }
  put(d, ", kw_defaults=[");
  bool first = true;
  for (const Node *p = params; p; p = p->next)
    if (p->op == PARAM_KWONLY) {
      if (!first) put(d, ", ");
      if (p->a) expr(d, p->a, LOAD); else put(d, "None");
      first = false;
    }
  put(d, "]");
  for (const Node *p = params; p; p = p->next)
    if (p->op == PARAM_VARKW) { put(d, ", kwarg="); arg(d, p); }
  put(d, ", defaults=[");
  first = true;
  for (const Node *p = params; p; p = p->next)
    if ((p->op == PARAM_POSONLY || p->op == PARAM_NORMAL) && p->a) {
      if (!first) put(d, ", ");
      expr(d, p->a, LOAD);
      first = false;
    }
  put(d, "])");
}

/* Call (or class) arguments: positional ones and Starred in args, the others in keywords. */
static void call_args(Dumper *d, const Node *args, const char *pos_name) {
  buf_printf(d->b, "%s=[", pos_name);
  bool first = true;
  for (const Node *a = args; a; a = a->next)
    if (a->kind != N_KWARG && a->kind != N_DSTAR) {
      if (!first) put(d, ", ");
      expr(d, a, LOAD);
      first = false;
    }
  put(d, "], keywords=[");
  first = true;
  for (const Node *a = args; a; a = a->next)
    if (a->kind == N_KWARG || a->kind == N_DSTAR) {
      if (!first) put(d, ", ");
      size_t start = d->b->n;
      put(d, "keyword(");
      if (a->kind == N_KWARG) { put(d, "arg="); quoted(d, a->str, a->len, false); put(d, ", "); }
      put(d, "value=");
      expr(d, a->a, LOAD);
      put(d, ")");
      position(d, start, a);
      first = false;
    }
  put(d, "]");
}

static void generators(Dumper *d, const Node *g) {
  put(d, "generators=[");
  for (const Node *f = g; f; f = f->next) {
    if (f != g) put(d, ", ");
    put(d, "comprehension(target=");
    expr(d, f->a, STORE);
    put(d, ", iter=");
    expr(d, f->b, LOAD);
    put(d, ", ifs=");
    expr_list(d, f->c, LOAD);
    put(d, ", is_async=0)");
  }
  put(d, "]");
}

/* BoolOp's values: the chain of unparenthesised same-kind left operands, flattened
   (`a or b or c` is one BoolOp; `(a or b) or c` two). */
static void bool_values(Dumper *d, const Node *x, int kind) {
  const Node *l = x->a;
  if (l->kind == kind && !l->paren && !deep(d)) bool_values(d, l, kind);
  else expr(d, l, LOAD);
  put(d, ", ");
  expr(d, x->b, LOAD);
}

static void expr_fields(Dumper *d, const Node *x, int ctx);

/* With positions, ", lineno=L, col_offset=C" before the closing parenthesis of the node just
   written from offset `start` (Python's attributes; col_offset 0-based, in characters). */
static void position(Dumper *d, size_t start, const Node *x) {
  Buf *b = d->b;
  if (!d->positions || b->failed || b->n <= start || b->p[b->n - 1] != ')') return;
  if (d->fstring) x = d->fstring;
  b->n--;
  buf_printf(b, "%slineno=%d, col_offset=%d)", b->p[b->n - 1] == '(' ? "" : ", ", x->line, x->col - 1);
}

static void expr(Dumper *d, const Node *x, int ctx) {
  size_t start = d->b->n;
  const Node *outer = d->fstring;
  if (x && x->kind == N_FSTRING && !outer) d->fstring = x;
  expr_fields(d, x, ctx);
  if (x && x->kind != N_COMPFOR && x->kind != N_DICTITEM) position(d, start, x);
  d->fstring = outer;
}

static void expr_fields(Dumper *d, const Node *x, int ctx) {
  if (!x) { put(d, "None"); return; }
  if (deep(d)) return;
  Buf *b = d->b;
  switch (x->kind) {
    case N_INT: buf_printf(b, "Constant(value=%lld)", (long long)x->ival); return;
    case N_BIGINT: buf_printf(b, "Constant(value=%s)", x->str); return;
    case N_FLOAT: put(d, "Constant(value="); number(d, x->fval, ""); put(d, ")"); return;
    case N_IMAG: put(d, "Constant(value="); number(d, x->fval, "j"); put(d, ")"); return;
    case N_STR: case N_BYTES:
      put(d, "Constant(value=");
      quoted(d, x->str, x->len, x->kind == N_BYTES);
      put(d, x->op ? ", kind='u')" : ")");
      return;
    case N_TRUE: put(d, "Constant(value=True)"); return;
    case N_FALSE: put(d, "Constant(value=False)"); return;
    case N_NONE: put(d, "Constant(value=None)"); return;
    case N_ELLIPSIS: put(d, "Constant(value=...)"); return;   /* evaluates to Ellipsis */
    case N_NAME:
      put(d, "Name(id=");
      quoted(d, x->str, x->len, false);
      buf_printf(b, ", ctx=%s)", ctx_names[ctx]);
      return;
    case N_BINOP:
      put(d, "BinOp(left=");
      expr(d, x->a, LOAD);
      buf_printf(b, ", op=%s, right=", binop_names[x->op]);
      expr(d, x->b, LOAD);
      put(d, ")");
      return;
    case N_UNARY:
      buf_printf(b, "UnaryOp(op=%s, operand=", binop_names[x->op]);
      expr(d, x->a, LOAD);
      put(d, ")");
      return;
    case N_AND: case N_OR: {
      buf_printf(b, "BoolOp(op=%s, values=[", x->kind == N_AND ? "And()" : "Or()");
      bool_values(d, x, x->kind);
      put(d, "])");
      return;
    }
    case N_COMPARE:
      put(d, "Compare(left=");
      expr(d, x->a, LOAD);
      put(d, ", ops=[");
      for (const Node *i = x->b; i; i = i->next) buf_printf(b, "%s%s", i == x->b ? "" : ", ", binop_names[i->op]);
      put(d, "], comparators=[");
      for (const Node *i = x->b; i; i = i->next) { if (i != x->b) put(d, ", "); expr(d, i->a, LOAD); }
      put(d, "])");
      return;
    case N_IFEXP:
      put(d, "IfExp(test=");
      expr(d, x->b, LOAD);
      put(d, ", body=");
      expr(d, x->a, LOAD);
      put(d, ", orelse=");
      expr(d, x->c, LOAD);
      put(d, ")");
      return;
    case N_CALL:
      put(d, "Call(func=");
      expr(d, x->a, LOAD);
      put(d, ", ");
      call_args(d, x->b, "args");
      put(d, ")");
      return;
    case N_ATTR:
      put(d, "Attribute(value=");
      expr(d, x->a, LOAD);
      put(d, ", attr=");
      quoted(d, x->str, x->len, false);
      buf_printf(b, ", ctx=%s)", ctx_names[ctx]);
      return;
    case N_SUBSCRIPT:
      put(d, "Subscript(value=");
      expr(d, x->a, LOAD);
      put(d, ", slice=");
      expr(d, x->b, LOAD);
      buf_printf(b, ", ctx=%s)", ctx_names[ctx]);
      return;
    case N_SLICE: {
      put(d, "Slice(");
      const char *sep = "";
      if (x->a) { put(d, "lower="); expr(d, x->a, LOAD); sep = ", "; }
      if (x->b) { put(d, sep); put(d, "upper="); expr(d, x->b, LOAD); sep = ", "; }
      if (x->c) { put(d, sep); put(d, "step="); expr(d, x->c, LOAD); }
      put(d, ")");
      return;
    }
    case N_TUPLE: case N_LIST:
      put(d, x->kind == N_TUPLE ? "Tuple(elts=" : "List(elts=");
      expr_list(d, x->a, ctx);
      buf_printf(b, ", ctx=%s)", ctx_names[ctx]);
      return;
    case N_SET: put(d, "Set(elts="); expr_list(d, x->a, LOAD); put(d, ")"); return;
    case N_DICT:
      put(d, "Dict(keys=[");
      for (const Node *i = x->a; i; i = i->next) {
        if (i != x->a) put(d, ", ");
        if (i->kind == N_DSTAR) put(d, "None"); else expr(d, i->a, LOAD);
      }
      put(d, "], values=[");
      for (const Node *i = x->a; i; i = i->next) {
        if (i != x->a) put(d, ", ");
        expr(d, i->kind == N_DSTAR ? i->a : i->b, LOAD);
      }
      put(d, "])");
      return;
    case N_STARRED:
      put(d, "Starred(value=");
      expr(d, x->a, ctx);
      buf_printf(b, ", ctx=%s)", ctx_names[ctx]);
      return;
    case N_NAMEDEXPR:
      put(d, "NamedExpr(target=");
      expr(d, x->a, STORE);
      put(d, ", value=");
      expr(d, x->b, LOAD);
      put(d, ")");
      return;
    case N_LAMBDA:
      put(d, "Lambda(args=");
      arguments(d, x->a);
      put(d, ", body=");
      expr(d, x->b, LOAD);
      put(d, ")");
      return;
    case N_YIELD:
      put(d, "Yield(");
      if (x->a) { put(d, "value="); expr(d, x->a, LOAD); }
      put(d, ")");
      return;
    case N_YIELDFROM: put(d, "YieldFrom(value="); expr(d, x->a, LOAD); put(d, ")"); return;
    case N_LISTCOMP: case N_SETCOMP: case N_GENEXP:
      put(d, x->kind == N_LISTCOMP ? "ListComp(elt=" : x->kind == N_SETCOMP ? "SetComp(elt=" : "GeneratorExp(elt=");
      expr(d, x->a, LOAD);
      put(d, ", ");
      generators(d, x->b);
      put(d, ")");
      return;
    case N_DICTCOMP:
      put(d, "DictComp(key=");
      expr(d, x->a->a, LOAD);
      put(d, ", value=");
      expr(d, x->a->b, LOAD);
      put(d, ", ");
      generators(d, x->b);
      put(d, ")");
      return;
    case N_FSTRING: put(d, "JoinedStr(values="); expr_list(d, x->a, LOAD); put(d, ")"); return;
    case N_FORMATTED:
      put(d, "FormattedValue(value=");
      const Node *f = d->fstring;
      d->fstring = NULL;                  /* a field's expression has its own position */
      expr(d, x->a, LOAD);
      d->fstring = f;
      buf_printf(b, ", conversion=%d", x->op ? x->op : -1);
      if (x->b) { put(d, ", format_spec="); expr(d, x->b, LOAD); }
      put(d, ")");
      return;
    default:
      buf_printf(b, "<%s>", ast_kind_name(x->kind));
      return;
  }
}

static void block_or_empty(Dumper *d, const char *field, const Node *block) {
  buf_printf(d->b, "%s=", field);
  stmts(d, block);
}

/* One statement; returns the next statement to dump (imports merge their continuations). */
static const Node *stmt_fields(Dumper *d, const Node *s);
static const Node *stmt(Dumper *d, const Node *s) {
  size_t start = d->b->n;
  const Node *next = stmt_fields(d, s);
  position(d, start, s);
  return next;
}

static const Node *stmt_fields(Dumper *d, const Node *s) {
  Buf *b = d->b;
  if (deep(d)) return NULL;
  switch (s->kind) {
    case N_EXPR: put(d, "Expr(value="); expr(d, s->a, LOAD); put(d, ")"); break;
    case N_ASSIGN:
      put(d, "Assign(targets=");
      expr_list(d, s->a, STORE);
      put(d, ", value=");
      expr(d, s->b, LOAD);
      put(d, ")");
      break;
    case N_AUGASSIGN:
      put(d, "AugAssign(target=");
      expr(d, s->a, STORE);
      buf_printf(b, ", op=%s, value=", binop_names[s->op]);
      expr(d, s->b, LOAD);
      put(d, ")");
      break;
    case N_ANNASSIGN:
      put(d, "AnnAssign(target=");
      expr(d, s->a, STORE);
      put(d, ", annotation=");
      expr(d, s->b, LOAD);
      if (s->c) { put(d, ", value="); expr(d, s->c, LOAD); }
      buf_printf(b, ", simple=%d)", s->op);
      break;
    case N_DEF:
      put(d, "FunctionDef(name=");
      quoted(d, s->str, s->len, false);
      put(d, ", args=");
      arguments(d, s->a);
      put(d, ", ");
      block_or_empty(d, "body", s->b);
      put(d, ", decorator_list=");
      expr_list(d, s->c, LOAD);
      if (s->d) { put(d, ", returns="); expr(d, s->d, LOAD); }
      put(d, ")");
      break;
    case N_CLASS:
      put(d, "ClassDef(name=");
      quoted(d, s->str, s->len, false);
      put(d, ", ");
      call_args(d, s->a, "bases");
      put(d, ", ");
      block_or_empty(d, "body", s->b);
      put(d, ", decorator_list=");
      expr_list(d, s->c, LOAD);
      put(d, ")");
      break;
    case N_RETURN:
      put(d, "Return(");
      if (s->a) { put(d, "value="); expr(d, s->a, LOAD); }
      put(d, ")");
      break;
    case N_DEL: put(d, "Delete(targets="); expr_list(d, s->a, DEL); put(d, ")"); break;
    case N_FOR:
      put(d, "For(target=");
      expr(d, s->a, STORE);
      put(d, ", iter=");
      expr(d, s->b, LOAD);
      put(d, ", ");
      block_or_empty(d, "body", s->c);
      put(d, ", ");
      block_or_empty(d, "orelse", s->d);
      put(d, ")");
      break;
    case N_WHILE:
      put(d, "While(test=");
      expr(d, s->a, LOAD);
      put(d, ", ");
      block_or_empty(d, "body", s->b);
      put(d, ", ");
      block_or_empty(d, "orelse", s->d);
      put(d, ")");
      break;
    case N_IF:
      put(d, "If(test=");
      expr(d, s->a, LOAD);
      put(d, ", ");
      block_or_empty(d, "body", s->b);
      put(d, ", orelse=");
      if (s->c && s->c->kind == N_IF) { put(d, "["); stmt(d, s->c); put(d, "]"); }
      else stmts(d, s->c);
      put(d, ")");
      break;
    case N_WITH:
      put(d, "With(items=[");
      for (const Node *w = s->a; w; w = w->next) {
        if (w != s->a) put(d, ", ");
        put(d, "withitem(context_expr=");
        expr(d, w->a, LOAD);
        if (w->b) { put(d, ", optional_vars="); expr(d, w->b, STORE); }
        put(d, ")");
      }
      put(d, "], ");
      block_or_empty(d, "body", s->b);
      put(d, ")");
      break;
    case N_RAISE: {
      put(d, "Raise(");
      if (s->a) { put(d, "exc="); expr(d, s->a, LOAD); }
      if (s->b) { put(d, ", cause="); expr(d, s->b, LOAD); }
      put(d, ")");
      break;
    }
    case N_TRY:
      put(d, s->op ? "TryStar(" : "Try(");
      block_or_empty(d, "body", s->a);
      put(d, ", handlers=[");
      for (const Node *h = s->b; h; h = h->next) {
        if (h != s->b) put(d, ", ");
        size_t start = d->b->n;
        put(d, "ExceptHandler(");
        if (h->a) { put(d, "type="); expr(d, h->a, LOAD); put(d, ", "); }
        if (h->c) { put(d, "name="); quoted(d, h->c->str, h->c->len, false); put(d, ", "); }
        block_or_empty(d, "body", h->b);
        put(d, ")");
        position(d, start, h);
      }
      put(d, "], ");
      block_or_empty(d, "orelse", s->c);
      put(d, ", ");
      block_or_empty(d, "finalbody", s->d);
      put(d, ")");
      break;
    case N_ASSERT:
      put(d, "Assert(test=");
      expr(d, s->a, LOAD);
      if (s->b) { put(d, ", msg="); expr(d, s->b, LOAD); }
      put(d, ")");
      break;
    case N_IMPORT: {
      put(d, "Import(names=[");
      const Node *i = s;
      do {
        if (i != s) put(d, ", ");
        put(d, "alias(name=");
        quoted(d, i->str, i->len, false);
        if (i->a) { put(d, ", asname="); quoted(d, i->a->str, i->a->len, false); }
        put(d, ")");
        i = i->next;
      } while (i && i->kind == N_IMPORT && i->op == 1);
      put(d, "])");
      return i;
    }
    case N_FROMIMPORT:
      put(d, "ImportFrom(");
      if (s->len) { put(d, "module="); quoted(d, s->str, s->len, false); put(d, ", "); }
      put(d, "names=[");
      if (!s->n) put(d, "alias(name='*')");
      for (const Node *i = s->a; i; i = i->next) {
        if (i != s->a) put(d, ", ");
        put(d, "alias(name=");
        quoted(d, i->str, i->len, false);
        if (i->a) { put(d, ", asname="); quoted(d, i->a->str, i->a->len, false); }
        put(d, ")");
      }
      buf_printf(b, "], level=%lld)", (long long)s->ival);
      break;
    case N_GLOBAL: case N_NONLOCAL:
      put(d, s->kind == N_GLOBAL ? "Global(names=[" : "Nonlocal(names=[");
      for (const Node *i = s->a; i; i = i->next) {
        if (i != s->a) put(d, ", ");
        quoted(d, i->str, i->len, false);
      }
      put(d, "])");
      break;
    case N_PASS: put(d, "Pass()"); break;
    case N_BREAK: put(d, "Break()"); break;
    case N_CONTINUE: put(d, "Continue()"); break;
    default: buf_printf(b, "<%s>", ast_kind_name(s->kind)); break;
  }
  return s->next;
}

static void stmts(Dumper *d, const Node *block) {
  put(d, "[");
  const Node *s = block ? block->a : NULL;
  bool first = true;
  while (s && !d->failed) {
    if (!first) put(d, ", ");
    first = false;
    s = stmt(d, s);
  }
  put(d, "]");
}

int ast_dump(Ctx *c, const Chunk *ch, Buf *b, bool positions) {
  Dumper d = {c, b, false, positions, NULL};
  put(&d, "Module(body=");
  stmts(&d, ch->root);
  put(&d, ", type_ignores=[])");
  if (d.failed) return -1;
  if (b->failed) return ctx_err(c, TSR_ERR_MEMORY, "MemoryError", "out of memory");
  return 0;
}
