/*
** dump.c -- the tsr side of the differential AST test (tests/ast/diff.py): for each file
** named on the command line, one line "OK <TAB> <ast.dump text>" or
** "ERR <TAB> Kind: message @line:col", as Python 3.11's ast.dump(ast.parse(source)) would be
** compared with it; with -p first, nodes carry lineno and col_offset.  Links the library's
** internals (lang/ast.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *s = malloc(cap);
  size_t got;
  while (s && (got = fread(s + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) s = realloc(s, cap *= 2);
  }
  fclose(f);
  *n = len;
  return s;
}

int main(int argc, char **argv) {
  static Ctx ctx;
  ctx_init(&ctx, NULL, NULL);
  ctx_stack_init(&ctx);
  bool positions = argc > 1 && strcmp(argv[1], "-p") == 0;
  for (int i = 1 + positions; i < argc; i++) {
    size_t n;
    char *src = slurp(argv[i], &n);
    if (!src) { printf("ERR\tOSError: cannot read %s @0:0\n", argv[i]); continue; }
    Chunk *ch = NULL;
    int line = 0, col = 0;
    ctx_clear(&ctx);
    ParseResult r = parse_chunk(&ctx, src, n, argv[i], &ch, &line, &col);
    if (r != PARSE_OK) {
      printf("ERR\t%s: %s @%d:%d\n", ctx.kind, ctx.msg, line, col);
    } else {
      Buf b;
      buf_init(&b, &ctx);
      if (ast_dump(&ctx, ch, &b, positions) < 0) printf("ERR\t%s: %s @0:0\n", ctx.kind, ctx.msg);
      else printf("OK\t%.*s\n", (int)b.n, b.p ? b.p : "");
      buf_free(&b);
      chunk_free(&ctx, ch);
    }
    free(src);
    fflush(stdout);
  }
  return 0;
}
