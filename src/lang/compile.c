/*
** compile.c -- the compiler: a resolved chunk's AST to register bytecode (vm.h), one Proto
** for the module body and one for each function, all in the chunk's arena.
**
** Expressions compile into a destination register; operands that are locals or immediate
** constants are named directly (no load); temporaries are handed out stack-wise and released
** by the instruction that consumes them (KILL bits).  Every instruction carries the node whose
** position an error there reports, chosen as the tree-walker chose it.
**
** Still run by the tree-walker, on the same frame (escapes): `def` (the function object and
** its defaults), `import`, `del`, `assert`, assignment to attribute targets (`x.flat = v`),
** displays of more than 255 items, and fused tensor expressions (FUSED: the tree-walker's
** fused pass over runtime/fuse.c).  Everything else runs in the VM.
*/
#include "vm.h"

#include <stdio.h>
#include <string.h>

typedef struct Loop {
  struct Loop *prev;
  int breaks;       /* chain of JMPs to patch to the loop's end (-1: none) */
  int continues;    /* chain of JMPs to patch to the continue target (for loops) */
  int head;         /* pc of a while loop's test (continue goes there), or -1 */
  Node *poll_node;  /* the position of the loop's step charge */
} Loop;

typedef struct Comp {
  Interp *I;
  Ctx *c;
  Arena *arena;
  Node **where;
  Instr *code; Node **pos; int ncode, capcode;
  Value *k; int nk, capk;
  int nlocals, freereg, maxreg;
  bool module, interactive, want_result;
  Node *top;            /* the top-level statement being compiled (module bodies) */
  bool in_fused;        /* compiling a fusion root's register code (inner roots are plain) */
  const char *qualname; /* the function's qualified name ("outer.<locals>.inner") */
  uint8_t *assigned;    /* nlocals: definitely bound here */
  uint8_t *unsafe;      /* nlocals: deleted somewhere in the function */
  Loop *loop;
  /* the first instructions and constants need no allocation (a state whose memory is full
     must still run `del x`) */
  Instr small_code[32];
  Node *small_pos[32];
  Value small_k[8];
} Comp;

static int cexpr(Comp *C, Node *n, int dst);
static int cblock(Comp *C, Node *list);
static int compile_function(Comp *outer, Node *def);

static int fail_at(Comp *C, Node *n) {
  if (C->where && !*C->where) *C->where = n;
  return -1;
}

static int syntax_error(Comp *C, Node *n, const char *msg) {
  ctx_err(C->c, TSR_ERR_SYNTAX, "SyntaxError", "%s", msg);
  return fail_at(C, n);
}

static int emit(Comp *C, Instr i, Node *n) {
  if (C->ncode == C->capcode) {
    int ncap = 2 * C->capcode;
    Instr *code = ctx_malloc(C->c, (size_t)ncap * sizeof *code);
    Node **pos = code ? ctx_malloc(C->c, (size_t)ncap * sizeof *pos) : NULL;
    if (!pos) { if (code) ctx_free(C->c, code, (size_t)ncap * sizeof *code); return -1; }
    if (C->ncode) {
      memcpy(code, C->code, (size_t)C->ncode * sizeof *code);
      memcpy((void *)pos, C->pos, (size_t)C->ncode * sizeof *pos);
    }
    if (C->code != C->small_code) {
      ctx_free(C->c, C->code, (size_t)C->capcode * sizeof *code);
      ctx_free(C->c, (void *)C->pos, (size_t)C->capcode * sizeof *pos);
    }
    C->code = code; C->pos = pos; C->capcode = ncap;
  }
  C->code[C->ncode] = i;
  C->pos[C->ncode] = n;
  return C->ncode++;
}

#define EMIT(C, i, n) do { if (emit(C, i, n) < 0) return -1; } while (0)

/* Index of constant v (an immediate), added once. */
static int addk(Comp *C, Value v) {
  for (int i = 0; i < C->nk; i++)
    if (C->k[i].type == v.type && C->k[i].i == v.i) return i;
  if (C->nk == C->capk) {
    int ncap = 2 * C->capk;
    Value *k = ctx_malloc(C->c, (size_t)ncap * sizeof *k);
    if (!k) return -1;
    if (C->nk) memcpy(k, C->k, (size_t)C->nk * sizeof *k);
    if (C->k != C->small_k) ctx_free(C->c, C->k, (size_t)C->capk * sizeof *k);
    C->k = k; C->capk = ncap;
  }
  C->k[C->nk] = v;
  return C->nk++;
}

static int alloc_reg(Comp *C, Node *n) {
  if (C->freereg >= MAX_REGS) return syntax_error(C, n, "too many local variables and temporaries");
  int r = C->freereg++;
  if (C->freereg > C->maxreg) C->maxreg = C->freereg;
  return r;
}

/* Jumps: the sBx of a pending jump holds the pc of the next pending one in its chain. */
static int emit_jump(Comp *C, unsigned op, int a, Node *n, int *chain) {
  int pc = emit(C, MK_ABX(op, 0, a, (uint32_t)*chain), n);
  if (pc < 0) return -1;
  *chain = pc;
  return pc;
}

static void patch_chain(Comp *C, int chain, int target) {
  while (chain >= 0) {
    Instr i = C->code[chain];
    int next = I_SBX(i);
    C->code[chain] = (i & 0xffffffffu) | (Instr)(uint32_t)(target - (chain + 1)) << 32;
    chain = next;
  }
}

