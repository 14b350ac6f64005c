#!/usr/bin/python3
"""The differential AST test: tsr's parser against CPython 3.11's on a corpus of files.

Usage: /usr/bin/python3 tests/ast/diff.py BUILD/tests/ast_dump [--full] [FILE...]

For each file, tsr's tree (ast_dump.c, in the format of ast.dump) must be CPython's
ast.dump(ast.parse(source), include_attributes=True) without the end positions (and without
the positions of import aliases, which tsr does not keep): the same nodes, fields and lineno
and col_offset of every statement, expression, argument, keyword and handler (tsr counts
columns in characters; they are turned into UTF-8 byte offsets here, as Python's).  A file
CPython rejects must be rejected by tsr too.  tsr's dump is
evaluated with the ast module's names and dumped again, so that the comparison does not depend
on how a constant is spelled (tsr escapes every non-ASCII character).  Files that use what tsr
does not parse on purpose (async/await, match, \\N{...} escapes, source encodings other than
UTF-8; DESIGN.md section 1) are counted as skipped when tsr says so.
The corpus: tests/ast/corpus/*.py, and the Python files of /usr/lib/python3.11 (every 25th
without --full).  Prints each failure, then `unit ast_diff: N passed, N failed`.
"""
import ast
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STDLIB = "/usr/lib/python3.11"
UNSUPPORTED = (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await, ast.Match)
END = re.compile(r", end_lineno=\d+, end_col_offset=\d+")
ALIAS = re.compile(r"(alias\(name='[^']*'(?:, asname='[^']*')?), lineno=\d+, col_offset=\d+")
POSITION = re.compile(r"lineno=(\d+), col_offset=(\d+)")


def python_dump(tree):
    """The dump compared: without end positions, alias positions, and positions inside format
    specs (CPython 3.11 gives a spec on a continued line the line after the field's)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            for sub in ast.walk(node.format_spec):
                for attr in ("lineno", "col_offset"):
                    if hasattr(sub, attr):
                        delattr(sub, attr)
    return ALIAS.sub(r"\1", END.sub("", ast.dump(tree, include_attributes=True)))


def byte_columns(text, lines):
    """tsr's character columns as Python's UTF-8 byte offsets."""
    def fix(m):
        line, col = int(m.group(1)), int(m.group(2))
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        return "lineno=%d, col_offset=%d" % (line, len(src[:col].encode("utf-8")))
    return POSITION.sub(fix, text)


def corpus(full):
    files = sorted(glob.glob(os.path.join(HERE, "corpus", "*.py")))
    lib = sorted(glob.glob(os.path.join(STDLIB, "**", "*.py"), recursive=True))
    return files + (lib if full else lib[::25])


def python_tree(path):
    """('OK', dump, tree) or ('ERR', message, None)."""
    with open(path, "rb") as f:
        src = f.read()
    try:
        tree = ast.parse(src, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        return "ERR", "%s: %s" % (type(e).__name__, e), None
    return "OK", python_dump(tree), tree


def skip_reason(path, tree, message):
    if tree is not None and any(isinstance(n, UNSUPPORTED) for n in ast.walk(tree)):
        return "async/match"
    if "not supported by tsr" in message:
        return "unsupported: " + message
    if "'utf-8' codec" in message:
        with open(path, "rb") as f:
            head = f.read(200)
        if b"coding" in head:
            return "source encoding"
    return None


def first_difference(a, b):
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    lo = max(0, i - 80)
    return "    python: ...%s\n    tsr:    ...%s" % (a[lo:i + 80], b[lo:i + 80])


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    dump_bin = args.pop(0)
    full = "--full" in args
    files = [a for a in args if a != "--full"] or corpus(full)
    passed = failed = skipped = 0
    reasons = {}
    for start in range(0, len(files), 200):
        batch = files[start:start + 200]
        out = subprocess.run([dump_bin, "-p"] + batch, capture_output=True, timeout=600).stdout
        lines = out.decode("utf-8", "replace").split("\n")
        for i, path in enumerate(batch):
            line = lines[i] if i < len(lines) else "ERR\tno output (crash?)"
            status, _, text = line.partition("\t")
            pstatus, ptext, tree = python_tree(path)
            problem = None
            if status == "ERR":
                reason = skip_reason(path, tree, text)
                if pstatus == "ERR":
                    pass
                elif reason:
                    skipped += 1
                    reasons[reason.split(":")[0]] = reasons.get(reason.split(":")[0], 0) + 1
                    continue
                else:
                    problem = "tsr rejects it: " + text
            elif pstatus == "ERR":
                problem = "Python rejects it (%s), tsr accepts it" % ptext
            else:
                try:
                    with open(path, "rb") as f:
                        source_lines = f.read().decode("utf-8", "replace").split("\n")
                    mine = byte_columns(python_dump(eval(text, vars(ast))), source_lines)
                except Exception as e:  # a dump that is not a valid tree is a failure
                    mine = "<unreadable dump: %s> %s" % (e, text[:300])
                if mine != ptext:
                    problem = "trees differ\n" + first_difference(ptext, mine)
            if problem:
                failed += 1
                print("FAIL %s: %s" % (path, problem))
            else:
                passed += 1
    if skipped:
        print("ast_diff: skipped %d (%s)" % (skipped, ", ".join("%s %d" % kv for kv in sorted(reasons.items()))))
    print("unit ast_diff: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
