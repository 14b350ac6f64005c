/*
** lex.c -- the tokenizer of tsr source.  Hand-written around a character-class table, it
** produces Python's tokens for the Lemon parser: names, keywords, numbers, strings (raw
** slices; ast.c decodes them), operators, and NEWLINE / INDENT / DEDENT with CPython's rules
** for blank lines, comments, implicit joining inside brackets, `\` continuation and tabs.
*/
#include "lex.h"

#include <string.h>

#include "grammar.h"

/* Character classes of the first byte of a token. */
enum {
  CC_SPACE,      /* ' ' \t \f */
  CC_NL,         /* \n \r */
  CC_ALPHA,      /* letters, '_', and every byte >= 0x80 (UTF-8 identifiers) */
  CC_DIGIT,
  CC_QUOTE,      /* ' " */
  CC_HASH,
  CC_BACKSLASH,
  CC_DOT,
  CC_OP,         /* operator and bracket characters */
  CC_NUL,
  CC_ILLEGAL     /* $ ? ` and control characters */
};

static const unsigned char char_class[256] = {
  /* 0x00 */ CC_NUL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL,
  CC_ILLEGAL, CC_ILLEGAL, CC_SPACE, CC_NL, CC_ILLEGAL, CC_SPACE, CC_NL, CC_ILLEGAL, CC_ILLEGAL,
  /* 0x10 */ CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL,
  CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL, CC_ILLEGAL,
  CC_ILLEGAL, CC_ILLEGAL,
  /* 0x20  ! " # $ % & ' */ CC_SPACE, CC_OP, CC_QUOTE, CC_HASH, CC_ILLEGAL, CC_OP, CC_OP, CC_QUOTE,
  /* ( ) * + , - . / */ CC_OP, CC_OP, CC_OP, CC_OP, CC_OP, CC_OP, CC_DOT, CC_OP,
  /* 0-9 */ CC_DIGIT, CC_DIGIT, CC_DIGIT, CC_DIGIT, CC_DIGIT, CC_DIGIT, CC_DIGIT, CC_DIGIT,
  CC_DIGIT, CC_DIGIT,
  /* : ; < = > ? */ CC_OP, CC_OP, CC_OP, CC_OP, CC_OP, CC_ILLEGAL,
  /* @ A-O */ CC_OP, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  /* P-Z */ CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA,
  /* [ \ ] ^ _ */ CC_OP, CC_BACKSLASH, CC_OP, CC_OP, CC_ALPHA,
  /* ` a-o */ CC_ILLEGAL, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  /* p-z */ CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA,
  /* { | } ~ DEL */ CC_OP, CC_OP, CC_OP, CC_OP, CC_ILLEGAL,
  /* 0x80 - 0xff */
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
  CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA, CC_ALPHA,
};
_Static_assert(sizeof char_class == 256, "one class per byte");

static int cls(const Lexer *L, size_t p) {
  return p < L->len ? char_class[(unsigned char)L->src[p]] : CC_NUL;
}
static bool is_ident(int cc) { return cc == CC_ALPHA || cc == CC_DIGIT; }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Python's keywords.  `async` and `await` lex as TK_RESERVED, so that they can be neither
   statements nor names (as in Python) and the parser says tsr does not support them. */
static const struct { const char *word; int code; } keywords[] = {
  {"False", TK_FALSE}, {"None", TK_NONE}, {"True", TK_TRUE}, {"and", TK_AND}, {"as", TK_AS},
  {"assert", TK_ASSERT}, {"break", TK_BREAK}, {"continue", TK_CONTINUE}, {"def", TK_DEF},
  {"del", TK_DEL}, {"elif", TK_ELIF}, {"else", TK_ELSE}, {"for", TK_FOR}, {"from", TK_FROM},
  {"global", TK_GLOBAL}, {"if", TK_IF}, {"import", TK_IMPORT}, {"in", TK_IN}, {"is", TK_IS},
  {"not", TK_NOT}, {"or", TK_OR}, {"pass", TK_PASS}, {"return", TK_RETURN},
  {"while", TK_WHILE}, {"class", TK_CLASS}, {"except", TK_EXCEPT}, {"finally", TK_FINALLY},
  {"lambda", TK_LAMBDA}, {"nonlocal", TK_NONLOCAL}, {"raise", TK_RAISE}, {"try", TK_TRY},
  {"with", TK_WITH}, {"yield", TK_YIELD},
  {"async", TK_RESERVED}, {"await", TK_RESERVED},
};

