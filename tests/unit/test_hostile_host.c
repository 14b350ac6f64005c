/*
** test_hostile_host.c -- the hostile-host suite (issue 25): a host that runs each program of a
** corpus of attacks in a sandboxed state (TSR_SANDBOX, max_memory 64 MiB, max_steps 10**7)
** inside a forked child with rlimits, and checks that the child ends by itself (no signal,
** within the wall-time bound), that a canary file beside it is never opened and nothing is
** created in its working directory (inotify), that the state is still usable afterwards (a
** trivial eval gives 42) and that closing it gives every byte back (a counting allocator).
**
** The corpus: hand-written attacks (files, the crashes of issue 25 with the error each must
** now give, huge strings and lists, deep nesting, printing) and generated ones: every builtin
** of the builtin tables called with absurd values in each of its first parameters, chosen by
** the parameter's name from its signature (the first line of its doc): 2**62, 2**63 - 1,
** -2**63 and -1 for counts and axes, (2**62, 2**62) and friends for shapes, huge broadcast
** views, 0-size arrays and 34-deep lists for arrays, the canary's name for files.
**
** The state is opened once in the parent, before any fork, and never used there: each child
** gets a fresh copy of it.  TSR_HOSTILE_ALL=1 runs the whole generated set (several thousand);
** by default every third generated attack runs (rotating by TSR_HOSTILE_SHARD=0..2).  A child
** may use TSR_HOSTILE_BOUND seconds of CPU time (default 0.5; ITIMER_PROF) and ten times that
** plus ten of wall time (SIGALRM).  Until the step budget is charged in proportion to work for
** every operation (issue 25, part B), some attacks reach that bound (reductions over 2**62
** elements of a broadcast view, for one): they are listed with the attacks slower than a
** second, and fail the suite only when TSR_HOSTILE_STRICT=1.  Crashes (any other signal), a
** touched working directory, an unusable state or a leak always fail.  TSR_HOSTILE_LIST=1
** prints the corpus instead of running it.
** Prints "unit hostile_host: N passed, N failed".
*/
#define _GNU_SOURCE
#include "tsr.h"
#include "check.h"
#include "lang/value.h"   /* builtin_tables: the generated attacks call every builtin */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

enum {
  EXIT_UNUSABLE = 3,      /* child exit codes */
  EXIT_LEAK = 4,
  EXIT_WRONG_ERROR = 5,
};
static const double SLOW = 1.0;   /* seconds: attacks slower than this are listed */

/* ---------------------------------------------------------------------------------------
** The state: a counting allocator (live bytes must be 0 after tsr_close), output discarded.
*/
static long long live_bytes;

static void *counting_alloc(void *ud, void *ptr, size_t old_size, size_t new_size) {
  (void)ud;
  if (new_size == 0) {
    if (ptr) live_bytes -= (long long)old_size;
    free(ptr);
    return NULL;
  }
  void *p = realloc(ptr, new_size);
  if (p) live_bytes += (long long)new_size - (ptr ? (long long)old_size : 0);
  return p;
}

static void discard(void *ud, int stream, const char *s, size_t n) {
  (void)ud; (void)stream; (void)s; (void)n;
}

static tsr_State *open_sandboxed(void) {
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.alloc = counting_alloc;
  cfg.write = discard;
  cfg.max_memory = (size_t)64 << 20;
  cfg.max_steps = 10 * 1000 * 1000;
  cfg.flags = TSR_SANDBOX;
  return tsr_open(&cfg);
}

static int usable(tsr_State *S) {
  tsr_Tensor *r = NULL;
  if (tsr_eval(S, "6 * 7", NULL, &r) != TSR_OK || !r) return 0;
  double v = 0;
  int ok = tsr_tensor_copy_to(r, TSR_FLOAT64, &v, sizeof v) == TSR_OK && v == 42.0;
  tsr_tensor_release(r);
  return ok;
}

/* ---------------------------------------------------------------------------------------
** The corpus
*/
typedef struct {
  char *src;
  /* when kind: the error the attack must end with (msg: a prefix of its message), or, kind
     "", success; such regression tests must also end within the bound in any mode */
  const char *kind, *msg;
} Attack;

static Attack *attacks;
static int nattacks, cap_attacks;

static void add_attack(const char *kind, const char *msg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_attack(const char *kind, const char *msg, const char *fmt, ...) {
  if (nattacks == cap_attacks) {
    cap_attacks = cap_attacks ? 2 * cap_attacks : 1024;
    attacks = realloc(attacks, (size_t)cap_attacks * sizeof *attacks);
    if (!attacks) { perror("realloc"); exit(2); }
  }
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) { perror("vasprintf"); exit(2); }
  va_end(ap);
  attacks[nattacks++] = (Attack){s, kind, msg};
}

