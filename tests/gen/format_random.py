#!/usr/bin/python3
"""Writes tests/scripts/format/random_specs.tsr: seeded random format specs and printf-style
formats over random ints, floats (incl. -0.0, inf, nan, huge and tiny), bools, strings and
NumPy scalars; only the ones CPython accepts (the errors have goldens of their own), printed
with repr so that every character is compared with the oracle's.

    /usr/bin/python3 tests/gen/format_random.py > tests/scripts/format/random_specs.tsr
"""
import math
import random

import numpy as np

rng = random.Random(1126)


def value():
    k = rng.randrange(9)
    if k == 0:
        return rng.randint(-10**6, 10**6)
    if k == 1:
        return rng.choice([0, 1, -1, 2**31, -2**63 + 1, 2**63 - 1, 255, 7])
    if k == 2:
        return rng.uniform(-1e4, 1e4)
    if k == 3:
        return rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 1e-300, 5e-324, 1e300,
                           0.5, 2.5, 1.005, 123456789.0, 1e16, 1e-5, 9.995])
    if k == 4:
        return rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20)
    if k == 5:
        return rng.choice([True, False])
    if k == 6:
        return rng.choice(["", "a", "abc", "hello world", "x" * 12])
    if k == 7:
        return ("np.float32", rng.choice([0.1, 2.5, -1e-3, 3e10]))
    return ("np.int64", rng.randint(-1000, 1000))


def literal(v):
    if isinstance(v, tuple):
        return f"{v[0]}({v[1]!r})"
    if isinstance(v, float):
        if math.isnan(v):
            return "np.nan"
        if math.isinf(v):
            return "np.inf" if v > 0 else "-np.inf"
    return repr(v)


def real(v):
    if isinstance(v, tuple):
        return getattr(np, v[0][3:])(v[1])
    return v


def spec():
    parts = []
    if rng.random() < 0.3:
        parts.append(rng.choice(["", "*", "0", "x", "#"]) + rng.choice("<>^="))
    if rng.random() < 0.3:
        parts.append(rng.choice("+- "))
    if rng.random() < 0.1:
        parts.append("z")
    if rng.random() < 0.2:
        parts.append("#")
    if rng.random() < 0.2:
        parts.append("0")
    if rng.random() < 0.5:
        parts.append(str(rng.randint(0, 25)))
    if rng.random() < 0.2:
        parts.append(rng.choice(",_"))
    if rng.random() < 0.5:
        parts.append("." + str(rng.randint(0, 20)))
    if rng.random() < 0.8:
        parts.append(rng.choice("bcdeEfFgGnosxX%"))
    return "".join(parts)


def percent():
    flags = "".join(rng.sample("-+ #0", rng.randint(0, 2)))
    width = str(rng.randint(1, 15)) if rng.random() < 0.5 else ""
    prec = "." + str(rng.randint(0, 12)) if rng.random() < 0.5 else ""
    return "%" + flags + width + prec + rng.choice("diouxXeEfFgGcrs")


lines = ["import numpy as np"]
cases = 0
while cases < 500:
    v = value()
    s = spec()
    try:
        r = format(real(v), s)
    except (ValueError, TypeError, OverflowError):
        continue
    if not (r.isascii() and r.isprintable()):
        continue   # repr's escapes of non-printable characters need Unicode data tsr lacks

    lines.append(f"print({literal(v)!s}, {s!r}, repr(format({literal(v)}, {s!r})))")
    cases += 1
cases = 0
while cases < 300:
    v = value()
    f = percent()
    if f[-1] in "diu" and isinstance(v, float) and abs(v) >= 2**63:
        continue   # an int beyond 64 bits: Python's big ints are not in tsr yet
    try:
        r = f % real(v)
    except (ValueError, TypeError, OverflowError):
        continue
    if not r.isprintable():
        continue
    lines.append(f"print({f!r}, repr({f!r} % {literal(v)}))")
    cases += 1
print("\n".join(lines))
