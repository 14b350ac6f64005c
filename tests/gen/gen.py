#!/usr/bin/python3
"""Generates tsr's golden corpus: tests/scripts/<category>/<name>.tsr and .out.

The programs come from tests/gen/<category>.txt, where each program starts with a line
`=== name` (optionally followed by `!error`: the program must fail, and the last line of the
oracle's stderr becomes its `# expect error:` comment; or `!kind`: the same with the kind only),
and from the parametric generators below.  Every .out is produced by running the NumPy oracle
(../shared/oracle/numpy-run FILE.tsr > FILE.out); a program that writes to stderr without being
marked as an error, or that is marked and does not fail, is reported and not written.

Usage: /usr/bin/python3 tests/gen/gen.py [CATEGORY...]   (from anywhere; default: all)
"""
import concurrent.futures
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ORACLE = os.path.join(os.path.dirname(ROOT), "shared", "oracle", "numpy-run")
SCRIPTS = os.path.join(ROOT, "tests", "scripts")


def parse(path):
    """[(name, mode, source)] from one corpus text file; mode is '', 'error' or 'kind'."""
    programs, name, mode, lines = [], None, "", []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("=== "):
                if name:
                    programs.append((name, mode, "".join(lines)))
                words = line[4:].split()
                name, mode, lines = words[0], (words[1][1:] if len(words) > 1 else ""), []
            else:
                lines.append(line)
    if name:
        programs.append((name, mode, "".join(lines)))
    return programs


# ---- parametric programs -------------------------------------------------------------------

def reductions():
    out = []
    shapes = {"v6": "arange(6) - 2", "m34": "arange(12).reshape(3, 4) % 5",
              "t234": "arange(24).reshape(2, 3, 4) % 7"}
    axes = {"v6": [None, 0, -1], "m34": [None, 0, 1, -1], "t234": [None, 0, 1, 2, (0, 2)]}
    for key, expr in shapes.items():
        for fn in ["sum", "prod", "max", "min", "mean", "all", "any"]:
            lines = [f"x = {expr}"]
            for ax in axes[key]:
                if ax is None:
                    lines.append(f"print({fn}(x))")
                    lines.append(f"print(x.{fn}(keepdims=True).shape)")
                else:
                    lines.append(f"print({fn}(x, axis={ax!r}))")
                    lines.append(f"print(x.{fn}(axis={ax!r}, keepdims=True))")
            out.append((f"{fn}_{key}", "", "\n".join(lines) + "\n"))
        for fn in ["argmax", "argmin", "cumsum"]:
            lines = [f"x = {expr}", f"print({fn}(x))"]
            for ax in axes[key]:
                if isinstance(ax, int):
                    lines.append(f"print(x.{fn}(axis={ax}))")
            out.append((f"{fn}_{key}", "", "\n".join(lines) + "\n"))
    for key, expr in shapes.items():
        lines = [f"x = ({expr}) * 0.5"]
        for ax in axes[key]:
            a = "" if ax is None else f"axis={ax!r}"
            lines.append(f"print(std(x{', ' if a else ''}{a}))")
            lines.append(f"print(x.var({a}))")
        out.append((f"stdvar_{key}", "", "\n".join(lines) + "\n"))
    dts = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]
    for dt in dts:
        src = (f"x = (arange(12).reshape(3, 4) % 3).astype({dt})\n"
               "s = x.sum()\nprint(s, s.dtype)\n"
               "print(x.sum(axis=0), x.sum(axis=0).dtype)\n"
               "print(x.prod(axis=1).dtype, x.max().dtype, x.mean().dtype)\n"
               "print(x.cumsum().dtype, x.mean(axis=1))\n")
        out.append((f"dtype_{dt}", "", src))
    return out