/* The constant node's value, or false. */
static bool const_value(Node *n, Value *v) {
  switch (n->kind) {
  case N_INT: *v = v_int(n->ival); return true;
  case N_FLOAT: *v = v_float(n->fval); return true;
  case N_TRUE: *v = v_bool(true); return true;
  case N_FALSE: *v = v_bool(false); return true;
  case N_NONE: *v = v_none(); return true;
  case N_ELLIPSIS: v->type = V_ELLIPSIS; v->i = 0; return true;
  default: return false;
  }
}

static bool is_local(const Comp *C, const Node *n) {
  return !C->module && n->kind == N_NAME && n->slot > 0;
}

/* The register of local name n, checked bound first unless an assignment dominates. */
static int local_reg(Comp *C, Node *n) {
  int r = n->slot - 1;
  if (!C->assigned[r]) {
    EMIT(C, MK_ABC(OP_VM_CHECKLOCAL, 0, r, 0, 0), n);
    if (!C->unsafe[r]) C->assigned[r] = 1;
  }
  return r;
}

static void mark_assigned(Comp *C, Node *target) {
  if (C->module) return;
  if (target->kind == N_NAME && target->slot > 0) {
    if (!C->unsafe[target->slot - 1]) C->assigned[target->slot - 1] = 1;
  } else if (target->kind == N_TUPLE || target->kind == N_LIST) {
    for (Node *e = target->a; e; e = e->next) mark_assigned(C, e);
  }
}

/* n as an operand: a local's register, a constant (RK_CONST | index), or a new temporary
   holding its value (*temp set). */
static int operand(Comp *C, Node *n, unsigned *rk, bool *temp) {
  Value v;
  *temp = false;
  if (is_local(C, n)) {
    int r = local_reg(C, n);
    if (r < 0) return -1;
    *rk = (unsigned)r;
    return 0;
  }
  if (const_value(n, &v)) {
    int k = addk(C, v);
    if (k < 0) return -1;
    if (k < (int)RK_CONST) { *rk = RK_CONST | (unsigned)k; return 0; }
  }
  int t = alloc_reg(C, n);
  if (t < 0 || cexpr(C, n, t) < 0) return -1;
  *rk = (unsigned)t;
  *temp = true;
  return 0;
}

/* Like operand, but always a register. */
static int reg_operand(Comp *C, Node *n, unsigned *r, bool *temp) {
  *temp = false;
  if (is_local(C, n)) {
    int x = local_reg(C, n);
    if (x < 0) return -1;
    *r = (unsigned)x;
    return 0;
  }
  int t = alloc_reg(C, n);
  if (t < 0 || cexpr(C, n, t) < 0) return -1;
  *r = (unsigned)t;
  *temp = true;
  return 0;
}

static unsigned binop_opcode(int op) {
  switch (op) {
  case OP_ADD: return OP_VM_ADD;
  case OP_SUB: return OP_VM_SUB;
  case OP_MUL: return OP_VM_MUL;
  case OP_DIV: return OP_VM_DIV;
  default: return OP_VM_BINOP;
  }
}

/* dst = a OP b, with flags (INPLACE); position n. */
static int cbinop(Comp *C, int op, Node *a, Node *b, int dst, unsigned flags, Node *n) {
  unsigned rb, rc;
  bool tb, tc;
  int save = C->freereg;
  if (operand(C, a, &rb, &tb) < 0 || operand(C, b, &rc, &tc) < 0) return -1;
  flags |= (tb ? KILL_B : 0) | (tc ? KILL_C : 0);
  EMIT(C, MK_ABC(binop_opcode(op), MK_K(op, flags), dst, rb, rc), n);
  C->freereg = save;
  return 0;
}

static int ccompare(Comp *C, Node *n, int dst) {
  unsigned rl, rr;
  bool tl, tr;
  int save = C->freereg;
  if (operand(C, n->a, &rl, &tl) < 0) return -1;
  int end = -1;
  for (Node *it = n->b; it; it = it->next) {
    if (it->next) {   /* the right operand is used again: always a register of its own */
      int t = alloc_reg(C, it->a);
      if (t < 0 || cexpr(C, it->a, t) < 0) return -1;
      rr = (unsigned)t; tr = true;
    } else if (operand(C, it->a, &rr, &tr) < 0) {
      return -1;
    }
    unsigned flags = (tl ? KILL_B : 0) | (tr && !it->next ? KILL_C : 0);
    EMIT(C, MK_ABC(OP_VM_CMP, MK_K(it->op - OP_LT, flags), dst, rl, rr), n);
    if (it->next && emit_jump(C, OP_VM_JMPIFNOT, dst, n, &end) < 0) return -1;
    rl = rr; tl = tr;
  }
  patch_chain(C, end, C->ncode);
  /* the middle operands of a chain that stopped early are released here */
  for (int r = save; r < C->freereg; r++)
    if (r != dst) EMIT(C, MK_ABC(OP_VM_CLEAR, 0, r, 0, 0), n);
  C->freereg = save;
  return 0;
}

