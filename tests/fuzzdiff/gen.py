#!/usr/bin/python3
"""A seeded generator of random tsr programs over the runtime's surface (tests/fuzzdiff).

`program(seed)` returns the source of one straight-line Python + NumPy program: arrays of
every tsr dtype and of rank 0 to 4 (size-0 ones included) holding special values, views of them
(slices, transposes, reshapes, broadcast_to, newaxis) with assignment through them, ufuncs with
out= and dtype=, reductions with their keywords, shape, sorting, searching, set and statistics
functions, linalg on well-conditioned matrices, and printing under set_printoptions.

Every candidate statement is first run on a shadow namespace under NumPy itself, so the
generator knows each variable's value, shape and dtype and keeps a program runnable: a
statement that raises is dropped, except that a program may end with one such statement (the
error class is then compared).  Statements are also dropped by rule when NumPy 1.24 behaves
in a way tsr documents as different (README "Known differences") or warns that the behaviour
is deprecated: see `reject_reason`.

To extend: add a row to FAMILIES (a weight and a recipe: a function of the generator that
returns a statement, or None when it does not apply); gate rows on the FEATURES table for
parts of the language that tsr does not have yet; gate a variant on KNOWN_OPEN while its
difference is a known, open issue.
"""
import contextlib
import io
import random
import re
import warnings

import numpy as np

# Parts of Python/NumPy the generator may use, by what tsr supports today.  Turn one on (and
# write its recipes) when the language gets it.
FEATURES = {
    "float16": False,        # README: there is no float16
    "complex": False,        # complex literals and dtypes
    "ufunc_where": False,    # ufunc(where=)
    "reduce_initial": False, # sum(initial=), max(initial=), sum(where=)
    "try": False,            # try/except (then: many error checks per program)
    "comprehensions": False,
    "classes": False,
    "default_rng": False,    # the Generator API
}

# Known differences not fixed yet: those listed in issue 24 ("Wrong answers to fix", fixed on
# another branch) and those this fuzzer found (each with its repro).  While a key is here the
# generator avoids the variant (open_gate); delete the line once the fix is merged, and the
# generator starts checking it.
KNOWN_OPEN = {
    "ravel order A/K": "issue 24 item 1",
    "var/std integer dtype": "issue 24 item 2",
    "mean integer dtype": "issue 24 item 3",
    "0-d results of roll/pad/broadcast_arrays/cross/nan_to_num": "issue 24 item 4",
    "clip NaN bound": "issue 24 item 5",
    "signed zeros of minimum/maximum/fmin/fmax/dot/inner": "issue 24 item 6",
    "augmented assignment to a NumPy scalar": "issue 24 item 7",
    "format_float_scientific precision": "issue 24 item 8 (and the same for positional, found "
        "by fuzzdiff: np.format_float_positional(0.9096, precision=3) is '0.91', tsr '0.910')",
    "integer power of an empty array": "issue 24 item 9",
    "any/all out=": "issue 24 item 10",
    "0-d out= returns out": "issue 24 item 10, for ufuncs: np.absolute(a, out=a) with a 0-d a "
                            "returns a itself (array(100)), tsr a scalar",
    "strides of size-0 and fancy-indexed arrays": "issue 24 item 13",
    "in-place bitwise op of a float": "issue 24 item 14: bool_array &= 0.5 is NumPy's TypeError "
                                      "'not supported for the input types', tsr's UFuncTypeError",
    "in-place op: cast error before broadcast error": "found by fuzzdiff: NumPy checks the "
        "output cast of x op= y first: uint8_array(4, 2) &= (0, 4, 2) is its UFuncTypeError, "
        "tsr's ValueError (broadcast); uint8_array **= int16_array([-1]) (or np.power(b, i, "
        "out=b) of a bool b) its UFuncTypeError, tsr's ValueError (negative integer power)",
    "around of bool with decimals < 0": "found by fuzzdiff: np.around(bool_array, -1) and "
        "np.around(bool_array, 1) are NumPy's UFuncTypeError, tsr returns",
    "K-order temporaries of var/std/nan* reductions": "found by fuzzdiff: NumPy's var and the "
        "nan* reductions copy (or subtract from) a non-C-contiguous input in its memory order "
        "(K), so their float sums add in memory order; tsr's temporaries are C-ordered (last "
        "bits differ: np.nanmean(x.T) of a float64 x)",
    "multi_dot of three": "found by fuzzdiff: np.linalg.multi_dot([A, B, v]) of 2x2 float64 "
                          "matrices differs from NumPy's in the last bit (the order or the "
                          "BLAS call of its _multi_dot_three)",
    "quantiles of empty or signed-zero data": "found by fuzzdiff: np.percentile of an empty "
        "lane with method='interpolated_inverted_cdf' is NumPy's IndexError, tsr's []; "
        "np.quantile of -0.0 and 0.0 gives 0.0 there, -0.0 in tsr",
    "x ** scalar fast paths": "found by fuzzdiff: NumPy's ndarray.__pow__ with a scalar "
        "(or 0-d) exponent of 0.5, 1, 2, -1 or 0 calls sqrt, positive, square, reciprocal, "
        "ones_like (fast_scalar_power): np.array([-0.0, -np.inf]) ** 0.5 is [-0., nan] (tsr's "
        "pow: [0., inf]) and float32_array ** np.array(1.0) stays float32",
    "flip of a 0-d array": "issue 24 item 4's family, found by fuzzdiff: np.flip(np.array(3)) "
                           "is a NumPy scalar in NumPy (x[()]), a 0-d array in tsr",
    "vdot of strided operands": "found by fuzzdiff: np.vdot(a[::2], b[::2]) and np.vdot(a[::-1], b) "
        "of float32 differ from NumPy's in the last bits (NumPy's dotfunc on the strides, "
        "a plain loop for negative ones; tsr copies)",
    "tril/triu of a 0-d array": "found by fuzzdiff: np.tril(np.array(7.0)) is NumPy's TypeError, "
                                "tsr's IndexError",
    "convolve/correlate of floats": "found by fuzzdiff: NumPy adds each output with the BLAS "
        "dot (SIMD order for 8 or more terms), tsr in sequence: np.convolve(x, x) of "
        "np.linspace(0, 1, 12, dtype=np.float32) differs in the last bits",
    "var/std with dtype=float32 of other data": "issue 24 item 2's family, found by fuzzdiff: "
        "np.array(4294967294).std(dtype=np.float32) is 2.0 (NumPy subtracts the float32 mean "
        "from the int64 or float64 data in float64), tsr 0.0",
    "histogram of int64 beyond 2**53": "found by fuzzdiff: np.histogram([-9223372036854775807]) "
        "and np.histogram([1e16]) are NumPy's IndexError (its bin index overflows), tsr answers",
    "products with a zero stride": "found by fuzzdiff: np.tensordot(np.broadcast_to(a, (2, 12)), "
        "a, axes=1) and np.tensordot(np.flip(m, -2), v, axes=1) of float32 differ from "
        "NumPy's in the last bits (NumPy copies a stride-0 or negative-stride 2-d operand "
        "before its BLAS call)",
    "fancy assignment of an overlapping value": "found by fuzzdiff: NumPy 1.24 writes "
        "c[[1, 0]] = c[:2] element by element from the live array ([0, 0, 2, 3]); tsr copies "
        "the value first ([1, 0, 2, 3])",
    "fancy assignment of empty values": "found by fuzzdiff: a5[[2, 0, 2]] = x with an empty "
        "a5 (3, 3, 2, 0) and x of shape (3, 3, 3, 2, 0) passes in NumPy (no element to "
        "write), tsr's ValueError (shape mismatch)",
    "percentile of an empty bool array": "found by fuzzdiff: NumPy's IndexError (empty take) "
                                         "comes before tsr's TypeError (boolean subtract)",
    "isin of int64 with uint64 beyond 2**53": "found by fuzzdiff: NumPy's set functions "
        "compare mixed dtypes in their common type: np.isin(np.array([2**63 - 1], np.uint64), "
        "[2**63 - 2]) is True there (float64), False in tsr; an int64 with a uint64 operand "
        "can be NumPy's IndexError (arrays used as indices must be of integer type)",
    "array_str of a NumPy scalar": "found by fuzzdiff: np.array_str(np.zeros(())[()]) is "
        "NumPy's TypeError (descriptor '__getitem__'), tsr prints it",
    "ufunc dtype= checks": "found by fuzzdiff: dtype= must pick a loop with that output type "
                           "and cast the inputs same_kind (np.floor([1, 2], dtype=np.int64) "
                           "and np.invert(np.array([1]), dtype=np.uint64) raise TypeError)",
}

