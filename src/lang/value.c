/*
** value.c -- language values: refcounting, constructors, repr/str, truth, conversions to
** tensors, shapes, axes and dtypes, and the argument binder used by every builtin.
*/
#include "interp.h"
#include "scalar.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

Ctx *interp_ctx(Interp *I) { return &I->ctx; }
PrintOptions *interp_printoptions(Interp *I) { return &I->ctx.print; }

void interp_write(Interp *I, int stream, const char *s, size_t n) {
  if (I->cfg.write) { I->cfg.write(I->cfg.write_ud, stream, s, n); return; }
  FILE *f = stream == 2 ? stderr : stdout;
  fwrite(s, 1, n, f);
  if (stream == 2) fflush(f);
}

/* ---------------------------------------------------------------------------------------- */

static void *obj_new(Interp *I, VType type, size_t size) {
  Obj *o = ctx_calloc(&I->ctx, size);
  if (!o) return NULL;
  o->refcnt = 1; o->ctx = &I->ctx; o->size = size; o->type = (uint8_t)type;
  return o;
}


/* Frees o and, without recursion, every object that dies with it: containers whose count
   reaches zero are queued on a list linked through their (now unused) refcnt field, so a list
   nested a million deep is freed in constant C stack. */
static void obj_drop(Obj *o, Obj **queue);

static void obj_free(Obj *first) {
  Obj *queue = NULL;
  obj_drop(first, &queue);
  while (queue) {
    Obj *o = queue;
    queue = (Obj *)(intptr_t)o->refcnt;
    obj_drop(o, &queue);
  }
}

/* Drops the reference a dying container holds on v: dead objects go on the queue. */
static void value_drop(Value v, Obj **queue) {
  if (v.type == V_TENSOR) tensor_release(v.t);
  else if (v_is_obj(v) && --v.o->refcnt == 0) {
    v.o->refcnt = (int64_t)(intptr_t)*queue;
    *queue = v.o;
  }
}

static void obj_drop(Obj *o, Obj **queue) {
  Ctx *c = o->ctx;
  if (o->gc_next) {   /* untrack (every object's ctx is its interpreter's first member) */
    o->gc_prev->gc_next = o->gc_next;
    o->gc_next->gc_prev = o->gc_prev;
    o->gc_next = o->gc_prev = NULL;
    ((Interp *)c)->gc_count--;
  }
  switch (o->type) {
  case V_LIST: case V_TUPLE: {
    List *l = (List *)o;
    for (int64_t i = 0; i < l->n; i++) value_drop(l->items[i], queue);
    if (l->items) ctx_free(c, l->items, (size_t)l->cap * sizeof(Value));
    break;
  }
  case V_SLICE: {
    Slice *s = (Slice *)o;
    value_drop(s->start, queue); value_drop(s->stop, queue); value_drop(s->step, queue);
    break;
  }
  case V_FUNC: {
    Func *f = (Func *)o;
    for (int i = 0; i < f->nparams; i++) value_drop(f->defaults[i], queue);
    if (f->defaults) ctx_free(c, f->defaults, (size_t)f->nparams * sizeof(Value));
    if (f->chunk && --f->chunk->refcnt == 0) {
      chunk_free(c, f->chunk->chunk);
      ctx_free(c, f->chunk, sizeof *f->chunk);
    }
    break;
  }
  case V_METHOD: value_drop(((Method *)o)->self, queue); break;
  case V_NAMESPACE: {
    Namespace *ns = (Namespace *)o;
    if (ns->members) dict_free(ns->members);
    break;
  }
  default: break;
  }
  ctx_free(c, o, o->size);
}

void value_obj_free(Obj *o) { obj_free(o); }

/* ---------------------------------------------------------------------------------------- */
/* The cycle collector.  Reference counting frees everything but cycles (`a = []; a.append(a)`,
   a function whose default list holds the function); those are found here as Python's gc
   finds them. */

void value_gc_track(Interp *I, Obj *o) {
  if (!I->gc_head.gc_next) I->gc_head.gc_next = I->gc_head.gc_prev = &I->gc_head;
  o->gc_prev = &I->gc_head;
  o->gc_next = I->gc_head.gc_next;
  I->gc_head.gc_next->gc_prev = o;
  I->gc_head.gc_next = o;
  I->gc_count++;
}

/* The reference slots of a tracked container (*n of them at *v; none for other objects). */
static void gc_slots(Obj *o, Value **v, int64_t *n) {
  *v = NULL;
  *n = 0;
  switch (o->type) {
  case V_LIST: case V_TUPLE: *v = ((List *)o)->items; *n = ((List *)o)->n; break;
  case V_FUNC: *v = ((Func *)o)->defaults; *n = ((Func *)o)->nparams; break;
  case V_METHOD: *v = &((Method *)o)->self; *n = 1; break;
  case V_SLICE: *v = &((Slice *)o)->start; *n = 3; break;
  default: break;
  }
  if (!*v) *n = 0;
}

/* The tracked containers o refers to: calls fn on each. */
static void gc_referents(Obj *o, void (*fn)(Obj *r, void *arg), void *arg) {
  Value *v;
  int64_t n;
  gc_slots(o, &v, &n);
  for (int64_t i = 0; i < n; i++)
    if (v_is_obj(v[i]) && v[i].o->gc_next) fn(v[i].o, arg);
}

