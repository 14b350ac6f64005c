#!/usr/bin/python3
"""Compares two program outputs number by number: tests/run's check for a golden program whose
source says `# tolerance: rtol=R atol=A` (its last digits depend on the CPU's BLAS or LAPACK
kernels, which add in a different order on different CPUs).

Usage: /usr/bin/python3 tests/numclose.py RTOL ATOL WANT_FILE GOT_FILE
Exit 0 when the texts agree: the same text between numbers (whitespace aside, since a wider
number moves NumPy's columns and line breaks) and each pair of numbers within
|got - want| <= atol + rtol * |want| (nan equals nan; infinities must be equal); else prints
the first difference and exits 1."""
import math
import re
import sys

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")


def parts(text):
    """(separators with whitespace removed, numbers as floats)."""
    seps, nums, at = [], [], 0
    for m in NUMBER.finditer(text):
        seps.append("".join(text[at:m.start()].split()))
        nums.append(float(m.group()))
        at = m.end()
    seps.append("".join(text[at:].split()))
    return seps, nums


def compare(want, got, rtol, atol):
    """None if want and got agree within the tolerance, else a one-line reason."""
    ws, wn = parts(want)
    gs, gn = parts(got)
    if len(wn) != len(gn):
        return f"{len(gn)} numbers, want {len(wn)}"
    for i, (a, b) in enumerate(zip(ws, gs)):
        if a != b:
            return f"text [{b[:60]}] before number {i + 1}, want [{a[:60]}]"
    for i, (w, g) in enumerate(zip(wn, gn)):
        if math.isnan(w) and math.isnan(g):
            continue
        if math.isinf(w) or math.isinf(g):
            if w != g:
                return f"number {i + 1} is {g!r}, want {w!r}"
            continue
        if not abs(g - w) <= atol + rtol * abs(w):
            return f"number {i + 1} is {g!r}, want {w!r} (rtol {rtol}, atol {atol})"
    return None


def tolerance(source):
    """(rtol, atol) from a `# tolerance: rtol=R atol=A` line of a program's source, or None."""
    m = re.search(r"^# tolerance: rtol=(\S+) atol=(\S+)\s*$", source, re.M)
    return (float(m.group(1)), float(m.group(2))) if m else None


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[3], encoding="utf-8") as f:
        want = f.read()
    with open(argv[4], encoding="utf-8") as f:
        got = f.read()
    why = compare(want, got, float(argv[1]), float(argv[2]))
    if why:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
