/*
** builtins_linalg.c -- the numpy.linalg namespace beyond norm: inv, solve, det, slogdet,
** lstsq, eigh, eigvalsh, svd, qr, cholesky (LAPACK, src/runtime/lapack.c), and matrix_rank,
** pinv, matrix_power, multi_dot composed from them and the matrix products.
*/
#include "builtins.h"
#include "../runtime/lapack.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Stores a tuple of n tensors (taking the references; all non-NULL) in *out. */
static int ret_tuple(Interp *I, Tensor **ts, int n, Value *out) {
  Value t = value_tuple(I, n);
  if (t.type == V_UNDEF) {
    for (int i = 0; i < n; i++) tensor_release(ts[i]);
    return -1;
  }
  for (int i = 0; i < n; i++) as_list(t)->items[i] = v_tensor(ts[i]);
  *out = t;
  return 0;
}

/* A one-operand LAPACK function a -> tensor. */
static int unary(Interp *I, const Args *a, const char *name, Tensor *(*fn)(Ctx *, Tensor *),
                 Value *out) {
  Value s[1];
  if (args_parse(I, a, name, "a", s)) return -1;
  Tensor *x = arg_tensor(I, s[0]);
  if (!x) return -1;
  Tensor *r = fn(interp_ctx(I), x);
  tensor_release(x);
  return ret_tensor(r, out);
}

/* linalg.inv(a). */
static int bi_inv(Interp *I, const Args *a, Value *out) {
  return unary(I, a, "inv", lapack_inv, out);
}
/* linalg.det(a). */
static int bi_det(Interp *I, const Args *a, Value *out) {
  return unary(I, a, "det", lapack_det, out);
}
/* linalg.cholesky(a). */
static int bi_cholesky(Interp *I, const Args *a, Value *out) {
  return unary(I, a, "cholesky", lapack_cholesky, out);
}

/* linalg.solve(a, b). */
static int bi_solve(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "solve", "a,b", s)) return -1;
  Tensor *x = arg_tensor(I, s[0]), *y = NULL, *r = NULL;
  if (x && (y = arg_tensor(I, s[1]))) r = lapack_solve(interp_ctx(I), x, y);
  if (x) tensor_release(x);
  if (y) tensor_release(y);
  return ret_tensor(r, out);
}

/* linalg.slogdet(a) -> (sign, logdet). */
static int bi_slogdet(Interp *I, const Args *a, Value *out) {
  Value s[1];
  if (args_parse(I, a, "slogdet", "a", s)) return -1;
  Tensor *x = arg_tensor(I, s[0]), *r[2];
  if (!x) return -1;
  int rc = lapack_slogdet(interp_ctx(I), x, &r[0], &r[1]);
  tensor_release(x);
  return rc ? -1 : ret_tuple(I, r, 2, out);
}

/* The UPLO= argument: 'L' or 'U' in either case. */
static int uplo_arg(Interp *I, Value v, char *out) {
  *out = 'L';
  if (v.type == V_UNDEF) return 0;
  const char *u = v.type == V_STR ? as_str(v)->s : "";
  if (strlen(u) == 1 && (u[0] == 'L' || u[0] == 'l' || u[0] == 'U' || u[0] == 'u')) {
    *out = u[0] == 'l' || u[0] == 'L' ? 'L' : 'U';
    return 0;
  }
  return IERR_VALUE(I, "UPLO argument must be 'L' or 'U'");
}

/* linalg.eigh(a, UPLO='L') -> (w, v); linalg.eigvalsh(a, UPLO='L') -> w. */
static int eigh_common(Interp *I, const Args *a, const char *name, bool vectors, Value *out) {
  Value s[2];
  char uplo;
  if (args_parse(I, a, name, "a,UPLO=", s) || uplo_arg(I, s[1], &uplo)) return -1;
  Tensor *x = arg_tensor(I, s[0]), *r[2];
  if (!x) return -1;
  int rc = lapack_eigh(interp_ctx(I), x, uplo, &r[0], vectors ? &r[1] : NULL);
  tensor_release(x);
  if (rc) return -1;
  return vectors ? ret_tuple(I, r, 2, out) : ret_tensor(r[0], out);
}
static int bi_eigh(Interp *I, const Args *a, Value *out) {
  return eigh_common(I, a, "eigh", true, out);
}
static int bi_eigvalsh(Interp *I, const Args *a, Value *out) {
  return eigh_common(I, a, "eigvalsh", false, out);
}