#define GC_REACHABLE INT64_MIN

static void gc_subtract(Obj *r, void *arg) { (void)arg; r->gc_refs--; }

typedef struct { Obj **stack; int64_t n; } GcMark;

static void gc_mark(Obj *r, void *arg) {
  GcMark *m = arg;
  if (r->gc_refs == GC_REACHABLE) return;
  r->gc_refs = GC_REACHABLE;
  m->stack[m->n++] = r;
}

/* Drops every reference o holds (setting the slots to None), as its free would. */
static void gc_clear(Obj *o) {
  Value *v;
  int64_t n;
  gc_slots(o, &v, &n);
  for (int64_t i = 0; i < n; i++) {
    Value old = v[i];
    v[i] = o->type == V_FUNC ? v_undef() : v_none();
    value_decref(old);
  }
}

void value_gc_free_all(Interp *I) {
  Obj *head = &I->gc_head, *next;
  if (!head->gc_next) return;
  /* no analysis and no memory needed: hold each, drop what each holds, let each go */
  for (Obj *o = head->gc_next; o != head; o = o->gc_next) o->refcnt++;
  for (Obj *o = head->gc_next; o != head; o = o->gc_next) gc_clear(o);
  for (Obj *o = head->gc_next; o != head; o = next) {
    next = o->gc_next;
    Value v;
    v.type = o->type;
    v.o = o;
    value_decref(v);
  }
  I->gc_dirty = I->gc_released = false;
}

void value_gc_released(Obj *o) { ((Interp *)o->ctx)->gc_released = true; }

void value_gc_collect(Interp *I) {
  Obj *head = &I->gc_head;
  I->gc_dirty = I->gc_released = false;
  I->gc_chunks = 0;
  if (!head->gc_next || head->gc_next == head) { I->gc_survivors = 0; return; }
  /* a work list of 8 bytes per tracked object, for the moment of the collection: taken from
     the host's allocator without the state's accounting, so that a collection neither fails
     on max_memory nor touches a pending error */
  size_t stack_bytes = (size_t)I->gc_count * sizeof(Obj *);
  Obj **stack = I->ctx.alloc(I->ctx.alloc_ud, NULL, 0, stack_bytes ? stack_bytes : 1);
  if (!stack) return;   /* no room to look: try again later */
  /* 1. references from outside the tracked set: counts minus those among tracked objects */
  for (Obj *o = head->gc_next; o != head; o = o->gc_next) o->gc_refs = o->refcnt;
  for (Obj *o = head->gc_next; o != head; o = o->gc_next) gc_referents(o, gc_subtract, NULL);
  /* 2. everything reachable from an object held from outside */
  GcMark m = {stack, 0};
  for (Obj *o = head->gc_next; o != head; o = o->gc_next)
    if (o->gc_refs > 0) { o->gc_refs = GC_REACHABLE; m.stack[m.n++] = o; }
  while (m.n > 0) gc_referents(m.stack[--m.n], gc_mark, &m);
  /* 3. the rest is garbage: hold each, drop what each holds, then let each go */
  int64_t ngarbage = 0;
  for (Obj *o = head->gc_next; o != head; o = o->gc_next)
    if (o->gc_refs != GC_REACHABLE) { o->refcnt++; stack[ngarbage++] = o; }
  for (int64_t i = 0; i < ngarbage; i++) gc_clear(stack[i]);
  for (int64_t i = 0; i < ngarbage; i++) {
    Value v;
    v.type = stack[i]->type;
    v.o = stack[i];
    value_decref(v);
  }
  I->ctx.alloc(I->ctx.alloc_ud, stack, stack_bytes ? stack_bytes : 1, 0);
  I->gc_survivors = I->gc_count;
}

static Value obj_value(VType type, void *o) {
  Value v; v.type = (uint8_t)type; v.o = o;
  if (!o) v.type = V_UNDEF;
  return v;
}

Value value_str(Interp *I, const char *s, size_t len) {
  Str *o = obj_new(I, V_STR, sizeof(Str) + len + 1);
  if (o) {
    o->len = len;
    memcpy(o->s, s, len);
    o->s[len] = 0;
    size_t ncp = 0;
    bool ascii = true;
    for (size_t i = 0; i < len; i++) {
      unsigned char ch = (unsigned char)s[i];
      ascii &= ch < 0x80;
      ncp += (ch & 0xc0) != 0x80;
    }
    o->ncp = ncp;
    o->ascii = ascii;
  }
  return obj_value(V_STR, o);
}

static Value seq_new(Interp *I, VType type, int64_t n) {
  List *l = obj_new(I, type, sizeof(List));
  if (!l) return v_undef();
  int64_t cap = n < 4 ? 4 : n;
  l->items = ctx_malloc_n(&I->ctx, cap, sizeof(Value));
  if (!l->items) { ctx_free(&I->ctx, l, sizeof(List)); return v_undef(); }
  l->cap = cap; l->n = n;
  for (int64_t i = 0; i < n; i++) l->items[i] = v_none();
  value_gc_track(I, &l->h);
  return obj_value(type, l);
}

Value value_list(Interp *I, int64_t n) { return seq_new(I, V_LIST, n); }
Value value_tuple(Interp *I, int64_t n) { return seq_new(I, V_TUPLE, n); }

