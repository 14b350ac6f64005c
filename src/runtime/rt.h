/*
** rt.h -- the shared internal header of tsr's tensor runtime (src/runtime/).
**
** The runtime knows nothing of the language: it holds dtypes, refcounted storage, strided
** tensor views, the iteration engine, ufunc and reduction kernels, BLAS glue, formatting and
** file readers.  Every function that can fail takes a Ctx, records the error there (kind +
** message) and returns NULL or -1.  Nothing here exits, aborts or prints.
*/
#ifndef TSR_RT_H
#define TSR_RT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../tsr.h"

#define TSR_MAXDIMS 32
#define RT_HIDDEN __attribute__((visibility("hidden")))

/* Kernels (elementwise and reduction loops) are also built for AVX2 and picked at load time
   when the CPU has it (an ifunc): more lanes for the same IEEE operations in the same order,
   so the same results (no FMA: -std=c11 keeps floating-point contraction off, and GCC never
   reassociates without -ffast-math).  TSR_NO_CLONES builds the baseline only. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(TSR_NO_CLONES)
#define KERNEL_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL_CLONES
#endif

typedef tsr_DType DType;
typedef struct tsr_Tensor Tensor;

/* ------------------------------------------------------------------------------------------
** Print options (numpy.set_printoptions).  Owned by the Ctx.
*/
typedef struct PrintOptions {
  int precision;        /* 8 */
  int64_t threshold;    /* 1000 */
  int edgeitems;        /* 3 */
  int linewidth;        /* 75 */
  bool suppress;        /* false */
  char sign;            /* '-' (default), '+' or ' ' */
  int floatmode;        /* FLOATMODE_MAXPREC (default) ... */
  char nanstr[32], infstr[32];   /* "nan", "inf" */
} PrintOptions;
enum { FLOATMODE_FIXED, FLOATMODE_UNIQUE, FLOATMODE_MAXPREC, FLOATMODE_MAXPREC_EQUAL };

/* ------------------------------------------------------------------------------------------
** Floating-point errors (fperr.c): numpy.seterr's modes per category and the hook through
** which the language layer shows a RuntimeWarning.  Kernels test the FPU status flags once
** per ufunc call (not per element); integer loops raise the flags themselves (division by
** zero), as NumPy does.
*/
enum { FPE_DIVIDE = 1, FPE_OVERFLOW = 2, FPE_UNDERFLOW = 4, FPE_INVALID = 8 };
enum { FPE_NCAT = 4 };   /* categories in NumPy's order: divide, over, under, invalid */
typedef enum { FPMODE_IGNORE, FPMODE_WARN, FPMODE_RAISE, FPMODE_PRINT } FpMode;
struct Ctx;
typedef struct FpErr {
  uint8_t mode[FPE_NCAT];   /* FpMode + 1; 0 = NumPy's default (warn, warn, ignore, warn) */
  /* Shows message ("divide by zero encountered in divide") as a RuntimeWarning (how ==
     FPMODE_WARN) or as NumPy's 'print' line (FPMODE_PRINT); NULL = shown nowhere. */
  void (*report)(struct Ctx *c, FpMode how, const char *message);
  /* Shows message as a Python warning of category ("DeprecationWarning") at the calling line,
     once per (message, line) as report's warnings; NULL = shown nowhere. */
  void (*warn)(struct Ctx *c, const char *category, const char *message);
  void *registry;           /* the warnings registry of the report hook (its owner frees it) */
} FpErr;

/* ------------------------------------------------------------------------------------------
** Ctx: what the runtime needs from its owner (the interpreter state): the allocator and the
** memory account, the error slot, the interrupt flag and step budget, print options.
*/
#define CTX_CACHE_SLOTS 8
typedef struct Ctx {
  void *(*alloc)(void *ud, void *ptr, size_t old_size, size_t new_size);
  void *alloc_ud;
  size_t mem_used, mem_peak, mem_max;  /* bytes; mem_max 0 = no cap */
  tsr_Status status;                   /* TSR_OK when no error is pending */
  const char *kind;                    /* "ValueError", static string */
  char msg[1024];
  _Atomic int interrupted;             /* set by tsr_interrupt (any thread, signal handler) */
  uint64_t steps, max_steps;           /* max_steps 0 = none */
  uint64_t work;                       /* work units not yet charged as a step (ctx_work) */
  unsigned flags;                      /* TSR_SANDBOX */
  PrintOptions print;
  /* C stack guard (stack.c): the lowest stack address recursion may reach on the thread that
     entered the state (stack_thread); NULL until ctx_stack_init. */
  char *stack_limit;
  unsigned long stack_thread;
  bool stack_known;
  /* Speed (ctx.c, pool.c), both off until ctx_open_speedups: a cache of freed large tensor
     buffers reused by later allocations (its bytes are not in mem_used), and a thread pool. */
  bool cache_on;
  int ncached;
  size_t cache_bytes;
  struct { void *raw; size_t total; } cache[CTX_CACHE_SLOTS];
  int nthreads;                        /* threads for large kernels; <= 1 = serial */
  struct Pool *pool;                   /* started on first use */
  void *fuse_spare;                    /* a fused-evaluation program kept for reuse (fuse.c) */
  void *parse_spare;                   /* the Lemon engine kept for the next parse (parse.c) */
  size_t parse_spare_size;             /* its bytes (counted in mem_used) */
  void *einsum_cache;                  /* einsum.c's plan cache, freed by einsum_cache_free */
  FpErr fperr;                         /* numpy.seterr state (fperr.c) */
} Ctx;

/* Sets c's C stack guard for the calling thread (its stack bounds from pthread_getattr_np,
   cached per thread; elsewhere 1 MiB below the caller).  Called when a thread enters the state
   (tsr_eval and friends).  Deep recursion over user input (nested expressions, script
   recursion, repr of nested lists) checks ctx_stack_exhausted and fails with RecursionError
   instead of overflowing the host's stack. */
RT_HIDDEN void ctx_stack_init(Ctx *c);
/* True when the current frame is below the guard (stack.c's margin keeps room for the BLAS,
   libc and formatting calls made below any check). */
static inline bool ctx_stack_exhausted(const Ctx *c) {
  return c->stack_limit && (char *)__builtin_frame_address(0) < c->stack_limit;
}

/* Turns on the buffer cache and the thread pool for c: nthreads threads for large kernels,
   or, when nthreads <= 0, TSR_NUM_THREADS from the environment, else the number of online
   cores.  ctx_close_speedups stops the pool and frees the cached buffers (call it before the
   owner frees c). */
RT_HIDDEN void ctx_open_speedups(Ctx *c, int nthreads);
RT_HIDDEN void ctx_close_speedups(Ctx *c);
/* Frees every cached buffer (also done when an allocation would pass mem_max). */
RT_HIDDEN void ctx_cache_flush(Ctx *c);

/* The pool (pool.c).  A PoolTask handles the items [lo, hi) of a parallel loop; it must not
   touch the Ctx (no allocation, no errors, no polling) and must give results that do not
   depend on how [0, n) is split. */
