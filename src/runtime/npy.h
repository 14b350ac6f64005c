/*
** npy.h -- NumPy's file formats in the runtime: .npy (numpy.save / numpy.load, format
** versions 1.0-3.0, memory-mapped loading), .npz archives (numpy.savez, savez_compressed)
** and text tables (numpy.loadtxt / numpy.savetxt); plus the file-system gate of io.c that
** every one of them goes through.
**
** Every function takes the Ctx, records NumPy's/Python's exception kind with a message that
** names the file, and returns NULL or -1 on failure.  Nothing reads outside a buffer: every
** length in a file is checked against the bytes really there before it is used.
*/
#ifndef TSR_NPY_H
#define TSR_NPY_H

#include <stdio.h>
#include "rt.h"

struct zip;

/* ------------------------------------------------------------------------------------------
** The gate (io.c).  Every builtin that touches a file reaches the file system only through
** these; under TSR_SANDBOX each refuses with PermissionError (TSR_ERR_SANDBOX) "file access
** is disabled in this sandbox".
*/
/* 0, or -1 with the sandbox refusal recorded. */
RT_HIDDEN int io_gate(Ctx *c);
/* Records the Python OSError subclass for errno e as open() raises it:
   FileNotFoundError "[Errno 2] No such file or directory: 'PATH'", PermissionError,
   IsADirectoryError, NotADirectoryError, FileExistsError, else OSError.  Returns -1. */
RT_HIDDEN int io_errno(Ctx *c, int e, const char *path);
/* fopen(path, mode) behind the gate; a directory is IsADirectoryError as in Python.  The
   caller owns the FILE (fclose).  NULL with the error recorded. */
RT_HIDDEN FILE *io_fopen(Ctx *c, const char *path, const char *mode);
/* Maps the file at path and wraps the bytes from `offset` on as a tensor of dtype dt, shape
   and strides (BYTES; NULL = C order) without copying (numpy.memmap).  mode 'r' read-only
   (writes are ValueError "assignment destination is read-only"), 'w' shared read-write
   (numpy's 'r+': writes reach the file), 'c' copy-on-write.  The storage is borrowed: the
   mapping goes when the last view does.  Checks that every element lies inside the file. */
RT_HIDDEN Tensor *io_map_tensor(Ctx *c, const char *path, char mode, uint64_t offset, DType dt,
                                int ndim, const int64_t *shape, const int64_t *strides_bytes);
/* Reads the whole file at path into out (appending), through zlib's gunzip when gunzip is set.
   0, or -1 with the error recorded (as io_fopen's; OSError "[Errno 5] ...: reading 'PATH'",
   "bad gzip file 'PATH': ..."). */
RT_HIDDEN int io_read_all(Ctx *c, const char *path, bool gunzip, Buf *out);
/* Writes data[0..n) as the whole file at path (created or truncated), gzip-compressed when gzip
   is set.  0 or -1 with the error recorded. */
RT_HIDDEN int io_write_all(Ctx *c, const char *path, bool gzip, const char *data, size_t n);
/* Creates (truncating) a zip archive at path for writing with libzip; the caller adds members
   and calls zip_close (or zip_discard).  NULL with the error recorded. */
RT_HIDDEN struct zip *io_zip_create(Ctx *c, const char *path);

/* ------------------------------------------------------------------------------------------
** .npy and .npz
*/
/* numpy.save(path, x): writes t as a format-1.0 .npy file (2.0 if the header would exceed
   65535 bytes), byte for byte what NumPy 1.24 writes: descr '<f8' etc. in the host's byte
   order, fortran_order True when t is Fortran- but not C-contiguous (the data then goes in
   Fortran order), else C order.  NumPy appends ".npy" to a path not ending in it; the caller
   passes the final path.  Returns 0 or -1. */
RT_HIDDEN int npy_save(Ctx *c, const char *path, Tensor *t);

/* The members of an .npz archive, in archive order; names are the member names without
   their ".npy" suffix.  Owned by the caller: npy_members_free. */
typedef struct NpyMembers { int n, cap; char **names; Tensor **arrays; } NpyMembers;
RT_HIDDEN void npy_members_free(Ctx *c, NpyMembers *m);

