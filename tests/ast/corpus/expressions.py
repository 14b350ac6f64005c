# Expressions: Python's precedence in full, every operator and display.
a + b * c - d / e // f % g @ h ** i ** j
-a ** -b, +a, ~a, not a, not not a
a | b ^ c & d << e >> f
a < b <= c > d >= e == f != g in h not in i is j is not k
(a < b) < c
a or b or c and d and not e
(a or b) or c
a or (b or c)
a and (b and c) and d
x if c else y if d else z
(x if c else y) if d else z
lambda: 0
lambda x: x
lambda x, y=1, *args, z, w=2, **kw: x + y
lambda a, /, b, *, c: a
lambda *, a=1: a
lambda *a: a
lambda a,: a
lambda x: lambda y: x + y
a if b else lambda: c
(y := f(x))
[y := 1, y ** 2]
f(x := 1)
print(*args, **kwargs)
f(a, *b, c, *d, e=1, **f, g=2, **h)
f(x for x in y)
f((x for x in y), 1)
x[1], x[1:2], x[::2], x[1:2:3], x[:], x[::], x[a, b], x[a:b, c], x[...], x[None, :]
x[*a], x[a, *b], x[(a, b)], x[()]
x[y := 1]
a.b.c.d, a.b(c).d[e]
[], [1], [1, 2,], [*a, *b, c], [[1, 2], [3]]
(), (1,), (1, 2), (*a, b), ((1, 2), 3)
{}, {1: 2}, {1: 2, **d, 3: 4}, {**a}, {a: b, c: d,}
{1}, {1, 2,}, {*a, b}
[x for x in y]
[x for x in y if x if not x]
[x * y for x in a for y in b if x != y]
[(x, y) for x, y in z]
[x for *a, x in z]
{x for x in y}
{k: v for k, v in d.items() if v}
(x for x in y)
[[x for x in row] for row in m]
[lambda: x for x in y]
[x for x in (lambda: y)()]
a, *b = c
*a, b = c
[a, *b] = c
a = b = c = 1
a.b = c[d] = e
def g():
    x = yield
    x = yield from y
...
Ellipsis
None, True, False
