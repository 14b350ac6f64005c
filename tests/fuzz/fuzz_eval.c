/*
** fuzz_eval.c -- libFuzzer target 2: whole programs, parsed and run, in a sandboxed state with
** a small memory cap (4 MiB) and step budget, so that any input is safe to run.  The state is
** reused across inputs (as a REPL or server would) and must stay usable after every error:
** after each input a probe made of literals only (no name a program could rebind) must
** still succeed, unless it fails with MemoryError because the program's own globals fill the
** memory cap (then the state is replaced: that is the cap working, not a broken state).
*/
#include "tsr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

/* half a million float64: enough for every code path */
#define MAX_MEMORY ((size_t)4 << 20)
/* what the probe may need: its AST, the parser's engine, a list and two scalars */
#define PROBE_ROOM ((size_t)64 << 10)

static tsr_State *open_state(void) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = discard;
  cfg.flags = TSR_SANDBOX;
  cfg.max_memory = MAX_MEMORY;
  cfg.max_steps = 20000;   /* an endless loop ends in milliseconds, not seconds */
  return tsr_open(&cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tsr_State *S;
  static unsigned runs;
  if (!S || ++runs % 1000 == 0) {   /* a fresh state now and then bounds what inputs leave */
    if (S) tsr_close(S);
    S = open_state();
    if (!S) return 0;
  }
  char *src = malloc(size + 1);
  if (!src) return 0;
  memcpy(src, data, size);
  src[size] = '\0';
  tsr_Tensor *result = NULL;
  tsr_eval(S, src, "<fuzz>", &result);
  if (result) tsr_tensor_release(result);
  free(src);
  tsr_Status st = tsr_eval(S, "[1, 2][0] + 2.5 * (3 - 1)\n", "<probe>", NULL);
  if (st == TSR_ERR_MEMORY && tsr_memory_used(S, NULL) + PROBE_ROOM > MAX_MEMORY) {
    tsr_close(S);   /* globals fill the cap: start afresh */
    S = NULL;
  } else if (st != TSR_OK) {   /* the state must survive any program */
    fprintf(stderr, "fuzz_eval: the probe failed after this input (%zu bytes in use): %s\n",
            tsr_memory_used(S, NULL), tsr_error_message(S));
    abort();
  }
  return 0;
}