static int ccall(Comp *C, Node *n, int dst, bool discard) {
  int save = C->freereg;
  /* the value lands where the callee was: in dst itself when dst is the newest temporary */
  bool in_place = !discard && dst >= C->nlocals && dst == C->freereg - 1;
  int base = in_place ? dst : alloc_reg(C, n);
  if (base < 0 || cexpr(C, n->a, base) < 0) return -1;
  int npos = 0, nkw = 0;
  for (Node *arg = n->b; arg; arg = arg->next) {
    if (arg->kind == N_KWARG) nkw++;
    else if (nkw) return syntax_error(C, arg, "positional argument follows keyword argument");
    else npos++;
  }
  if (nkw) {
    const char **names = arena_alloc(C->arena, (size_t)nkw * sizeof *names);
    if (!names) return -1;
    int i = 0;
    for (Node *arg = n->b; arg; arg = arg->next)
      if (arg->kind == N_KWARG) names[i++] = arg->str;
    n->cache = (void *)names;
  }
  for (Node *arg = n->b; arg; arg = arg->next) {
    int r = alloc_reg(C, arg);
    if (r < 0 || cexpr(C, arg->kind == N_KWARG ? arg->a : arg, r) < 0) return -1;
  }
  if (npos + nkw > 0xffff) return syntax_error(C, n, "too many arguments");
  EMIT(C, MK_ABC(OP_VM_CALL, discard ? KILL_A : 0, base, npos, nkw), n);
  if (!discard && dst != base) EMIT(C, MK_ABC(OP_VM_MOVE, KILL_B, dst, base, 0), n);
  C->freereg = save;
  return 0;
}

/* Consecutive registers holding the items of list (n of them), then op dst base n. */
static int cseq(Comp *C, unsigned op, Node *list, int count, int dst, Node *n) {
  if (count > 255) {   /* a long literal: built by the tree-walker, not in registers */
    EMIT(C, MK_ABC(OP_VM_EVAL, 0, dst, 0, 0), n);
    return 0;
  }
  int save = C->freereg;
  int base = C->freereg;
  for (Node *e = list; e; e = e->next) {
    int r = alloc_reg(C, e);
    if (r < 0 || cexpr(C, e, r) < 0) return -1;
  }
  if (count > 0xffff) return syntax_error(C, n, "too many items in a display");
  EMIT(C, MK_ABC(op, 0, dst, base, count), n);
  C->freereg = save;
  return 0;
}

/* A fusion root: FUSED (the tree-walker's fused pass, which jumps over what follows) and the
   same tree as register code for when the node is marked unfused. */
static int cfused(Comp *C, Node *n, int dst) {
  int chain = -1;
  if (emit_jump(C, OP_VM_FUSED, dst, n, &chain) < 0) return -1;
  int rc;
  bool outer = C->in_fused;
  C->in_fused = true;
  if (n->kind == N_BINOP) rc = cbinop(C, n->op, n->a, n->b, dst, 0, n);
  else if (n->kind == N_COMPARE) rc = ccompare(C, n, dst);
  else {
    unsigned rb; bool tb;
    int save = C->freereg;
    rc = reg_operand(C, n->a, &rb, &tb);
    if (rc == 0) rc = emit(C, MK_ABC(OP_VM_UNOP, MK_K(n->op - OP_NEG, tb ? KILL_B : 0), dst, rb, 0), n) < 0 ? -1 : 0;
    C->freereg = save;
  }
  C->in_fused = outer;
  if (rc < 0) return -1;
  patch_chain(C, chain, C->ncode);
  return 0;
}

static int cexpr_to_local(Comp *C, Node *n, int r);
static int cjump_false(Comp *C, Node *cond, Node *at, int *chain);

/* cexpr, into a variable's register or a temporary. */
static int cexpr_dst(Comp *C, Node *n, int dst) {
  return dst < C->nlocals ? cexpr_to_local(C, n, dst) : cexpr(C, n, dst);
}