/* Singular values of a hermitian stack: |eigenvalues| sorted descending (NumPy's svd with
   hermitian=True and compute_uv=False).  New reference or NULL. */
static Tensor *hermitian_singular_values(Ctx *c, Tensor *x) {
  Tensor *w, *ab, *sorted = NULL, *r = NULL;
  if (lapack_eigh(c, x, 'L', &w, NULL)) return NULL;
  ab = ufunc_unary(c, UF_ABSOLUTE, w, NULL);
  tensor_release(w);
  if (ab && (sorted = sort_sorted(c, ab, ab->ndim - 1)))
    r = tensor_flip(c, sorted, sorted->ndim - 1);
  if (ab) tensor_release(ab);
  if (sorted) tensor_release(sorted);
  if (r) {   /* contiguous, as the callers walk the data */
    Tensor *d = tensor_contiguous(c, r, r->dtype);
    tensor_release(r);
    r = d;
  }
  return r;
}

/* svd of a hermitian (real symmetric) stack as NumPy 1.24 derives it from eigh: s = |w| in
   descending order (a stable ascending sort of |w|, reversed), u = the eigenvectors in that
   order, vh = (u * sign(w))^T.  New references in *u, *s, *vh; 0 or -1. */
static int svd_hermitian(Ctx *c, Tensor *x, Tensor **u, Tensor **s, Tensor **vh) {
  Tensor *w = NULL, *v = NULL, *tu = NULL, *ts = NULL, *tv = NULL;
  int *order = NULL;
  size_t order_bytes = 0;
  if (lapack_eigh(c, x, 'L', &w, &v)) return -1;
  int64_t n = v->shape[v->ndim - 1], nb = n ? tensor_size(w) / n : 0;
  DType dt = w->dtype;
  int64_t isz = (int64_t)dtype_size(dt);
  order_bytes = sizeof(int) * (size_t)(n ? n : 1);
  if (!(tu = tensor_empty(c, dt, v->ndim, v->shape)) ||
      !(tv = tensor_empty(c, dt, v->ndim, v->shape)) ||
      !(ts = tensor_empty(c, dt, w->ndim, w->shape)) || !(order = ctx_malloc(c, order_bytes)))
    goto fail;
  for (int64_t b = 0; b < nb; b++) {
    const char *pw = tensor_data(w) + b * n * isz, *pv = tensor_data(v) + b * n * n * isz;
    char *pu = tensor_data(tu) + b * n * n * isz, *pt = tensor_data(tv) + b * n * n * isz;
    char *ps = tensor_data(ts) + b * n * isz;
    for (int i = 0; i < (int)n; i++) {   /* stable insertion sort by |w| ascending */
      double key = fabs(dtype_get_f64(dt, pw + i * isz));
      int j = i;
      while (j > 0 && fabs(dtype_get_f64(dt, pw + order[j - 1] * isz)) > key) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = i;
    }
    for (int64_t col = 0; col < n; col++) {
      int src = order[n - 1 - col];
      double e = dtype_get_f64(dt, pw + src * isz), sg = e > 0 ? 1 : e < 0 ? -1 : e;
      dtype_set_f64(dt, ps + col * isz, fabs(e));
      for (int64_t r = 0; r < n; r++) {
        double val = dtype_get_f64(dt, pv + (r * n + src) * isz);
        dtype_set_f64(dt, pu + (r * n + col) * isz, val);
        dtype_set_f64(dt, pt + (col * n + r) * isz, val * sg);
      }
    }
  }
  ctx_free(c, order, order_bytes);
  tensor_release(w);
  tensor_release(v);
  *u = tu;
  *s = ts;
  *vh = tv;
  return 0;
fail:
  if (order) ctx_free(c, order, order_bytes);
  tensor_release(w);
  tensor_release(v);
  if (tu) tensor_release(tu);
  if (ts) tensor_release(ts);
  if (tv) tensor_release(tv);
  return -1;
}

