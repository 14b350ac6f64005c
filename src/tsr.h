/*
** tsr.h -- the public C API of libtsr, an embeddable interpreter for NumPy-style tensor programs.
**
** One header, no global state: several tsr_State may live in one process, each used by one thread
** at a time.  The library never exits, aborts or longjmps through its host: every failure is a
** tsr_Status plus a message kept in the state (tsr_last_error / tsr_error_message).
*/
#ifndef TSR_H
#define TSR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TSR_API __attribute__((visibility("default")))
#else
#define TSR_API
#endif

typedef struct tsr_State  tsr_State;    /* one interpreter */
typedef struct tsr_Tensor tsr_Tensor;   /* refcounted handle to a tensor of one state */
typedef struct tsr_Call   tsr_Call;     /* the frame of a host function call */
struct DLManagedTensor;                 /* <dlpack/dlpack.h> (DLPack 0.6); only pointers here */

/* Every API call that can fail returns one of these.  TSR_INCOMPLETE is only returned by
   tsr_check (and tsr_eval in REPL use) for source that ends inside a block or bracket. */
typedef enum { TSR_OK = 0, TSR_INCOMPLETE, TSR_ERR_SYNTAX, TSR_ERR_NAME, TSR_ERR_TYPE,
  TSR_ERR_VALUE, TSR_ERR_INDEX, TSR_ERR_MEMORY, TSR_ERR_INTERRUPT, TSR_ERR_LIMIT,
  TSR_ERR_IO, TSR_ERR_SANDBOX, TSR_ERR_RUNTIME } tsr_Status;

/* Element types, with NumPy's names (bool, int8 ... float64). */
typedef enum { TSR_BOOL, TSR_INT8, TSR_INT16, TSR_INT32, TSR_INT64, TSR_UINT8, TSR_UINT16,
               TSR_UINT32, TSR_UINT64, TSR_FLOAT32, TSR_FLOAT64 } tsr_DType;
enum { TSR_COPY = 1, TSR_READONLY = 2 };   /* tsr_tensor_wrap flags */
enum { TSR_SANDBOX = 1 };                  /* tsr_Config.flags */

/* Configuration of one state; fill with tsr_config_init, then change what you need.
   alloc: Lua-style allocator (ptr NULL = allocate; new_size 0 = free, return NULL); NULL = libc.
   write: receives everything tsr prints (stream 1 = stdout, 2 = stderr); NULL = stdio. */
typedef struct tsr_Config {
  void *(*alloc)(void *ud, void *ptr, size_t old_size, size_t new_size); void *alloc_ud;
  size_t   max_memory;   /* bytes tsr may hold at once, borrowed buffers excluded; 0 = no cap */
  uint64_t max_steps;    /* evaluation budget per tsr_eval: a step per statement, loop iteration
                            and call, and steps in proportion to the work of every operation
                            (docs/robustness.md has the rates); 0 = none */
  unsigned flags;        /* TSR_SANDBOX: no builtin touches files */
  void (*write)(void *ud, int stream /* 1 out, 2 err */, const char *s, size_t n); void *write_ud;
} tsr_Config;

/* Fills *cfg with the defaults: libc allocator, no memory cap, no step budget, no sandbox,
   output to the process's stdout/stderr. */
TSR_API void tsr_config_init(tsr_Config *cfg);

/* Creates an interpreter.  cfg NULL means the defaults; cfg is copied.  Returns NULL only when
   memory for the state itself (its namespace and the library functions written in tsr,
   within cfg->max_memory) cannot be had.  cfg->max_steps does not apply to setting up the
   state: the budget is per tsr_eval, so any budget, even 1, gives a state.  Release with
   tsr_close. */
TSR_API tsr_State *tsr_open(const tsr_Config *cfg);

/* Frees the state and everything it owns.  Tensors (and DLPack exports) the host still holds
   stay valid until released: the last release frees what remains of the state and calls the
   pending borrowed-buffer release callbacks.  NULL-safe. */
TSR_API void tsr_close(tsr_State *S);

/* Parses the whole of src (NUL-terminated), then runs it.  chunk_name names it in error
   messages (NULL = "<string>").  When result is not NULL it receives a new reference to the
   value of a final expression statement if that value is a tensor or a scalar (scalars become
   0-d tensors), else NULL.  A syntax error anywhere means nothing runs.  Returns TSR_OK or the
   status of the first error, whose details are in tsr_last_error.  A host function cannot
   evaluate on its own state: tsr_eval, tsr_eval_file and tsr_check then return TSR_ERR_RUNTIME
   (other calls on the state are fine from a host function). */