static int cexpr_inner(Comp *C, Node *n, int dst) {
  Value v;
  if (const_value(n, &v)) {
    int k = addk(C, v);
    if (k < 0) return -1;
    EMIT(C, MK_ABX(OP_VM_LOADK, 0, dst, (uint32_t)k), n);
    return 0;
  }
  switch (n->kind) {
  case N_STR:
    EMIT(C, MK_ABC(OP_VM_LOADSTR, 0, dst, 0, 0), n);
    return 0;
  case N_NAME:
    if (is_local(C, n)) {
      int r = local_reg(C, n);
      if (r < 0) return -1;
      if (r != dst) EMIT(C, MK_ABC(OP_VM_MOVE, 0, dst, r, 0), n);
      return 0;
    }
    EMIT(C, MK_ABC(OP_VM_GETGLOBAL, 0, dst, 0, 0), n);
    return 0;
  case N_BINOP:
    if (!C->in_fused && eval_is_fusion_root(n)) return cfused(C, n, dst);
    return cbinop(C, n->op, n->a, n->b, dst, 0, n);
  case N_UNARY: {
    if (n->op != OP_NOT && !C->in_fused && eval_is_fusion_root(n)) return cfused(C, n, dst);
    unsigned rb; bool tb;
    int save = C->freereg;
    if (reg_operand(C, n->a, &rb, &tb) < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_UNOP, MK_K(n->op - OP_NEG, tb ? KILL_B : 0), dst, rb, 0), n);
    C->freereg = save;
    return 0;
  }
  case N_AND: case N_OR: {
    /* the first operand's value may be the result: computed in dst, so dst must not be a
       variable the second operand reads (the caller gives a temporary) */
    int end = -1;
    if (cexpr(C, n->a, dst) < 0) return -1;
    if (emit_jump(C, n->kind == N_AND ? OP_VM_JMPIFNOT : OP_VM_JMPIF, dst, n, &end) < 0) return -1;
    if (cexpr(C, n->b, dst) < 0) return -1;
    patch_chain(C, end, C->ncode);
    return 0;
  }
  case N_COMPARE:
    if (!C->in_fused && eval_is_fusion_root(n)) return cfused(C, n, dst);
    return ccompare(C, n, dst);
  case N_IFEXP: {
    int other = -1, end = -1;
    if (cjump_false(C, n->b, n, &other) < 0) return -1;
    if (cexpr_dst(C, n->a, dst) < 0) return -1;
    if (emit_jump(C, OP_VM_JMP, 0, n, &end) < 0) return -1;
    patch_chain(C, other, C->ncode);
    if (cexpr_dst(C, n->c, dst) < 0) return -1;
    patch_chain(C, end, C->ncode);
    return 0;
  }
  case N_CALL: return ccall(C, n, dst, false);
  case N_ATTR: {
    unsigned rb; bool tb;
    int save = C->freereg;
    if (reg_operand(C, n->a, &rb, &tb) < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_GETATTR, tb ? KILL_B : 0, dst, rb, 0), n);
    C->freereg = save;
    return 0;
  }
  case N_SUBSCRIPT: {
    unsigned rb, rc; bool tb, tc;
    int save = C->freereg;
    if (operand(C, n->a, &rb, &tb) < 0 || operand(C, n->b, &rc, &tc) < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_GETITEM, (tb ? KILL_B : 0) | (tc ? KILL_C : 0), dst, rb, rc), n);
    C->freereg = save;
    return 0;
  }
  case N_SLICE: {
    int save = C->freereg;
    int base = C->freereg;
    Node *parts[3] = {n->a, n->b, n->c};
    for (int i = 0; i < 3; i++) {
      int r = alloc_reg(C, n);
      if (r < 0) return -1;
      if (parts[i]) {
        if (cexpr(C, parts[i], r) < 0) return -1;
      } else {
        int k = addk(C, v_none());
        if (k < 0) return -1;
        EMIT(C, MK_ABX(OP_VM_LOADK, 0, r, (uint32_t)k), n);
      }
    }
    EMIT(C, MK_ABC(OP_VM_MKSLICE, 0, dst, base, 0), n);
    C->freereg = save;
    return 0;
  }
  case N_TUPLE: return cseq(C, OP_VM_MKTUPLE, n->a, n->n, dst, n);
  case N_LIST: return cseq(C, OP_VM_MKLIST, n->a, n->n, dst, n);
  default: {
    char msg[96];
    snprintf(msg, sizeof msg, "%s expressions are not supported yet", ast_kind_name(n->kind));
    return syntax_error(C, n, msg);
  }
  }
}

static int cexpr(Comp *C, Node *n, int dst) {
  if (ctx_stack_exhausted(C->c)) {
    eval_recursion_error(C->I);
    return fail_at(C, n);
  }
  /* below a call, subscript, display ... a tensor tree is a fusion root of its own again */
  bool in_fused = C->in_fused;
  if (n->kind != N_BINOP && n->kind != N_UNARY && n->kind != N_COMPARE) C->in_fused = false;
  int rc = cexpr_inner(C, n, dst);
  C->in_fused = in_fused;
  return rc;
}

/* Can n be computed straight into the register of a variable it may read?  (Its operands
   are all read before the one write of the result.) */
static bool writes_once(const Node *n) {
  switch (n->kind) {
  case N_AND: case N_OR: return false;
  case N_COMPARE: return n->b && !n->b->next;
  default: return true;
  }
}

/* The value of n into local register r (a variable). */
static int cexpr_to_local(Comp *C, Node *n, int r) {
  if (writes_once(n)) return cexpr(C, n, r);
  int save = C->freereg;
  int t = alloc_reg(C, n);
  if (t < 0 || cexpr(C, n, t) < 0) return -1;
  EMIT(C, MK_ABC(OP_VM_MOVE, KILL_B, r, t, 0), n);
  C->freereg = save;
  return 0;
}

