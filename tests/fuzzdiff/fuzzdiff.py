#!/usr/bin/python3
"""The differential fuzzer: random programs (gen.py) run under tsr and under the NumPy oracle.

Usage: /usr/bin/python3 tests/fuzzdiff/fuzzdiff.py [--seed S] [--n N] [--tsr build/tsr]
           [--jobs 2] [--out DIR] [--keep] [--quiet]
       /usr/bin/python3 tests/fuzzdiff/fuzzdiff.py --min FILE.tsr   (minimise one program)

Program i of a run is gen.program("S-i"), so a seed and an index name a program for ever (as
long as gen.py does not change).  Each runs as `tsr FILE` (--jobs at a time) and in this one
Python process as the oracle would run it (tests/oracle_batch.py's run_one, with numpy-run's
prelude and namespace rule); stdout must be equal byte for byte, and both must succeed, or
fail with the same exception class (tsr's `Kind` names the oracle's class or one of its bases,
as the goldens' `# expect error:` does).  A crash or a timeout of tsr is always a difference.

Documented differences are filtered by rule (`explain`), never by listing programs:
- NEP 50 (DESIGN 1): NumPy 1.24 has NEP 50's promotion behind `np._set_promotion_state('weak')`;
  a program that prints under it what tsr prints is a promotion difference, not a bug.
- AVX-512 float noise (README): the ufuncs in AVX512_UFUNCS run NumPy's own SIMD kernels on a
  CPU with AVX-512 (tsr calls libm), which differ from libm in the last bit for some inputs; a
  program using one of them whose output agrees number by number within NOISE_RTOL is noise.
The generator keeps away from the rest of README's known differences and from the open items
of issue 24 (gen.KNOWN_OPEN).

Every other difference is minimised (delta debugging over statements, then over expressions:
dropped keywords, print arguments, a call or operator replaced by an operand) and the
minimal program is written to DIR/fuzzdiff-S-i.tsr and printed.  Ends with one line
`fuzzdiff: N passed, N failed` (filtered counts after it); exits 1 if anything failed.
"""
import argparse
import ast
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

try:
    import numpy as np  # noqa: E402
except ImportError:
    print("fuzzdiff: skipped (no NumPy in this Python: apt-get install python3-numpy)")
    sys.exit(0)

import gen  # noqa: E402
import numclose  # noqa: E402
import oracle_batch  # noqa: E402



def find_oracle():
    """numpy-run: $TSR_ORACLE, else shared/oracle/numpy-run beside the checkout or beside one of
    its parent folders (a worktree lives one level further down than the main checkout)."""
    if os.environ.get("TSR_ORACLE"):
        return os.environ["TSR_ORACLE"]
    d = ROOT
    for _ in range(3):
        d = os.path.dirname(d)
        path = os.path.join(d, "shared", "oracle", "numpy-run")
        if os.path.exists(path):
            return path
    return None


ORACLE = find_oracle()

# NumPy 1.24 on an AVX-512 CPU (AVX512F/AVX512_SKX dispatch) computes these with its own SIMD
# kernels or Intel's SVML instead of libm: exp/log (float32 and float64), sin/cos (float32),
# and through SVML the float64 and float32 exp2 log2 log10 expm1 log1p cbrt tan arcsin arccos
# arctan sinh cosh tanh arcsinh arccosh arctanh and power/arctan2.  Their last bit may differ
# from glibc's, and a printed sum (or a quotient, a variance) of such values shows it.
AVX512_UFUNCS = gen.AVX512_UFUNCS
AVX512_RE = re.compile(r"np\.(?:" + "|".join(AVX512_UFUNCS) + r")\(|\*\*")
# A last-bit difference in float32 (2**-23) amplified a few times by what follows.
NOISE_RTOL, NOISE_ATOL = 1e-5, 1e-12


class Result:
    """What one run printed: stdout, the exception class name (or None) and a note for a crash
    or a timeout (tsr only)."""

    def __init__(self, stdout, kind, error=None, problem=None):
        self.stdout, self.kind, self.error, self.problem = stdout, kind, error, problem


# numpy-run's prelude and namespace rule (oracle_batch.load_oracle), loaded by main
PRELUDE = None


def run_oracle(path, weak=False):
    """The oracle's Result for the program at path; weak: under NEP 50 promotion."""
    if weak:
        np._set_promotion_state("weak")
    try:
        _, out, error, _ = oracle_batch.run_one(PRELUDE, path)
    finally:
        if weak:
            np._set_promotion_state("legacy")
    return Result(out, type(error).__name__ if error is not None else None, error)