# Errors NumPy raises that a KNOWN_OPEN difference makes tsr miss: a statement that raises
# one of them is not kept as a program's failing last statement.
OPEN_ERRORS = [
    ("in-place op: cast error before broadcast error", lambda stmt, e: (
        "out=" in stmt or
        re.search(r"[-+*/%&|^<>]=", stmt.split("[")[0] + stmt.split("]")[-1]) is not None) and
        "Cannot cast ufunc" in str(e) and "output" in str(e)),
    ("ufunc dtype= checks", lambda stmt, e: "dtype=" in stmt and (
        "No loop matching" in str(e) or "input" in str(e) and "Cannot cast ufunc" in str(e))),
    ("in-place bitwise op of a float", lambda stmt, e: "=" in stmt and
        "not supported for the input types" in str(e)),
    ("around of bool with decimals < 0", lambda stmt, e: "around" in stmt and
        "Cannot cast ufunc" in str(e)),
]


def open_gate(key):
    """True while the difference named by KNOWN_OPEN key is still open (avoid it); a key
    deleted from KNOWN_OPEN is closed, so the callers must spell the keys exactly."""
    return key in KNOWN_OPEN


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
DTYPES = ["bool_"] + INTS + FLOATS   # names in the numpy namespace (np.bool is gone)

# Float values worth meeting: specials, boundaries, halves (rounding), tiny and huge.
FLOAT_SPECIALS = ["np.nan", "np.inf", "-np.inf", "-0.0", "0.0", "1.0", "-1.0", "0.5", "-2.5",
                  "2.5", "1e-07", "3.4e+38", "1e+300", "-1e-310", "5e-324", "123456.789",
                  "0.1", "7.0", "-3.75", "1e+16", "65504.0", "0.3333333333333333"]


def int_specials(dt):
    """Literal values for an integer dtype: its boundaries, 0, +-1 and a few small ones.  uint64
    values above 2**63 - 1 are not Python literals for tsr (64-bit ints, README), so they come
    from an int64 array cast by `array_literal`."""
    info = np.iinfo(dt)
    lo, hi = int(info.min), min(int(info.max), 2 ** 63 - 1)
    vals = [lo, hi, 0, 1, 2, 3, 5, 7, 100, lo + 1, hi - 1]
    if lo < 0:
        vals += [-1, -2, -7, -100]
    # -2**63 written as a literal is -(2**63), beyond 64 bits (README)
    return [str(v) if v != -2 ** 63 else "(-9223372036854775807 - 1)"
            for v in vals if lo <= v <= hi]


class Reject(Exception):
    """A candidate statement the generator does not keep."""


class Gen:
    """One program under construction: the lines so far and the shadow namespace they made."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = ["import numpy as np"]
        self.ns = {"np": np}
        self.count = 0
        self.seeded = False
        self.ended = False     # the last statement raises: nothing may follow

    # ---- choices -------------------------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(list(seq))

    def name(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def arrays(self, pred=None):
        """Names of the shadow variables that hold ndarrays (satisfying pred)."""
        return [k for k, v in self.ns.items()
                if isinstance(v, np.ndarray) and not k.startswith("_") and (pred is None or pred(v))]

    def shape(self, max_ndim=4, allow_empty=True):
        ndim = self.pick([0, 1, 1, 2, 2, 2, 3, 3, 4][:max_ndim * 2 + 1])
        dims = []
        for _ in range(ndim):
            if allow_empty and self.chance(0.04):
                dims.append(0)
            else:
                dims.append(self.pick([1, 2, 2, 3, 3, 4, 5]))
        return tuple(dims)

    def dtype(self, kinds=None):
        return self.pick(kinds or DTYPES)

    def scalar_literal(self, dt):
        """A Python literal of dt's kind (a valid value of dt)."""
        if dt in ("bool", "bool_"):
            return self.pick(["True", "False"])
        if dt in INTS:
            return self.pick(int_specials(dt))
        return self.pick(FLOAT_SPECIALS)

    # ---- running candidates on the shadow ------------------------------------------------
    def shadow(self, stmt):
        """Runs stmt on the shadow namespace (under NumPy 1.24, warnings caught); returns its
        stdout.  Raises Reject for a documented difference, or the statement's own error."""
        out = io.StringIO()
        saved_opts = np.get_printoptions()
        try:
            with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
                warnings.simplefilter("always")
                exec(stmt, self.ns)
            for w in caught:
                # NumPy 1.24 behaviour that is deprecated (== of shapes that do not broadcast,
                # issue 24 item 12; out-of-bound Python ints) is not a target
                if issubclass(w.category, (DeprecationWarning, FutureWarning)):
                    raise Reject("deprecated: " + str(w.message))
                # a float -> int cast of NaN, inf or a value out of the type's range is
                # undefined in C: NumPy 1.24 warns and gives what the CPU's instruction gives
                if "invalid value encountered in cast" in str(w.message):
                    raise Reject("undefined cast")
            for v in self.ns.values():
                reason = reject_reason(v)
                if reason:
                    raise Reject(reason)
        except BaseException:
            np.set_printoptions(**saved_opts)
            raise
        return out.getvalue()

    def emit(self, stmt, may_fail=True):
        """Keeps stmt if it runs on the shadow; a statement that raises is kept (as the
        program's last) with a small probability when may_fail.  Returns True if kept."""
        backup = dict(self.ns)
        try:
            self.shadow(stmt)
        except Reject:
            self.ns = backup
            return False
        except (Exception, SystemExit) as e:  # the statement's own error
            self.ns = backup
            if any(open_gate(k) and test(stmt, e) for k, test in OPEN_ERRORS):
                return False
            if may_fail and not isinstance(e, (RecursionError, MemoryError)) and self.chance(0.15):
                self.lines.append(stmt)
                self.ended = True
                return True
            return False
        self.lines.append(stmt)
        return True

    def value(self, expr):
        """The shadow value of expr, or raises (Reject included)."""
        try:
            self.shadow("_v = " + expr)
            return self.ns["_v"]
        finally:
            self.ns.pop("_v", None)

    # ---- operands --------------------------------------------------------------------------
    def operand(self, pred=None, view_p=0.3):
        """(expression, value) for an existing array, possibly seen through a view."""
        names = self.arrays(pred)
        if not names:
            return None
        name = self.pick(names)
        expr, val = name, self.ns[name]
        if self.chance(view_p):
            v = view_of(self, expr, val)
            if v:
                expr, val = v
                if pred and not pred(val):
                    return name, self.ns[name]
        return expr, val

    def scalar_operand(self, like):
        """A scalar to combine with an array of dtype like: a Python literal mostly, sometimes
        a NumPy scalar or a 0-d array (NEP 50 cases are filtered by the runner)."""
        kind = self.pick(["same", "same", "int", "float", "bool"])
        dt = str(like) if kind == "same" else {"int": "int64", "float": "float64",
                                               "bool": "bool"}[kind]
        if dt == "float16":
            dt = "float32"
        lit = self.scalar_literal(dt)
        form = self.r.random()
        if form < 0.7:
            return lit
        dn = "bool_" if dt == "bool" else dt
        if form < 0.85:
            return f"np.{dn}({lit})"
        return f"np.array({lit}, dtype=np.{dn})"