/* Stores the value in register v into target; last: v may be moved (it is not used again). */
static int cstore(Comp *C, Node *target, int v, bool last) {
  int save = C->freereg;
  switch (target->kind) {
  case N_NAME:
    if (is_local(C, target)) {
      int r = target->slot - 1;
      if (r != v) EMIT(C, MK_ABC(OP_VM_MOVE, last ? KILL_B : 0, r, v, 0), target);
      mark_assigned(C, target);
      return 0;
    }
    EMIT(C, MK_ABC(OP_VM_SETGLOBAL, last ? KILL_A : 0, v, 0, 0), target);
    return 0;
  case N_SUBSCRIPT: {
    unsigned ro, ri; bool to, ti;
    if (reg_operand(C, target->a, &ro, &to) < 0 || operand(C, target->b, &ri, &ti) < 0) return -1;
    unsigned flags = (to ? KILL_A : 0) | (ti ? KILL_B : 0) | (last ? KILL_C : 0);
    EMIT(C, MK_ABC(OP_VM_SETITEM, flags, ro, ri, (unsigned)v), target);
    C->freereg = save;
    return 0;
  }
  case N_TUPLE: case N_LIST: {
    /* all the items first (as CPython's UNPACK_SEQUENCE), then each target in order */
    int first = C->freereg;
    for (int j = 0; j < target->n; j++)
      if (alloc_reg(C, target) < 0) return -1;
    if (target->n > 0xffff) return syntax_error(C, target, "too many targets");
    EMIT(C, MK_ABC(OP_VM_UNPACK, last ? KILL_A : 0, v, first, target->n), target);
    int j = 0;
    for (Node *e = target->a; e; e = e->next, j++)
      if (cstore(C, e, first + j, true) < 0) return -1;
    C->freereg = save;
    return 0;
  }
  case N_ATTR:
    EMIT(C, MK_ABC(OP_VM_ASSIGN, last ? KILL_A : 0, v, 0, 0), target);
    return 0;
  default:
    return syntax_error(C, target, "cannot assign to expression");
  }
}

static int cassign(Comp *C, Node *s) {
  Node *value = s->b;
  /* `x[i] = tree` with a fusion root: the tree-walker's fused assignment writes straight into
     the target's view; when the tree is marked unfused, the register code below runs */
  int fused = -1;
  if (s->a->kind == N_SUBSCRIPT && !s->a->next && eval_is_fusion_root(value))
    if (emit_jump(C, OP_VM_FUSED, 0, s, &fused) < 0) return -1;
  if (fused >= 0) C->code[fused] |= (Instr)KILL_A << 8;   /* k KILL_A: pos is a statement */
  bool in_fused = C->in_fused;
  if (fused >= 0) C->in_fused = true;   /* the value's own FUSED check would be the same */
  if (!s->a->next && (s->a->kind == N_TUPLE || s->a->kind == N_LIST) &&
      (value->kind == N_TUPLE || value->kind == N_LIST) && value->n == s->a->n && fused < 0) {
    /* a, b = b, a + b: the values into temporaries, then the targets, with no tuple made */
    int save = C->freereg, first = C->freereg, j = 0;
    for (Node *e = value->a; e; e = e->next) {
      int r = alloc_reg(C, e);
      if (r < 0 || cexpr(C, e, r) < 0) return -1;
    }
    for (Node *t = s->a->a; t; t = t->next, j++)
      if (cstore(C, t, first + j, true) < 0) return -1;
    C->freereg = save;
    return 0;
  }
  if (!s->a->next && is_local(C, s->a)) {
    if (cexpr_to_local(C, value, s->a->slot - 1) < 0) return -1;
    mark_assigned(C, s->a);
  } else {
    int save = C->freereg;
    int t = alloc_reg(C, s);
    if (t < 0 || cexpr(C, value, t) < 0) return -1;
    for (Node *target = s->a; target; target = target->next)
      if (cstore(C, target, t, !target->next) < 0) return -1;
    C->freereg = save;
  }
  C->in_fused = in_fused;
  patch_chain(C, fused, C->ncode);
  return 0;
}

static int caugassign(Comp *C, Node *s) {
  Node *t = s->a;
  int save = C->freereg;
  if (is_local(C, t)) {
    int r = local_reg(C, t);
    if (r < 0) return -1;
    if (cbinop(C, s->op, t, s->b, r, INPLACE, s) < 0) return -1;
    return 0;
  }
  if (t->kind == N_NAME) {
    int cur = alloc_reg(C, t);
    if (cur < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_GETGLOBAL, 0, cur, 0, 0), t);
    unsigned rc; bool tc;
    if (operand(C, s->b, &rc, &tc) < 0) return -1;
    EMIT(C, MK_ABC(binop_opcode(s->op), MK_K(s->op, INPLACE | (tc ? KILL_C : 0)), cur, cur, rc), s);
    EMIT(C, MK_ABC(OP_VM_SETGLOBAL, KILL_A, cur, 0, 0), t);
    C->freereg = save;
    return 0;
  }
  if (t->kind == N_SUBSCRIPT) {
    unsigned ro, ri, rc; bool to, ti, tc;
    if (reg_operand(C, t->a, &ro, &to) < 0 || operand(C, t->b, &ri, &ti) < 0) return -1;
    int cur = alloc_reg(C, t);
    if (cur < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_GETITEM, 0, cur, ro, ri), t);
    if (operand(C, s->b, &rc, &tc) < 0) return -1;
    EMIT(C, MK_ABC(binop_opcode(s->op), MK_K(s->op, INPLACE | (tc ? KILL_C : 0)), cur, cur, rc), s);
    EMIT(C, MK_ABC(OP_VM_SETITEM, (to ? KILL_A : 0) | (ti ? KILL_B : 0) | KILL_C, ro, ri, cur), s);
    C->freereg = save;
    return 0;
  }
  char msg[96];
  snprintf(msg, sizeof msg, "'%s' is an illegal expression for augmented assignment",
           ast_kind_name(t->kind));
  return syntax_error(C, t, msg);
}

