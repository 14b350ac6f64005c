/*
** fuse.c -- fused elementwise evaluation (see fuse.h): a tree of ufunc applications computed
** in one pass over cache-sized blocks, with the unfused path's loops, casts and dtypes.
*/
#include "fuse.h"

#include <stdatomic.h>
#include <string.h>

#define BLOCK 512          /* elements per block: a few intermediates stay in L1 */

void fuse_init(FuseProg *p) { p->n = 0; }

FuseProg *fuse_new(Ctx *c) {
  FuseProg *p = c->fuse_spare;
  if (p) c->fuse_spare = NULL;
  else if (!(p = ctx_malloc(c, sizeof *p))) return NULL;
  fuse_init(p);
  return p;
}

void fuse_done(Ctx *c, FuseProg *p) {
  fuse_free(p);
  if (c->cache_on && !c->fuse_spare) c->fuse_spare = p;
  else ctx_free(c, p, sizeof *p);
}

void fuse_drop_spare(Ctx *c) {
  if (c->fuse_spare) ctx_free(c, c->fuse_spare, sizeof(FuseProg));
  c->fuse_spare = NULL;
}

void fuse_free(FuseProg *p) {
  for (int i = 0; i < p->n; i++)
    if (p->nodes[i].kind == FN_LEAF && p->nodes[i].leaf) tensor_release(p->nodes[i].leaf);
  p->n = 0;
}

int fuse_leaf(FuseProg *p, Tensor *t) {
  if (p->n >= FUSE_MAXNODE) { tensor_release(t); return -2; }
  FuseNode *f = &p->nodes[p->n];
  f->kind = FN_LEAF;
  f->op = 0;
  f->a = f->b = -1;
  f->ct = f->ot = t->dtype;
  f->leaf = t;
  f->nleaves = 1;
  f->ndim = t->ndim;
  memcpy(f->shape, t->shape, (size_t)t->ndim * sizeof *t->shape);
  return p->n++;
}

/* What the type and shape checks see of node i: the leaf itself, or a stand-in with the
   node's result dtype and shape (never weak: ufuncs return strong tensors). */
static Tensor *stand_in(FuseProg *p, int i, Tensor *buf) {
  FuseNode *f = &p->nodes[i];
  if (f->kind == FN_LEAF) return f->leaf;
  memset(buf, 0, offsetof(Tensor, shape));
  buf->dtype = f->ot;
  buf->ndim = f->ndim;
  memcpy(buf->shape, f->shape, (size_t)f->ndim * sizeof *f->shape);
  return buf;
}

/* Replaces node i by a leaf holding its computed value.  Returns 0 or -1. */
static int materialize(Ctx *c, FuseProg *p, int i) {
  Tensor *t = fuse_run(c, p, i);
  if (!t) return -1;
  FuseNode *f = &p->nodes[i];
  f->kind = FN_LEAF;
  f->a = f->b = -1;
  f->ct = f->ot = t->dtype;
  f->leaf = t;
  f->nleaves = 1;
  return 0;
}

int fuse_binary(Ctx *c, FuseProg *p, BinaryUfunc op, int a, int b) {
  Tensor sa, sb, *ta, *tb;
  DType ct, ot;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  ta = stand_in(p, a, &sa);
  tb = stand_in(p, b, &sb);
  int r = ufunc_binary_resolve(c, op, ta, tb, &ct, &ot);
  if (r < 0) return -1;
  if (r > 0 || p->n >= FUSE_MAXNODE) return -2;
  Tensor *both[2] = {ta, tb};
  if (broadcast_shapes(c, 2, both, &nd, shape) < 0) return -1;
  /* integer scalar operations stay unfused: NumPy's scalar math checks them for overflow
     (ufunc_binary does) */
  if (nd == 0 && !dtype_is_float(ct)) return -2;
  /* a computed scalar exponent is computed now, so that the warnings can name NumPy's fast
     paths for `array ** 2`, `** -1`, `** 0.5` (square, reciprocal, sqrt) by its value */
  if (op == UF_POWER && p->nodes[b].kind != FN_LEAF && p->nodes[b].ndim == 0 &&
      materialize(c, p, b) < 0)
    return -1;
  /* keep within the iterator's operand count: compute the larger side first */
  while (p->nodes[a].nleaves + p->nodes[b].nleaves > FUSE_MAXLEAF) {
    int big = p->nodes[a].nleaves >= p->nodes[b].nleaves ? a : b;
    if (materialize(c, p, big) < 0) return -1;
  }
  FuseNode *f = &p->nodes[p->n];
  f->kind = FN_BINARY;
  f->op = op;
  f->a = a;
  f->b = b;
  f->ct = ct;
  f->ot = ot;
  f->leaf = NULL;
  f->nleaves = p->nodes[a].nleaves + p->nodes[b].nleaves;
  f->ndim = nd;
  memcpy(f->shape, shape, (size_t)nd * sizeof *shape);
  return p->n++;
}

