/*
** vm.h -- the bytecode of tsr: the compiler (compile.c) turns each resolved chunk into
** prototypes of register code, and the virtual machine (vm.c) runs them.
**
** THE DESIGN (what exists now, and where the rest of Python goes without a redesign)
**
** Values and registers.  A function's frame is a window of one value stack: registers
** R[0..nlocals) are its local variables (parameters first, as resolve.c numbers them, so the
** tree-walker's Frame.slots is simply the window's base), R[nlocals..nregs) are temporaries
** handed out stack-wise by the compiler.  Values are the tagged union of value.h: ints and
** floats are unboxed, so `s += x * h` on floats allocates nothing.  A temporary may hold a
** V_SCALAR (scalar.h) between the operators of one expression; every instruction that lets a
** value escape (a store to a local or a global, a call argument, a return, a container
** element) boxes it first.  A temporary is owned by its register; the instruction that
** consumes it releases it (the KILL bits below), so temporaries die when the tree-walker's
** did and a big intermediate tensor is freed as early as before.
**
** Instructions are 64 bits: op (8) | k (8) | A (16) | B (16) | C (16); Bx = B | C << 16 (32
** bits, sBx signed).  An operand B or C with its top bit (RK_CONST) set names the constant
** K[B & 0x7fff] instead of a register (Lua's RK form: `x * 0.5` needs no load).  k holds
** the sub-operator (OpKind, high nibble) and the flag bits KILL_A/B/C and INPLACE.  Beside
** the code, pos[pc] is the AST node of each instruction: the error position (line and column
** of the caret, set exactly where the tree-walker set it), a global's name and cache, an
** attribute's name, a call's keyword names, the statement of an escape.  Line numbers for
** warnings come from it too (Frame.line is set before any instruction that can warn).
**
** Calls.  CALL A B C calls R[A] with B positional arguments R[A+1..A+B] and C keyword ones
** after them.  A call of a user function in the VM does not recurse in C: the callee's frame
** starts at R[A+1], where its arguments already are (Lua's convention), a CallInfo (VMFrame)
** is pushed and the loop goes on; RETURN pops it and stores the value into the caller's
** R[A].  Builtins that call back into user code (and the tree-walker's escapes) enter the VM
** again through vm_call, guarded by the C-stack check.  The depth of user calls is bounded as
** Python's recursion limit (1000 frames with the module's) with a clean RecursionError.
** The value stack is a chain of segments, never moved, so Frame.slots stay valid.
** max_steps is charged, and the interrupt flag polled, at every backward jump and every call.
**
** Loops.  FORPREP/FORNEXT keep [iterable, counter, length/remaining, item] in four registers;
** a range runs without allocation (counter and remaining count are plain ints), other
** iterables by index (lists re-checked for shrinking, as today).  break and continue are
** jumps patched at the end of the loop.
**
** Tensors.  A pure elementwise subtree (fuse.c's "fusion root") compiles to FUSED A, skip
** carrying its node, followed by the same subtree compiled operator by operator: FUSED
** evaluates the whole tree in one fused pass and jumps over the scalar code, unless the
** node is marked `unfused` (its last run met only scalars and tiny tensors), in which case
** the register code runs, and its last operator (whose node is the root) re-arms fusion
** when a big tensor comes out of its slow path.
**
** Escapes.  What the compiler does not translate yet runs in the tree-walker on the same
** frame: EXEC node (a statement: def, import, del, assert), ASSIGN A node (an attribute
** target), EVAL A node (a display too long for consecutive registers).  They are listed in compile.c's header; the end state is
** none.  A node kind the compiler does not know is a SyntaxError "... not supported yet" at
** compile time, before the chunk runs.
**
** What comes next, and how it fits:
** - Closures: a local captured by an inner function becomes a cell (resolve.c marks it);
**   the register then holds a V_CELL and LOADCELL/STORECELL A B go through it; a closure is
**   a Func with an array of cells (upvalues) read by GETUPVAL/SETUPVAL; nonlocal names
**   resolve to the enclosing function's cell.  Cells, not Lua's open upvalues, because a
**   generator's frame may outlive the call.
** - Generators: a generator owns a heap copy of its frame (VMFrame + its register window,
**   allocated by the generator object instead of on the value stack); YIELD A saves pc and
**   returns to the caller's frame, `send` re-enters vm_execute with that frame as entry.
**   Nothing in a frame points into the C stack, so this needs no change to the loop.
** - Exceptions: zero-cost try.  Each Proto gets a table of (start pc, end pc, handler pc,
**   register level) rows; raising searches the current frame's table, and when no row covers
**   pc, pops the frame and searches the caller's, as the error path already unwinds frames
**   today.  `finally` is compiled twice (normal path inline, exceptional path in the handler
**   ending with RERAISE), return/break/continue through finally run the inline copy.
**   Definite-assignment facts (below) reset at handler entry.  Interrupts and host limits
**   are not exceptions and skip every handler.
** - Classes: the class body is a function run once whose locals become the class dict
**   (MAKECLASS); methods are ordinary Funcs, bound on GETATTR.  Comprehensions are
**   functions called at once (their own scope), as in CPython 3.11.
**
** Definite assignment.  Reading a local that may be unbound needs a check (UnboundLocalError);
** the compiler skips it when an assignment dominates the read: parameters (unless deleted
** somewhere), and names assigned earlier in the same block or an enclosing one.
*/
#ifndef TSR_VM_H
#define TSR_VM_H