/* Compiles a nested block with the definite-assignment facts restored afterwards. */
static int cbranch(Comp *C, Node *block) {
  uint8_t small[64], *saved = small;
  size_t n = (size_t)C->nlocals;
  if (!C->module && n > sizeof small && !(saved = ctx_malloc(C->c, n))) return -1;
  if (!C->module && n) memcpy(saved, C->assigned, n);
  int rc = block ? cblock(C, block->kind == N_BLOCK ? block->a : block) : 0;
  if (!C->module && n) memcpy(C->assigned, saved, n);
  if (saved != small) ctx_free(C->c, saved, n);
  return rc;
}

static Node *last_stmt(Node *block) {
  Node *s = block && block->kind == N_BLOCK ? block->a : block;
  while (s && s->next) s = s->next;
  return s;
}

/* Jumps (chained into *chain) when cond is false: a single comparison that is not a tensor
   tree becomes CMPJMP and its JMP word, anything else a value and JMPIFNOT (at: where a
   failing truth test reports). */
static int cjump_false(Comp *C, Node *cond, Node *at, int *chain) {
  int save = C->freereg;
  if (cond->kind == N_COMPARE && cond->b && !cond->b->next && !eval_is_fusion_root(cond)) {
    unsigned rb, rc;
    bool tb, tc;
    if (operand(C, cond->a, &rb, &tb) < 0 || operand(C, cond->b->a, &rc, &tc) < 0) return -1;
    unsigned flags = (tb ? KILL_B : 0) | (tc ? KILL_C : 0);
    EMIT(C, MK_ABC(OP_VM_CMPJMP, MK_K(cond->b->op - OP_LT, flags), 0, rb, rc), cond);
    C->freereg = save;
    return emit_jump(C, OP_VM_JMP, 0, cond, chain) < 0 ? -1 : 0;
  }
  unsigned r; bool t;
  if (reg_operand(C, cond, &r, &t) < 0) return -1;
  if (emit_jump(C, OP_VM_JMPIFNOT, r, at, chain) < 0) return -1;
  if (t) C->code[*chain] |= (Instr)KILL_A << 8;
  C->freereg = save;
  return 0;
}

static int cif(Comp *C, Node *s) {
  int end = -1;
  for (;;) {
    int other = -1;
    if (cjump_false(C, s->a, s->a, &other) < 0) return -1;
    if (cbranch(C, s->b) < 0) return -1;
    if (s->c && emit_jump(C, OP_VM_JMP, 0, s, &end) < 0) return -1;
    patch_chain(C, other, C->ncode);
    if (!s->c) break;
    if (s->c->kind != N_IF) { if (cbranch(C, s->c) < 0) return -1; break; }
    s = s->c;
  }
  patch_chain(C, end, C->ncode);
  return 0;
}

static int cwhile(Comp *C, Node *s) {
  Loop L = {C->loop, -1, -1, C->ncode, last_stmt(s->b) ? last_stmt(s->b) : s};
  int exit = -1;
  if (cjump_false(C, s->a, s->a, &exit) < 0) return -1;
  C->loop = &L;
  int rc = cbranch(C, s->b);
  C->loop = L.prev;
  if (rc < 0) return -1;
  EMIT(C, MK_ABX(OP_VM_LOOP, 0, 0, (uint32_t)(L.head - (C->ncode + 1))), L.poll_node);
  patch_chain(C, exit, C->ncode);
  patch_chain(C, L.breaks, C->ncode);
  return 0;
}

static int cfor(Comp *C, Node *s) {
  int save = C->freereg;
  int base = alloc_reg(C, s);
  if (base < 0 || alloc_reg(C, s) < 0 || alloc_reg(C, s) < 0 || alloc_reg(C, s) < 0) return -1;
  if (cexpr(C, s->b, base) < 0) return -1;
  int prep = -1;
  if (emit_jump(C, OP_VM_FORPREP, base, s->b, &prep) < 0) return -1;
  int body = C->ncode;
  /* a local target receives the item straight from FORNEXT */
  bool direct = is_local(C, s->a);
  uint8_t small[64], *saved = small;
  size_t n = (size_t)C->nlocals;
  if (!C->module && n > sizeof small && !(saved = ctx_malloc(C->c, n))) return -1;
  if (!C->module && n) memcpy(saved, C->assigned, n);
  int rc = 0;
  if (direct) mark_assigned(C, s->a);
  else rc = cstore(C, s->a, base + 3, true);
  Loop L = {C->loop, -1, -1, -1, s};
  C->loop = &L;
  if (rc == 0) rc = cblock(C, s->c->kind == N_BLOCK ? s->c->a : s->c);
  C->loop = L.prev;
  if (!C->module && n) memcpy(C->assigned, saved, n);
  if (saved != small) ctx_free(C->c, saved, n);
  if (rc < 0) return -1;
  int next = C->ncode;
  patch_chain(C, prep, next);
  patch_chain(C, L.continues, next);
  unsigned target = direct ? (unsigned)(s->a->slot - 1) : (unsigned)(base + 3);
  Instr fn = MK_ABC(OP_VM_FORNEXT, 0, base, 0, 0);
  fn = (fn & 0xffffffffu) | (Instr)(uint32_t)(body - (next + 1)) << 32;
  if (emit(C, fn, s) < 0) return -1;
  /* FORNEXT's target register: after it, in an extra word (C holds no room next to sBx) */
  EMIT(C, MK_ABC(OP_VM_CLEAR, 0, target, 0, 0), s);   /* skipped by FORNEXT: see vm.c */
  patch_chain(C, L.breaks, C->ncode);
  EMIT(C, MK_ABC(OP_VM_CLEAR, 0, base, 0, 0), s);
  C->freereg = save;
  return 0;
}