typedef void (*PoolTask)(void *arg, int64_t lo, int64_t hi);
/* Runs task over [0, n) in pieces of at least `grain` items on c's pool threads and the
   calling thread, and returns when all are done.  Serial (one call task(arg, 0, n)) when c
   has no threads, n < 2 * grain, or the pool cannot start. */
RT_HIDDEN void pool_parallel_for(Ctx *c, int64_t n, int64_t grain, PoolTask task, void *arg);
/* pool_parallel_for in rounds of about 4M work units (work_per_item units per item, at the
   WORK_* rates of ctx_work), charged between rounds, so that an interrupt or max_steps stops a long parallel kernel
   within milliseconds.  Returns 0, or -1 with the poll's error recorded (the items of later
   rounds are not run).  Results are those of pool_parallel_for (tasks split-independent). */
RT_HIDDEN int pool_parallel_for_polled(Ctx *c, int64_t n, int64_t grain, PoolTask task,
                                       void *arg, int64_t work_per_item);
/* How many threads pool_parallel_for would use for n items of the given grain (>= 1). */
RT_HIDDEN int pool_width(const Ctx *c, int64_t n, int64_t grain);
RT_HIDDEN void pool_stop(Ctx *c);

/* The BLAS library's own threads (blas.c).  blas_serial_begin makes OpenBLAS run each call on
   the calling thread alone (openblas_set_num_threads(1)), so that tsr's pool can run many
   small products at once without the two sets of threads competing for the cores; false when
   the library has no such control (then nothing changed and blas_serial_end must not be
   called).  blas_serial_end restores the count once the last caller in the process leaves. */
RT_HIDDEN bool blas_serial_begin(void);
RT_HIDDEN void blas_serial_end(void);

/* Initialises c with the given allocator (NULL = libc) and default print options. */
RT_HIDDEN void ctx_init(Ctx *c, void *(*alloc)(void *, void *, size_t, size_t), void *ud);

/* Allocation through the state's allocator with accounting against mem_max.  On failure (or
   over the cap) records MemoryError in c and returns NULL.  ctx_free needs the size allocated.
   ctx_malloc(c, 0) returns a valid unique pointer. */
RT_HIDDEN void *ctx_malloc(Ctx *c, size_t n);
RT_HIDDEN void *ctx_calloc(Ctx *c, size_t n);
RT_HIDDEN void *ctx_realloc(Ctx *c, void *p, size_t old_n, size_t new_n);
RT_HIDDEN void ctx_free(Ctx *c, void *p, size_t n);
/* 64-byte aligned allocation for tensor data (records the padding in the account). */
RT_HIDDEN void *ctx_alloc_aligned(Ctx *c, size_t n);
RT_HIDDEN void ctx_free_aligned(Ctx *c, void *p, size_t n);

/* Checked size arithmetic.  Every count that becomes a size goes through these (element and
   byte counts, list capacities, sums of lengths, repeat totals, cut counts, pad widths, `k`
   offsets, range lengths), so that an impossible size is an error before any allocation and
   never a wrapped value.  size_add / size_sub / size_mul store a op b in *r and return true
   when the exact result does not fit in int64_t (*r is then meaningless). */