/* linalg.svd(a, full_matrices=True, compute_uv=True, hermitian=False). */
static int bi_svd(Interp *I, const Args *a, Value *out) {
  Value s[4];
  bool full, uv, herm;
  if (args_parse(I, a, "svd", "a,full_matrices=,compute_uv=,hermitian=", s) ||
      get_bool(I, s[1], true, &full) || get_bool(I, s[2], true, &uv) ||
      get_bool(I, s[3], false, &herm))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = arg_tensor(I, s[0]), *r[3];
  if (!x) return -1;
  int rc;
  if (herm && !uv) {
    r[0] = hermitian_singular_values(c, x);
    rc = r[0] ? 0 : -1;
  } else if (herm) {
    rc = svd_hermitian(c, x, &r[0], &r[1], &r[2]);
  } else {
    rc = lapack_svd(c, x, full, uv ? &r[0] : NULL, uv ? &r[1] : &r[0], uv ? &r[2] : NULL);
  }
  tensor_release(x);
  if (rc) return -1;
  return uv ? ret_tuple(I, r, 3, out) : ret_tensor(r[0], out);
}

/* linalg.qr(a, mode='reduced'). */
static int bi_qr(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "qr", "a,mode=", s)) return -1;
  const char *mode = "reduced";
  if (given(s[1])) {
    if (s[1].type != V_STR) return IERR_VALUE(I, "Unrecognized mode '%s'", "?");
    mode = as_str(s[1])->s;
  }
  Tensor *x = arg_tensor(I, s[0]), *r[2];
  if (!x) return -1;
  int rc = lapack_qr(interp_ctx(I), x, mode, &r[0], &r[1]);
  tensor_release(x);
  if (rc) return -1;
  return r[0] ? ret_tuple(I, r, 2, out) : ret_tensor(r[1], out);
}

/* linalg.lstsq(a, b, rcond='warn') -> (x, residuals, rank, s).  The default is NumPy 1.24's
   (rcond=-1: machine precision; tsr prints no FutureWarning); rcond=None is
   eps * max(M, N). */
static int bi_lstsq(Interp *I, const Args *a, Value *out) {
  Value s[3];
  if (args_parse(I, a, "lstsq", "a,b,rcond=", s)) return -1;
  double rcond = -1;
  bool none = s[2].type == V_NONE;
  if (given(s[2]) && !(s[2].type == V_STR && strcmp(as_str(s[2])->s, "warn") == 0) &&
      value_to_double(I, s[2], &rcond))
    return -1;
  Tensor *x = arg_tensor(I, s[0]), *y = NULL, *r[4];
  int rc = -1;
  if (x && (y = arg_tensor(I, s[1]))) {
    if (none && x->ndim == 2) {
      int64_t mx = x->shape[0] > x->shape[1] ? x->shape[0] : x->shape[1];
      rcond = DBL_EPSILON * (double)mx;
    }
    rc = lapack_lstsq(interp_ctx(I), x, y, rcond, &r[0], &r[1], &r[2], &r[3]);
  }
  if (x) tensor_release(x);
  if (y) tensor_release(y);
  return rc ? -1 : ret_tuple(I, r, 4, out);
}

/* linalg.matrix_rank(A, tol=None, hermitian=False): the number of singular values above tol
   (default S.max() * max(M, N) * eps of S's dtype); a Python int for fewer than 2 dims. */
