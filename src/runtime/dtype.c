/*
** dtype.c -- element types: the info table, name lookup, NumPy's promotion rules (with NEP 50
** weak scalars), scalar get/set and the strided cast kernels between every pair of dtypes.
*/
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "align-loops=64")
#endif
#include "rt.h"

#include <math.h>
#include <string.h>

#define X_INFO(e, ctype, name, kind) [e] = {name, sizeof(ctype), kind},
const DTypeInfo dtype_info[DTYPE_COUNT] = { DTYPE_TABLE(X_INFO) };
#undef X_INFO
_Static_assert(sizeof(dtype_info) / sizeof(dtype_info[0]) == DTYPE_COUNT, "dtype table");

/* ---------------------------------------------------------------------------------------- */

static const struct { const char *name; DType dt; } dtype_aliases[] = {
  {"bool", TSR_BOOL}, {"bool_", TSR_BOOL}, {"bool8", TSR_BOOL}, {"?", TSR_BOOL},
  {"b1", TSR_BOOL},
  {"int8", TSR_INT8}, {"i1", TSR_INT8}, {"byte", TSR_INT8}, {"b", TSR_INT8},
  {"int16", TSR_INT16}, {"i2", TSR_INT16}, {"short", TSR_INT16}, {"h", TSR_INT16},
  {"int32", TSR_INT32}, {"i4", TSR_INT32}, {"intc", TSR_INT32}, {"i", TSR_INT32},
  {"int64", TSR_INT64}, {"i8", TSR_INT64}, {"int", TSR_INT64}, {"int_", TSR_INT64},
  {"intp", TSR_INT64}, {"long", TSR_INT64}, {"longlong", TSR_INT64}, {"l", TSR_INT64},
  {"q", TSR_INT64}, {"p", TSR_INT64},
  {"uint8", TSR_UINT8}, {"u1", TSR_UINT8}, {"ubyte", TSR_UINT8}, {"B", TSR_UINT8},
  {"uint16", TSR_UINT16}, {"u2", TSR_UINT16}, {"ushort", TSR_UINT16}, {"H", TSR_UINT16},
  {"uint32", TSR_UINT32}, {"u4", TSR_UINT32}, {"uintc", TSR_UINT32}, {"I", TSR_UINT32},
  {"uint64", TSR_UINT64}, {"u8", TSR_UINT64}, {"uint", TSR_UINT64}, {"uintp", TSR_UINT64},
  {"ulonglong", TSR_UINT64}, {"L", TSR_UINT64}, {"Q", TSR_UINT64}, {"P", TSR_UINT64},
  {"float32", TSR_FLOAT32}, {"f4", TSR_FLOAT32}, {"single", TSR_FLOAT32}, {"f", TSR_FLOAT32},
  {"float64", TSR_FLOAT64}, {"f8", TSR_FLOAT64}, {"float", TSR_FLOAT64},
  {"float_", TSR_FLOAT64}, {"double", TSR_FLOAT64}, {"d", TSR_FLOAT64},
};

/* Accepts NumPy's names, the type codes and the sized codes, optionally with a byte-order
   prefix ('<', '=', '|'; little-endian only). */
int dtype_from_name(const char *name, DType *out) {
  if (!name) return -1;
  if (name[0] == '<' || name[0] == '=' || name[0] == '|') name++;
  for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++)
    if (strcmp(name, dtype_aliases[i].name) == 0) { *out = dtype_aliases[i].dt; return 0; }
  return -1;
}

