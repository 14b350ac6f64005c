def f():
  def g():
    nonlocal y
  y = 2
def outer():
    a = b = 0
    for c in range(3):
        pass
    with open(f) as (d, e):
        pass
    try:
        pass
    except E as g:
        pass
    import h.i
    from j import k as l
    def m():
        nonlocal a, b, c, d, e, g, h, l
        def n():
            nonlocal a, m
        return n
    return m
