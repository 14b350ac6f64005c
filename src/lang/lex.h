/*
** lex.h -- the tokenizer of tsr source (Python's tokens): turns a source buffer into the
** token codes of grammar.h, with NEWLINE / INDENT / DEDENT as CPython's tokenizer makes them.
*/
#ifndef TSR_LEX_H
#define TSR_LEX_H

#include "../runtime/rt.h"

/* A token: a slice of the source (never a copy) and its 1-based position. */
typedef struct Token {
  const char *z;
  int n;
  int line, col;
  unsigned flags;         /* TOKF_*: how to decode an FMIDDLE slice */
} Token;

enum { TOKF_RAW = 1 };    /* FMIDDLE of a raw f-string: backslashes are literal */

#define LEX_MAXDEPTH 200    /* brackets open at once */
#define LEX_MAXINDENT 100   /* indentation levels (CPython's limit) */
#define LEX_MAXFSTR 64      /* f-strings and replacement fields open at once */

/* One open f-string (FS_STRING) or replacement field (FS_FIELD) of the f-string mode stack.
   Inside an f-string the lexer produces FSTART, then FMIDDLE (literal text, escapes not yet
   decoded), LBRACE <expression tokens> [FDEBUG] [BANG NAME] [COLON <spec: FMIDDLE and fields>]
   RBRACE for each replacement field, and FEND.  While an f-string is open, L->len is its
   closing quote, so nothing inside can run past it (Python 3.11 finds the end of an f-string
   before it parses the fields). */
typedef struct LexFStr {
  uint8_t kind;           /* FS_STRING or FS_FIELD */
  bool raw;               /* FS_STRING: an rf-string */
  bool spec;              /* FS_FIELD: past its ':' (lexing the format spec) */
  int qn;                 /* FS_STRING: 1 or 3 quotes */
  size_t end, outer_len;  /* FS_STRING: offset of the closing quotes; L->len outside it */
  size_t expr_start;      /* FS_FIELD: offset just after its '{' (for `{x=}`) */
  int bdepth;             /* FS_FIELD: L->depth with its '{' open */
} LexFStr;
enum { FS_STRING = 1, FS_FIELD = 2 };

typedef struct Lexer {
  Ctx *c;
  const char *src;        /* NUL-terminated copy of the source */
  size_t len, pos;
  int line;               /* line of src[pos] */
  size_t line_start;      /* offset of the start of that line */
  size_t col_line_start, col_pos;  /* col_of's cache: column col_val is at col_pos */
  int col_val;
  int indent[LEX_MAXINDENT + 1], alt[LEX_MAXINDENT + 1];  /* tabs to 8 / tabs as 1 */
  int nindent;            /* levels on the stack above column 0 */
  int pending;            /* > 0: DEDENTs to emit; < 0: an INDENT to emit */
  Token pending_tok;
  int depth;              /* open brackets */
  char bracket[LEX_MAXDEPTH];
  int bline[LEX_MAXDEPTH], bcol[LEX_MAXDEPTH];
  bool at_bol;            /* next token starts a logical line */
  bool line_has_tokens;   /* a token was emitted on this logical line */
  bool done;              /* end-of-input token returned */
  bool utf8_checked;      /* the source was checked to be UTF-8 (first lex_next call) */
  bool blank_at_end;      /* the source ends with a blank (whitespace-only) line */
  bool indented_at_end;   /* the last logical line was inside an indented block */
  LexFStr fstr[LEX_MAXFSTR];  /* the f-string mode stack */
  int nfstr;
  /* error (when lex_next returns -1): recorded in c with kind; */
  bool incomplete;        /* the input ended early (open bracket, string, backslash) */
  int err_line, err_col;
} Lexer;

/* Prepares L over src[0..len) (src must stay valid and be NUL-terminated at len). */
RT_HIDDEN void lex_init(Lexer *L, Ctx *c, const char *src, size_t len);

/* Scans the next token into *t and returns its code (TK_* of grammar.h; 0 at the end, after
   the final NEWLINE and DEDENTs).  Returns -1 on a lexical error, recorded in L->c as
   SyntaxError / IndentationError / TabError with L->err_line/err_col, and L->incomplete set
   when the input ended inside a bracket, a triple-quoted string or after a backslash. */
RT_HIDDEN int lex_next(Lexer *L, Token *t);

/* Token code of a keyword slice, or TK_NAME; TK_RESERVED for `async` and `await`. */
RT_HIDDEN int lex_keyword(const char *z, int n);

#endif
