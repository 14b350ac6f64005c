/*
** sandbox.c -- the allow-list of builtins a TSR_SANDBOX state gets (tsr_Config.flags).
**
** A sandboxed state is for untrusted source (a server evaluating users' expressions): its
** namespace holds only the builtins named here, none of which touches files, plus the ufuncs
** (pure arithmetic, listed by rt.h's X-macros).  A builtin added to tsr is therefore absent
** from sandboxed states until it is added here; file builtins (load_idx, save, load, loadtxt,
** ...) never are.  The runtime's file gate (src/runtime/io.c) refuses files in a sandbox as a
** second line of defence, and tsr_eval_file is refused too.
*/
#include "../lang/interp.h"

#include <string.h>

/* Global functions by name, tensor methods as "ndarray.NAME", namespace members "NS.NAME". */
static const char *const allowed[] = {
  "abs", "all", "amax", "amin", "any", "arange", "argmax", "argmin", "argwhere", "around",
  "array", "asarray", "ascontiguousarray", "atleast_1d", "atleast_2d", "atleast_3d",
  "bitwise_not", "bool", "broadcast_to", "clip", "concatenate", "copy", "count_nonzero",
  "cumprod", "cumsum", "diagonal", "divide", "dot", "empty", "empty_like", "expand_dims", "eye",
  "flatnonzero", "flip", "float", "full", "full_like", "help", "hstack", "identity", "inner",
  "int", "len", "linalg.norm", "linspace", "matmul", "max", "mean", "min", "mod", "moveaxis",
  "ndarray.all", "ndarray.any", "ndarray.argmax", "ndarray.argmin", "ndarray.astype",
  "ndarray.clip", "ndarray.copy", "ndarray.cumprod", "ndarray.cumsum", "ndarray.diagonal",
  "ndarray.dot", "ndarray.fill", "ndarray.flatten", "ndarray.item", "ndarray.max",
  "ndarray.mean", "ndarray.min", "ndarray.nonzero", "ndarray.prod", "ndarray.ravel",
  "ndarray.reshape", "ndarray.round", "ndarray.squeeze", "ndarray.std", "ndarray.sum",
  "ndarray.swapaxes", "ndarray.tolist", "ndarray.trace", "ndarray.transpose", "ndarray.var",
  "nonzero", "ones", "ones_like", "outer", "print", "prod", "range", "ravel", "repr", "reshape",
  "round", "round_", "set_printoptions", "squeeze", "stack", "std", "str", "sum", "swapaxes",
  "trace", "transpose", "var", "vdot", "vstack", "where", "zeros", "zeros_like",
  NULL
};

#define X_NAME(name, str) str,
static const char *const ufuncs[] = { BINARY_UFUNCS(X_NAME) UNARY_UFUNCS(X_NAME) NULL };
#undef X_NAME

static bool listed(const char *const *list, const char *ns, const char *name) {
  size_t nl = ns ? strlen(ns) : 0;
  for (; *list; list++) {
    const char *s = *list;
    if (ns) {
      if (strncmp(s, ns, nl) != 0 || s[nl] != '.') continue;
      s += nl + 1;
    } else if (strchr(s, '.')) {
      continue;
    }
    if (strcmp(s, name) == 0) return true;
  }
  return false;
}

bool sandbox_allows(const Builtin *b) {
  if (!b->ns && listed(ufuncs, NULL, b->name)) return true;
  return listed(allowed, b->ns, b->name);
}
