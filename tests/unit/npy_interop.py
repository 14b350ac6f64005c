#!/usr/bin/python3
"""NumPy's side of tests/unit/test_npy.c: files written by NumPy for tsr, and checks of the
files tsr wrote back.

Usage: npy_interop.py prepare DIR   writes, for every case NAME:
         DIR/case_NAME.npy   written by NumPy (every dtype, shape, order, byte order, version)
         DIR/case_NAME.raw   the same data, native byte order, C order
         DIR/npz_*.npz       savez / savez_compressed archives, members also as .raw files
         DIR/txt_N.npy       arrays for savetxt, and DIR/txtcases (the savetxt arguments:
                             fields split by \x1f, newlines written as backslash-n)
       npy_interop.py verify DIR    checks tsr's files (tsr_*.npy, tsr_*.npz, tsr_txt_*.txt)
         against NumPy: equal data and dtype, and byte-identical files where NumPy's bytes
         are deterministic.  Prints "PASS name" / "FAIL name: why" lines.
"""
import io
import os
import sys
import zipfile

import numpy as np

DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8"]
SHAPES = [(), (0,), (5,), (2, 3), (3, 0, 2), (2, 3, 4)]
SEP = "\x1f"
TXTCASES = [
    ("%.18e", " ", "", "", "# "),
    ("%d", ",", "x y z", "end", "# "),
    ("%10.4f", "\t", "multi\nline", "", "// "),
    ("%s", " ", "", "", "# "),
    ("%g", ";", "", "foot\nnote", "#"),
    ("%+.3e", " ", "", "", "# "),
    ("%5d|", "", "", "", "# "),
    ("%-9.2f", " ", "h", "", ""),
    ("%.0f", " ", "", "", "# "),
    ("%i", " ", "", "", "# "),
    ("%E", ", ", "", "", "# "),
    ("%G", " ", "", "", "# "),
]


def values(dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    k = np.arange(n, dtype=np.uint64)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        a = (k % 3) == 0
    elif dt.kind in "iu":
        a = (k * np.uint64(0x9E3779B97F4A7C15) + np.uint64(12345)).astype(dt)
    else:
        a = ((k.astype(np.float64) - n / 2) * 1.37e3 / 7).astype(dt)
        specials = [np.nan, np.inf, -np.inf, -0.0, 1e-30, 3e38]
        for i, v in enumerate(specials[: max(0, n - 1)]):
            a[i + 1] = v
    return a.reshape(shape)


def case_name(dtype, shape, order, endian, version):
    s = "x".join(str(d) for d in shape) or "scalar"
    return f"{dtype.replace('?', 'b1')}_{s}_{order}_{'be' if endian == '>' else 'le'}_v{version[0]}"


def cases():
    for dtype in DTYPES:
        for shape in SHAPES:
            for order in ("C", "F") if len(shape) >= 2 else ("C",):
                for endian in ("<", ">") if np.dtype(dtype).itemsize > 1 else ("|",):
                    versions = [(1, 0), (2, 0), (3, 0)] if shape == (2, 3) else [(1, 0)]
                    for version in versions:
                        yield dtype, shape, order, endian, version


def native(a):
    return a.astype(a.dtype.newbyteorder("="), order="K")


def prepare(d):
    for dtype, shape, order, endian, version in cases():
        name = case_name(dtype, shape, order, endian, version)
        a = values(dtype, shape)
        if endian != "|":
            a = a.astype(np.dtype(dtype).newbyteorder(endian))
        a = np.asfortranarray(a) if order == "F" else np.ascontiguousarray(a)
        with open(os.path.join(d, f"case_{name}.npy"), "wb") as f:
            np.lib.format.write_array(f, a, version=version)
        with open(os.path.join(d, f"case_{name}.raw"), "wb") as f:
            f.write(native(a).tobytes(order="C"))
    members = {
        "a": values("f8", (2, 3)),
        "b": np.asfortranarray(values("i4", (3, 4))),
        "big": values("u2", (4,)).astype(">u2"),
        "s": values("f4", ()),
        "e": values("?", (0, 2)),
    }
    np.savez(os.path.join(d, "npz_plain.npz"), **members)
    np.savez_compressed(os.path.join(d, "npz_comp.npz"), **members)
    for k, v in members.items():
        with open(os.path.join(d, f"npz_member_{k}.raw"), "wb") as f:
            f.write(native(v).tobytes(order="C"))
    txt = [values("f8", (3, 4)), values("i8", (5,)), values("f4", (2, 2)),
           values("u1", (2, 3)), values("?", (3,)), values("i2", (0, 3))]
    with open(os.path.join(d, "txtcases"), "w") as f:
        for i, a in enumerate(txt):
            np.save(os.path.join(d, f"txt_{i}.npy"), a)
            for j, (fmt, delim, header, footer, comments) in enumerate(TXTCASES):
                if a.dtype.kind == "f" and ("d" in fmt or "i" in fmt):
                    if not np.isfinite(a).all():
                        continue
                fields = [str(i), str(j), fmt, delim, header, footer, comments]
                f.write(SEP.join(x.replace("\n", "\\n") for x in fields) + "\n")


def report(ok, name, why=""):
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))


