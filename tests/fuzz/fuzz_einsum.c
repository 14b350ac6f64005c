/*
** fuzz_einsum.c -- libFuzzer target 4: einsum subscripts and shapes against small operands.
** The input gives the number of operands (1-4), each operand's shape (up to 4 axes of size
** 1-4) and a subscripts string (printable bytes).  Operands hold small integers, so every
** path is exact: when einsum accepts the input, optimize=False, 'greedy' and 'optimal' must
** give identical results, in int64 and float64 alike; otherwise it must fail with a clear
** error.  Never a crash.
*/
#include "tsr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tsr_State *S;
  if (size < 2) return 0;
  if (!S) {
    tsr_Config cfg;
    tsr_config_init(&cfg);
    cfg.write = discard;
    cfg.flags = 1;   /* TSR_SANDBOX */
    cfg.max_memory = (size_t)8 << 20;   /* 1 M int64: bigger outputs are MemoryError, fast */
    cfg.max_steps = 1000000;
    S = tsr_open(&cfg);
    if (!S) return 0;
  }
  size_t p = 0;
  int nops = 1 + data[p++] % 4;
  const char *dtype = data[0] & 0x80 ? "float64" : "int64";
  char prog[4096], *w = prog, *end = prog + sizeof prog;
  char ops[256] = "";
  for (int i = 0; i < nops && p < size; i++) {
    int ndim = data[p++] % 5;
    char shape[64] = "(";
    for (int d = 0; d < ndim; d++) {
      int n = p < size ? 1 + data[p++] % 4 : 1;
      snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%d,", n);
    }
    strcat(shape, ")");
    w += snprintf(w, (size_t)(end - w), "a%d = (arange(int(prod(%s))) %% 7 - 3).astype(%s)"
                  ".reshape(%s)\n", i, shape, dtype, shape);
    snprintf(ops + strlen(ops), sizeof ops - strlen(ops), ", a%d", i);
  }
  char subs[256];
  size_t k = 0;
  for (; p < size && k < sizeof subs - 1; p++) {
    char c = (char)data[p];
    if (c >= 32 && c < 127 && c != '"' && c != '\\') subs[k++] = c;
  }
  subs[k] = '\0';
  w += snprintf(w, (size_t)(end - w),
                "r0 = einsum(\"%s\"%s)\n"
                "r1 = einsum(\"%s\"%s, optimize='greedy')\n"
                "r2 = einsum(\"%s\"%s, optimize='optimal')\n"
                "same = array_equal(r0, r1) and array_equal(r0, r2) and r0.shape == r1.shape\n",
                subs, ops, subs, ops, subs, ops);
  if (w >= end) return 0;
  if (tsr_eval(S, prog, "<fuzz_einsum>", NULL) == TSR_OK) {
    tsr_Tensor *same = NULL;
    if (tsr_eval(S, "same", NULL, &same) == TSR_OK && same) {
      uint8_t v = 0;
      if (tsr_tensor_copy_to(same, TSR_BOOL, &v, 1) == TSR_OK && !v) abort();
      tsr_tensor_release(same);
    }
  }
  if (tsr_eval(S, "[1, 2][0] + 2.5 * (3 - 1)\n", "<probe>", NULL) != TSR_OK) abort();
  return 0;
}