def run_tsr(tsr, path, timeout=20):
    """tsr's Result for the program at path."""
    try:
        p = subprocess.run([tsr, path], capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        return Result((e.stdout or b"").decode("utf-8", "replace"), None, problem=f"timed out after {timeout}s")
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode == 0:
        return Result(out, None)
    if p.returncode != 1:
        sig = f"killed by signal {-p.returncode}" if p.returncode < 0 else f"exit status {p.returncode}"
        return Result(out, None, problem=sig + ": " + err[-300:])
    last = err.rstrip("\n").rsplit("\n", 1)[-1]
    kind = re.split(r"[: ]", last, 1)[0]
    return Result(out, kind, error=last)


def same(o, t):
    """True if the oracle's and tsr's results agree (stdout and the error class)."""
    if t.problem or o.stdout != t.stdout:
        return False
    if o.kind is None or t.kind is None:
        return o.kind == t.kind
    return oracle_batch.raised_kind(o.error, t.kind)


def explain(source, path, o, t):
    """The documented difference (a rule's name) that accounts for o != t, or None."""
    if t.problem:
        return None
    if AVX512_RE.search(source) and o.kind == t.kind and \
            numclose.compare(o.stdout, t.stdout, NOISE_RTOL, NOISE_ATOL) is None:
        return "AVX-512 float noise"
    w = run_oracle(path, weak=True)
    if same(w, t):
        return "NEP 50 promotion"
    if AVX512_RE.search(source) and w.kind == t.kind and \
            numclose.compare(w.stdout, t.stdout, NOISE_RTOL, NOISE_ATOL) is None:
        return "NEP 50 promotion + AVX-512 float noise"
    return None


def check(tsr, source, tmpdir, name="min"):
    """(oracle Result, tsr Result, explanation) for a program text, or None when they agree."""
    path = os.path.join(tmpdir, name + ".tsr")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    t = run_tsr(tsr, path)
    o = run_oracle(path)
    if same(o, t):
        return None
    return o, t, explain(source, path, o, t)


# ---- minimisation ----------------------------------------------------------------------------

def ddmin(items, interesting, budget):
    """Delta debugging (Zeller's ddmin): a small sublist of items that is still interesting."""
    n = 2
    while len(items) >= 2 and budget[0] > 0:
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            rest = items[:start] + items[start + chunk:]
            if rest and interesting(rest):
                items, n, reduced = rest, max(n - 1, 2), True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def expression_variants(stmt):
    """Simpler versions of one statement: one keyword dropped, one print argument kept, a call,
    operator or subscript replaced by one of its operands."""
    try:
        tree = ast.parse(stmt)
    except SyntaxError:
        return
    nodes = [n for n in ast.walk(tree)]
    for i, node in enumerate(nodes):
        if isinstance(node, ast.Call):
            for k in range(len(node.keywords)):
                t2 = ast.parse(stmt)
                n2 = [n for n in ast.walk(t2)][i]
                del n2.keywords[k]
                yield ast.unparse(t2)
            if isinstance(node.func, ast.Name) and node.func.id == "print" and len(node.args) > 1:
                for k in range(len(node.args)):
                    t2 = ast.parse(stmt)
                    n2 = [n for n in ast.walk(t2)][i]
                    n2.args = [n2.args[k]]
                    yield ast.unparse(t2)
    # replace an inner expression by one of its operands
    for i, node in enumerate(nodes):
        if isinstance(node, (ast.Call, ast.BinOp, ast.Subscript, ast.Attribute, ast.Compare,
                             ast.UnaryOp)):
            kids = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)
                    and not (isinstance(node, ast.Call) and c is node.func)]
            for c in kids:
                # np and np.NAME (a module, a function or a type) are not values under test
                if isinstance(c, ast.Constant) or (isinstance(c, ast.Name) and c.id == "np") or \
                        (isinstance(c, ast.Attribute) and isinstance(c.value, ast.Name)
                         and c.value.id == "np"):
                    continue
                t2 = ast.parse(stmt)
                walk2 = [n for n in ast.walk(t2)]
                target = walk2[i]
                repl = walk2[nodes.index(c)]
                if replace_node(t2, target, repl):
                    yield ast.unparse(t2)