/* numpy.load(path, mmap_mode): reads an .npy file (versions 1.0, 2.0, 3.0; '<', '>', '|' and
   '=' byte orders, converted to the host's; C or Fortran order; the result of a Fortran-order
   file is a Fortran-strided view like NumPy's) or an .npz archive (stored or deflated).  For
   .npy sets *out to a new tensor and leaves *members empty; for .npz fills *members (every
   member loaded) and leaves *out NULL.  mmap_mode: 0 (read into memory), 'r', 'w' (r+) or
   'c' maps an .npy file instead (see io_map_tensor; big-endian data is read into read-only
   memory for 'r' and 'c' and refused for 'w'); ignored for .npz, as NumPy does.
   Errors name the file: FileNotFoundError "[Errno 2] No such file or directory: 'PATH'";
   EOFError "No data left in file 'PATH'"; ValueError "Cannot load file containing pickled
   data when allow_pickle=False (not an .npy or .npz file: 'PATH')", "unsupported .npy format
   version 4.0 in 'PATH'", "cannot parse the .npy header of 'PATH': ...", "unknown dtype '<c16'
   in the .npy header of 'PATH' (tsr has bool, int8-int64, uint8-uint64, float32, float64)",
   "truncated .npy file 'PATH': shape (2, 3) float64 needs 48 bytes of data, found 40",
   "bad .npz file 'PATH': ..." (with the zip library's reason or the member's own error).
   Returns 0 or -1. */
RT_HIDDEN int npy_load(Ctx *c, const char *path, char mmap_mode, Tensor **out,
                       NpyMembers *members);

/* numpy.savez / numpy.savez_compressed: writes n arrays as members "NAME.npy" of a zip
   archive at path (stored, or deflated when compress), each exactly as npy_save writes it.
   Returns 0 or -1 (OSError naming the file when the archive cannot be written). */
RT_HIDDEN int npy_savez(Ctx *c, const char *path, int n, const char *const *names,
                        Tensor *const *arrays, bool compress);

/* ------------------------------------------------------------------------------------------
** Text tables
*/
typedef struct NpyLoadtxtOptions {
  DType dtype;              /* float64 by default */
  const char *comments;     /* "#"; NULL = none */
  const char *delimiter;    /* NULL = any run of whitespace */
  int64_t skiprows;         /* lines skipped first (0) */
  int nusecols;             /* 0 = every column */
  const int64_t *usecols;   /* column indices, negative from the end */
  bool usecols_scalar;      /* usecols given as one int: the result is 1-d */
  int64_t max_rows;         /* -1 = all */
  int ndmin;                /* 0, 1 or 2 */
  bool unpack;              /* transpose the result */
} NpyLoadtxtOptions;

/* numpy.loadtxt (NumPy 1.23+ semantics): rows are the lines with at least one field after
   comments are cut (empty rows skipped, not counted); every row must have the first row's
   field count (ValueError "the number of columns changed from 3 to 2 at row 2; use `usecols`
   to select a subset and avoid this error"); fields convert to dtype (ValueError "could not
   convert string 'x' to float64 at row 1, column 2."; usecols out of range "invalid column
   index 5 at row 1 with 3 columns").  The (rows, cols) result is squeezed then padded to
   ndmin as NumPy does.  A path ending in ".gz" is gunzipped.  A missing file is
   FileNotFoundError "PATH not found.".  New tensor or NULL. */
RT_HIDDEN Tensor *npy_loadtxt(Ctx *c, const char *path, const NpyLoadtxtOptions *o);

/* numpy.savetxt(path, X, fmt, delimiter, newline, header, footer, comments): X 1-d (one value
   per line) or 2-d; fmt is one Python %-format for every column (joined by delimiter) or,
   when it holds as many conversions as columns, the whole row's format; nfmt > 1 gives one
   format per column (joined by delimiter).  Python's % conversions d i u e E f F g G x X o s
   with flags, width and precision, formatted as Python formats NumPy scalars.  The header and
   footer lines are prefixed with comments (also after each newline inside them).  ValueError
   "Expected 1D or 2D array, got 0D array instead", "fmt has wrong number of % formats:  FMT";
   TypeError "Mismatch between array dtype ('float64') and format specifier ('...')".  The
   file is written only when formatting succeeds, gzip-compressed when the path ends in ".gz".
   Returns 0 or -1. */
RT_HIDDEN int npy_savetxt(Ctx *c, const char *path, Tensor *t, int nfmt,
                          const char *const *fmts, const char *delimiter, const char *newline,
                          const char *header, const char *footer, const char *comments);

#endif
