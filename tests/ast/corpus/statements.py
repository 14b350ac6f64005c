# Statements: every simple and compound statement.
x = 1
x += 1; x -= 1; x *= 2; x /= 2; x //= 2; x %= 2; x **= 2; x @= m; x &= 1; x |= 1; x ^= 1; x <<= 1; x >>= 1
x.y += 1
x[0] **= 2
x: int
x: int = 1
x.y: str = 'a'
x[0]: int
(x): int = 2
x: tuple = 1, 2
del x
del x, y[0], z.a, (a, b), [c]
del (x)
assert x
assert x, 'message'
pass
import a
import a.b.c
import a as b, c.d as e, f
from a import b
from a.b import c as d, e
from a import (b, c,)
from . import x
from .. import y
from .a import b
from ...a.b import c
from .... import d
from a import *
from __future__ import annotations
global g
global g1, g2
if a:
    pass
elif b:
    pass
elif c:
    x = 1
else:
    y = 2
if a: b; c
while x:
    break
else:
    pass
while 1:
    continue
for x in y:
    pass
for x, y in z:
    pass
for (x, y), *z in w:
    pass
for x in *a, *b:
    pass
for x in y:
    break
else:
    pass
for x, in y: pass
try:
    pass
except:
    pass
try:
    pass
except E:
    pass
except (A, B) as e:
    raise
except C as c:
    raise X from Y
else:
    pass
finally:
    pass
try:
    pass
finally:
    pass
try:
    pass
except* ValueError as eg:
    pass
except* (TypeError, KeyError):
    pass
with a:
    pass
with a as b:
    pass
with a as b, c as d, e:
    pass
with a as (b, c):
    pass
with (a, b):
    pass
with (a as b, c as d):
    pass
with (a as b, c as d,):
    pass
with (a, b) as c:
    pass
with (a):
    pass
with (a,):
    pass
with open(f) as g, lock:
    pass
raise
raise E
raise E('x')
raise E from None
x = 1 if y else 2
print('x', end='')
