/*
** builtins_fperr.c -- numpy.seterr and numpy.geterr: what a floating-point error of a ufunc
** does (ignore, warn, raise, print), per category.  The runtime reads the FPU flags
** (runtime/fperr.c); the public API layer shows the warnings (api.c).
*/
#include "builtins.h"
#include "interp.h"

#include <string.h>

/* NumPy's mode names, indexed by FpMode, and its category keys in geterr's order. */
static const char *const mode_names[] = {"ignore", "warn", "raise", "print"};
static const char *const category_keys[FPE_NCAT] = {"divide", "over", "under", "invalid"};

/* The dict geterr returns, {'divide': 'warn', 'over': 'warn', 'under': 'ignore', 'invalid':
   'warn'}: a namespace named "dict" (builtins_print.c prints it like the dict of
   get_printoptions; err['divide'] looks a member up).  0 or -1. */
static int err_dict(Interp *I, const FpMode *modes, Value *out) {
  Ctx *c = interp_ctx(I);
  Dict *d = dict_new(c);
  if (!d) return -1;
  for (int k = 0; k < FPE_NCAT; k++) {
    Value v = value_str(I, mode_names[modes[k]], strlen(mode_names[modes[k]]));
    if (v.type == V_UNDEF || dict_set(d, category_keys[k], v) < 0) { dict_free(d); return -1; }
  }
  Namespace *ns = ctx_calloc(c, sizeof(Namespace));
  if (!ns) { dict_free(d); return -1; }
  ns->h.refcnt = 1; ns->h.ctx = c; ns->h.size = sizeof(Namespace); ns->h.type = V_NAMESPACE;
  ns->name = "dict";
  ns->members = d;
  out->type = V_NAMESPACE;
  out->o = &ns->h;
  return 0;
}

static void current_modes(Interp *I, FpMode *modes) {
  for (int k = 0; k < FPE_NCAT; k++) modes[k] = fperr_mode(interp_ctx(I), k);
}

/* One mode argument: 'ignore', 'warn', 'raise' or 'print'.  NumPy's 'call' and 'log' need
   seterrcall, which tsr has not: TypeError.  Anything else is NumPy's KeyError. */
static int parse_mode(Interp *I, Value v, FpMode *out) {
  Ctx *c = interp_ctx(I);
  if (v.type != V_STR) {
    Buf b;
    buf_init(&b, c);
    value_repr(I, &b, v);
    int rc = b.failed ? -1 : ctx_err(c, TSR_ERR_INDEX, "KeyError", "%s", buf_str(&b));
    buf_free(&b);
    return rc;
  }
  const char *s = as_str(v)->s;
  for (int m = 0; m < (int)(sizeof mode_names / sizeof mode_names[0]); m++)
    if (strcmp(s, mode_names[m]) == 0) { *out = (FpMode)m; return 0; }
  if (strcmp(s, "call") == 0 || strcmp(s, "log") == 0)
    return ERR_TYPE(c, "seterr: the '%s' mode is not supported by tsr (there is no "
                       "seterrcall); use 'ignore', 'warn', 'raise' or 'print'", s);
  return ctx_err(c, TSR_ERR_INDEX, "KeyError", "'%s'", s);
}

/* seterr(all=None, divide=None, over=None, under=None, invalid=None): numpy.seterr.  Sets the
   mode of each category given (all= those not given by name; None leaves one as it is) and
   returns the old settings as geterr() shows them. */
static int bi_seterr(Interp *I, const Args *a, Value *out) {
  Value v[5];
  if (args_parse(I, a, "seterr", "all=,divide=,over=,under=,invalid=", v)) return -1;
  FpMode old[FPE_NCAT], now[FPE_NCAT], all = FPMODE_IGNORE;
  current_modes(I, old);
  if (given(v[0]) && parse_mode(I, v[0], &all) < 0) return -1;
  for (int k = 0; k < FPE_NCAT; k++) {
    now[k] = given(v[0]) ? all : old[k];
    if (given(v[k + 1]) && parse_mode(I, v[k + 1], &now[k]) < 0) return -1;
  }
  if (err_dict(I, old, out) < 0) return -1;
  for (int k = 0; k < FPE_NCAT; k++) interp_ctx(I)->fperr.mode[k] = (uint8_t)(now[k] + 1);
  return 0;
}

/* geterr(): numpy.geterr, the current settings as a dict. */
static int bi_geterr(Interp *I, const Args *a, Value *out) {
  if (args_parse(I, a, "geterr", "", NULL)) return -1;
  FpMode m[FPE_NCAT];
  current_modes(I, m);
  return err_dict(I, m, out);
}

const Builtin builtins_fperr_table[] = {
  {NULL, "seterr", bi_seterr,
   "seterr(all=None, divide=None, over=None, under=None, invalid=None)\n\nSet how "
   "floating-point errors are handled: 'ignore', 'warn' (a RuntimeWarning, shown once per "
   "line), 'raise' (FloatingPointError) or 'print'.  Returns the old settings."},
  {NULL, "geterr", bi_geterr,
   "geterr()\n\nGet the current way of handling floating-point errors (a dict)."},
  {NULL, NULL, NULL, NULL},
};