#include "interp.h"

typedef uint64_t Instr;

/* The instruction set: X(name, operands and meaning). */
#define VM_OPCODES(X)                                                                        \
  X(MOVE,      "A B: R[A] = R[B] (boxed; KILL_B moves)")                                     \
  X(LOADK,     "A Bx: R[A] = K[Bx]")                                                         \
  X(LOADSTR,   "A: R[A] = the string of pos (an N_STR)")                                     \
  X(GETGLOBAL, "A: R[A] = the global or builtin named by pos (an N_NAME)")                   \
  X(SETGLOBAL, "A: the global named by pos = R[A] (boxed; KILL_A moves)")                    \
  X(CHECKLOCAL,"A: UnboundLocalError for pos's name unless R[A] is bound")                   \
  X(CLEAR,     "A: R[A] = None (releases a temporary)")                                      \
  X(ADD,       "A B C: R[A] = RK[B] + RK[C]")                                                \
  X(SUB,       "A B C: R[A] = RK[B] - RK[C]")                                                \
  X(MUL,       "A B C: R[A] = RK[B] * RK[C]")                                                \
  X(DIV,       "A B C: R[A] = RK[B] / RK[C]")                                                \
  X(BINOP,     "A B C: R[A] = RK[B] <op k> RK[C] (INPLACE: augmented)")                      \
  X(UNOP,      "A B: R[A] = <op k> R[B]")                                                    \
  X(CMP,       "A B C: R[A] = RK[B] <cmp k> RK[C]")                                          \
  X(CMPJMP,    "B C: unless RK[B] <cmp k> RK[C] is true, take the JMP word that follows")    \
  X(JMP,       "sBx: pc += sBx")                                                             \
  X(LOOP,      "sBx: pc += sBx, a backward jump: charges a step, polls")                     \
  X(JMPIF,     "A sBx: if R[A] is true, pc += sBx")                                          \
  X(JMPIFNOT,  "A sBx: if R[A] is false, pc += sBx")                                         \
  X(GETITEM,   "A B C: R[A] = RK[B][RK[C]]")                                                 \
  X(SETITEM,   "A B C: R[A][RK[B]] = RK[C]")                                                 \
  X(GETATTR,   "A B: R[A] = R[B].<pos's name>")                                              \
  X(CALL,      "A B C: R[A] = R[A](R[A+1..A+B], keywords R[A+B+1..A+B+C] named by pos)")    \
  X(MKTUPLE,   "A B C: R[A] = (R[B], ..., R[B+C-1])")                                        \
  X(MKLIST,    "A B C: R[A] = [R[B], ..., R[B+C-1]]")                                        \
  X(MKSLICE,   "A B: R[A] = slice(R[B], R[B+1], R[B+2])")                                    \
  X(UNPACK,    "A B C: R[B..B+C) = the C items of R[A] (Python's unpacking errors at pos)")  \
  X(FORPREP,   "A sBx: start iterating R[A] (uses R[A..A+3]); pc += sBx (to FORNEXT)")      \
  X(FORNEXT,   "A sBx: next item into R[A+3] and pc += sBx, or clear R[A..A+3]")              \
  X(RETURN,    "A: return R[A] (k: 0 returns None)")                                         \
  X(FUSED,     "A sBx: unless pos is marked unfused, R[A] = pos evaluated fused; pc += sBx") \
  X(EXEC,      "run the statement pos in the tree-walker (escape)")                          \
  X(EVAL,      "A: R[A] = the expression pos evaluated by the tree-walker (escape)")         \
  X(ASSIGN,    "A: assign R[A] to the target pos in the tree-walker (escape)")               \
  X(ECHO,      "A: REPL echo of R[A], bound to _")                                           \
  X(SETRESULT, "A: R[A] is the chunk's result")

#define X_ENUM(name, doc) OP_VM_##name,
typedef enum { VM_OPCODES(X_ENUM) OP_VM_COUNT } VMOpcode;
#undef X_ENUM
_Static_assert(OP_VM_COUNT <= 256, "opcodes fit in 8 bits");

