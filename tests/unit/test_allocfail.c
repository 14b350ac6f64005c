/*
** test_allocfail.c -- allocation-failure injection over the golden programs.
**
** A host allocator (tsr_Config.alloc) that fails exactly the N-th allocation.  For each selected
** golden program tests/scripts/CATEGORY/NAME.tsr: a clean run counts the allocations K the program
** makes; then, for N = 1 .. K, a fresh state runs the program with its N-th allocation failing.
** Each such run must end with MemoryError, or with what the clean run ended with (a failed
** allocation that tsr recovers from, e.g. an optional cache), must leave the state usable for
** a following tsr_eval, and after tsr_close every byte must be returned with the size it was
** allocated with (the allocator checks the old_size tsr passes against a header it keeps).
** tsr_open itself is checked the same way: failing its N-th allocation returns NULL and leaks
** nothing.
**
** Environment: TSR_ALLOCFAIL_ALL=1 checks every program (slow); by default the first
** TSR_ALLOCFAIL_PER_DIR (default 4; make test-asan uses 1) programs of each category, in
** sorted order, plus every
** program whose name contains TSR_ALLOCFAIL_FILTER when that is set, plus the programs that once
** failed here (regressions[] below).  Programs that touch files
** (load_idx, load, save) are skipped.  N runs over every value up to TSR_ALLOCFAIL_DENSE
** (default 1000) and at an even stride beyond it (at most half as many again, the last
** allocation always included): the cost of a program is quadratic in its allocations.
** Prints "unit allocfail: N passed, N failed".
*/
#include "tsr.h"
#include "check.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the failing allocator ---------------------------------------------------------------- */

typedef struct {
  long count;        /* allocations (malloc or realloc) so far */
  long fail_at;      /* fail the allocation with this count (0 = never) */
  long failures;     /* how many were failed */
  long live_blocks;
  size_t live_bytes;
  long bad_sizes;    /* frees/reallocs whose old_size did not match */
} FailAlloc;

#define HDR 16   /* keeps 16-byte alignment of the returned block */

static void *fa_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  FailAlloc *f = ud;
  char *raw = ptr ? (char *)ptr - HDR : NULL;
  if (raw && *(size_t *)raw != old_size) f->bad_sizes++;
  if (new_size == 0) {
    if (raw) { f->live_blocks--; f->live_bytes -= *(size_t *)raw; free(raw); }
    return NULL;
  }
  f->count++;
  if (f->fail_at && f->count == f->fail_at) { f->failures++; return NULL; }
  size_t before = raw ? *(size_t *)raw : 0;
  char *q = realloc(raw, new_size + HDR);
  if (!q) return NULL;
  if (!raw) f->live_blocks++;
  f->live_bytes += new_size - before;
  *(size_t *)q = new_size;
  return q + HDR;
}

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

static tsr_State *open_state(FailAlloc *fa) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.alloc = fa_alloc;
  cfg.alloc_ud = fa;
  cfg.write = discard;
  return tsr_open(&cfg);
}

/* ---- programs ------------------------------------------------------------------------------ */

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
  if (s) s[n] = '\0';
  fclose(f);
  return s;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static long dense = 1000;        /* N = 1 .. dense all checked (TSR_ALLOCFAIL_DENSE) */
static long sampled_programs;    /* programs with more allocations, checked at a stride */
static int report_limit = 20;   /* failure messages printed at most (TSR_ALLOCFAIL_REPORT) */

/* Runs one program with every allocation failing in turn.  Returns the number of runs. */
static long check_program(const char *path, const char *src) {
  FailAlloc fa = {0};
  tsr_State *S = open_state(&fa);
  if (!S) { CHECK(!"tsr_open failed without injection"); return 0; }
  long base = fa.count;
  tsr_Status want = tsr_eval(S, src, path, NULL);
  long k = fa.count - base;
  tsr_close(S);
  CHECK(fa.live_blocks == 0 && fa.live_bytes == 0 && fa.bad_sizes == 0);

  /* Every N up to `dense`; beyond, a program as large as the einsum and linalg suites (tens
     of thousands of allocations, each run repeating the ones before its failure) would take
     quadratic time, so N goes on in even steps, at most dense / 2 more runs, and always
     ends with N = K. */
  long runs = 0, step = 1;
  if (k > dense) { step = (k - dense) / (dense / 2 + 1) + 1; sampled_programs++; }
  for (long n = 1; n <= k; n = n < dense || n == k ? n + 1 : (n + step < k ? n + step : k),
       runs++) {
    FailAlloc f = {0};
    S = open_state(&f);
    if (!S) { CHECK(!"tsr_open failed without injection"); break; }
    f.fail_at = f.count + n;
    tsr_Status st = tsr_eval(S, src, path, NULL);
    bool ok_status = st == want || st == TSR_ERR_MEMORY;
    const char *kind = tsr_last_error(S)->kind;
    bool ok_kind = st != TSR_ERR_MEMORY || (kind && strcmp(kind, "MemoryError") == 0);
    f.fail_at = 0;
    tsr_Status after = tsr_eval(S, "zz_after = [1, 2][1] + 40\n", "<after>", NULL);
    tsr_close(S);
    bool clean = f.live_blocks == 0 && f.live_bytes == 0 && f.bad_sizes == 0;
    CHECK(ok_status && ok_kind && after == TSR_OK && clean);
    if (!(ok_status && ok_kind && after == TSR_OK && clean) && report_limit-- > 0)
      fprintf(stderr, "%s: failing allocation %ld of %ld: status %d (want %d or MemoryError), "
              "kind %s, next eval %d, %ld blocks / %zu bytes leaked, %ld size mismatches\n",
              path, n, k, (int)st, (int)want, kind ? kind : "?", (int)after, f.live_blocks,
              f.live_bytes, f.bad_sizes);
  }
  return runs;
}

