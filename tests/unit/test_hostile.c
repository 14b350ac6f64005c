/*
** test_hostile.c -- hostile input through the public API: inputs too big or too deep to keep
** as golden files (100 000-deep brackets and expressions, 10 MB lines, a list nested a million
** deep, NUL bytes and invalid UTF-8 in files), and deep recursion on a host thread with a
** small stack.  Each must end in its own clear error, never a crash, and the state must stay
** usable afterwards.  The smaller hostile programs are golden tests in tests/scripts/hostile/.
** Prints "unit hostile: N passed, N failed".
*/
#include "tsr.h"
#include "check.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

/* A state that discards its output, with a memory cap (0: none). */
static tsr_State *open_capped(size_t max_memory) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = discard;
  cfg.max_memory = max_memory;
  return tsr_open(&cfg);
}

static tsr_State *open_quiet(void) { return open_capped(0); }

/* The state still evaluates: x = 6 * 7, read back. */
static int usable(tsr_State *S) {
  tsr_Tensor *r = NULL;
  if (tsr_eval(S, "6 * 7", NULL, &r) != TSR_OK || !r) return 0;
  double v = 0;
  int ok = tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == 42.0;
  tsr_tensor_release(r);
  return ok;
}

/* Evaluates src and checks the error kind and the start of the message. */
static void expect_error(tsr_State *S, const char *src, const char *kind, const char *msg) {
  tsr_Status st = tsr_eval(S, src, "<hostile>", NULL);
  const tsr_Error *e = tsr_last_error(S);
  CHECK(st != TSR_OK);
  CHECK_STR(e->kind, kind);
  CHECK(msg == NULL || strncmp(e->message, msg, strlen(msg)) == 0);
  if (msg && strncmp(e->message, msg, strlen(msg)) != 0)
    fprintf(stderr, "message: %s\nwant:    %s\n", e->message, msg);
  CHECK(usable(S));
}

