/*
** ufunc.c -- elementwise kernels: NumPy's binary and unary ufuncs, where and clip.  Type
** resolution (NumPy promotion with weak Python scalars), broadcasting and out= handling live
** here; the typed inner loops are generated from one table per ufunc, each with contiguous
** and scalar-broadcast fast paths the compiler vectorises.
*/
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "align-loops=64")
#endif
#include "rt.h"
#include "fuse.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define X_NAME(name, str) str,
const char *const binary_ufunc_names[UF_BINARY_COUNT] = { BINARY_UFUNCS(X_NAME) };
const char *const unary_ufunc_names[UF_UNARY_COUNT] = { UNARY_UFUNCS(X_NAME) };
#undef X_NAME
_Static_assert(sizeof(binary_ufunc_names) / sizeof(binary_ufunc_names[0]) == UF_BINARY_COUNT,
               "binary ufunc names");
_Static_assert(sizeof(unary_ufunc_names) / sizeof(unary_ufunc_names[0]) == UF_UNARY_COUNT,
               "unary ufunc names");

/* ---------------------------------------------------------------------------------------- */
/* Type lists: (op, dtype enum, C type, unsigned counterpart, kind B/I/U/F).  Groups let each
   ufunc list the kinds it has loops for. */

#define T_BOOL(X, OP) X(OP, TSR_BOOL, bool, uint8_t, B)
#define T_INT(X, OP)                                                                  \
  X(OP, TSR_INT8, int8_t, uint8_t, I) X(OP, TSR_INT16, int16_t, uint16_t, I)          \
  X(OP, TSR_INT32, int32_t, uint32_t, I) X(OP, TSR_INT64, int64_t, uint64_t, I)
#define T_UINT(X, OP)                                                                 \
  X(OP, TSR_UINT8, uint8_t, uint8_t, U) X(OP, TSR_UINT16, uint16_t, uint16_t, U)      \
  X(OP, TSR_UINT32, uint32_t, uint32_t, U) X(OP, TSR_UINT64, uint64_t, uint64_t, U)
#define T_FLT(X, OP) X(OP, TSR_FLOAT32, float, float, F) X(OP, TSR_FLOAT64, double, double, F)
#define K_ALL(X, OP)  T_BOOL(X, OP) T_INT(X, OP) T_UINT(X, OP) T_FLT(X, OP)
#define K_NUM(X, OP)  T_INT(X, OP) T_UINT(X, OP) T_FLT(X, OP)
#define K_INTS(X, OP) T_BOOL(X, OP) T_INT(X, OP) T_UINT(X, OP)
#define K_IU(X, OP)   T_INT(X, OP) T_UINT(X, OP)
#define K_FLT(X, OP)  T_FLT(X, OP)

/* libm by type: MF(T, sqrt) is sqrtf for float, sqrt for double */
#define MF(T, f) MF_##T(f)
#define MF_float(fn) fn##f
#define MF_double(fn) fn

/* ---------------------------------------------------------------------------------------- */
/* Scalar helpers with Python's integer semantics (floor division, modulo, power) and the
   float divmod of Python (sign of the divisor for %). */

#define INT_HELPERS(OP, TAG, T, UT, K)                                                 \
  static inline T fdiv_##T(T x, T y) {                                                 \
    if (y == 0) { fperr_raise(FPE_DIVIDE); return 0; }                                 \
    if (y == -1) {                                                                     \
      if (x != 0 && (T)(0 - (UT)x) == x) fperr_raise(FPE_OVERFLOW);                    \
      return (T)(0 - (UT)x);                                                           \
    }                                                                                  \
    T q = (T)(x / y);                                                                  \
    if ((T)(x % y) != 0 && ((x < 0) != (y < 0))) q--;                                  \
    return q;                                                                          \
  }                                                                                    \
  static inline T mod_##T(T x, T y) {                                                  \
    if (y == 0) { fperr_raise(FPE_DIVIDE); return 0; }                                 \
    if (y == -1) return 0;                                                             \
    T r = (T)(x % y);                                                                  \
    if (r != 0 && ((r < 0) != (y < 0))) r = (T)(r + y);                                \
    return r;                                                                          \
  }                                                                                    \
  static inline T cmod_##T(T x, T y) {   /* fmod: C's %, the dividend's sign */        \
    if (y == 0) { fperr_raise(FPE_DIVIDE); return 0; }                                 \
    if (y == -1) return 0;                                                             \
    return (T)(x % y);                                                                 \
  }                                                                                    \
  static inline T pow_##T(T x, T y) {                                                  \
    UT r = 1, b = (UT)x;                                                               \
    if (y < 0) return 0;                                                               \
    for (;;) { if (y & 1) r = (UT)(1u * r * b); y = (T)(y >> 1); if (!y) break;        \
               b = (UT)(1u * b * b); }                                                 \
    return (T)r;                                                                       \
  }
#define UINT_HELPERS(OP, TAG, T, UT, K)                                                \
  static inline T fdiv_##T(T x, T y) {                                                 \
    if (y == 0) { fperr_raise(FPE_DIVIDE); return 0; }                                 \
    return (T)(x / y);                                                                 \
  }                                                                                    \
  static inline T mod_##T(T x, T y) {                                                  \
    if (y == 0) { fperr_raise(FPE_DIVIDE); return 0; }                                 \
    return (T)(x % y);                                                                 \
  }                                                                                    \
  static inline T cmod_##T(T x, T y) { return mod_##T(x, y); }                         \
  static inline T pow_##T(T x, T y) {                                                  \
    T r = 1;                                                                           \
    for (;;) { if (y & 1) r = (T)(1u * r * x); y = (T)(y >> 1); if (!y) break;         \
               x = (T)(1u * x * x); }                                                  \
    return r;                                                                          \
  }
T_INT(INT_HELPERS, _)
T_UINT(UINT_HELPERS, _)

#define FLT_HELPERS(OP, TAG, T, UT, K)                                                 \
  static inline T fdiv_##T(T a, T b) {                                                 \
    if (b == 0) return a / b;                                                          \
    T mod = MF(T, fmod)(a, b);                                                         \
    T div = (a - mod) / b;                                                             \
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;                                  \
    if (div == 0) return MF(T, copysign)(0, a / b);                                    \
    T fl = MF(T, floor)(div);                                                          \
    if (div - fl > (T)0.5) fl += 1;                                                    \
    return fl;                                                                         \
  }                                                                                    \
  static inline T mod_##T(T a, T b) {                                                  \
    T mod = MF(T, fmod)(a, b);                                                         \
    if (b == 0) return mod;                                                            \
    if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }                              \
    else mod = MF(T, copysign)(0, b);                                                  \
    return mod;                                                                        \
  }
T_FLT(FLT_HELPERS, _)

/* NumPy's npy_logaddexp / npy_logaddexp2 / npy_heaviside, by formula (npy_math): equal
   operands (infinities of one sign included) take the short way, a NaN difference is the
   result, else the larger plus log1p of the exponential of minus the distance. */
#define LOGADD_HELPERS(OP, TAG, T, UT, K)                                              \
  static inline T logaddexp_##T(T x, T y) {                                            \
    if (x == y) return x + (T)0.693147180559945309417232121458176568;                 \
    T t = x - y;                                                                       \
    if (t > 0) return x + MF(T, log1p)(MF(T, exp)(-t));                                \
    if (t <= 0) return y + MF(T, log1p)(MF(T, exp)(t));                                \
    return t;                                                                          \
  }                                                                                    \
  static inline T logaddexp2_##T(T x, T y) {                                           \
    if (x == y) return x + 1;                                                          \
    T t = x - y;                                                                       \
    if (t > 0) return x + (T)1.442695040888963407359924681001892137 *                 \
                              MF(T, log1p)(MF(T, exp2)(-t));                           \
    if (t <= 0) return y + (T)1.442695040888963407359924681001892137 *                \
                               MF(T, log1p)(MF(T, exp2)(t));                           \
    return t;                                                                          \
  }                                                                                    \
  static inline T heaviside_##T(T x, T h0) {                                           \
    if (x != x) return (T)NAN;                                                         \
    if (x == 0) return h0;                                                             \
    return x < 0 ? (T)0 : (T)1;                                                        \
  }
T_FLT(LOGADD_HELPERS, _)