static inline bool size_add(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline bool size_sub(int64_t a, int64_t b, int64_t *r) { return __builtin_sub_overflow(a, b, r); }
static inline bool size_mul(int64_t a, int64_t b, int64_t *r) { return __builtin_mul_overflow(a, b, r); }
/* The bytes of n items of `size` bytes each in *bytes; false when n < 0 or n * size passes
   INT64_MAX (NumPy's limit for any buffer, well beyond what an allocator can give). */
static inline bool size_bytes(int64_t n, size_t size, size_t *bytes) {
  int64_t b;
  if (n < 0 || size > (size_t)INT64_MAX || __builtin_mul_overflow(n, (int64_t)size, &b)) return false;
  *bytes = (size_t)b;
  return true;
}
/* The number of items of the progression start, start + step, ... before stop (step != 0),
   Python's range() and numpy.arange over int64: up to 2**64 - 1, so exact in uint64_t. */
static inline uint64_t progression_count(int64_t start, int64_t stop, int64_t step) {
  if (step > 0 && start < stop) return ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
  if (step < 0 && start > stop)
    return ((uint64_t)start - (uint64_t)stop - 1) / ((uint64_t)0 - (uint64_t)step) + 1;
  return 0;
}
/* Item i (< progression_count) of that progression: exact, since it lies in [start, stop). */
static inline int64_t progression_item(int64_t start, int64_t step, uint64_t i) {
  return (int64_t)((uint64_t)start + i * (uint64_t)step);
}
/* The element count of a shape as NumPy checks it: the product of the nonzero dims must fit,
   with the itemsize, in int64_t ((0, 2**62, 2**62) is refused too); *count is 0 when a dim is
   0.  0, or -1 (no error recorded) when a dim is negative or the product overflows. */
RT_HIDDEN int shape_count(int ndim, const int64_t *shape, size_t itemsize, int64_t *count);
/* Records NumPy's ValueError for such a shape: "array is too big; `arr.size *
   arr.dtype.itemsize` is larger than the maximum possible size."; returns -1. */
RT_HIDDEN int err_too_big(Ctx *c);
/* ctx_malloc / ctx_calloc / ctx_realloc / ctx_free for arrays of n items of `size` bytes:
   n < 0 or a byte count past INT64_MAX is a MemoryError (nothing allocated). */
RT_HIDDEN void *ctx_malloc_n(Ctx *c, int64_t n, size_t size);
RT_HIDDEN void *ctx_calloc_n(Ctx *c, int64_t n, size_t size);
RT_HIDDEN void *ctx_realloc_n(Ctx *c, void *p, int64_t old_n, int64_t new_n, size_t size);
RT_HIDDEN void ctx_free_n(Ctx *c, void *p, int64_t n, size_t size);

/* Records an error (status, kind such as "ValueError", printf-style message); returns -1 so
   that `return ctx_err(...)` works in int-returning functions.  The first error wins until
   ctx_clear. */
RT_HIDDEN int ctx_err(Ctx *c, tsr_Status st, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
RT_HIDDEN int ctx_verr(Ctx *c, tsr_Status st, const char *kind, const char *fmt, va_list ap);
RT_HIDDEN void ctx_clear(Ctx *c);
#define ERR_VALUE(c, ...)  ctx_err((c), TSR_ERR_VALUE, "ValueError", __VA_ARGS__)
#define ERR_TYPE(c, ...)   ctx_err((c), TSR_ERR_TYPE, "TypeError", __VA_ARGS__)
#define ERR_INDEX(c, ...)  ctx_err((c), TSR_ERR_INDEX, "IndexError", __VA_ARGS__)
#define ERR_AXIS(c, ...)   ctx_err((c), TSR_ERR_VALUE, "AxisError (ValueError)", __VA_ARGS__)
#define ERR_MEMORY(c, ...) ctx_err((c), TSR_ERR_MEMORY, "MemoryError", __VA_ARGS__)
#define ERR_ZERODIV(c, ...) ctx_err((c), TSR_ERR_VALUE, "ZeroDivisionError", __VA_ARGS__)
#define ERR_OVERFLOW(c, ...) ctx_err((c), TSR_ERR_VALUE, "OverflowError", __VA_ARGS__)
#define ERR_IO(c, ...)     ctx_err((c), TSR_ERR_IO, "OSError", __VA_ARGS__)
#define ERR_RUNTIME(c, ...) ctx_err((c), TSR_ERR_RUNTIME, "RuntimeError", __VA_ARGS__)
/* NumPy's UFuncTypeError subclasses, named as a traceback names them (their __name__ is
   "UFuncTypeError"): no loop of the ufunc for the operand types; the result of ufunc `name`
   (dtype name `from`) not castable to the output's dtype name `to` by casting='same_kind'. */
#define ERR_UFUNC_NO_LOOP(c, ...) \
  ctx_err((c), TSR_ERR_TYPE, "_UFuncNoLoopError (TypeError)", __VA_ARGS__)
#define ERR_OUTPUT_CAST(c, name, from, to)                                                    \
  ctx_err((c), TSR_ERR_TYPE, "_UFuncOutputCastingError (TypeError)",                          \
          "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with casting rule "   \
          "'same_kind'", (name), (from), (to))

/* Floating-point status (fperr.c).  fperr_clear clears the four flags of the calling thread;
   fperr_test returns those raised since (FPE_* bits); fperr_raise sets them (integer loops:
   FPE_DIVIDE for a division by zero).  fperr_mode is c's numpy.seterr mode of category k
   (0 divide, 1 over, 2 under, 3 invalid); fperr_active is false when every category is
   'ignore' (kernels then skip the flags altogether). */
RT_HIDDEN void fperr_clear(void);
RT_HIDDEN int fperr_test(void);
RT_HIDDEN void fperr_raise(int flags);
RT_HIDDEN FpMode fperr_mode(const Ctx *c, int k);
RT_HIDDEN bool fperr_active(const Ctx *c);
/* Is some category 'raise' (an operation must then check before it writes anything)? */
RT_HIDDEN bool fperr_any_raise(const Ctx *c);
/* Acts on the flags raised by one ufunc call named name ("divide", "scalar divide", "reduce"),
   category by category in NumPy's order (divide, over, under, invalid): 'warn' and 'print'
   go to c->fperr.report with "divide by zero encountered in divide" (also "overflow",
   "underflow", "invalid value"; 'print' only for the first category it reports in the
   call), 'raise' records FloatingPointError with that message and
   returns -1 at once.  Returns 0 otherwise. */
RT_HIDDEN int fperr_report(Ctx *c, int flags, const char *name);

/* Charges `work` steps and checks the interrupt flag.  Returns 0, or -1 with
   KeyboardInterrupt (TSR_ERR_INTERRUPT) or the step-limit error (TSR_ERR_LIMIT) recorded.
   The evaluator charges a step per statement, loop iteration and call; work proportional to a
   size goes through ctx_work. */
RT_HIDDEN int ctx_poll(Ctx *c, uint64_t work);

/* The step budget's rates.  A step is WORK_PER_STEP work units, and a unit is about a
   quarter of a nanosecond of this project's 2-core machine, so that max_steps = 10^7 is about 10 s at
   most whatever the program does (docs/robustness.md's table, made by scripts/steps-table).
   Each row is the cost of one item of a kind of work, in units. */
#define WORK_PER_STEP 4096
enum {
  WORK_FLOP = 1,       /* a multiply-add of a matrix product or factorisation (BLAS, LAPACK) */
  WORK_BYTE = 1,       /* a byte copied, compared or searched by memcpy/memcmp/memmem */
  WORK_ELEMENT = 4,    /* an element read or written by a streaming kernel (ufunc, reduction,
                          copy, fill, cast, indexing) */
  WORK_COMPARE = 64,   /* a comparison in sorting, selection, searching, set functions */
  WORK_SAMPLE = 224,   /* a random variate (the generator's bits and its transformation) */
  WORK_CHAR = 64,      /* a character produced by formatting (repr, str, print) */
  WORK_DIGITS = 1536,  /* an array element measured or printed by NumPy's formatting passes */
  WORK_REPR_FLOAT = 8192,   /* Python's repr of a float (a search for the shortest digits) */
  WORK_OBJECT = 96,    /* a Python object made, compared, hashed or converted (list and str
                          items, tolist, array(list)) */
};
/* Charges n items of a kind of work (n * rate units, rounded down to steps, the remainder
   kept for the next charge, so that many small charges add up) and polls the interrupt flag
   as ctx_poll.  Call it at least every few milliseconds of work (a chunk, a lane, a merge),
   before or after the work it pays for.  Returns 0 or -1 as ctx_poll. */
RT_HIDDEN int ctx_work(Ctx *c, uint64_t n, unsigned rate);

/* ------------------------------------------------------------------------------------------
** Growable text buffer; allocation failures set `failed` (and MemoryError in ctx) and further
** appends do nothing.
*/
typedef struct Buf { Ctx *ctx; char *p; size_t n, cap; bool failed; } Buf;
RT_HIDDEN void buf_init(Buf *b, Ctx *c);
RT_HIDDEN void buf_free(Buf *b);
RT_HIDDEN void buf_putn(Buf *b, const char *s, size_t n);
RT_HIDDEN void buf_puts(Buf *b, const char *s);
RT_HIDDEN void buf_putc(Buf *b, char ch);
/* n copies of ch, the room taken at once (a width of 2**62 is one MemoryError, not a loop). */
RT_HIDDEN void buf_fill(Buf *b, char ch, size_t n);
RT_HIDDEN void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The NUL-terminated contents ("" when empty); owned by b. */
RT_HIDDEN const char *buf_str(Buf *b);
/* Charges n items at a WORK_* rate to b's Ctx (ctx_work) for the formatting that fills b; a
   failed poll marks b failed, the limit or interrupt error recorded, as an allocation failure
   does.  Returns false when b has failed (before or now). */
RT_HIDDEN bool buf_work(Buf *b, uint64_t n, unsigned rate);

/* ------------------------------------------------------------------------------------------
** dtypes.  One X-macro table: enum value, C type, NumPy name, kind character.
*/
#define DTYPE_TABLE(X)                                  \
  X(TSR_BOOL,    bool,     "bool",    'b')              \
  X(TSR_INT8,    int8_t,   "int8",    'i')              \
  X(TSR_INT16,   int16_t,  "int16",   'i')              \
  X(TSR_INT32,   int32_t,  "int32",   'i')              \
  X(TSR_INT64,   int64_t,  "int64",   'i')              \
  X(TSR_UINT8,   uint8_t,  "uint8",   'u')              \
  X(TSR_UINT16,  uint16_t, "uint16",  'u')              \
  X(TSR_UINT32,  uint32_t, "uint32",  'u')              \
  X(TSR_UINT64,  uint64_t, "uint64",  'u')              \
  X(TSR_FLOAT32, float,    "float32", 'f')              \
  X(TSR_FLOAT64, double,   "float64", 'f')
#define DTYPE_COUNT 11

typedef struct DTypeInfo { const char *name; size_t itemsize; char kind; } DTypeInfo;
RT_HIDDEN extern const DTypeInfo dtype_info[DTYPE_COUNT];
static inline size_t dtype_size(DType d) { return dtype_info[d].itemsize; }
static inline const char *dtype_name(DType d) { return dtype_info[d].name; }
static inline bool dtype_is_float(DType d) { return dtype_info[d].kind == 'f'; }
static inline bool dtype_is_int(DType d) { char k = dtype_info[d].kind; return k == 'i' || k == 'u'; }
static inline bool dtype_is_unsigned(DType d) { return dtype_info[d].kind == 'u'; }
/* Looks up a NumPy dtype name ("float32", "int", "float", "bool", "bool_", "uint8", "f4",
   "i8" ...); returns 0 and sets *out, or -1 if unknown (no error recorded). */
RT_HIDDEN int dtype_from_name(const char *name, DType *out);
/* numpy.promote_types for two (strong) dtypes, e.g. int8+uint8 -> int16, int64+uint64 ->
   float64, int64+float32 -> float64. */
RT_HIDDEN DType dtype_promote(DType a, DType b);
/* Kinds of Python scalars meeting tensors under NEP 50 ("weak" scalars). */
typedef enum { WEAK_NONE = 0, WEAK_BOOL, WEAK_INT, WEAK_FLOAT } WeakKind;
/* The result dtype when a strong dtype d meets a weak Python scalar of kind w (NEP 50):
   bool with d -> d; int with bool -> int64, with int/float d -> d; float with bool/int ->
   float64, with float d -> d. */
RT_HIDDEN DType dtype_promote_weak(DType d, WeakKind w);

/* Reads element p (of dtype d) as double / int64 / uint64 / bool; writes likewise with C's
   conversion (float -> int truncates; out-of-range is wrapped the way NumPy's casts do on
   x86-64). */
RT_HIDDEN double   dtype_get_f64(DType d, const void *p);
RT_HIDDEN int64_t  dtype_get_i64(DType d, const void *p);
RT_HIDDEN uint64_t dtype_get_u64(DType d, const void *p);
RT_HIDDEN void dtype_set_f64(DType d, void *p, double v);
RT_HIDDEN void dtype_set_i64(DType d, void *p, int64_t v);
RT_HIDDEN void dtype_set_u64(DType d, void *p, uint64_t v);
/* Casts n elements from (src, src_stride bytes, sdt) to (dst, dst_stride bytes, ddt). */
RT_HIDDEN void dtype_cast_strided(DType ddt, char *dst, int64_t dst_stride, DType sdt,
                                  const char *src, int64_t src_stride, int64_t n);

/* ------------------------------------------------------------------------------------------
** Storage: a refcounted byte buffer, owned (64-byte aligned, from the Ctx allocator) or
** borrowed from a host with a release callback.
*/
typedef struct Storage {
  int64_t refcnt;
  Ctx *ctx;
  char *data;
  size_t nbytes;
  bool owned, readonly;
  void (*release)(void *ud, void *data); void *ud;   /* borrowed only */
} Storage;

/* ------------------------------------------------------------------------------------------
** Tensor: a view (dtype, shape, strides in ELEMENTS, offset in ELEMENTS) on one storage.
** `weak` marks a 0-d tensor made from a Python scalar literal (NEP 50 promotion); ufuncs
** never return weak tensors.  `ndarray` marks a 0-d tensor that is a real 0-d ndarray
** (array(5), zeros(()), x[...]: repr "array(5)"); other 0-d tensors are NumPy scalars
** (x.sum(), x[1, 2]: repr "5").  Only the language layer sets it, on fresh headers.
*/
struct tsr_Tensor {
  int64_t refcnt;
  Ctx *ctx;
  Storage *storage;
  DType dtype;
  int ndim;
  uint8_t weak;           /* WeakKind */
  uint8_t ndarray;        /* 0-d only: a real 0-d array, not a NumPy scalar */
  uint8_t readonly;       /* a read-only view (broadcast_to, diagonal); views of it inherit */
  int64_t offset;
  int64_t shape[TSR_MAXDIMS];
  int64_t strides[TSR_MAXDIMS];
  int64_t byte_strides[TSR_MAXDIMS];   /* filled by tsr_tensor_info for hosts (bytes) */
};

/* All tensor constructors return a new reference, or NULL with the error in c. */

/* An uninitialised C-contiguous tensor (all strides 0 when it has no element, as NumPy);
   ndim 0..32, every dim >= 0; checks the element count
   and byte size for overflow (ValueError "array is too big") and the memory cap. */
RT_HIDDEN Tensor *tensor_empty(Ctx *c, DType dt, int ndim, const int64_t *shape);
RT_HIDDEN Tensor *tensor_zeros(Ctx *c, DType dt, int ndim, const int64_t *shape);
/* numpy.full with a double / int64 fill value converted to dt. */
RT_HIDDEN Tensor *tensor_full_f64(Ctx *c, DType dt, int ndim, const int64_t *shape, double v);
RT_HIDDEN Tensor *tensor_full_i64(Ctx *c, DType dt, int ndim, const int64_t *shape, int64_t v);
/* 0-d tensors (NumPy scalars). */
RT_HIDDEN Tensor *tensor_scalar_f64(Ctx *c, DType dt, double v);
RT_HIDDEN Tensor *tensor_scalar_i64(Ctx *c, DType dt, int64_t v);
RT_HIDDEN Tensor *tensor_scalar_u64(Ctx *c, DType dt, uint64_t v);
/* A view of t's storage with the given geometry (strides in elements, offset absolute in
   elements).  Does not check bounds: callers derive geometry from t. */
RT_HIDDEN Tensor *tensor_view(Tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                              int64_t offset);
/* Wraps a host buffer (strides in BYTES, NULL = C-contiguous; must be multiples of the
   itemsize), checking that every reachable element lies inside nbytes.  See tsr_tensor_wrap. */
RT_HIDDEN Tensor *tensor_wrap(Ctx *c, DType dt, int ndim, const int64_t *shape,
                              const int64_t *strides_bytes, void *data, size_t nbytes,
                              unsigned flags, void (*release)(void *, void *), void *ud);

static inline Tensor *tensor_retain(Tensor *t) { if (t) t->refcnt++; return t; }
RT_HIDDEN void tensor_release(Tensor *t);

static inline int64_t tensor_size(const Tensor *t) {
  int64_t n = 1; for (int i = 0; i < t->ndim; i++) n *= t->shape[i]; return n;
}
/* Address of element [0,...,0]. */
static inline char *tensor_data(const Tensor *t) {
  return t->storage->data + t->offset * (int64_t)dtype_size(t->dtype);
}
/* Address of the element at a full index (ndim entries, each in range). */
static inline char *tensor_at(const Tensor *t, const int64_t *index) {
  int64_t off = t->offset;
  for (int i = 0; i < t->ndim; i++) off += index[i] * t->strides[i];
  return t->storage->data + off * (int64_t)dtype_size(t->dtype);
}
RT_HIDDEN bool tensor_is_contiguous(const Tensor *t);     /* C order */
RT_HIDDEN bool tensor_is_f_contiguous(const Tensor *t);   /* Fortran order */
/* Fills strides (elements) for C order. */
RT_HIDDEN void strides_c_order(int ndim, const int64_t *shape, int64_t *strides);
/* Does the memory of a and b possibly overlap (same storage, intersecting extents)? */
RT_HIDDEN bool tensor_may_overlap(const Tensor *a, const Tensor *b);
/* Is t writable (not a read-only borrowed buffer)?  Else records ValueError
   "assignment destination is read-only" and returns -1. */
RT_HIDDEN int tensor_check_writable(Ctx *c, const Tensor *t);

/* A C-contiguous copy (numpy.copy / ndarray.copy). */
RT_HIDDEN Tensor *tensor_copy(Ctx *c, Tensor *t);
/* A C-contiguous copy converted to dt (ndarray.astype). */
RT_HIDDEN Tensor *tensor_astype(Ctx *c, Tensor *t, DType dt);
/* t itself (new reference) if already C-contiguous with dtype dt, else a converted copy. */
RT_HIDDEN Tensor *tensor_contiguous(Ctx *c, Tensor *t, DType dt);
/* Writes src into dst elementwise: broadcasts src to dst's shape, casts to dst's dtype,
   correct when they overlap (NumPy's result).  ValueError "could not broadcast input array
   from shape (2,) into shape (3,)" on mismatch.  Returns 0 or -1. */
RT_HIDDEN int tensor_assign(Ctx *c, Tensor *dst, Tensor *src);

/* --- views and shape (all return new references; views share storage) --- */
/* numpy.reshape: one dim may be -1; a view when the strides allow, else a copy.  ValueError
   "cannot reshape array of size 6 into shape (4,)". */
RT_HIDDEN Tensor *tensor_reshape(Ctx *c, Tensor *t, int ndim, const int64_t *shape);
/* numpy.transpose with axes (NULL = reverse); axes may be negative; ValueError
   "axes don't match array" or AxisError. */
RT_HIDDEN Tensor *tensor_transpose(Ctx *c, Tensor *t, const int *axes);
RT_HIDDEN Tensor *tensor_swapaxes(Ctx *c, Tensor *t, int a1, int a2);
/* numpy.broadcast_to (read-only semantics not enforced); ValueError on mismatch. */
RT_HIDDEN Tensor *tensor_broadcast_to(Ctx *c, Tensor *t, int ndim, const int64_t *shape);
/* The same view written into the caller's *view instead of a new tensor: a header that is not
   reference counted and holds no reference (valid while t lives; never retain or release it),
   for passes that only read it.  0, or -1 with tensor_broadcast_to's errors. */
RT_HIDDEN int tensor_broadcast_header(Ctx *c, const Tensor *t, int ndim, const int64_t *shape,
                                      Tensor *view);
/* numpy.expand_dims for one axis in [-ndim-1, ndim]. */
RT_HIDDEN Tensor *tensor_expand_dims(Ctx *c, Tensor *t, int axis);
/* numpy.squeeze: axes NULL = every size-1 axis; else those listed (ValueError "cannot select
   an axis to squeeze out which has size not equal to one"). */
RT_HIDDEN Tensor *tensor_squeeze(Ctx *c, Tensor *t, const int *axes, int naxes);
/* numpy.flip along axis (axis == INT32_MIN: all axes). */
RT_HIDDEN Tensor *tensor_flip(Ctx *c, Tensor *t, int axis);
/* numpy.partition (arg false: a new tensor of t's dtype) or numpy.argpartition (arg true:
   int64 indices) of t along axis (normalised here; AxisError), for the nkth (<= 50) values
   of kth (negative from the end; ValueError "kth(=5) out of bounds (5)").  Elements other
   than the kth ones are where NumPy 1.24's introselect leaves them (partition.c). */
RT_HIDDEN Tensor *tensor_partition(Ctx *c, Tensor *t, const int64_t *kth, int nkth, int axis,
                                   bool arg);
/* Reorders the n elements of a contiguous lane of dtype dt so that each position of kth
   (ascending, each in [0, n)) holds what a sort would put there (NaN last), with nothing
   greater before it and nothing smaller after, as numpy.partition does (in place). */
RT_HIDDEN void partition_lane(DType dt, char *lane, int64_t n, const int64_t *kth, int nkth);
/* The comparisons to charge (ctx_work, WORK_COMPARE) for selecting nkth positions of a lane of
   n elements: about 3n for one position, n more for each doubling of their number. */
RT_HIDDEN uint64_t partition_work(int64_t n, int64_t nkth);
/* numpy.ravel: a view if contiguous, else a copy. */
RT_HIDDEN Tensor *tensor_ravel(Ctx *c, Tensor *t);
/* The axes of t in memory order, outermost first, as NumPy's iterator orders them for
   order='K' without flipping negative strides: by decreasing |stride| (a stable insertion
   sort from the innermost axis; an axis of size 1 or stride 0 compares with nothing, so it
   keeps its C place).  Fills axes[0..t->ndim). */
RT_HIDDEN void tensor_memory_order(const Tensor *t, int *axes);
/* numpy.ravel(t, order) for order 'C', 'F', 'A' (Fortran order when t is Fortran- but not
   C-contiguous) or 'K' (memory order, tensor_memory_order): a 1-d view when the elements
   lie evenly in that order, else a C-contiguous copy.  New reference. */
RT_HIDDEN Tensor *tensor_ravel_order(Ctx *c, Tensor *t, char order);
/* Normalises axis in [-ndim, ndim) to [0, ndim); else AxisError
   "axis 2 is out of bounds for array of dimension 2" and -1. */
RT_HIDDEN int axis_normalize(Ctx *c, int axis, int ndim, int *out);
/* Broadcasts shapes (numpy.broadcast_shapes).  ValueError naming all shapes:
   "operands could not be broadcast together with shapes (2,3) (4,) ". */
RT_HIDDEN int broadcast_shapes(Ctx *c, int n, Tensor *const *ts, int *ndim_out,
                               int64_t *shape_out);
/* Formats a shape as Python prints a tuple: "(2, 3)", "(4,)", "()". */
RT_HIDDEN void shape_format(Buf *b, int ndim, const int64_t *shape);
/* The same without spaces, as NumPy's broadcast error uses: "(2,3)". */
RT_HIDDEN void shape_format_compact(Buf *b, int ndim, const int64_t *shape);

/* --- basic indexing: one pass over index items builds one view --- */
typedef enum { IDX_INT, IDX_SLICE, IDX_NEWAXIS, IDX_ELLIPSIS, IDX_ARRAY } IndexKind;
typedef struct IndexItem {
  IndexKind kind;
  int64_t i;                                 /* IDX_INT */
  int64_t start, stop, step;                 /* IDX_SLICE */
  bool has_start, has_stop, has_step;        /* IDX_SLICE: omitted parts */
  Tensor *array;                             /* IDX_ARRAY: integer or bool tensor (borrowed) */
} IndexItem;
/* x[items...] (NumPy semantics).  Without IDX_ARRAY items: a view.  With integer/bool array
   items: advanced indexing, a copy.  IndexError "index 5 is out of bounds for axis 0 with
   size 4", "too many indices for array: array is 1-dimensional, but 2 were indexed",
   ValueError "slice step cannot be zero". */
RT_HIDDEN Tensor *index_get(Ctx *c, Tensor *t, const IndexItem *items, int n);
/* Do the items select a single element by integers alone (n == ndim, every item IDX_INT)?
   NumPy then assigns a scalar: a value of more than one element is ValueError "setting an
   array element with a sequence.". */
RT_HIDDEN bool index_is_element(const Tensor *t, const IndexItem *items, int n);
/* x[items...] = value (broadcast, cast, in place). */
RT_HIDDEN int index_set(Ctx *c, Tensor *t, const IndexItem *items, int n, Tensor *value);

/* --- sorting along one axis (sort.c): a stable merge sort, NaN after every number --- */
/* numpy.argsort(t, axis): int64 indices of t's shape (a 0-d t gives 0-d 0); axis in
   [0, ndim).  Stable, so ties keep their order (NumPy's kind='stable').  New reference. */
RT_HIDDEN Tensor *sort_argsort(Ctx *c, Tensor *t, int axis);
/* numpy.sort(t, axis): a sorted C-contiguous copy of t's dtype and shape.  New reference. */
RT_HIDDEN Tensor *sort_sorted(Ctx *c, Tensor *t, int axis);
/* ndarray.sort(axis): sorts t's lanes in place (ValueError "sort array is read-only");
   0 or -1. */
RT_HIDDEN int sort_inplace(Ctx *c, Tensor *t, int axis);

/* ------------------------------------------------------------------------------------------
** The iteration engine.  A kernel's inner loop sees n elements of each of nop operands:
** data[k] points at the first element of operand k, steps[k] is its stride in BYTES.
** Operand 0 is the output by convention.
*/
typedef void (*InnerLoop)(char **data, const int64_t *steps, int64_t n, void *aux);
/* Runs loop over all elements of ops[0]'s shape; every other operand must already have the
   same shape (use tensor_broadcast_to).  Drops size-1 dims, orders and coalesces dims,
   calls loop on runs of the innermost dim, polls c per chunk.  Returns 0 or -1. */
RT_HIDDEN int iter_run(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux);
/* iter_run that splits large work (ITER_PAR_MIN elements and more) over c's thread pool:
   loop must then be safe to run concurrently on disjoint parts (it may read aux, not write
   it).  Results are the same for any thread count. */
RT_HIDDEN int iter_run_parallel(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux);
/* iter_run_parallel from min_elements elements on (instead of ITER_PAR_MIN, 131072): for
   loops that touch many operands per element, such as fused programs. */
RT_HIDDEN int iter_run_parallel_from(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop,
                                     void *aux, int64_t min_elements);
/* iter_run_parallel for an output ops[0] that may share memory with some inputs, with
   NumPy's assignment semantics: every input element is read before the output memory it lies
   in is written.  The output is computed in bands into small buffers and each band written
   back once no later read can reach it (iter.c).  Each overlapping input must have the
   output's dtype and strides (a shifted view, as in a stencil); the output's outermost
   iteration dim must step forward over whole rows.  check_loop, when not NULL, recomputes a
   band whose floating-point flags were raised (the band's inputs are still unchanged then),
   so that a fused program can attribute them per step; flags are not handed back otherwise.
   Returns 0, -1 (memory: nothing written; or an interrupt noticed after the pass), or 1
   when ops do not qualify or are too small to gain (nothing done: use a temporary). */
RT_HIDDEN int iter_run_staged(Ctx *c, int nop, Tensor *const *ops, InnerLoop loop, void *aux,
                              InnerLoop check_loop, void *check_aux);

/* ------------------------------------------------------------------------------------------
** ufuncs.  One table generates enums, names and dispatch.
*/
#define BINARY_UFUNCS(X)                                                    \
  X(ADD, "add") X(SUBTRACT, "subtract") X(MULTIPLY, "multiply")             \
  X(TRUE_DIVIDE, "divide") X(FLOOR_DIVIDE, "floor_divide")             \
  X(REMAINDER, "remainder") X(POWER, "power")                               \
  X(BITWISE_AND, "bitwise_and") X(BITWISE_OR, "bitwise_or")                 \
  X(BITWISE_XOR, "bitwise_xor") X(LEFT_SHIFT, "left_shift")                 \
  X(RIGHT_SHIFT, "right_shift")                                             \
  X(EQUAL, "equal") X(NOT_EQUAL, "not_equal") X(LESS, "less")               \
  X(LESS_EQUAL, "less_equal") X(GREATER, "greater")                         \
  X(GREATER_EQUAL, "greater_equal")                                         \
  X(MAXIMUM, "maximum") X(MINIMUM, "minimum") X(FMAX, "fmax") X(FMIN, "fmin") \
  X(ARCTAN2, "arctan2") X(HYPOT, "hypot") X(COPYSIGN, "copysign")          \
  X(LOGICAL_AND, "logical_and") X(LOGICAL_OR, "logical_or")                 \
  X(LOGICAL_XOR, "logical_xor") X(FMOD, "fmod") X(LOGADDEXP, "logaddexp")    \
  X(LOGADDEXP2, "logaddexp2") X(HEAVISIDE, "heaviside")                     \
  X(NEXTAFTER, "nextafter")
#define UNARY_UFUNCS(X)                                                     \
  X(NEGATIVE, "negative") X(POSITIVE, "positive") X(INVERT, "invert")       \
  X(ABSOLUTE, "absolute") X(SQRT, "sqrt") X(SQUARE, "square")               \
  X(EXP, "exp") X(EXP2, "exp2") X(EXPM1, "expm1") X(LOG, "log")             \
  X(LOG2, "log2") X(LOG10, "log10") X(LOG1P, "log1p")                       \
  X(SIN, "sin") X(COS, "cos") X(TAN, "tan") X(ARCSIN, "arcsin")             \
  X(ARCCOS, "arccos") X(ARCTAN, "arctan") X(SINH, "sinh") X(COSH, "cosh")   \
  X(TANH, "tanh") X(FLOOR, "floor") X(CEIL, "ceil") X(TRUNC, "trunc")       \
  X(RINT, "rint") X(SIGN, "sign") X(ISNAN, "isnan") X(ISINF, "isinf")       \
  X(ISFINITE, "isfinite") X(LOGICAL_NOT, "logical_not")                     \
  X(RECIPROCAL, "reciprocal") X(ARCSINH, "arcsinh") X(ARCCOSH, "arccosh")   \
  X(ARCTANH, "arctanh") X(CBRT, "cbrt") X(DEG2RAD, "deg2rad")               \
  X(RAD2DEG, "rad2deg") X(RADIANS, "radians") X(DEGREES, "degrees")         \
  X(FABS, "fabs") X(SIGNBIT, "signbit")

#define X_ENUM(name, str) UF_##name,
typedef enum { BINARY_UFUNCS(X_ENUM) UF_BINARY_COUNT } BinaryUfunc;
typedef enum { UNARY_UFUNCS(X_ENUM) UF_UNARY_COUNT } UnaryUfunc;
#undef X_ENUM
RT_HIDDEN extern const char *const binary_ufunc_names[UF_BINARY_COUNT];
RT_HIDDEN extern const char *const unary_ufunc_names[UF_UNARY_COUNT];

/* out = op(a, b) with broadcasting and NEP 50 promotion (a or b may be weak 0-d tensors).
   Result dtypes as NumPy: comparisons and logical_* give bool; true_divide of ints gives
   float64; bitwise ops on floats are TypeError "ufunc 'bitwise_and' not supported for the
   input types..."; integer floor_divide/remainder by zero give 0 (NumPy's result, warning
   suppressed); integer power with a negative exponent is ValueError "Integers to negative
   integer powers are not allowed.".  out may be NULL (a new tensor is returned) or a tensor
   of the broadcast shape, which receives the result cast to its dtype (in place, `+=`);
   then out is returned with a new reference.  NULL on error. */
RT_HIDDEN Tensor *ufunc_binary(Ctx *c, BinaryUfunc op, Tensor *a, Tensor *b, Tensor *out);
/* out = op(a).  sqrt/exp/log/trig of integer or bool input give float64 (NumPy gives
   float16 for 1-byte ints; tsr has no float16 and gives float32 for 1- and 2-byte ints);
   isnan/isinf/isfinite/logical_not give bool; sign/absolute/negative keep the dtype
   (negative of bool is TypeError); floor/ceil/trunc/rint of ints give floats as NumPy 1.24
   does (float64, or float32 for 1- and 2-byte ints).
   out as for ufunc_binary. */
RT_HIDDEN Tensor *ufunc_unary(Ctx *c, UnaryUfunc op, Tensor *a, Tensor *out);
/* numpy.where(cond, x, y) with broadcasting and promotion of x and y. */
RT_HIDDEN Tensor *ufunc_where(Ctx *c, Tensor *cond, Tensor *x, Tensor *y);
/* numpy.clip(a, lo, hi); lo or hi may be NULL (None). */
RT_HIDDEN Tensor *ufunc_clip(Ctx *c, Tensor *a, Tensor *lo, Tensor *hi);

/* ------------------------------------------------------------------------------------------
** Reductions.  axes: list of axes (negative allowed, duplicates are ValueError "duplicate
** value in 'axis'"), naxes == -1 means all axes (axis=None).  dtype: -1 = default (NumPy's:
** sum/prod of bool and ints smaller than int64 -> int64, of unsigned smaller than uint64 ->
** uint64; mean of ints -> float64; max/min keep the dtype; all/any -> bool; argmax/argmin ->
** int64).  Float sums use NumPy's pairwise summation and chunking (shared/notes/numpy-sums.md)
** so results match NumPy bit for bit.  max/min/argmax/argmin of an empty selection are
** ValueError "zero-size array to reduction operation maximum which has no identity" /
** "attempt to get argmax of an empty sequence".  NaN propagates in max/min.
*/
#define REDUCTIONS(X) \
  X(SUM, "sum") X(PROD, "prod") X(MEAN, "mean") X(MAX, "max") X(MIN, "min") \
  X(ALL, "all") X(ANY, "any") X(ARGMAX, "argmax") X(ARGMIN, "argmin")
#define X_ENUM(name, str) RED_##name,
typedef enum { REDUCTIONS(X_ENUM) RED_COUNT } Reduction;
#undef X_ENUM
RT_HIDDEN Tensor *reduce(Ctx *c, Reduction op, Tensor *t, const int *axes, int naxes,
                         bool keepdims, int dtype);
/* numpy.var / numpy.std with ddof along axes (as reduce), computed in dtype (-1: NumPy's
   default, float64 for integer and bool t, else t's dtype).  std in an integer dtype is
   _UFuncOutputCastingError when the result is an array (ndim > 0), as NumPy's sqrt(out=). */
RT_HIDDEN Tensor *reduce_var(Ctx *c, Tensor *t, const int *axes, int naxes, bool keepdims,
                             int ddof, bool take_sqrt, int dtype);
/* numpy.cumsum / numpy.cumprod along axis (INT32_MIN = flattened). */
RT_HIDDEN Tensor *reduce_cumulative(Ctx *c, Reduction op, Tensor *t, int axis, int dtype);

/* ------------------------------------------------------------------------------------------
** Order statistics (stats.c): numpy.median and numpy.percentile/quantile with NumPy 1.24's
** methods, and their nan* variants.  QM_MEDIAN (not a NumPy method name) is the median: the
** mean of the one or two middle values as numpy.mean computes it.
*/
#define QUANTILE_METHODS(X)                                                                \
  X(LINEAR, "linear") X(LOWER, "lower") X(HIGHER, "higher") X(MIDPOINT, "midpoint")        \
  X(NEAREST, "nearest") X(INVERTED_CDF, "inverted_cdf")                                    \
  X(AVERAGED_INVERTED_CDF, "averaged_inverted_cdf")                                        \
  X(CLOSEST_OBSERVATION, "closest_observation")                                            \
  X(INTERPOLATED_INVERTED_CDF, "interpolated_inverted_cdf") X(HAZEN, "hazen")              \
  X(WEIBULL, "weibull") X(MEDIAN_UNBIASED, "median_unbiased")                              \
  X(NORMAL_UNBIASED, "normal_unbiased") X(MEDIAN, "median")
#define X_ENUM(name, str) QM_##name,
typedef enum { QUANTILE_METHODS(X_ENUM) QM_COUNT } QuantileMethod;
#undef X_ENUM
RT_HIDDEN extern const char *const quantile_method_names[QM_COUNT];
/* flags that stats_quantile reports: some lane was empty / some lane was all NaN (skip_nan). */
enum { STATS_EMPTY = 1, STATS_ALL_NAN = 2 };
/* The method named name ("linear", "hazen" ...; not "median"): 0 and *out, or -1 (no error
   recorded). */
RT_HIDDEN int stats_method_from_name(const char *name, QuantileMethod *out);
/* The result dtype of method m on dtype dt: the median keeps float dtypes and gives float64
   for the others; the discrete methods (lower, higher, nearest, inverted_cdf,
   closest_observation) keep dt; the interpolating ones give float64 (NumPy 1.24). */
RT_HIDDEN DType stats_quantile_dtype(QuantileMethod m, DType dt);
/* Quantiles q[0..qn) (in [0, 1], checked by the caller; qn = product of qshape[0..qndim);
   q NULL for QM_MEDIAN; q_f32: they are the values of a float32 array of 1 dim or more, whose
   virtual indices NumPy computes in float32) of t over axes (naxes -1 = all; negative axes
   allowed; AxisError, ValueError "repeated axis").  Result (new reference, C-contiguous, dtype
   stats_quantile_dtype): shape qshape + t's shape without the reduced axes (size 1 with
   keepdims).  A lane holding NaN gives NaN; with skip_nan the NaNs are dropped first
   (nanquantile) and an all-NaN lane gives NaN (when the first lane is all NaN, the result
   has t's dtype, as NumPy's apply_along_axis makes it).  *flags gets STATS_EMPTY when some
   lane had no element (NaN result) and STATS_ALL_NAN when some lane was all NaN, for the
   caller's warnings.  An empty reduction of a method other than the median is IndexError "cannot do a
   non-empty take from an empty axes." (NumPy's); bool input to an interpolating method is
   NumPy's TypeError of boolean subtract.  Sorts each lane once (O(n log n)). */
RT_HIDDEN Tensor *stats_quantile(Ctx *c, Tensor *t, const double *q, bool q_f32, int qndim,
                                 const int64_t *qshape, QuantileMethod m, const int *axes,
                                 int naxes, bool keepdims, bool skip_nan, int *flags);

/* ------------------------------------------------------------------------------------------
** Linear algebra (BLAS glue).
*/
/* numpy.matmul: 1-d operands promoted and the added dim removed, batch dims broadcast;
   float32/float64 through CBLAS sgemm/dgemm, other dtypes (after promotion) by a plain loop.
   ValueError "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc
   signature (n?,k),(k,m?)->(n?,m?) (size 3 is different from 4)"; 0-d operands are ValueError
   "matmul: Input operand 0 does not have enough dimensions ...". */
RT_HIDDEN Tensor *linalg_matmul(Ctx *c, Tensor *a, Tensor *b);
/* numpy.dot: scalars multiply, 1-d·1-d inner product, N-d·1-d, N-d·M-d sum over the last
   axis of a and the second-to-last of b.  ValueError "shapes (2,3) and (2,3) not aligned:
   3 (dim 1) != 2 (dim 0)".  Float operands of at most 2 dims of which one is a single
   element (0-d, (1,), (1, 1)) take NumPy's BLAS scalar case: a lone result is the plain
   product (-0.0 kept), more results are added to zeros (axpy), so -0.0 becomes 0.0. */
RT_HIDDEN Tensor *linalg_dot(Ctx *c, Tensor *a, Tensor *b);
/* numpy.vdot of real operands: the dot product of the flattened a and b (equal sizes, else
   linalg_dot's ValueError), without the scalar case.  New 0-d tensor or NULL. */
RT_HIDDEN Tensor *linalg_vdot(Ctx *c, Tensor *a, Tensor *b);

/* ------------------------------------------------------------------------------------------
** Creation.
*/
/* numpy.arange(start, stop, step, dtype): length ceil((stop - start) / step); the dtype is
   given (the caller applies NumPy's default: int64 for ints, float64 otherwise).  A zero step
   is ZeroDivisionError "division by zero" (ints) / "float division by zero", as NumPy; a
   length beyond int64 is ValueError "Maximum allowed size exceeded". */
RT_HIDDEN Tensor *create_arange(Ctx *c, double start, double stop, double step, DType dt);
RT_HIDDEN Tensor *create_arange_i64(Ctx *c, int64_t start, int64_t stop, int64_t step, DType dt);
/* numpy.linspace(start, stop, num, endpoint, dtype) with NumPy's formula (step = delta/div,
   y = arange*step + start, last element set to stop when endpoint). */
RT_HIDDEN Tensor *create_linspace(Ctx *c, double start, double stop, int64_t num, bool endpoint,
                                  DType dt);
/* numpy.eye(N, M, k, dtype). */
RT_HIDDEN Tensor *create_eye(Ctx *c, int64_t n, int64_t m, int64_t k, DType dt);

/* --- searching and sliding products (search.c) --- */
/* numpy.searchsorted(a, v, side, sorter): a 1-d, sorted ascending (directly, or through
   sorter: NULL or a 1-d integer tensor of a's size); v any shape; compared in their common
   type, NaN after every number.  int64 indices of v's shape: the first i with v <= a[i]
   (right = false) or v < a[i] (right = true).  New reference; NULL with ValueError
   ("sorter.size must equal a.size", "Sorter index out of range.") or MemoryError. */
RT_HIDDEN Tensor *search_sorted(Ctx *c, Tensor *a, Tensor *v, bool right, Tensor *sorter);
/* The core of numpy.correlate: a (n) and v (m) 1-d and non-empty, computed in their promoted
   dtype (integers wrap, bools or/and): out[k] = sum_j a[k + j - pad] * v[j] over the j that
   stay inside a, for k in [0, nout).  pad = m - 1 with nout = n + m - 1 is mode 'full'.
   New 1-d reference, or NULL with MemoryError. */
RT_HIDDEN Tensor *search_correlate(Ctx *c, Tensor *a, Tensor *v, int64_t pad, int64_t nout);

/* ------------------------------------------------------------------------------------------
** Formatting (numpy.array_str / array_repr / the scalar reprs), into a Buf.
*/
/* print(x): NumPy's str(x).  0-d tensors print as NumPy scalars ("15", "1.5", "True"). */
RT_HIDDEN void fmt_str(Buf *b, Tensor *t, const PrintOptions *po);
/* REPL echo: NumPy's repr(x), "array([1, 2, 3])", "array([1., 2.], dtype=float32)"; 0-d
   NumPy scalars as NumPy 1.24 scalar reprs ("15", "1.5", "True"), real 0-d arrays (t->ndarray)
   as "array(5)". */
RT_HIDDEN void fmt_repr(Buf *b, Tensor *t, const PrintOptions *po);
/* numpy.array_repr of t (any rank, 0-d as an array) with class_name in place of "array":
   what NumPy shows for array_repr of a scalar ("float32(1.5, dtype=float32)"). */
RT_HIDDEN void fmt_repr_class(Buf *b, Tensor *t, const PrintOptions *po, const char *class_name);
/* numpy.array2string(t, separator=sep, prefix=' '*prefix_len, suffix=' '*suffix_len) with
   options po: the elements without "array(" (the prefix only indents wrapped lines). */
RT_HIDDEN void fmt_array2string(Buf *b, Tensor *t, const PrintOptions *po, const char *sep,
                                size_t prefix_len, size_t suffix_len);
/* The options of numpy.format_float_positional (sci false) and format_float_scientific. */
typedef struct Dragon4Options {
  bool f32, sci, unique, fractional, sign;
  int precision;     /* -1: none (unique digits only) */
  int min_digits;    /* -1: none */
  char trim;         /* 'k', '.', '0', '-' */
  int pad_left, pad_right, exp_digits;   /* -1: none */
} Dragon4Options;
RT_HIDDEN void fmt_float_dragon4(Buf *b, double v, const Dragon4Options *o);
/* Python's repr(float): shortest round-trip, "0.1", "1e-05", "1e+16", "inf", "nan", "-0.0". */
RT_HIDDEN void fmt_pyfloat(Buf *b, double v);
/* numpy.dtype repr: "dtype('float64')". */
RT_HIDDEN void fmt_dtype_repr(Buf *b, DType dt);
RT_HIDDEN void printoptions_default(PrintOptions *po);

/* ------------------------------------------------------------------------------------------
** Files (all file access of the runtime goes through io.c's gate, refused under TSR_SANDBOX;
** the gate and NumPy's .npy/.npz/text formats are declared in npy.h).
*/
/* Reads an IDX file (MNIST format), gzipped or not (zlib), as a tensor of its own dtype and
   shape (uint8 for the Fashion-MNIST files).  FileNotFoundError naming the path when missing; ValueError
   "not an IDX file: PATH" / "truncated IDX file: PATH". */
RT_HIDDEN Tensor *io_load_idx(Ctx *c, const char *path);

#endif