int lex_keyword(const char *z, int n) {
  if (n < 2 || n > 8) return TK_NAME;
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if ((int)strlen(keywords[i].word) == n && memcmp(keywords[i].word, z, (size_t)n) == 0)
      return keywords[i].code;
  return TK_NAME;
}

void lex_init(Lexer *L, Ctx *c, const char *src, size_t len) {
  memset(L, 0, sizeof *L);
  L->c = c;
  L->src = src;
  L->len = len;
  L->line = 1;
  L->col_val = 1;
  L->at_bol = true;
  if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) L->pos = L->line_start = 3;
}

/* Length of the valid UTF-8 sequence at s[p] (1 for ASCII), or 0 with *why set to the reason
   CPython's decoder gives ("invalid start byte", "invalid continuation byte", "unexpected end
   of data"). */
static size_t utf8_seq(const unsigned char *s, size_t p, size_t len, const char **why) {
  unsigned char b = s[p];
  if (b < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;   /* allowed range of the first continuation byte */
  if (b >= 0xC2 && b <= 0xDF) n = 2;
  else if (b >= 0xE0 && b <= 0xEF) { n = 3; if (b == 0xE0) lo = 0xA0; if (b == 0xED) hi = 0x9F; }
  else if (b >= 0xF0 && b <= 0xF4) { n = 4; if (b == 0xF0) lo = 0x90; if (b == 0xF4) hi = 0x8F; }
  else { *why = "invalid start byte"; return 0; }
  for (size_t i = 1; i < n; i++) {
    if (p + i >= len) { *why = "unexpected end of data"; return 0; }
    unsigned char c = s[p + i];
    if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xBF)) {
      *why = "invalid continuation byte";
      return 0;
    }
  }
  return n;
}

/* Checks that the whole source is UTF-8 (CPython decodes a file before tokenizing it, so a
   bad byte anywhere is an error before any token).  Returns 0, or -1 with a SyntaxError at the
   bad byte. */
static int check_utf8(Lexer *L) {
  const unsigned char *s = (const unsigned char *)L->src;
  int line = 1;
  size_t line_start = 0;
  for (size_t p = 0; p < L->len;) {
    if (s[p] == '\n') { line++; line_start = p + 1; p++; continue; }
    if (s[p] < 0x80) { p++; continue; }
    const char *why = NULL;
    size_t n = utf8_seq(s, p, L->len, &why);
    if (n == 0) {
      int col = 1;
      for (size_t i = line_start; i < p; i++) col += (s[i] & 0xC0) != 0x80;
      L->err_line = line;
      L->err_col = col;
      ctx_err(L->c, TSR_ERR_SYNTAX, "SyntaxError", "(unicode error) 'utf-8' codec can't "
              "decode byte 0x%02x in position %zu: %s", s[p], p - line_start, why);
      return -1;
    }
    p += n;
  }
  return 0;
}

/* 1-based column of byte offset p on the current line, counted in characters (UTF-8 lead
   bytes) as CPython does.  Positions mostly grow along a line, so the count resumes from
   the last one asked for. */
static int col_of(Lexer *L, size_t p) {
  if (L->col_line_start != L->line_start || p < L->col_pos || L->col_pos < L->line_start) {
    L->col_line_start = L->line_start;
    L->col_pos = L->line_start;
    L->col_val = 1;
  }
  for (size_t i = L->col_pos; i < p; i++)
    if (((unsigned char)L->src[i] & 0xC0) != 0x80) L->col_val++;
  L->col_pos = p;
  return L->col_val;
}