/* Programs whose injected failures once leaked or misreported: always checked. */
static const char *const regressions[] = {
  "builtins/linspace.tsr",   /* linspace(retstep=True) leaked its tuple */
  "shape/pad_constant.tsr",  /* pad turned a MemoryError into a broadcast ValueError */
  NULL,
};

static bool is_regression(const char *path) {
  for (int i = 0; regressions[i]; i++) {
    size_t n = strlen(path), m = strlen(regressions[i]);
    if (n >= m && strcmp(path + n - m, regressions[i]) == 0) return true;
  }
  return false;
}

static bool touches_files(const char *src) {
  return strstr(src, "load") || strstr(src, "save") || strstr(src, "open(");
}

static void check_category(const char *dir, int per_dir, const char *filter, bool all,
                           long *programs, long *runs) {
  DIR *d = opendir(dir);
  if (!d) return;
  char *names[4096];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 4096) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".tsr") == 0) names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  int taken = 0;
  for (int i = 0; i < n; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    bool pick = all || taken < per_dir || (filter && strstr(names[i], filter)) ||
                is_regression(path);
    char *src = pick ? read_file(path) : NULL;
    if (src && !touches_files(src)) {
      taken++;
      (*programs)++;
      *runs += check_program(path, src);
    }
    free(src);
    free(names[i]);
  }
}

int main(void) {
  if (getenv("TSR_ALLOCFAIL_REPORT")) report_limit = atoi(getenv("TSR_ALLOCFAIL_REPORT"));
  if (getenv("TSR_ALLOCFAIL_DENSE") && atol(getenv("TSR_ALLOCFAIL_DENSE")) > 0)
    dense = atol(getenv("TSR_ALLOCFAIL_DENSE"));
  /* tsr_open under injection: NULL or a working state, never a leak */
  long open_allocs;
  {
    FailAlloc fa = {0};
    tsr_State *S = open_state(&fa);
    CHECK(S != NULL);
    open_allocs = fa.count;
    tsr_close(S);
    CHECK(fa.live_blocks == 0 && fa.live_bytes == 0 && fa.bad_sizes == 0);
  }
  for (long n = 1; n <= open_allocs; n++) {
    FailAlloc fa = {0};
    fa.fail_at = n;
    tsr_State *S = open_state(&fa);
    if (S) {
      CHECK(tsr_eval(S, "q = 1 + 1\n", NULL, NULL) == TSR_OK);
      tsr_close(S);
    }
    CHECK(fa.live_blocks == 0 && fa.live_bytes == 0 && fa.bad_sizes == 0);
    if ((fa.live_blocks || fa.live_bytes || fa.bad_sizes) && report_limit-- > 0)
      fprintf(stderr, "tsr_open failing allocation %ld of %ld: %ld blocks / %zu bytes leaked\n",
              n, open_allocs, fa.live_blocks, fa.live_bytes);
  }

  const char *env_all = getenv("TSR_ALLOCFAIL_ALL");
  const char *env_per = getenv("TSR_ALLOCFAIL_PER_DIR");
  const char *filter = getenv("TSR_ALLOCFAIL_FILTER");
  bool all = env_all && *env_all && strcmp(env_all, "0") != 0;
  int per_dir = env_per ? atoi(env_per) : 4;
  long programs = 0, runs = 0;
  DIR *d = opendir("tests/scripts");
  CHECK(d != NULL);
  if (d) {
    char *cats[256];
    int nc = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nc < 256)
      if (e->d_name[0] != '.') cats[nc++] = strdup(e->d_name);
    closedir(d);
    qsort(cats, (size_t)nc, sizeof *cats, cmp_str);
    for (int i = 0; i < nc; i++) {
      char dir[512];
      snprintf(dir, sizeof dir, "tests/scripts/%s", cats[i]);
      check_category(dir, per_dir, filter, all, &programs, &runs);
      free(cats[i]);
    }
  }
  fprintf(stderr, "allocfail: tsr_open %ld allocations; %ld programs, %ld failing runs "
          "(%ld programs of more than %ld allocations checked at a stride beyond)\n",
          open_allocs, programs, runs, sampled_programs, dense);
  return CHECK_DONE("allocfail");
}