def reject_reason(v):
    """Why a NumPy value cannot be part of a program tsr must match (README's known
    differences), or None."""
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        if v.dtype == np.float16 and not FEATURES["float16"]:
            return "float16 (README: tsr has none)"
        if v.dtype.kind == "c" and not FEATURES["complex"]:
            return "complex"
        if v.dtype.kind not in "biuf":
            return "dtype " + str(v.dtype)
        if isinstance(v, np.ndarray) and v.size > 4000:
            return "too big"
    elif isinstance(v, (tuple, list)):
        for x in v:
            reason = reject_reason(x)
            if reason:
                return reason
    elif isinstance(v, int) and not isinstance(v, bool) and not -2 ** 63 <= v < 2 ** 63:
        return "Python int beyond 64 bits (README)"
    elif isinstance(v, complex):
        return "complex"
    return None


# ---- views ---------------------------------------------------------------------------------

def slice_text(r, n):
    """A random slice for a dimension of length n (any part omitted, negative steps)."""
    step = r.choice([None, None, 1, 2, -1, -2, 3])
    start = r.choice([None, None, 0, 1, -1, -2, n, n + 2])
    stop = r.choice([None, None, 1, 2, -1, n, -n - 1])
    s = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
    if step is not None:
        s += ":" + str(step)
    return s


def basic_index(g, shape):
    """A basic (view-making) index for an array of this shape."""
    items = []
    for n in shape:
        c = g.r.random()
        if c < 0.45:
            items.append(slice_text(g.r, n))
        elif c < 0.65 and n > 0:
            items.append(str(g.r.randrange(-n, n)))
        elif c < 0.75:
            items.append("None")
        else:
            items.append(":")
    if items and g.chance(0.2):
        k = g.r.randrange(len(items) + 1)
        items = items[:k] + ["..."] + items[k + sum(1 for _ in items[k:k + 1]):]
    if not items:
        items = [g.pick(["...", "None", "()"])]
    return ", ".join(items)


def view_of(g, expr, val):
    """(expression, value) of a view of val, or None."""
    sh = val.shape
    nd = val.ndim
    options = ["index", "T", "reshape", "broadcast", "newaxis", "flip"]
    if nd >= 2:
        options += ["swapaxes", "transpose", "moveaxis", "diagonal"]
    kind = g.pick(options)
    if kind == "index":
        e = f"{expr}[{basic_index(g, sh)}]"
    elif kind == "T":
        e = f"{expr}.T"
    elif kind == "reshape":
        dims = factorise(g, val.size)
        if dims is None:
            return None
        if dims and g.chance(0.3):
            dims[g.r.randrange(len(dims))] = -1
        if g.chance(0.5):
            e = f"{expr}.reshape({tuple(dims)})"
        else:
            e = f"np.reshape({expr}, {tuple(dims)})"
    elif kind == "broadcast":
        target = [g.pick([2, 3]) if (d == 1 and g.chance(0.7)) else d for d in sh]
        if g.chance(0.5):
            target = [g.pick([1, 2, 3])] + target
        e = f"np.broadcast_to({expr}, {tuple(target)})"
    elif kind == "newaxis":
        e = f"{expr}[..., np.newaxis]" if g.chance(0.5) else f"{expr}[None]"
    elif kind == "flip":
        if nd == 0 and open_gate("flip of a 0-d array"):
            return None
        e = f"np.flip({expr})" if nd == 0 or g.chance(0.3) else f"np.flip({expr}, {g.r.randrange(-nd, nd)})"
    elif kind == "swapaxes":
        e = f"{expr}.swapaxes({g.r.randrange(-nd, nd)}, {g.r.randrange(nd)})"
    elif kind == "transpose":
        perm = list(range(nd))
        g.r.shuffle(perm)
        e = f"np.transpose({expr}, {tuple(perm)})"
    elif kind == "moveaxis":
        e = f"np.moveaxis({expr}, {g.r.randrange(nd)}, {g.r.randrange(-nd, nd)})"
    else:
        e = f"{expr}.diagonal()" if g.chance(0.5) else f"np.diagonal({expr}, {g.pick([0, 1, -1])})"
    try:
        return e, g.value(e)
    except (Reject, Exception):
        return None


def factorise(g, size):
    """A random shape (list) with this many elements, up to 4-d."""
    if size == 0:
        return g.pick([[0], [0, 3], [2, 0], [0, -1] if False else [0, 2, 1]])
    dims, left = [], size
    for p in [2, 3, 5, 7]:
        while left % p == 0 and g.chance(0.7) and len(dims) < 3:
            dims.append(p)
            left //= p
    dims.append(left)
    g.r.shuffle(dims)
    if g.chance(0.2):
        dims.insert(g.r.randrange(len(dims) + 1), 1)
    return dims[:4] if len(dims) <= 4 else None


# ---- creation ------------------------------------------------------------------------------

def array_literal(g, shape, dt):
    """An np.array(...) expression of this shape and dtype holding special values."""
    size = int(np.prod(shape)) if shape else 1
    if dt == "uint64" and g.chance(0.5):
        vals = [g.pick(["-1", "0", "1", "(-9223372036854775807 - 1)", "9223372036854775807", "12"])
                for _ in range(size)]
        src = nest(vals, shape)
        return f"np.array({src}).astype(np.uint64)"
    vals = [g.scalar_literal(dt) for _ in range(size)]
    if dt in FLOATS and g.chance(0.5):
        # mostly ordinary values, a few specials
        vals = [v if g.chance(0.3) else repr(round(g.r.uniform(-10, 10), g.pick([0, 1, 2, 3])))
                for v in vals]
    return f"np.array({nest(vals, shape)}, dtype=np.{dt})"


def nest(vals, shape):
    """Nested list text of vals (row major) with this shape."""
    if not shape:
        return vals[0]
    if shape[0] == 0:
        return "[]" if len(shape) == 1 else "np.zeros(" + str(tuple(shape)) + ")"
    step = len(vals) // shape[0] if shape[0] else 0
    return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def make_array(g):
    shape = g.shape()
    dt = g.dtype()
    size = int(np.prod(shape)) if shape else 1
    c = g.r.random()
    if c < 0.4 and (size > 0 or len(shape) == 1):
        e = array_literal(g, shape, dt)
    elif c < 0.55:
        e = f"np.arange({size}, dtype=np.{dt}).reshape({shape})" if dt != "bool_" else \
            f"(np.arange({size}) % 3 == 0).reshape({shape})"
        if dt in INTS and dt[0] == "i" and g.chance(0.5):
            e = f"(np.arange({size}, dtype=np.{dt}) - {size // 2}).reshape({shape})"
    elif c < 0.75:
        if not g.seeded:
            g.emit(f"np.random.seed({g.r.randrange(1000)})", may_fail=False)
            g.seeded = True
        if dt in FLOATS:
            e = f"np.random.randn({', '.join(map(str, shape))}).astype(np.{dt})" if shape else \
                f"np.array(np.random.randn(), dtype=np.{dt})"
            if g.chance(0.4):
                e = f"np.round({e} * {g.pick([1, 10, 100])}, {g.pick([0, 1, 2])})"
        else:
            hi = {"bool_": 2, "uint8": 256}.get(dt, 20)
            lo = 0 if dt == "bool_" or dt[0] == "u" else -hi
            e = f"np.random.randint({lo}, {hi}, size={shape}).astype(np.{dt})"
    elif c < 0.85:
        fn = g.pick(["zeros", "ones", "full"])
        if fn == "full":
            e = f"np.full({shape}, {g.scalar_literal(dt)}, dtype=np.{dt})"
        else:
            e = f"np.{fn}({shape}, dtype=np.{dt})"
    elif c < 0.92:
        n = g.pick([0, 1, 2, 5, 7, 12])
        e = f"np.linspace({g.pick([-2, 0, 1.5])}, {g.pick([1, 3.25, 10])}, {n}, dtype=np.{g.pick(FLOATS)})"
    else:
        n = g.pick([1, 2, 3, 4])
        e = f"np.eye({n}, {g.pick([n, n + 1])}, {g.pick([0, 0, 1, -1])}, dtype=np.{dt})"
    g.emit(f"{g.name('a')} = {e}", may_fail=False)