/* Records a lexical error at line/col; returns -1. */
static int lex_fail(Lexer *L, int line, int col, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int lex_fail(Lexer *L, int line, int col, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ctx_verr(L->c, TSR_ERR_SYNTAX, kind, fmt, ap);
  va_end(ap);
  L->err_line = line;
  L->err_col = col;
  return -1;
}

/* Consumes a line break at pos (\n, \r\n or \r) and starts the next line. */
static void newline(Lexer *L) {
  if (L->src[L->pos] == '\r' && L->pos + 1 < L->len && L->src[L->pos + 1] == '\n') L->pos++;
  L->pos++;
  L->line++;
  L->line_start = L->pos;
}

static int make(Lexer *L, Token *t, int code, size_t start, size_t end) {
  t->flags = 0;
  t->z = L->src + start;
  t->n = (int)(end - start);
  t->line = L->line;
  t->col = col_of(L, start);
  L->pos = end;
  if (code != TK_NEWLINE && code != TK_INDENT && code != TK_DEDENT && code != 0) {
    L->line_has_tokens = true;
    L->blank_at_end = false;
  }
  return code;
}

/* Handles the indentation at the start of a logical line: skips blank and comment-only
   lines, then compares the indentation with the stack.  Returns 0 when the line's first
   token should be scanned, TK_INDENT / TK_DEDENT with *t set, 1 at the end of input, or -1
   on an indentation error. */
static int line_start(Lexer *L, Token *t) {
  for (;;) {
    size_t p = L->pos;
    int col = 0, alt = 0;
    while (p < L->len) {
      char ch = L->src[p];
      if (ch == ' ') { col++; alt++; }
      else if (ch == '\t') { col = (col / 8 + 1) * 8; alt++; }
      else if (ch == '\f') { col = alt = 0; }
      else break;
      p++;
    }
    if (p >= L->len) { L->pos = p; return 1; }
    char ch = L->src[p];
    if (ch == '#' || ch == '\n' || ch == '\r') {   /* blank or comment-only line */
      L->blank_at_end = ch != '#';
      while (p < L->len && L->src[p] != '\n' && L->src[p] != '\r') p++;
      L->pos = p;
      if (p >= L->len) return 1;
      newline(L);
      continue;
    }
    L->pos = p;
    L->at_bol = false;
    int top = L->nindent ? L->indent[L->nindent - 1] : 0;
    int atop = L->nindent ? L->alt[L->nindent - 1] : 0;
    if (col == top) {
      if (alt != atop)
        return lex_fail(L, L->line, 1, "TabError",
                        "inconsistent use of tabs and spaces in indentation");
      return 0;
    }
    if (col > top) {
      if (alt <= atop)
        return lex_fail(L, L->line, 1, "TabError",
                        "inconsistent use of tabs and spaces in indentation");
      if (L->nindent >= LEX_MAXINDENT)
        return lex_fail(L, L->line, col_of(L, p), "IndentationError",
                        "too many levels of indentation");
      L->indent[L->nindent] = col;
      L->alt[L->nindent] = alt;
      L->nindent++;
      make(L, t, TK_INDENT, p, p);
      if (t->col > 1) t->col--;           /* CPython's caret: the last indenting character */
      return TK_INDENT;
    }
    int count = 0;
    while (L->nindent > 0 && col < L->indent[L->nindent - 1]) { L->nindent--; count++; }
    top = L->nindent ? L->indent[L->nindent - 1] : 0;
    atop = L->nindent ? L->alt[L->nindent - 1] : 0;
    if (col != top) {                     /* CPython points just past the line's end */
      size_t e = p;
      while (e < L->len && L->src[e] != '\n' && L->src[e] != '\r') e++;
      return lex_fail(L, L->line, col_of(L, e), "IndentationError",
                      "unindent does not match any outer indentation level");
    }
    if (alt != atop)
      return lex_fail(L, L->line, 1, "TabError",
                      "inconsistent use of tabs and spaces in indentation");
    make(L, t, TK_DEDENT, p, p);
    L->pending = count - 1;
    L->pending_tok = *t;
    return TK_DEDENT;
  }
}

/* Scans a string literal whose prefix starts at `start` and whose opening quote is at q. */
static int scan_string(Lexer *L, Token *t, size_t start, size_t q) {
  char quote = L->src[q];
  int line = L->line, col = col_of(L, start);
  bool triple = q + 2 < L->len && L->src[q + 1] == quote && L->src[q + 2] == quote;
  size_t p = q + (triple ? 3 : 1);
  for (;;) {
    if (p >= L->len) {
      if (triple) {
        L->incomplete = true;
        return lex_fail(L, line, col, "SyntaxError",
                        "unterminated triple-quoted string literal (detected at line %d)",
                        L->line);
      }
      return lex_fail(L, line, col, "SyntaxError",
                      "unterminated string literal (detected at line %d)", L->line);
    }
    char ch = L->src[p];
    if (ch == '\\' && p + 1 < L->len) {
      char nx = L->src[p + 1];
      if (nx == '\n' || nx == '\r') { L->pos = p + 1; newline(L); p = L->pos; }
      else p += 2;
      continue;
    }
    if (ch == '\n' || ch == '\r') {
      if (!triple)
        return lex_fail(L, line, col, "SyntaxError",
                        "unterminated string literal (detected at line %d)", L->line);
      L->pos = p;
      newline(L);
      p = L->pos;
      continue;
    }
    if (ch == quote && (!triple || (p + 2 < L->len && L->src[p + 1] == quote &&
                                    L->src[p + 2] == quote))) {
      p += triple ? 3 : 1;
      break;
    }
    p++;
  }
  t->flags = 0;
  t->z = L->src + start;
  t->n = (int)(p - start);
  t->line = line;
  t->col = col;
  L->pos = p;
  L->line_has_tokens = true;
  L->blank_at_end = false;
  return TK_STRING;
}

/* Scans digits of `base` with single underscores between them; returns the end, or 0 if the
   underscores are misplaced (`1__0`, `1_`) -- *bad is then the offending position. */
static size_t scan_digits(const Lexer *L, size_t p, int base, size_t *bad) {
  for (;;) {
    char ch = p < L->len ? L->src[p] : 0;
    bool ok = base == 16 ? (is_digit(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'))
                         : (ch >= '0' && ch < '0' + (base < 10 ? base : 10));
    if (ok) { p++; continue; }
    if (ch == '_') {
      char nx = p + 1 < L->len ? L->src[p + 1] : 0;
      bool nok = base == 16 ? (is_digit(nx) || (nx >= 'a' && nx <= 'f') || (nx >= 'A' && nx <= 'F'))
                            : (nx >= '0' && nx < '0' + (base < 10 ? base : 10));
      if (!nok) { *bad = p; return 0; }
      p++;
      continue;
    }
    return p;
  }
}

/* Scans a number starting at `start` (a digit, or '.' followed by a digit). */
static int scan_number(Lexer *L, Token *t, size_t start) {
  const char *s = L->src;
  size_t p = start, bad = 0;
  int line = L->line, col = col_of(L, start);
  if (s[p] == '0' && p + 1 < L->len && strchr("xXoObB", s[p + 1]) && s[p + 1]) {
    char k = (char)(s[p + 1] | 0x20);
    int base = k == 'x' ? 16 : k == 'o' ? 8 : 2;
    const char *what = k == 'x' ? "hexadecimal" : k == 'o' ? "octal" : "binary";
    size_t q = p + 2;
    if (q < L->len && s[q] == '_') q++;
    size_t e = scan_digits(L, q, base, &bad);
    if (e == 0) return lex_fail(L, line, col_of(L, bad), "SyntaxError", "invalid %s literal", what);
    if (e == q && base < 10 && q < L->len && is_digit(s[q]))
      return lex_fail(L, line, col_of(L, q), "SyntaxError", "invalid digit '%c' in %s literal",
                      s[q], what);
    if (e == q) return lex_fail(L, line, col_of(L, p + 2), "SyntaxError", "invalid %s literal", what);
    if (is_ident(cls(L, e))) {
      if (base < 10 && is_digit(s[e]))
        return lex_fail(L, line, col_of(L, e), "SyntaxError", "invalid digit '%c' in %s literal",
                        s[e], what);
      return lex_fail(L, line, col_of(L, e), "SyntaxError", "invalid %s literal", what);
    }
    return make(L, t, TK_INT, start, e);
  }
  bool is_float = false;
  size_t e = p;
  if (s[p] != '.') {
    e = scan_digits(L, p, 10, &bad);
    if (e == 0) return lex_fail(L, line, col_of(L, bad), "SyntaxError", "invalid decimal literal");
  }
  if (e < L->len && s[e] == '.') {
    is_float = true;
    e++;
    if (e < L->len && is_digit(s[e])) {
      e = scan_digits(L, e, 10, &bad);
      if (e == 0)
        return lex_fail(L, line, col_of(L, bad), "SyntaxError", "invalid decimal literal");
    }
  }
  if (e < L->len && (s[e] == 'e' || s[e] == 'E')) {
    size_t q = e + 1;
    if (q < L->len && (s[q] == '+' || s[q] == '-')) q++;
    if (q < L->len && is_digit(s[q])) {
      e = scan_digits(L, q, 10, &bad);
      if (e == 0)
        return lex_fail(L, line, col_of(L, bad), "SyntaxError", "invalid decimal literal");
      is_float = true;
    } else {
      return lex_fail(L, line, col, "SyntaxError", "invalid decimal literal");
    }
  }
  bool imag = e < L->len && (s[e] == 'j' || s[e] == 'J');
  if (imag) e++;
  if (is_ident(cls(L, e))) {
    /* Python still accepts `1if x else 2`; tsr takes the keywords that may follow. */
    size_t w = e;
    while (is_ident(cls(L, w))) w++;
    int kw = lex_keyword(s + e, (int)(w - e));
    if (kw != TK_IF && kw != TK_ELSE && kw != TK_AND && kw != TK_OR && kw != TK_IN &&
        kw != TK_IS && kw != TK_NOT && kw != TK_FOR)
      return lex_fail(L, line, col, "SyntaxError", "invalid decimal literal");
  }
  if (imag) return make(L, t, TK_IMAG, start, e);
  if (!is_float && s[start] == '0') {
    for (size_t i = start; i < e; i++)
      if (s[i] != '0' && s[i] != '_')
        return lex_fail(L, line, col, "SyntaxError",
                        "leading zeros in decimal integer literals are not permitted; "
                        "use an 0o prefix for octal integers");
  }
  return make(L, t, is_float ? TK_FLOAT : TK_INT, start, e);
}

/* Operators: the longest match among one-, two- and three-character tokens. */
static int fstring_field_op(Lexer *L, Token *t, size_t p);
static int scan_op(Lexer *L, Token *t, size_t p) {
  if (L->nfstr) {
    int code = fstring_field_op(L, t, p);
    if (code) return code;
  }
  const char *s = L->src;
  char c0 = s[p], c1 = p + 1 < L->len ? s[p + 1] : 0, c2 = p + 2 < L->len ? s[p + 2] : 0;
  switch (c0) {
    case '+': return c1 == '=' ? make(L, t, TK_PLUSEQ, p, p + 2) : make(L, t, TK_PLUS, p, p + 1);
    case '-':
      if (c1 == '=') return make(L, t, TK_MINUSEQ, p, p + 2);
      if (c1 == '>') return make(L, t, TK_ARROW, p, p + 2);
      return make(L, t, TK_MINUS, p, p + 1);
    case '*':
      if (c1 == '*') return c2 == '=' ? make(L, t, TK_POWEQ, p, p + 3) : make(L, t, TK_POW, p, p + 2);
      return c1 == '=' ? make(L, t, TK_STAREQ, p, p + 2) : make(L, t, TK_STAR, p, p + 1);
    case '/':
      if (c1 == '/')
        return c2 == '=' ? make(L, t, TK_SLASHSLASHEQ, p, p + 3) : make(L, t, TK_SLASHSLASH, p, p + 2);
      return c1 == '=' ? make(L, t, TK_SLASHEQ, p, p + 2) : make(L, t, TK_SLASH, p, p + 1);
    case '%': return c1 == '=' ? make(L, t, TK_PERCENTEQ, p, p + 2) : make(L, t, TK_PERCENT, p, p + 1);
    case '@': return c1 == '=' ? make(L, t, TK_ATEQ, p, p + 2) : make(L, t, TK_AT, p, p + 1);
    case '&': return c1 == '=' ? make(L, t, TK_AMPEQ, p, p + 2) : make(L, t, TK_AMP, p, p + 1);
    case '|': return c1 == '=' ? make(L, t, TK_PIPEEQ, p, p + 2) : make(L, t, TK_PIPE, p, p + 1);
    case '^': return c1 == '=' ? make(L, t, TK_CARETEQ, p, p + 2) : make(L, t, TK_CARET, p, p + 1);
    case '~': return make(L, t, TK_TILDE, p, p + 1);
    case '<':
      if (c1 == '<') return c2 == '=' ? make(L, t, TK_LSHIFTEQ, p, p + 3) : make(L, t, TK_LSHIFT, p, p + 2);
      return c1 == '=' ? make(L, t, TK_LE, p, p + 2) : make(L, t, TK_LT, p, p + 1);
    case '>':
      if (c1 == '>') return c2 == '=' ? make(L, t, TK_RSHIFTEQ, p, p + 3) : make(L, t, TK_RSHIFT, p, p + 2);
      return c1 == '=' ? make(L, t, TK_GE, p, p + 2) : make(L, t, TK_GT, p, p + 1);
    case '=': return c1 == '=' ? make(L, t, TK_EQ, p, p + 2) : make(L, t, TK_ASSIGN, p, p + 1);
    case '!': return c1 == '=' ? make(L, t, TK_NE, p, p + 2) : make(L, t, TK_BANG, p, p + 1);
    case ':': return c1 == '=' ? make(L, t, TK_WALRUS, p, p + 2) : make(L, t, TK_COLON, p, p + 1);
    case ',': return make(L, t, TK_COMMA, p, p + 1);
    case ';': return make(L, t, TK_SEMI, p, p + 1);
    default: break;
  }
  /* brackets */
  const char *open = "([{", *close = ")]}";
  const char *o = strchr(open, c0), *cl = strchr(close, c0);
  if (o) {
    if (L->depth >= LEX_MAXDEPTH)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "too many nested parentheses");
    L->bracket[L->depth] = c0;
    L->bline[L->depth] = L->line;
    L->bcol[L->depth] = col_of(L, p);
    L->depth++;
    return make(L, t, c0 == '(' ? TK_LP : c0 == '[' ? TK_LB : TK_LBRACE, p, p + 1);
  }
  if (cl) {
    if (L->depth == 0)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "unmatched '%c'", c0);
    char want = close[strchr(open, L->bracket[L->depth - 1]) - open];
    if (want != c0) {
      if (L->bline[L->depth - 1] != L->line)
        return lex_fail(L, L->line, col_of(L, p), "SyntaxError",
                        "closing parenthesis '%c' does not match opening parenthesis '%c' "
                        "on line %d", c0, L->bracket[L->depth - 1], L->bline[L->depth - 1]);
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError",
                      "closing parenthesis '%c' does not match opening parenthesis '%c'", c0,
                      L->bracket[L->depth - 1]);
    }
    L->depth--;
    return make(L, t, c0 == ')' ? TK_RP : c0 == ']' ? TK_RB : TK_RBRACE, p, p + 1);
  }
  return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "invalid syntax");
}