static int cstmt(Comp *C, Node *s) {
  if (ctx_stack_exhausted(C->c)) {
    eval_recursion_error(C->I);
    return fail_at(C, s);
  }
  int save = C->freereg;
  switch (s->kind) {
  case N_EXPR: {
    /* only statements of the chunk's top level echo (REPL) or give the chunk's result */
    bool echo = s == C->top && C->interactive;
    bool result = s == C->top && C->want_result && !s->next;
    if (!echo && !result && s->a->kind == N_CALL) return ccall(C, s->a, 0, true);
    if (!echo && !result && s->a->kind == N_STR) return 0;   /* a docstring */
    int t = alloc_reg(C, s);
    if (t < 0 || cexpr(C, s->a, t) < 0) return -1;
    if (echo) EMIT(C, MK_ABC(OP_VM_ECHO, 0, t, 0, 0), s);
    if (result) EMIT(C, MK_ABC(OP_VM_SETRESULT, 0, t, 0, 0), s);
    else EMIT(C, MK_ABC(OP_VM_CLEAR, 0, t, 0, 0), s);
    C->freereg = save;
    return 0;
  }
  case N_ASSIGN: return cassign(C, s);
  case N_AUGASSIGN: return caugassign(C, s);
  case N_DEF:
    if (compile_function(C, s) < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_EXEC, 0, 0, 0, 0), s);
    return 0;
  case N_RETURN: {
    if (C->module) return syntax_error(C, s, "'return' outside function");
    if (!s->a) { EMIT(C, MK_ABC(OP_VM_RETURN, 0, 0, 0, 0), s); return 0; }
    unsigned r; bool t;
    if (reg_operand(C, s->a, &r, &t) < 0) return -1;
    EMIT(C, MK_ABC(OP_VM_RETURN, 1, r, 0, 0), s);
    C->freereg = save;
    return 0;
  }
  case N_IF: return cif(C, s);
  case N_WHILE: return cwhile(C, s);
  case N_FOR: return cfor(C, s);
  case N_BREAK:
    if (!C->loop) return syntax_error(C, s, "'break' outside loop");
    return emit_jump(C, OP_VM_JMP, 0, s, &C->loop->breaks) < 0 ? -1 : 0;
  case N_CONTINUE:
    if (!C->loop) return syntax_error(C, s, "'continue' not properly in loop");
    if (C->loop->head >= 0) {
      EMIT(C, MK_ABX(OP_VM_LOOP, 0, 0, (uint32_t)(C->loop->head - (C->ncode + 1))), s);
      return 0;
    }
    return emit_jump(C, OP_VM_JMP, 0, s, &C->loop->continues) < 0 ? -1 : 0;
  case N_PASS: case N_GLOBAL: return 0;
  case N_ASSERT: case N_DEL:
    EMIT(C, MK_ABC(OP_VM_EXEC, 0, 0, 0, 0), s);
    return 0;
  case N_IMPORT: case N_FROMIMPORT:
    EMIT(C, MK_ABC(OP_VM_EXEC, 0, 0, 0, 0), s);
    return 0;
  case N_BLOCK: return cblock(C, s->a);
  default: {
    char msg[96];
    snprintf(msg, sizeof msg, "%s statements are not supported yet", ast_kind_name(s->kind));
    return syntax_error(C, s, msg);
  }
  }
}

static int cblock(Comp *C, Node *list) {
  for (Node *s = list; s; s = s->next)
    if (cstmt(C, s) < 0) return -1;
  return 0;
}

static void comp_free(Comp *C) {
  if (C->code != C->small_code) {
    ctx_free(C->c, C->code, (size_t)C->capcode * sizeof *C->code);
    ctx_free(C->c, (void *)C->pos, (size_t)C->capcode * sizeof *C->pos);
  }
  if (C->k != C->small_k) ctx_free(C->c, C->k, (size_t)C->capk * sizeof *C->k);
  if (C->assigned) ctx_free(C->c, C->assigned, (size_t)C->nlocals);
  if (C->unsafe) ctx_free(C->c, C->unsafe, (size_t)C->nlocals);
}

/* The finished Proto, copied into the arena. */
static Proto *comp_finish(Comp *C, const char *name, Node *def, int nparams) {
  Proto *p = arena_alloc(C->arena, sizeof *p);
  if (!p) return NULL;
  size_t ncode = (size_t)(C->ncode ? C->ncode : 1);
  p->code = arena_alloc(C->arena, ncode * sizeof *p->code);
  p->pos = p->code ? arena_alloc(C->arena, ncode * sizeof *p->pos) : NULL;
  p->k = p->pos ? arena_alloc(C->arena, (size_t)(C->nk ? C->nk : 1) * sizeof *p->k) : NULL;
  if (!p->k) return NULL;
  if (C->ncode) {
    memcpy(p->code, C->code, (size_t)C->ncode * sizeof *p->code);
    memcpy((void *)p->pos, C->pos, (size_t)C->ncode * sizeof *p->pos);
  }
  if (C->nk) memcpy(p->k, C->k, (size_t)C->nk * sizeof *p->k);
  p->ncode = C->ncode;
  p->nk = C->nk;
  p->nparams = nparams;
  p->nlocals = C->nlocals;
  p->nregs = C->maxreg;
  p->name = name;
  p->def = def;
  p->scope = def ? def->cache : NULL;
  return p;
}