def make_view(g):
    op = g.operand(view_p=0)
    if not op:
        return None
    v = view_of(g, *op)
    if v:
        g.emit(f"{g.name('v')} = {v[0]}")


def assign(g):
    """Assignment into an array through a basic index, a mask, an integer index or a view."""
    names = g.arrays(lambda v: v.ndim > 0 and v.flags.writeable)
    if not names:
        return None
    name = g.pick(names)
    val = g.ns[name]
    c = g.r.random()
    if c < 0.45:
        target = f"{name}[{basic_index(g, val.shape)}]"
    elif c < 0.6:
        target = f"{name}[{name} {g.pick(['>', '<', '!=', '=='])} {g.scalar_literal(str(val.dtype))}]"
    elif c < 0.75 and val.shape[0] > 0:
        idx = [g.r.randrange(-val.shape[0], val.shape[0]) for _ in range(g.pick([1, 2, 3]))]
        target = f"{name}[{idx}]"
    else:
        target = f"{name}[...]" if g.chance(0.5) else name
    fancy = c >= 0.45 and c < 0.75
    rhs_c = g.r.random()
    if rhs_c < 0.5:
        rhs = g.scalar_literal(str(val.dtype)) if g.chance(0.7) else g.scalar_literal(g.dtype())
    else:
        op = g.operand()
        if not op:
            return None
        rhs = op[0]
        if fancy and np.may_share_memory(op[1], val) and \
                open_gate("fancy assignment of an overlapping value"):
            return None
        if fancy and (val.size == 0 or op[1].size == 0) and \
                open_gate("fancy assignment of empty values"):
            return None
    aug = g.pick(["=", "=", "=", "+=", "-=", "*=", "//=", "%=", "**=", "&=", "|=", "/="])
    if aug == "**=" and val.dtype.kind == "f":
        aug = "*="  # float power's last bits are CPU-dependent (AVX512_UFUNCS): not stored
    if target == name and aug == "=":
        aug = "+="
    if aug != "=":
        try:
            tval = g.value(target)
            rval = g.value(rhs)
        except Exception:
            return None
        if (not broadcastable(np.shape(tval), np.shape(rval)) or
                np.broadcast_shapes(np.shape(tval), np.shape(rval)) != np.shape(tval)) and \
                open_gate("in-place op: cast error before broadcast error"):
            return None
        if not nep50_agrees(g, f"({target}) {aug[:-1]} ({rhs})"):
            return None
        if aug == "**=" and np.ndim(rval) == 0 and open_gate("x ** scalar fast paths") and \
                float(rval) in (0.5, 1.0, 2.0, -1.0, 0.0):
            return None
        if not isinstance(tval, np.ndarray) and open_gate("augmented assignment to a NumPy scalar"):
            return None
        if aug == "**=" and tval.size == 0 and tval.dtype.kind in "iu" and \
                open_gate("integer power of an empty array"):
            return None
    g.emit(f"{target} {aug} {rhs}")


# ---- ufuncs --------------------------------------------------------------------------------

UNARY = ("negative positive absolute sign sqrt cbrt square exp exp2 expm1 log log2 log10 log1p "
         "sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh floor ceil "
         "trunc rint isnan isinf isfinite signbit logical_not invert deg2rad rad2deg degrees "
         "radians fabs reciprocal").split()
BINARY = ("add subtract multiply divide true_divide floor_divide remainder mod fmod power "
          "logaddexp logaddexp2 arctan2 hypot maximum minimum fmax fmin equal not_equal less "
          "greater less_equal greater_equal logical_and logical_or logical_xor bitwise_and "
          "bitwise_or bitwise_xor left_shift right_shift copysign nextafter heaviside").split()
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==", "!=", "<",
             "<=", ">", ">="]
SIGNED_ZERO_UFUNCS = {"maximum", "minimum", "fmax", "fmin"}


def fits(v, dt):
    """Are all of float array v's values finite and within integer dtype dt's range?"""
    info = np.iinfo(dt)
    with np.errstate(invalid="ignore"):
        return bool(np.all(np.isfinite(v)) and np.all(v >= info.min) and np.all(v <= info.max))


def has_zero(*vals):
    return any(isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind == "f" and
               np.any(np.asarray(v) == 0) for v in vals)


# numpy's ufuncs that NumPy 1.24 computes with its own SIMD kernels or SVML on an AVX-512 CPU
# (tests/fuzzdiff/fuzzdiff.py says which and why, and compares their results with a tolerance)
AVX512_UFUNCS = ("exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh "
                 "tanh arcsinh arccosh arctanh cbrt power arctan2 logaddexp logaddexp2 hypot "
                 "float_power").split()

BOOL_RESULT = {"equal", "not_equal", "less", "greater", "less_equal", "greater_equal",
               "logical_and", "logical_or", "logical_xor"}


def dtype_kw_agrees(g, fn, operands, dt):
    """While "ufunc dtype= checks" is open: does NumPy's fn(*operands, dtype=dt) give what
    tsr computes, the operands cast to dt first (for the comparisons: the result cast)?"""
    ops = ", ".join(operands)
    cast = ", ".join(f"np.asarray({o}).astype(np.{dt})" for o in operands)
    other = f"np.{fn}({ops}).astype(np.{dt})" if fn in BOOL_RESULT else f"np.{fn}({cast})"
    try:
        want = g.value(f"np.{fn}({ops}, dtype=np.{dt})")
        got = g.value(other)
    except Exception:
        return False
    if not isinstance(want, (np.ndarray, np.generic)) or want.dtype != got.dtype or \
            np.shape(want) != np.shape(got):
        return False
    if want.dtype.kind == "f":
        return bool(np.array_equal(want, got, equal_nan=True) and
                    np.array_equal(np.signbit(want), np.signbit(got)))
    return bool(np.array_equal(want, got))


def ufunc_kwargs(g, result_shape, fn=None, operands=()):
    """ out=/dtype= keyword text for a ufunc call producing result_shape."""
    kw = ""
    if g.chance(0.2):
        dt = g.dtype()
        if not open_gate("ufunc dtype= checks") or dtype_kw_agrees(g, fn, operands, dt):
            kw += f", dtype=np.{dt}"
    if g.chance(0.15):
        out = g.arrays(lambda v: v.shape == result_shape and v.flags.writeable and
                       (v.ndim > 0 or not open_gate("0-d out= returns out")))
        if out:
            kw += f", out={g.pick(out)}"
    return kw


def unary_ufunc(g):
    op = g.operand()
    if not op:
        return None
    fn = g.pick(UNARY)
    if fn == "reciprocal" and op[1].dtype.kind in "iu":
        return None  # integer 1/0 is undefined behaviour in NumPy's C loop
    try:
        g.value(f"np.{fn}({op[0]})")
    except Reject:
        return None  # computed in float16 (README: tsr has none), even with out=
    except Exception:
        pass
    e = f"np.{fn}({op[0]}{ufunc_kwargs(g, op[1].shape, fn, [op[0]])})"
    show(g, e)