int fuse_unary(Ctx *c, FuseProg *p, UnaryUfunc op, int a) {
  Tensor sa, *ta = stand_in(p, a, &sa);
  DType ct, ot;
  if (ufunc_unary_resolve(c, op, ta, &ct, &ot) < 0) return -1;
  if (p->n >= FUSE_MAXNODE || (ta->ndim == 0 && !dtype_is_float(ct))) return -2;
  FuseNode *f = &p->nodes[p->n];
  *f = p->nodes[a];
  f->kind = FN_UNARY;
  f->op = op;
  f->a = a;
  f->b = -1;
  f->ct = ct;
  f->ot = ot;
  f->leaf = NULL;
  return p->n++;
}

/* ------------------------------------------------------------------------------------------
** Execution.  The live nodes under the root, in post-order, become steps; leaves become
** iterator operands 1..k.  Per block, each step reads its operands (a leaf straight from the
** tensor, an earlier step from its block buffer), casts those whose dtype differs from the
** loop's (as the unfused path casts its inputs), and writes its block buffer, the root
** writing the output.
*/
typedef struct Src { int leaf; int step; DType dt; } Src;   /* leaf operand k, or step j */
typedef struct Step {
  InnerLoop loop;
  int nin;
  Src in[2];
  DType ct, ot;
  int node;                 /* the program node computed */
  bool reports;             /* the ufunc reports floating-point errors (fperr.c) */
} Step;
typedef struct Exec {
  int nstep;
  bool reports;             /* some step reports floating-point errors */
  bool check;               /* read the FPU flags after each step (the attributing pass) */
  Step steps[FUSE_MAXNODE];
  atomic_int fp[FUSE_MAXNODE];   /* FPE_* flags each step raised, OR'ed over all threads */
} Exec;

/* aux is the Exec; the only thing written to it is the atomic OR of each step's FPU flags
   when e->check (read after every step's loop, per block, and cleared: so each ufunc of the
   tree reports its own errors, as NumPy's node-by-node evaluation does). */