/* ---------------------------------------------------------------------------------------- */
/* Binary expressions: EXPR_<OP>_<kind>(T, UT, x, y); output types OUTT_<OP>(T). */

#define EXPR_ADD_B(T, UT, x, y) ((x) | (y))
#define EXPR_ADD_I(T, UT, x, y) ((T)((UT)(x) + (UT)(y)))
#define EXPR_ADD_U EXPR_ADD_I
#define EXPR_ADD_F(T, UT, x, y) ((x) + (y))
#define EXPR_SUBTRACT_I(T, UT, x, y) ((T)((UT)(x) - (UT)(y)))
#define EXPR_SUBTRACT_U EXPR_SUBTRACT_I
#define EXPR_SUBTRACT_F(T, UT, x, y) ((x) - (y))
#define EXPR_MULTIPLY_B(T, UT, x, y) ((x) & (y))
#define EXPR_MULTIPLY_I(T, UT, x, y) ((T)(1u * (UT)(x) * (UT)(y)))
#define EXPR_MULTIPLY_U EXPR_MULTIPLY_I
#define EXPR_MULTIPLY_F(T, UT, x, y) ((x) * (y))
#define EXPR_TRUE_DIVIDE_F(T, UT, x, y) ((x) / (y))
#define EXPR_FLOOR_DIVIDE_I(T, UT, x, y) fdiv_##T(x, y)
#define EXPR_FLOOR_DIVIDE_U EXPR_FLOOR_DIVIDE_I
#define EXPR_FLOOR_DIVIDE_F EXPR_FLOOR_DIVIDE_I
#define EXPR_REMAINDER_I(T, UT, x, y) mod_##T(x, y)
#define EXPR_REMAINDER_U EXPR_REMAINDER_I
#define EXPR_REMAINDER_F EXPR_REMAINDER_I
#define EXPR_POWER_I(T, UT, x, y) pow_##T(x, y)
#define EXPR_POWER_U EXPR_POWER_I
#define EXPR_POWER_F(T, UT, x, y) MF(T, pow)(x, y)
#define EXPR_BITWISE_AND_B(T, UT, x, y) ((T)((x) & (y)))
#define EXPR_BITWISE_AND_I EXPR_BITWISE_AND_B
#define EXPR_BITWISE_AND_U EXPR_BITWISE_AND_B
#define EXPR_BITWISE_OR_B(T, UT, x, y) ((T)((x) | (y)))
#define EXPR_BITWISE_OR_I EXPR_BITWISE_OR_B
#define EXPR_BITWISE_OR_U EXPR_BITWISE_OR_B
#define EXPR_BITWISE_XOR_B(T, UT, x, y) ((T)((x) ^ (y)))
#define EXPR_BITWISE_XOR_I EXPR_BITWISE_XOR_B
#define EXPR_BITWISE_XOR_U EXPR_BITWISE_XOR_B
#define EXPR_LEFT_SHIFT_I(T, UT, x, y) \
  ((uint64_t)(y) < 8 * sizeof(T) ? (T)((UT)(x) << (y)) : (T)0)
#define EXPR_LEFT_SHIFT_U EXPR_LEFT_SHIFT_I
#define EXPR_RIGHT_SHIFT_I(T, UT, x, y) \
  ((uint64_t)(y) < 8 * sizeof(T) ? (T)((x) >> (y)) : (T)((x) < 0 ? -1 : 0))
#define EXPR_RIGHT_SHIFT_U(T, UT, x, y) ((uint64_t)(y) < 8 * sizeof(T) ? (T)((x) >> (y)) : (T)0)
#define EXPR_EQUAL_B(T, UT, x, y) ((x) == (y))
#define EXPR_EQUAL_I EXPR_EQUAL_B
#define EXPR_EQUAL_U EXPR_EQUAL_B
#define EXPR_EQUAL_F EXPR_EQUAL_B
#define EXPR_NOT_EQUAL_B(T, UT, x, y) ((x) != (y))
#define EXPR_NOT_EQUAL_I EXPR_NOT_EQUAL_B
#define EXPR_NOT_EQUAL_U EXPR_NOT_EQUAL_B
#define EXPR_NOT_EQUAL_F EXPR_NOT_EQUAL_B
#define EXPR_LESS_B(T, UT, x, y) ((x) < (y))
#define EXPR_LESS_I EXPR_LESS_B
#define EXPR_LESS_U EXPR_LESS_B
#define EXPR_LESS_F EXPR_LESS_B
#define EXPR_LESS_EQUAL_B(T, UT, x, y) ((x) <= (y))
#define EXPR_LESS_EQUAL_I EXPR_LESS_EQUAL_B
#define EXPR_LESS_EQUAL_U EXPR_LESS_EQUAL_B
#define EXPR_LESS_EQUAL_F EXPR_LESS_EQUAL_B
#define EXPR_GREATER_B(T, UT, x, y) ((x) > (y))
#define EXPR_GREATER_I EXPR_GREATER_B
#define EXPR_GREATER_U EXPR_GREATER_B
#define EXPR_GREATER_F EXPR_GREATER_B
#define EXPR_GREATER_EQUAL_B(T, UT, x, y) ((x) >= (y))
#define EXPR_GREATER_EQUAL_I EXPR_GREATER_EQUAL_B
#define EXPR_GREATER_EQUAL_U EXPR_GREATER_EQUAL_B
#define EXPR_GREATER_EQUAL_F EXPR_GREATER_EQUAL_B
#define EXPR_MAXIMUM_B(T, UT, x, y) ((x) >= (y) ? (x) : (y))
#define EXPR_MAXIMUM_I EXPR_MAXIMUM_B
#define EXPR_MAXIMUM_U EXPR_MAXIMUM_B
#define EXPR_MAXIMUM_F(T, UT, x, y) (((x) > (y) || (x) != (x)) ? (x) : (y))
#define EXPR_MINIMUM_B(T, UT, x, y) ((x) <= (y) ? (x) : (y))
#define EXPR_MINIMUM_I EXPR_MINIMUM_B
#define EXPR_MINIMUM_U EXPR_MINIMUM_B
#define EXPR_MINIMUM_F(T, UT, x, y) (((x) < (y) || (x) != (x)) ? (x) : (y))
#define EXPR_FMAX_B EXPR_MAXIMUM_B
#define EXPR_FMAX_I EXPR_MAXIMUM_B
#define EXPR_FMAX_U EXPR_MAXIMUM_B
#define EXPR_FMAX_F(T, UT, x, y) (((x) > (y) || (y) != (y)) ? (x) : (y))
#define EXPR_FMIN_B EXPR_MINIMUM_B
#define EXPR_FMIN_I EXPR_MINIMUM_B
#define EXPR_FMIN_U EXPR_MINIMUM_B
#define EXPR_FMIN_F(T, UT, x, y) (((x) < (y) || (y) != (y)) ? (x) : (y))
#define EXPR_ARCTAN2_F(T, UT, x, y) MF(T, atan2)(x, y)
#define EXPR_HYPOT_F(T, UT, x, y) MF(T, hypot)(x, y)
#define EXPR_COPYSIGN_F(T, UT, x, y) MF(T, copysign)(x, y)
#define EXPR_FMOD_I(T, UT, x, y) cmod_##T(x, y)
#define EXPR_FMOD_U EXPR_FMOD_I
#define EXPR_FMOD_F(T, UT, x, y) MF(T, fmod)(x, y)
#define EXPR_LOGADDEXP_F(T, UT, x, y) logaddexp_##T(x, y)
#define EXPR_LOGADDEXP2_F(T, UT, x, y) logaddexp2_##T(x, y)
#define EXPR_HEAVISIDE_F(T, UT, x, y) heaviside_##T(x, y)
#define EXPR_NEXTAFTER_F(T, UT, x, y) MF(T, nextafter)(x, y)
#define EXPR_LOGICAL_AND_B(T, UT, x, y) ((x) != 0 && (y) != 0)
#define EXPR_LOGICAL_AND_I EXPR_LOGICAL_AND_B
#define EXPR_LOGICAL_AND_U EXPR_LOGICAL_AND_B
#define EXPR_LOGICAL_AND_F EXPR_LOGICAL_AND_B
#define EXPR_LOGICAL_OR_B(T, UT, x, y) ((x) != 0 || (y) != 0)
#define EXPR_LOGICAL_OR_I EXPR_LOGICAL_OR_B
#define EXPR_LOGICAL_OR_U EXPR_LOGICAL_OR_B
#define EXPR_LOGICAL_OR_F EXPR_LOGICAL_OR_B
#define EXPR_LOGICAL_XOR_B(T, UT, x, y) (((x) != 0) != ((y) != 0))
#define EXPR_LOGICAL_XOR_I EXPR_LOGICAL_XOR_B
#define EXPR_LOGICAL_XOR_U EXPR_LOGICAL_XOR_B
#define EXPR_LOGICAL_XOR_F EXPR_LOGICAL_XOR_B