static void comp_init(Comp *C, Interp *I, Arena *arena, Node **where) {
  memset(C, 0, sizeof *C);
  C->I = I;
  C->c = &I->ctx;
  C->arena = arena;
  C->where = where;
  C->code = C->small_code;
  C->pos = C->small_pos;
  C->capcode = 32;
  C->k = C->small_k;
  C->capk = 8;
}

/* Marks the locals that a `del` in body (not in nested functions) unbinds. */
static void find_deletes(Comp *C, Node *list) {
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_DEF) continue;
    if (n->kind == N_DEL)
      for (Node *t = n->a; t; t = t->next)
        if (t->kind == N_NAME && t->slot > 0) C->unsafe[t->slot - 1] = 1;
    if (n->kind == N_IF || n->kind == N_WHILE || n->kind == N_FOR || n->kind == N_BLOCK) {
      if (n->a) find_deletes(C, n->a->kind == N_BLOCK ? n->a->a : NULL);
      if (n->b) find_deletes(C, n->b->kind == N_BLOCK ? n->b->a : n->b->kind == N_IF ? n->b : NULL);
      if (n->c) find_deletes(C, n->c->kind == N_BLOCK ? n->c->a : n->c->kind == N_IF ? n->c : NULL);
    }
  }
}

static int compile_function(Comp *outer, Node *def) {
  FuncScope *sc = def->cache;
  if (!sc)
    return ctx_err(outer->c, TSR_ERR_RUNTIME, "SystemError", "function %s was not resolved",
                   def->str), fail_at(outer, def);
  if (sc->proto) return 0;
  Comp C;
  comp_init(&C, outer->I, outer->arena, outer->where);
  if (outer->qualname) {   /* Python's __qualname__: outer.<locals>.inner */
    size_t n = strlen(outer->qualname) + strlen(def->str) + 11;
    char *q = arena_alloc(outer->arena, n);
    if (!q) return fail_at(outer, def);
    snprintf(q, n, "%s.<locals>.%s", outer->qualname, def->str);
    C.qualname = q;
  } else {
    C.qualname = def->str;
  }
  C.nlocals = sc->nlocals;
  C.freereg = C.maxreg = sc->nlocals;
  int rc = -1;
  if (sc->nlocals) {
    C.assigned = ctx_calloc(C.c, (size_t)sc->nlocals);
    C.unsafe = C.assigned ? ctx_calloc(C.c, (size_t)sc->nlocals) : NULL;
    if (!C.unsafe) goto done;
  }
  find_deletes(&C, def->b ? def->b->a : NULL);
  for (int i = 0; i < sc->nparams; i++)
    if (!C.unsafe[i]) C.assigned[i] = 1;
  if (cblock(&C, def->b ? def->b->a : NULL) < 0) goto done;
  if (emit(&C, MK_ABC(OP_VM_RETURN, 0, 0, 0, 0), def) < 0) goto done;
  Proto *p = comp_finish(&C, C.qualname, def, sc->nparams);
  if (!p) goto done;
  sc->proto = p;
#ifdef VM_DISASSEMBLE
  { void vm_disassemble(const Proto *p); vm_disassemble(p); }
#endif
  rc = 0;
done:
  comp_free(&C);
  return rc;
}

int compile_chunk(Interp *I, Chunk *ch, bool interactive, bool want_result, Proto **out,
                  Node **where) {
  Comp C;
  *where = NULL;
  comp_init(&C, I, &ch->arena, where);
  C.module = true;
  C.interactive = interactive;
  C.want_result = want_result;
  int rc = -1;
  for (Node *s = ch->root ? ch->root->a : NULL; s; s = s->next) {
    C.top = s;
    if (cstmt(&C, s) < 0) goto done;
  }
  if (emit(&C, MK_ABC(OP_VM_RETURN, 0, 0, 0, 0), ch->root) < 0) goto done;
  *out = comp_finish(&C, "<module>", NULL, 0);
#ifdef VM_DISASSEMBLE
  if (*out) { void vm_disassemble(const Proto *p); vm_disassemble(*out); }
#endif
  rc = *out ? 0 : -1;
done:
  comp_free(&C);
  return rc;
}

#ifdef VM_DISASSEMBLE
#include <stdio.h>
static const char *const opnames[] = {
#define X_NAME(name, doc) #name,
  VM_OPCODES(X_NAME)
#undef X_NAME
};
void vm_disassemble(const Proto *p) {
  fprintf(stderr, "%s: nparams %d nlocals %d nregs %d\n", p->name, p->nparams, p->nlocals, p->nregs);
  for (int pc = 0; pc < p->ncode; pc++) {
    Instr i = p->code[pc];
    fprintf(stderr, "  %3d %-10s k=%02x A=%u B=%x C=%x sBx=%d  line %d\n", pc, opnames[I_OP(i)], I_K(i), I_A(i), I_B(i), I_C(i), I_SBX(i), p->pos[pc]->line);
  }
}
#endif
