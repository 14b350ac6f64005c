/*
** vm.c -- the virtual machine: runs the register bytecode of vm.h.  One C activation of
** execute() runs user calls and returns without recursing in C; builtins that call user
** functions (and the tree-walker's escapes) re-enter through vm_call.  The design is in
** vm.h's header.
*/
#include "vm.h"
#include "scalar.h"

#include <math.h>
#include <string.h>

/* Frames of user functions at once: Python's recursion limit (1000) less the module's. */
#define MAX_FRAMES 999
/* Values in the first stack segment, and the least in a later one. */
#define FIRST_SEGMENT 1024
#define MIN_SEGMENT 8192

typedef struct StackSeg {
  struct StackSeg *prev, *next;
  size_t n;
  Value v[];
} StackSeg;

/* One activation (CPython's frame, Lua's CallInfo).  Kept in a list and reused. */
typedef struct VMFrame {
  Frame fr;                 /* what the tree-walker and the warnings see: slots = base */
  const Proto *p;
  const Instr *pc;          /* saved while a callee runs */
  Value *base;
  StackSeg *seg;
  struct VMFrame *prev, *next;
  ChunkRef *saved_chunk;    /* I->cur_chunk to restore when it returns */
  Value *result;            /* entry frames: where RETURN puts the value */
  Value *chunk_result;      /* module frames: SETRESULT's destination (or NULL) */
  int ret;                  /* the caller's register receiving the value */
  bool entry;               /* RETURN from it leaves execute() */
  bool counted;             /* a user function's frame (counted in depth) */
} VMFrame;

typedef struct VM {
  StackSeg *first;
  VMFrame *ci;              /* the innermost active frame, or NULL */
  VMFrame *spare;           /* the head of the list of frames (reused) */
  int depth;
} VM;

static VM *vm_get(Interp *I) {
  if (I->vm) return I->vm;
  VM *vm = ctx_calloc(&I->ctx, sizeof *vm);
  if (!vm) return NULL;
  I->vm = vm;
  return vm;
}

void vm_free(Interp *I) {
  VM *vm = I->vm;
  if (!vm) return;
  for (StackSeg *s = vm->first, *nx; s; s = nx) {
    nx = s->next;
    ctx_free(&I->ctx, s, sizeof *s + s->n * sizeof(Value));
  }
  for (VMFrame *f = vm->spare, *nx; f; f = nx) {
    nx = f->next;
    ctx_free(&I->ctx, f, sizeof *f);
  }
  ctx_free(&I->ctx, vm, sizeof *vm);
  I->vm = NULL;
}

static StackSeg *seg_new(Interp *I, StackSeg *prev, size_t n) {
  StackSeg *s = ctx_malloc(&I->ctx, sizeof *s + n * sizeof(Value));
  if (!s) return NULL;
  s->prev = prev; s->next = NULL; s->n = n;
  for (size_t i = 0; i < n; i++) s->v[i] = v_undef();
  if (prev) prev->next = s;
  return s;
}

/* Room for n registers from want (in seg, or NULL for the bottom of the stack): want itself,
   or the start of a later segment.  *seg is updated.  NULL with MemoryError. */
static Value *stack_room(Interp *I, VM *vm, StackSeg **seg, Value *want, size_t n) {
  StackSeg *s = *seg;
  if (!s) {
    if (!vm->first && !(vm->first = seg_new(I, NULL, n > FIRST_SEGMENT ? n : FIRST_SEGMENT)))
      return NULL;
    s = vm->first;
    want = s->v;
  }
  while (want + n > s->v + s->n) {
    if (!s->next || s->next->n < n) {
      if (s->next) {   /* too small for this frame: replaced (it holds nothing now) */
        StackSeg *old = s->next;
        s->next = old->next;
        if (old->next) old->next->prev = s;
        ctx_free(&I->ctx, old, sizeof *old + old->n * sizeof(Value));
      }
      StackSeg *ns = seg_new(I, NULL, n > MIN_SEGMENT ? n : MIN_SEGMENT);
      if (!ns) return NULL;
      ns->next = s->next;
      if (ns->next) ns->next->prev = ns;
      ns->prev = s;
      s->next = ns;
    }
    s = s->next;
    want = s->v;
  }
  *seg = s;
  return want;
}

static VMFrame *frame_push(Interp *I, VM *vm) {
  VMFrame *f = vm->ci ? vm->ci->next : vm->spare;
  if (!f) {
    f = ctx_calloc(&I->ctx, sizeof *f);
    if (!f) return NULL;
    f->prev = vm->ci;
    if (vm->ci) vm->ci->next = f;
    else vm->spare = f;
  }
  f->prev = vm->ci;
  return f;
}

/* value_decref with its "a tracked container lost a reference" note made inline (a function
   value is released on every call). */