def replace_node(tree, old, new):
    """Replaces node old by new in tree (in place); True if found."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return True
            if isinstance(value, list):
                for k, v in enumerate(value):
                    if v is old:
                        value[k] = new
                        return True
    return False


def symptom(o, t):
    """The kind of a difference: which exception each side raised, and whether tsr crashed.
    A minimised program must keep it, so that removing a definition (NameError in both, then
    a missing feature in tsr) does not pass for the bug."""
    return o.kind, t.kind, bool(t.problem)


def minimise(tsr, source, tmpdir, budget_runs=400):
    """A small program that still shows an unexplained difference of the same symptom
    (source must show one)."""
    lines = source.rstrip("\n").split("\n")
    # the import, and the seed of np.random (else tsr seeds itself from the OS: not repeatable)
    head = [ln for ln in lines if ln.startswith(("import ", "np.random.seed("))]
    body = [ln for ln in lines if ln not in head]
    budget = [budget_runs]
    first = check(tsr, source, tmpdir, "probe")
    want = symptom(first[0], first[1])

    def interesting(stmts):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        source = "\n".join(head + stmts) + "\n"
        if gen.validate(source) is not None:
            return False
        r = check(tsr, source, tmpdir, "probe")
        return r is not None and r[2] is None and symptom(r[0], r[1]) == want

    body = ddmin(body, interesting, budget)
    changed = True
    while changed and budget[0] > 0:
        changed = False
        for k in range(len(body)):
            for v in expression_variants(body[k]):
                if budget[0] <= 0:
                    break
                trial = body[:k] + [v] + body[k + 1:]
                if v != body[k] and interesting(trial):
                    body, changed = trial, True
                    break
            if changed:
                break
        if not changed:
            smaller = ddmin(body, interesting, budget)
            if len(smaller) < len(body):
                body, changed = smaller, True
    return "\n".join(head + body) + "\n"


def report(tsr, source, tmpdir, outdir, label, quiet=False):
    """Minimises an unexplained difference, writes the repro, prints it."""
    small = minimise(tsr, source, tmpdir)
    r = check(tsr, small, tmpdir, "final")
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, f"fuzzdiff-{label}.tsr")
    with open(path, "w", encoding="utf-8") as f:
        f.write(small)
    print(f"FAIL fuzzdiff {label}: minimised to {path}")
    print("    " + small.rstrip("\n").replace("\n", "\n    "))
    if r:
        o, t, _ = r
        print(f"    oracle: {o.stdout[-600:]!r} {o.kind or ''} {o.error if o.kind else ''}")
        print(f"    tsr:    {t.stdout[-600:]!r} {t.problem or t.error or ''}")
    return small


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", default=None)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--tsr", default=os.path.join(ROOT, "build", "tsr"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzzdiff"))
    ap.add_argument("--min", default=None, help="minimise this program instead")
    ap.add_argument("--max-reports", type=int, default=10)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv[1:])
    global PRELUDE
    if ORACLE is None:
        print("fuzzdiff: skipped (no shared/oracle/numpy-run found; set TSR_ORACLE)")
        return 0
    PRELUDE = oracle_batch.load_oracle(ORACLE)
    sys.setrecursionlimit(1000)
    tsr = os.path.abspath(args.tsr)
    if not os.access(tsr, os.X_OK):
        print(f"fuzzdiff: {tsr} is missing")
        return 2
    with tempfile.TemporaryDirectory(prefix="fuzzdiff.") as tmpdir:
        if args.min:
            with open(args.min, encoding="utf-8") as f:
                source = f.read()
            if check(tsr, source, tmpdir) is None:
                print("fuzzdiff: no difference to minimise")
                return 1
            report(tsr, source, tmpdir, args.out, "min")
            return 0
        seed = args.seed if args.seed is not None else str(int.from_bytes(os.urandom(4), "big"))
        print(f"fuzzdiff: seed {seed}, {args.n} programs")
        sys.stdout.flush()
        passed = failed = 0
        filtered = {}
        reported = 0
        start = time.time()
        pool = concurrent.futures.ThreadPoolExecutor(max(1, args.jobs))
        chunk = 40
        for base in range(0, args.n, chunk):
            batch = []
            for i in range(base, min(args.n, base + chunk)):
                label = f"{seed}-{i}"
                source = gen.program(label)
                path = os.path.join(tmpdir, f"p{i}.tsr")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(source)
                batch.append((label, source, path, pool.submit(run_tsr, tsr, path)))
            for label, source, path, fut in batch:
                o = run_oracle(path)
                t = fut.result()
                if same(o, t):
                    passed += 1
                    continue
                why = explain(source, path, o, t)
                if why:
                    filtered[why] = filtered.get(why, 0) + 1
                    passed += 1
                    continue
                failed += 1
                if reported < args.max_reports:
                    reported += 1
                    report(tsr, source, tmpdir, args.out, label, args.quiet)
                else:
                    print(f"FAIL fuzzdiff {label} (not minimised: --max-reports)")
                sys.stdout.flush()
        pool.shutdown()
        notes = ", ".join(f"{v} {k}" for k, v in sorted(filtered.items()))
        print(f"fuzzdiff: seed {seed}: {args.n} programs in {time.time() - start:.0f} s"
              + (f"; filtered as documented: {notes}" if notes else ""))
        print(f"fuzzdiff: {passed} passed, {failed} failed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
