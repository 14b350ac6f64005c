/*
** heapq.c -- Python's heapq module: the binary min-heap on a list, with CPython's sift order
** (so the list's layout after each call is CPython's), compared with `<` only; nlargest and
** nsmallest are, as documented, sorted(iterable, key=key[, reverse=True])[:n].
*/
#include "lib.h"

#include <string.h>

/* a < b as Python's bool: 1, 0, or -1 on error. */
static int less(Interp *I, Value a, Value b) {
  Value r;
  if (interp_compare(I, OP_LT, a, b, &r)) return -1;
  int t = value_truth(I, r);
  value_decref(r);
  return t;
}

static int heap_arg(Interp *I, Value v, const char *fname, List **out) {
  if (v.type != V_LIST)
    return IERR_TYPE(I, "%s() argument 1 must be list, not %s", fname, value_type_name(v));
  *out = as_list(v);
  return 0;
}

/* Moves the item at pos up towards startpos while it is smaller than its parent. */
static int sift_down(Interp *I, List *h, int64_t startpos, int64_t pos) {
  Value item = h->items[pos];
  while (pos > startpos) {
    int64_t parent = (pos - 1) >> 1;
    int lt = less(I, item, h->items[parent]);
    if (lt < 0) { h->items[pos] = item; return -1; }
    if (!lt) break;
    h->items[pos] = h->items[parent];
    pos = parent;
  }
  h->items[pos] = item;
  return 0;
}

/* Moves the smaller child up until a leaf, puts the item there, then sifts it back down. */
static int sift_up(Interp *I, List *h, int64_t pos) {
  int64_t end = h->n, start = pos, child = 2 * pos + 1;
  Value item = h->items[pos];
  while (child < end) {
    int64_t right = child + 1;
    if (right < end) {
      int lt = less(I, h->items[child], h->items[right]);
      if (lt < 0) { h->items[pos] = item; return -1; }
      if (!lt) child = right;
    }
    h->items[pos] = h->items[child];
    pos = child;
    child = 2 * pos + 1;
  }
  h->items[pos] = item;
  return sift_down(I, h, start, pos);
}

static int hq_heappush(Interp *I, const Args *a, Value *out) {
  Value s[2];
  List *h = NULL;
  if (args_parse(I, a, "heappush", "heap,item", s) || heap_arg(I, s[0], "heappush", &h)) return -1;
  value_gc_stored(I, s[1]);
  if (list_append(I, s[0], value_retain(s[1]))) return -1;
  if (sift_down(I, h, 0, h->n - 1)) return -1;
  *out = v_none();
  return 0;
}

static int hq_heappop(Interp *I, const Args *a, Value *out) {
  Value s[1];
  List *h = NULL;
  if (args_parse(I, a, "heappop", "heap", s) || heap_arg(I, s[0], "heappop", &h)) return -1;
  if (h->n == 0) return ERR_INDEX(interp_ctx(I), "index out of range");
  Value last = h->items[--h->n];
  if (h->n == 0) { *out = last; return 0; }
  *out = h->items[0];
  h->items[0] = last;
  return sift_up(I, h, 0);
}

static int hq_heapify(Interp *I, const Args *a, Value *out) {
  Value s[1];
  List *h = NULL;
  if (args_parse(I, a, "heapify", "x", s)) return -1;
  if (s[0].type != V_LIST) return IERR_TYPE(I, "heapify() argument must be list, not %s", value_type_name(s[0]));
  h = as_list(s[0]);
  for (int64_t i = h->n / 2 - 1; i >= 0; i--)
    if (sift_up(I, h, i)) return -1;
  *out = v_none();
  return 0;
}

static int hq_heapreplace(Interp *I, const Args *a, Value *out) {
  Value s[2];
  List *h = NULL;
  if (args_parse(I, a, "heapreplace", "heap,item", s) || heap_arg(I, s[0], "heapreplace", &h)) return -1;
  if (h->n == 0) return ERR_INDEX(interp_ctx(I), "index out of range");
  value_gc_stored(I, s[1]);
  *out = h->items[0];
  h->items[0] = value_retain(s[1]);
  return sift_up(I, h, 0);
}

static int hq_heappushpop(Interp *I, const Args *a, Value *out) {
  Value s[2];
  List *h = NULL;
  if (args_parse(I, a, "heappushpop", "heap,item", s) || heap_arg(I, s[0], "heappushpop", &h)) return -1;
  if (h->n > 0) {
    int lt = less(I, h->items[0], s[1]);
    if (lt < 0) return -1;
    if (lt) {
      value_gc_stored(I, s[1]);
      *out = h->items[0];
      h->items[0] = value_retain(s[1]);
      return sift_up(I, h, 0);
    }
  }
  *out = value_retain(s[1]);
  return 0;
}

/* sorted(iterable, key=key, reverse=largest)[:n], through the builtin sorted */
static int n_extremes(Interp *I, const Args *a, bool largest, Value *out) {
  Value s[3];
  int64_t n;
  if (args_parse(I, a, largest ? "nlargest" : "nsmallest", "n,iterable,key=", s) ||
      value_to_int(I, s[0], &n))
    return -1;
  Value *sorted = dict_get(I->py_builtins, "sorted");
  if (!sorted) return ERR_RUNTIME(interp_ctx(I), "sorted is missing");
  const char *names[2] = {"key", "reverse"};
  Value kw[2] = {s[2].type == V_UNDEF ? v_none() : s[2], v_bool(largest)};
  Args sa = {1, &s[1], 2, names, kw, v_undef()};
  Value list;
  if (interp_call(I, *sorted, &sa, &list)) return -1;
  List *l = as_list(list);
  if (n < 0) n = 0;
  while (l->n > n) value_decref(l->items[--l->n]);
  *out = list;
  return 0;
}
static int hq_nlargest(Interp *I, const Args *a, Value *out) { return n_extremes(I, a, true, out); }
static int hq_nsmallest(Interp *I, const Args *a, Value *out) { return n_extremes(I, a, false, out); }

static const Builtin heapq_functions[] = {
  {"heapq", "heappush", hq_heappush, "heappush(heap, item, /)\n\nPush item onto heap, "
   "maintaining the heap invariant."},
  {"heapq", "heappop", hq_heappop, "heappop(heap, /)\n\nPop the smallest item off the heap."},
  {"heapq", "heapify", hq_heapify, "heapify(x, /)\n\nTransform list into a heap, in-place, in "
   "O(len(x)) time."},
  {"heapq", "heapreplace", hq_heapreplace, "heapreplace(heap, item, /)\n\nPop and return the "
   "smallest item, and add the new item."},
  {"heapq", "heappushpop", hq_heappushpop, "heappushpop(heap, item, /)\n\nPush item on the "
   "heap, then pop and return the smallest item."},
  {"heapq", "nlargest", hq_nlargest, "nlargest(n, iterable, key=None)\n\nThe n largest "
   "elements."},
  {"heapq", "nsmallest", hq_nsmallest, "nsmallest(n, iterable, key=None)\n\nThe n smallest "
   "elements."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_heapq = {"heapq", heapq_functions, NULL, 0};
