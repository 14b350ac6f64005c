/*
** index_errors.c -- a failed subscript assignment writes nothing: for each wrong form (an index
** out of range in the middle of an index array, a value of the wrong shape for a mask, a bad
** mask, too many indices, a float index, a sequence into one element) the error has NumPy's
** kind and text and the tensor keeps every element.  Prints "unit index_errors: N passed,
** N failed".
*/
#include "tsr.h"
#include "../unit/check.h"

#include <string.h>

typedef struct { char text[2048]; size_t len; } Capture;

static void capture_write(void *ud, int stream, const char *s, size_t n) {
  Capture *c = ud;
  if (stream != 1) return;
  if (c->len + n >= sizeof c->text) n = sizeof c->text - 1 - c->len;
  memcpy(c->text + c->len, s, n);
  c->len += n;
  c->text[c->len] = '\0';
}

/* Runs `code`, which must fail with kind and message, then checks that printing x gives
   `want` (the state survived and nothing was written). */
static void expect_intact(tsr_State *S, Capture *cap, const char *code, const char *kind,
                          const char *message, const char *want) {
  CHECK(tsr_eval(S, code, "test", NULL) != TSR_OK);
  const tsr_Error *e = tsr_last_error(S);
  CHECK_STR(e ? e->kind : NULL, kind);
  CHECK_STR(e ? e->message : NULL, message);
  cap->len = 0;
  cap->text[0] = '\0';
  CHECK(tsr_eval(S, "print(x)", "test", NULL) == TSR_OK);
  CHECK_STR(cap->text, want);
}

int main(void) {
  Capture cap = {{0}, 0};
  tsr_Config cfg;
  tsr_config_init(&cfg);
  cfg.write = capture_write;
  cfg.write_ud = &cap;
  tsr_State *S = tsr_open(&cfg);
  CHECK(S != NULL);
  if (!S) return CHECK_DONE("index_errors");
  CHECK(tsr_eval(S, "x = arange(6).reshape(2, 3)", "test", NULL) == TSR_OK);
  const char *orig = "[[0 1 2]\n [3 4 5]]\n";
  expect_intact(S, &cap, "x[[0, 1, 2]] = 9", "IndexError",
                "index 2 is out of bounds for axis 0 with size 2", orig);
  expect_intact(S, &cap, "x[:, [0, 1, 3]] = -1", "IndexError",
                "index 3 is out of bounds for axis 1 with size 3", orig);
  expect_intact(S, &cap, "x[x > 1] = [7, 8]", "ValueError",
                "NumPy boolean array indexing assignment cannot assign 2 input values to the 4 "
                "output values where the mask is true", orig);
  expect_intact(S, &cap, "x[array([True, False, True])] = 0", "IndexError",
                "boolean index did not match indexed array along dimension 0; dimension is 2 "
                "but corresponding boolean dimension is 3", orig);
  expect_intact(S, &cap, "x[0, 1, 2] = 5", "IndexError",
                "too many indices for array: array is 2-dimensional, but 3 were indexed", orig);
  expect_intact(S, &cap, "x[1.0] = 5", "IndexError",
                "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices", orig);
  expect_intact(S, &cap, "x[0, 0] = [1, 2]", "ValueError",
                "setting an array element with a sequence.", orig);
  expect_intact(S, &cap, "x[:, 1:] = [1, 2, 3]", "ValueError",
                "could not broadcast input array from shape (3,) into shape (2,2)", orig);
  expect_intact(S, &cap, "x[[0, 0], [1]] = [1, 2, 3]", "ValueError",
                "shape mismatch: value array of shape (3,) could not be broadcast to indexing "
                "result of shape (2,)", orig);
  expect_intact(S, &cap, "x[::0] = 1", "ValueError", "slice step cannot be zero", orig);
  /* a view of a view keeps writing through after the errors */
  CHECK(tsr_eval(S, "v = x[::-1][:, 1:][0]; v[:] = -1", "test", NULL) == TSR_OK);
  cap.len = 0;
  CHECK(tsr_eval(S, "print(x)", "test", NULL) == TSR_OK);
  CHECK_STR(cap.text, "[[ 0  1  2]\n [ 3 -1 -1]]\n");
  tsr_close(S);
  return CHECK_DONE("index_errors");
}