def binary_ufunc(g):
    a = g.operand()
    if not a:
        return None
    if g.chance(0.3):
        b = (g.scalar_operand(a[1].dtype), None)
    else:
        b = g.operand(lambda v: broadcastable(v.shape, a[1].shape))
        if not b:
            return None
    if g.chance(0.5):
        a, b = b, a
        if a[1] is None and g.chance(0.5):
            a, b = b, a
    bv = [x[1] for x in (a, b) if x[1] is not None]
    if g.chance(0.5):
        fn = g.pick(BINARY)
        if fn in SIGNED_ZERO_UFUNCS and open_gate("signed zeros of minimum/maximum/fmin/fmax/dot/inner") \
                and (has_zero(*bv) or "0.0" in a[0] + b[0]):
            return None
        try:
            shp = np.broadcast_shapes(*[v.shape for v in bv])
        except ValueError:
            shp = None
        try:
            g.value(f"np.{fn}({a[0]}, {b[0]})")
        except Reject:
            return None  # computed in float16 (README: tsr has none), even with out=
        except Exception:
            pass
        e = f"np.{fn}({a[0]}, {b[0]}{ufunc_kwargs(g, shp, fn, [a[0], b[0]])})"
    else:
        o = g.pick(OPERATORS)
        e = f"({a[0]}) {o} ({b[0]})"
    if open_gate("integer power of an empty array") and ("power" in e or "**" in e):
        if any(v.size == 0 for v in bv):
            return None
    if "**" in e and open_gate("x ** scalar fast paths"):
        try:
            ev = g.value(b[0])
            if np.ndim(ev) == 0 and float(ev) in (0.5, 1.0, 2.0, -1.0, 0.0):
                return None
        except Exception:
            pass
    show(g, e)


def broadcastable(s1, s2):
    try:
        np.broadcast_shapes(s1, s2)
        return True
    except ValueError:
        return False


def nep50_agrees(g, e):
    """Does expression e give the same value (dtype, repr) or the same error class under NumPy
    1.24's legacy promotion and under NEP 50's (np._set_promotion_state('weak'))?  DESIGN 1:
    tsr follows NEP 50 and tests avoid the cases where the two differ."""
    results = []
    for state in ("legacy", "weak"):
        np._set_promotion_state(state)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                v = eval(e, dict(g.ns))
            results.append((type(v).__name__, getattr(v, "dtype", None), repr(v)))
        except Exception as err:
            results.append(type(err).__name__)
        finally:
            np._set_promotion_state("legacy")
    return results[0] == results[1]


def show(g, e):
    """Emits a statement that shows expression e: print, repr, or its dtype and shape; not if
    e's value is one tsr documents as different (reject_reason, NEP 50)."""
    try:
        g.value(e)
    except Reject:
        return None
    except Exception:
        pass
    if not nep50_agrees(g, e):
        return None
    g.emit(show_text(g, e))


def show_text(g, e):
    """A statement that shows expression e (never stores the values of the ufuncs whose last
    bits are CPU-dependent: later arithmetic could magnify the noise past the tolerance)."""
    c = g.r.random()
    if c >= 0.8 and c < 0.9 and any(f"np.{f}(" in e for f in AVX512_UFUNCS):
        c = 0.0
    if c < 0.5:
        return f"print({e})"
    if c < 0.8:
        return f"print(repr({e}))"
    if c < 0.9:
        return f"{g.name('r')} = {e}"
    return f"print(({e}).dtype, ({e}).shape)"


# ---- reductions ----------------------------------------------------------------------------

# name: (accepts an axis tuple, extra keyword recipe)
REDUCTIONS = {
    "sum": (True, "dtype"), "prod": (True, "dtype"), "mean": (True, "dtype_f"),
    "std": (True, "ddof"), "var": (True, "ddof"), "min": (True, ""), "max": (True, ""),
    "amin": (True, ""), "amax": (True, ""), "argmin": (False, ""), "argmax": (False, ""),
    "all": (True, "out_b"), "any": (True, "out_b"), "cumsum": (False, "dtype_noaxis_keep"),
    "cumprod": (False, "dtype_noaxis_keep"), "ptp": (True, ""), "nansum": (True, "dtype"),
    "nanprod": (True, ""), "nanmean": (True, ""), "nanvar": (True, "ddof"),
    "nanstd": (True, "ddof"), "nanmin": (True, ""), "nanmax": (True, ""),
    "median": (True, ""), "nanmedian": (True, ""), "count_nonzero": (True, ""),
    "percentile": (True, "q100"), "quantile": (True, "q1"), "nanpercentile": (True, "q100"),
    "nanquantile": (True, "q1"), "average": (True, "weights"),
}
METHOD_REDUCTIONS = {"sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax",
                     "all", "any", "cumsum", "cumprod", "ptp"}
QUANTILE_METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "median_unbiased",
                    "inverted_cdf", "hazen", "weibull", "closest_observation",
                    "interpolated_inverted_cdf", "averaged_inverted_cdf", "normal_unbiased"]


def reduction(g):
    op = g.operand()
    if not op:
        return None
    expr, val = op
    fn = g.pick(REDUCTIONS)
    tuple_ok, extra = REDUCTIONS[fn]
    nd = val.ndim
    args, kw = [], []
    if extra == "q100":
        args.append(g.pick(["50", "0", "100", "[10, 90]", "33.3"]))
    elif extra == "q1":
        args.append(g.pick(["0.5", "[0.25, 0.75]", "0.0", "1.0", "0.1"]))
    if extra.startswith("q") and val.size == 0 and val.dtype == np.bool_ and \
            open_gate("percentile of an empty bool array"):
        return None
    if extra.startswith("q") and g.chance(0.4):
        kw.append(f"method='{g.pick(QUANTILE_METHODS)}'")
    c = g.r.random()
    if c < 0.3 or (nd == 0 and c < 0.8):
        pass
    elif c < 0.45:
        kw.append("axis=None")
    elif tuple_ok and nd >= 2 and c < 0.65:
        axes = g.r.sample(range(-nd, nd) if g.chance(0.3) else range(nd), g.r.randint(1, nd))
        if len({a % nd for a in axes}) == len(axes):
            kw.append(f"axis={tuple(axes)}")
    elif nd > 0:
        kw.append(f"axis={g.r.randrange(-nd, nd + (1 if g.chance(0.05) else 0))}")
    if "keep" not in extra and fn not in ("count_nonzero",) and g.chance(0.3):
        kw.append("keepdims=True")
    if fn == "count_nonzero" and g.chance(0.3) and any(k.startswith("axis") for k in kw):
        kw.append("keepdims=True")
    if extra.startswith("dtype") and g.chance(0.35):
        dt = g.pick(DTYPES if extra != "dtype_f" else FLOATS + INTS)
        if dt in INTS and val.dtype.kind == "f" and not fits(val, dt):
            dt = "float64"  # an out-of-range float -> int cast is undefined in C
        if fn == "mean" and dt not in FLOATS and open_gate("mean integer dtype"):
            dt = "float64"
        kw.append(f"dtype=np.{dt}")
    if extra == "ddof" and g.chance(0.4):
        kw.append(f"ddof={g.pick([0, 1, 2])}")
    if fn in ("std", "var") and g.chance(0.2):
        if val.dtype != np.float32 and open_gate("var/std with dtype=float32 of other data"):
            kw.append("dtype=np.float64")
        elif not open_gate("var/std integer dtype") and g.chance(0.3):
            kw.append(f"dtype=np.{g.pick(INTS)}")
        else:
            kw.append(f"dtype=np.{g.pick(FLOATS)}")
    if extra == "weights" and g.chance(0.5) and val.ndim > 0:
        ax = [k for k in kw if k.startswith("axis=") and k != "axis=None"]
        if not ax:
            kw = [k for k in kw if k != "axis=None"]
            kw.append(f"weights=np.arange(1, {val.size + 1}).reshape({val.shape})")
        kw = [k for k in kw if k != "keepdims=True"]
    if extra == "weights":
        kw = [k for k in kw if k != "keepdims=True"]
    if extra == "out_b" and g.chance(0.1) and not open_gate("any/all out="):
        pass
    if fn in ("ptp",) and val.dtype == np.bool_:
        return None
    if (fn in ("var", "std") or fn.startswith("nan")) and not val.flags.c_contiguous and \
            open_gate("K-order temporaries of var/std/nan* reductions"):
        return None
    if fn in ("min", "max", "amin", "amax", "nanmin", "nanmax", "ptp") and has_zero(val) and \
            open_gate("signed zeros of minimum/maximum/fmin/fmax/dot/inner"):
        return None
    if extra.startswith("q") or fn in ("median", "nanmedian"):
        if (val.size == 0 or (val.dtype.kind == "f" and np.any(val == 0))) and \
                open_gate("quantiles of empty or signed-zero data"):
            return None
    if fn in ("sum", "prod", "mean", "min", "max", "any", "all", "cumsum") and g.chance(0.12):
        # out=: an existing array of the result's shape
        try:
            res = g.value(f"np.{fn}({expr}{', ' if kw else ''}{', '.join(kw)})")
            shp = np.shape(res)
            # sum and prod compute in out's dtype; the others' out= of another dtype (mean's
            # float64 sum rounded into out, then divided there) is not modelled
            outs = g.arrays(lambda w: w.shape == shp and w.flags.writeable and (
                w.ndim > 0 or not open_gate("0-d out= returns out")) and (
                fn in ("sum", "prod") or w.dtype == res.dtype))
            if outs and not (fn in ("any", "all") and open_gate("any/all out=")):
                kw.append(f"out={g.pick(outs)}")
        except Exception:
            pass
    text = ", ".join(args + kw)
    if fn in METHOD_REDUCTIONS and g.chance(0.4):
        e = f"({expr}).{fn}({text})"
    else:
        e = f"np.{fn}({expr}{', ' if text else ''}{text})"
    show(g, e)