/* "pre" + n copies of "rep" + "mid" + n copies of "close" + "post" */
static char *put(char *p, const char *s) {
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

static char *repeat(const char *pre, const char *rep, size_t n, const char *mid,
                    const char *close, const char *post) {
  size_t len = strlen(pre) + n * (strlen(rep) + strlen(close)) + strlen(mid) + strlen(post);
  char *s = malloc(len + 1), *p = s;
  if (!s) return NULL;
  p = put(p, pre);
  for (size_t i = 0; i < n; i++) p = put(p, rep);
  p = put(p, mid);
  for (size_t i = 0; i < n; i++) p = put(p, close);
  p = put(p, post);
  *p = '\0';
  return s;
}

static void test_deep_source(tsr_State *S) {
  char *s = repeat("x = ", "(", 100000, "1", ")", "\n");
  expect_error(S, s, "SyntaxError", "too many nested parentheses");
  free(s);
  s = repeat("x = ", "[", 100000, "1", "]", "\n");
  expect_error(S, s, "SyntaxError", "too many nested parentheses");
  free(s);
  s = repeat("x = ", "-", 100000, "1", "", "\n");
  CHECK(tsr_eval(S, s, NULL, NULL) != TSR_OK);   /* SyntaxError (too complex) or RecursionError */
  CHECK(usable(S));
  free(s);
  s = repeat("x = 1", "+1", 100000, "", "", "\n");
  CHECK(tsr_eval(S, s, NULL, NULL) != TSR_OK);
  CHECK(usable(S));
  free(s);
  s = repeat("x = 1", " if 1 else 1", 100000, "", "", "\n");
  CHECK(tsr_eval(S, s, NULL, NULL) != TSR_OK);
  CHECK(usable(S));
  free(s);
  s = repeat("x = ", "abs(", 100000, "1", ")", "\n");
  expect_error(S, s, "SyntaxError", "too many nested parentheses");
  free(s);
}

static void test_long_lines(tsr_State *S) {
  /* a 2 MB list display on one line: fine, and its length is right */
  size_t n = 1000 * 1000;
  char *s = repeat("x = [", "0,", n, "0]\nn = len(x)\n", "", "");
  CHECK(tsr_eval(S, s, NULL, NULL) == TSR_OK);
  free(s);
  tsr_Tensor *r = NULL;
  CHECK(tsr_eval(S, "n", NULL, &r) == TSR_OK && r);
  double v = 0;
  CHECK(r && tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == (double)n + 1);
  tsr_tensor_release(r);
  CHECK(tsr_eval(S, "del_x = 0\nx = 0\n", NULL, NULL) == TSR_OK);
  /* a 10 MB string literal */
  n = 5 * 1000 * 1000;
  s = repeat("s = '", "ab", n, "'\nm = len(s)\n", "", "");
  CHECK(tsr_eval(S, s, NULL, NULL) == TSR_OK);
  free(s);
  /* a 10 MB integer literal: parsed (its digits kept), refused before it runs, with an error
     line of bounded length */
  s = repeat("x = ", "1", 10 * 1000 * 1000, "", "", "\n");
  expect_error(S, s, "SyntaxError", "integers beyond 64 bits are not supported yet");
  CHECK(strlen(tsr_error_message(S)) < 2000);
  free(s);
  /* regression (fuzz_eval): the shown line ends early at a bare CR while the error column
     lies far beyond it; the window must stay inside the line */
  s = repeat("x = [", "1,", 400, "\r", " ", "\xcc]\n");
  expect_error(S, s, "SyntaxError", "(unicode error) 'utf-8' codec can't decode byte 0xcc");
  CHECK(strlen(tsr_error_message(S)) < 2000);
  free(s);
  /* an error in the middle of a 10 MB line shows a window around it */
  s = repeat("x = '", "ab", n, "' +* 2\n", "", "");
  expect_error(S, s, "SyntaxError", "invalid syntax");
  CHECK(strlen(tsr_error_message(S)) < 2000);
  free(s);
}

static void test_nested_values(tsr_State *S) {
  const char *build = "x = []\nfor i in range(300000):\n    x = [x]\n";
  CHECK(tsr_eval(S, build, NULL, NULL) == TSR_OK);
  expect_error(S, "s = repr(x)\n", "RecursionError", "maximum recursion depth exceeded");
  expect_error(S, "print(x)\n", "RecursionError", "maximum recursion depth exceeded");
  CHECK(tsr_eval(S, "y = []\nfor i in range(300000):\n    y = [y]\n", NULL, NULL) == TSR_OK);
  expect_error(S, "b = x == y\n", "RecursionError", "maximum recursion depth exceeded");
  CHECK(tsr_eval(S, "b = x == x\n", NULL, NULL) == TSR_OK);   /* identical: no descent */
  /* dropping a million-deep list frees it without recursion */
  CHECK(tsr_eval(S, "x = 0\ny = 0\n", NULL, NULL) == TSR_OK);
  CHECK(tsr_eval(S, "t = (0,)\nfor i in range(300000):\n    t = (t, i)\nt = 0\n", NULL, NULL)
        == TSR_OK);
  expect_error(S, "a = [0]\nfor i in range(100):\n    a = [a]\nz = array(a)\n", "ValueError",
               "maximum supported dimension for an ndarray is 32, found");
}

static void test_file_bytes(tsr_State *S) {
  static const struct { const char *bytes; size_t n; const char *msg; } cases[] = {
    {"x = 1\0\nprint(x)\n", 16, "source code cannot contain null bytes"},
    {"x = \"\xff\xfe\"\n", 9, "(unicode error) 'utf-8' codec can't decode byte 0xff in "
                               "position 5: invalid start byte"},
    {"y = 2\n\xc3( = 1\n", 12, "(unicode error) 'utf-8' codec can't decode byte 0xc3 in "
                              "position 0: invalid continuation byte"},
    {"x = '\xe2\x82", 7, "(unicode error) 'utf-8' codec can't decode byte 0xe2 in position 5: "
                         "unexpected end of data"},
    {"x = '\xed\xa0\x80'\n", 9, "(unicode error) 'utf-8' codec can't decode byte 0xed in "
                                "position 5: invalid continuation byte"},   /* a surrogate */
  };
  char path[] = "/tmp/tsr-hostile-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    FILE *f = fopen(path, "wb");
    if (!f) { CHECK(!"cannot write the temporary file"); break; }
    fwrite(cases[i].bytes, 1, cases[i].n, f);
    fclose(f);
    CHECK(tsr_eval_file(S, path) == TSR_ERR_SYNTAX);
    CHECK_STR(tsr_last_error(S)->message, cases[i].msg);
    CHECK(strstr(tsr_error_message(S), "SyntaxError: ") != NULL);
    CHECK(usable(S));
  }
  /* valid multi-byte UTF-8 is fine, in strings and names */
  CHECK(tsr_eval(S, "s = 'h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80'\n\xcf\x80 = 3\n", NULL, NULL)
        == TSR_OK);
  remove(path);
}

/* Deep script recursion and deep nesting on a host thread with a 256 KiB stack. */
typedef struct { tsr_State *S; tsr_Status rec, nest, after; const char *kind; } SmallStack;

static void *small_stack_main(void *arg) {
  SmallStack *t = arg;
  t->rec = tsr_eval(t->S, "def f(n):\n    return f(n + 1) + 1\nf(0)\n", NULL, NULL);
  t->kind = tsr_last_error(t->S)->kind;
  char *s = repeat("x = []\nfor i in range(200000):\n    x = [x]\nr = repr(x)", "", 0, "", "", "\n");
  t->nest = tsr_eval(t->S, s, NULL, NULL);
  free(s);
  t->after = tsr_eval(t->S, "ok = sum(arange(10)) == 45\n", NULL, NULL);
  return NULL;
}