/* ---- f-strings ----------------------------------------------------------------------------
** See LexFStr in lex.h.  Errors use CPython 3.11's "f-string: ..." messages. */

/* The innermost open f-string entry and field entry (NULL when none). */
static LexFStr *fs_top(Lexer *L) { return L->nfstr ? &L->fstr[L->nfstr - 1] : NULL; }
static LexFStr *fs_string(Lexer *L) {
  for (int i = L->nfstr - 1; i >= 0; i--)
    if (L->fstr[i].kind == FS_STRING) return &L->fstr[i];
  return NULL;
}

/* An f-string whose prefix starts at `start` and whose opening quote is at q: finds its end
   as scan_string does (same errors), then enters f-string mode and returns FSTART. */
static int fstring_start(Lexer *L, Token *t, size_t start, size_t q) {
  int line = L->line;
  size_t line_start = L->line_start;
  int code = scan_string(L, t, start, q);
  if (code < 0) return code;
  if (L->nfstr >= LEX_MAXFSTR)
    return lex_fail(L, line, t->col, "SyntaxError", "f-string: expressions nested too deeply");
  char quote = L->src[q];
  int qn = q + 2 < L->len && L->src[q + 1] == quote && L->src[q + 2] == quote &&
           (size_t)t->n - (q - start) >= 6 ? 3 : 1;
  size_t end = start + (size_t)t->n - (size_t)qn;
  L->line = line;                      /* lex the inside again, line by line */
  L->line_start = line_start;
  LexFStr *f = &L->fstr[L->nfstr++];
  memset(f, 0, sizeof *f);
  f->kind = FS_STRING;
  f->qn = qn;
  f->end = end;
  f->outer_len = L->len;
  for (size_t i = start; i < q; i++) f->raw |= (L->src[i] | 0x20) == 'r';
  L->len = end;
  return make(L, t, TK_FSTART, start, q + (size_t)qn);
}

