/*
** fperr.c -- NumPy's floating-point error handling (numpy.seterr): the FPU status flags that
** a ufunc call raised, read once per call, turned into RuntimeWarnings, 'print' lines or
** FloatingPointError according to the mode of each category.
*/
#include "rt.h"

#include <fenv.h>
#include <stdio.h>

#define FE_FOUR (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

static const FpMode default_mode[FPE_NCAT] = {FPMODE_WARN, FPMODE_WARN, FPMODE_IGNORE,
                                              FPMODE_WARN};
static const char *const category_text[FPE_NCAT] = {"divide by zero", "overflow", "underflow",
                                                    "invalid value"};

void fperr_clear(void) {
  if (fetestexcept(FE_FOUR)) feclearexcept(FE_FOUR);
}

int fperr_test(void) {
  int f = fetestexcept(FE_FOUR), r = 0;
  if (!f) return 0;
  if (f & FE_DIVBYZERO) r |= FPE_DIVIDE;
  if (f & FE_OVERFLOW) r |= FPE_OVERFLOW;
  if (f & FE_UNDERFLOW) r |= FPE_UNDERFLOW;
  if (f & FE_INVALID) r |= FPE_INVALID;
  return r;
}

void fperr_raise(int flags) {
  int f = 0;
  if (flags & FPE_DIVIDE) f |= FE_DIVBYZERO;
  if (flags & FPE_OVERFLOW) f |= FE_OVERFLOW;
  if (flags & FPE_UNDERFLOW) f |= FE_UNDERFLOW;
  if (flags & FPE_INVALID) f |= FE_INVALID;
  if (f) feraiseexcept(f);
}

FpMode fperr_mode(const Ctx *c, int k) {
  return c->fperr.mode[k] ? (FpMode)(c->fperr.mode[k] - 1) : default_mode[k];
}

bool fperr_active(const Ctx *c) {
  for (int k = 0; k < FPE_NCAT; k++)
    if (fperr_mode(c, k) != FPMODE_IGNORE) return true;
  return false;
}

bool fperr_any_raise(const Ctx *c) {
  for (int k = 0; k < FPE_NCAT; k++)
    if (fperr_mode(c, k) == FPMODE_RAISE) return true;
  return false;
}

int fperr_report(Ctx *c, int flags, const char *name) {
  bool first = true;   /* 'print' shows only the first error of a call, as NumPy does */
  for (int k = 0; k < FPE_NCAT; k++) {
    if (!(flags & (1 << k))) continue;
    FpMode m = fperr_mode(c, k);
    if (m == FPMODE_IGNORE) continue;
    if (m == FPMODE_PRINT && !first) continue;
    if (m == FPMODE_PRINT) first = false;
    char msg[128];
    snprintf(msg, sizeof msg, "%s encountered in %s", category_text[k], name);
    if (m == FPMODE_RAISE)
      return ctx_err(c, TSR_ERR_VALUE, "FloatingPointError", "%s", msg);
    if (c->fperr.report) c->fperr.report(c, m, msg);
  }
  return 0;
}
