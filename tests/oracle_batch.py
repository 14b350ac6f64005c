#!/usr/bin/python3
"""The differential pass of tests/run: re-run every golden program under the NumPy oracle.

Usage: /usr/bin/python3 tests/oracle_batch.py PATH/TO/numpy-run < list
Each line of the list: a .tsr file, optionally followed by a file holding tsr's stdout for it.

For speed all programs run in this one process: the PRELUDE string is taken from numpy-run's
own source, and each program is exec'd in a fresh scope with stdout captured and exceptions
caught.  A program fails when the oracle's stdout differs from its .out, or when its
`# expect error: Kind[: message]` annotation disagrees with what the oracle raised (NumPy
subclasses are written `AxisError (ValueError)` in tsr; only the first name is compared), or,
for a program with a .err file (the warnings it prints on stderr), when the oracle's stderr
under Python's default warning filters differs from it.  A program with a
`# tolerance: rtol=R atol=A` line (its last digits depend on the CPU's BLAS/LAPACK kernels) is
compared with its .out within that tolerance (numclose.py), and, when tsr's stdout is given,
the oracle's stdout must equal it byte for byte (both ran on this CPU).
Prints one line per failure, then `oracle_batch: N passed, N failed`.
"""
import ast
import builtins
import contextlib
import difflib
import io
import os
import sys
import tempfile
import warnings

import numclose


