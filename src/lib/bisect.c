/*
** bisect.c -- Python's bisect module: binary search on a sorted sequence with `<` only
** (bisect_left, bisect_right = bisect, insort_left, insort_right = insort), lo/hi bounds and
** key=, as CPython 3.11.
*/
#include "lib.h"

/* The insertion point of x in seq[lo:hi] (left: before equal items). */
static int search(Interp *I, Value seq, Value x, Value lo_v, Value hi_v, Value key, bool left,
                  int64_t *out) {
  int64_t lo = 0, hi;
  if (lo_v.type != V_UNDEF && value_to_int(I, lo_v, &lo)) return -1;
  if (lo < 0) return IERR_VALUE(I, "lo must be non-negative");
  if (hi_v.type == V_UNDEF || hi_v.type == V_NONE) {
    if (interp_iter_len(I, seq, &hi)) return -1;
  } else if (value_to_int(I, hi_v, &hi)) {
    return -1;
  }
  bool has_key = key.type != V_UNDEF && key.type != V_NONE;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    Value item, k, r;
    if (interp_iter_item(I, seq, mid, &item)) return -1;
    if (has_key) {
      Args ka = {1, &item, 0, NULL, NULL, v_undef()};
      int rc = interp_call(I, key, &ka, &k);
      value_decref(item);
      if (rc) return -1;
    } else {
      k = item;
    }
    int rc = left ? interp_compare(I, OP_LT, k, x, &r) : interp_compare(I, OP_LT, x, k, &r);
    value_decref(k);
    if (rc) return -1;
    int t = value_truth(I, r);
    value_decref(r);
    if (t < 0) return -1;
    if (left ? t : !t) lo = mid + 1; else hi = mid;
  }
  *out = lo;
  return 0;
}

static int bisect_common(Interp *I, const Args *a, bool left, Value *out) {
  Value s[5];
  int64_t at;
  if (args_parse(I, a, left ? "bisect_left" : "bisect_right", "a,x,lo=,hi=,*,key=", s) ||
      search(I, s[0], s[1], s[2], s[3], s[4], left, &at))
    return -1;
  *out = v_int(at);
  return 0;
}
static int bs_bisect_left(Interp *I, const Args *a, Value *out) { return bisect_common(I, a, true, out); }
static int bs_bisect_right(Interp *I, const Args *a, Value *out) { return bisect_common(I, a, false, out); }

static int insort_common(Interp *I, const Args *a, bool left, Value *out) {
  Value s[5];
  int64_t at;
  if (args_parse(I, a, left ? "insort_left" : "insort_right", "a,x,lo=,hi=,*,key=", s)) return -1;
  if (s[0].type != V_LIST) return IERR_TYPE(I, "tsr: insort needs a list");
  Value k = value_retain(s[1]);
  if (s[4].type != V_UNDEF && s[4].type != V_NONE) {
    value_decref(k);
    Args ka = {1, &s[1], 0, NULL, NULL, v_undef()};
    if (interp_call(I, s[4], &ka, &k)) return -1;
  }
  int rc = search(I, s[0], k, s[2], s[3], s[4], left, &at);
  value_decref(k);
  if (rc) return -1;
  value_gc_stored(I, s[1]);
  if (list_append(I, s[0], value_retain(s[1]))) return -1;
  List *l = as_list(s[0]);
  Value x = l->items[l->n - 1];
  for (int64_t i = l->n - 1; i > at; i--) l->items[i] = l->items[i - 1];
  l->items[at] = x;
  *out = v_none();
  return 0;
}
static int bs_insort_left(Interp *I, const Args *a, Value *out) { return insort_common(I, a, true, out); }
static int bs_insort_right(Interp *I, const Args *a, Value *out) { return insort_common(I, a, false, out); }

static const Builtin bisect_functions[] = {
  {"bisect", "bisect_left", bs_bisect_left, "bisect_left(a, x, lo=0, hi=len(a), *, key=None)\n\n"
   "Where to insert x in sorted a, before any equal items."},
  {"bisect", "bisect_right", bs_bisect_right, "bisect_right(a, x, lo=0, hi=len(a), *, key=None)"
   "\n\nWhere to insert x in sorted a, after any equal items."},
  {"bisect", "bisect", bs_bisect_right, "bisect(a, x, lo=0, hi=len(a), *, key=None)\n\nAlias "
   "for bisect_right."},
  {"bisect", "insort_left", bs_insort_left, "insort_left(a, x, lo=0, hi=len(a), *, key=None)\n\n"
   "Insert x in sorted list a, before any equal items."},
  {"bisect", "insort_right", bs_insort_right, "insort_right(a, x, lo=0, hi=len(a), *, key=None)"
   "\n\nInsert x in sorted list a, after any equal items."},
  {"bisect", "insort", bs_insort_right, "insort(a, x, lo=0, hi=len(a), *, key=None)\n\nAlias "
   "for insort_right."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_bisect = {"bisect", bisect_functions, NULL, 0};