/* Fields of an instruction. */
#define I_OP(i)  ((unsigned)((i) & 0xff))
#define I_K(i)   ((unsigned)(((i) >> 8) & 0xff))
#define I_A(i)   ((unsigned)(((i) >> 16) & 0xffff))
#define I_B(i)   ((unsigned)(((i) >> 32) & 0xffff))
#define I_C(i)   ((unsigned)(((i) >> 48) & 0xffff))
#define I_BX(i)  ((uint32_t)((i) >> 32))
#define I_SBX(i) ((int32_t)(uint32_t)((i) >> 32))
#define MK_ABC(op, k, a, b, c)                                                          \
  ((Instr)(op) | (Instr)(k) << 8 | (Instr)(a) << 16 | (Instr)(b) << 32 | (Instr)(c) << 48)
#define MK_ABX(op, k, a, bx) ((Instr)(op) | (Instr)(k) << 8 | (Instr)(a) << 16 | (Instr)(uint32_t)(bx) << 32)

/* k bits. */
enum { KILL_A = 1, KILL_B = 2, KILL_C = 4, INPLACE = 8 };
#define K_SUBOP(k) ((k) >> 4)
#define MK_K(subop, flags) ((unsigned)(subop) << 4 | (flags))

#define RK_CONST 0x8000u
#define MAX_REGS 0x7fff

/* A compiled function (or module body).  Lives in its chunk's arena. */
typedef struct Proto {
  Instr *code;
  Node **pos;            /* pos[pc]: the node of instruction pc (never NULL) */
  int ncode;
  Value *k;              /* constants: immediates only (None, bool, int, float, Ellipsis) */
  int nk;
  int nparams, nlocals, nregs;
  const char *name;      /* the function's qualified name, "<module>" */
  const FuncScope *scope;/* the function's locals (NULL for a module body) */
  Node *def;             /* N_DEF, or NULL for a module body */
} Proto;

/* The compiled form of a chunk: its module body (the protos of its functions are in their
   FuncScope.proto).  interactive: N_EXPR statements echo their value; want_result: the final
   expression statement's value is the chunk's result.  0, or -1 with the error in I's Ctx
   (SyntaxError "... not supported yet", RecursionError, MemoryError) and *where set to the
   node it is about (or NULL). */
RT_HIDDEN int compile_chunk(Interp *I, Chunk *ch, bool interactive, bool want_result,
                            Proto **out, Node **where);

/* Runs a module body on I's globals.  *result (when not NULL) receives the SETRESULT value
   (new reference, None when there is none).  0 or -1 (error pending, position recorded). */
RT_HIDDEN int vm_run_module(Interp *I, Proto *p, ChunkRef *cr, Value *result);

/* Calls user function f with a's arguments (bound as Python binds them, with Python's
   TypeErrors), running its body in the VM; *out gets a new reference.  0 or -1. */
RT_HIDDEN int vm_call(Interp *I, Func *f, const Args *a, Value *out);

/* Frees the VM's stack and frames (interp_free_contents). */
RT_HIDDEN void vm_free(Interp *I);

/* The tree-walker's pieces the VM uses (eval.c).  All follow eval.c's conventions: 0 or -1
   with the error in the Ctx; values that may be V_SCALAR where the name says _num. */
RT_HIDDEN int eval_set_pos(Interp *I, Node *n);                 /* always returns -1 */
RT_HIDDEN Value *eval_name_ref(Interp *I, Node *n);             /* borrowed, or NULL + error */
RT_HIDDEN int eval_store_name(Interp *I, Node *n, Value v);     /* takes v */
RT_HIDDEN int eval_unbound_local(Interp *I, const char *name);
RT_HIDDEN int eval_expr_num(Interp *I, Node *n, Value *out);    /* eval_num: escape */
RT_HIDDEN int eval_exec_stmt(Interp *I, Node *s);               /* exec_stmt: escape; 0 normal */
RT_HIDDEN int eval_assign_target(Interp *I, Node *target, Value v);
RT_HIDDEN int eval_binary_num(Interp *I, int op, Value a, Value b, int mode, Value *out);
RT_HIDDEN int eval_compare_num(Interp *I, int op, Value a, Value b, Value *out);
RT_HIDDEN int eval_unary_num(Interp *I, int op, Value a, Value *out);
RT_HIDDEN int eval_getitem_num(Interp *I, Value obj, Value idx, Value *out);
RT_HIDDEN int eval_setitem(Interp *I, Value obj, Value idx, Value v);
RT_HIDDEN int eval_getattr(Interp *I, Value obj, const char *name, Value *out);
RT_HIDDEN int eval_call_value(Interp *I, Value fn, const Args *a, Value *out);
RT_HIDDEN int eval_iter_len(Interp *I, Value v, int64_t *len);
RT_HIDDEN int eval_iter_item(Interp *I, Value v, int64_t i, Value *out);
RT_HIDDEN bool eval_is_fusion_root(Node *n);
RT_HIDDEN int eval_recursion_error(Interp *I);

#endif