TSR_API tsr_Status tsr_eval(tsr_State *S, const char *src, const char *chunk_name,
                            tsr_Tensor **result);

/* Like tsr_eval on the contents of the file at path (TSR_ERR_IO if it cannot be read; in a
   sandboxed state TSR_ERR_SANDBOX). */
TSR_API tsr_Status tsr_eval_file(tsr_State *S, const char *path);

/* Sets what the script sees as sys.argv: argc strings (argv[0] the script's name, as Python
   gives it; NUL-terminated, copied into the state, so the host keeps ownership of its own).
   Call it before the script imports sys: the module is made on its first import.  Without a
   call sys.argv is ['']. Returns TSR_OK, TSR_ERR_VALUE for a negative argc or a NULL string,
   or TSR_ERR_MEMORY. */
TSR_API tsr_Status tsr_set_argv(tsr_State *S, int argc, const char *const *argv);

/* REPL support: TSR_OK if src is a complete program, TSR_INCOMPLETE if it ends inside an open
   block, bracket or after a line continuation, TSR_ERR_SYNTAX if it can never be completed. */
TSR_API tsr_Status tsr_check(tsr_State *S, const char *src);

/* Like tsr_eval, but echoes the repr of the value of every expression statement that is not
   None through the write callback, as Python's interactive mode does, and binds it to `_`. */
TSR_API tsr_Status tsr_eval_interactive(tsr_State *S, const char *src, const char *chunk_name);

/* Structured description of the last error; line and column are 1-based (0 if unknown). */
typedef struct { tsr_Status status; const char *kind;   /* "ValueError" */
                 const char *message, *chunk; int line, column; } tsr_Error;

/* The last error of S, valid until the next call on S.  status is TSR_OK if there was none. */
TSR_API const tsr_Error *tsr_last_error(const tsr_State *S);

/* The last error formatted as the CLI prints it (traceback line, source line, caret,
   "Kind: message"), "" if none.  Owned by S, valid until the next call on S. */
TSR_API const char *tsr_error_message(const tsr_State *S);

/* Host memory.  strides are in BYTES (as NumPy and PEP 3118), may be negative, NULL means
   C-contiguous; nbytes is the extent of the buffer, checked against every reachable element.
   Without TSR_COPY the buffer is borrowed: tsr never frees it and calls release(ud, data) once
   when its last reference goes (release may be NULL); with TSR_COPY, release is called before
   tsr_tensor_wrap returns.  TSR_READONLY forbids writes.  Returns a new reference, or NULL on
   error (see tsr_last_error); after a failure release is not called and the buffer is still
   entirely the caller's.  Every argument is validated before use (TSR_ERR_VALUE naming it):
   an unknown dtype, ndim outside 0..32, a NULL shape with ndim > 0, negative dims, a shape
   whose bytes pass 2**63 - 1, NULL data with nbytes > 0 or elements, data not aligned to the
   itemsize, a buffer that wraps around the address space, strides that are not multiples of
   the itemsize or whose extent overflows or leaves nbytes. */
TSR_API tsr_Tensor *tsr_tensor_wrap(tsr_State *S, tsr_DType dtype, int ndim, const int64_t *shape,
                                    const int64_t *strides, void *data, size_t nbytes,
                                    unsigned flags, void (*release)(void *ud, void *data),
                                    void *ud);

/* A new zero-filled C-contiguous tensor (numpy.zeros).  New reference, or NULL on error. */
TSR_API tsr_Tensor *tsr_tensor_new(tsr_State *S, tsr_DType dtype, int ndim, const int64_t *shape);

/* Adds a reference and returns t.  NULL-safe. */
TSR_API tsr_Tensor *tsr_tensor_retain(tsr_Tensor *t);

/* Drops a reference; the storage is freed (or released to its host) with the last one. */
TSR_API void tsr_tensor_release(tsr_Tensor *t);

/* A zero-copy description of t: shape and strides (in BYTES) point into t and are valid while
   the caller holds t.  data points at element [0, ..., 0]. */
typedef struct { tsr_DType dtype; int ndim; const int64_t *shape, *strides; /* bytes */
                 void *data; size_t itemsize; } tsr_TensorInfo;
TSR_API tsr_Status tsr_tensor_info(const tsr_Tensor *t, tsr_TensorInfo *out);

/* Copies t, converted to dtype `as` (numpy.ndarray.astype with casting='unsafe'), into dst as a
   C-contiguous array.  TSR_ERR_VALUE if dst_bytes is smaller than size * itemsize(as). */