/* Literal text of an f-string or of a format spec, up to a brace or the closing quotes. */
static int fstring_text(Lexer *L, Token *t) {
  LexFStr *f = fs_top(L), *fs = fs_string(L);
  const char *s = L->src;
  size_t p = L->pos;
  if (p >= L->len) {
    if (f->kind == FS_FIELD)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "f-string: expecting '}'");
    L->len = f->outer_len;
    L->nfstr--;
    return make(L, t, TK_FEND, p, p + (size_t)f->qn);
  }
  char nx = p + 1 < L->len ? s[p + 1] : 0;
  if (s[p] == '{') {
    if (f->kind == FS_STRING && nx == '{') { make(L, t, TK_FMIDDLE, p, p + 1); L->pos = p + 2; return TK_FMIDDLE; }
    int fields = 0;
    for (LexFStr *g = f; g->kind == FS_FIELD; g--) fields++;
    if (fields >= 2 || L->nfstr >= LEX_MAXFSTR)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "f-string: expressions nested too deeply");
    if (L->depth >= LEX_MAXDEPTH)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "too many nested parentheses");
    L->bracket[L->depth] = '{';
    L->bline[L->depth] = L->line;
    L->bcol[L->depth] = col_of(L, p);
    L->depth++;
    LexFStr *g = &L->fstr[L->nfstr++];
    memset(g, 0, sizeof *g);
    g->kind = FS_FIELD;
    g->bdepth = L->depth;
    g->expr_start = p + 1;
    return make(L, t, TK_LBRACE, p, p + 1);
  }
  if (s[p] == '}') {
    if (f->kind == FS_STRING) {
      if (nx != '}')
        return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "f-string: single '}' is not allowed");
      make(L, t, TK_FMIDDLE, p, p + 1);
      L->pos = p + 2;
      return TK_FMIDDLE;
    }
    L->depth--;                        /* the end of a format spec ends its field */
    L->nfstr--;
    return make(L, t, TK_RBRACE, p, p + 1);
  }
  int line = L->line, col = col_of(L, p);
  size_t q = p;
  while (q < L->len && s[q] != '{' && s[q] != '}') {
    if (s[q] == '\n' || s[q] == '\r') { L->pos = q; newline(L); q = L->pos; continue; }
    if (s[q] != '\\' || fs->raw || q + 1 >= L->len) { q++; continue; }
    char e = s[q + 1];
    if (e == '{' || e == '}') { q++; continue; }          /* `\{`: a backslash, then a field */
    if (e == '\n' || e == '\r') { L->pos = q + 1; newline(L); q = L->pos; continue; }
    if (e == 'N' && q + 2 < L->len && s[q + 2] == '{') {  /* `\N{NAME}` is one escape */
      size_t r = q + 3;
      while (r < L->len && s[r] != '}') r++;
      q = r < L->len ? r + 1 : r;
      continue;
    }
    q += 2;
  }
  t->flags = fs->raw ? TOKF_RAW : 0;
  t->z = s + p;
  t->n = (int)(q - p);
  t->line = line;
  t->col = col;
  L->pos = q;
  L->line_has_tokens = true;
  return TK_FMIDDLE;
}