int list_append(Interp *I, Value list, Value item) {
  List *l = as_list(list);
  if (l->n == l->cap) {
    int64_t ncap;
    if (size_mul(l->cap, 2, &ncap)) ncap = -1;   /* ctx_realloc_n's MemoryError */
    Value *p = ctx_realloc_n(&I->ctx, l->items, l->cap, ncap, sizeof(Value));
    if (!p) { value_decref(item); return -1; }
    l->items = p; l->cap = ncap;
  }
  l->items[l->n++] = item;
  return 0;
}

Value value_int_tuple(Interp *I, int n, const int64_t *items) {
  Value t = value_tuple(I, n);
  if (t.type == V_UNDEF) return t;
  for (int i = 0; i < n; i++) as_list(t)->items[i] = v_int(items[i]);
  return t;
}

Value value_range(Interp *I, int64_t start, int64_t stop, int64_t step) {
  Range *r = obj_new(I, V_RANGE, sizeof(Range));
  if (r) { r->start = start; r->stop = stop; r->step = step; }
  return obj_value(V_RANGE, r);
}

Value value_slice(Interp *I, Value start, Value stop, Value step) {
  Slice *s = obj_new(I, V_SLICE, sizeof(Slice));
  if (!s) { value_decref(start); value_decref(stop); value_decref(step); return v_undef(); }
  s->start = start; s->stop = stop; s->step = step;
  value_gc_track(I, &s->h);
  return obj_value(V_SLICE, s);
}

bool value_is_number(Value v) {
  return v.type == V_BOOL || v.type == V_INT || v.type == V_FLOAT || v.type == V_TENSOR;
}

/* ---------------------------------------------------------------------------------------- */

const char *value_type_name(Value v) {
  switch (v.type) {
  case V_NONE: return "NoneType";
  case V_BOOL: return "bool";
  case V_INT: return "int";
  case V_FLOAT: return "float";
  case V_ELLIPSIS: return "ellipsis";
  case V_DTYPE: return "numpy.dtype";
  case V_BUILTIN: return "builtin_function_or_method";
  case V_TENSOR: {
    /* a NumPy scalar is named by its type, as Python's type(x).__name__ qualified */
    static const char *const scalar_types[DTYPE_COUNT] = {
      [TSR_BOOL] = "numpy.bool_", [TSR_INT8] = "numpy.int8", [TSR_INT16] = "numpy.int16",
      [TSR_INT32] = "numpy.int32", [TSR_INT64] = "numpy.int64", [TSR_UINT8] = "numpy.uint8",
      [TSR_UINT16] = "numpy.uint16", [TSR_UINT32] = "numpy.uint32",
      [TSR_UINT64] = "numpy.uint64", [TSR_FLOAT32] = "numpy.float32",
      [TSR_FLOAT64] = "numpy.float64"};
    return v.t->ndim == 0 && !v.t->ndarray ? scalar_types[v.t->dtype] : "numpy.ndarray";
  }
  case V_SCALAR: {
    Value t = v;
    Tensor h;   /* only dtype, ndim and ndarray are read */
    h.dtype = (DType)v.sdt; h.ndim = 0; h.ndarray = 0;
    t.type = V_TENSOR; t.t = &h;
    return value_type_name(t);
  }
  case V_STR: return "str";
  case V_LIST: return "list";
  case V_TUPLE: return "tuple";
  case V_SLICE: return "slice";
  case V_RANGE: return "range";
  case V_FUNC: return "function";
  case V_METHOD: return "builtin_function_or_method";
  case V_NAMESPACE: return value_is_options_dict(v) ? "dict" : "module";
  case V_CFUNC: return "builtin_function_or_method";
  default: return "undefined";
  }
}

int value_truth(Interp *I, Value v) {
  switch (v.type) {
  case V_NONE: return 0;
  case V_BOOL: return v.b;
  case V_INT: return v.i != 0;
  case V_FLOAT: return v.f != 0.0;
  case V_SCALAR: return dtype_is_float((DType)v.sdt) ? dtype_get_f64((DType)v.sdt, &v.i) != 0.0
                                                     : dtype_get_u64((DType)v.sdt, &v.i) != 0;
  case V_STR: return as_str(v)->len != 0;
  case V_LIST: case V_TUPLE: return as_list(v)->n != 0;
  case V_RANGE: {
    Range *r = (Range *)v.o;
    return r->step > 0 ? r->start < r->stop : r->start > r->stop;
  }
  case V_TENSOR: {
    int64_t n = tensor_size(v.t);
    if (n == 0) return 0;
    if (n > 1)
      return IERR_VALUE(I, "The truth value of an array with more than one element is "
                           "ambiguous. Use a.any() or a.all()");
    const char *p = tensor_data(v.t);
    int64_t idx[TSR_MAXDIMS] = {0};
    p = tensor_at(v.t, idx);
    if (dtype_is_float(v.t->dtype)) return dtype_get_f64(v.t->dtype, p) != 0.0;
    return dtype_get_u64(v.t->dtype, p) != 0;
  }
  default: return 1;
  }
}