#define MIN64 "(-9223372036854775807 - 1)"
#define MAX64 "9223372036854775807"
#define TOO_BIG "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum " \
                "possible size."

/* The crashes and wrong results of issue 25, with the error each must end with now, and
   hand-written attacks on files, strings, lists, nesting and printing. */
static void add_fixed_attacks(void) {
  /* issue 25's heap overflows and wrong results */
  add_attack("MemoryError", NULL, "import numpy as np\nnp.array_split(np.arange(3), 2**62)\n");
  add_attack("MemoryError", NULL, "import numpy as np\nnp.split(np.arange(0), 2**62)\n");
  add_attack("MemoryError", NULL, "import numpy as np\nnp.array_split(np.arange(3), " MAX64 ")\n");
  add_attack("MemoryError", NULL, "import numpy as np\nnp.broadcast_to(np.int8(1), (2**62,)).tolist()\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.broadcast_to(1.0, (2**60,)).tolist()\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.repeat(np.ones(4), 2**62)\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.repeat(np.ones(4), [2**62, 2**62, 2**62, 2**62])\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.ones(3).repeat(2**62)\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nv = np.broadcast_to(1.0, (2**62,))\nnp.concatenate([v, v, v, v])\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nv = np.broadcast_to(np.int8(1), (2**62,))\nnp.concatenate([v, v, v, v])\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nv = np.broadcast_to(np.int8(1), (2**62,))\nnp.hstack([v, v, v, v])\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nv = np.broadcast_to(np.int8(1), (2**62,))\nnp.concatenate([v, v])\n");
  add_attack("ValueError", "iterator is too large", "import numpy as np\nnp.broadcast_to(np.ones(1), (2**62, 2**62))\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.pad(np.ones(3), (" MAX64 ", " MAX64 "))\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.pad(np.ones(3), (2**62, 2**62))\n");
  add_attack("ValueError", "Maximum allowed dimension exceeded", "import numpy as np\nnp.diag(np.ones(3), " MIN64 ")\n");
  add_attack("ValueError", "Maximum allowed size exceeded", "import numpy as np\nnp.arange(" MIN64 ", " MAX64 ")\n");
  add_attack("OverflowError", NULL, "len(range(" MIN64 ", " MAX64 "))\n");
  add_attack("", NULL, "import numpy as np\nx = np.eye(3, k=" MIN64 ")\nassert x.sum() == 0\n");
  add_attack("", NULL, "r = range(" MIN64 ", " MAX64 ")\nassert r[-1] == " MAX64 " - 1\n");
  add_attack("", NULL, "import numpy as np\nx = np.diff(np.ones((2, 3)), n=2**62)\nassert x.shape == (2, 0)\n");
  add_attack("ValueError", TOO_BIG, "import numpy as np\nnp.indices((2**31, 2**31))\n");
  add_attack("ValueError", "dimensions are too large", "import numpy as np\nnp.unravel_index(0, (2**62, 2**62))\n");
  add_attack("ValueError", "invalid dims", "import numpy as np\nnp.ravel_multi_index((0, 0), (2**62, 2**62))\n");
  add_attack("OverflowError", "repeated string is too long", "s = 'ab' * 2**62\n");
  /* signed overflow (UBSan) in shape arithmetic before any check */
  add_attack("ValueError", TOO_BIG, "x = tile(arange(6.0).reshape(2, 3), 2**62)\n");
  add_attack("ValueError", TOO_BIG, "x = kron(arange(6.0).reshape(2, 3), broadcast_to(int8(1), (2**62,)))\n");
  add_attack("ValueError", TOO_BIG, "x = random.choice(arange(6.0), size=(2**62, 2**62))\n");
  add_attack("ValueError", TOO_BIG, "x = zeros((3, 3))[broadcast_to(int8(0), (2**62, 1)), "
             "broadcast_to(int8(0), (1, 2**62))]\n");
  add_attack("", NULL, "x = around(arange(6.0), " MIN64 ")\n");
  add_attack("ValueError", "width too big", "%s", "s = '%99999999999999999999d' % 1\n");
  add_attack("ValueError", "width too big", "%s", "s = '%*d' % (" MIN64 ", 1)\n");
  add_attack("MemoryError", NULL, "%s", "s = '%*d' % (2**62, 1)\n");
  add_attack("", NULL, "import random\nx = random.randrange(0, " MAX64 ", 2**62)\n");
  add_attack("ValueError", TOO_BIG, "x = histogram(arange(6.0), bins=" MAX64 ")\n");
  add_attack("MemoryError", NULL, "s = 'a'.center(2**62)\n");
  add_attack("MemoryError", NULL, "s = 'a'.rjust(" MAX64 ", 'x')\n");
  add_attack("MemoryError", NULL, "s = '-1'.zfill(2**62)\n");
  add_attack("OverflowError", NULL, "s = 'a\\tb'.expandtabs(2**62)\n");
  /* files: in a sandboxed state the file builtins do not exist */
  static const char *const files[] = {
    "open('canary.txt')", "load('canary.txt')", "loadtxt('canary.txt')", "load_idx('canary.txt')",
    "save('new.npy', ones(3))", "savez('new.npz', a=ones(3))", "savez_compressed('new.npz', ones(3))",
    "savetxt('new.txt', ones(3))", "load('/etc/passwd')", "loadtxt('/etc/passwd', dtype=str)",
    "import os\nos.listdir('.')", "__import__('os')", "fromfile('canary.txt')",
    "genfromtxt('canary.txt')", "memmap('canary.txt')", "help(load)", "load.__doc__",
    "np = 0\nimport numpy as np\nnp.load('canary.txt')", "import numpy as np\nnp.save('new', 1)",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) add_attack(NULL, NULL, "%s\n", files[i]);
  /* sizes through the language */
  static const char *const misc[] = {
    "s = 'ab' * 2**62", "s = 'ab' * " MAX64, "l = [1, 2] * 2**62", "l = [0] * " MAX64,
    "t = (1,) * 2**62", "s = 'x' * 10**8", "l = [0] * 10**8", "s = str(broadcast_to(int8(1), (2**62,)))",
    "s = repr(broadcast_to(1.0, (2**30, 2**30)))",
    "set_printoptions(threshold=" MAX64 ")\nprint(broadcast_to(int8(1), (2**62,)))",
    "set_printoptions(threshold=" MAX64 ", linewidth=" MAX64 ")\nprint(broadcast_to(1.0, (2**20, 2**20)))",
    "set_printoptions(precision=2**62)\nprint(ones(3) / 3)", "set_printoptions(edgeitems=2**62)\nprint(arange(10))",
    "print(format_float_positional(1.0, precision=2**62))", "print(format_float_scientific(1.0, precision=2**62))",
    "print(array2string(ones(3), max_line_width=2**62))", "print(array2string(ones(3), precision=2**62))",
    "x = zeros(3)[" MAX64 "]", "x = zeros(3)[" MIN64 "]", "x = zeros(3)[" MIN64 ":" MAX64 ":" MAX64 "]",
    "x = zeros(3)[::" MIN64 "]", "x = broadcast_to(int8(1), (2**62,))[::-1][5]",
    "x = broadcast_to(int8(1), (2**62,))[[0, 2**62 - 1]]", "x = broadcast_to(int8(1), (2**62,)).reshape(2**31, 2**31)",
    "x = broadcast_to(int8(1), (2**62,)).reshape(-1, 2**62)", "x = zeros(0).reshape(-1, 2**62, 2**62)",
    "x = broadcast_to(int8(1), (2**62,)) + 1", "x = broadcast_to(int8(1), (2**62,)).sum()",
    "x = broadcast_to(1.0, (2**59,)).sum()", "x = broadcast_to(1.0, (2**30, 2**30)) @ broadcast_to(1.0, (2**30, 2**30))",
    "x = einsum('i,i', broadcast_to(1.0, (2**59,)), broadcast_to(1.0, (2**59,)))",
    "x = einsum('ij,jk->ik', broadcast_to(1.0, (2**30, 2**30)), broadcast_to(1.0, (2**30, 2**30)))",
    "x = sort(broadcast_to(1.0, (2**20,)) * 1)", "x = unique(arange(10**6) % 7)",
    "x = zeros((2**31, 2**31, 2**31, 0))", "x = zeros((0, 2**62, 2**62))", "x = ones((2**31, 2**31))",
    "x = empty(2**62, dtype=int8)", "x = indices((2**31, 2**31))", "x = indices((2**62, 2**62))",
    "x = random.rand(2**31, 2**31)", "x = random.normal(size=(2**62, 2**62))",
    "x = random.choice(2**62, 3)", "x = random.randint(" MIN64 ", " MAX64 ", 3)",
    "x = random.permutation(2**62)", "x = random.seed(" MAX64 ")",
    "x = unravel_index(0, (2**62, 2**62))", "x = ravel_multi_index((0, 0), (2**62, 2**62))",
    "x = unravel_index(" MAX64 ", (2**31, 2**31))", "x = bincount([0], minlength=2**62)",
    "x = bincount([2**62])", "x = histogram([1.0], bins=2**62)", "x = linspace(0, 1, 2**62)",
    "x = logspace(0, 1, 2**62)", "x = geomspace(1, 2, 2**62)", "x = tri(2**62)", "x = tri(3, k=" MIN64 ")",
    "x = vander(ones(3), 2**62)", "x = tril(ones((3, 3)), " MIN64 ")", "x = triu(ones((3, 3)), " MIN64 ")",
    "x = rot90(ones((3, 3)), " MIN64 ")", "x = kron(broadcast_to(int8(1), (2**62,)), ones(4, int8))",
    "x = outer(broadcast_to(int8(1), (2**62,)), ones(4, int8))",
    "x = meshgrid(broadcast_to(int8(1), (2**62,)), ones(4, int8))",
    "x = tile(ones(4), (2**31, 2**31))", "x = tile(ones(4), 2**62)", "x = stack([broadcast_to(int8(1), (2**61,))] * 4)",
    "x = dstack([broadcast_to(int8(1), (2**62,))] * 2)", "x = diff(broadcast_to(int8(1), (2**62,)), " MAX64 ")",
    "x = take(ones(3), " MIN64 ", mode='wrap')", "x = take(ones(3), " MAX64 ", mode='clip')",
    "x = roll(arange(3), " MIN64 ")", "x = partition(ones(3), " MAX64 ")", "x = around(ones(3), " MIN64 ")",
    "x = linalg.matrix_power(eye(2), " MIN64 ")", "x = linalg.matrix_power(eye(2), " MAX64 ")",
    "x = tensordot(ones(3), ones(3), 2**62)", "x = moveaxis(ones(3), " MIN64 ", 0)",
    "x = convolve(broadcast_to(int8(1), (2**62,)), ones(4))", "x = correlate(ones(10**5), ones(10**5), 'full')",
    "x = searchsorted(ones(3), broadcast_to(1.0, (2**59,)))", "x = nonzero(broadcast_to(int8(1), (2**62,)))",
    "x = argwhere(broadcast_to(int8(1), (2**62,)))", "x = median(broadcast_to(1.0, (2**59,)))",
    "x = percentile(broadcast_to(1.0, (2**59,)), 50)", "x = linalg.norm(broadcast_to(1.0, (2**59,)))",
    "x = linalg.inv(broadcast_to(1.0, (2**30, 2**30)))", "x = linalg.svd(broadcast_to(1.0, (2**30, 2**30)))",
    "x = array([[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])",
    "x = ones((1,) * 33)", "x = expand_dims(ones((1,) * 32), 0)", "x = einsum('a' * 100, ones(3))",
    "x = einsum(','.join(['i'] * 200), *([ones(2)] * 200))",
    "def f(n):\n    return f(n + 1)\nf(0)", "x = []\nfor i in range(10**6):\n    x = [x]\ns = repr(x)",
    "while True:\n    pass", "x = 0\nfor i in range(" MIN64 ", " MAX64 "):\n    x = i",
    "a = broadcast_to(int8(1), (2**62, 1))\nb = broadcast_to(int8(1), (1, 2**62))\nx = a + b",
    "a = broadcast_to(int8(1), (2**62, 1))\nb = broadcast_to(int8(1), (1, 2**62))\nx = a == b",
    "a = broadcast_to(int8(1), (2**62, 1))\nb = broadcast_to(int8(1), (1, 2**62))\nx = where(a > 0, a, b)",
    "a = broadcast_to(int8(1), (2**62, 1))\nb = broadcast_to(int8(1), (1, 2**62))\nx = maximum(a, b, out=zeros((2, 2), int8))",
    "a = broadcast_to(int8(1), (2**62, 1))\nb = broadcast_to(int8(1), (1, 2**62))\nx = broadcast_arrays(a, b)",
    "a = broadcast_to(int8(1), (2**62,))\nx = einsum('i,j->ij', a, a)",
    "a = broadcast_to(int8(1), (2**62,))\nx = einsum('i,j->', a, a)", "a = broadcast_to(int8(1), (2**62,))\nx = outer(a, a)",
    "a = broadcast_to(int8(1), (2**62,))\nx = add.outer(a, a)", "a = broadcast_to(int8(1), (2**62,))\nx = a[:, None] * a[None, :]",
    "a = broadcast_to(int8(1), (2**62,))\nx = a[None, :, None, None] * a[:, None, None, None]",
    "a = broadcast_to(int8(1), (2**62,))\nx = a[:, None] @ a[None, :]", "a = broadcast_to(int8(1), (2**62,))\nx = dot(a, a)",
    "a = broadcast_to(int8(1), (2**62,))\nx = kron(a, a)", "a = broadcast_to(int8(1), (2**62,))\nx = meshgrid(a, a)",
    "a = broadcast_to(int8(1), (2**62,))\nx = tensordot(a, a, 0)",
    "x = [i for i in range(10**9)]", "x = sum(range(10**9))", "x = ones(10**7)\nfor i in range(100):\n    x = x + 1",
  };
  for (size_t i = 0; i < sizeof misc / sizeof misc[0]; i++) add_attack(NULL, NULL, "%s\n", misc[i]);
}