/* In a replacement field's expression, at the field's own bracket depth: `}` ends it, `:`
   starts its format spec, `=` (not `==`) makes it self-documenting.  Returns the token code,
   or 0 when c0 is none of these. */
static int fstring_field_op(Lexer *L, Token *t, size_t p) {
  LexFStr *f = fs_top(L);
  if (!f || f->kind != FS_FIELD || f->spec || L->depth != f->bdepth) return 0;
  const char *s = L->src;
  char c0 = s[p], c1 = p + 1 < L->len ? s[p + 1] : 0;
  if (c0 == '}') {
    L->depth--;
    L->nfstr--;
    return make(L, t, TK_RBRACE, p, p + 1);
  }
  if (c0 == ':') { f->spec = true; return make(L, t, TK_COLON, p, p + 1); }
  if (c0 == '=' && c1 != '=') {        /* FDEBUG: the text from '{' through '=' and spaces */
    size_t q = p + 1;
    while (q < L->len && cls(L, q) == CC_SPACE) q++;
    make(L, t, TK_FDEBUG, p, q);
    t->z = s + f->expr_start;
    t->n = (int)(q - f->expr_start);
    return TK_FDEBUG;
  }
  return 0;
}

/* The end of input: NEWLINE if the last line has tokens, the DEDENTs, then 0. */
static int at_end(Lexer *L, Token *t) {
  if (L->depth > 0) {
    L->incomplete = true;
    return lex_fail(L, L->bline[L->depth - 1], L->bcol[L->depth - 1], "SyntaxError",
                    "'%c' was never closed", L->bracket[L->depth - 1]);
  }
  size_t p = L->len;
  if (L->line_has_tokens) {
    L->line_has_tokens = false;
    L->at_bol = true;
    L->indented_at_end = L->nindent > 0;
    return make(L, t, TK_NEWLINE, p, p);
  }
  if (L->nindent > 0) {
    L->pending = L->nindent - 1;
    L->nindent = 0;
    make(L, t, TK_DEDENT, p, p);
    L->pending_tok = *t;
    return TK_DEDENT;
  }
  L->done = true;
  make(L, t, 0, p, p);
  return 0;
}