static void repr_str(Buf *b, const char *s, size_t n) {
  bool has_sq = memchr(s, '\'', n) != NULL, has_dq = memchr(s, '"', n) != NULL;
  char q = (has_sq && !has_dq) ? '"' : '\'';
  buf_putc(b, q);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == (unsigned char)q || ch == '\\') { buf_putc(b, '\\'); buf_putc(b, (char)ch); }
    else if (ch == '\n') buf_puts(b, "\\n");
    else if (ch == '\t') buf_puts(b, "\\t");
    else if (ch == '\r') buf_puts(b, "\\r");
    else if (ch < 32 || ch == 127) buf_printf(b, "\\x%02x", ch);
    else buf_putc(b, (char)ch);
  }
  buf_putc(b, q);
}

/* The containers whose repr is under way, innermost first: one met again is a reference
   cycle, shown as Python shows it ([...] or (...)). */
typedef struct ReprStack { const Obj *o; const struct ReprStack *up; } ReprStack;

static void repr_at(Interp *I, Buf *b, Value v, int depth, const ReprStack *st);

static void repr_seq(Interp *I, Buf *b, Value v, int depth, const ReprStack *st) {
  List *l = as_list(v);
  bool tuple = v.type == V_TUPLE;
  for (const ReprStack *p = st; p; p = p->up)
    if (p->o == v.o) { buf_puts(b, tuple ? "(...)" : "[...]"); return; }
  ReprStack here = {v.o, st};
  buf_putc(b, tuple ? '(' : '[');
  for (int64_t i = 0; i < l->n && !b->failed; i++) {
    if (i) buf_puts(b, ", ");
    repr_at(I, b, l->items[i], depth + 1, &here);
  }
  if (tuple && l->n == 1) buf_putc(b, ',');
  buf_putc(b, tuple ? ')' : ']');
}

/* Nesting of lists, tuples and slices beyond which repr is a RecursionError (as Python's
   recursion limit makes it), not a C stack overflow. */
#define MAX_REPR_DEPTH 1000

void value_repr(Interp *I, Buf *b, Value v) { repr_at(I, b, v, 0, NULL); }

static void repr_at(Interp *I, Buf *b, Value v, int depth, const ReprStack *st) {
  if (depth > MAX_REPR_DEPTH || ctx_stack_exhausted(&I->ctx)) {   /* or a small host stack */
    ctx_err(&I->ctx, TSR_ERR_RUNTIME, "RecursionError",
            "maximum recursion depth exceeded while getting the repr of an object");
    b->failed = true;
    return;
  }
  size_t start = b->n;
  switch (v.type) {
  case V_NONE: buf_puts(b, "None"); break;
  case V_BOOL: buf_puts(b, v.b ? "True" : "False"); break;
  case V_INT: buf_printf(b, "%lld", (long long)v.i); break;
  case V_FLOAT: buf_work(b, 1, WORK_REPR_FLOAT); fmt_pyfloat(b, v.f); break;
  case V_ELLIPSIS: buf_puts(b, "Ellipsis"); break;
  case V_DTYPE: fmt_dtype_repr(b, v.dt); break;
  case V_BUILTIN: buf_printf(b, "<function %s>", v.bi->name); break;
  case V_TENSOR: fmt_repr(b, v.t, &I->ctx.print); break;
  case V_STR: repr_str(b, as_str(v)->s, as_str(v)->len); break;
  case V_LIST: case V_TUPLE: repr_seq(I, b, v, depth, st); break;
  case V_SLICE: {
    Slice *s = (Slice *)v.o;
    buf_puts(b, "slice(");
    repr_at(I, b, s->start, depth + 1, st); buf_puts(b, ", ");
    repr_at(I, b, s->stop, depth + 1, st); buf_puts(b, ", ");
    repr_at(I, b, s->step, depth + 1, st); buf_putc(b, ')');
    break;
  }
  case V_RANGE: {
    Range *r = (Range *)v.o;
    if (r->step == 1) buf_printf(b, "range(%lld, %lld)", (long long)r->start, (long long)r->stop);
    else buf_printf(b, "range(%lld, %lld, %lld)", (long long)r->start, (long long)r->stop,
                    (long long)r->step);
    break;
  }
  case V_FUNC: {
    Func *f = (Func *)v.o;
    buf_printf(b, "<function %s>", f->def->str);
    break;
  }
  case V_METHOD: buf_printf(b, "<built-in method %s>", ((Method *)v.o)->bi->name); break;
  case V_NAMESPACE:
    if (value_is_options_dict(v)) value_repr_options_dict(I, b, v);
    else buf_printf(b, "<module '%s'>", ((Namespace *)v.o)->name);
    break;
  case V_CFUNC: buf_printf(b, "<built-in function %s>", ((CFunc *)v.o)->name); break;
  default: buf_puts(b, "<undefined>"); break;
  }
  /* an item of a sequence costs an object; tensors charged their characters themselves */
  if (v.type != V_TENSOR && b->n > start)
    buf_work(b, v.type == V_LIST || v.type == V_TUPLE ? 1 : b->n - start,
             v.type == V_LIST || v.type == V_TUPLE ? WORK_OBJECT : WORK_CHAR);
}