#define OUTT_SAME(T) T
#define OUTT_BOOL(T) bool

/* The binary ufunc table: (op, kinds with loops, output type). */
#define BINARY_LOOPS(X)                                                                \
  X(ADD, K_ALL, SAME) X(SUBTRACT, K_NUM, SAME) X(MULTIPLY, K_ALL, SAME)                \
  X(TRUE_DIVIDE, K_FLT, SAME) X(FLOOR_DIVIDE, K_NUM, SAME) X(REMAINDER, K_NUM, SAME)   \
  X(POWER, K_NUM, SAME) X(BITWISE_AND, K_INTS, SAME) X(BITWISE_OR, K_INTS, SAME)       \
  X(BITWISE_XOR, K_INTS, SAME) X(LEFT_SHIFT, K_IU, SAME) X(RIGHT_SHIFT, K_IU, SAME)    \
  X(EQUAL, K_ALL, BOOL) X(NOT_EQUAL, K_ALL, BOOL) X(LESS, K_ALL, BOOL)                 \
  X(LESS_EQUAL, K_ALL, BOOL) X(GREATER, K_ALL, BOOL) X(GREATER_EQUAL, K_ALL, BOOL)     \
  X(MAXIMUM, K_ALL, SAME) X(MINIMUM, K_ALL, SAME) X(FMAX, K_ALL, SAME)                 \
  X(FMIN, K_ALL, SAME) X(ARCTAN2, K_FLT, SAME) X(HYPOT, K_FLT, SAME)                   \
  X(COPYSIGN, K_FLT, SAME) X(LOGICAL_AND, K_ALL, BOOL) X(LOGICAL_OR, K_ALL, BOOL)      \
  X(LOGICAL_XOR, K_ALL, BOOL) X(FMOD, K_NUM, SAME) X(LOGADDEXP, K_FLT, SAME)           \
  X(LOGADDEXP2, K_FLT, SAME) X(HEAVISIDE, K_FLT, SAME) X(NEXTAFTER, K_FLT, SAME)

/* One typed inner loop: out[i] = EXPR(x = a[i], y = b[i]).  Fast paths: all contiguous, and
   one operand a broadcast scalar (step 0); else strided. */
#define BIN_LOOP(FN, T, OT, EXPR)                                                      \
  KERNEL_CLONES static void FN(char **d, const int64_t *s, int64_t n, void *aux) {                   \
    (void)aux;                                                                         \
    const int64_t is = (int64_t)sizeof(T), os = (int64_t)sizeof(OT);                   \
    OT *o = (OT *)d[0];                                                                \
    const T *pa = (const T *)d[1], *pb = (const T *)d[2];                              \
    if (s[0] == os && s[1] == is && s[2] == is) {                                      \
      for (int64_t i = 0; i < n; i++) { T x = pa[i], y = pb[i]; o[i] = (OT)(EXPR); }   \
    } else if (s[0] == os && s[1] == is && s[2] == 0) {                                \
      const T y = *pb;                                                                 \
      for (int64_t i = 0; i < n; i++) { T x = pa[i]; o[i] = (OT)(EXPR); }              \
    } else if (s[0] == os && s[1] == 0 && s[2] == is) {                                \
      const T x = *pa;                                                                 \
      for (int64_t i = 0; i < n; i++) { T y = pb[i]; o[i] = (OT)(EXPR); }              \
    } else {                                                                           \
      char *po = d[0]; const char *qa = d[1], *qb = d[2];                              \
      for (int64_t i = 0; i < n; i++, po += s[0], qa += s[1], qb += s[2]) {            \
        T x = *(const T *)qa, y = *(const T *)qb;                                      \
        *(OT *)po = (OT)(EXPR);                                                        \
      }                                                                                \
    }                                                                                  \
  }