/* What a parameter of a builtin is, from its name, and the values it is given. */
typedef enum { P_ARRAY, P_INT, P_SHAPE, P_FILE, P_STR, P_SKIP } ParamKind;

static ParamKind param_kind(const char *name) {
  static const char *const ints[] = {
    "axis", "axis1", "axis2", "k", "n", "N", "M", "num", "decimals", "ddof", "offset", "kth",
    "shift", "bins", "repeats", "minlength", "indices_or_sections", "precision", "threshold",
    "edgeitems", "linewidth", "max_line_width", "seed", "low", "high", "d0", "d1", "dn", "start",
    "stop", "step", "min_digits", "pad_left", "pad_right", "exp_digits", "source",
    "destination", "ndmin", "skiprows", "lam", "df", "dfnum", "dfden", "source", "position",
    "sections", "deg", "ord", "rcond", "tol", "q", "p", "fill_value", "value", "v", NULL};
  static const char *const shapes[] = {"shape", "newshape", "size", "reps", "dims",
                                       "dimensions", "pad_width", "axes", "kth", NULL};
  static const char *const files[] = {"file", "fname", "path", NULL};
  static const char *const strs[] = {"subscripts", "mode", "side", "method", "order", "kind",
                                     "UPLO", "casting", "sep", "end", "fmt", "delimiter",
                                     "separator", "prefix", "nanstr", "infstr", NULL};
  static const char *const skip[] = {"dtype", "out", "like", "subok", "copy", "keepdims",
                                     "optimize", "formatter", "legacy", "allow_pickle",
                                     "fix_imports", "encoding", "mmap_mode", "converters",
                                     "usecols", "unpack", "comments", "header", "footer",
                                     "newline", "obj", "object", "state", "kwargs", "kwds", NULL};
  const char *const *lists[] = {shapes, ints, files, strs, skip};
  const ParamKind kinds[] = {P_SHAPE, P_INT, P_FILE, P_STR, P_SKIP};
  for (int l = 0; l < 5; l++)
    for (int i = 0; lists[l][i]; i++)
      if (strcmp(name, lists[l][i]) == 0) return kinds[l];
  return P_ARRAY;
}