static void fused_loop(char **d, const int64_t *s, int64_t n, void *aux) {
  Exec *e = aux;
  int raised[FUSE_MAXNODE];
  if (e->check) {
    memset(raised, 0, (size_t)e->nstep * sizeof *raised);
    fperr_clear();
  }
  /* block buffers sized to the work (a short run needs little stack): one per step for its
     result, two for operand casts */
  int64_t blk = n < BLOCK ? n : BLOCK, bytes = blk * 8;
  char raw[(e->nstep + 2) * bytes + 64];
  char *base = (char *)(((uintptr_t)raw + 63) & ~(uintptr_t)63), *cast[2];
  cast[0] = base + e->nstep * bytes;
  cast[1] = cast[0] + bytes;
#define buf(k) (base + (k) * bytes)
  for (int64_t j0 = 0; j0 < n; j0 += BLOCK) {
    int64_t m = n - j0 < BLOCK ? n - j0 : BLOCK;
    for (int k = 0; k < e->nstep; k++) {
      const Step *st = &e->steps[k];
      char *args[3];
      int64_t steps[3];
      for (int i = 0; i < st->nin; i++) {
        const Src *src = &st->in[i];
        char *ptr;
        int64_t stride;
        if (src->leaf > 0) {
          stride = s[src->leaf];
          ptr = d[src->leaf] + j0 * stride;
        } else {
          ptr = buf(src->step);
          stride = (int64_t)dtype_size(src->dt);
        }
        if (src->dt != st->ct) {
          int64_t cnt = stride == 0 ? 1 : m, csz = (int64_t)dtype_size(st->ct);
          dtype_cast_strided(st->ct, cast[i], csz, src->dt, ptr, stride, cnt);
          ptr = cast[i];
          stride = stride == 0 ? 0 : csz;
        }
        args[i + 1] = ptr;
        steps[i + 1] = stride;
      }
      if (k == e->nstep - 1) {
        args[0] = d[0] + j0 * s[0];
        steps[0] = s[0];
      } else {
        args[0] = buf(k);
        steps[0] = (int64_t)dtype_size(st->ot);
      }
      st->loop(args, steps, m, NULL);
      if (e->check) {
        int f = fperr_test();
        if (f) { raised[k] |= f; fperr_clear(); }
      }
    }
  }
#undef buf
  if (e->check)
    for (int k = 0; k < e->nstep; k++)
      if (raised[k] && e->steps[k].reports) atomic_fetch_or(&e->fp[k], raised[k]);
}

/* Appends the steps of node i's subtree (post-order) to e and its leaves to leaves[], and
   sets *r to read node i's value. */
static void compile(FuseProg *p, int i, Exec *e, Tensor **leaves, int *nleaf, Src *r) {
  FuseNode *f = &p->nodes[i];
  r->dt = f->ot;
  if (f->kind == FN_LEAF) {
    leaves[*nleaf] = f->leaf;
    r->leaf = ++*nleaf;
    r->step = -1;
    return;
  }
  Src in[2] = {{0, -1, TSR_BOOL}, {0, -1, TSR_BOOL}};
  compile(p, f->a, e, leaves, nleaf, &in[0]);
  if (f->kind == FN_BINARY) compile(p, f->b, e, leaves, nleaf, &in[1]);
  Step *st = &e->steps[e->nstep];
  st->nin = f->kind == FN_BINARY ? 2 : 1;
  st->in[0] = in[0];
  st->in[1] = in[1];
  st->ct = f->ct;
  st->ot = f->ot;
  st->loop = f->kind == FN_BINARY ? ufunc_binary_loop((BinaryUfunc)f->op, f->ct)
                                  : ufunc_unary_loop((UnaryUfunc)f->op, f->ct);
  st->node = i;
  st->reports = f->kind == FN_BINARY ? ufunc_binary_reports((BinaryUfunc)f->op)
                                     : ufunc_unary_reports((UnaryUfunc)f->op);
  if (st->reports) e->reports = true;
  atomic_init(&e->fp[e->nstep], 0);
  r->leaf = 0;
  r->step = e->nstep++;
}

/* Reports the FPU flags of each step, in evaluation order, under its ufunc's name (what
   evaluating the tree node by node reports).  0, or -1 with FloatingPointError. */
static int report_steps(Ctx *c, FuseProg *p, Exec *e) {
  for (int k = 0; k < e->nstep; k++) {
    int f = atomic_load(&e->fp[k]);
    if (!f) continue;
    const FuseNode *n = &p->nodes[e->steps[k].node];
    char buf[64];
    const char *name;
    if (n->kind == FN_BINARY) {
      Tensor sa, sb;
      name = ufunc_binary_fpname((BinaryUfunc)n->op, n->ct, stand_in(p, n->a, &sa),
                                 stand_in(p, n->b, &sb), buf, sizeof buf);
    } else {
      name = unary_ufunc_names[n->op];
    }
    if (fperr_report(c, f, name) < 0) return -1;
  }
  return 0;
}

/* Threads from about 400 000 operand elements touched (131072 elements for a binary op's
   three operands, 65536 for a*b + c*d - e's six): a pass over more operands is worth
   splitting at fewer elements. */