static inline void vm_decref(Value v) {
  if (v.type == V_TENSOR) {
    if (v.t->refcnt > 1) v.t->refcnt--;
    else tensor_release(v.t);
  } else if (v_is_obj(v)) {
    if (--v.o->refcnt == 0) value_obj_free(v.o);
    else if (v.o->gc_next) ((Interp *)v.o->ctx)->gc_released = true;
  }
}

static inline void setreg(Value *r, Value v) {
  Value old = *r;
  *r = v;
  vm_decref(old);
}

static inline void clear_reg(Value *r) {
  Value old = *r;
  *r = v_none();
  vm_decref(old);
}

/* Releases what a frame's registers hold.  Registers with no reference keep their value: a
   frame that reuses them unbinds its locals and writes its temporaries before reading them. */
static inline void frame_clear(Value *base, int nregs) {
  for (int i = 0; i < nregs; i++) {
    Value old = base[i];
    if (old.type == V_TENSOR || v_is_obj(old)) {
      base[i] = v_undef();
      vm_decref(old);
    }
  }
}

/* Charges one step (a backward jump or a call), polls the interrupt flag, and lets the cycle
   collector run when it has work.  0 or -1. */
static inline int vm_charge(Interp *I) {
  Ctx *c = &I->ctx;
  c->steps++;
  if (__builtin_expect(c->interrupted || (c->max_steps && c->steps > c->max_steps), 0))
    return ctx_poll(c, 0);
  return 0;
}

/* vm_charge, and the cycle collector's turn (loops are where garbage cycles pile up). */
static inline int vm_poll(Interp *I) {
  if (vm_charge(I) < 0) return -1;
  value_gc_maybe(I);
  return 0;
}

static int recursion_error(Interp *I) { return eval_recursion_error(I); }

/* Python's TypeErrors for a call of f that does not bind (CPython 3.11's texts). */
static int missing_args(Interp *I, const Proto *q, Func *f, const Value *slots) {
  int miss = 0;
  for (int i = 0; i < q->nparams; i++)
    if (slots[i].type == V_UNDEF && f->defaults[i].type == V_UNDEF) miss++;
  Buf b;
  buf_init(&b, &I->ctx);
  int k = 0;
  FuncScope *sc = f->def->cache;
  for (int i = 0; i < q->nparams; i++) {
    if (slots[i].type != V_UNDEF || f->defaults[i].type != V_UNDEF) continue;
    k++;
    if (k > 1) buf_puts(&b, miss == 2 ? " and " : k == miss ? ", and " : ", ");
    buf_printf(&b, "'%s'", sc->names[i]);
  }
  ERR_TYPE(&I->ctx, "%s() missing %d required positional argument%s: %s", q->name, miss,
           miss == 1 ? "" : "s", b.failed ? "" : buf_str(&b));
  buf_free(&b);
  return -1;
}

static int too_many_args(Interp *I, const Proto *q, Func *f, int given) {
  int required = 0;
  for (int i = 0; i < q->nparams; i++)
    if (f->defaults[i].type == V_UNDEF) required = i + 1;
  if (required < q->nparams)
    return ERR_TYPE(&I->ctx, "%s() takes from %d to %d positional arguments but %d %s given",
                    q->name, required, q->nparams, given, given == 1 ? "was" : "were");
  return ERR_TYPE(&I->ctx, "%s() takes %d positional argument%s but %d %s given", q->name,
                  q->nparams, q->nparams == 1 ? "" : "s", given, given == 1 ? "was" : "were");
}

/* Binds a's arguments to f's parameters in slots (all V_UNDEF; values retained). */
static int bind_args(Interp *I, const Proto *q, Func *f, const Args *a, Value *slots) {
  FuncScope *sc = f->def->cache;
  if (a->npos > q->nparams) return too_many_args(I, q, f, a->npos);
  for (int i = 0; i < a->npos; i++) slots[i] = a->pos[i];
  for (int k = 0; k < a->nkw; k++) {
    int j = 0;
    while (j < q->nparams && strcmp(sc->names[j], a->kwnames[k]) != 0) j++;
    if (j == q->nparams) {
      ERR_TYPE(&I->ctx, "%s() got an unexpected keyword argument '%s'", q->name, a->kwnames[k]);
      goto fail;
    }
    if (slots[j].type != V_UNDEF) {
      ERR_TYPE(&I->ctx, "%s() got multiple values for argument '%s'", q->name, a->kwnames[k]);
      goto fail;
    }
    slots[j] = a->kw[k];
  }
  for (int i = 0; i < q->nparams; i++)
    if (slots[i].type == V_UNDEF && f->defaults[i].type == V_UNDEF) {
      missing_args(I, q, f, slots);
      goto fail;
    }
  for (int i = 0; i < q->nparams; i++)
    slots[i] = value_retain(slots[i].type != V_UNDEF ? slots[i] : f->defaults[i]);
  return 0;
fail:
  for (int i = 0; i < q->nparams; i++) slots[i] = v_undef();
  return -1;
}

static inline int box(Interp *I, Value *v) {
  return v->type == V_SCALAR ? scalar_box(I, v) : 0;
}

