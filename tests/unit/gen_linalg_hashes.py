#!/usr/bin/python3
"""Prints the expected[] table of tests/unit/test_linalg.c: FNV-1a 64-bit hashes of the C-order
bytes of NumPy's results for the same data and views (run with Debian's /usr/bin/python3).

The float data have 8 significant bits, so that every product and every partial sum the cases
make is exact in float32: the results then do not depend on the order in which a BLAS kernel
adds (which differs between CPUs), and the table holds on any machine."""
import numpy as np
from numpy.lib.stride_tricks import as_strided

def lcg(n, seed):
    s, out = seed, []
    for _ in range(n):
        s = (s * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(s)
    return out

def data(dt, n, seed):
    return np.array([((s >> 24) - 128) * 2.0 ** -4 for s in lcg(n, seed)], dtype=dt)

def V(t, shape, strides, off=0):
    return as_strided(t[off:], shape, [s * t.itemsize for s in strides])

def fnv(a):
    h = 0xcbf29ce484222325
    for b in np.ascontiguousarray(a).tobytes():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

rows = []
def run(name, r):
    r = np.asarray(r)
    rows.append('  {"%s", %d, 0x%016xULL},' % (name, r.size, fnv(r)))

for dt, tag in ((np.float32, 'f32'), (np.float64, 'f64')):
    A, B, v40, v50 = data(dt, 2000, 1), data(dt, 1200, 2), data(dt, 40, 3), data(dt, 50, 4)
    A2, AT = V(A, (50, 40), (40, 1)), V(A, (40, 50), (1, 40))
    B2, BT = V(B, (40, 30), (30, 1)), V(B, (30, 40), (1, 30))
    run(tag + ' A@B', A2 @ B2)
    run(tag + ' A@A.T', A2 @ AT)
    run(tag + ' A.T@A', AT @ A2)
    run(tag + ' A.T@v50', AT @ v50)
    run(tag + ' A@v40', A2 @ v40)
    run(tag + ' v50@A', v50 @ A2)
    run(tag + ' v40@v40', v40 @ v40)
    run(tag + ' A[:, ::2]@B[::2]', V(A, (50, 20), (40, 2)) @ V(B, (20, 30), (60, 1)))
    run(tag + ' A[::2]@B', V(A, (25, 40), (80, 1)) @ B2)
    run(tag + ' B.T@A.T', BT @ AT)
    run(tag + ' batch', V(A, (4, 1, 5, 40), (200, 200, 40, 1)) @ V(B, (2, 40, 6), (6, 30, 1)))
    run(tag + ' dot(A,B)', np.dot(A2, B2))
    run(tag + ' dot(A[:, ::2],B[::2])', np.dot(V(A, (50, 20), (40, 2)), V(B, (20, 30), (60, 1))))
    run(tag + ' dot(A,v40)', np.dot(A2, v40))
    run(tag + ' dot(v50,A)', np.dot(v50, A2))
    run(tag + ' dot 3d', np.dot(V(A, (2, 8, 40), (960, 120, 1)), V(B, (4, 40, 6), (6, 30, 1))))
    run(tag + ' dot 3d\u00b71d', np.dot(V(A, (5, 10, 40), (400, 40, 1)), v40))
    run(tag + ' dot(2.0, v40)', np.dot(dt(2.0), v40))

Ai = np.array([(s >> 24) - 128 for s in lcg(600, 5)], dtype=np.int64)
i8, u16, i32 = Ai.astype(np.int8), Ai.astype(np.uint16), Ai.astype(np.int32)
bl, f = Ai > 100, data(np.float32, 600, 9)
run('i64 (20,30)@(30,20)', V(Ai, (20, 30), (30, 1)) @ V(Ai, (30, 20), (20, 1)))
run('i8 (20,30)@(30,20)', V(i8, (20, 30), (30, 1)) @ V(i8, (30, 20), (20, 1)))
run('u16 (20,30).T@(20,30)', V(u16, (30, 20), (1, 30)) @ V(u16, (20, 30), (30, 1)))
run('bool (20,30)@(30,20)', V(bl, (20, 30), (30, 1)) @ V(bl, (30, 20), (20, 1)))
run('i64 dot 3d', np.dot(V(Ai, (2, 10, 30), (300, 30, 1)), V(Ai, (3, 30, 3), (180, 6, 2))))
run('f32@i64', V(f, (20, 30), (30, 1)) @ V(Ai, (30, 20), (20, 1)))
run('i32@f32 vec', V(i32, (30,), (1,)) @ V(f, (30, 20), (20, 1)))
print('\n'.join(rows))
