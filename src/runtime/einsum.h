/*
** einsum.h -- numpy.einsum and numpy.einsum_path: subscript parsing with NumPy 1.24's rules and
** messages, NumPy's 'greedy' and 'optimal' contraction paths (same path lists), and execution
** as a sequence of pairwise contractions on CBLAS GEMM/DOT (float) or strided loops (integers).
*/
#ifndef TSR_EINSUM_H
#define TSR_EINSUM_H

#include "rt.h"

/* What einsum's optimize= (and einsum_path's) asks for. */
typedef enum {
  EINSUM_OPT_NONE,       /* optimize=False: NumPy's c_einsum semantics and messages */
  EINSUM_OPT_GREEDY,     /* True or 'greedy' */
  EINSUM_OPT_OPTIMAL,    /* 'optimal' */
  EINSUM_OPT_EXPLICIT,   /* ['einsum_path', (0, 1), ...] */
  EINSUM_OPT_UNKNOWN     /* any other string: KeyError when a path must be searched */
} EinsumOptKind;

/* casting= (NumPy's rules; zero is einsum's default 'safe'). */
typedef enum { EINSUM_CAST_SAFE, EINSUM_CAST_NO, EINSUM_CAST_EQUIV, EINSUM_CAST_SAME_KIND,
               EINSUM_CAST_UNSAFE } EinsumCasting;

/* An optimize= request.  For EINSUM_OPT_EXPLICIT, step k contracts the positions
   pos[start[k] .. start[k+1]) (nsteps + 1 entries in start).  memory_limit < 0 means NumPy's
   default (the largest input or output size); ('greedy', N) gives N.  name is the unknown
   strategy's string (for the KeyError).  All arrays are borrowed. */
typedef struct EinsumOpt {
  EinsumOptKind kind;
  double memory_limit;
  int nsteps;
  const int *start, *pos;
  const char *name;
  EinsumCasting casting;   /* the casting= of the call */
} EinsumOpt;

/* A contraction path as einsum_path returns it: nsteps tuples, tuple k holding
   pos[start[k] .. start[k+1]).  Arrays owned through the Ctx (einsum_path_free). */
typedef struct EinsumPath {
  int nsteps;
  int *start;   /* nsteps + 1 entries */
  int *pos;
  size_t start_bytes, pos_bytes;
} EinsumPath;

/* numpy.einsum(subscripts, *ops, out=out, dtype=dtype, optimize=opt).  subscripts is the
   string form (the language layer turns the sublist form into it).  ops: nop >= 1 tensors of
   any shapes and dtypes (borrowed).  dtype: -1 = NumPy's promotion of the operands (and out),
   else the dtype to compute in (operands must cast to it under casting='safe').  out: NULL or a
   tensor of the result shape that receives the result (safe casting).  Returns a new reference:
   out itself when given; a view of ops[0] for a one-operand einsum without summation, as
   NumPy's ('ii->i', 'ij->ji'); else a fresh tensor.  Errors as NumPy 1.24: ValueError for bad
   subscripts ("invalid subscript '$' in einstein sum subscripts string, subscripts must be
   letters"), operand counts, label sizes ("operands could not be broadcast together with
   remapped shapes [original->remapped]: ..." for optimize=False, "Size of label 'j' for
   operand 1 (3) does not match previous terms (4)." otherwise); TypeError for casts. */
RT_HIDDEN Tensor *einsum_compute(Ctx *c, const char *subscripts, int nop, Tensor *const *ops,
                                 const EinsumOpt *opt, int dtype, Tensor *out);

/* numpy.einsum_path(subscripts, *ops, optimize=opt): fills *path (the tuples after
   'einsum_path') and appends NumPy's report text to report.  The path for 'greedy' and
   'optimal' equals NumPy's.  Errors as einsum_compute with optimize != False, plus
   IndexError "pop index out of range" and RuntimeError "Invalid einsum_path is specified: 1
   more operands has to be contracted." for bad explicit paths.  Returns 0 or -1. */
RT_HIDDEN int einsum_path(Ctx *c, const char *subscripts, int nop, Tensor *const *ops,
                          const EinsumOpt *opt, EinsumPath *path, Buf *report);
RT_HIDDEN void einsum_path_free(Ctx *c, EinsumPath *path);

/* Frees the plan cache that einsum_compute keeps in c (called when the state closes). */
RT_HIDDEN void einsum_cache_free(Ctx *c);

#endif