def load_oracle(oracle_path):
    """numpy-run's PRELUDE and STAR strings and its imports_numpy function (DESIGN §1's
    namespace rule: a program that imports numpy runs without the STAR line), taken from
    numpy-run's own source so that the two cannot drift apart."""
    with open(oracle_path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("PRELUDE", "STAR"):
            found[node.targets[0].id] = ast.literal_eval(node.value)
        if isinstance(node, ast.FunctionDef) and node.name == "imports_numpy":
            scope = {"ast": ast}
            exec(compile(ast.Module(body=[node], type_ignores=[]), oracle_path, "exec"), scope)
            found["imports_numpy"] = scope["imports_numpy"]
    if len(found) != 3:
        raise SystemExit("oracle_batch: no PRELUDE, STAR or imports_numpy in " + oracle_path)
    return found


def prelude_for(oracle, source, path):
    """The prelude numpy-run runs before this program."""
    if oracle["imports_numpy"](source, path):
        return oracle["PRELUDE"].replace(oracle["STAR"], "", 1)
    return oracle["PRELUDE"]


def expectation(source):
    """(kind, message or None) from the last `# expect error:` comment, or None."""
    found = None
    for line in source.splitlines():
        if line.startswith("# expect error:"):
            found = line[len("# expect error:"):].strip()
    if found is None:
        return None
    kind, sep, message = found.partition(": ")
    kind = kind.split(" (")[0].strip()
    return kind, (message if sep else None)


def raised_kind(error, kind):
    """True if error is the kind named: a built-in exception class (subclasses included, so an
    IndentationError is a SyntaxError), else an exception of that exact class name (or
    qualified name: NumPy's _UFuncOutputCastingError calls itself UFuncTypeError)."""
    base = getattr(builtins, kind, None)
    if isinstance(base, type) and issubclass(base, BaseException):
        return isinstance(error, base)
    return kind in (type(error).__name__, type(error).__qualname__)


def run_one(oracle, path, want_stderr=False):
    """Runs one program; returns (source, stdout text, exception or None, stderr text).
    Warnings are ignored, unless want_stderr: then Python's default filters apply and file
    descriptor 2 is captured (NumPy's seterr 'print' mode writes there from C), as numpy-run
    would write them; else the stderr text is ""."""
    import numpy
    with open(path, encoding="utf-8") as f:
        source = f.read()
    scope = {"__name__": "__main__"}
    exec(compile(prelude_for(oracle, source, path), "<prelude>", "exec"), scope)
    buf = io.StringIO()
    error = None
    saved_options = numpy.get_printoptions()
    saved_errors = numpy.geterr()   # a program's seterr must not leak into the next one
    saved_argv = sys.argv
    sys.argv = [path]
    err_file = tempfile.TemporaryFile() if want_stderr else None
    saved_fd = None
    try:
        if err_file:
            sys.stderr.flush()
            saved_fd = os.dup(2)
            os.dup2(err_file.fileno(), 2)
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            if not want_stderr:
                warnings.simplefilter("ignore")
            exec(compile(source, path, "exec"), scope)
    except SystemExit:
        pass
    except BaseException as e:  # the program's own error is the value under test
        if isinstance(e, KeyboardInterrupt):
            raise
        error = e
    finally:
        if saved_fd is not None:
            sys.stderr.flush()
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        sys.argv = saved_argv
        numpy.set_printoptions(**saved_options)
        numpy.seterr(**saved_errors)
    err_text = ""
    if err_file:
        err_file.seek(0)
        err_text = err_file.read().decode("utf-8", "replace")
        err_file.close()
    return source, buf.getvalue(), error, err_text


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    oracle = load_oracle(argv[1])
    sys.setrecursionlimit(1000)
    passed = failed = 0
    for line in sys.stdin:
        fields = line.split()
        if not fields:
            continue
        path, live_path = fields[0], (fields[1] if len(fields) > 1 else None)
        problems = []
        err_path = path[:-4] + ".err" if path.endswith(".tsr") else path + ".err"
        want_err = None
        if os.path.exists(err_path):
            with open(err_path, encoding="utf-8") as f:
                want_err = f.read()
        try:
            source, got, error, got_err = run_one(oracle, path, want_err is not None)
        except OSError as e:
            print(f"FAIL oracle {path}: {e}")
            failed += 1
            continue
        want_path = path[:-4] + ".out" if path.endswith(".tsr") else path + ".out"
        try:
            with open(want_path, encoding="utf-8") as f:
                want = f.read()
        except OSError:
            want = None
            problems.append("missing " + want_path)
        tol = numclose.tolerance(source)
        if tol is not None and want is not None:
            why = numclose.compare(want, got, *tol) if got != want else None
            if why:
                problems.append("oracle stdout differs from .out beyond the tolerance: " + why)
            if live_path:
                with open(live_path, encoding="utf-8") as f:
                    live = f.read()
                if live != got:
                    diff = list(difflib.unified_diff(live.splitlines(), got.splitlines(),
                                                     "tsr", "oracle", n=0, lineterm=""))
                    problems.append("oracle stdout differs from tsr's on this machine:\n    "
                                    + "\n    ".join(diff[2:12]))
        elif want is not None and got != want:
            diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                             ".out", "oracle", n=0, lineterm=""))
            problems.append("oracle stdout differs from .out:\n    "
                            + "\n    ".join(diff[2:12]))
        if want_err is not None and got_err != want_err:
            diff = list(difflib.unified_diff(want_err.splitlines(), got_err.splitlines(),
                                             ".err", "oracle", n=0, lineterm=""))
            problems.append("oracle stderr differs from .err:\n    "
                            + "\n    ".join(diff[2:12]))
        expect = expectation(source)
        if expect is None and error is not None:
            problems.append(f"oracle raised {type(error).__name__}: {error}")
        elif expect is not None:
            kind, message = expect
            if error is None:
                problems.append(f"oracle raised nothing, want {kind}")
            elif not raised_kind(error, kind):
                problems.append(f"oracle raised {type(error).__name__}: {error}, want {kind}")
            elif message is not None and kind != "SyntaxError" and str(error).rstrip() != message.rstrip():
                problems.append(f"oracle message [{error}], want [{message}]")
        if problems:
            failed += 1
            print(f"FAIL oracle {path}: " + "; ".join(problems))
        else:
            passed += 1
    print(f"oracle_batch: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