static const char *const benign[] = {
  [P_ARRAY] = "arange(6.0).reshape(2, 3)", [P_INT] = "1", [P_SHAPE] = "(2, 3)",
  [P_FILE] = "'canary.txt'", [P_STR] = "'ij->ji'", [P_SKIP] = "None",
};
static const char *const absurd_array[] = {
  "broadcast_to(int8(1), (2**62,))", "broadcast_to(1.0, (2**59,))", "broadcast_to(1.0, (2**30, 2**30))",
  "zeros((0, 3))", "2**62", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", NULL};
static const char *const absurd_int[] = {"2**62", MAX64, MIN64, "-1", NULL};
static const char *const absurd_shape[] = {"(2**62, 2**62)", "(2**31, 2**31, 2**31)", "(-1,)", "2**62",
                                           "(0, 2**62, 2**62)", "(1,) * 33", NULL};
static const char *const absurd_file[] = {"'canary.txt'", "'/etc/passwd'", "'../canary.txt'", NULL};
static const char *const absurd_str[] = {"'i' * 100000", "'->' * 1000", NULL};
static const char *const *const absurd[] = {
  [P_ARRAY] = absurd_array, [P_INT] = absurd_int, [P_SHAPE] = absurd_shape,
  [P_FILE] = absurd_file, [P_STR] = absurd_str, [P_SKIP] = NULL,
};

typedef struct { char name[40]; ParamKind kind; bool optional, keyword; } Param;

/* The parameters of a signature line "name(a, b=1, *, c=None)" (brackets of optional
   groups dropped, *args and **kwargs skipped); returns how many (at most max). */
static int parse_params(const char *doc, Param *ps, int max) {
  const char *p = strchr(doc, '('), *end;
  if (!p) return 0;
  int depth = 0;
  for (end = p; *end && *end != '\n'; end++) {
    if (*end == '(') depth++;
    else if (*end == ')' && --depth == 0) break;
  }
  int n = 0;
  bool keyword = false;
  for (const char *q = p + 1; q < end && n < max;) {
    char tok[64];
    int len = 0, d = 0;
    while (q < end && (d > 0 || *q != ',')) {
      if (*q == '(' || *q == '[') d += *q == '(';
      if (*q == ')') d--;
      if (*q != '[' && *q != ']' && len < (int)sizeof tok - 1) tok[len++] = *q;
      q++;
    }
    q++;
    tok[len] = 0;
    char *t = tok;
    while (*t == ' ') t++;
    if (!*t || strcmp(t, "/") == 0 || strncmp(t, "...", 3) == 0 || strncmp(t, "**", 2) == 0) continue;
    if (strcmp(t, "*") == 0) { keyword = true; continue; }
    if (*t == '*') t++;
    Param *pr = &ps[n];
    int k = 0;
    while ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= '0' && t[k] <= '9') || t[k] == '_') {
      if (k < (int)sizeof pr->name - 1) pr->name[k] = t[k];
      k++;
    }
    if (k == 0 || k >= (int)sizeof pr->name) continue;
    pr->name[k] = 0;
    pr->optional = strchr(t, '=') != NULL;
    pr->keyword = keyword;
    pr->kind = param_kind(pr->name);
    n++;
  }
  return n;
}

