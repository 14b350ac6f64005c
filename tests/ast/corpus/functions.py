# Functions and classes: every parameter form, annotations, decorators, yield, nonlocal.
def f():
    pass
def f(a, b=1, *args, c, d=2, **kwargs):
    return a
def f(a, /, b, *, c):
    return
def f(a, b, /):
    pass
def f(a=1, /, b=2, *, c, d=4):
    pass
def f(*, a):
    pass
def f(*args, **kwargs):
    pass
def f(**kwargs):
    pass
def f(a: int, b: str = 'x', *args: int, c: float, **kw: dict) -> None:
    pass
def f(*args: *Ts):
    pass
def f(a,):
    pass
def f(a, *, b,):
    pass
def f() -> 'str':
    return 'x'
@decorator
def f():
    pass
@a.b(c)
@d
def f():
    pass
@(lambda f: f)
def f():
    pass
@x[0]
class C:
    pass
def gen():
    yield
    yield 1
    yield 1, 2
    x = yield
    y = yield from z
    z = (yield)
    yield *a, b
    return x
def outer():
    x = 1
    def inner():
        nonlocal x
        x += 1
        return x
    return inner
def g():
    global G
    G = 1
class A:
    pass
class B(A):
    x: int = 1
    def method(self):
        return super().method()
class C(A, B, metaclass=M, **kw):
    @property
    def p(self):
        return self._p
    @staticmethod
    def s():
        pass
class D():
    pass
class E(*bases):
    pass
def f(x):
    return lambda: (yield)
async_ = 1
match_ = 2
match = 3
case = 4
print(match, case)
match.x = 1
match[1] = 2
def type(): pass