void value_to_string(Interp *I, Buf *b, Value v) {
  switch (v.type) {
  case V_STR:
    buf_putn(b, as_str(v)->s, as_str(v)->len);
    buf_work(b, as_str(v)->len, WORK_BYTE);
    break;
  case V_TENSOR: fmt_str(b, v.t, &I->ctx.print); break;
  case V_DTYPE: buf_puts(b, dtype_name(v.dt)); break;
  default: value_repr(I, b, v); break;
  }
}

static int equal_at(Interp *I, Value a, Value b, bool *eq, int depth);

/* What numpy.dtype(v) gives for a dtype's == and !=: a name ("float64", "f8", "?"), the
   Python types int, float and bool, or None (float64); false when v is none of these
   (dtype.__eq__ is then False, not an error). */
static bool dtype_of_operand(Value v, DType *out) {
  if (v.type == V_DTYPE) { *out = v.dt; return true; }
  if (v.type == V_NONE) { *out = TSR_FLOAT64; return true; }
  if (v.type == V_STR) return dtype_from_name(as_str(v)->s, out) == 0;
  if (v.type != V_BUILTIN) return false;
  if (strcmp(v.bi->name, "int") == 0) *out = TSR_INT64;
  else if (strcmp(v.bi->name, "float") == 0) *out = TSR_FLOAT64;
  else if (strcmp(v.bi->name, "bool") == 0) *out = TSR_BOOL;
  else return false;
  return true;
}

int value_equal(Interp *I, Value a, Value b, bool *eq) { return equal_at(I, a, b, eq, 0); }