/* Every builtin with absurd values in each of its first four parameters: the required
   parameters get benign values (keyword-only ones by name), the attacked one its absurd
   value (by name when optional), the other optional ones nothing. */
static void add_generated_attacks(void) {
  for (const Builtin *const *tab = builtin_tables; *tab; tab++) {
    for (const Builtin *b = *tab; b->name; b++) {
      if (!b->doc || b->name[0] == '_' || strcmp(b->name, "help") == 0) continue;
      Param ps[16];
      int np = parse_params(b->doc, ps, 16);
      bool method = b->ns && strcmp(b->ns, "ndarray") == 0;
      char callee[96];
      if (!b->ns || method) snprintf(callee, sizeof callee, "%s", b->name);
      else snprintf(callee, sizeof callee, "%s.%s", b->ns, b->name);
      /* target -1: the receiver of a method */
      for (int target = method ? -1 : 0; target < np && target < 4; target++) {
        ParamKind tk = target >= 0 ? ps[target].kind : P_ARRAY;
        if (tk == P_SKIP) continue;
        for (const char *const *v = absurd[tk]; *v; v++) {
          char args[1024];
          size_t len = 0;
          args[0] = 0;
          for (int i = 0; i < np && len < sizeof args - 200; i++) {
            if (ps[i].optional && i != target) continue;
            bool by_name = ps[i].optional || ps[i].keyword;
            len += (size_t)snprintf(args + len, sizeof args - len, "%s%s%s%s", len ? ", " : "",
                                    by_name ? ps[i].name : "", by_name ? "=" : "",
                                    i == target ? *v : benign[ps[i].kind]);
          }
          if (method)
            add_attack(NULL, NULL, "x = (%s).%s(%s)\n", target < 0 ? *v : benign[P_ARRAY], callee, args);
          else
            add_attack(NULL, NULL, "x = %s(%s)\n", callee, args);
        }
      }
    }
  }
}