UFUNC_METHOD_OPS = ["add", "multiply", "maximum", "minimum", "subtract", "logical_and",
                    "logical_or", "bitwise_or", "bitwise_xor", "fmax", "fmin", "true_divide"]


def ufunc_method(g):
    """reduce / accumulate / outer of a binary ufunc (README: reduce takes no initial= or
    where=; arctan2.reduce is left out, its AVX-512 loop is documented as different)."""
    op = g.operand()
    if not op:
        return None
    x, v = op
    fn = g.pick(UFUNC_METHOD_OPS)
    if fn in ("maximum", "minimum", "fmax", "fmin") and has_zero(v) and \
            open_gate("signed zeros of minimum/maximum/fmin/fmax/dot/inner"):
        return None
    nd = v.ndim
    method = g.pick(["reduce", "reduce", "accumulate", "outer"])
    if method == "outer":
        y = g.operand(lambda w: w.ndim <= 2)
        if not y:
            return None
        e = f"np.{fn}.outer({x}, {y[0]})"
    else:
        kw = []
        if nd and g.chance(0.7):
            kw.append(f"axis={g.r.randrange(-nd, nd)}")
        elif method == "reduce" and g.chance(0.3):
            kw.append("axis=None")
        if method == "reduce" and g.chance(0.3):
            kw.append("keepdims=True")
        if g.chance(0.2):
            kw.append(f"dtype=np.{g.pick(FLOATS + ['int64'])}")
        e = f"np.{fn}.{method}({x}{', ' if kw else ''}{', '.join(kw)})"
    show(g, e)


def scalars(g):
    """NumPy scalars (an element of an array) in Python-level arithmetic, comparisons and
    conversions: tsr's scalar fast paths (src/lang/scalar.c)."""
    op = g.operand(lambda v: v.size > 0 and v.ndim > 0, view_p=0)
    if not op:
        return None
    x, v = op
    idx = ", ".join(str(g.r.randrange(-n, n)) for n in v.shape)
    s = f"{x}[{idx}]"
    other = g.operand(lambda w: w.size > 0 and w.ndim > 0, view_p=0)
    t = f"{other[0]}[{', '.join(str(g.r.randrange(-n, n)) for n in other[1].shape)}]" \
        if other else s
    lit = g.scalar_literal(g.pick(["int64", "float64", "bool_", str(v.dtype)]))
    o = g.pick(["+", "-", "*", "/", "//", "%", "**", "<", "==", ">=", "&", "|", "^"])
    e = g.pick([f"{s} {o} {lit}", f"{lit} {o} {s}", f"{s} {o} {t}", f"-{s}", f"abs({s})",
                f"float({s})", f"int({s})", f"bool({s})", f"{s}.item()", f"~{s}",
                f"({s}, {t})", f"[{s}, {lit}]"])
    if "**" in e and open_gate("x ** scalar fast paths"):
        return None
    show(g, e)


# ---- shape, sorting, searching, sets ---------------------------------------------------------

def shape_fn(g):
    op = g.operand()
    if not op:
        return None
    x, v = op
    nd = v.ndim
    ax = g.r.randrange(-nd, nd) if nd else 0
    zero_d = nd == 0 and open_gate("0-d results of roll/pad/broadcast_arrays/cross/nan_to_num")
    other = g.operand(lambda w: w.dtype == v.dtype or g.chance(0.3))
    y = other[0] if other else x
    choices = [
        f"np.ravel({x}, order='{g.pick('CFAK' if not open_gate('ravel order A/K') else 'CF')}')",
        f"({x}).flatten('{g.pick('CF')}')",
        f"np.squeeze({x})", f"np.expand_dims({x}, {g.r.randrange(-nd - 1, nd + 1)})",
        f"np.concatenate([{x}, {y}], axis={ax if g.chance(0.8) else None})",
        f"np.stack([{x}, {y}], axis={g.r.randrange(-nd - 1, nd + 1)})",
        f"np.vstack([{x}, {y}])", f"np.hstack([{x}, {y}])", f"np.dstack([{x}, {y}])",
        f"np.column_stack([{x}, {y}])",
        f"np.split({x}, {g.pick([1, 2, 3, '[1, 2]'])}, axis={ax})",
        f"np.array_split({x}, {g.pick([1, 2, 3])}, axis={ax})",
        f"np.tile({x}, {g.pick([2, '(2, 1)', '(1, 2, 2)', 0])})",
        f"np.repeat({x}, {g.pick([2, 0, '[1, 2]'])}, axis={ax if nd and g.chance(0.7) else None})",
        f"np.rot90({x}, {g.pick([1, 2, -1])})",
        f"np.moveaxis({x}, 0, -1)", f"np.swapaxes({x}, 0, {ax})", f"np.transpose({x})",
        f"np.flip({x})" if nd or not open_gate("flip of a 0-d array") else f"np.transpose({x})",
        f"np.atleast_1d({x})", f"np.atleast_2d({x})", f"np.atleast_3d({x})",
        f"np.where({x} > {g.scalar_literal(str(v.dtype))}, {x}, {y})",
        f"np.where({x})",
        f"np.take({x}, {g.pick(['[0, -1]', '0', '[[1, 0]]'])}, axis={ax if nd else None})",
        f"np.diag({x})", f"np.diagonal({x})", f"np.trace({x})",
        f"np.tril({x})" if nd or not open_gate("tril/triu of a 0-d array") else f"np.diag({x})",
        f"np.triu({x}, 1)" if nd or not open_gate("tril/triu of a 0-d array") else f"np.trace({x})",
        f"np.clip({x}, {g.scalar_literal(str(v.dtype))}, {g.scalar_literal(str(v.dtype))})",
        f"np.around({x}, {g.pick([0, 1, -1, 2])})",
        f"({x}).reshape({g.pick(['-1', '(1, -1)', '(-1, 1)'])})",
        f"({x}).astype(np.{g.dtype()})", f"({x}).copy()", f"np.ascontiguousarray({x})",
        f"np.zeros_like({x})", f"np.ones_like({x}, dtype=np.{g.dtype()})",
        f"np.full_like({x}, {g.scalar_literal(str(v.dtype))})",
        f"({x}).tolist()", f"({x}).item(0)" if v.size else f"({x}).size",
        f"np.broadcast_to({x}, (2,) + ({x}).shape)",
        f"({x}).T.copy().strides" if not (open_gate("strides of size-0 and fancy-indexed arrays")
                                          and (v.size == 0 or 1 in v.shape)) else f"({x}).shape",
        f"({x}).ndim, ({x}).size, ({x}).itemsize, ({x}).nbytes",
    ]
    if not zero_d:
        choices += [
            f"np.roll({x}, {g.pick([1, -2, 5])}{', axis=' + str(ax) if nd and g.chance(0.5) else ''})",
            f"np.pad({x}, {g.pick([1, '(1, 2)', 0])}, mode='{g.pick(['constant', 'edge', 'reflect', 'wrap', 'symmetric'])}')",
            f"np.broadcast_arrays({x}, {y})",
            f"np.nan_to_num({x})",
        ]
    e = g.pick(choices)
    if "np.clip" in e and "nan" in e and open_gate("clip NaN bound"):
        return None
    if "np.clip" in e and v.dtype.kind == "f" and \
            open_gate("signed zeros of minimum/maximum/fmin/fmax/dot/inner"):
        try:
            if np.any(g.value(e) == 0):
                return None  # clip is maximum then minimum: which zero comes out is item 6
        except Exception:
            pass
    show(g, e)