static int equal_at(Interp *I, Value a, Value b, bool *eq, int depth) {
  if (depth > MAX_REPR_DEPTH || ctx_stack_exhausted(&I->ctx))
    return ctx_err(&I->ctx, TSR_ERR_RUNTIME, "RecursionError",
                   "maximum recursion depth exceeded in comparison");
  if ((a.type == V_BOOL || a.type == V_INT || a.type == V_FLOAT) &&
      (b.type == V_BOOL || b.type == V_INT || b.type == V_FLOAT)) {
    if (a.type != V_FLOAT && b.type != V_FLOAT) {
      int64_t x = a.type == V_BOOL ? a.b : a.i, y = b.type == V_BOOL ? b.b : b.i;
      *eq = x == y;
    } else {
      double x = a.type == V_FLOAT ? a.f : a.type == V_BOOL ? a.b : (double)a.i;
      double y = b.type == V_FLOAT ? b.f : b.type == V_BOOL ? b.b : (double)b.i;
      *eq = x == y;
    }
    return 0;
  }
  if (a.type == V_DTYPE || b.type == V_DTYPE) {
    DType x, y;
    *eq = dtype_of_operand(a, &x) && dtype_of_operand(b, &y) && x == y;
    return 0;
  }
  if (a.type != b.type) { *eq = false; return 0; }
  switch (a.type) {
  case V_NONE: case V_ELLIPSIS: *eq = true; return 0;
  case V_STR:
    *eq = as_str(a)->len == as_str(b)->len;
    if (*eq && ctx_work(&I->ctx, as_str(a)->len, WORK_BYTE)) return -1;
    *eq = *eq && memcmp(as_str(a)->s, as_str(b)->s, as_str(a)->len) == 0;
    return 0;
  case V_DTYPE: *eq = a.dt == b.dt; return 0;
  case V_LIST: case V_TUPLE: {
    List *x = as_list(a), *y = as_list(b);
    if (x == y) { *eq = true; return 0; }   /* Python compares identical items as equal */
    if (x->n != y->n) { *eq = false; return 0; }
    for (int64_t i = 0; i < x->n; i++) {
      if (ctx_work(&I->ctx, 1, WORK_OBJECT)) return -1;
      if (x->items[i].type == V_TENSOR || y->items[i].type == V_TENSOR) {
        int t = 0;
        /* NumPy scalars inside sequences compare by value */
        double p, q;
        if (value_to_double(I, x->items[i], &p) < 0 || value_to_double(I, y->items[i], &q) < 0)
          return -1;
        t = p == q;
        if (!t) { *eq = false; return 0; }
        continue;
      }
      if (x->items[i].type == y->items[i].type && v_is_obj(x->items[i]) &&
          x->items[i].o == y->items[i].o) { *eq = true; continue; }   /* identity, as Python */
      if (equal_at(I, x->items[i], y->items[i], eq, depth + 1) < 0) return -1;
      if (!*eq) return 0;
    }
    *eq = true; return 0;
  }
  default: *eq = a.o == b.o; return 0;
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Conversions to tensors (numpy.array). */

typedef struct ArrayBuild {
  int ndim;
  int64_t shape[TSR_MAXDIMS];
  int dtype;          /* promoted dtype of the leaves, -1 before the first */
} ArrayBuild;

static int ragged(Interp *I, int depth, const ArrayBuild *ab) {
  Buf b; buf_init(&b, &I->ctx);
  shape_format(&b, depth, ab->shape);
  IERR_VALUE(I, "setting an array element with a sequence. The requested array has an "
                "inhomogeneous shape after %d dimensions. The detected shape was %s + "
                "inhomogeneous part.", depth, buf_str(&b));
  buf_free(&b);
  return -1;
}

/* First pass: the shape from first elements, then a check of every element; promotes the
   dtype of the leaves. */
static int scan_shape(Interp *I, Value v, ArrayBuild *ab) {
  int nd = 0;
  Value cur = v;
  while (cur.type == V_LIST || cur.type == V_TUPLE) {
    if (nd >= TSR_MAXDIMS)
      return IERR_VALUE(I, "maximum supported dimension for an ndarray is 32, found %d", nd + 1);
    ab->shape[nd++] = as_list(cur)->n;
    if (as_list(cur)->n == 0) break;
    cur = as_list(cur)->items[0];
  }
  if (cur.type == V_TENSOR) {
    if (nd + cur.t->ndim > TSR_MAXDIMS)
      return IERR_VALUE(I, "maximum supported dimension for an ndarray is 32, found %d",
                        nd + cur.t->ndim);
    for (int i = 0; i < cur.t->ndim; i++) ab->shape[nd + i] = cur.t->shape[i];
    nd += cur.t->ndim;
  }
  ab->ndim = nd;
  return 0;
}

static int leaf_dtype(Interp *I, Value v, int *dt) {
  int d;
  switch (v.type) {
  case V_BOOL: d = TSR_BOOL; break;
  case V_INT: d = TSR_INT64; break;
  case V_FLOAT: d = TSR_FLOAT64; break;
  case V_TENSOR: d = v.t->dtype; break;
  default:
    return IERR_TYPE(I, "cannot convert '%s' object to an array element", value_type_name(v));
  }
  *dt = *dt < 0 ? d : (int)dtype_promote((DType)*dt, (DType)d);
  return 0;
}

/* Second pass: checks the structure against ab->shape and promotes leaf dtypes. */
static int check_tree(Interp *I, Value v, int depth, ArrayBuild *ab) {
  if (v.type == V_LIST || v.type == V_TUPLE) {
    List *l = as_list(v);
    if (depth >= ab->ndim || l->n != ab->shape[depth]) return ragged(I, depth, ab);
    for (int64_t i = 0; i < l->n; i++) {
      /* this pass and the fill: charged per 4096 items */
      if ((i & 4095) == 0 &&
          ctx_work(&I->ctx, (uint64_t)(l->n - i < 4096 ? l->n - i : 4096), WORK_OBJECT))
        return -1;
      if (check_tree(I, l->items[i], depth + 1, ab) < 0) return -1;
    }
    return 0;
  }
  if (v.type == V_TENSOR) {
    if (depth + v.t->ndim != ab->ndim) return ragged(I, depth, ab);
    for (int i = 0; i < v.t->ndim; i++)
      if (v.t->shape[i] != ab->shape[depth + i]) return ragged(I, depth, ab);
    return leaf_dtype(I, v, &ab->dtype);
  }
  if (depth != ab->ndim) return ragged(I, depth, ab);
  return leaf_dtype(I, v, &ab->dtype);
}

static int fill_tree(Interp *I, Value v, Tensor *out, int depth, int64_t *index) {
  if (v.type == V_LIST || v.type == V_TUPLE) {
    List *l = as_list(v);
    for (int64_t i = 0; i < l->n; i++) {
      index[depth] = i;
      if (fill_tree(I, l->items[i], out, depth + 1, index) < 0) return -1;
    }
    return 0;
  }
  if (v.type == V_TENSOR) {
    for (int i = depth; i < out->ndim; i++) index[i] = 0;
    int64_t off = out->offset;
    for (int i = 0; i < depth; i++) off += index[i] * out->strides[i];
    Tensor *dst = tensor_view(out, out->ndim - depth, out->shape + depth, out->strides + depth, off);
    if (!dst) return -1;
    int rc = tensor_assign(&I->ctx, dst, v.t);
    tensor_release(dst);
    return rc;
  }
  char *p = tensor_at(out, index);
  if (v.type == V_FLOAT) dtype_set_f64(out->dtype, p, v.f);
  else if (v.type == V_INT) dtype_set_i64(out->dtype, p, v.i);
  else dtype_set_i64(out->dtype, p, v.b ? 1 : 0);
  return 0;
}

static Tensor *to_tensor(Interp *I, Value v, int dtype, bool weak) {
  Ctx *c = &I->ctx;
  switch (v.type) {
  case V_TENSOR:
    if (dtype >= 0 && (DType)dtype != v.t->dtype) return tensor_astype(c, v.t, (DType)dtype);
    return tensor_retain(v.t);
  case V_SCALAR: {   /* an evaluator temporary (scalar.h): a NumPy scalar */
    Value b = v;
    if (scalar_box(I, &b) < 0) return NULL;
    if (dtype < 0 || (DType)dtype == b.t->dtype) return b.t;
    Tensor *t = tensor_astype(c, b.t, (DType)dtype);
    tensor_release(b.t);
    return t;
  }
  case V_BOOL: case V_INT: case V_FLOAT: {
    Tensor *t;
    int dt = dtype >= 0 ? dtype : v.type == V_BOOL ? TSR_BOOL : v.type == V_INT ? TSR_INT64
                                                                               : TSR_FLOAT64;
    if (v.type == V_FLOAT) t = tensor_scalar_f64(c, (DType)dt, v.f);
    else t = tensor_scalar_i64(c, (DType)dt, v.type == V_INT ? v.i : v.b);
    if (t && weak && dtype < 0)
      t->weak = v.type == V_BOOL ? WEAK_BOOL : v.type == V_INT ? WEAK_INT : WEAK_FLOAT;
    return t;
  }
  case V_LIST: case V_TUPLE: {
    ArrayBuild ab;
    ab.dtype = -1;
    if (scan_shape(I, v, &ab) < 0) return NULL;
    if (check_tree(I, v, 0, &ab) < 0) return NULL;
    int dt = dtype >= 0 ? dtype : ab.dtype >= 0 ? ab.dtype : TSR_FLOAT64;
    Tensor *out = tensor_empty(c, (DType)dt, ab.ndim, ab.shape);
    if (!out) return NULL;
    if (tensor_size(out) > 0) {
      int64_t index[TSR_MAXDIMS] = {0};
      if (fill_tree(I, v, out, 0, index) < 0) { tensor_release(out); return NULL; }
    }
    return out;
  }
  case V_RANGE: {
    Range *r = (Range *)v.o;
    return create_arange_i64(c, r->start, r->stop, r->step, dtype >= 0 ? (DType)dtype : TSR_INT64);
  }
  default:
    IERR_TYPE(I, "expected an array-like argument, got '%s'", value_type_name(v));
    return NULL;
  }
}

Tensor *value_to_tensor(Interp *I, Value v, int dtype) { return to_tensor(I, v, dtype, true); }
Tensor *value_to_tensor_strong(Interp *I, Value v, int dtype) { return to_tensor(I, v, dtype, false); }

int value_to_int(Interp *I, Value v, int64_t *out) {
  switch (v.type) {
  case V_INT: *out = v.i; return 0;
  case V_BOOL: *out = v.b; return 0;
  case V_TENSOR:
    if (tensor_size(v.t) == 1 && v.t->ndim == 0 && !dtype_is_float(v.t->dtype)) {
      *out = dtype_get_i64(v.t->dtype, tensor_data(v.t));
      return 0;
    }
    if (!dtype_is_float(v.t->dtype) && tensor_size(v.t) == 1) {
      int64_t idx[TSR_MAXDIMS] = {0};
      *out = dtype_get_i64(v.t->dtype, tensor_at(v.t, idx));
      return 0;
    }
    if (dtype_is_float(v.t->dtype))
      return IERR_TYPE(I, "'numpy.%s' object cannot be interpreted as an integer",
                       dtype_name(v.t->dtype));
    return IERR_TYPE(I, "only integer scalar arrays can be converted to a scalar index");
  default:
    return IERR_TYPE(I, "'%s' object cannot be interpreted as an integer", value_type_name(v));
  }
}

int value_float_to_int(Interp *I, double d, Value *out) {
  if (isnan(d)) return IERR_VALUE(I, "cannot convert float NaN to integer");
  if (isinf(d)) return ERR_OVERFLOW(interp_ctx(I), "cannot convert float infinity to integer");
  if (d >= 9223372036854775808.0 || d < -9223372036854775808.0)
    return ERR_OVERFLOW(interp_ctx(I), "int too large to convert to a 64-bit int");
  *out = v_int((int64_t)d);
  return 0;
}

int value_scalar_to_python(Interp *I, Value v, Value *out) {
  *out = v;
  if (v.type != V_TENSOR || v.t->ndim != 0 || v.t->ndarray) return 0;
  DType dt = v.t->dtype;
  if (dt == TSR_BOOL) {
    *out = v_bool(*(const uint8_t *)tensor_data(v.t) != 0);
  } else if (dtype_is_float(dt)) {
    double d;
    if (value_to_double(I, v, &d)) return -1;
    *out = v_float(d);
  } else if (dt == TSR_UINT64 && *(const uint64_t *)tensor_data(v.t) > INT64_MAX) {
    *out = v_float((double)*(const uint64_t *)tensor_data(v.t));   /* no big ints yet */
  } else if (dtype_is_int(dt)) {
    int64_t i;
    if (value_to_int(I, v, &i)) return -1;
    *out = v_int(i);
  }
  return 0;
}

int value_to_double(Interp *I, Value v, double *out) {
  switch (v.type) {
  case V_INT: *out = (double)v.i; return 0;
  case V_BOOL: *out = v.b; return 0;
  case V_FLOAT: *out = v.f; return 0;
  case V_TENSOR:
    if (tensor_size(v.t) == 1) {
      int64_t idx[TSR_MAXDIMS] = {0};
      *out = dtype_get_f64(v.t->dtype, tensor_at(v.t, idx));
      return 0;
    }
    return IERR_TYPE(I, "only size-1 arrays can be converted to Python scalars");
  default:
    return IERR_TYPE(I, "float() argument must be a string or a real number, not '%s'",
                     value_type_name(v));
  }
}

int value_to_shape(Interp *I, Value v, int *ndim, int64_t *shape, bool allow_minus1) {
  int n = 0, minus = 0;
  if (v.type == V_LIST || v.type == V_TUPLE) {
    List *l = as_list(v);
    if (l->n > TSR_MAXDIMS)
      return IERR_VALUE(I, "maximum supported dimension for an ndarray is 32, found %lld",
                        (long long)l->n);
    for (int64_t i = 0; i < l->n; i++)
      if (value_to_int(I, l->items[i], &shape[n++]) < 0) return -1;
  } else if (v.type == V_TENSOR && v.t->ndim == 1) {
    if (v.t->shape[0] > TSR_MAXDIMS)
      return IERR_VALUE(I, "maximum supported dimension for an ndarray is 32, found %lld",
                        (long long)v.t->shape[0]);
    for (int64_t i = 0; i < v.t->shape[0]; i++) {
      if (dtype_is_float(v.t->dtype))
        return IERR_TYPE(I, "'numpy.%s' object cannot be interpreted as an integer",
                         dtype_name(v.t->dtype));
      shape[n++] = dtype_get_i64(v.t->dtype, tensor_at(v.t, &i));
    }
  } else {
    if (value_to_int(I, v, &shape[0]) < 0) return -1;
    n = 1;
  }
  for (int i = 0; i < n; i++) {
    if (shape[i] == -1 && allow_minus1) {
      if (++minus > 1) return IERR_VALUE(I, "can only specify one unknown dimension");
    } else if (shape[i] < 0) {
      return IERR_VALUE(I, "negative dimensions are not allowed");
    }
  }
  *ndim = n;
  return 0;
}

int value_to_axes(Interp *I, Value v, int *axes, int *naxes) {
  if (v.type == V_NONE || v.type == V_UNDEF) { *naxes = -1; return 0; }
  if (v.type == V_LIST || v.type == V_TUPLE) {
    List *l = as_list(v);
    if (l->n > TSR_MAXDIMS) return IERR_VALUE(I, "too many axes");
    for (int64_t i = 0; i < l->n; i++) {
      int64_t a;
      if (value_to_int(I, l->items[i], &a) < 0) return -1;
      if (a < INT32_MIN + 1 || a > INT32_MAX) a = INT32_MAX;
      axes[i] = (int)a;
    }
    *naxes = (int)l->n;
    return 0;
  }
  int64_t a;
  if (value_to_int(I, v, &a) < 0) return -1;
  if (a < INT32_MIN + 1 || a > INT32_MAX) a = INT32_MAX;
  axes[0] = (int)a;
  *naxes = 1;
  return 0;
}

int value_to_dtype(Interp *I, Value v, int *out) {
  switch (v.type) {
  case V_NONE: case V_UNDEF: return 0;
  case V_DTYPE: *out = v.dt; return 0;
  case V_STR: {
    DType d;
    if (dtype_from_name(as_str(v)->s, &d) < 0)
      return IERR_TYPE(I, "data type '%s' not understood", as_str(v)->s);
    *out = d;
    return 0;
  }
  case V_BUILTIN:
    if (strcmp(v.bi->name, "int") == 0) { *out = TSR_INT64; return 0; }
    if (strcmp(v.bi->name, "float") == 0) { *out = TSR_FLOAT64; return 0; }
    if (strcmp(v.bi->name, "bool") == 0) { *out = TSR_BOOL; return 0; }
    break;
  default: break;
  }
  return IERR_TYPE(I, "Cannot interpret '%s' as a data type", value_type_name(v));
}

/* ---------------------------------------------------------------------------------------- */
/* The argument binder. */

#define MAX_SPEC 24

typedef struct SpecParam { char name[32]; bool optional, kwonly; } SpecParam;

static int parse_spec(const char *spec, SpecParam *ps) {
  int n = 0;
  bool optional = false, kwonly = false;
  const char *p = spec;
  while (*p && n < MAX_SPEC) {
    if (*p == ',') { p++; continue; }
    if (*p == '|') { optional = true; p++; continue; }
    if (*p == '*') { kwonly = true; optional = true; p++; continue; }
    size_t k = 0;
    while (*p && *p != ',' && *p != '=' && *p != '|' && k < sizeof ps[n].name - 1)
      ps[n].name[k++] = *p++;
    ps[n].name[k] = 0;
    ps[n].optional = optional;
    ps[n].kwonly = kwonly;
    if (*p == '=') { ps[n].optional = true; p++; }
    n++;
  }
  return n;
}

int args_parse(Interp *I, const Args *a, const char *fname, const char *spec, Value *slots) {
  SpecParam ps[MAX_SPEC];
  int n = parse_spec(spec, ps), npositional = 0;
  for (int i = 0; i < n; i++) { slots[i] = v_undef(); if (!ps[i].kwonly) npositional++; }
  if (a->npos > npositional)
    return IERR_TYPE(I, "%s() takes at most %d positional argument%s (%d given)", fname,
                     npositional, npositional == 1 ? "" : "s", a->npos);
  for (int i = 0; i < a->npos; i++) slots[i] = a->pos[i];
  for (int k = 0; k < a->nkw; k++) {
    int j;
    for (j = 0; j < n; j++) if (strcmp(ps[j].name, a->kwnames[k]) == 0) break;
    if (j == n)
      return IERR_TYPE(I, "%s() got an unexpected keyword argument '%s'", fname, a->kwnames[k]);
    if (slots[j].type != V_UNDEF)
      return IERR_TYPE(I, "argument for %s() given by name ('%s') and position (%d)", fname,
                       a->kwnames[k], j + 1);
    slots[j] = a->kw[k];
  }
  for (int i = 0; i < n; i++)
    if (!ps[i].optional && slots[i].type == V_UNDEF)
      return IERR_TYPE(I, "%s() missing required argument '%s' (pos %d)", fname, ps[i].name,
                       i + 1);
  return 0;
}