static int bi_matrix_rank(Interp *I, const Args *a, Value *out) {
  Value s[3];
  bool herm;
  if (args_parse(I, a, "matrix_rank", "A,tol=,hermitian=", s) || get_bool(I, s[2], false, &herm))
    return -1;
  double tol = 0;
  if (given(s[1]) && value_to_double(I, s[1], &tol)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = arg_tensor(I, s[0]), *sv = NULL, *r = NULL;
  if (!x) return -1;
  if (x->ndim < 2) {
    Tensor *nz = tensor_astype(c, x, TSR_BOOL);
    bool any = false;
    if (nz)
      for (int64_t i = 0, n = tensor_size(nz); i < n && !any; i++) any = tensor_data(nz)[i];
    tensor_release(x);
    if (!nz) return -1;
    tensor_release(nz);
    *out = v_int(any);
    return 0;
  }
  int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
  if (herm) sv = hermitian_singular_values(c, x);
  else if (lapack_svd(c, x, false, NULL, &sv, NULL)) sv = NULL;
  tensor_release(x);
  if (!sv) return -1;
  int64_t k = sv->shape[sv->ndim - 1], nb = k ? tensor_size(sv) / k : 0;
  if (k == 0 && !given(s[1])) {
    tensor_release(sv);
    return IERR_VALUE(I, "zero-size array to reduction operation maximum which has no "
                         "identity");
  }
  if (!(r = tensor_empty(c, TSR_INT64, sv->ndim - 1, sv->shape))) { tensor_release(sv); return -1; }
  bool f32 = sv->dtype == TSR_FLOAT32;
  for (int64_t b = 0; b < tensor_size(r); b++) {
    const char *p = tensor_data(sv) + b * k * (int64_t)dtype_size(sv->dtype);
    double t = tol;
    if (!given(s[1])) {
      double mx = -INFINITY;
      for (int64_t i = 0; i < k; i++) {
        double v = dtype_get_f64(sv->dtype, p + i * (int64_t)dtype_size(sv->dtype));
        if (v > mx || isnan(v)) mx = v;
      }
      double dim = (double)(m > n ? m : n);
      t = f32 ? (double)((float)((float)mx * (float)dim) * FLT_EPSILON) : mx * dim * DBL_EPSILON;
    }
    int64_t cnt = 0;
    for (int64_t i = 0; i < k; i++)
      cnt += dtype_get_f64(sv->dtype, p + i * (int64_t)dtype_size(sv->dtype)) > t;
    ((int64_t *)tensor_data(r))[b] = cnt;
  }
  (void)nb;
  tensor_release(sv);
  return ret_tensor(r, out);
}

/* linalg.pinv(a, rcond=1e-15, hermitian=False): V diag(1/s) U^T over the singular values
   above rcond * max(s), as NumPy composes it (svd, then matmul). */
static int bi_pinv(Interp *I, const Args *a, Value *out) {
  Value s[3];
  bool herm;
  double rcond = 1e-15;
  if (args_parse(I, a, "pinv", "a,rcond=,hermitian=", s) || get_bool(I, s[2], false, &herm) ||
      (given(s[1]) && value_to_double(I, s[1], &rcond)))
    return -1;
  Ctx *c = interp_ctx(I);
  Tensor *x = arg_tensor(I, s[0]), *u = NULL, *sv = NULL, *vh = NULL, *ut = NULL, *v = NULL;
  Tensor *sc = NULL, *prod = NULL, *r = NULL;
  if (!x) return -1;
  if (lapack_check_stacked(c, x, false)) goto done;
  int64_t m = x->shape[x->ndim - 2], n = x->shape[x->ndim - 1];
  if (m == 0 || n == 0) {
    int64_t shape[TSR_MAXDIMS];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[x->ndim - 2] = n;
    shape[x->ndim - 1] = m;
    r = tensor_empty(c, x->dtype, x->ndim, shape);
    goto done;
  }
  if (herm ? svd_hermitian(c, x, &u, &sv, &vh) : lapack_svd(c, x, false, &u, &sv, &vh))
    goto done;
  {
    int64_t k = sv->shape[sv->ndim - 1], isz = (int64_t)dtype_size(sv->dtype);
    char *p = tensor_data(sv);
    for (int64_t b = 0; b < tensor_size(sv) / k; b++, p += k * isz) {
      double mx = -INFINITY;
      for (int64_t i = 0; i < k; i++) {
        double e = dtype_get_f64(sv->dtype, p + i * isz);
        if (e > mx || isnan(e)) mx = e;
      }
      double cutoff = rcond * mx;
      for (int64_t i = 0; i < k; i++) {
        double e = dtype_get_f64(sv->dtype, p + i * isz);
        dtype_set_f64(sv->dtype, p + i * isz, e > cutoff ? 1.0 / e : 0.0);
      }
    }
  }
  if ((sc = tensor_expand_dims(c, sv, sv->ndim)) &&
      (ut = tensor_swapaxes(c, u, u->ndim - 1, u->ndim - 2)) &&
      (prod = ufunc_binary(c, UF_MULTIPLY, sc, ut, NULL)) &&
      (v = tensor_swapaxes(c, vh, vh->ndim - 1, vh->ndim - 2)))
    r = linalg_matmul(c, v, prod);
done:
  tensor_release(x);
  if (u) tensor_release(u);
  if (sv) tensor_release(sv);
  if (vh) tensor_release(vh);
  if (ut) tensor_release(ut);
  if (v) tensor_release(v);
  if (sc) tensor_release(sc);
  if (prod) tensor_release(prod);
  return ret_tensor(r, out);
}

/* r = r @ z with the references handled (r's old reference is dropped). */
static int matmul_into(Ctx *c, Tensor **r, Tensor *z) {
  Tensor *p = linalg_matmul(c, *r, z);
  tensor_release(*r);
  *r = p;
  return p ? 0 : -1;
}

/* linalg.matrix_power(a, n): n == 0 the identity (a's dtype), n < 0 powers of inv(a), else
   repeated squaring with NumPy's order of products (1, 2 and 3 directly). */
static int bi_matrix_power(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "matrix_power", "a,n", s)) return -1;
  Ctx *c = interp_ctx(I);
  int64_t n;
  if (s[1].type == V_FLOAT || s[1].type == V_STR || s[1].type == V_NONE) {
    Tensor *x = arg_tensor(I, s[0]);
    if (!x) return -1;
    int rc = lapack_check_stacked(c, x, true);
    tensor_release(x);
    return rc ? -1 : IERR_TYPE(I, "exponent must be an integer");
  }
  Tensor *x = arg_tensor(I, s[0]), *z = NULL, *r = NULL;
  if (!x) return -1;
  if (lapack_check_stacked(c, x, true)) goto fail;
  if (value_to_int(I, s[1], &n)) {
    ctx_clear(c);
    IERR_TYPE(I, "exponent must be an integer");
    goto fail;
  }
  if (n == 0) {
    if (!(r = tensor_zeros(c, x->dtype, x->ndim, x->shape))) goto fail;
    int64_t d = x->shape[x->ndim - 1], isz = (int64_t)dtype_size(x->dtype);
    for (int64_t b = 0; b < (d ? tensor_size(r) / (d * d) : 0); b++)
      for (int64_t i = 0; i < d; i++)
        dtype_set_i64(x->dtype, tensor_data(r) + (b * d * d + i * d + i) * isz, 1);
    tensor_release(x);
    return ret_tensor(r, out);
  }
  if (n < 0) {
    Tensor *inv = lapack_inv(c, x);
    tensor_release(x);
    if (!(x = inv)) return -1;
    n = n == INT64_MIN ? INT64_MAX : -n;
  }
  if (n <= 3) {
    r = tensor_retain(x);
    for (int64_t i = 1; i < n; i++)
      if (matmul_into(c, &r, x)) goto fail;
    tensor_release(x);
    return ret_tensor(r, out);
  }
  while (n > 0) {
    if (!z) z = tensor_retain(x);
    else if (matmul_into(c, &z, z)) goto fail;
    int bit = (int)(n % 2);
    n /= 2;
    if (bit) {
      if (!r) r = tensor_retain(z);
      else if (matmul_into(c, &r, z)) goto fail;
    }
  }
  tensor_release(x);
  tensor_release(z);
  return ret_tensor(r, out);