def printing():
    out = []
    dts = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64"]
    for dt in dts:
        src = (f"x = arange(-3, 9).reshape(3, 4).astype({dt})\n"
               "print(x)\nprint(repr(x))\nprint(x[0])\nprint(repr(x[0]))\n"
               "print(x[1, 2])\nprint(repr(x[1, 2]))\nprint(x.reshape(2, 3, 2))\n"
               "print(repr(x.reshape(2, 1, 6)))\nprint(x.dtype, repr(x.dtype))\n"
               "print(repr(x[:0]))\nprint(x[:0])\n")
        if dt.startswith("u"):
            src = src.replace("arange(-3, 9)", "arange(0, 12)")
        out.append((f"dtype_{dt}", "", src))
    floats = {
        "plain": "[1.0, 2.5, -3.0]", "ints_as_float": "[1.0, 2.0, 3.0]",
        "small": "[0.1, 0.001, 0.0001]", "tiny": "[1e-5, 1.0]", "sci_big": "[1e16, 1.0]",
        "ratio": "[1.0, 1000.0]", "ratio2": "[1.0, 1001.0]", "big_no_sci": "[123456789.123, 1.5]",
        "precision": "[1.123456789, 2.0]", "negzero": "[-0.0, 0.0, 1.0]",
        "nan_inf": "[nan, inf, -inf, 1.5]", "nan_only": "[nan, nan]", "inf_int": "[inf, 1.0, 2.0]",
        "mixed_neg": "[-1.5, 22.25, -333.125]", "thirds": "[1/3, 2/3, 1.0]",
        "e20": "[1e20, -1e-20]", "halfs": "[0.5, 0.25, 0.125, 0.0625]",
        "large_ints": "[1e8, 1.0]", "pi_e": "[pi, e]", "zeros": "[0.0, 0.0]",
        "maxprec": "[0.1 + 0.2, 1.0]", "sci_neg": "[-1e-10, 5e-11]",
    }
    for key, lit in floats.items():
        src = (f"x = array({lit})\nprint(x)\nprint(repr(x))\n"
               f"y = x.astype(float32)\nprint(y)\nprint(repr(y))\nprint(x[0], y[0])\n"
               f"print(x.reshape(-1, 1))\n")
        out.append((f"float_{key}", "", src))
    return out


GENERATED = {"reductions": reductions, "printing": printing}


def oracle(path):
    r = subprocess.run([ORACLE, path], capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


def expected_line(stderr, mode):
    last = stderr.rstrip("\n").split("\n")[-1].rstrip()
    kind, sep, msg = last.partition(": ")
    if "." in kind:
        kind = kind.split(".")[-1]
    # Subclasses print with their built-in base in tsr, as DESIGN section 1 says.
    kind = {"AxisError": "AxisError (ValueError)",
            "ModuleNotFoundError": "ModuleNotFoundError (ImportError)"}.get(kind, kind)
    if mode == "kind" or not sep:
        return kind
    return f"{kind}: {msg}"


def build(category, name, mode, source):
    """Writes one program and its .out; returns a problem string or None."""
    directory = os.path.join(SCRIPTS, category)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + ".tsr")
    rel = os.path.relpath(path, ROOT)
    if not source.endswith("\n"):
        source += "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    rc, out, err = oracle(path)
    if mode:
        if rc == 0:
            return f"{rel}: marked !{mode} but the oracle succeeded"
        source += "# expect error: " + expected_line(err, mode) + "\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        rc, out, err = oracle(path)
    elif rc != 0 or err:
        os.remove(path)
        return f"{rel}: oracle exit {rc}, stderr: {err.strip()[-300:]}"
    with open(path[:-4] + ".out", "w", encoding="utf-8") as f:
        f.write(out)
    return None


def main(argv):
    wanted = set(argv[1:])
    programs = {}
    for txt in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
        category = os.path.basename(txt)[:-4]
        programs.setdefault(category, []).extend(parse(txt))
    for category, fn in GENERATED.items():
        programs.setdefault(category, []).extend(fn())
    jobs = []
    for category, items in programs.items():
        if wanted and category not in wanted:
            continue
        names = set()
        for name, mode, source in items:
            if name in names:
                print(f"duplicate program {category}/{name}")
            names.add(name)
            jobs.append((category, name, mode, source))
        # Remove programs of this category that are no longer generated.
        for old in glob.glob(os.path.join(SCRIPTS, category, "*.tsr")):
            if os.path.basename(old)[:-4] not in names:
                os.remove(old)
                if os.path.exists(old[:-4] + ".out"):
                    os.remove(old[:-4] + ".out")
    problems = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for problem in pool.map(lambda j: build(*j), jobs):
            if problem:
                problems += 1
                print(problem)
    print(f"gen: {len(jobs)} programs, {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
