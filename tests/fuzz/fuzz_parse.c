/*
** fuzz_parse.c -- libFuzzer target 1: the lexer and the Lemon parser alone.  Any byte string
** (NUL bytes, invalid UTF-8, deep nesting included) must come back from tsr_check as a status,
** never a crash, a leak or undefined behaviour.  Nothing is evaluated.
*/
#include "tsr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tsr_State *S;
  if (!S) {
    tsr_Config cfg;
    tsr_config_init(&cfg);
    cfg.write = discard;
    cfg.flags = TSR_SANDBOX;
    S = tsr_open(&cfg);
    if (!S) return 0;
  }
  char *src = malloc(size + 1);
  if (!src) return 0;
  memcpy(src, data, size);
  src[size] = '\0';
  tsr_Status st = tsr_check(S, src);
  if (st != TSR_OK && st != TSR_INCOMPLETE && st != TSR_ERR_SYNTAX && st != TSR_ERR_MEMORY &&
      st != TSR_ERR_LIMIT)
    abort();   /* tsr_check promises one of these */
  free(src);
  return 0;
}