def sort_fn(g):
    op = g.operand()
    if not op:
        return None
    x, v = op
    nd = v.ndim
    ax = g.r.randrange(-nd, nd) if nd else -1
    lane = v.shape[ax] if nd else 1
    # README: tsr sorts stably; NumPy's default introsort puts ties of lanes longer than 16 in
    # an order of its own (seen in argsort, and in sort and unique through 0.0 and -0.0)
    kind = "" if lane <= 16 else ", kind='stable'"
    # NumPy 1.24's AVX-512 quicksort (np.sort of float32/float64 on this CPU) orders the
    # equal 0.0 and -0.0 as it likes, at any length
    if v.dtype.kind == "f" and np.any(v == 0):
        return None
    choices = [
        f"np.sort({x}, axis={ax if nd else None})", f"np.argsort({x}, axis={ax}{kind})" if nd else None,
        f"np.sort({x}, axis=None)", f"np.argsort({x}, axis=None, kind='stable')",
        f"np.unique({x})", f"np.unique({x}, return_counts=True)",
        f"np.unique({x}, return_index=True, return_inverse=True)",
        f"np.nonzero({x})", f"np.argwhere({x})", f"np.flatnonzero({x})",
        f"np.count_nonzero({x})",
    ]
    if nd and lane > 0:
        k = g.r.randrange(-lane, lane)
        choices += [f"np.partition({x}, {k}, axis={ax})", f"np.argpartition({x}, {k}, axis={ax})"]
    if nd == 1:
        s = g.value(f"np.sort({x})")
        y = g.operand(lambda w: w.dtype.kind in "biuf")
        choices += [
            f"np.searchsorted(np.sort({x}), {y[0] if y else '0'}, side='{g.pick(['left', 'right'])}')",
            f"np.digitize({y[0] if y else '0'}, np.sort({x}), right={g.pick(['False', 'True'])})"
            if not np.isnan(s.astype(float)).any() else None,
        ]
    y = g.operand()
    if y and v.dtype != y[1].dtype and ({v.dtype.kind, y[1].dtype.kind} == {"i", "u"} or any(
            w.dtype.kind in "iu" and w.size and np.abs(w.astype(float)).max() > 2.0 ** 53
            for w in (v, y[1]))) and open_gate("isin of int64 with uint64 beyond 2**53"):
        y = None
    if y and any(w.dtype.kind == "f" and np.any(w == 0) for w in (v, y[1])):
        y = None  # the same README rule, for the sort inside the set functions
    if y:
        choices += [f"np.isin({x}, {y[0]})", f"np.in1d({x}, {y[0]})",
                    f"np.intersect1d({x}, {y[0]})", f"np.union1d({x}, {y[0]})",
                    f"np.setdiff1d({x}, {y[0]})", f"np.setxor1d({x}, {y[0]})"]
    e = g.pick([c for c in choices if c])
    show(g, e)


def stats_fn(g):
    op = g.operand()
    if not op:
        return None
    x, v = op
    nd = v.ndim
    choices = []
    with np.errstate(invalid="ignore"):
        finite = v.astype(float)[np.isfinite(v.astype(float))]
    big = finite.size and np.abs(finite).max() > 2.0 ** 52
    if nd >= 1 and not (big and open_gate("histogram of int64 beyond 2**53")):
        choices.append(f"np.histogram({x}, bins={g.pick([3, 5, '[0, 1, 2, 10]'])})")
    if nd >= 1:
        choices += [f"np.diff({x}, {g.pick([1, 2])}, axis={g.r.randrange(-nd, nd)})",
                    f"np.gradient({x}.astype(np.float64))" if v.size and min(v.shape) >= 2 else None]
    if nd == 1 and v.dtype.kind in "iub":
        choices.append(f"np.bincount(np.abs({x}.astype(np.int64)) % 10)")
    if nd == 1 and v.size:
        y = g.operand(lambda w: w.ndim == 1 and w.size > 0)
        if y and min(v.size, y[1].size) >= 2 and "f" in (v.dtype.kind, y[1].dtype.kind) and \
                open_gate("convolve/correlate of floats"):
            y = None
        if y:
            choices += [f"np.convolve({x}, {y[0]}, mode='{g.pick(['full', 'same', 'valid'])}')",
                        f"np.correlate({x}, {y[0]}, mode='{g.pick(['full', 'same', 'valid'])}')",
                        f"np.interp({y[0]}, np.sort({x}.astype(np.float64)), {x})"
                        if v.dtype.kind == "f" and not np.isnan(v).any() else None]
    choices = [c for c in choices if c]
    if not choices:
        return None
    show(g, g.pick(choices))


# ---- products and linalg ---------------------------------------------------------------------

def matrix(g, n, dt):
    """A well-conditioned n x n matrix expression (diagonally dominant)."""
    if not g.seeded:
        g.emit(f"np.random.seed({g.r.randrange(1000)})", may_fail=False)
        g.seeded = True
    return f"(np.random.randn({n}, {n}) + {n + 1} * np.eye({n})).astype(np.{dt})"


NORM_KW = ["", ", ord=1", ", ord=np.inf", ", ord='fro'", ", ord=2", ", axis=0", ", ord=-1"]


def linalg(g):
    n = g.pick([1, 2, 3, 4])
    dt = g.pick(FLOATS)
    m = g.name("m")
    if not g.emit(f"{m} = {matrix(g, n, dt)}", may_fail=False):
        return None
    b = f"np.arange({n}, dtype=np.{dt})"
    e = g.pick([
        f"np.linalg.inv({m})", f"np.linalg.solve({m}, {b})", f"np.linalg.det({m})",
        f"np.linalg.slogdet({m})",
        f"np.linalg.norm({m}{g.pick(NORM_KW)})",
        f"np.linalg.matrix_rank({m})", f"np.linalg.pinv({m})",
        f"np.linalg.lstsq({m}, {b}, rcond=None)[0]", f"np.linalg.eigvalsh({m} + {m}.T)",
        f"np.linalg.svd({m}, compute_uv=False)", f"np.linalg.cholesky({m} @ {m}.T)",
        f"np.linalg.matrix_power({m}, {g.pick([0, 1, 2, 3, -1])})",
        f"np.linalg.multi_dot([{m}, {m}, {b}])" if not open_gate("multi_dot of three")
        else f"np.linalg.multi_dot([{m}, {m}])",
    ])
    show(g, e)