static int64_t fused_par_min(int nleaf) { return (int64_t)393216 / (nleaf + 1); }

/* Computes node i (not a leaf) into dst.  With fresh, dst is a new tensor that no operand
   can share memory with; otherwise dst may overlap operands, and the pass is staged
   (iter_run_staged) or declined.  Returns 0, -1 on error, or 1 when declined (nothing was
   written: under seterr 'raise', which must stop before any write, or an overlap pattern the
   staged pass does not take). */
static int run_into(Ctx *c, FuseProg *p, int i, Tensor *dst, bool fresh) {
  FuseNode *f = &p->nodes[i];
  Exec e;
  Tensor *leaves[FUSE_MAXLEAF], *ops[FUSE_MAXLEAF + 1] = {NULL};
  int nleaf = 0, rc;
  Src root;
  e.nstep = 0;
  e.reports = e.check = false;
  compile(p, i, &e, leaves, &nleaf, &root);
  bool check = e.reports && fperr_active(c);
  if (!fresh && check && fperr_any_raise(c)) return 1;
  ops[0] = dst;
  bool overlap = false;
  /* the leaves live in p for the whole pass: a leaf of the result's shape is read as it is,
     another through a broadcast header on this stack (no allocation per pass) */
  Tensor views[FUSE_MAXLEAF];
  for (int k = 0; k < nleaf; k++) {
    Tensor *t = leaves[k];
    bool same = t->ndim == f->ndim && !memcmp(t->shape, f->shape, (size_t)f->ndim * sizeof *f->shape);
    if (same) ops[k + 1] = t;
    else if (tensor_broadcast_header(c, t, f->ndim, f->shape, &views[k]) < 0) return -1;
    else ops[k + 1] = &views[k];
    if (!fresh && tensor_may_overlap(dst, ops[k + 1])) overlap = true;
  }
  if (!overlap) {
    /* The flags are read once for the whole pass (the pool hands its workers' flags back);
       only when some were raised does a second pass, with the same inputs into the same
       output and so the same results, read them after every step to tell which ufunc raised
       what.  Reading them per step and block always would cost more than the arithmetic on
       short rows. */
    if (check) fperr_clear();
    rc = iter_run_parallel_from(c, nleaf + 1, ops, fused_loop, &e, fused_par_min(nleaf));
    if (rc == 0 && check && fperr_test()) {
      e.check = true;
      rc = iter_run_parallel_from(c, nleaf + 1, ops, fused_loop, &e, fused_par_min(nleaf));
      if (rc == 0 && report_steps(c, p, &e) < 0) rc = -1;
    }
  } else {
    /* the inputs change as the output is written, so no second pass: a band whose flags
       were raised is computed again, attributing them, before it is written */
    Exec e2 = e;
    e2.check = true;
    for (int k = 0; k < e.nstep; k++) atomic_init(&e2.fp[k], 0);
    rc = iter_run_staged(c, nleaf + 1, ops, fused_loop, &e, check ? fused_loop : NULL, &e2);
    if (rc == 0 && check && report_steps(c, p, &e2) < 0) rc = -1;
  }
  return rc;
}

Tensor *fuse_run(Ctx *c, FuseProg *p, int i) {
  FuseNode *f = &p->nodes[i];
  if (f->kind == FN_LEAF) return tensor_retain(f->leaf);
  Tensor *r = tensor_empty(c, f->ot, f->ndim, f->shape);
  if (r && run_into(c, p, i, r, true) < 0) { tensor_release(r); return NULL; }
  return r;
}

int fuse_run_into(Ctx *c, FuseProg *p, int i, Tensor *dst) {
  FuseNode *f = &p->nodes[i];
  if (f->kind == FN_LEAF || dst->dtype != f->ot || dst->ndim != f->ndim ||
      memcmp(dst->shape, f->shape, (size_t)f->ndim * sizeof *f->shape) != 0 ||
      dst->storage->readonly || dst->readonly || tensor_size(dst) <= 1)
    return 1;
  return run_into(c, p, i, dst, false);
}