fail:
  tensor_release(x);
  if (z) tensor_release(z);
  if (r) tensor_release(r);
  return -1;
}

/* dot of two reference-owned operands: consumes a and b. */
static Tensor *dot_take(Ctx *c, Tensor *a, Tensor *b) {
  Tensor *r = a && b ? linalg_dot(c, a, b) : NULL;
  if (a) tensor_release(a);
  if (b) tensor_release(b);
  return r;
}

/* The product of ts[i..j] in the order of the matrix-chain solution `split` (n x n). */
static Tensor *chain(Ctx *c, Tensor **ts, const int *split, int n, int i, int j) {
  if (i == j) return tensor_retain(ts[i]);
  int k = split[i * n + j];
  return dot_take(c, chain(c, ts, split, n, i, k), chain(c, ts, split, n, k + 1, j));
}

/* linalg.multi_dot(arrays, *, out=None): the chain of dot products in the cheapest order
   (NumPy's cost rule for three operands, the matrix-chain dynamic programme beyond);
   a 1-d first/last operand is a row/column vector, dropped from the result. */
static int bi_multi_dot(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "multi_dot", "arrays,*,out=", s)) return -1;
  Ctx *c = interp_ctx(I);
  Tensor **ts = NULL, *r = NULL, *o = NULL;
  int64_t n = 0;
  double *cost = NULL;
  int *split = NULL;
  size_t cost_bytes = 0, split_bytes = 0;
  if (given(s[1])) {
    if (s[1].type != V_TENSOR) return IERR_TYPE(I, "return arrays must be of ArrayType");
    o = s[1].t;
  }
  if (s[0].type != V_LIST && s[0].type != V_TUPLE)
    return IERR_TYPE(I, "multi_dot() argument must be a sequence of arrays");
  if (as_list(s[0])->n < 2) return IERR_VALUE(I, "Expecting at least two arrays.");
  if (sequence_tensors(I, s[0], "multi_dot", &ts, &n)) return -1;
  if (n == 2) {
    r = linalg_dot(c, ts[0], ts[1]);
    goto done;
  }
  int nd_first = ts[0]->ndim, nd_last = ts[n - 1]->ndim;
  if (nd_first == 1) {
    int64_t sh[2] = {1, ts[0]->shape[0]};
    Tensor *t = tensor_reshape(c, ts[0], 2, sh);
    if (!t) goto done;
    tensor_release(ts[0]);
    ts[0] = t;
  }
  if (nd_last == 1) {
    int64_t sh[2] = {ts[n - 1]->shape[0], 1};
    Tensor *t = tensor_reshape(c, ts[n - 1], 2, sh);
    if (!t) goto done;
    tensor_release(ts[n - 1]);
    ts[n - 1] = t;
  }
  for (int64_t i = 0; i < n; i++)
    if (ts[i]->ndim != 2) {
      ERR_LINALG(c, "%d-dimensional array given. Array must be two-dimensional", ts[i]->ndim);
      goto done;
    }
  if (n == 3) {
    double a0 = (double)ts[0]->shape[0], a1b0 = (double)ts[0]->shape[1];
    double b1c0 = (double)ts[2]->shape[0], c1 = (double)ts[2]->shape[1];
    double cost1 = a0 * b1c0 * (a1b0 + c1), cost2 = a1b0 * c1 * (a0 + b1c0);
    if (cost1 < cost2)
      r = dot_take(c, linalg_dot(c, ts[0], ts[1]), tensor_retain(ts[2]));
    else
      r = dot_take(c, tensor_retain(ts[0]), linalg_dot(c, ts[1], ts[2]));
  } else {
    int nn = (int)n;
    cost_bytes = sizeof(double) * (size_t)(nn * nn);
    split_bytes = sizeof(int) * (size_t)(nn * nn);
    if (!(cost = ctx_calloc(c, cost_bytes)) || !(split = ctx_calloc(c, split_bytes))) goto done;
    for (int l = 1; l < nn; l++)
      for (int i = 0; i < nn - l; i++) {
        int j = i + l;
        cost[i * nn + j] = INFINITY;
        for (int k = i; k < j; k++) {
          double q = cost[i * nn + k] + cost[(k + 1) * nn + j] +
                     (double)ts[i]->shape[0] * (double)ts[k]->shape[1] *
                         (double)ts[j]->shape[1];
          if (q < cost[i * nn + j]) {
            cost[i * nn + j] = q;
            split[i * nn + j] = k;
          }
        }
      }
    r = chain(c, ts, split, nn, 0, nn - 1);
  }
  if (r && (nd_first == 1 || nd_last == 1)) {
    Tensor *t = nd_first == 1 && nd_last == 1 ? tensor_reshape(c, r, 0, NULL) : tensor_ravel(c, r);
    tensor_release(r);
    r = t;
  }
