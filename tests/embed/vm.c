/*
** vm.c -- a host program driving the virtual machine's error paths: errors raised deep in
** user calls (each frame's registers, holding tensors and lists, must be released), the
** recursion limit, a max_steps limit in a recursion and in a loop, failed argument binding,
** unpacking errors, and an error inside a user function called back by a builtin.  After
** each one the state must be usable and give the right result; under valgrind
** (make test-valgrind) nothing may leak.  Prints "unit embed_vm: N passed, N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <stdbool.h>
#include <string.h>

static double get_double(tsr_State *S, const char *name) {
  double v = -12345;
  tsr_Tensor *t = tsr_get(S, name);
  if (!t) return v;
  if (tsr_tensor_copy_to(t, TSR_FLOAT64, &v, sizeof v) != TSR_OK) v = -54321;
  tsr_tensor_release(t);
  return v;
}

static bool usable(tsr_State *S) {
  return tsr_eval(S, "ok = fib(10) + sum(arange(4.0))", "probe", NULL) == TSR_OK &&
         get_double(S, "ok") == 61;
}

int main(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("embed_vm");
  CHECK(tsr_eval(S, "def fib(n):\n    if n < 2:\n        return n\n"
                    "    return fib(n - 1) + fib(n - 2)\n", "defs", NULL) == TSR_OK);

  /* an error five frames deep, each frame holding a tensor, a list and a temporary */
  CHECK(tsr_eval(S,
                 "def down(n, acc):\n"
                 "    t = ones(100) * n\n"
                 "    items = [t, [n], 'x']\n"
                 "    if n == 0:\n"
                 "        return t[1000]\n"
                 "    return down(n - 1, acc + [t]) + t[0]\n"
                 "down(5, [])\n",
                 "deep", NULL) == TSR_ERR_INDEX);
  CHECK(tsr_last_error(S)->line == 5);
  CHECK(usable(S));

  /* the recursion limit, with tensors in every frame */
  CHECK(tsr_eval(S, "def r(n):\n    x = zeros(3) + n\n    return r(n + 1) + x\nr(0)\n",
                 "rec", NULL) == TSR_ERR_RUNTIME);
  CHECK(strcmp(tsr_last_error(S)->kind, "RecursionError") == 0);
  CHECK(usable(S));

  /* argument binding failures, positional and keyword */
  CHECK(tsr_eval(S, "def two(a, b):\n    return a + b\ntwo(ones(2))\n", "bind", NULL) ==
        TSR_ERR_TYPE);
  CHECK(strcmp(tsr_error_message(S) + strlen(tsr_error_message(S)) -
                   strlen("missing 1 required positional argument: 'b'"),
               "missing 1 required positional argument: 'b'") == 0);
  CHECK(tsr_eval(S, "two(ones(2), b=1, c=2)\n", "bind", NULL) == TSR_ERR_TYPE);
  CHECK(tsr_eval(S, "two(ones(2), ones(2), ones(2))\n", "bind", NULL) == TSR_ERR_TYPE);
  CHECK(usable(S));

  /* unpacking errors with references in the sequence */
  CHECK(tsr_eval(S, "a, b = [ones(2), ones(3), ones(4)]\n", "unpack", NULL) == TSR_ERR_VALUE);
  CHECK(tsr_eval(S, "def u(t):\n    a, b, c = t\n    return a\nu((ones(2), 1))\n", "unpack",
                 NULL) == TSR_ERR_VALUE);
  CHECK(usable(S));

  /* a user function called back by a builtin (sorted's key) fails */
  CHECK(tsr_eval(S, "def key(v):\n    return ones(3)[v]\ns = sorted([1, 2, 7], key=key)\n",
                 "callback", NULL) == TSR_ERR_INDEX);
  CHECK(usable(S));

  /* an error inside a loop of a function, with the loop's iterable and item alive */
  CHECK(tsr_eval(S, "def loop(xs):\n    total = 0\n    for x in xs:\n"
                    "        total = total + x[5]\n    return total\n"
                    "loop([arange(10), arange(3)])\n",
                 "loop", NULL) == TSR_ERR_INDEX);
  CHECK(tsr_last_error(S)->line == 4);
  CHECK(usable(S));
  tsr_close(S);

  /* max_steps stops a recursion and a loop in a function; the state stays usable */
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.max_steps = 200000;
  S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("embed_vm");
  CHECK(tsr_eval(S, "def fib(n):\n    if n < 2:\n        return n\n"
                    "    return fib(n - 1) + fib(n - 2)\n", "defs", NULL) == TSR_OK);
  CHECK(tsr_eval(S, "fib(40)", "steps", NULL) == TSR_ERR_LIMIT);
  CHECK(tsr_eval(S, "def spin():\n    t = ones(4)\n    while True:\n        t = t + 1\nspin()\n",
                 "steps", NULL) == TSR_ERR_LIMIT);
  CHECK(usable(S));
  tsr_close(S);
  return CHECK_DONE("embed_vm");
}