def product(g):
    a = g.operand(lambda v: v.ndim in (1, 2) and v.dtype.kind in "iuf")
    if not a:
        return None
    b = g.operand(lambda v: v.ndim in (1, 2) and v.dtype.kind in "iuf")
    if not b:
        return None
    # BLAS may skip a product by a zero scalar (NumPy's dot of a 1x1 by NaNs is 0): IEEE
    # propagation of NaN and inf through matrix products is not part of the contract
    if not all(np.all(np.isfinite(x[1])) for x in (a, b) if x[1].dtype.kind == "f"):
        return None
    fn = g.pick(["dot", "matmul", "inner", "outer", "vdot", "kron", "tensordot", "@", "einsum"])
    if fn == "vdot" and open_gate("vdot of strided operands") and \
            not (a[1].flags.c_contiguous and b[1].flags.c_contiguous):
        return None
    if any(x[1].size > 1 and (0 in x[1].strides or x[1].ndim == 2 and min(x[1].strides) < 0)
           for x in (a, b)) and \
            open_gate("products with a zero stride"):
        return None
    if fn == "@":
        e = f"({a[0]}) @ ({b[0]})"
    elif fn == "einsum":
        if a[1].dtype.kind == "f" or b[1].dtype.kind == "f":
            return None  # README: einsum adds float products in its own order
        sa = "ij"[:a[1].ndim]
        sb = "jk"[:b[1].ndim]
        e = f"np.einsum('{sa},{sb}', {a[0]}, {b[0]})"
    elif fn == "tensordot":
        e = f"np.tensordot({a[0]}, {b[0]}, axes={g.pick([0, 1])})"
    else:
        e = f"np.{fn}({a[0]}, {b[0]})"
    if fn not in ("outer", "kron") and "f" in (a[1].dtype.kind, b[1].dtype.kind) and \
            open_gate("signed zeros of minimum/maximum/fmin/fmax/dot/inner"):
        try:
            if np.any(np.asarray(g.value(e)) == 0):
                return None  # which zero a sum of products gives is item 6
        except Exception:
            pass
    show(g, e)


# ---- printing --------------------------------------------------------------------------------

def printopts(g):
    kw = []
    for key, vals in [("precision", [0, 1, 3, 8, 12]), ("suppress", [True, False]),
                      ("threshold", [5, 10, 1000]), ("edgeitems", [1, 2, 3]),
                      ("linewidth", [20, 40, 75, 120]), ("sign", ["'-'", "'+'", "' '"]),
                      ("floatmode", ["'maxprec'", "'fixed'", "'unique'", "'maxprec_equal'"]),
                      ("nanstr", ["'NaN'", "'nan'"]), ("infstr", ["'Inf'", "'inf'"])]:
        if g.chance(0.3):
            kw.append(f"{key}={g.pick(vals)}")
    if not kw:
        return None
    g.emit(f"np.set_printoptions({', '.join(kw)})", may_fail=False)


POSITIONAL_KW = ["", ", precision=3", ", unique=False, precision=4", ", trim='-'"]
POSITIONAL_KW_OPEN = ["", ", unique=False, precision=4", ", trim='-'"]


def show_fn(g):
    op = g.operand()
    if not op:
        return None
    x, v = op
    choices = [f"print({x})", f"print(repr({x}))", f"print(str({x}))",
               f"print(({x}).dtype, ({x}).shape)"]
    if isinstance(v, np.ndarray) or not open_gate("array_str of a NumPy scalar"):
        choices += [
            f"print(np.array2string({x}, precision={g.pick([2, 4])}, separator='{g.pick([', ', ' ', ';'])}'))",
            f"print(np.array_repr({x}))", f"print(np.array_str({x}))"]
    if v.size:
        s = f"({x}).flat[{g.r.randrange(v.size)}]" if v.flags.c_contiguous else f"({x}).ravel()[{g.r.randrange(v.size)}]"
        choices += [f"print(repr({s}))", f"print({s})"]
        if v.dtype.kind == "f":
            kws = POSITIONAL_KW_OPEN if open_gate("format_float_scientific precision") else POSITIONAL_KW
            pos = f"np.format_float_positional({s}{g.pick(kws)})"
            sci = f"np.format_float_scientific({s}{'' if open_gate('format_float_scientific precision') else g.pick(['', ', precision=2'])})"
            choices += [f"print({pos})", f"print({sci})"]
    g.emit(g.pick(choices))


# Each row: (name, weight, recipe).  A recipe appends at most one statement (through g.emit)
# and returns None; it may decline by returning without emitting.
FAMILIES = [
    ("create", 6, make_array),
    ("view", 4, make_view),
    ("assign", 5, assign),
    ("unary ufunc", 6, unary_ufunc),
    ("binary ufunc", 9, binary_ufunc),
    ("reduction", 8, reduction),
    ("ufunc method", 3, ufunc_method),
    ("scalars", 4, scalars),
    ("shape", 6, shape_fn),
    ("sort/search/set", 5, sort_fn),
    ("statistics", 3, stats_fn),
    ("product", 3, product),
    ("linalg", 2, linalg),
    ("printoptions", 1, printopts),
    ("show", 4, show_fn),
]


def program(seed, statements=None):
    """The source text of the program for this seed."""
    g = Gen(seed)
    target = statements or g.r.randint(6, 22)
    for _ in range(2):
        make_array(g)
    names = [f[0] for f in FAMILIES]
    weights = [f[1] for f in FAMILIES]
    recipes = {f[0]: f[2] for f in FAMILIES}
    tries = 0
    while len(g.lines) < target and not g.ended and tries < target * 6:
        tries += 1
        recipes[g.r.choices(names, weights)[0]](g)
    np.set_printoptions(**DEFAULT_PRINTOPTIONS)
    return "\n".join(g.lines) + "\n"


DEFAULT_PRINTOPTIONS = np.get_printoptions()


def validate(source):
    """None if every statement of source keeps to the generator's rules, else the rule a
    statement breaks (a documented difference): the minimiser's candidates must keep to them
    too, or it would shrink a bug into a documented difference.  Runs on a fresh shadow; the
    statement that raises ends the check."""
    import ast
    g = Gen(0)
    try:
        for line in source.splitlines()[1:]:
            try:
                tree = ast.parse(line)
            except SyntaxError:
                return None
            exprs = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                        node.func.id == "print":
                    exprs += node.args
            for node in ast.walk(tree):
                if isinstance(node, (ast.BinOp, ast.AugAssign)) and \
                        isinstance(node.op, ast.Pow) and open_gate("x ** scalar fast paths"):
                    try:
                        ev = g.value(ast.unparse(node.right if isinstance(node, ast.BinOp)
                                                 else node.value))
                        if np.ndim(ev) == 0 and float(ev) in (0.5, 1.0, 2.0, -1.0, 0.0):
                            return "x ** scalar fast paths"
                    except Exception:
                        pass
            for node in ast.walk(tree):
                # a loop computed in float16 (README) hides behind out= of another dtype
                if isinstance(node, ast.Call) and any(k.arg == "out" for k in node.keywords):
                    bare = ast.Call(node.func, node.args,
                                    [k for k in node.keywords if k.arg != "out"])
                    try:
                        if reject_reason(g.value(ast.unparse(bare))):
                            return "float16 behind out="
                    except Reject:
                        return "float16 behind out="
                    except Exception:
                        pass
            st = tree.body[0] if tree.body else None
            if isinstance(st, ast.Assign):
                exprs.append(st.value)
            elif isinstance(st, ast.AugAssign):
                exprs.append(ast.BinOp(st.target, st.op, st.value))
            for e in exprs:
                text = ast.unparse(e)
                if text.startswith("repr(") and isinstance(e, ast.Call):
                    text = ast.unparse(e.args[0]) if e.args else text
                try:
                    reason = reject_reason(g.value(text))
                except Reject as r:
                    return str(r)
                except Exception:
                    continue
                if reason:
                    return reason
                if not nep50_agrees(g, text):
                    return "NEP 50"
            try:
                g.shadow(line)
            except Reject as r:
                return str(r)
            except Exception:
                return None
        return None
    finally:
        np.set_printoptions(**DEFAULT_PRINTOPTIONS)

if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["1"]:
        print(program(int(s)))