done:
  if (cost) ctx_free(c, cost, cost_bytes);
  if (split) ctx_free(c, split, split_bytes);
  free_tensors(I, ts, n);
  if (!r) return -1;
  if (o) {
    int rc = tensor_check_writable(c, o);
    if (rc == 0) rc = tensor_assign(c, o, r);
    tensor_release(r);
    if (rc) return -1;
    *out = v_tensor(tensor_retain(o));
    return 0;
  }
  return ret_tensor(r, out);
}

const Builtin builtins_linalg_table[] = {
  {"linalg", "inv", bi_inv, "inv(a)\n\nCompute the (multiplicative) inverse of a matrix."},
  {"linalg", "solve", bi_solve, "solve(a, b)\n\nSolve a linear matrix equation, or system of "
   "linear scalar equations."},
  {"linalg", "det", bi_det, "det(a)\n\nCompute the determinant of an array."},
  {"linalg", "slogdet", bi_slogdet, "slogdet(a)\n\nCompute the sign and (natural) logarithm "
   "of the determinant of an array."},
  {"linalg", "cholesky", bi_cholesky, "cholesky(a)\n\nCholesky decomposition."},
  {"linalg", "eigh", bi_eigh, "eigh(a, UPLO='L')\n\nReturn the eigenvalues and eigenvectors "
   "of a complex Hermitian (conjugate symmetric) or a real symmetric matrix."},
  {"linalg", "eigvalsh", bi_eigvalsh, "eigvalsh(a, UPLO='L')\n\nCompute the eigenvalues of a "
   "complex Hermitian or real symmetric matrix."},
  {"linalg", "svd", bi_svd, "svd(a, full_matrices=True, compute_uv=True, hermitian=False)\n\n"
   "Singular Value Decomposition."},
  {"linalg", "qr", bi_qr, "qr(a, mode='reduced')\n\nCompute the qr factorization of a "
   "matrix."},
  {"linalg", "lstsq", bi_lstsq, "lstsq(a, b, rcond='warn')\n\nReturn the least-squares "
   "solution to a linear matrix equation."},
  {"linalg", "matrix_rank", bi_matrix_rank, "matrix_rank(A, tol=None, hermitian=False)\n\n"
   "Return matrix rank of array using SVD method"},
  {"linalg", "pinv", bi_pinv, "pinv(a, rcond=1e-15, hermitian=False)\n\nCompute the "
   "(Moore-Penrose) pseudo-inverse of a matrix."},
  {"linalg", "matrix_power", bi_matrix_power, "matrix_power(a, n)\n\nRaise a square matrix "
   "to the (integer) power n."},
  {"linalg", "multi_dot", bi_multi_dot, "multi_dot(arrays, *, out=None)\n\nCompute the dot "
   "product of two or more arrays in a single function call, while automatically selecting "
   "the fastest evaluation order."},
  {NULL, NULL, NULL, NULL}
};