#define BIN_DEF1(OP, TAG, T, UT, K) \
  BIN_LOOP(bin_##OP##_##T, T, OUTT_##OP##_(T), EXPR_##OP##_##K(T, UT, x, y))
#define BIN_DEF(OP, KS, OUT) KS(BIN_DEF1, OP)
#define BIN_TAB1(OP, TAG, T, UT, K) [UF_##OP][TAG] = bin_##OP##_##T,
#define BIN_TAB(OP, KS, OUT) KS(BIN_TAB1, OP)

/* OUTT_<OP>_ maps each op to its output type macro */
#define OUTT_ADD_ OUTT_SAME
#define OUTT_SUBTRACT_ OUTT_SAME
#define OUTT_MULTIPLY_ OUTT_SAME
#define OUTT_TRUE_DIVIDE_ OUTT_SAME
#define OUTT_FLOOR_DIVIDE_ OUTT_SAME
#define OUTT_REMAINDER_ OUTT_SAME
#define OUTT_POWER_ OUTT_SAME
#define OUTT_BITWISE_AND_ OUTT_SAME
#define OUTT_BITWISE_OR_ OUTT_SAME
#define OUTT_BITWISE_XOR_ OUTT_SAME
#define OUTT_LEFT_SHIFT_ OUTT_SAME
#define OUTT_RIGHT_SHIFT_ OUTT_SAME
#define OUTT_EQUAL_ OUTT_BOOL
#define OUTT_NOT_EQUAL_ OUTT_BOOL
#define OUTT_LESS_ OUTT_BOOL
#define OUTT_LESS_EQUAL_ OUTT_BOOL
#define OUTT_GREATER_ OUTT_BOOL
#define OUTT_GREATER_EQUAL_ OUTT_BOOL
#define OUTT_MAXIMUM_ OUTT_SAME
#define OUTT_MINIMUM_ OUTT_SAME
#define OUTT_FMAX_ OUTT_SAME
#define OUTT_FMIN_ OUTT_SAME
#define OUTT_ARCTAN2_ OUTT_SAME
#define OUTT_HYPOT_ OUTT_SAME
#define OUTT_COPYSIGN_ OUTT_SAME
#define OUTT_LOGICAL_AND_ OUTT_BOOL
#define OUTT_LOGICAL_OR_ OUTT_BOOL
#define OUTT_LOGICAL_XOR_ OUTT_BOOL
#define OUTT_FMOD_ OUTT_SAME
#define OUTT_LOGADDEXP_ OUTT_SAME
#define OUTT_LOGADDEXP2_ OUTT_SAME
#define OUTT_HEAVISIDE_ OUTT_SAME
#define OUTT_NEXTAFTER_ OUTT_SAME

BINARY_LOOPS(BIN_DEF)
static const InnerLoop binary_loops[UF_BINARY_COUNT][DTYPE_COUNT] = { BINARY_LOOPS(BIN_TAB) };

static bool binary_is_predicate(BinaryUfunc op) {
  switch (op) {
  case UF_EQUAL: case UF_NOT_EQUAL: case UF_LESS: case UF_LESS_EQUAL: case UF_GREATER:
  case UF_GREATER_EQUAL: case UF_LOGICAL_AND: case UF_LOGICAL_OR: case UF_LOGICAL_XOR:
    return true;
  default:
    return false;
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Unary expressions: EXPR_<OP>_<kind>(T, UT, x). */

#define EXPR_NEGATIVE_I(T, UT, x) ((T)(0u - (UT)(x)))
#define EXPR_NEGATIVE_U EXPR_NEGATIVE_I
#define EXPR_NEGATIVE_F(T, UT, x) (-(x))
#define EXPR_POSITIVE_I(T, UT, x) (x)
#define EXPR_POSITIVE_U EXPR_POSITIVE_I
#define EXPR_POSITIVE_F EXPR_POSITIVE_I
#define EXPR_INVERT_B(T, UT, x) (!(x))
#define EXPR_INVERT_I(T, UT, x) ((T)~(x))
#define EXPR_INVERT_U EXPR_INVERT_I
#define EXPR_ABSOLUTE_B(T, UT, x) (x)
#define EXPR_ABSOLUTE_I(T, UT, x) ((x) < 0 ? (T)(0u - (UT)(x)) : (x))
#define EXPR_ABSOLUTE_U(T, UT, x) (x)
#define EXPR_ABSOLUTE_F(T, UT, x) MF(T, fabs)(x)
#define EXPR_SQRT_F(T, UT, x) MF(T, sqrt)(x)
#define EXPR_SQUARE_I(T, UT, x) ((T)(1u * (UT)(x) * (UT)(x)))
#define EXPR_SQUARE_U EXPR_SQUARE_I
#define EXPR_SQUARE_F(T, UT, x) ((x) * (x))
#define EXPR_EXP_F(T, UT, x) MF(T, exp)(x)
#define EXPR_EXP2_F(T, UT, x) MF(T, exp2)(x)
#define EXPR_EXPM1_F(T, UT, x) MF(T, expm1)(x)
#define EXPR_LOG_F(T, UT, x) MF(T, log)(x)
#define EXPR_LOG2_F(T, UT, x) MF(T, log2)(x)
#define EXPR_LOG10_F(T, UT, x) MF(T, log10)(x)
#define EXPR_LOG1P_F(T, UT, x) MF(T, log1p)(x)
#define EXPR_SIN_F(T, UT, x) MF(T, sin)(x)
#define EXPR_COS_F(T, UT, x) MF(T, cos)(x)
#define EXPR_TAN_F(T, UT, x) MF(T, tan)(x)
#define EXPR_ARCSIN_F(T, UT, x) MF(T, asin)(x)
#define EXPR_ARCCOS_F(T, UT, x) MF(T, acos)(x)
#define EXPR_ARCTAN_F(T, UT, x) MF(T, atan)(x)
#define EXPR_SINH_F(T, UT, x) MF(T, sinh)(x)
#define EXPR_COSH_F(T, UT, x) MF(T, cosh)(x)
#define EXPR_TANH_F(T, UT, x) MF(T, tanh)(x)
#define EXPR_FLOOR_F(T, UT, x) MF(T, floor)(x)
#define EXPR_CEIL_F(T, UT, x) MF(T, ceil)(x)
#define EXPR_TRUNC_F(T, UT, x) MF(T, trunc)(x)
#define EXPR_RINT_F(T, UT, x) MF(T, rint)(x)
#define EXPR_SIGN_I(T, UT, x) ((T)(((x) > 0) - ((x) < 0)))
#define EXPR_SIGN_U(T, UT, x) ((T)((x) > 0))
#define EXPR_SIGN_F(T, UT, x) ((x) > 0 ? (T)1 : (x) < 0 ? (T)-1 : (x) == 0 ? (T)0 : (x))
#define EXPR_ISNAN_B(T, UT, x) ((void)(x), false)
#define EXPR_ISNAN_I EXPR_ISNAN_B
#define EXPR_ISNAN_U EXPR_ISNAN_B
#define EXPR_ISNAN_F(T, UT, x) ((x) != (x))
#define EXPR_ISINF_B EXPR_ISNAN_B
#define EXPR_ISINF_I EXPR_ISNAN_B
#define EXPR_ISINF_U EXPR_ISNAN_B
#define EXPR_ISINF_F(T, UT, x) (isinf(x) != 0)
#define EXPR_ISFINITE_B(T, UT, x) ((void)(x), true)
#define EXPR_ISFINITE_I EXPR_ISFINITE_B
#define EXPR_ISFINITE_U EXPR_ISFINITE_B
#define EXPR_ISFINITE_F(T, UT, x) (isfinite(x) != 0)
#define EXPR_LOGICAL_NOT_B(T, UT, x) ((x) == 0)
#define EXPR_LOGICAL_NOT_I EXPR_LOGICAL_NOT_B
#define EXPR_LOGICAL_NOT_U EXPR_LOGICAL_NOT_B
#define EXPR_LOGICAL_NOT_F EXPR_LOGICAL_NOT_B
/* integer 1/x: NumPy computes 1.0/x and casts, so 1/0 is the cast of inf (which raises
   the divide and invalid flags) */
static inline void recip_zero(void) { fperr_raise(FPE_DIVIDE | FPE_INVALID); }
#define EXPR_RECIPROCAL_I(T, UT, x) \
  ((x) == 0 ? (recip_zero(), (T)(sizeof(T) == 4 ? INT32_MIN : sizeof(T) == 8 ? INT64_MIN : 0)) \
            : (x) == 1 ? (T)1 : (x) == -1 ? (T)-1 : (T)0)
#define EXPR_RECIPROCAL_U(T, UT, x) ((x) == 0 ? (recip_zero(), (T)0) : (T)((x) == 1))
#define EXPR_RECIPROCAL_F(T, UT, x) ((T)1 / (x))
#define EXPR_ARCSINH_F(T, UT, x) MF(T, asinh)(x)
#define EXPR_ARCCOSH_F(T, UT, x) MF(T, acosh)(x)
#define EXPR_ARCTANH_F(T, UT, x) MF(T, atanh)(x)
#define EXPR_CBRT_F(T, UT, x) MF(T, cbrt)(x)
/* npy_deg2rad / npy_rad2deg: one multiplication by the constant computed in T from pi rounded
   to T (in float32 180/pi is then 57.295776, not 57.29578: NumPy's rad2deg(-1.0f)) */
#define EXPR_DEG2RAD_F(T, UT, x) ((x) * ((T)3.141592653589793238462643383279502884 / (T)180.0))
#define EXPR_RAD2DEG_F(T, UT, x) ((x) * ((T)180.0 / (T)3.141592653589793238462643383279502884))
#define EXPR_RADIANS_F EXPR_DEG2RAD_F
#define EXPR_DEGREES_F EXPR_RAD2DEG_F
#define EXPR_FABS_F(T, UT, x) MF(T, fabs)(x)
#define EXPR_SIGNBIT_F(T, UT, x) (signbit(x) != 0)

#define UNARY_LOOPS(X)                                                                 \
  X(NEGATIVE, K_NUM, SAME) X(POSITIVE, K_NUM, SAME) X(INVERT, K_INTS, SAME)            \
  X(ABSOLUTE, K_ALL, SAME) X(SQRT, K_FLT, SAME) X(SQUARE, K_NUM, SAME)                 \
  X(EXP, K_FLT, SAME) X(EXP2, K_FLT, SAME) X(EXPM1, K_FLT, SAME) X(LOG, K_FLT, SAME)   \
  X(LOG2, K_FLT, SAME) X(LOG10, K_FLT, SAME) X(LOG1P, K_FLT, SAME)                     \
  X(SIN, K_FLT, SAME) X(COS, K_FLT, SAME) X(TAN, K_FLT, SAME) X(ARCSIN, K_FLT, SAME)   \
  X(ARCCOS, K_FLT, SAME) X(ARCTAN, K_FLT, SAME) X(SINH, K_FLT, SAME)                   \
  X(COSH, K_FLT, SAME) X(TANH, K_FLT, SAME) X(FLOOR, K_FLT, SAME) X(CEIL, K_FLT, SAME) \
  X(TRUNC, K_FLT, SAME) X(RINT, K_FLT, SAME) X(SIGN, K_NUM, SAME)                      \
  X(ISNAN, K_ALL, BOOL) X(ISINF, K_ALL, BOOL) X(ISFINITE, K_ALL, BOOL)                 \
  X(LOGICAL_NOT, K_ALL, BOOL) X(RECIPROCAL, K_NUM, SAME) X(ARCSINH, K_FLT, SAME)      \
  X(ARCCOSH, K_FLT, SAME) X(ARCTANH, K_FLT, SAME) X(CBRT, K_FLT, SAME)                 \
  X(DEG2RAD, K_FLT, SAME) X(RAD2DEG, K_FLT, SAME) X(RADIANS, K_FLT, SAME)              \
  X(DEGREES, K_FLT, SAME) X(FABS, K_FLT, SAME) X(SIGNBIT, K_FLT, BOOL)

#define UN_LOOP(FN, T, OT, EXPR)                                                       \
  KERNEL_CLONES static void FN(char **d, const int64_t *s, int64_t n, void *aux) {                   \
    (void)aux;                                                                         \
    if (s[0] == (int64_t)sizeof(OT) && s[1] == (int64_t)sizeof(T)) {                   \
      OT *o = (OT *)d[0]; const T *pa = (const T *)d[1];                               \
      for (int64_t i = 0; i < n; i++) { T x = pa[i]; o[i] = (OT)(EXPR); }              \
    } else {                                                                           \
      char *po = d[0]; const char *qa = d[1];                                          \
      for (int64_t i = 0; i < n; i++, po += s[0], qa += s[1]) {                        \
        T x = *(const T *)qa;                                                          \
        *(OT *)po = (OT)(EXPR);                                                        \
      }                                                                                \
    }                                                                                  \
  }
#define UN_DEF1(OP, TAG, T, UT, K) \
  UN_LOOP(un_##OP##_##T, T, UOUT_##OP(T), EXPR_##OP##_##K(T, UT, x))
#define UN_DEF(OP, KS, OUT) KS(UN_DEF1, OP)
#define UN_TAB1(OP, TAG, T, UT, K) [UF_##OP][TAG] = un_##OP##_##T,
#define UN_TAB(OP, KS, OUT) KS(UN_TAB1, OP)
#define UOUT_ISNAN OUTT_BOOL
#define UOUT_ISINF OUTT_BOOL
#define UOUT_ISFINITE OUTT_BOOL
#define UOUT_LOGICAL_NOT OUTT_BOOL
#define UOUT_NEGATIVE OUTT_SAME
#define UOUT_POSITIVE OUTT_SAME
#define UOUT_INVERT OUTT_SAME
#define UOUT_ABSOLUTE OUTT_SAME
#define UOUT_SQRT OUTT_SAME
#define UOUT_SQUARE OUTT_SAME
#define UOUT_EXP OUTT_SAME
#define UOUT_EXP2 OUTT_SAME
#define UOUT_EXPM1 OUTT_SAME
#define UOUT_LOG OUTT_SAME
#define UOUT_LOG2 OUTT_SAME
#define UOUT_LOG10 OUTT_SAME
#define UOUT_LOG1P OUTT_SAME
#define UOUT_SIN OUTT_SAME
#define UOUT_COS OUTT_SAME
#define UOUT_TAN OUTT_SAME
#define UOUT_ARCSIN OUTT_SAME
#define UOUT_ARCCOS OUTT_SAME
#define UOUT_ARCTAN OUTT_SAME
#define UOUT_SINH OUTT_SAME
#define UOUT_COSH OUTT_SAME
#define UOUT_TANH OUTT_SAME
#define UOUT_FLOOR OUTT_SAME
#define UOUT_CEIL OUTT_SAME
#define UOUT_TRUNC OUTT_SAME
#define UOUT_RINT OUTT_SAME
#define UOUT_SIGN OUTT_SAME
#define UOUT_RECIPROCAL OUTT_SAME
#define UOUT_ARCSINH OUTT_SAME
#define UOUT_ARCCOSH OUTT_SAME
#define UOUT_ARCTANH OUTT_SAME
#define UOUT_CBRT OUTT_SAME
#define UOUT_DEG2RAD OUTT_SAME
#define UOUT_RAD2DEG OUTT_SAME
#define UOUT_RADIANS OUTT_SAME
#define UOUT_DEGREES OUTT_SAME
#define UOUT_FABS OUTT_SAME
#define UOUT_SIGNBIT OUTT_BOOL

UNARY_LOOPS(UN_DEF)
static const InnerLoop unary_loops[UF_UNARY_COUNT][DTYPE_COUNT] = { UNARY_LOOPS(UN_TAB) };

/* ---------------------------------------------------------------------------------------- */
/* Exact comparisons of a signed integer (as int64) with a uint64; aux is the BinaryUfunc.
   Operand 1 is int64 and operand 2 uint64, or the reverse when aux is negated. */

typedef struct { BinaryUfunc op; bool swapped; } MixedCmp;

static void mixed_cmp_loop(char **d, const int64_t *s, int64_t n, void *aux) {
  const MixedCmp *m = aux;
  char *po = d[0];
  const char *qa = d[1], *qb = d[2];
  for (int64_t i = 0; i < n; i++, po += s[0], qa += s[1], qb += s[2]) {
    int64_t x = *(const int64_t *)(m->swapped ? qb : qa);
    uint64_t y = *(const uint64_t *)(m->swapped ? qa : qb);
    int c = x < 0 ? -1 : ((uint64_t)x < y ? -1 : (uint64_t)x > y);   /* sign of x - y */
    if (m->swapped) c = -c;
    bool r;
    switch (m->op) {
    case UF_EQUAL: r = c == 0; break;
    case UF_NOT_EQUAL: r = c != 0; break;
    case UF_LESS: r = c < 0; break;
    case UF_LESS_EQUAL: r = c <= 0; break;
    case UF_GREATER: r = c > 0; break;
    default: r = c >= 0; break;
    }
    *(bool *)po = r;
  }
}

/* ---------------------------------------------------------------------------------------- */
/* Type resolution */

static DType min_scalar_type(int64_t v) {
  if (v >= 0) {
    if (v <= UINT8_MAX) return TSR_UINT8;
    if (v <= UINT16_MAX) return TSR_UINT16;
    if (v <= (int64_t)UINT32_MAX) return TSR_UINT32;
    return TSR_UINT64;
  }
  if (v >= INT8_MIN) return TSR_INT8;
  if (v >= INT16_MIN) return TSR_INT16;
  if (v >= INT32_MIN) return TSR_INT32;
  return TSR_INT64;
}

static bool int_fits(DType d, int64_t v) {
  switch (d) {
  case TSR_INT8: return v >= INT8_MIN && v <= INT8_MAX;
  case TSR_INT16: return v >= INT16_MIN && v <= INT16_MAX;
  case TSR_INT32: return v >= INT32_MIN && v <= INT32_MAX;
  case TSR_INT64: return true;
  case TSR_UINT8: return v >= 0 && v <= UINT8_MAX;
  case TSR_UINT16: return v >= 0 && v <= UINT16_MAX;
  case TSR_UINT32: return v >= 0 && v <= (int64_t)UINT32_MAX;
  case TSR_UINT64: return v >= 0;
  default: return false;
  }
}

/* The dtype a weak Python scalar w takes next to a strong dtype d.  NEP 50 when the value
   fits; a Python int that does not fit d promotes as NumPy 1.24's value-based casting does
   (int8 array + 200 is int16), and likewise a float beyond float32's range. */
static DType weak_dtype(const Tensor *w, DType d) {
  switch ((WeakKind)w->weak) {
  case WEAK_INT:
    if (dtype_is_int(d)) {
      int64_t v = dtype_get_i64(w->dtype, tensor_data(w));
      if (int_fits(d, v)) return d;
      if (v >= 0 && !dtype_is_unsigned(d))   /* a signed array takes a signed type: int8 + 300 is int16 */
        return dtype_promote(d, v <= INT16_MAX ? TSR_INT16 : v <= INT32_MAX ? TSR_INT32 : TSR_INT64);
      return dtype_promote(d, min_scalar_type(v));
    }
    return dtype_promote_weak(d, WEAK_INT);
  case WEAK_FLOAT:
    if (d == TSR_FLOAT32) {
      double v = dtype_get_f64(w->dtype, tensor_data(w));
      return (isfinite(v) && fabs(v) > FLT_MAX) ? TSR_FLOAT64 : TSR_FLOAT32;
    }
    return dtype_promote_weak(d, WEAK_FLOAT);
  default:
    return d;
  }
}

/* Common dtype of operands under NEP 50: weak scalars adapt to the strong operands. */
static DType common_dtype(int n, Tensor *const *ts) {
  int strong = -1;
  DType ct = TSR_BOOL;
  for (int k = 0; k < n; k++) {
    if (!ts[k] || ts[k]->weak) continue;
    ct = strong < 0 ? ts[k]->dtype : dtype_promote(ct, ts[k]->dtype);
    strong = k;
  }
  if (strong < 0) {   /* all weak: Python scalar promotion */
    bool first = true;
    for (int k = 0; k < n; k++) {
      if (!ts[k]) continue;
      ct = first ? ts[k]->dtype : dtype_promote(ct, ts[k]->dtype);
      first = false;
    }
    return ct;
  }
  DType base = ct;
  for (int k = 0; k < n; k++)
    if (ts[k] && ts[k]->weak) ct = dtype_promote(ct, weak_dtype(ts[k], base));
  return ct;
}

/* The float type NumPy computes a transcendental function of dt in (float16 -> float32). */
static DType float_for(DType dt) {
  if (dtype_is_float(dt)) return dt;
  return dtype_size(dt) <= 2 ? TSR_FLOAT32 : TSR_FLOAT64;
}

/* numpy.can_cast(from, to, 'safe'); TSR_FLOAT32 also stands for float16 here. */
static bool can_cast_safe(DType from, DType to) {
  char f = dtype_info[from].kind, t = dtype_info[to].kind;
  size_t fs = dtype_size(from), ts = dtype_size(to);
  switch (f) {
  case 'b': return true;
  case 'i': return (t == 'i' && ts >= fs) || (t == 'f' && (ts == 8 || fs <= 2));
  case 'u': return (t == 'u' && ts >= fs) || (t == 'i' && ts > fs) ||
                   (t == 'f' && (ts == 8 || fs <= 2));
  default: return t == 'f' && ts >= fs;
  }
}

/* NumPy 1.24's default ufunc type resolution (floor_divide, remainder, power, bitwise ops,
   shifts, arctan2, hypot, copysign): the first loop, in the order bool, int8, uint8, ...,
   float16 (float32 in tsr), float32, float64, that every operand casts to safely.  A Python
   scalar of a kind no higher than the arrays' is cast by value (uint8 // 300 is int16);
   otherwise it counts as int64 / float64.  Returns 0 and sets *ct, or -1 if no loop fits. */
static int linear_resolve(BinaryUfunc op, int n, Tensor *const *ts, DType *ct) {
  static const DType order[] = {TSR_BOOL, TSR_INT8, TSR_UINT8, TSR_INT16, TSR_UINT16,
                                TSR_INT32, TSR_UINT32, TSR_INT64, TSR_UINT64, TSR_FLOAT32,
                                TSR_FLOAT32, TSR_FLOAT64};
  int strong_cat = -1;
  for (int k = 0; k < n; k++)
    if (!ts[k]->weak) {
      char kd = dtype_info[ts[k]->dtype].kind;
      int cat = kd == 'b' ? 0 : kd == 'f' ? 2 : 1;
      if (cat > strong_cat) strong_cat = cat;
    }
  for (size_t j = 0; j < sizeof order / sizeof order[0]; j++) {
    DType t = order[j];
    bool half = j == 9;   /* the float16 slot */
    if (!binary_loops[op][t]) continue;
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
      const Tensor *x = ts[k];
      int cat = x->weak == WEAK_BOOL ? 0 : x->weak == WEAK_INT ? 1 : 2;
      if (!x->weak || cat > strong_cat) {
        DType d = x->dtype;
        ok = can_cast_safe(d, t) && !(half && dtype_size(d) > 1 && d != TSR_BOOL);
        if (half && (d == TSR_FLOAT32 || d == TSR_FLOAT64)) ok = false;
      } else if (x->weak == WEAK_INT) {
        int64_t v = dtype_get_i64(x->dtype, tensor_data(x));
        if (dtype_is_int(t)) ok = int_fits(t, v);
        else if (t == TSR_BOOL) ok = false;
        else ok = half ? dtype_size(min_scalar_type(v)) == 1 : can_cast_safe(min_scalar_type(v), t);
      } else if (x->weak == WEAK_FLOAT) {
        double v = fabs(dtype_get_f64(x->dtype, tensor_data(x)));
        ok = dtype_is_float(t) &&
             (t == TSR_FLOAT64 || !isfinite(v) || v <= (half ? 65504.0 : FLT_MAX));
      }
    }
    if (ok) { *ct = t; return 0; }
  }
  return -1;
}

static int no_loop_error(Ctx *c, const char *name) {
  return ERR_TYPE(c, "ufunc '%s' not supported for the input types, and the inputs could not "
                     "be safely coerced to any supported types according to the casting rule "
                     "''safe''", name);
}

/* numpy.can_cast(from, to, 'same_kind') */
static bool can_cast_same_kind(DType from, DType to) {
  char f = dtype_info[from].kind, t = dtype_info[to].kind;
  switch (f) {
  case 'b': return true;
  case 'u': return t != 'b';
  case 'i': return t == 'i' || t == 'f';
  default: return t == 'f';
  }
}

/* Same elements in the same order (so an in-place kernel may read and write them). */
static bool same_view(const Tensor *a, const Tensor *b) {
  if (a->storage->data != b->storage->data || a->dtype != b->dtype || a->ndim != b->ndim ||
      a->offset != b->offset)
    return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->strides[i] != b->strides[i]))
      return false;
  return true;
}

/* Validates out= against the broadcast shape and the result dtype (NumPy's same_kind rule). */
static int check_out(Ctx *c, const char *name, Tensor *out, int nd, const int64_t *shape,
                     DType ot) {
  bool ok = out->ndim >= nd;
  for (int i = 0; ok && i < nd; i++) {
    int64_t s = shape[nd - 1 - i], o = out->shape[out->ndim - 1 - i];
    ok = s == o || s == 1;
  }
  if (!ok) {
    Buf b1, b2;
    buf_init(&b1, c); buf_init(&b2, c);
    shape_format_compact(&b1, out->ndim, out->shape);
    shape_format_compact(&b2, nd, shape);
    ERR_VALUE(c, "non-broadcastable output operand with shape %s doesn't match the broadcast "
                 "shape %s", buf_str(&b1), buf_str(&b2));
    buf_free(&b1); buf_free(&b2);
    return -1;
  }
  if (!can_cast_same_kind(ot, out->dtype))
    return ERR_OUTPUT_CAST(c, name, dtype_name(ot), dtype_name(out->dtype));
  return tensor_check_writable(c, out);
}

/* An operand ready for the kernel, broadcast to (nd, shape): copied when it overlaps the
   output other than element for element; cast to dt now when it is a single element (so the
   scalar fast paths apply), else left in its own dtype for the chunked cast of cast_wrapper.
   New reference or NULL. */
static Tensor *prepare_operand(Ctx *c, Tensor *t, DType dt, Tensor *target, int nd,
                               const int64_t *shape) {
  Tensor *u, *r;
  if (t->dtype != dt && tensor_size(t) <= 1)
    u = tensor_astype(c, t, dt);
  else if (target && tensor_may_overlap(target, t) && !same_view(target, t))
    u = tensor_copy(c, t);
  else
    u = tensor_retain(t);
  if (!u) return NULL;
  r = tensor_broadcast_to(c, u, nd, shape);
  tensor_release(u);
  return r;
}

/* Mixed dtypes: inputs whose dtype differs from the loop's are cast block by block into
   stack buffers, then the same-dtype loop runs on the blocks (no allocation). */
#define CAST_BLOCK 1024
typedef struct CastAux {
  InnerLoop loop; void *aux;
  int nin;
  DType src[3], dst[3];
} CastAux;

static void cast_wrapper(char **d, const int64_t *s, int64_t n, void *aux) {
  const CastAux *ca = aux;
  _Alignas(64) char bufs[3][CAST_BLOCK * 8];
  char *dd[4];
  int64_t ss[4];
  for (int64_t j = 0; j < n; j += CAST_BLOCK) {
    int64_t m = n - j < CAST_BLOCK ? n - j : CAST_BLOCK;
    dd[0] = d[0] + j * s[0];
    ss[0] = s[0];
    for (int k = 0; k < ca->nin; k++) {
      char *p = d[k + 1] + j * s[k + 1];
      if (ca->src[k] == ca->dst[k]) { dd[k + 1] = p; ss[k + 1] = s[k + 1]; continue; }
      int64_t cnt = s[k + 1] == 0 ? 1 : m;
      dtype_cast_strided(ca->dst[k], bufs[k], (int64_t)dtype_size(ca->dst[k]), ca->src[k], p,
                         s[k + 1], cnt);
      dd[k + 1] = bufs[k];
      ss[k + 1] = s[k + 1] == 0 ? 0 : (int64_t)dtype_size(ca->dst[k]);
    }
    ca->loop(dd, ss, m, ca->aux);
  }
}

/* Runs loop over (result, inputs...) and delivers into out: when out has the result dtype the
   kernel writes into it directly, else into a temporary that is then cast into out.  Returns
   a new reference to the result (out itself when given), or NULL. */
static Tensor *run_kernel(Ctx *c, const char *name, int nin, Tensor *const *in,
                          const DType *in_dt, DType ot, Tensor *out, InnerLoop loop, void *aux) {
  Tensor *ops[4] = {NULL, NULL, NULL, NULL}, *tmp = NULL;
  CastAux ca = {loop, aux, nin, {TSR_BOOL, TSR_BOOL, TSR_BOOL}, {TSR_BOOL, TSR_BOOL, TSR_BOOL}};
  bool need_cast = false;
  int nd;
  int64_t shape[TSR_MAXDIMS];
  if (broadcast_shapes(c, nin, in, &nd, shape) < 0) return NULL;
  if (out) {
    if (check_out(c, name, out, nd, shape, ot) < 0) return NULL;
    nd = out->ndim;
    for (int i = 0; i < nd; i++) shape[i] = out->shape[i];
  }
  if (out && out->dtype == ot) {
    ops[0] = tensor_retain(out);
  } else {
    ops[0] = tensor_empty(c, ot, nd, shape);
    if (!ops[0]) goto fail;
  }
  for (int k = 0; k < nin; k++) {
    ops[k + 1] = prepare_operand(c, in[k], in_dt[k], out ? ops[0] : NULL, nd, shape);
    if (!ops[k + 1]) goto fail;
    ca.src[k] = ops[k + 1]->dtype;
    ca.dst[k] = in_dt[k];
    if (ca.src[k] != ca.dst[k]) need_cast = true;
  }
  if (need_cast ? iter_run_parallel(c, nin + 1, ops, cast_wrapper, &ca) < 0
                : iter_run_parallel(c, nin + 1, ops, loop, aux) < 0)
    goto fail;
  if (out && ops[0] != out) {
    if (tensor_assign(c, out, ops[0]) < 0) goto fail;
    tmp = ops[0];
    ops[0] = tensor_retain(out);
  }
  for (int k = 1; k <= nin; k++) tensor_release(ops[k]);
  tensor_release(tmp);
  return ops[0];
fail:
  for (int k = 0; k <= nin; k++) tensor_release(ops[k]);
  tensor_release(tmp);
  return NULL;
}

static void neg_scan_loop(char **d, const int64_t *s, int64_t n, void *aux) {
  bool *found = aux;
  const char *p = d[0];
  for (int64_t i = 0; i < n; i++, p += s[0])
    if (*(const int64_t *)p < 0) *found = true;
}

/* Does the signed-integer tensor t hold a negative value? */
static int has_negative(Ctx *c, Tensor *t, bool *found) {
  Tensor *u = tensor_contiguous(c, t, TSR_INT64);
  if (!u) return -1;
  *found = false;
  int r = iter_run(c, 1, &u, neg_scan_loop, found);
  tensor_release(u);
  return r;
}

/* ---------------------------------------------------------------------------------------- */
/* Floating-point errors (fperr.c): the flags are cleared before a ufunc's kernel and read
   after it (the pool hands its workers' flags back to the caller), then reported under the
   name NumPy 1.24 uses. */

/* Does op raise flags that NumPy reports?  Comparisons, maximum/minimum, copysign, bitwise
   and logical ufuncs never do (a NaN operand may set the invalid flag in a compare
   instruction; NumPy ignores it). */
static bool binary_reports(BinaryUfunc op) {
  switch (op) {
  case UF_ADD: case UF_SUBTRACT: case UF_MULTIPLY: case UF_TRUE_DIVIDE: case UF_FLOOR_DIVIDE:
  case UF_REMAINDER: case UF_POWER: case UF_ARCTAN2: case UF_HYPOT: case UF_FMOD:
  case UF_LOGADDEXP: case UF_LOGADDEXP2: case UF_NEXTAFTER:
    return true;
  default:
    return false;
  }
}

bool ufunc_unary_reports(UnaryUfunc op) {
  switch (op) {
  case UF_SQRT: case UF_SQUARE: case UF_EXP: case UF_EXP2: case UF_EXPM1: case UF_LOG:
  case UF_LOG2: case UF_LOG10: case UF_LOG1P: case UF_SIN: case UF_COS: case UF_TAN:
  case UF_ARCSIN: case UF_ARCCOS: case UF_ARCTAN: case UF_SINH: case UF_COSH: case UF_TANH:
  case UF_RECIPROCAL: case UF_ARCSINH: case UF_ARCCOSH: case UF_ARCTANH: case UF_CBRT:
  case UF_DEG2RAD: case UF_RAD2DEG: case UF_RADIANS: case UF_DEGREES: case UF_FABS:
    return true;
  default:
    return false;
  }
}

bool ufunc_binary_reports(BinaryUfunc op) { return binary_reports(op); }

/* A NumPy scalar (x.sum(), x[0]) or a Python scalar: 0-d and not a real 0-d array. */
static bool is_scalar(const Tensor *t) { return t->ndim == 0 && !t->ndarray; }

const char *ufunc_binary_fpname(BinaryUfunc op, DType ct, const Tensor *a, const Tensor *b,
                                char *buf, size_t size) {
  const char *name = binary_ufunc_names[op];
  /* (b->storage: fuse.c's stand-ins for computed operands have no data to read) */
  if (op == UF_POWER && dtype_is_float(ct) && !is_scalar(a) && b->ndim == 0 && b->storage) {
    double e = dtype_get_f64(b->dtype, tensor_data(b));
    if (e == 2) return "square";
    if (e == -1) return "reciprocal";
    if (e == 0.5) return "sqrt";
  }
  /* NumPy's scalar math: both operands scalars, one of them a NumPy scalar (two Python
     scalars reach a ufunc only through a call such as divide(1.0, 0.0)) */
  if (!is_scalar(a) || !is_scalar(b) || (a->weak && b->weak)) return name;
  /* only the operators have scalar math: arctan2, fmod, logaddexp ... are always calls */
  if (op > UF_RIGHT_SHIFT) return name;
  snprintf(buf, size, "scalar %s", name);
  return buf;
}

/* NumPy's scalar math checks integer add, subtract and multiply for overflow: does op on the
   scalars a and b (in the integer loop dtype ct) overflow? */
static bool scalar_int_overflow(BinaryUfunc op, DType ct, const Tensor *a, const Tensor *b) {
  if (a->weak && b->weak) return false;
  if (dtype_is_unsigned(ct)) {   /* exact in 128 unsigned bits: (2^64 - 1)^2 < 2^128 */
    unsigned __int128 x = dtype_get_u64(a->dtype, tensor_data(a)),
                      y = dtype_get_u64(b->dtype, tensor_data(b)), r;
    unsigned __int128 hi = ((unsigned __int128)1 << (8 * dtype_size(ct))) - 1;
    switch (op) {
    case UF_ADD: r = x + y; break;
    case UF_SUBTRACT: return x < y;
    case UF_MULTIPLY: r = x * y; break;
    default: return false;
    }
    return r > hi;
  }
  __int128 x = dtype_get_i64(a->dtype, tensor_data(a)), y = dtype_get_i64(b->dtype, tensor_data(b));
  __int128 hi = ((__int128)1 << (8 * dtype_size(ct) - 1)) - 1, lo = -hi - 1, r;
  switch (op) {   /* exact: |x|, |y| <= 2^63 */
  case UF_ADD: r = x + y; break;
  case UF_SUBTRACT: r = x - y; break;
  case UF_MULTIPLY: r = x * y; break;
  default: return false;
  }
  return r < lo || r > hi;
}

/* After a kernel run with the flags cleared: reports flags f (what it raised, plus flags
   found otherwise) under name.  Returns r, or NULL (r released) when the report raised
   FloatingPointError. */
static Tensor *fp_finish(Ctx *c, Tensor *r, int f, const char *name) {
  if (f && fperr_report(c, f, name) < 0) { tensor_release(r); return NULL; }
  return r;
}

int ufunc_binary_resolve(Ctx *c, BinaryUfunc op, Tensor *a, Tensor *b, DType *ct_out,
                         DType *ot_out) {
  const char *name = binary_ufunc_names[op];
  Tensor *in[2] = {a, b};
  DType ct = common_dtype(2, in);
  switch (op) {
  case UF_SUBTRACT:
    if (ct == TSR_BOOL)
      return ERR_TYPE(c, "numpy boolean subtract, the `-` operator, is not supported, use the "
                         "bitwise_xor, the `^` operator, or the logical_xor function instead.");
    break;
  case UF_TRUE_DIVIDE:
    if (!dtype_is_float(ct)) ct = TSR_FLOAT64;
    break;
  case UF_FLOOR_DIVIDE: case UF_REMAINDER: case UF_POWER: case UF_LEFT_SHIFT:
  case UF_RIGHT_SHIFT: case UF_BITWISE_AND: case UF_BITWISE_OR: case UF_BITWISE_XOR:
  case UF_ARCTAN2: case UF_HYPOT: case UF_COPYSIGN: case UF_FMOD: case UF_LOGADDEXP:
  case UF_LOGADDEXP2: case UF_HEAVISIDE: case UF_NEXTAFTER:
    if (linear_resolve(op, 2, in, &ct) < 0) return no_loop_error(c, name);
    break;
  default:
    break;
  }
  if (!binary_loops[op][ct]) return no_loop_error(c, name);
  *ct_out = ct;
  *ot_out = binary_is_predicate(op) ? TSR_BOOL : ct;
  /* exact comparison of signed integers with uint64; integer powers check their exponents */
  if (ct == TSR_FLOAT64 && op >= UF_EQUAL && op <= UF_GREATER_EQUAL && !a->weak && !b->weak &&
      dtype_is_int(a->dtype) && dtype_is_int(b->dtype))
    return 1;
  if (op == UF_POWER && dtype_is_int(ct) && !dtype_is_unsigned(ct)) return 1;
  return 0;
}

InnerLoop ufunc_binary_loop(BinaryUfunc op, DType ct) { return binary_loops[op][ct]; }
InnerLoop ufunc_unary_loop(UnaryUfunc op, DType ct) { return unary_loops[op][ct]; }

Tensor *ufunc_binary(Ctx *c, BinaryUfunc op, Tensor *a, Tensor *b, Tensor *out) {
  const char *name = binary_ufunc_names[op];
  Tensor *in[2] = {a, b};
  DType ct, ot;
  int special = ufunc_binary_resolve(c, op, a, b, &ct, &ot);
  if (special < 0) return NULL;

  /* exact comparison of signed integers with uint64 (promotion would go through float64) */
  if (special && op != UF_POWER) {
    MixedCmp m = {op, a->dtype == TSR_UINT64};
    DType dts[2] = {m.swapped ? TSR_UINT64 : TSR_INT64, m.swapped ? TSR_INT64 : TSR_UINT64};
    return run_kernel(c, name, 2, in, dts, ot, out, mixed_cmp_loop, &m);
  }
  if (special && tensor_size(a) > 0 && tensor_size(b) > 0) {   /* as NumPy: if one is computed */
    bool neg;
    if (has_negative(c, b, &neg) < 0) return NULL;
    if (neg) { ERR_VALUE(c, "Integers to negative integer powers are not allowed."); return NULL; }
  }
  DType dts[2] = {ct, ct};
  bool check = binary_reports(op) && fperr_active(c);
  if (check) fperr_clear();
  Tensor *r = run_kernel(c, name, 2, in, dts, ot, out, binary_loops[op][ct], NULL);
  if (!r || !check) return r;
  int f = fperr_test();
  if (dtype_is_int(ct) && is_scalar(a) && is_scalar(b) && scalar_int_overflow(op, ct, a, b))
    f |= FPE_OVERFLOW;
  if (!f) return r;
  char buf[64];
  return fp_finish(c, r, f, ufunc_binary_fpname(op, ct, a, b, buf, sizeof buf));
}

int ufunc_unary_resolve(Ctx *c, UnaryUfunc op, Tensor *a, DType *ct_out, DType *ot_out) {
  const char *name = unary_ufunc_names[op];
  DType ct = a->dtype;
  switch (op) {
  case UF_NEGATIVE:
    if (ct == TSR_BOOL)
      return ERR_TYPE(c, "The numpy boolean negative, the `-` operator, is not supported, use "
                         "the `~` operator or the logical_not function instead.");
    break;
  case UF_POSITIVE: case UF_SIGN:
    if (ct == TSR_BOOL)
      return ERR_UFUNC_NO_LOOP(c, "ufunc '%s' did not contain a loop with signature matching "
                                  "types <class 'numpy.dtype[bool_]'> -> None", name);
    break;
  case UF_SQUARE: case UF_RECIPROCAL:
    if (ct == TSR_BOOL) ct = TSR_INT8;
    break;
  case UF_INVERT: case UF_ABSOLUTE: case UF_ISNAN: case UF_ISINF: case UF_ISFINITE:
  case UF_LOGICAL_NOT:
    break;
  default:
    ct = float_for(ct);
    break;
  }
  if (!unary_loops[op][ct]) return no_loop_error(c, name);
  *ct_out = ct;
  *ot_out = (op == UF_ISNAN || op == UF_ISINF || op == UF_ISFINITE || op == UF_LOGICAL_NOT ||
             op == UF_SIGNBIT) ? TSR_BOOL : ct;
  return 0;
}

Tensor *ufunc_unary(Ctx *c, UnaryUfunc op, Tensor *a, Tensor *out) {
  DType ct, ot;
  if (ufunc_unary_resolve(c, op, a, &ct, &ot) < 0) return NULL;
  bool check = ufunc_unary_reports(op) && fperr_active(c);
  if (check) fperr_clear();
  Tensor *r = run_kernel(c, unary_ufunc_names[op], 1, &a, &ct, ot, out, unary_loops[op][ct],
                         NULL);
  if (r && check) return fp_finish(c, r, fperr_test(), unary_ufunc_names[op]);
  /* NumPy's scalar math: -x overflows for the most negative signed integer and for every
     nonzero unsigned one */
  if (r && op == UF_NEGATIVE && is_scalar(a) && dtype_is_int(ct) && fperr_active(c)) {
    bool over = dtype_is_unsigned(ct) ? dtype_get_u64(a->dtype, tensor_data(a)) != 0
                                      : dtype_get_i64(a->dtype, tensor_data(a)) ==
                                            (int64_t)(UINT64_MAX << (8 * dtype_size(ct) - 1));
    if (over) return fp_finish(c, r, FPE_OVERFLOW, "scalar negative");
  }
  return r;
}

/* ---------------------------------------------------------------------------------------- */

#define WHERE_LOOP(FN, T)                                                              \
  KERNEL_CLONES static void FN(char **d, const int64_t *s, int64_t n, void *aux) {                   \
    (void)aux;                                                                         \
    char *po = d[0]; const char *pc = d[1], *px = d[2], *py = d[3];                    \
    for (int64_t i = 0; i < n; i++, po += s[0], pc += s[1], px += s[2], py += s[3])    \
      *(T *)po = *(const bool *)pc ? *(const T *)px : *(const T *)py;                  \
  }
WHERE_LOOP(where_1, uint8_t)
WHERE_LOOP(where_2, uint16_t)
WHERE_LOOP(where_4, uint32_t)
WHERE_LOOP(where_8, uint64_t)

Tensor *ufunc_where(Ctx *c, Tensor *cond, Tensor *x, Tensor *y) {
  Tensor *xy[2] = {x, y};
  DType ct = common_dtype(2, xy);
  Tensor *in[3] = {cond, x, y};
  DType dts[3] = {TSR_BOOL, ct, ct};
  InnerLoop loop;
  switch (dtype_size(ct)) {
  case 1: loop = where_1; break;
  case 2: loop = where_2; break;
  case 4: loop = where_4; break;
  default: loop = where_8; break;
  }
  return run_kernel(c, "where", 3, in, dts, ct, NULL, loop, NULL);
}

/* numpy.clip as NumPy 1.24 computes it: minimum(maximum(a, lo), hi), each step with the
   ufuncs' promotion (so clip(int_array, 0, 2.5) is float64). */
Tensor *ufunc_clip(Ctx *c, Tensor *a, Tensor *lo, Tensor *hi) {
  if (!lo && !hi) { ERR_VALUE(c, "One of max or min must be given"); return NULL; }
  Tensor *t = lo ? ufunc_binary(c, UF_MAXIMUM, a, lo, NULL) : tensor_retain(a);
  if (!t || !hi) return t;
  Tensor *r = ufunc_binary(c, UF_MINIMUM, t, hi, NULL);
  tensor_release(t);
  return r;
}