static void test_small_stack(void) {
  tsr_State *S = open_quiet();
  CHECK(S != NULL);
  if (!S) return;
  SmallStack t = {S, TSR_OK, TSR_OK, TSR_ERR_RUNTIME, NULL};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  pthread_t th;
  CHECK(pthread_create(&th, &attr, small_stack_main, &t) == 0);
  pthread_join(th, NULL);
  pthread_attr_destroy(&attr);
  CHECK(t.rec != TSR_OK);
  CHECK_STR(t.kind, "RecursionError");
  CHECK(t.nest != TSR_OK);
  CHECK(t.after == TSR_OK);
  CHECK(usable(S));   /* and again on this thread, with its own guard */
  CHECK(tsr_eval(S, "def g(n):\n    return 0 if n == 0 else 1 + g(n - 1)\nv = g(900)\n", NULL,
                 NULL) == TSR_OK);
  tsr_close(S);
}

/* The same on the process's initial thread under a small RLIMIT_STACK (its guard comes from
   the rlimit and __libc_stack_end, not from pthread_getattr_np).  The body runs in a fresh
   process (this program re-executed with --small-rlimit, under a 1.5 MiB limit, so that no
   stack grown by the tests above hides an overflow): deep recursion, nesting and a left-deep
   expression that only the guard bounds must end in errors, not SIGSEGV, and the state must
   stay usable.  It exits 0 when all held. */
static int initial_thread_body(void) {
  tsr_State *S = open_quiet();
  if (!S) return 4;
  SmallStack t = {S, TSR_OK, TSR_OK, TSR_ERR_RUNTIME, NULL};
  small_stack_main(&t);
  int ok = t.rec != TSR_OK && t.kind && strcmp(t.kind, "RecursionError") == 0 &&
           t.nest != TSR_OK && t.after == TSR_OK && usable(S);
  char *deep = repeat("x = 1", " + 1", 200000, "", "", "\n");
  if (!deep) return 6;
  ok = ok && tsr_eval(S, deep, NULL, NULL) != TSR_OK &&
       strcmp(tsr_last_error(S)->kind, "RecursionError") == 0 && usable(S);
  free(deep);
  tsr_close(S);
  return ok ? 0 : 5;
}

static void test_initial_thread_rlimit(const char *self) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) { CHECK(!"fork"); return; }
  if (pid == 0) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) != 0) _exit(2);
    rl.rlim_cur = (rlim_t)1536 * 1024;
    if (setrlimit(RLIMIT_STACK, &rl) != 0) _exit(3);
    execl("/proc/self/exe", self, "--small-rlimit", (char *)NULL);
    _exit(7);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fprintf(stderr, "initial thread under a 1.5 MiB stack: status %#x\n", status);
}

/* einsum with 100 operands: a call of 101 arguments.  NumPy refuses more than 32 operands in
   one contraction ("too many operands"); tsr contracts them pairwise on every path.  The
   Hadamard product of 100 copies of a is a ** 100.  Beyond 128 operands tsr says, as NumPy
   does beyond 32, "ValueError: too many operands". */
static void test_einsum_operands(tsr_State *S) {
  for (int n = 100; n <= 200; n += 100) {
    size_t cap = (size_t)n * 8 + 256;
    char *src = malloc(cap), *w = src;
    if (!src) { CHECK(!"out of memory"); return; }
    w += sprintf(w, "a = array([1.0, 0.5, -1.0])\nr = einsum('");
    for (int i = 0; i < n; i++) w += sprintf(w, i ? ",i" : "i");
    w += sprintf(w, "->i'");
    for (int i = 0; i < n; i++) w += sprintf(w, ", a");
    w += sprintf(w, ")\nok = allclose(r, a ** %d, rtol=1e-15, atol=0)\n", n);
    if (n > 128) {
      expect_error(S, src, "ValueError", "too many operands");
      free(src);
      continue;
    }
    CHECK(tsr_eval(S, src, "<einsum>", NULL) == TSR_OK);
    tsr_Tensor *ok = NULL;
    uint8_t v = 0;
    CHECK(tsr_eval(S, "ok", NULL, &ok) == TSR_OK && ok &&
          tsr_tensor_copy_to(ok, TSR_BOOL, &v, 1) == TSR_OK && v == 1);
    if (ok) tsr_tensor_release(ok);
    free(src);
  }
  CHECK(usable(S));
}

/* A program whose globals fill max_memory leaves a state that answers MemoryError (even to a
   tiny expression, whose parse needs memory too) and recovers once the program's own names
   let go: `del x` or `x = None` must still parse and run.  (fuzz_eval's probe met this state
   and called it broken; it now replaces such a state instead.) */