TSR_API tsr_Status tsr_tensor_copy_to(const tsr_Tensor *t, tsr_DType as, void *dst,
                                      size_t dst_bytes);

/* Binds a global name of S to t; S takes its own reference (the caller keeps theirs). */
TSR_API tsr_Status tsr_set(tsr_State *S, const char *name, tsr_Tensor *t);

/* The tensor bound to a global name (scalars are converted to 0-d tensors): a new reference,
   or NULL if the name is unbound or not a tensor or scalar. */
TSR_API tsr_Tensor *tsr_get(tsr_State *S, const char *name);

/* DLPack 0.6 exchange (CPU memory only).  The header <dlpack/dlpack.h> is needed only by the
   host that fills or reads a DLManagedTensor.

   tsr_from_dlpack: a tensor viewing m's memory without a copy (numpy.from_dlpack).  DLPack
   strides are in ELEMENTS (NULL = C-contiguous), byte_offset is honoured; dtypes are int8..64,
   uint8..64, float32 and float64 with one lane.  On success *out is a new reference and tsr
   owns m: it calls m->deleter(m) exactly once, when the last reference to the tensor (or any
   view of it) goes.  On failure *out is NULL, m is untouched and still the caller's, and the
   status is TSR_ERR_RUNTIME ("Unsupported device in DLTensor.", "Unsupported dtype in
   DLTensor.", "Unsupported lanes in DLTensor dtype.") or TSR_ERR_VALUE (NULL m, overflowing
   geometry).

   tsr_to_dlpack: *out receives a new DLManagedTensor viewing t's memory (no copy; device CPU,
   strides in elements, byte_offset 0, bool exported as 8-bit kDLUInt since DLPack 0.6 has no
   boolean).  It holds a reference to t: the consumer must call (*out)->deleter(*out) exactly
   once, on the thread that owns t's state (or after tsr_close, from any one thread).  Read-only
   tensors are refused with TSR_ERR_VALUE ("BufferError: Cannot export readonly array since
   signalling readonly is unsupported by DLPack."), as NumPy does. */
TSR_API tsr_Status tsr_from_dlpack(tsr_State *S, struct DLManagedTensor *m, tsr_Tensor **out);
TSR_API tsr_Status tsr_to_dlpack(tsr_Tensor *t, struct DLManagedTensor **out);

/* Host functions callable from scripts.  fn receives the call frame and the ud given at
   registration; it returns TSR_OK after tsr_return (or with no result: None), or the status of
   tsr_raise. */
typedef tsr_Status (*tsr_CFunction)(tsr_Call *call, void *ud);
TSR_API tsr_Status  tsr_register(tsr_State *S, const char *name, tsr_CFunction fn, void *ud);
TSR_API tsr_State  *tsr_call_state(const tsr_Call *call);
TSR_API int         tsr_arg_count(const tsr_Call *call);
/* Argument i as a tensor (scalars converted), borrowed for the duration of the call; NULL if i
   is out of range or the argument is not numeric. */
TSR_API tsr_Tensor *tsr_arg(const tsr_Call *call, int i);
/* Sets the call's result; takes the reference. */
TSR_API tsr_Status  tsr_return(tsr_Call *call, tsr_Tensor *result);
/* Raises an error of the given kind from a host function; returns kind for `return tsr_raise(...)`. */
TSR_API tsr_Status  tsr_raise(tsr_Call *call, tsr_Status kind, const char *fmt, ...);

/* Bytes S holds now through its allocator (tensor data, objects, names, ASTs, the state
   itself; borrowed host buffers excluded): the figure max_memory caps.  If peak is not NULL it
   receives the most S has held at once. */
TSR_API size_t tsr_memory_used(const tsr_State *S, size_t *peak);

/* Asks the running tsr_eval of S to stop with TSR_ERR_INTERRUPT.  Safe from any thread or a
   signal handler.  Operations poll the request at least every few milliseconds of work; one
   that arrives after the last poll of an evaluation still makes it return TSR_ERR_INTERRUPT.
   A request made while no evaluation runs is forgotten when the next one starts. */
TSR_API void tsr_interrupt(tsr_State *S);

/* Tab completion: calls emit once for each name that completes the word ending at cursor in
   line (globals, builtins, namespace members after "ns.", tensor methods after "x."). */
TSR_API tsr_Status tsr_complete(tsr_State *S, const char *line, size_t cursor,
                                void (*emit)(void *ud, const char *candidate), void *ud);

/* Library version string, e.g. "0.1.0". */
TSR_API const char *tsr_version(void);

#ifdef __cplusplus
}
#endif
#endif
