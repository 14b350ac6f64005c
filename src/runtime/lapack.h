/*
** lapack.h -- numpy.linalg's LAPACK-backed functions on tensors (lapack.c).  Every function
** mirrors its NumPy 1.24 namesake: operands are stacked matrices (..., M, N), the work is done
** in float64 (as NumPy's _commonType does) and results are float32 when every operand is
** float32, else float64.  Errors are recorded in the Ctx with NumPy's texts; the failures
** NumPy raises as numpy.linalg.LinAlgError carry that kind (status TSR_ERR_VALUE).  All tensor
** results are new references owned by the caller; on failure no output is set.
*/
#ifndef TSR_LAPACK_H
#define TSR_LAPACK_H

#include "rt.h"

/* numpy.linalg.LinAlgError (a subclass of Exception in NumPy 1.24, not of ValueError). */
#define ERR_LINALG(c, ...) ctx_err((c), TSR_ERR_VALUE, "LinAlgError", __VA_ARGS__)

/* LinAlgError "%d-dimensional array given. Array must be at least two-dimensional" unless
   t->ndim >= 2, then "Last 2 dimensions of the array must be square" if square is asked and
   the last two dims differ.  0 or -1. */
RT_HIDDEN int lapack_check_stacked(Ctx *c, const Tensor *t, bool square);

/* numpy.linalg.inv of a (..., M, M): LU solve against the identity (gesv); LinAlgError
   "Singular matrix". */
RT_HIDDEN Tensor *lapack_inv(Ctx *c, Tensor *a);
/* numpy.linalg.solve(a (..., M, M), b): b is a stack of vectors (..., M) when
   b.ndim == a.ndim - 1, else of matrices (..., M, K); batch dims broadcast.  LinAlgError
   "Singular matrix"; ValueError for mismatched core dims as NumPy's gufunc says it. */
RT_HIDDEN Tensor *lapack_solve(Ctx *c, Tensor *a, Tensor *b);
/* numpy.linalg.slogdet of a (..., M, M): *sign and *logdet of shape (...) (getrf; a
   singular matrix gives sign 0, logdet -inf).  0 or -1. */
RT_HIDDEN int lapack_slogdet(Ctx *c, Tensor *a, Tensor **sign, Tensor **logdet);
/* numpy.linalg.det: sign * exp(logdet) of the above, as NumPy computes it. */
RT_HIDDEN Tensor *lapack_det(Ctx *c, Tensor *a);
/* numpy.linalg.cholesky of a (..., M, M) (potrf on the lower triangle; the upper part of the
   result is zero).  LinAlgError "Matrix is not positive definite". */
RT_HIDDEN Tensor *lapack_cholesky(Ctx *c, Tensor *a);
/* numpy.linalg.eigh / eigvalsh of a (..., M, M) reading the triangle uplo ('L' or 'U'):
   *w (..., M) ascending and, when v is not NULL, *v (..., M, M) with the eigenvectors in
   columns (syevd).  LinAlgError "Eigenvalues did not converge".  0 or -1. */
RT_HIDDEN int lapack_eigh(Ctx *c, Tensor *a, char uplo, Tensor **w, Tensor **v);
/* numpy.linalg.svd of a (..., M, N), K = min(M, N) (gesdd): *s (..., K) descending; when u
   is not NULL also *u (..., M, M or K) and *vh (..., N or K, N) (full_matrices picks the
   first).  LinAlgError "SVD did not converge".  0 or -1. */
RT_HIDDEN int lapack_svd(Ctx *c, Tensor *a, bool full_matrices, Tensor **u, Tensor **s,
                         Tensor **vh);
/* numpy.linalg.qr of a (..., M, N) by geqrf/orgqr; mode is "reduced", "complete", "r" or
   "raw" (else ValueError "Unrecognized mode 'x'").  reduced/complete: *q and *r; r: *r only
   (*q NULL); raw: *q = the factored matrix transposed (NumPy's h) and *r = tau.  0 or -1. */
RT_HIDDEN int lapack_qr(Ctx *c, Tensor *a, const char *mode, Tensor **q, Tensor **r);
/* numpy.linalg.lstsq(a (M, N), b (M,) or (M, K), rcond) by gelsd.  rcond < 0 means machine
   precision (NumPy 1.24's default, rcond=-1); the caller turns rcond=None into
   eps * max(M, N).  *x (N,) or (N, K), *residuals (K,) or (0,) (only when rank == N < M),
   *rank a 0-d int32, *s (min(M, N),).  LinAlgError "%d-dimensional array given. Array must
   be two-dimensional", "Incompatible dimensions", "SVD did not converge in Linear Least
   Squares".  0 or -1. */
RT_HIDDEN int lapack_lstsq(Ctx *c, Tensor *a, Tensor *b, double rcond, Tensor **x,
                           Tensor **residuals, Tensor **rank, Tensor **s);

#endif
