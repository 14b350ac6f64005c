/*
** scopes.c -- a host program checking that names resolved once (slots for function locals,
** cached lookups of globals and builtins) still see every change a host or a later chunk
** makes: tsr_set of new and existing globals (also from inside a host function while a loop
** runs), globals defined in later tsr_eval chunks, a global shadowing a builtin and its del,
** and UnboundLocalError's status.  Prints "unit embed_scopes: N passed, N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <string.h>

static double get_double(tsr_State *S, const char *name) {
  double v = -12345;
  tsr_Tensor *t = tsr_get(S, name);
  if (!t) return v;
  if (tsr_tensor_copy_to(t, TSR_FLOAT64, &v, sizeof v) != TSR_OK) v = -54321;
  tsr_tensor_release(t);
  return v;
}

static tsr_Tensor *scalar(tsr_State *S, double v) {
  tsr_Tensor *t = tsr_tensor_new(S, TSR_FLOAT64, 0, NULL);
  tsr_TensorInfo info;
  if (t && tsr_tensor_info(t, &info) == TSR_OK) *(double *)info.data = v;
  return t;
}

/* rebind(): sets global `k` to 100 (a new name the first time, then an existing one). */
static tsr_Status rebind(tsr_Call *call, void *ud) {
  (void)ud;
  tsr_State *S = tsr_call_state(call);
  tsr_Tensor *t = scalar(S, 100);
  if (!t) return tsr_raise(call, TSR_ERR_MEMORY, "no memory");
  tsr_Status st = tsr_set(S, "k", t);
  tsr_tensor_release(t);
  return st;
}

int main(void) {
  tsr_State *S = tsr_open(NULL);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("embed_scopes");

  /* a function reading a global that a later chunk defines */
  CHECK(tsr_eval(S, "def f():\n    return g + 1\n", NULL, NULL) == TSR_OK);
  CHECK(tsr_eval(S, "f()", NULL, NULL) == TSR_ERR_NAME);
  CHECK(tsr_eval(S, "g = 1\nr = f()", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 2);

  /* tsr_set of an existing global is seen by the cached lookup */
  tsr_Tensor *t = scalar(S, 10);
  CHECK(t && tsr_set(S, "g", t) == TSR_OK);
  tsr_tensor_release(t);
  CHECK(tsr_eval(S, "r = f()", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 11);

  /* a global shadowing a builtin, then deleted */
  CHECK(tsr_eval(S, "def h(a):\n    return sum(a)\nr = h(arange(4))", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 6);
  t = scalar(S, 3);
  CHECK(t && tsr_set(S, "sum", t) == TSR_OK);
  tsr_tensor_release(t);
  CHECK(tsr_eval(S, "h(arange(4))", NULL, NULL) == TSR_ERR_TYPE);
  CHECK(tsr_eval(S, "del sum\nr = h(arange(5))", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 10);

  /* a host function binding a new global while a loop reads it */
  CHECK(tsr_register(S, "rebind", rebind, NULL) == TSR_OK);
  CHECK(tsr_eval(S,
                 "k = 1\n"
                 "del k\n"
                 "total = 0\n"
                 "for i in range(3):\n"
                 "    rebind()\n"
                 "    total = total + k\n"
                 "    k = i\n",
                 NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "total") == 300);
  CHECK(get_double(S, "k") == 2);

  /* locals of a function are not globals; UnboundLocalError is a NameError status */
  CHECK(tsr_eval(S, "def loc():\n    v = 5\n    return v\nr = loc()", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 5);
  tsr_Tensor *v = tsr_get(S, "v");
  CHECK(v == NULL);
  if (v) tsr_tensor_release(v);
  CHECK(tsr_eval(S, "def bad():\n    w = w + 1\nbad()", NULL, NULL) == TSR_ERR_NAME);
  const char *msg = tsr_error_message(S);
  CHECK(msg && strstr(msg, "UnboundLocalError (NameError): cannot access local variable 'w' "
                           "where it is not associated with a value") != NULL);

  /* the REPL path: chunks that add globals one by one */
  CHECK(tsr_eval_interactive(S, "def twice():\n    return 2 * later\n\n", NULL) == TSR_OK);
  CHECK(tsr_eval_interactive(S, "later = 21\n", NULL) == TSR_OK);
  CHECK(tsr_eval(S, "r = twice()", NULL, NULL) == TSR_OK);
  CHECK(get_double(S, "r") == 42);

  tsr_close(S);
  return CHECK_DONE("embed_scopes");
}
