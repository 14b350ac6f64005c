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

/* Global functions by name, tensor methods as "ndarray.NAME", namespace members "NS.NAME";
   "NS.*" admits a whole namespace (random, linalg and fft have no file functions).  Names of
   NumPy's pure functions tsr does not have yet are listed too, so that they are admitted when
   they arrive; a name listed here that tsr lacks is harmless. */
static const char *const allowed[] = {
  "str.*", "_raise", "intersect1d", "row_stack", "select", "setdiff1d", "setxor1d", "trapz", "union1d",
  "vander",
  "abs", "all", "allclose", "amax", "amin", "angle", "any", "append", "arange", "arccosh",
  "argpartition", "partition",
  "arcsinh", "arctanh", "argmax", "argmin", "argsort", "argwhere", "around", "array",
  "array2string", "array_equal", "array_equiv", "array_repr", "array_split", "array_str",
  "asanyarray", "asarray", "ascontiguousarray", "asfarray", "atleast_1d", "atleast_2d",
  "atleast_3d", "average", "bin", "bincount", "bitwise_not", "block", "bool", "broadcast_arrays", "broadcast_to",
  "can_cast", "cbrt", "choose", "chr", "clip", "column_stack", "compress", "concatenate", "conj",
  "conjugate", "convolve", "copy", "corrcoef", "correlate", "count_nonzero", "cov", "cross",
  "cumprod", "cumsum", "deg2rad", "degrees", "delete", "diag", "diag_indices", "diagflat",
  "diagonal", "dict", "diff", "digitize", "divide", "divmod", "dot", "dsplit", "dstack", "dtype",
  "ediff1d", "einsum", "einsum_path", "empty", "empty_like", "enumerate", "expand_dims", "eye",
  "fabs", "fft.*", "filter", "finfo", "flatnonzero", "flip", "float", "float_power",
  "floor_divide", "fmod", "format", "format_float_positional", "format_float_scientific",
  "frexp", "frombuffer", "fromfunction", "fromiter", "fromstring", "frozenset", "full",
  "full_like", "gcd", "geomspace", "get_printoptions", "getattr", "geterr", "gradient", "hasattr", "hash",
  "heaviside", "help", "hex", "histogram", "hsplit", "hstack", "i0", "id", "identity", "iinfo",
  "imag", "in1d", "indices", "inner", "insert", "int", "interp", "isclose", "iscomplex", "isin",
  "isinstance", "isneginf", "isposinf", "isreal", "isscalar", "iter", "ix_", "kron", "lcm",
  "ldexp", "len", "lexsort", "linalg.*", "linalg.norm", "linspace", "list", "log1p", "logaddexp",
  "logaddexp2", "logspace", "map", "matmul", "max", "mean", "median", "meshgrid", "mgrid", "min",
  "mod", "modf", "moveaxis", "nan_to_num", "nanargmax", "nanargmin", "nancumprod", "nancumsum",
  "nanmax", "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile",
  "nanstd", "nansum", "nanvar", "ndarray.__array__",
  "ndarray.__len__", "ndarray.all", "ndarray.any", "ndarray.argmax", "ndarray.argmin",
  "ndarray.argpartition", "ndarray.argsort", "ndarray.astype", "ndarray.byteswap",
  "ndarray.choose", "ndarray.clip", "ndarray.compress", "ndarray.conj", "ndarray.conjugate",
  "ndarray.copy", "ndarray.cumprod", "ndarray.cumsum", "ndarray.diagonal", "ndarray.dot",
  "ndarray.fill", "ndarray.flatten", "ndarray.getfield", "ndarray.item", "ndarray.itemset",
  "ndarray.max", "ndarray.mean", "ndarray.min", "ndarray.nonzero", "ndarray.partition",
  "ndarray.prod", "ndarray.ptp", "ndarray.put", "ndarray.ravel", "ndarray.repeat",
  "ndarray.reshape", "ndarray.resize", "ndarray.round", "ndarray.searchsorted",
  "ndarray.setfield", "ndarray.sort", "ndarray.squeeze", "ndarray.std", "ndarray.sum",
  "ndarray.swapaxes", "ndarray.take", "ndarray.tobytes", "ndarray.tolist", "ndarray.trace",
  "ndarray.transpose", "ndarray.var", "ndarray.view", "ndim", "negative", "next", "nextafter",
  "nonzero", "oct", "ogrid", "ones", "ones_like", "ord", "outer", "pad", "percentile", "polyfit",
  "polyval", "positive", "pow", "power", "print", "prod", "promote_types", "ptp", "put",
  "put_along_axis", "quantile", "rad2deg", "radians", "random.*", "range", "ravel",
  "ravel_multi_index", "real", "repeat", "repr", "require", "reshape", "result_type", "reversed",
  "roll", "rot90", "round", "round_", "searchsorted", "set", "set_printoptions", "seterr", "shape", "sign",
  "sinc", "size", "slice", "sort", "sorted", "spacing", "split", "squeeze", "stack", "std",
  "str", "sum", "swapaxes", "take", "take_along_axis", "tensordot", "tile", "trace", "transpose",
  "tri", "tril", "tril_indices", "triu", "triu_indices", "true_divide", "tuple", "type",
  "unique", "unravel_index", "var", "vdot", "vsplit", "vstack", "where", "whos", "zeros", "zeros_like",
  "zip",
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
      if (strcmp(s, "*") == 0) return true;
    } else if (strchr(s, '.')) {
      continue;
    }
    if (strcmp(s, name) == 0) return true;
  }
  return false;
}

bool sandbox_allows(const Builtin *b) {
  const char *ns = b->ns && strcmp(b->ns, "builtins") == 0 ? NULL : b->ns;   /* one list */
  if (!ns && listed(ufuncs, NULL, b->name)) return true;
  return listed(allowed, ns, b->name);
}