static int echo(Interp *I, Value v) {
  if (v.type == V_NONE) return 0;
  Buf b;
  buf_init(&b, &I->ctx);
  value_repr(I, &b, v);
  buf_putc(&b, '\n');
  if (!b.failed) interp_write(I, 1, b.p, b.n);
  buf_free(&b);
  return dict_set(I->globals, "_", value_retain(v));
}

/* Python arithmetic on two numbers (not bools) when nothing can go wrong: + - * and /. */
#define ARITH(opname, over_i, expr_f)                                                         \
  L_##opname: {                                                                              \
    const Value *vb = RK(I_B(i)), *vc = RK(I_C(i));                                          \
    Value *ra = base + I_A(i);                                                               \
    if (vb->type == V_INT && vc->type == V_INT) {                                            \
      int64_t x = vb->i, y = vc->i, r;                                                       \
      if (!(over_i)) { setreg(ra, v_int(r)); DISPATCH(); }                                   \
    } else if (vb->type == V_FLOAT || vc->type == V_FLOAT) {                                 \
      double x, y;                                                                           \
      if (vb->type == V_FLOAT && vc->type == V_FLOAT) { x = vb->f; y = vc->f; }              \
      else if (vb->type == V_FLOAT && vc->type == V_INT) { x = vb->f; y = (double)vc->i; }   \
      else if (vb->type == V_INT && vc->type == V_FLOAT) { x = (double)vb->i; y = vc->f; }   \
      else goto binop_slow;                                                                  \
      expr_f;                                                                                \
    }                                                                                        \
    goto binop_slow;                                                                         \
  }