def same(a, b):
    return (a.shape == b.shape and native(a).dtype == native(b).dtype
            and native(a).tobytes(order="C") == native(b).tobytes(order="C"))


def verify(d):
    for dtype, shape, order, endian, version in cases():
        name = case_name(dtype, shape, order, endian, version)
        path = os.path.join(d, f"tsr_{name}.npy")
        if not os.path.exists(path):
            report(False, name, "tsr wrote no file")
            continue
        want = np.load(os.path.join(d, f"case_{name}.npy"))
        got = np.load(path)
        if not same(want, got):
            report(False, name, f"NumPy reads other data: {got!r} want {want!r}")
            continue
        buf = io.BytesIO()
        np.save(buf, native(want))
        with open(path, "rb") as f:
            data = f.read()
        report(data == buf.getvalue(), name + " bytes",
               f"tsr's file differs from numpy.save's: {data[:128]!r} vs {buf.getvalue()[:128]!r}")
    for kind, method in (("plain", zipfile.ZIP_STORED), ("comp", zipfile.ZIP_DEFLATED)):
        path = os.path.join(d, f"tsr_{kind}.npz")
        want = np.load(os.path.join(d, f"npz_{kind}.npz"))
        try:
            got = np.load(path)
            ok = sorted(got.files) == sorted(want.files) and all(
                same(want[k], got[k]) for k in want.files)
            methods = {i.compress_type for i in zipfile.ZipFile(path).infolist()}
            report(ok and methods == {method}, f"npz {kind}",
                   f"files {got.files}, compression {methods}")
        except Exception as e:  # a broken archive is the failure under test
            report(False, f"npz {kind}", repr(e))
    with open(os.path.join(d, "txtcases")) as f:
        for line in f:
            fields = [x.replace("\\n", "\n") for x in line.rstrip("\n").split(SEP)]
            i, j, fmt, delim, header, footer, comments = fields
            a = np.load(os.path.join(d, f"txt_{i}.npy"))
            buf = io.BytesIO()
            np.savetxt(buf, a, fmt=fmt, delimiter=delim, header=header, footer=footer,
                       comments=comments)
            path = os.path.join(d, f"tsr_txt_{i}_{j}.txt")
            try:
                with open(path, "rb") as g:
                    data = g.read()
            except OSError as e:
                report(False, f"savetxt {i} {fmt!r}", repr(e))
                continue
            report(data == buf.getvalue(), f"savetxt {i} {fmt!r}",
                   f"{data[:200]!r} vs NumPy's {buf.getvalue()[:200]!r}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("prepare", "verify"):
        sys.stderr.write(__doc__)
        sys.exit(2)
    (prepare if sys.argv[1] == "prepare" else verify)(sys.argv[2])