int lex_next(Lexer *L, Token *t) {
  if (L->pending > 0) {
    L->pending--;
    *t = L->pending_tok;
    return TK_DEDENT;
  }
  if (L->done) { *t = L->pending_tok; t->n = 0; return 0; }
  if (!L->utf8_checked) {
    L->utf8_checked = true;
    if (check_utf8(L) < 0) return -1;
  }
  for (;;) {
    LexFStr *fs = fs_top(L);
    if (fs && (fs->kind == FS_STRING || fs->spec)) return fstring_text(L, t);
    if (L->at_bol && L->depth == 0) {
      int r = line_start(L, t);
      if (r == 1) return at_end(L, t);
      if (r != 0) return r;
    }
    size_t p = L->pos;
    while (p < L->len && cls(L, p) == CC_SPACE) p++;
    L->pos = p;
    if (fs && p >= L->len)
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "f-string: expecting '}'");
    if (p >= L->len) return at_end(L, t);
    const char *s = L->src;
    if (fs && (s[p] == '#' || s[p] == '\\'))
      return lex_fail(L, L->line, col_of(L, p), "SyntaxError",
                      s[p] == '#' ? "f-string expression part cannot include '#'"
                                  : "f-string expression part cannot include a backslash");
    switch (cls(L, p)) {
      case CC_HASH:
        while (p < L->len && s[p] != '\n' && s[p] != '\r') p++;
        L->pos = p;
        continue;
      case CC_NL:
        if (L->depth > 0 || !L->line_has_tokens) { newline(L); continue; }
        make(L, t, TK_NEWLINE, p, p + 1);
        L->pos = p;
        newline(L);
        L->at_bol = true;
        L->line_has_tokens = false;
        L->indented_at_end = L->nindent > 0;
        return TK_NEWLINE;
      case CC_BACKSLASH: {
        size_t q = p + 1;
        if (q >= L->len) {
          L->incomplete = true;
          return lex_fail(L, L->line, col_of(L, p) + 1, "SyntaxError",
                          "unexpected EOF while parsing");
        }
        if (s[q] != '\n' && s[q] != '\r')
          return lex_fail(L, L->line, col_of(L, q), "SyntaxError",
                          "unexpected character after line continuation character");
        L->pos = q;
        newline(L);
        if (L->pos >= L->len) {
          L->incomplete = true;
          return lex_fail(L, L->line, 1, "SyntaxError", "unexpected EOF while parsing");
        }
        continue;
      }
      case CC_ALPHA: {
        size_t e = p;
        while (is_ident(cls(L, e))) e++;
        if (e < L->len && (s[e] == '\'' || s[e] == '"') && e - p <= 2) {
          /* string prefixes: r u b f, br rb fr rf in any case */
          char a = (char)(s[p] | 0x20), b = e - p == 2 ? (char)(s[p + 1] | 0x20) : 0;
          bool raw = a == 'r' || b == 'r', bytes = a == 'b' || b == 'b', fstr = a == 'f' || b == 'f';
          bool uni = a == 'u' && b == 0;
          if (fstr && (b == 0 || raw)) return fstring_start(L, t, p, e);
          if (uni || (b == 0 && (raw || bytes)) || (raw && bytes)) return scan_string(L, t, p, e);
        }
        return make(L, t, lex_keyword(s + p, (int)(e - p)), p, e);
      }
      case CC_DIGIT:
        return scan_number(L, t, p);
      case CC_DOT:
        if (p + 1 < L->len && is_digit(s[p + 1])) return scan_number(L, t, p);
        if (p + 2 < L->len && s[p + 1] == '.' && s[p + 2] == '.')
          return make(L, t, TK_ELLIPSIS, p, p + 3);
        return make(L, t, TK_DOT, p, p + 1);
      case CC_QUOTE:
        return scan_string(L, t, p, p);
      case CC_OP:
        return scan_op(L, t, p);
      case CC_NUL:
        return lex_fail(L, L->line, col_of(L, p), "SyntaxError",
                        "source code cannot contain null bytes");
      default:
        if ((unsigned char)s[p] < 0x20 || s[p] == 0x7f)
          return lex_fail(L, L->line, col_of(L, p), "SyntaxError",
                          "invalid non-printable character U+%04X", (unsigned char)s[p]);
        return lex_fail(L, L->line, col_of(L, p), "SyntaxError", "invalid syntax");
    }
  }
}