/* numpy.promote_types, tabulated from NumPy 1.24 (rows and columns in DType order). */
#define B_ TSR_BOOL
#define I1 TSR_INT8
#define I2 TSR_INT16
#define I4 TSR_INT32
#define I8 TSR_INT64
#define U1 TSR_UINT8
#define U2 TSR_UINT16
#define U4 TSR_UINT32
#define U8 TSR_UINT64
#define F4 TSR_FLOAT32
#define F8 TSR_FLOAT64
static const uint8_t promote_table[DTYPE_COUNT][DTYPE_COUNT] = {
  /*         b   i1  i2  i4  i8  u1  u2  u4  u8  f4  f8 */
  /* b  */ {B_, I1, I2, I4, I8, U1, U2, U4, U8, F4, F8},
  /* i1 */ {I1, I1, I2, I4, I8, I2, I4, I8, F8, F4, F8},
  /* i2 */ {I2, I2, I2, I4, I8, I2, I4, I8, F8, F4, F8},
  /* i4 */ {I4, I4, I4, I4, I8, I4, I4, I8, F8, F8, F8},
  /* i8 */ {I8, I8, I8, I8, I8, I8, I8, I8, F8, F8, F8},
  /* u1 */ {U1, I2, I2, I4, I8, U1, U2, U4, U8, F4, F8},
  /* u2 */ {U2, I4, I4, I4, I8, U2, U2, U4, U8, F4, F8},
  /* u4 */ {U4, I8, I8, I8, I8, U4, U4, U4, U8, F8, F8},
  /* u8 */ {U8, F8, F8, F8, F8, U8, U8, U8, U8, F8, F8},
  /* f4 */ {F4, F4, F4, F8, F8, F4, F4, F8, F8, F4, F8},
  /* f8 */ {F8, F8, F8, F8, F8, F8, F8, F8, F8, F8, F8},
};
#undef B_
#undef I1
#undef I2
#undef I4
#undef I8
#undef U1
#undef U2
#undef U4
#undef U8
#undef F4
#undef F8

DType dtype_promote(DType a, DType b) { return (DType)promote_table[a][b]; }

DType dtype_promote_weak(DType d, WeakKind w) {
  switch (w) {
  case WEAK_INT: return d == TSR_BOOL ? TSR_INT64 : d;
  case WEAK_FLOAT: return dtype_is_float(d) ? d : TSR_FLOAT64;
  default: return d;
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Float -> integer conversions without undefined behaviour, reproducing what NumPy's casts
   give on x86-64: out-of-range values become the "integer indefinite" of the 32- or 64-bit
   conversion instruction, narrower types take the low bits of the 32-bit conversion. */

static inline int64_t f2i64(double x) {
  return (x > -9223372036854775809.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
static inline int32_t f2i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}
static inline uint64_t f2u64(double x) {
  if (x > -9223372036854775809.0 && x < 9223372036854775808.0) return (uint64_t)(int64_t)x;
  if (x >= 9223372036854775808.0 && x < 18446744073709551616.0) return (uint64_t)x;
  if (x >= 18446744073709551616.0) return 0;
  return UINT64_C(1) << 63;   /* nan, very negative */
}

#define TO_bool(x)     ((x) != 0)
#define TO_int8_t(x)   _Generic((x), float: (int8_t)f2i32(x), double: (int8_t)f2i32(x), \
                                default: (int8_t)(x))
#define TO_int16_t(x)  _Generic((x), float: (int16_t)f2i32(x), double: (int16_t)f2i32(x), \
                                default: (int16_t)(x))
#define TO_int32_t(x)  _Generic((x), float: f2i32(x), double: f2i32(x), default: (int32_t)(x))
#define TO_int64_t(x)  _Generic((x), float: f2i64(x), double: f2i64(x), default: (int64_t)(x))
#define TO_uint8_t(x)  _Generic((x), float: (uint8_t)f2i32(x), double: (uint8_t)f2i32(x), \
                                default: (uint8_t)(x))
#define TO_uint16_t(x) _Generic((x), float: (uint16_t)f2i32(x), double: (uint16_t)f2i32(x), \
                                default: (uint16_t)(x))
#define TO_uint32_t(x) _Generic((x), float: (uint32_t)f2i64(x), double: (uint32_t)f2i64(x), \
                                default: (uint32_t)(x))
#define TO_uint64_t(x) _Generic((x), float: f2u64(x), double: f2u64(x), default: (uint64_t)(x))
#define TO_float(x)    ((float)(x))
#define TO_double(x)   ((double)(x))

/* ---------------------------------------------------------------------------------------- */

#define X_GET(e, ctype, name, kind) case e: { ctype v_; memcpy(&v_, p, sizeof v_); return (R)v_; }