/* ---------------------------------------------------------------------------------------
** Running one attack
*/
typedef struct {
  tsr_State *S;
  char dir[64];
  int inotify;
  int report;          /* the child's end of the pipe for its messages (stderr may be a file,
                          which RLIMIT_FSIZE forbids writing) */
  double bound;        /* seconds of CPU time a child may take (ITIMER_PROF: SIGPROF); the
                          wall-time bound (SIGALRM) is ten times that plus ten, for a loaded
                          machine, and RLIMIT_CPU a backstop five seconds later */
  bool strict;         /* a child killed at the bound fails the suite */
  int slow_count, killed_count;
} Host;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void limit(int resource, rlim_t soft, rlim_t hard) {
  struct rlimit rl = {soft, hard};
  setrlimit(resource, &rl);
}

/* The child: the attack in the inherited state, then the checks that need the state. */
static void child(Host *h, const Attack *a) {
  if (chdir(h->dir) != 0) _exit(2);
  limit(RLIMIT_CPU, (rlim_t)h->bound + 5, (rlim_t)h->bound + 10);
  limit(RLIMIT_FSIZE, 0, 0);          /* writing any file is SIGXFSZ */
  limit(RLIMIT_CORE, 0, 0);
  if (!UNDER_ASAN) limit(RLIMIT_AS, (rlim_t)4 << 30, (rlim_t)4 << 30);
  alarm((unsigned)(10 * h->bound + 10));
  struct itimerval cpu = {{0, 0}, {(time_t)h->bound, (suseconds_t)((h->bound - (double)(time_t)h->bound) * 1e6)}};
  setitimer(ITIMER_PROF, &cpu, NULL);
  tsr_Status st = tsr_eval(h->S, a->src, "<attack>", NULL);
  int rc = 0;
  if (a->kind && !*a->kind && st != TSR_OK) {
    dprintf(h->report, "attack ended with %s: %s\nwant success\n", tsr_last_error(h->S)->kind,
            tsr_last_error(h->S)->message);
    rc = EXIT_WRONG_ERROR;
  } else if (a->kind && *a->kind) {
    const tsr_Error *e = tsr_last_error(h->S);
    if (st == TSR_OK || strcmp(e->kind, a->kind) != 0 ||
        (a->msg && strncmp(e->message, a->msg, strlen(a->msg)) != 0)) {
      dprintf(h->report, "attack ended with %s: %s\nwant %s: %s\n", st == TSR_OK ? "no error" : e->kind,
              st == TSR_OK ? "" : e->message, a->kind, a->msg ? a->msg : "...");
      rc = EXIT_WRONG_ERROR;
    }
  }
  if (!rc && !usable(h->S)) rc = EXIT_UNUSABLE;
  if (!rc) {
    tsr_close(h->S);
    if (live_bytes != 0) {
      dprintf(h->report, "%lld bytes still allocated after tsr_close\n", live_bytes);
      rc = EXIT_LEAK;
    }
  }
  _exit(rc);
}