static void test_globals_fill_cap(void) {
  const size_t cap = (size_t)4 << 20;
  tsr_State *S = open_capped(cap);
  CHECK(S != NULL);
  if (!S) return;
  /* the biggest x that fits, found by halving: every failure must be MemoryError */
  int64_t lo = 0, hi = 1 << 20;
  char src[128];
  while (hi - lo > 1) {
    int64_t mid = (lo + hi) / 2;
    snprintf(src, sizeof src, "x = zeros(%lld)\n", (long long)mid);
    tsr_Status st = tsr_eval(S, src, "<fill>", NULL);
    CHECK(st == TSR_OK || st == TSR_ERR_MEMORY);
    if (st == TSR_OK) lo = mid; else hi = mid;
    CHECK(tsr_eval(S, "del x\n", "<fill>", NULL) == TSR_OK || st != TSR_OK);
  }
  CHECK(lo > 400000);
  /* fill again, then use up the rest with small globals until even a tiny expression fails */
  snprintf(src, sizeof src, "x = zeros(%lld)\n", (long long)lo);
  CHECK(tsr_eval(S, src, "<fill>", NULL) == TSR_OK);
  int full = 0;
  for (int i = 0; i < 10000 && !full; i++) {
    snprintf(src, sizeof src, "y%d = zeros(16)\n", i);
    tsr_Status st = tsr_eval(S, src, "<fill>", NULL);
    CHECK(st == TSR_OK || st == TSR_ERR_MEMORY);
    full = st == TSR_ERR_MEMORY;
  }
  CHECK(full);
  CHECK(tsr_memory_used(S, NULL) <= cap);
  CHECK(tsr_eval(S, "del x\n", "<free>", NULL) == TSR_OK);
  CHECK(usable(S));
  CHECK(tsr_eval(S, src, "<fill>", NULL) == TSR_OK);   /* the last small global again */
  tsr_close(S);
}

/* Reference cycles (a list holding itself, a function whose default list holds the
   function, a bound method in its own list) are freed by the cycle collector: within 16
   evals of being let go, between the statements of a long loop that makes them (else 300 000
   of them would pass a 16 MiB cap), and at tsr_close (LeakSanitizer checks that under ASan). */
static void test_cycles(void) {
  const size_t cap = (size_t)16 << 20;
  tsr_State *S = open_capped(cap);
  CHECK(S != NULL);
  if (!S) return;
  /* the same names bound and a function defined and deleted once, so that the globals dict
     and the caches are as big before as after */
  const char *names = "a = b = m = n = z = None\ndef f(x=[]):\n    return 0\nn = f()\ndel f\n";
  CHECK(tsr_eval(S, names, "<cycles>", NULL) == TSR_OK);
  CHECK(tsr_eval(S, names, "<cycles>", NULL) == TSR_OK);
  size_t base = tsr_memory_used(S, NULL);
  CHECK(tsr_eval(S, "a = [1]\na.append(a)\nb = [0, 0]\nb[0] = b\nb[1] = (b, a)\n"
                    "def f(x=[]):\n    x.append(f)\n    return len(x)\n"
                    "n = f() + f()\nm = a.append\na.append(m)\n", "<cycles>", NULL) == TSR_OK);
  CHECK(tsr_memory_used(S, NULL) > base);
  CHECK(tsr_eval(S, "a = b = m = n = None\ndel f\n", "<cycles>", NULL) == TSR_OK);
  for (int i = 0; i < 16; i++) CHECK(tsr_eval(S, "z = 1\n", "<cycles>", NULL) == TSR_OK);
  size_t after = tsr_memory_used(S, NULL);
  if (after != base) fprintf(stderr, "cycles: %zu bytes before, %zu after\n", base, after);
  CHECK(after == base);
  /* made and dropped inside one loop: collected between its statements */
  CHECK(tsr_eval(S, "for i in range(300000):\n    t = [i]\n    t.append(t)\n", "<cycles>",
                 NULL) == TSR_OK);
  CHECK(usable(S));
  /* left alive at close */
  CHECK(tsr_eval(S, "keep = [[]]\nkeep[0].append(keep)\n", "<cycles>", NULL) == TSR_OK);
  tsr_close(S);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--small-rlimit") == 0) return initial_thread_body();
  tsr_State *S = open_quiet();
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("hostile");
  test_deep_source(S);
  test_long_lines(S);
  test_nested_values(S);
  test_file_bytes(S);
  test_einsum_operands(S);
  tsr_close(S);
  test_globals_fill_cap();
  test_cycles();
  test_small_stack();
  test_initial_thread_rlimit(argv[0]);
  return CHECK_DONE("hostile");
}
