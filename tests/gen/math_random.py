#!/usr/bin/python3
"""Writes tests/scripts/pymath/random_values.tsr: seeded random arguments for every function of
Python's math module that returns floats, inside each function's domain, printed with repr so
that any bit of difference from CPython shows (the .out comes from the oracle).

    /usr/bin/python3 tests/gen/math_random.py > tests/scripts/pymath/random_values.tsr
"""
import math
import random

rng = random.Random(20261126)


def num():
    kind = rng.random()
    if kind < 0.3:
        return rng.uniform(-10, 10)
    if kind < 0.6:
        return rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
    if kind < 0.8:
        return float(rng.randint(-50, 50)) + rng.choice([0.0, 0.5, 0.25, 1e-9])
    return rng.uniform(-700, 700)


def pos():
    return abs(num()) or 1.5


DOMAINS = {
    "acos": lambda: rng.uniform(-1, 1), "asin": lambda: rng.uniform(-1, 1),
    "acosh": lambda: 1 + pos(), "atanh": lambda: rng.uniform(-0.999, 0.999),
    "sqrt": pos, "log": pos, "log10": pos, "log2": pos, "log1p": lambda: pos() - 0.5,
    "exp": lambda: rng.uniform(-700, 700), "exp2": lambda: rng.uniform(-1000, 1000),
    "expm1": lambda: rng.uniform(-700, 700), "cosh": lambda: rng.uniform(-700, 700),
    "sinh": lambda: rng.uniform(-700, 700),
    "gamma": lambda: rng.uniform(-170, 170) + 0.125, "lgamma": lambda: rng.uniform(-1e3, 1e6) + 0.375,
}
UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh", "erf",
         "erfc", "exp", "exp2", "expm1", "fabs", "log", "log10", "log1p", "log2", "sin",
         "sinh", "sqrt", "tan", "tanh", "degrees", "radians", "gamma", "lgamma", "ulp"]

lines = ["import math"]
for name in UNARY:
    args = []
    for _ in range(12):
        x = DOMAINS.get(name, num)()
        try:
            getattr(math, name)(x)
        except (ValueError, OverflowError):
            continue
        args.append(repr(x))
    lines.append(f"for x in [{', '.join(args)}]:")
    lines.append(f"    print('{name}', repr(x), repr(math.{name}(x)))")
for name in ["atan2", "copysign", "fmod", "remainder", "pow", "hypot", "nextafter"]:
    pairs = []
    for _ in range(12):
        x, y = num(), num()
        if name == "pow":
            x, y = pos(), rng.uniform(-30, 30)
        try:
            getattr(math, name)(x, y)
        except (ValueError, OverflowError):
            continue
        pairs.append(f"({x!r}, {y!r})")
    lines.append(f"for x, y in [{', '.join(pairs)}]:")
    lines.append(f"    print('{name}', repr(math.{name}(x, y)))")
for _ in range(15):
    n = rng.randint(0, 7)
    pts = [repr(num()) for _ in range(n)]
    lines.append(f"print('hypot', repr(math.hypot({', '.join(pts)})))")
for _ in range(10):
    n = rng.randint(1, 6)
    p = [repr(num()) for _ in range(n)]
    q = [repr(num()) for _ in range(n)]
    lines.append(f"print('dist', repr(math.dist([{', '.join(p)}], [{', '.join(q)}])))")
for _ in range(15):
    n = rng.randint(0, 40)
    xs = [rng.choice([num(), -num() * 1e16, 1e100, -1e100, 1.0, 1e-100]) for _ in range(n)]
    lines.append(f"print('fsum', repr(math.fsum([{', '.join(map(repr, xs))}])))")
for _ in range(10):
    x = num()
    lines.append(f"print('frexp modf', math.frexp({x!r}), math.modf({x!r}), "
                 f"math.floor({x!r}), math.ceil({x!r}), math.trunc({x!r}))")
for _ in range(10):
    n, k = rng.randint(0, 60), rng.randint(0, 20)
    lines.append(f"print('comb perm', math.comb({n}, {k}), math.perm({min(n, 20)}, {min(k, 9)}), "
                 f"math.gcd({n}, {k * 6}), math.isqrt({rng.randint(0, 10**18)}))")
print("\n".join(lines))