/* Reads pending inotify events; returns how many concern the directory's files. */
static int drain_events(int fd, char *what, size_t what_n) {
  char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
  int count = 0;
  what[0] = 0;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    for (char *p = buf; p < buf + n;) {
      struct inotify_event *ev = (struct inotify_event *)p;
      count++;
      if (!what[0]) snprintf(what, what_n, "event 0x%x on '%s'", ev->mask, ev->len ? ev->name : ".");
      p += sizeof *ev + ev->len;
    }
  }
  return count;
}

static void run_attack(Host *h, const Attack *a) {
  int fds[2];
  if (pipe(fds) != 0) { perror("pipe"); CHECK(!"pipe failed"); return; }
  fflush(NULL);
  double t0 = now();
  pid_t pid = fork();
  if (pid < 0) { perror("fork"); CHECK(!"fork failed"); return; }
  if (pid == 0) {
    close(fds[0]);
    h->report = fds[1];
    dup2(fds[1], 2);   /* the sanitizers' reports too (a pipe holds 64 KiB: enough for one) */
    child(h, a);
  }
  close(fds[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  double secs = now() - t0;
  char said[8192];
  ssize_t n = read(fds[0], said, sizeof said - 1);
  said[n > 0 ? n : 0] = 0;
  close(fds[0]);
  char what[256];
  int events = drain_events(h->inotify, what, sizeof what);
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  bool killed = sig == SIGPROF || sig == SIGALRM || sig == SIGXCPU;   /* a bound, not a crash */
  bool ok = events == 0 && (killed ? !h->strict && !a->kind
                                    : WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(ok);
  if (!ok) {
    if (events)
      fprintf(stderr, "hostile_host: the working directory was touched (%s)", what);
    else if (sig)
      fprintf(stderr, "hostile_host: killed by signal %d (%s)", sig, strsignal(sig));
    else
      fprintf(stderr, "hostile_host: child exit %d", WEXITSTATUS(status));
    fprintf(stderr, " after %.2f s, attack:\n%s%s", secs, a->src, said);
  }
  if (killed) h->killed_count++;
  if (secs > SLOW) {
    if (h->slow_count++ == 0) fprintf(stderr, "hostile_host: slow attacks (> %.0f s):\n", SLOW);
    fprintf(stderr, "  %6.2f s%s  %.*s\n", secs, killed ? " (killed at the bound)" : "",
            (int)strcspn(a->src, "\n"), a->src);
  }
}

/* The working directory holds the two canaries and nothing else. */
static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

static void write_file(const char *dir, const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f) { fputs(text, f); fclose(f); }
}

/* The host-API checks of issue 25: tsr_tensor_wrap validates every pointer and size. */
static void test_wrap_arguments(void) {
  tsr_State *S = open_sandboxed();
  CHECK(S != NULL);
  if (!S) return;
  double buf[10] = {0};
  int64_t shape[2] = {2, 5}, neg[1] = {-1}, big[2] = {(int64_t)1 << 62, (int64_t)1 << 62};
  int64_t wild[2] = {INT64_MAX / 16 * 8, 8}, huge[1] = {(int64_t)1 << 59};
  struct { int ndim; const int64_t *shape, *strides; void *data; size_t nbytes; const char *msg; } cases[] = {
    {2, NULL, NULL, buf, 80, "shape is NULL"},                 /* issue 25: read through NULL */
    {1, shape, NULL, NULL, 80, "data pointer is NULL"},
    {0, NULL, NULL, NULL, 8, "data pointer is NULL"},
    {1, neg, NULL, buf, 80, "negative dimensions are not allowed"},
    {2, big, NULL, buf, 80, TOO_BIG},
    {33, shape, NULL, buf, 80, "maximum supported dimension for an ndarray is 32, found 33"},
    {-1, shape, NULL, buf, 80, "maximum supported dimension for an ndarray is 32, found -1"},
    {2, shape, wild, buf, 80, "buffer of 80 bytes is too small for the requested tensor"},
    {1, huge, NULL, buf, 80, "buffer of 80 bytes is too small for the requested tensor"},
    {1, shape, NULL, buf, SIZE_MAX, "buffer of"},
    {1, shape, NULL, (char *)UINTPTR_MAX - 63, 64, "buffer of 64 bytes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tsr_Tensor *t = tsr_tensor_wrap(S, TSR_FLOAT64, cases[i].ndim, cases[i].shape, cases[i].strides,
                                    cases[i].data, cases[i].nbytes, 0, NULL, NULL);
    CHECK(t == NULL);
    tsr_tensor_release(t);
    const tsr_Error *e = tsr_last_error(S);
    CHECK(e->status == TSR_ERR_VALUE);
    bool same = strncmp(e->message, cases[i].msg, strlen(cases[i].msg)) == 0;
    CHECK(same);
    if (!same) fprintf(stderr, "wrap case %zu: %s\nwant: %s\n", i, e->message, cases[i].msg);
  }
  /* a good wrap still works, and an empty one needs no data */
  tsr_Tensor *t = tsr_tensor_wrap(S, TSR_FLOAT64, 2, shape, NULL, buf, 80, 0, NULL, NULL);
  CHECK(t != NULL);
  tsr_tensor_release(t);
  int64_t empty[1] = {0};
  t = tsr_tensor_wrap(S, TSR_FLOAT64, 1, empty, NULL, NULL, 0, 0, NULL, NULL);
  CHECK(t != NULL);
  tsr_tensor_release(t);
  CHECK(usable(S));
  tsr_close(S);
}

int main(void) {
  test_wrap_arguments();
  add_fixed_attacks();
  int nfixed = nattacks;
  add_generated_attacks();
  if (getenv("TSR_HOSTILE_LIST")) {   /* the corpus, one attack per paragraph, for reading */
    for (int i = 0; i < nattacks; i++) printf("%s\n", attacks[i].src);
    return 0;
  }
  const char *all = getenv("TSR_HOSTILE_ALL"), *shard_s = getenv("TSR_HOSTILE_SHARD");
  int shard = shard_s ? atoi(shard_s) % 3 : 0;

  Host h = {0};
  snprintf(h.dir, sizeof h.dir, "/tmp/tsr-hostile-host-XXXXXX");
  if (!mkdtemp(h.dir)) { perror("mkdtemp"); return 1; }
  write_file(h.dir, "canary.txt", "1 2 3\n");
  write_file(h.dir, "canary.npy", "\x93NUMPY not really\n");
  h.inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  CHECK(h.inotify >= 0);
  if (h.inotify < 0 || inotify_add_watch(h.inotify, h.dir, IN_ALL_EVENTS) < 0) {
    perror("inotify");
    return 1;
  }
  const char *bound_s = getenv("TSR_HOSTILE_BOUND"), *strict_s = getenv("TSR_HOSTILE_STRICT");
  h.bound = bound_s && atof(bound_s) > 0 ? atof(bound_s) : 0.5;
  h.strict = strict_s && *strict_s == '1';
  h.S = open_sandboxed();
  CHECK(h.S != NULL);
  if (!h.S) return CHECK_DONE("hostile_host");
  double t0 = now();
  int ran = 0;
  for (int i = 0; i < nattacks; i++) {
    if (i >= nfixed && !all && (i - nfixed) % 3 != shard) continue;
    run_attack(&h, &attacks[i]);
    ran++;
  }
  close(h.inotify);
  CHECK(count_entries(h.dir) == 2);
  fprintf(stderr, "hostile_host: %d attacks of %d (%d hand-written) in %.1f s, %d slower than "
          "%.0f s, %d killed at the bound of %.2g s of CPU time%s\n", ran, nattacks, nfixed, now() - t0,
          h.slow_count, SLOW, h.killed_count, h.bound, h.strict ? " (strict: failures)" : "");
  tsr_close(h.S);
  char path[128];
  snprintf(path, sizeof path, "%s/canary.txt", h.dir);
  remove(path);
  snprintf(path, sizeof path, "%s/canary.npy", h.dir);
  remove(path);
  rmdir(h.dir);
  for (int i = 0; i < nattacks; i++) free(attacks[i].src);
  free(attacks);
  return CHECK_DONE("hostile_host");
}