double dtype_get_f64(DType d, const void *p) {
#define R double
  switch (d) { DTYPE_TABLE(X_GET) }
#undef R
  return 0;
}

int64_t dtype_get_i64(DType d, const void *p) {
  switch (d) {
  case TSR_FLOAT32: { float v; memcpy(&v, p, sizeof v); return f2i64(v); }
  case TSR_FLOAT64: { double v; memcpy(&v, p, sizeof v); return f2i64(v); }
  default: break;
  }
#define R int64_t
  switch (d) { DTYPE_TABLE(X_GET) }
#undef R
  return 0;
}

uint64_t dtype_get_u64(DType d, const void *p) {
  switch (d) {
  case TSR_FLOAT32: { float v; memcpy(&v, p, sizeof v); return f2u64(v); }
  case TSR_FLOAT64: { double v; memcpy(&v, p, sizeof v); return f2u64(v); }
  default: break;
  }
#define R uint64_t
  switch (d) { DTYPE_TABLE(X_GET) }
#undef R
  return 0;
}
#undef X_GET

#define X_SET(e, ctype, name, kind) \
  case e: { ctype v_ = TO_##ctype(v); memcpy(p, &v_, sizeof v_); return; }
void dtype_set_f64(DType d, void *p, double v) { switch (d) { DTYPE_TABLE(X_SET) } }
void dtype_set_i64(DType d, void *p, int64_t v) { switch (d) { DTYPE_TABLE(X_SET) } }
void dtype_set_u64(DType d, void *p, uint64_t v) { switch (d) { DTYPE_TABLE(X_SET) } }
#undef X_SET

/* ---------------------------------------------------------------------------------------- */
/* Cast kernels: one function per (source, destination) pair, generated from the table; the
   contiguous case is a plain loop the compiler vectorises. */

typedef void (*CastFn)(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n);

#define INNER_TYPES(X, S)                                                               \
  X(S, bool) X(S, int8_t) X(S, int16_t) X(S, int32_t) X(S, int64_t) X(S, uint8_t)       \
  X(S, uint16_t) X(S, uint32_t) X(S, uint64_t) X(S, float) X(S, double)

#define CAST_FN(ST, DT)                                                                 \
  static void cast_##ST##_##DT(char *dst, int64_t ds, const char *src, int64_t ss,      \
                               int64_t n) {                                             \
    if (ds == (int64_t)sizeof(DT) && ss == (int64_t)sizeof(ST)) {                       \
      DT *d = (DT *)dst; const ST *s = (const ST *)src;                                 \
      for (int64_t i = 0; i < n; i++) d[i] = TO_##DT(s[i]);                             \
    } else {                                                                            \
      for (int64_t i = 0; i < n; i++, dst += ds, src += ss)                             \
        *(DT *)dst = TO_##DT(*(const ST *)src);                                         \
    }                                                                                   \
  }
#define X_CAST_ROW(e, ctype, name, kind) INNER_TYPES(CAST_FN, ctype)
DTYPE_TABLE(X_CAST_ROW)
#undef X_CAST_ROW

#define CAST_PTR(ST, DT) cast_##ST##_##DT,
#define X_CAST_TAB(e, ctype, name, kind) [e] = { INNER_TYPES(CAST_PTR, ctype) },
static const CastFn cast_table[DTYPE_COUNT][DTYPE_COUNT] = { DTYPE_TABLE(X_CAST_TAB) };
#undef X_CAST_TAB
#undef CAST_PTR

/* Casts n elements (strides in bytes, any sign, 0 allowed for the source).  Same dtypes
   copy; the destination must not overlap the source unless they coincide exactly. */
void dtype_cast_strided(DType ddt, char *dst, int64_t dst_stride, DType sdt, const char *src,
                        int64_t src_stride, int64_t n) {
  if (n <= 0) return;
  if (ddt == sdt) {
    size_t sz = dtype_size(ddt);
    if (dst_stride == (int64_t)sz && src_stride == (int64_t)sz) {
      if (dst != src) memmove(dst, src, (size_t)n * sz);
      return;
    }
  }
  cast_table[sdt][ddt](dst, dst_stride, src, src_stride, n);
}
