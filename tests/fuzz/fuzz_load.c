/*
** fuzz_load.c -- libFuzzer target 3: the file loaders (.npy, .npz, IDX, text) on arbitrary
** bytes.  The input's first byte picks the loader; the rest is written to a private temporary
** file that the loader reads through tsr's one file gate.  Any bytes must give a tensor or a
** clear error (ValueError, OSError, ...), never a crash, a leak or a read outside the buffer.
*/
#include "tsr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

static const char *const loaders[] = {
  "x = load(p)\ny = x.sum() if x.size < 100000 else 0\n",
  "x = load(p, mmap_mode='r')\ny = x[..., :2].copy() if x.ndim else x\n",
  "d = load(p)\nfor k in d.files:\n    z = d[k]\n",
  "x = load_idx(p)\n",
  "x = loadtxt(p)\n",
  "x = loadtxt(p, delimiter=',', skiprows=1, dtype=int32)\n",
};
static const char *const suffixes[] = {".npy", ".npy", ".npz", ".idx", ".txt", ".csv"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static tsr_State *S;
  static char path[64];
  if (size < 1) return 0;
  size_t which = data[0] % (sizeof loaders / sizeof loaders[0]);
  if (!S) {
    tsr_Config cfg;
    tsr_config_init(&cfg);
    cfg.write = discard;
    cfg.max_memory = (size_t)32 << 20;
    cfg.max_steps = 1000000;
    S = tsr_open(&cfg);
    if (!S) return 0;
  }
  snprintf(path, sizeof path, "/tmp/tsr-fuzz-load-%ld%s", (long)getpid(), suffixes[which]);
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data + 1, 1, size - 1, f);
  fclose(f);
  char prog[512];
  snprintf(prog, sizeof prog, "p = '%s'\n%s", path, loaders[which]);
  tsr_eval(S, prog, "<fuzz_load>", NULL);
  tsr_eval(S, "x = 0\nd = 0\ny = 0\nz = 0\n", NULL, NULL);   /* drop any mapping */
  remove(path);
  if (tsr_eval(S, "[1, 2][0] + 2.5 * (3 - 1)\n", "<probe>", NULL) != TSR_OK) abort();
  return 0;
}
