/*
** fuse.h -- fused evaluation of elementwise expression trees.  The evaluator describes a tree
** of ufunc applications (leaves are tensors); fuse_run then computes it in one pass over
** blocks that stay in cache, calling the very same typed ufunc loops as the unfused path on
** each block, with the same operand casts and intermediate dtypes, so results are bit for bit
** those of evaluating node by node.
*/
#ifndef TSR_FUSE_H
#define TSR_FUSE_H

#include "rt.h"

#define FUSE_MAXNODE 32   /* nodes of one program, leaves included */
#define FUSE_MAXLEAF 7    /* tensors one fused pass reads (the iterator takes 8 operands) */

typedef enum { FN_LEAF, FN_BINARY, FN_UNARY } FuseKind;

typedef struct FuseNode {
  FuseKind kind;
  int op;                 /* BinaryUfunc or UnaryUfunc */
  int a, b;               /* operand nodes (b: binary only) */
  DType ct, ot;           /* the loop's dtype and the result dtype (a leaf: its dtype twice) */
  Tensor *leaf;           /* FN_LEAF: owned reference */
  int nleaves;            /* leaves under this node */
  int ndim;
  int64_t shape[TSR_MAXDIMS];   /* the (broadcast) shape of the node's value */
} FuseNode;

typedef struct FuseProg {
  int n;
  FuseNode nodes[FUSE_MAXNODE];
} FuseProg;

/* An empty program. */
RT_HIDDEN void fuse_init(FuseProg *p);
/* A new empty program (c's spare one when free), or NULL with MemoryError; fuse_done frees
   its leaves and gives it back (kept as c's spare while the buffer cache is on). */
RT_HIDDEN FuseProg *fuse_new(Ctx *c);
RT_HIDDEN void fuse_done(Ctx *c, FuseProg *p);
/* Frees c's spare program (ctx_close_speedups calls it). */
RT_HIDDEN void fuse_drop_spare(Ctx *c);
/* Releases the leaves' references. */
RT_HIDDEN void fuse_free(FuseProg *p);
/* Adds leaf t (takes the reference in every case).  Returns its node, or -2 when the program
   is full (t released). */
RT_HIDDEN int fuse_leaf(FuseProg *p, Tensor *t);
/* Adds op(a, b) / op(a) on existing nodes, after the checks ufunc_binary / ufunc_unary make
   first (dtype resolution, then broadcasting), with their error messages.  Returns the new
   node, -1 with the error in c, or -2 when this operation has no fused form (integer power,
   exact int/uint64 comparisons) or the program is full: the caller then computes it unfused. */
RT_HIDDEN int fuse_binary(Ctx *c, FuseProg *p, BinaryUfunc op, int a, int b);
RT_HIDDEN int fuse_unary(Ctx *c, FuseProg *p, UnaryUfunc op, int a);
/* Computes node i (a new C-contiguous tensor of the node's shape and dtype; a leaf gives a new
   reference to its tensor).  NULL on error (memory, interrupt). */
RT_HIDDEN Tensor *fuse_run(Ctx *c, FuseProg *p, int i);
/* Computes node i straight into dst (a writable view of the node's shape and dtype), as
   `dst[...] = value` would store it: inputs that share memory with dst are read as they were
   before the statement (iter_run_staged).  Returns 0, -1 on error (memory, interrupt,
   FloatingPointError is never among them: under seterr 'raise' it declines), or 1 when it
   does not apply (other shape, dtype, overlap pattern; nothing written): the caller then
   stores fuse_run's result. */
RT_HIDDEN int fuse_run_into(Ctx *c, FuseProg *p, int i, Tensor *dst);

/* From ufunc.c: the dtype resolution of ufunc_binary / ufunc_unary.  Sets the loop dtype ct
   and the result dtype ot and returns 0, or -1 with NumPy's TypeError recorded; 1 when
   ufunc_binary takes a special path (int64 against uint64 comparisons, integer powers).
   Operands are only read for dtype, weak kind and, for weak ones, their value. */
RT_HIDDEN int ufunc_binary_resolve(Ctx *c, BinaryUfunc op, Tensor *a, Tensor *b, DType *ct,
                                   DType *ot);
RT_HIDDEN int ufunc_unary_resolve(Ctx *c, UnaryUfunc op, Tensor *a, DType *ct, DType *ot);
/* The typed inner loops (operand 0 the output, all operands of dtype ct but the output). */
RT_HIDDEN InnerLoop ufunc_binary_loop(BinaryUfunc op, DType ct);
RT_HIDDEN InnerLoop ufunc_unary_loop(UnaryUfunc op, DType ct);
/* From ufunc.c, for floating-point error reports (fperr.c): does the ufunc report the flags
   its loops raise (arithmetic and transcendental functions do; comparisons, min/max and
   bitwise ops do not)?  ufunc_binary_fpname is the name NumPy 1.24 puts in the message for
   op on operands a and b with loop dtype ct: its name, "scalar NAME" when
   both are NumPy/Python scalars, "square"/"reciprocal"/"sqrt" for an array to the power
   2/-1/0.5.  It returns a static string or buf (size bytes). */
RT_HIDDEN bool ufunc_binary_reports(BinaryUfunc op);
RT_HIDDEN bool ufunc_unary_reports(UnaryUfunc op);
RT_HIDDEN const char *ufunc_binary_fpname(BinaryUfunc op, DType ct, const Tensor *a,
                                          const Tensor *b, char *buf, size_t size);

#endif