static int execute(Interp *I, VMFrame *ci) {
  VM *vm = I->vm;
  const Proto *p;
  const Instr *pc;
  Value *base;
  const Value *k;
  Instr i;
#define X_LABEL(name, doc) &&L_##name,
  static const void *const labels[] = {VM_OPCODES(X_LABEL)};
#undef X_LABEL
#define LOAD_FRAME() (p = ci->p, pc = ci->pc, base = ci->base, k = p->k)
#define DISPATCH() do { i = *pc++; goto *labels[I_OP(i)]; } while (0)
#define RK(x) (((x) & RK_CONST) ? &k[(x) & 0x7fff] : &base[(x)])
#define NODE() (p->pos[pc - 1 - p->code])
#define SAVE() (ci->pc = pc, ci->fr.line = NODE()->line)
#define KILLS(kb, vb_reg, kc, vc_reg)                                                        \
  do {                                                                                       \
    if (kb) clear_reg(base + (vb_reg));                                                      \
    if (kc) clear_reg(base + (vc_reg));                                                      \
  } while (0)
  LOAD_FRAME();
  DISPATCH();

L_MOVE: {
  Value *src = base + I_B(i);
  Value v = *src;
  if (I_K(i) & KILL_B) *src = v_none();
  else value_incref(v);
  if (v.type == V_SCALAR && scalar_box(I, &v) < 0) goto error;
  setreg(base + I_A(i), v);
  DISPATCH();
}
L_LOADK:
  setreg(base + I_A(i), k[I_BX(i)]);
  DISPATCH();
L_LOADSTR: {
  Node *n = NODE();
  Value v = value_str(I, n->str, n->len);
  if (v.type == V_UNDEF) goto error;
  setreg(base + I_A(i), v);
  DISPATCH();
}
L_GETGLOBAL: {
  Node *n = NODE();
  Dict *g = ci->fr.globals;
  Value *v;
  /* a name found in the globals stays there while their version is unchanged */
  if (n->name_cache.dict == g && n->name_cache.version == g->version && !n->name_cache.dict2)
    v = n->name_cache.value;
  else if (!(v = eval_name_ref(I, n)))
    goto error;
  setreg(base + I_A(i), value_retain(*v));
  DISPATCH();
}
L_SETGLOBAL: {
  Value *src = base + I_A(i);
  Value v = *src;
  Node *n = NODE();
  Dict *g = ci->fr.globals;
  if (I_K(i) & KILL_A) *src = v_none();
  else value_incref(v);
  if (v.type == V_SCALAR && scalar_box(I, &v) < 0) goto error;
  if (n->name_cache.dict == g && n->name_cache.version == g->version && !n->name_cache.dict2)
    setreg((Value *)n->name_cache.value, v);   /* the global's entry, still there */
  else if (eval_store_name(I, n, v) < 0)
    goto error;
  DISPATCH();
}
L_CHECKLOCAL:
  if (base[I_A(i)].type == V_UNDEF) {
    eval_unbound_local(I, NODE()->str);
    goto error;
  }
  DISPATCH();
L_CLEAR:
  clear_reg(base + I_A(i));
  DISPATCH();

ARITH(ADD, __builtin_add_overflow(x, y, &r),
      { setreg(ra, v_float(x + y)); DISPATCH(); })
ARITH(SUB, __builtin_sub_overflow(x, y, &r),
      { setreg(ra, v_float(x - y)); DISPATCH(); })
ARITH(MUL, __builtin_mul_overflow(x, y, &r),
      { setreg(ra, v_float(x * y)); DISPATCH(); })
L_DIV: {
  const Value *vb = RK(I_B(i)), *vc = RK(I_C(i));
  Value *ra = base + I_A(i);
  double x, y;
  if (vb->type == V_FLOAT) x = vb->f;
  else if (vb->type == V_INT) x = (double)vb->i;
  else goto binop_slow;
  if (vc->type == V_FLOAT) y = vc->f;
  else if (vc->type == V_INT) y = (double)vc->i;
  else goto binop_slow;
  if (y == 0 || (vb->type == V_INT && vc->type == V_INT)) goto binop_slow;
  setreg(ra, v_float(x / y));
  DISPATCH();
}
L_BINOP:
  if (K_SUBOP(I_K(i)) == OP_POW) {   /* float ** float with a positive base and a finite result */
    const Value *vb = RK(I_B(i)), *vc = RK(I_C(i));
    if (vb->type == V_FLOAT && vb->f > 0 && (vc->type == V_FLOAT || vc->type == V_INT)) {
      double r = pow(vb->f, vc->type == V_FLOAT ? vc->f : (double)vc->i);
      if (isfinite(r)) { setreg(base + I_A(i), v_float(r)); DISPATCH(); }
    }
  }
binop_slow: {
  unsigned kf = I_K(i), rb = I_B(i), rc = I_C(i);
  Value out, vb = *RK(rb), vc = *RK(rc);
  if ((vb.type == V_SCALAR || vc.type == V_SCALAR) && !(kf & INPLACE)) {
    /* float64 NumPy scalars met with floats: scalar.h's inline loop */
    static const int8_t f64_ufunc[] = {
      [OP_ADD] = UF_ADD + 1, [OP_SUB] = UF_SUBTRACT + 1, [OP_MUL] = UF_MULTIPLY + 1,
      [OP_DIV] = UF_TRUE_DIVIDE + 1};
    unsigned op = K_SUBOP(kf);
    if (op < sizeof f64_ufunc && f64_ufunc[op] &&
        scalar_f64_binary((BinaryUfunc)(f64_ufunc[op] - 1), vb, vc, &out)) {
      if ((int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) { SAVE(); goto error; }
      setreg(base + I_A(i), out);
      DISPATCH();
    }
  }
  SAVE();
  int mode = (kf & INPLACE) ? 2 : (kf & KILL_B) ? 1 : 0;
  /* an operand that is a variable is held for the operation, as the tree-walker held it:
     the small-tensor paths write into an operand that nothing else holds */
  if (!(kf & KILL_B)) value_incref(vb);
  if (!(kf & KILL_C)) value_incref(vc);
  int r = eval_binary_num(I, K_SUBOP(kf), vb, vc, mode, &out);
  if (!(kf & KILL_B)) vm_decref(vb);
  if (!(kf & KILL_C)) vm_decref(vc);
  KILLS(kf & KILL_B, rb, kf & KILL_C, rc);
  if (r < 0) goto error;
  if (out.type == V_TENSOR && NODE()->unfused && tensor_size(out.t) > SMALL_TENSOR_MAX)
    NODE()->unfused = 0;   /* a fusion root's operator-by-operator run met a big tensor */
  if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
  setreg(base + I_A(i), out);
  DISPATCH();
}
L_UNOP: {
  unsigned kf = I_K(i);
  int op = OP_NEG + (int)K_SUBOP(kf);
  Value vb = base[I_B(i)], out;
  if (op == OP_NEG && vb.type == V_FLOAT) { setreg(base + I_A(i), v_float(-vb.f)); DISPATCH(); }
  if (op == OP_NEG && vb.type == V_INT && vb.i != INT64_MIN) {
    setreg(base + I_A(i), v_int(-vb.i));
    DISPATCH();
  }
  if (op == OP_NOT && vb.type == V_BOOL) { setreg(base + I_A(i), v_bool(!vb.b)); DISPATCH(); }
  SAVE();
  if (!(kf & KILL_B)) value_incref(vb);
  int r = eval_unary_num(I, op, vb, &out);
  if (kf & KILL_B) clear_reg(base + I_B(i));
  else vm_decref(vb);
  if (r < 0) goto error;
  if (out.type == V_TENSOR && NODE()->unfused && tensor_size(out.t) > SMALL_TENSOR_MAX)
    NODE()->unfused = 0;
  if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
  setreg(base + I_A(i), out);
  DISPATCH();
}
L_CMPJMP:
L_CMP: {
  unsigned kf = I_K(i), rb = I_B(i), rc = I_C(i);
  bool jump = I_OP(i) == OP_VM_CMPJMP;
  int op = OP_LT + (int)K_SUBOP(kf);
  const Value *vb = RK(rb), *vc = RK(rc);
  /* two ints or two floats: compared inline, then a jump or a bool */
#define CMP_INLINE(X, Y)                                                    \
  do {                                                                      \
    bool r;                                                                 \
    switch (op) {                                                           \
    case OP_LT: r = (X) < (Y); break;                                       \
    case OP_LE: r = (X) <= (Y); break;                                      \
    case OP_GT: r = (X) > (Y); break;                                       \
    case OP_GE: r = (X) >= (Y); break;                                      \
    case OP_EQ: r = (X) == (Y); break;                                      \
    case OP_NE: r = (X) != (Y); break;                                      \
    default: goto cmp_slow;                                                 \
    }                                                                       \
    if (jump) { pc += r ? 1 : 1 + I_SBX(*pc); DISPATCH(); }                 \
    setreg(base + I_A(i), v_bool(r));                                       \
    DISPATCH();                                                             \
  } while (0)
  if (vb->type == V_INT && vc->type == V_INT) CMP_INLINE(vb->i, vc->i);
  if (vb->type == V_FLOAT && vc->type == V_FLOAT) CMP_INLINE(vb->f, vc->f);
#undef CMP_INLINE
cmp_slow: {
    Value out, b = *vb, c = *vc;
    SAVE();
    if (!(kf & KILL_B)) value_incref(b);
    if (!(kf & KILL_C)) value_incref(c);
    int r = eval_compare_num(I, op, b, c, &out);
    if (!(kf & KILL_B)) vm_decref(b);
    if (!(kf & KILL_C)) vm_decref(c);
    KILLS(kf & KILL_B, rb, kf & KILL_C, rc);
    if (r < 0) goto error;
    if (jump) {
      int t = box(I, &out) < 0 ? -1 : value_truth(I, out);
      value_decref(out);
      if (t < 0) goto error;
      pc += t ? 1 : 1 + I_SBX(*pc);
      DISPATCH();
    }
    if (out.type == V_TENSOR && NODE()->unfused && tensor_size(out.t) > SMALL_TENSOR_MAX)
      NODE()->unfused = 0;
    if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
    setreg(base + I_A(i), out);
    DISPATCH();
  }
}
L_JMP:
  pc += I_SBX(i);
  DISPATCH();
L_LOOP:
  pc += I_SBX(i);
  if (vm_poll(I) < 0) { pc -= I_SBX(i); goto error; }
  DISPATCH();
L_JMPIF:
L_JMPIFNOT: {
  Value *ra = base + I_A(i);
  int t;
  if (ra->type == V_BOOL) t = ra->b;
  else {
    Value v = *ra;
    SAVE();
    if (v.type == V_SCALAR) {
      if (scalar_box(I, &v) < 0) goto error;
      t = value_truth(I, v);
      value_decref(v);
    } else {
      t = value_truth(I, v);
    }
    if (t < 0) goto error;
  }
  if (I_K(i) & KILL_A) clear_reg(ra);
  if ((I_OP(i) == OP_VM_JMPIF) == (t != 0)) pc += I_SBX(i);
  DISPATCH();
}
L_GETITEM: {
  unsigned kf = I_K(i), rb = I_B(i), rc = I_C(i);
  const Value *vb = RK(rb), *vc = RK(rc);
  Value out;
  if (vb->type == V_TENSOR && scalar_index_get(vb->t, *vc, &out)) {
    if ((int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
  } else if (vb->type == V_LIST && vc->type == V_INT && vc->i >= 0 &&
             vc->i < as_list(*vb)->n) {
    out = value_retain(as_list(*vb)->items[vc->i]);
  } else {
    SAVE();
    Value b = *vb, c = *vc;
    int r = eval_getitem_num(I, b, c, &out);
    KILLS(kf & KILL_B, rb, kf & KILL_C, rc);
    if (r < 0) goto error;
    if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
    setreg(base + I_A(i), out);
    DISPATCH();
  }
  KILLS(kf & KILL_B, rb, kf & KILL_C, rc);
  setreg(base + I_A(i), out);
  DISPATCH();
}
L_SETITEM: {
  unsigned kf = I_K(i), ra = I_A(i), rb = I_B(i), rc = I_C(i);
  Value obj = base[ra], idx = *RK(rb), v = *RK(rc);
  int r;
  if (obj.type == V_TENSOR && scalar_index_set(obj.t, idx, v)) {
    r = 0;
  } else if (obj.type == V_LIST && idx.type == V_INT && idx.i >= 0 && idx.i < as_list(obj)->n &&
             v.type <= V_FLOAT) {   /* a number into a list: no container, no cycle */
    Value *slot = &as_list(obj)->items[idx.i];
    Value old = *slot;
    *slot = v;
    value_decref(old);
    r = 0;
  } else {
    SAVE();
    Value bo = obj, bi = idx;
    r = box(I, &bo);
    if (r == 0 && (r = box(I, &bi)) < 0 && obj.type == V_SCALAR) value_decref(bo);
    if (r == 0) {
      r = eval_setitem(I, bo, bi, v);
      if (obj.type == V_SCALAR) value_decref(bo);
      if (idx.type == V_SCALAR) value_decref(bi);
    }
  }
  if (kf & KILL_A) clear_reg(base + ra);
  KILLS(kf & KILL_B, rb, kf & KILL_C, rc);
  if (r < 0) goto error;
  DISPATCH();
}
L_GETATTR: {
  Value obj = base[I_B(i)], out;
  SAVE();
  if (obj.type == V_SCALAR) {
    if (scalar_box(I, &obj) < 0) goto error;
    int r = eval_getattr(I, obj, NODE()->str, &out);
    value_decref(obj);
    if (r < 0) goto error;
  } else {
    int r = eval_getattr(I, obj, NODE()->str, &out);
    if (I_K(i) & KILL_B) clear_reg(base + I_B(i));
    if (r < 0) goto error;
  }
  setreg(base + I_A(i), out);
  DISPATCH();
}
L_CALL: {
  unsigned a = I_A(i), npos = I_B(i), nkw = I_C(i);
  Value *args = base + a + 1;
  ci->pc = pc;
  if (vm_charge(I) < 0) { SAVE(); goto error; }
  for (unsigned j = 0; j < npos + nkw; j++)
    if (args[j].type == V_SCALAR && scalar_box(I, &args[j]) < 0) { SAVE(); goto error; }
  if (base[a].type == V_FUNC && nkw == 0) {
    Func *f = (Func *)base[a].o;
    const Proto *q = f->proto;
    if (!q) {
      FuncScope *sc = f->def->cache;
      q = f->proto = sc ? sc->proto : NULL;
    }
    if (!q || (int)npos > q->nparams) goto call_generic;
    for (int j = (int)npos; j < q->nparams; j++)   /* the missing ones all have defaults? */
      if (f->defaults[j].type == V_UNDEF) goto call_generic;
    if (vm->depth >= MAX_FRAMES) { SAVE(); recursion_error(I); goto error; }
    StackSeg *seg = ci->seg;
    Value *nb = args;
    if (nb + q->nregs > seg->v + seg->n) {
      if (!(nb = stack_room(I, vm, &seg, args, (size_t)q->nregs))) { SAVE(); goto error; }
      for (unsigned j = 0; j < npos; j++) { nb[j] = args[j]; args[j] = v_none(); }
    }
    for (int j = (int)npos; j < q->nparams; j++) setreg(nb + j, value_retain(f->defaults[j]));
    /* locals start unbound; temporaries are written before they are read (and whatever a
       register still holds is released when it is written or when the frame returns) */
    for (int j = q->nparams; j < q->nlocals; j++) setreg(nb + j, v_undef());
    VMFrame *nci = ci->next;
    if (!nci && !(nci = frame_push(I, vm))) { SAVE(); goto error; }
    nci->prev = ci;
    nci->p = q;
    nci->pc = q->code;
    nci->base = nb;
    nci->seg = seg;
    nci->fr.slots = nb;
    nci->fr.scope = q->scope;
    nci->fr.globals = f->globals;
    nci->fr.parent = &ci->fr;
    nci->fr.line = ci->fr.line;
    nci->saved_chunk = I->cur_chunk;
    nci->ret = (int)a;
    nci->entry = false;
    nci->counted = true;
    I->frame = &nci->fr;
    I->cur_chunk = f->chunk;
    vm->depth++;
    vm->ci = ci = nci;
    p = q;
    pc = q->code;
    base = nb;
    k = q->k;
    DISPATCH();
  }
call_generic: {
    Value out;
    SAVE();
    Node *n = NODE();
    Args args_ = {(int)npos, args, (int)nkw, (const char *const *)n->cache, args + npos, v_undef()};
    int r = eval_call_value(I, base[a], &args_, &out);
    for (unsigned j = 0; j <= npos + nkw; j++) clear_reg(base + a + j);
    if (r < 0) goto error;
    if (I_K(i) & KILL_A) value_decref(out);
    else setreg(base + a, out);
    DISPATCH();
  }
}
L_MKTUPLE:
L_MKLIST: {
  unsigned b = I_B(i), n = I_C(i);
  Value r = I_OP(i) == OP_VM_MKLIST ? value_list(I, n) : value_tuple(I, n);
  if (r.type == V_UNDEF) { SAVE(); goto error; }
  for (unsigned j = 0; j < n; j++) {
    Value v = base[b + j];
    base[b + j] = v_none();
    if (v.type == V_SCALAR && scalar_box(I, &v) < 0) { value_decref(r); SAVE(); goto error; }
    as_list(r)->items[j] = v;
  }
  setreg(base + I_A(i), r);
  DISPATCH();
}
L_MKSLICE: {
  unsigned b = I_B(i);
  Value s[3];
  for (int j = 0; j < 3; j++) { s[j] = base[b + j]; base[b + j] = v_none(); }
  for (int j = 0; j < 3; j++)
    if (s[j].type == V_SCALAR && scalar_box(I, &s[j]) < 0) {
      for (int m = 0; m < 3; m++) value_decref(s[m]);
      SAVE();
      goto error;
    }
  Value r = value_slice(I, s[0], s[1], s[2]);
  if (r.type == V_UNDEF) { SAVE(); goto error; }
  setreg(base + I_A(i), r);
  DISPATCH();
}
L_UNPACK: {
  Value *src = base + I_A(i);
  unsigned first = I_B(i), n = I_C(i);
  int64_t len;
  SAVE();
  if (box(I, src) < 0) goto error;
  Value seq = *src;
  if (seq.type == V_TUPLE || seq.type == V_LIST) {
    len = as_list(seq)->n;
  } else if (eval_iter_len(I, seq, &len) < 0) {
    ctx_clear(&I->ctx);
    ERR_TYPE(&I->ctx, "cannot unpack non-iterable %s object", value_type_name(seq));
    goto error;
  }
  if (len != (int64_t)n) {
    if (len > (int64_t)n) ERR_VALUE(&I->ctx, "too many values to unpack (expected %u)", n);
    else ERR_VALUE(&I->ctx, "not enough values to unpack (expected %u, got %lld)", n, (long long)len);
    goto error;
  }
  for (unsigned j = 0; j < n; j++) {
    Value item;
    if (seq.type == V_TUPLE || seq.type == V_LIST) item = value_retain(as_list(seq)->items[j]);
    else if (eval_iter_item(I, seq, j, &item) < 0) goto error;
    setreg(base + first + j, item);
  }
  if (I_K(i) & KILL_A) clear_reg(src);
  DISPATCH();
}
L_FORPREP: {
  Value *r = base + I_A(i);
  if (r->type == V_RANGE) {
    Range *g = (Range *)r->o;
    /* the count of items left, as an unsigned count (a range may hold 2**64 - 1 of them) */
    setreg(r + 1, v_int(g->start));
    setreg(r + 2, v_int((int64_t)progression_count(g->start, g->stop, g->step)));
  } else {
    int64_t len;
    SAVE();
    if (box(I, r) < 0 || eval_iter_len(I, *r, &len) < 0) goto error;
    setreg(r + 1, v_int(0));
    setreg(r + 2, v_int(len));
  }
  pc += I_SBX(i);
  DISPATCH();
}
L_FORNEXT: {
  Value *r = base + I_A(i);
  Value *target = base + I_A(*pc);
  if (r->type == V_RANGE) {
    if ((uint64_t)r[2].i == 0) { pc++; DISPATCH(); }
    int64_t cur = r[1].i;
    r[1].i = (int64_t)((uint64_t)cur + (uint64_t)((Range *)r->o)->step);   /* may pass the end */
    r[2].i = (int64_t)((uint64_t)r[2].i - 1);
    setreg(target, v_int(cur));
  } else {
    int64_t idx = r[1].i, len = r[2].i;
    if (r->type == V_LIST && as_list(*r)->n < len) len = r[2].i = as_list(*r)->n;
    if (idx >= len) { pc++; DISPATCH(); }
    Value item;
    SAVE();
    if (eval_iter_item(I, *r, idx, &item) < 0) {
      eval_set_pos(I, NODE()->b);
      goto error;
    }
    r[1].i = idx + 1;
    setreg(target, item);
  }
  pc += I_SBX(i);
  if (vm_poll(I) < 0) { pc -= I_SBX(i); goto error; }
  DISPATCH();
}
L_RETURN: {
  Value r = v_none();
  if (I_K(i)) {
    r = base[I_A(i)];
    base[I_A(i)] = v_undef();
    if (r.type == V_SCALAR && scalar_box(I, &r) < 0) goto error;
  }
  frame_clear(base, p->nregs);
  I->frame = ci->fr.parent;
  I->cur_chunk = ci->saved_chunk;
  if (ci->counted) vm->depth--;
  VMFrame *done = ci;
  vm->ci = ci->prev;
  if (done->entry) {
    if (done->result) *done->result = r;
    else value_decref(r);
    return 0;
  }
  ci = done->prev;
  LOAD_FRAME();
  if (I_K(pc[-1]) & KILL_A) {   /* the CALL's value is not wanted */
    value_decref(r);
    clear_reg(base + done->ret);
  } else {
    setreg(base + done->ret, r);
  }
  DISPATCH();
}
L_FUSED: {
  Node *n = NODE();
  bool stmt = I_K(i) & KILL_A;
  Node *root = stmt ? n->b : n;
  if (root->unfused) DISPATCH();
  SAVE();
  if (stmt) {
    if (eval_exec_stmt(I, n) < 0) goto error;
  } else {
    Value out;
    if (eval_expr_num(I, n, &out) < 0) goto error;
    if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
    setreg(base + I_A(i), out);
  }
  pc += I_SBX(i);
  DISPATCH();
}
L_EXEC:
  SAVE();
  if (eval_exec_stmt(I, NODE()) < 0) goto error;
  DISPATCH();
L_EVAL: {
  Value out;
  SAVE();
  if (eval_expr_num(I, NODE(), &out) < 0) goto error;
  if (out.type == V_SCALAR && (int)I_A(i) < p->nlocals && scalar_box(I, &out) < 0) goto error;
  setreg(base + I_A(i), out);
  DISPATCH();
}
L_ASSIGN: {
  Value *src = base + I_A(i);
  Value v = *src;
  SAVE();
  if (I_K(i) & KILL_A) *src = v_none();
  else value_incref(v);
  if (v.type == V_SCALAR && scalar_box(I, &v) < 0) goto error;
  int r = eval_assign_target(I, NODE(), v);
  value_decref(v);
  if (r < 0) goto error;
  DISPATCH();
}
L_ECHO: {
  Value *src = base + I_A(i);
  SAVE();
  if (box(I, src) < 0 || echo(I, *src) < 0) goto error;
  clear_reg(src);
  DISPATCH();
}
L_SETRESULT: {
  Value *src = base + I_A(i);
  SAVE();
  if (box(I, src) < 0) goto error;
  if (ci->chunk_result) { setreg(ci->chunk_result, *src); *src = v_none(); }
  else clear_reg(src);
  DISPATCH();
}

error:
  /* the innermost position wins (set_pos keeps the first); then every frame of this
     execute() is unwound */
  eval_set_pos(I, NODE());
  for (;;) {
    frame_clear(ci->base, ci->p->nregs);
    I->frame = ci->fr.parent;
    I->cur_chunk = ci->saved_chunk;
    if (ci->counted) vm->depth--;
    VMFrame *done = ci;
    vm->ci = ci->prev;
    if (done->entry) return -1;
    ci = done->prev;
    p = ci->p;
    pc = ci->pc;
    eval_set_pos(I, NODE());
  }
#undef LOAD_FRAME
#undef DISPATCH
#undef RK
#undef NODE
#undef SAVE
#undef KILLS
}

/* Pushes an entry frame for q (nregs registers above the innermost frame's) and runs it. */
static int run_entry(Interp *I, VM *vm, const Proto *q, Func *f, const Args *a, Frame fr,
                     ChunkRef *chunk, Value *result, Value *chunk_result) {
  StackSeg *seg = vm->ci ? vm->ci->seg : NULL;
  Value *want = vm->ci ? vm->ci->base + vm->ci->p->nregs : NULL;
  Value *nb = stack_room(I, vm, &seg, want, (size_t)(q->nregs ? q->nregs : 1));
  if (!nb) return -1;
  for (int j = 0; j < q->nregs; j++) setreg(nb + j, v_undef());
  if (f && bind_args(I, q, f, a, nb) < 0) return -1;
  VMFrame *ci = frame_push(I, vm);
  if (!ci) { frame_clear(nb, q->nregs); return -1; }
  ci->p = q;
  ci->pc = q->code;
  ci->base = nb;
  ci->seg = seg;
  ci->fr = fr;
  if (f) ci->fr.slots = nb;
  ci->fr.parent = I->frame;
  ci->saved_chunk = I->cur_chunk;
  ci->result = result;
  ci->chunk_result = chunk_result;
  ci->ret = 0;
  ci->entry = true;
  ci->counted = f != NULL;
  I->frame = &ci->fr;
  I->cur_chunk = chunk;
  if (f) vm->depth++;
  vm->ci = ci;
  return execute(I, ci);
}

int vm_call(Interp *I, Func *f, const Args *a, Value *out) {
  FuncScope *sc = f->def->cache;
  const Proto *q = sc ? sc->proto : NULL;
  if (!q)
    return ctx_err(&I->ctx, TSR_ERR_RUNTIME, "SystemError", "function %s was not compiled",
                   f->def->str);
  VM *vm = vm_get(I);
  if (!vm) return -1;
  if (vm->depth >= MAX_FRAMES || ctx_stack_exhausted(&I->ctx)) return recursion_error(I);
  if (vm_poll(I) < 0) return -1;
  Frame fr;
  memset(&fr, 0, sizeof fr);
  fr.scope = sc;
  fr.globals = f->globals;
  Value r = v_none();
  if (run_entry(I, vm, q, f, a, fr, f->chunk, &r, NULL) < 0) return -1;
  *out = r;
  return 0;
}

int vm_run_module(Interp *I, Proto *p, ChunkRef *cr, Value *result) {
  VM *vm = vm_get(I);
  if (!vm) return -1;
  Frame fr;
  memset(&fr, 0, sizeof fr);
  fr.globals = I->globals;
  int rc = run_entry(I, vm, p, NULL, NULL, fr, cr, NULL, result);
  if (!vm->ci && vm->first && vm->first->next) {   /* deep recursion's segments go */
    for (StackSeg *s = vm->first->next, *nx; s; s = nx) {
      nx = s->next;
      ctx_free(&I->ctx, s, sizeof *s + s->n * sizeof(Value));
    }
    vm->first->next = NULL;
  }
  return rc;
}
