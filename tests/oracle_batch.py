#!/usr/bin/python3
"""The differential pass of tests/run: re-run every golden program under the NumPy oracle.

Usage: /usr/bin/python3 tests/oracle_batch.py PATH/TO/numpy-run < list-of-.tsr-files

For speed all programs run in this one process: the PRELUDE string is taken from numpy-run's
own source, and each program is exec'd in a fresh scope with stdout captured and exceptions
caught.  A program fails when the oracle's stdout differs from its .out, or when its
`# expect error: Kind[: message]` annotation disagrees with what the oracle raised (NumPy
subclasses are written `AxisError (ValueError)` in tsr; only the first name is compared).
Prints one line per failure, then `oracle_batch: N passed, N failed`.
"""
import ast
import builtins
import contextlib
import difflib
import io
import sys
import warnings


def load_prelude(oracle_path):
    """The PRELUDE string assigned at the top level of numpy-run."""
    with open(oracle_path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "PRELUDE" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("oracle_batch: no PRELUDE in " + oracle_path)


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
    IndentationError is a SyntaxError), else an exception of that exact class name."""
    base = getattr(builtins, kind, None)
    if isinstance(base, type) and issubclass(base, BaseException):
        return isinstance(error, base)
    return type(error).__name__ == kind


def run_one(prelude_code, path):
    """Runs one program; returns (stdout text, exception or None)."""
    import numpy
    with open(path, encoding="utf-8") as f:
        source = f.read()
    scope = {"__name__": "__main__"}
    exec(prelude_code, scope)
    buf = io.StringIO()
    error = None
    saved_options = numpy.get_printoptions()
    saved_errors = numpy.geterr()   # a program's seterr must not leak into the next one
    saved_argv = sys.argv
    sys.argv = [path]
    try:
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, path, "exec"), scope)
    except SystemExit:
        pass
    except BaseException as e:  # the program's own error is the value under test
        if isinstance(e, KeyboardInterrupt):
            raise
        error = e
    finally:
        sys.argv = saved_argv
        numpy.set_printoptions(**saved_options)
        numpy.seterr(**saved_errors)
    return source, buf.getvalue(), error


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    prelude_code = compile(load_prelude(argv[1]), "<prelude>", "exec")
    sys.setrecursionlimit(1000)
    passed = failed = 0
    for path in (line.strip() for line in sys.stdin):
        if not path:
            continue
        problems = []
        try:
            source, got, error = run_one(prelude_code, path)
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
        if want is not None and got != want:
            diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                             ".out", "oracle", n=0, lineterm=""))
            problems.append("oracle stdout differs from .out:\n    "
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
