/*
** str.c -- Python's str type: strings are UTF-8 indexed by code point (Str.ncp counts them,
** Str.ascii makes indexing O(1) for ASCII text), and the str methods with CPython 3.11's
** results and messages: split rsplit join strip lstrip rstrip replace find rfind index rindex
** count startswith endswith upper lower casefold swapcase title capitalize center ljust rjust
** zfill partition rpartition splitlines expandtabs removeprefix removesuffix format and the
** is* predicates.  Case mappings and character classes beyond ASCII come from the C library's
** C.UTF-8 locale (simple, one-to-one mappings: "ß".upper() stays "ß", where CPython's full
** mapping gives "SS").
*/
#include "interp.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

/* ---- code points ------------------------------------------------------------------------------ */

/* Decodes the code point at s[*i] (advancing *i); a byte that does not start a complete
   sequence decodes as itself. */
static uint32_t utf8_next(const char *s, size_t n, size_t *i) {
  const unsigned char *u = (const unsigned char *)s;
  uint32_t c = u[*i];
  int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
  bool ok = extra > 0 && *i + (size_t)extra < n;
  for (int k = 1; ok && k <= extra; k++) ok = (u[*i + (size_t)k] & 0xc0) == 0x80;
  if (!ok) { (*i)++; return c; }
  uint32_t cp = c & (0x3fu >> extra);
  for (int k = 1; k <= extra; k++) cp = cp << 6 | (u[*i + (size_t)k] & 0x3f);
  *i += (size_t)extra + 1;
  return cp;
}

size_t utf8_put(char *out, uint32_t cp) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xc0 | cp >> 6); out[1] = (char)(0x80 | (cp & 63)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | cp >> 12); out[1] = (char)(0x80 | (cp >> 6 & 63));
    out[2] = (char)(0x80 | (cp & 63));
    return 3;
  }
  out[0] = (char)(0xf0 | cp >> 18); out[1] = (char)(0x80 | (cp >> 12 & 63));
  out[2] = (char)(0x80 | (cp >> 6 & 63)); out[3] = (char)(0x80 | (cp & 63));
  return 4;
}

/* Byte offset of code point i (0 <= i <= ncp). */
static size_t cp_offset(const Str *s, int64_t i) {
  if (s->ascii) return (size_t)i;
  size_t at = 0;
  for (int64_t k = 0; k < i && at < s->len; k++) {
    at++;
    while (at < s->len && ((unsigned char)s->s[at] & 0xc0) == 0x80) at++;
  }
  return at;
}

int str_item(Interp *I, Value v, int64_t i, Value *out) {
  const Str *s = as_str(v);
  size_t a = cp_offset(s, i), b = s->ascii ? a + 1 : cp_offset(s, i + 1);
  *out = value_str(I, s->s + a, b - a);
  return out->type == V_UNDEF ? -1 : 0;
}

int str_slice(Interp *I, Value v, int64_t start, int64_t stop, int64_t step, Value *out) {
  const Str *s = as_str(v);
  if (step == 1) {
    size_t a = start < stop ? cp_offset(s, start) : 0, b = start < stop ? cp_offset(s, stop) : 0;
    *out = value_str(I, s->s + a, b - a);
    return out->type == V_UNDEF ? -1 : 0;
  }
  Buf b;
  buf_init(&b, interp_ctx(I));
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
    size_t x = cp_offset(s, i), y = s->ascii ? x + 1 : cp_offset(s, i + 1);
    buf_putn(&b, s->s + x, y - x);
  }
  int rc = b.failed ? ERR_MEMORY(interp_ctx(I), "out of memory") : 0;
  if (rc == 0) {
    *out = value_str(I, b.p ? b.p : "", b.n);
    if (out->type == V_UNDEF) rc = -1;
  }
  buf_free(&b);
  return rc;
}

/* ---- character classes and case --------------------------------------------------------------- */

static locale_t utf8_locale(void) {
  static locale_t loc;
  static int tried;
  if (!tried) {   /* benign race: newlocale is idempotent here, and a leaked copy is harmless */
    loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    tried = 1;
  }
  return loc;
}

/* Python's str.isspace set. */
static bool cp_space(uint32_t c) {
  return (c >= 9 && c <= 13) || (c >= 28 && c <= 32) || c == 0x85 || c == 0xa0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 ||
         c == 0x202f || c == 0x205f || c == 0x3000;
}
static bool cp_alpha(uint32_t c) {
  if (c < 128) return (c | 32) >= 'a' && (c | 32) <= 'z';
  locale_t l = utf8_locale();
  return l && iswalpha_l((wint_t)c, l);
}
static bool cp_digit(uint32_t c) {
  if (c < 128) return c >= '0' && c <= '9';
  locale_t l = utf8_locale();
  return l && iswdigit_l((wint_t)c, l);
}
static bool cp_upper(uint32_t c) {
  if (c < 128) return c >= 'A' && c <= 'Z';
  locale_t l = utf8_locale();
  return l && iswupper_l((wint_t)c, l);
}
static bool cp_lower(uint32_t c) {
  if (c < 128) return c >= 'a' && c <= 'z';
  locale_t l = utf8_locale();
  return l && iswlower_l((wint_t)c, l);
}
static uint32_t cp_to_upper(uint32_t c) {
  if (c < 128) return c >= 'a' && c <= 'z' ? c - 32 : c;
  locale_t l = utf8_locale();
  return l ? (uint32_t)towupper_l((wint_t)c, l) : c;
}
static uint32_t cp_to_lower(uint32_t c) {
  if (c < 128) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  locale_t l = utf8_locale();
  return l ? (uint32_t)towlower_l((wint_t)c, l) : c;
}
static bool cp_printable(uint32_t c) {
  if (c < 128) return c >= 32 && c < 127;
  if (c <= 0xa0 || c == 0xad) return false;
  locale_t l = utf8_locale();
  return l && iswprint_l((wint_t)c, l);
}

/* ---- helpers ------------------------------------------------------------------------------------ */

static const Str *self_str(const Args *a) { return as_str(a->self); }

/* The str made from b (freed); its bytes are charged to the step budget. */
static int new_str(Interp *I, Buf *b, Value *out) {
  int rc = b->failed ? ERR_MEMORY(interp_ctx(I), "out of memory") : 0;
  if (rc == 0 && ctx_work(interp_ctx(I), b->n, WORK_BYTE)) rc = -1;
  if (rc == 0) {
    *out = value_str(I, b->p ? b->p : "", b->n);
    if (out->type == V_UNDEF) rc = -1;
  }
  buf_free(b);
  return rc;
}

/* A str argument, or TypeError "must be str, not int" in CPython's words for `what`. */
static int arg_str(Interp *I, Value v, const char *what, const Str **out) {
  if (v.type != V_STR)
    return IERR_TYPE(I, "%s must be str, not %s", what, value_type_name(v));
  *out = as_str(v);
  return 0;
}

/* Clamps optional start/end code point indices as slices do. */
static int range_args(Interp *I, const Str *s, Value vs, Value ve, int64_t *start, int64_t *end) {
  int64_t n = (int64_t)s->ncp;
  *start = 0;
  *end = n;
  if (vs.type != V_UNDEF && vs.type != V_NONE && value_to_int(I, vs, start)) return -1;
  if (ve.type != V_UNDEF && ve.type != V_NONE && value_to_int(I, ve, end)) return -1;
  if (*start < 0) *start = *start + n < 0 ? 0 : *start + n;
  if (*end < 0) *end = *end + n < 0 ? 0 : *end + n;
  if (*end > n) *end = n;
  return 0;
}

/* Byte position of needle in hay[from..to) (first, or last when reverse), or -1; -2 when the
   step budget or an interrupt stopped the search (the error recorded in c).  Each position
   tried is charged m + 8 bytes' worth (WORK_BYTE), in pieces of 16384 positions. */
static int64_t find_bytes(Ctx *c, const char *hay, size_t from, size_t to, const char *needle,
                          size_t m, bool reverse) {
  if (to < from || to - from < m) return -1;
  size_t tried = 0;
  int64_t r = -1;
#define TRY(i)                                                                            \
  if (++tried == 16384) {                                                                 \
    if (ctx_work(c, (uint64_t)tried * (m + 8), WORK_BYTE)) return -2;                     \
    tried = 0;                                                                            \
  }                                                                                       \
  if (memcmp(hay + (i), needle, m) == 0) { r = (int64_t)(i); break; }
  if (!reverse) {
    for (size_t i = from; i + m <= to; i++) { TRY(i) }
  } else {
    for (size_t i = to - m + 1; i-- > from;) { TRY(i) }
  }
#undef TRY
  return ctx_work(c, (uint64_t)tried * (m + 8), WORK_BYTE) ? -2 : r;
}

/* The code point index of byte offset off in s. */
static int64_t cp_index(const Str *s, size_t off) {
  if (s->ascii) return (int64_t)off;
  int64_t k = 0;
  for (size_t i = 0; i < off; i++) k += ((unsigned char)s->s[i] & 0xc0) != 0x80;
  return k;
}

/* ---- searching --------------------------------------------------------------------------------- */

static int find_common(Interp *I, const Args *a, const char *name, bool reverse, bool raise,
                       Value *out) {
  Value s[3];
  const Str *sub, *self = self_str(a);
  int64_t start, end;
  if (args_parse(I, a, name, "sub,start=,end=", s)) return -1;
  if (s[0].type != V_STR)
    return IERR_TYPE(I, "must be str, not %s", value_type_name(s[0]));
  sub = as_str(s[0]);
  if (range_args(I, self, s[1], s[2], &start, &end)) return -1;
  int64_t r = -1;
  if (start <= end) {
    size_t from = cp_offset(self, start), to = cp_offset(self, end);
    int64_t at = find_bytes(interp_ctx(I), self->s, from, to, sub->s, sub->len, reverse);
    if (at == -2) return -1;
    if (at >= 0) r = cp_index(self, (size_t)at);
  }
  if (r < 0 && raise) return IERR_VALUE(I, "substring not found");
  *out = v_int(r);
  return 0;
}
static int str_find(Interp *I, const Args *a, Value *out) { return find_common(I, a, "find", false, false, out); }
static int str_rfind(Interp *I, const Args *a, Value *out) { return find_common(I, a, "rfind", true, false, out); }
static int str_index(Interp *I, const Args *a, Value *out) { return find_common(I, a, "index", false, true, out); }
static int str_rindex(Interp *I, const Args *a, Value *out) { return find_common(I, a, "rindex", true, true, out); }

static int str_count(Interp *I, const Args *a, Value *out) {
  Value s[3];
  const Str *sub, *self = self_str(a);
  int64_t start, end, n = 0;
  if (args_parse(I, a, "count", "sub,start=,end=", s)) return -1;
  if (s[0].type != V_STR) return IERR_TYPE(I, "must be str, not %s", value_type_name(s[0]));
  sub = as_str(s[0]);
  if (range_args(I, self, s[1], s[2], &start, &end)) return -1;
  if (start > end) { *out = v_int(0); return 0; }
  size_t from = cp_offset(self, start), to = cp_offset(self, end);
  if (sub->len == 0) { *out = v_int(end - start + 1); return 0; }
  int64_t at;
  for (; (at = find_bytes(interp_ctx(I), self->s, from, to, sub->s, sub->len, false)) >= 0; n++)
    from = (size_t)at + sub->len;
  if (at == -2) return -1;
  *out = v_int(n);
  return 0;
}

static int affix_common(Interp *I, const Args *a, bool ends, Value *out) {
  const char *name = ends ? "endswith" : "startswith";
  Value s[3];
  const Str *self = self_str(a);
  int64_t start, end;
  if (args_parse(I, a, name, "prefix,start=,end=", s)) return -1;
  if (range_args(I, self, s[1], s[2], &start, &end)) return -1;
  Value one = s[0];
  int64_t k = 1;
  bool tuple = one.type == V_TUPLE;
  if (tuple) k = as_list(one)->n;
  else if (one.type != V_STR)
    return IERR_TYPE(I, "%s first arg must be str or a tuple of str, not %s", name,
                     value_type_name(one));
  size_t from = start <= end ? cp_offset(self, start) : 0, to = start <= end ? cp_offset(self, end) : 0;
  for (int64_t i = 0; i < k; i++) {
    Value p = tuple ? as_list(one)->items[i] : one;
    if (p.type != V_STR)
      return IERR_TYPE(I, "tuple for %s must only contain str, not %s", name, value_type_name(p));
    const Str *ps = as_str(p);
    if (start > end || to - from < ps->len) continue;
    if (memcmp(self->s + (ends ? to - ps->len : from), ps->s, ps->len) == 0) {
      *out = v_bool(true);
      return 0;
    }
  }
  *out = v_bool(false);
  return 0;
}
static int str_startswith(Interp *I, const Args *a, Value *out) { return affix_common(I, a, false, out); }
static int str_endswith(Interp *I, const Args *a, Value *out) { return affix_common(I, a, true, out); }

/* ---- splitting and joining ---------------------------------------------------------------------- */

static int push_piece(Interp *I, Value list, const char *p, size_t n) {
  if (ctx_work(interp_ctx(I), 1, WORK_OBJECT) || ctx_work(interp_ctx(I), n, WORK_BYTE)) return -1;
  Value v = value_str(I, p, n);
  if (v.type == V_UNDEF) return -1;
  return list_append(I, list, v);
}

/* split / rsplit(sep=None, maxsplit=-1) */
static int split_common(Interp *I, const Args *a, bool reverse, Value *out) {
  Value s[2];
  const Str *self = self_str(a), *sep = NULL;
  int64_t maxsplit = -1;
  if (args_parse(I, a, reverse ? "rsplit" : "split", "sep=,maxsplit=", s)) return -1;
  if (s[0].type != V_UNDEF && s[0].type != V_NONE && arg_str(I, s[0], "sep", &sep)) return -1;
  if (s[1].type != V_UNDEF && value_to_int(I, s[1], &maxsplit)) return -1;
  if (sep && sep->len == 0) return IERR_VALUE(I, "empty separator");
  Value list = value_list(I, 0);
  if (list.type == V_UNDEF) return -1;
  const char *t = self->s;
  size_t n = self->len;
  int rc = 0;
  if (sep) {
    if (!reverse) {
      size_t from = 0;
      int64_t at = -1;
      while (maxsplit != 0 && rc == 0 &&
             (at = find_bytes(interp_ctx(I), t, from, n, sep->s, sep->len, false)) >= 0) {
        rc = push_piece(I, list, t + from, (size_t)at - from);
        from = (size_t)at + sep->len;
        if (maxsplit > 0) maxsplit--;
      }
      if (rc == 0 && at == -2) rc = -1;
      if (rc == 0) rc = push_piece(I, list, t + from, n - from);
    } else {
      size_t to = n;
      int64_t at = -1;
      while (maxsplit != 0 && rc == 0 &&
             (at = find_bytes(interp_ctx(I), t, 0, to, sep->s, sep->len, true)) >= 0) {
        rc = push_piece(I, list, t + at + sep->len, to - (size_t)at - sep->len);
        to = (size_t)at;
        if (maxsplit > 0) maxsplit--;
      }
      if (rc == 0 && at == -2) rc = -1;
      if (rc == 0) rc = push_piece(I, list, t, to);
    }
  } else {   /* runs of whitespace; no empty strings */
    size_t i = 0;
    rc = ctx_work(interp_ctx(I), n, WORK_ELEMENT);   /* the scan, decoding UTF-8 */
    if (!reverse) {
      while (rc == 0) {
        size_t j = i;
        while (i < n) { size_t k = i; if (!cp_space(utf8_next(t, n, &k))) break; i = k; }
        if (i >= n) break;
        if (maxsplit == 0) { rc = push_piece(I, list, t + i, n - i); break; }
        j = i;
        while (j < n) { size_t k = j; if (cp_space(utf8_next(t, n, &k))) break; j = k; }
        rc = push_piece(I, list, t + i, j - i);
        i = j;
        if (maxsplit > 0) maxsplit--;
      }
    } else {   /* from the right, ASCII-level scan back over UTF-8 starts */
      size_t to = n;
      while (rc == 0) {
        while (to > 0) {
          size_t k = to - 1;
          while (k > 0 && ((unsigned char)t[k] & 0xc0) == 0x80) k--;
          size_t q = k;
          if (!cp_space(utf8_next(t, n, &q))) break;
          to = k;
        }
        if (to == 0) break;
        if (maxsplit == 0) { rc = push_piece(I, list, t, to); break; }
        size_t from = to;
        while (from > 0) {
          size_t k = from - 1;
          while (k > 0 && ((unsigned char)t[k] & 0xc0) == 0x80) k--;
          size_t q = k;
          if (cp_space(utf8_next(t, n, &q))) break;
          from = k;
        }
        rc = push_piece(I, list, t + from, to - from);
        to = from;
        if (maxsplit > 0) maxsplit--;
      }
    }
  }
  if (rc == 0 && reverse) {   /* collected right to left */
    List *l = as_list(list);
    for (int64_t i = 0, j = l->n - 1; i < j; i++, j--) {
      Value x = l->items[i];
      l->items[i] = l->items[j];
      l->items[j] = x;
    }
  }
  if (rc) { value_decref(list); return -1; }
  *out = list;
  return 0;
}
static int str_split(Interp *I, const Args *a, Value *out) { return split_common(I, a, false, out); }
static int str_rsplit(Interp *I, const Args *a, Value *out) { return split_common(I, a, true, out); }

static int str_splitlines(Interp *I, const Args *a, Value *out) {
  Value s[1];
  const Str *self = self_str(a);
  int keep = 0;
  if (args_parse(I, a, "splitlines", "keepends=", s)) return -1;
  if (s[0].type != V_UNDEF && (keep = value_truth(I, s[0])) < 0) return -1;
  Value list = value_list(I, 0);
  if (list.type == V_UNDEF) return -1;
  const char *t = self->s;
  size_t n = self->len, start = 0, i = 0;
  int rc = 0;
  while (i < n && rc == 0) {
    size_t k = i;
    uint32_t c = utf8_next(t, n, &k);
    bool brk = c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x1c || c == 0x1d ||
               c == 0x1e || c == 0x85 || c == 0x2028 || c == 0x2029;
    if (!brk) { i = k; continue; }
    size_t end = k;
    if (c == '\r' && end < n && t[end] == '\n') end++;
    rc = push_piece(I, list, t + start, (keep ? end : i) - start);
    start = i = end;
  }
  if (rc == 0 && start < n) rc = push_piece(I, list, t + start, n - start);
  if (rc) { value_decref(list); return -1; }
  *out = list;
  return 0;
}

static int str_join(Interp *I, const Args *a, Value *out) {
  Value s[1];
  const Str *self = self_str(a);
  if (args_parse(I, a, "join", "iterable", s)) return -1;
  int64_t n;
  if (interp_iter_len(I, s[0], &n)) {
    interp_clear_error(I);
    return IERR_TYPE(I, "can only join an iterable");
  }
  Buf b;
  buf_init(&b, interp_ctx(I));
  for (int64_t i = 0; i < n; i++) {
    Value item;
    if (interp_iter_item(I, s[0], i, &item)) { buf_free(&b); return -1; }
    if (item.type != V_STR) {
      const char *tn = value_type_name(item);
      value_decref(item);
      buf_free(&b);
      return IERR_TYPE(I, "sequence item %lld: expected str instance, %s found", (long long)i, tn);
    }
    if (i) buf_putn(&b, self->s, self->len);
    buf_putn(&b, as_str(item)->s, as_str(item)->len);
    value_decref(item);
    if (ctx_poll(interp_ctx(I), 1) < 0) { buf_free(&b); return -1; }
  }
  return new_str(I, &b, out);
}

static int partition_common(Interp *I, const Args *a, bool reverse, Value *out) {
  Value s[1];
  const Str *self = self_str(a), *sep;
  if (args_parse(I, a, reverse ? "rpartition" : "partition", "sep", s)) return -1;
  if (s[0].type != V_STR) return IERR_TYPE(I, "must be str, not %s", value_type_name(s[0]));
  sep = as_str(s[0]);
  if (sep->len == 0) return IERR_VALUE(I, "empty separator");
  int64_t at = find_bytes(interp_ctx(I), self->s, 0, self->len, sep->s, sep->len, reverse);
  if (at == -2) return -1;
  Value t = value_tuple(I, 3);
  if (t.type == V_UNDEF) return -1;
  Value *it = as_list(t)->items;
  const char *p = self->s;
  size_t n = self->len;
  Value parts[3];
  if (at < 0) {
    parts[0] = reverse ? value_str(I, "", 0) : value_retain(a->self);
    parts[1] = value_str(I, "", 0);
    parts[2] = reverse ? value_retain(a->self) : value_str(I, "", 0);
  } else {
    parts[0] = value_str(I, p, (size_t)at);
    parts[1] = value_retain(s[0]);
    parts[2] = value_str(I, p + at + sep->len, n - (size_t)at - sep->len);
  }
  int rc = 0;
  for (int k = 0; k < 3; k++) {
    if (parts[k].type == V_UNDEF) rc = -1;
    it[k] = parts[k].type == V_UNDEF ? v_none() : parts[k];
  }
  if (rc) { value_decref(t); return -1; }
  *out = t;
  return 0;
}
static int str_partition(Interp *I, const Args *a, Value *out) { return partition_common(I, a, false, out); }
static int str_rpartition(Interp *I, const Args *a, Value *out) { return partition_common(I, a, true, out); }

/* ---- stripping, replacing, padding ---------------------------------------------------------------- */

static bool in_chars(uint32_t c, const Str *chars) {
  if (!chars) return cp_space(c);
  size_t i = 0;
  while (i < chars->len)
    if (utf8_next(chars->s, chars->len, &i) == c) return true;
  return false;
}

static int strip_common(Interp *I, const Args *a, const char *name, bool left, bool right,
                        Value *out) {
  Value s[1];
  const Str *self = self_str(a), *chars = NULL;
  if (args_parse(I, a, name, "chars=", s)) return -1;
  if (s[0].type != V_UNDEF && s[0].type != V_NONE) {
    if (s[0].type != V_STR)
      return IERR_TYPE(I, "%s arg must be None or str", name);
    chars = as_str(s[0]);
  }
  const char *t = self->s;
  size_t n = self->len, from = 0, to = n;
  if (left)
    while (from < n) { size_t k = from; if (!in_chars(utf8_next(t, n, &k), chars)) break; from = k; }
  if (right)
    while (to > from) {
      size_t k = to - 1;
      while (k > from && ((unsigned char)t[k] & 0xc0) == 0x80) k--;
      size_t q = k;
      if (!in_chars(utf8_next(t, n, &q), chars)) break;
      to = k;
    }
  *out = value_str(I, t + from, to - from);
  return out->type == V_UNDEF ? -1 : 0;
}
static int str_strip(Interp *I, const Args *a, Value *out) { return strip_common(I, a, "strip", true, true, out); }
static int str_lstrip(Interp *I, const Args *a, Value *out) { return strip_common(I, a, "lstrip", true, false, out); }
static int str_rstrip(Interp *I, const Args *a, Value *out) { return strip_common(I, a, "rstrip", false, true, out); }

static int str_replace(Interp *I, const Args *a, Value *out) {
  Value s[3];
  const Str *self = self_str(a), *old, *rep;
  int64_t count = -1;
  if (args_parse(I, a, "replace", "old,new,count=", s)) return -1;
  if (s[0].type != V_STR) return IERR_TYPE(I, "replace() argument 1 must be str, not %s", value_type_name(s[0]));
  if (s[1].type != V_STR) return IERR_TYPE(I, "replace() argument 2 must be str, not %s", value_type_name(s[1]));
  old = as_str(s[0]);
  rep = as_str(s[1]);
  if (s[2].type != V_UNDEF && value_to_int(I, s[2], &count)) return -1;
  Buf b;
  buf_init(&b, interp_ctx(I));
  const char *t = self->s;
  size_t n = self->len, from = 0;
  if (old->len == 0) {   /* between every code point, and at both ends */
    size_t i = 0;
    int64_t done = 0;
    while (true) {
      if (count < 0 || done < count) { buf_putn(&b, rep->s, rep->len); done++; }
      if (i >= n) break;
      size_t k = i;
      utf8_next(t, n, &k);
      buf_putn(&b, t + i, k - i);
      i = k;
    }
    return new_str(I, &b, out);
  }
  for (int64_t done = 0; count < 0 || done < count; done++) {
    int64_t at = find_bytes(interp_ctx(I), t, from, n, old->s, old->len, false);
    if (at == -2) { buf_free(&b); return -1; }
    if (at < 0) break;
    buf_putn(&b, t + from, (size_t)at - from);
    buf_putn(&b, rep->s, rep->len);
    from = (size_t)at + old->len;
  }
  buf_putn(&b, t + from, n - from);
  return new_str(I, &b, out);
}

static int affix_remove(Interp *I, const Args *a, bool suffix, Value *out) {
  Value s[1];
  const Str *self = self_str(a), *p;
  if (args_parse(I, a, suffix ? "removesuffix" : "removeprefix", suffix ? "suffix" : "prefix", s)) return -1;
  if (s[0].type != V_STR)
    return IERR_TYPE(I, "%s() argument must be str, not %s", suffix ? "removesuffix" : "removeprefix",
                     value_type_name(s[0]));
  p = as_str(s[0]);
  if (p->len <= self->len && memcmp(self->s + (suffix ? self->len - p->len : 0), p->s, p->len) == 0) {
    *out = value_str(I, self->s + (suffix ? 0 : p->len), self->len - p->len);
    return out->type == V_UNDEF ? -1 : 0;
  }
  *out = value_retain(a->self);
  return 0;
}
static int str_removeprefix(Interp *I, const Args *a, Value *out) { return affix_remove(I, a, false, out); }
static int str_removesuffix(Interp *I, const Args *a, Value *out) { return affix_remove(I, a, true, out); }

/* count copies of the fill character fill (fl bytes of UTF-8): the room taken at once, so that
   a width of 2**62 is one MemoryError instead of a loop that outlives the memory. */
static void put_fill(Buf *b, const char *fill, size_t fl, int64_t count) {
  size_t bytes, at = b->n;
  if (!size_bytes(count, fl, &bytes)) {
    if (!b->failed) ERR_MEMORY(b->ctx, "Unable to allocate %lld characters", (long long)count);
    b->failed = true;
    return;
  }
  buf_fill(b, fill[0], bytes);
  if (!b->failed && fl > 1)
    for (size_t k = 0; k < bytes; k += fl) memcpy(b->p + at + k, fill, fl);
}

/* center / ljust / rjust(width, fillchar=' ') */
static int justify(Interp *I, const Args *a, const char *name, char how, Value *out) {
  Value s[2];
  const Str *self = self_str(a);
  int64_t width;
  char fill[5] = " ";
  size_t fl = 1;
  if (args_parse(I, a, name, "width,fillchar=", s) || value_to_int(I, s[0], &width)) return -1;
  if (s[1].type != V_UNDEF) {
    if (s[1].type != V_STR || as_str(s[1])->ncp != 1)
      return IERR_TYPE(I, "The fill character must be exactly one character long");
    fl = as_str(s[1])->len;
    memcpy(fill, as_str(s[1])->s, fl);
  }
  int64_t n = (int64_t)self->ncp;
  if (width <= n) { *out = value_retain(a->self); return 0; }
  int64_t total = width - n, left = how == '<' ? 0 : how == '>' ? total : total / 2;
  if (how == '^' && (total & 1) && (width & 1)) left++;   /* CPython's centering */
  Buf b;
  buf_init(&b, interp_ctx(I));
  put_fill(&b, fill, fl, left);
  buf_putn(&b, self->s, self->len);
  put_fill(&b, fill, fl, total - left);
  return new_str(I, &b, out);
}
static int str_center(Interp *I, const Args *a, Value *out) { return justify(I, a, "center", '^', out); }
static int str_ljust(Interp *I, const Args *a, Value *out) { return justify(I, a, "ljust", '<', out); }
static int str_rjust(Interp *I, const Args *a, Value *out) { return justify(I, a, "rjust", '>', out); }

static int str_zfill(Interp *I, const Args *a, Value *out) {
  Value s[1];
  const Str *self = self_str(a);
  int64_t width;
  if (args_parse(I, a, "zfill", "width", s) || value_to_int(I, s[0], &width)) return -1;
  int64_t n = (int64_t)self->ncp;
  if (width <= n) { *out = value_retain(a->self); return 0; }
  Buf b;
  buf_init(&b, interp_ctx(I));
  size_t lead = self->len && (self->s[0] == '+' || self->s[0] == '-');
  buf_putn(&b, self->s, lead);
  put_fill(&b, "0", 1, width - n);
  buf_putn(&b, self->s + lead, self->len - lead);
  return new_str(I, &b, out);
}

static int str_expandtabs(Interp *I, const Args *a, Value *out) {
  Value s[1];
  const Str *self = self_str(a);
  int64_t tab = 8, col = 0;
  if (args_parse(I, a, "expandtabs", "tabsize=", s)) return -1;
  if (s[0].type != V_UNDEF && value_to_int(I, s[0], &tab)) return -1;
  if (tab > INT32_MAX || tab < INT32_MIN)   /* CPython's tabsize is a C int */
    return ERR_OVERFLOW(interp_ctx(I), "Python int too large to convert to C int");
  Buf b;
  buf_init(&b, interp_ctx(I));
  size_t i = 0;
  while (i < self->len) {
    size_t k = i;
    uint32_t c = utf8_next(self->s, self->len, &k);
    if (c == '\t') {
      if (tab > 0) { int64_t sp = tab - col % tab; put_fill(&b, " ", 1, sp); col += sp; }
    } else {
      buf_putn(&b, self->s + i, k - i);
      col = c == '\n' || c == '\r' ? 0 : col + 1;
    }
    i = k;
  }
  return new_str(I, &b, out);
}

/* ---- case -------------------------------------------------------------------------------------- */

enum { CASE_UPPER, CASE_LOWER, CASE_SWAP, CASE_TITLE, CASE_CAPITALIZE };

static int recase(Interp *I, const Args *a, const char *name, int how, Value *out) {
  const Str *self = self_str(a);
  if (a->npos || a->nkw) return IERR_TYPE(I, "str.%s() takes no arguments (%d given)", name, a->npos + a->nkw);
  Buf b;
  buf_init(&b, interp_ctx(I));
  size_t i = 0;
  bool prev_cased = false, first = true;
  while (i < self->len) {
    uint32_t c = utf8_next(self->s, self->len, &i), r = c;
    switch (how) {
    case CASE_UPPER: r = cp_to_upper(c); break;
    case CASE_LOWER: r = cp_to_lower(c); break;
    case CASE_SWAP: r = cp_upper(c) ? cp_to_lower(c) : cp_lower(c) ? cp_to_upper(c) : c; break;
    case CASE_TITLE: r = prev_cased ? cp_to_lower(c) : cp_to_upper(c); break;
    case CASE_CAPITALIZE: r = first ? cp_to_upper(c) : cp_to_lower(c); break;
    }
    prev_cased = cp_upper(c) || cp_lower(c) || (how == CASE_TITLE && cp_alpha(c) && c >= 128);
    first = false;
    char u[4];
    buf_putn(&b, u, utf8_put(u, r));
  }
  return new_str(I, &b, out);
}
static int str_upper(Interp *I, const Args *a, Value *out) { return recase(I, a, "upper", CASE_UPPER, out); }
static int str_lower(Interp *I, const Args *a, Value *out) { return recase(I, a, "lower", CASE_LOWER, out); }
static int str_casefold(Interp *I, const Args *a, Value *out) { return recase(I, a, "casefold", CASE_LOWER, out); }
static int str_swapcase(Interp *I, const Args *a, Value *out) { return recase(I, a, "swapcase", CASE_SWAP, out); }
static int str_title(Interp *I, const Args *a, Value *out) { return recase(I, a, "title", CASE_TITLE, out); }
static int str_capitalize(Interp *I, const Args *a, Value *out) { return recase(I, a, "capitalize", CASE_CAPITALIZE, out); }

/* ---- predicates -------------------------------------------------------------------------------- */

enum { IS_ALPHA, IS_DIGIT, IS_ALNUM, IS_SPACE, IS_UPPER, IS_LOWER, IS_TITLE, IS_IDENT, IS_PRINT, IS_ASCII };

static int predicate(Interp *I, const Args *a, const char *name, int what, Value *out) {
  const Str *self = self_str(a);
  if (a->npos || a->nkw) return IERR_TYPE(I, "str.%s() takes no arguments (%d given)", name, a->npos + a->nkw);
  size_t i = 0;
  bool ok = self->len > 0 || what == IS_PRINT || what == IS_ASCII, cased = false, prev_cased = false;
  bool first = true;
  while (i < self->len && ok) {
    uint32_t c = utf8_next(self->s, self->len, &i);
    switch (what) {
    case IS_ALPHA: ok = cp_alpha(c); break;
    case IS_DIGIT: ok = cp_digit(c); break;
    case IS_ALNUM: ok = cp_alpha(c) || cp_digit(c); break;
    case IS_SPACE: ok = cp_space(c); break;
    case IS_UPPER: if (cp_lower(c)) ok = false; else if (cp_upper(c)) cased = true; break;
    case IS_LOWER: if (cp_upper(c)) ok = false; else if (cp_lower(c)) cased = true; break;
    case IS_TITLE:
      if (cp_upper(c)) { if (prev_cased) ok = false; prev_cased = cased = true; }
      else if (cp_lower(c)) { if (!prev_cased) ok = false; prev_cased = true; }
      else prev_cased = false;
      break;
    case IS_IDENT:
      ok = c == '_' || cp_alpha(c) || (!first && cp_digit(c));
      break;
    case IS_PRINT: ok = cp_printable(c); break;
    case IS_ASCII: ok = c < 128; break;
    }
    first = false;
  }
  if (what == IS_UPPER || what == IS_LOWER || what == IS_TITLE) ok = ok && cased;
  *out = v_bool(ok);
  return 0;
}
#define PREDICATES(X)                                                                   \
  X(isalpha, IS_ALPHA) X(isdigit, IS_DIGIT) X(isdecimal, IS_DIGIT) X(isnumeric, IS_DIGIT) \
  X(isalnum, IS_ALNUM) X(isspace, IS_SPACE) X(isupper, IS_UPPER) X(islower, IS_LOWER)   \
  X(istitle, IS_TITLE) X(isidentifier, IS_IDENT) X(isprintable, IS_PRINT) X(isascii, IS_ASCII)
#define X_FN(name, what) \
  static int str_##name(Interp *I, const Args *a, Value *out) { return predicate(I, a, #name, what, out); }
PREDICATES(X_FN)
#undef X_FN

/* ---- str.format --------------------------------------------------------------------------------- */

/* Appends the replacement field fld[0..n) ("0", "name", "", with .attr / [key] parts, then
   !conv and :spec) of str.format. *auto_idx counts automatic numbering (-1 after a manual
   field). */
static int format_field(Interp *I, Buf *b, const Args *a, const char *fld, size_t n,
                        int64_t *auto_idx, int depth);

/* Expands the format string f[0..n) into b. */
static int format_expand(Interp *I, Buf *b, const Args *a, const char *f, size_t n,
                         int64_t *auto_idx, int depth) {
  Ctx *c = interp_ctx(I);
  if (depth > 2) return IERR_VALUE(I, "Max string recursion exceeded");
  for (size_t i = 0; i < n; i++) {
    if (f[i] == '}') {
      if (i + 1 < n && f[i + 1] == '}') { buf_putc(b, '}'); i++; continue; }
      return IERR_VALUE(I, "Single '}' encountered in format string");
    }
    if (f[i] != '{') { buf_putc(b, f[i]); continue; }
    if (i + 1 < n && f[i + 1] == '{') { buf_putc(b, '{'); i++; continue; }
    size_t start = ++i;
    int nest = 1;
    for (; i < n; i++) {
      if (f[i] == '{') nest++;
      else if (f[i] == '}' && --nest == 0) break;
    }
    if (i >= n) return IERR_VALUE(I, "expected '}' before end of string");
    if (format_field(I, b, a, f + start, i - start, auto_idx, depth)) return -1;
    if (ctx_poll(c, 1) < 0) return -1;
  }
  return 0;
}

static int format_field(Interp *I, Buf *b, const Args *a, const char *fld, size_t n,
                        int64_t *auto_idx, int depth) {
  Ctx *c = interp_ctx(I);
  /* the field name ends at '!' or ':' outside brackets */
  size_t i = 0;
  for (int br = 0; i < n; i++) {
    if (fld[i] == '[') br = 1;
    else if (fld[i] == ']') br = 0;
    else if (!br && (fld[i] == '!' || fld[i] == ':')) break;
  }
  size_t name_end = i, first_end = 0;
  while (first_end < name_end && fld[first_end] != '.' && fld[first_end] != '[') first_end++;
  Value v;
  if (first_end == 0) {
    if (*auto_idx < 0)
      return IERR_VALUE(I, "cannot switch from manual field specification to automatic field numbering");
    int64_t k = (*auto_idx)++;
    if (k >= a->npos) return ERR_INDEX(c, "Replacement index %lld out of range for positional args tuple", (long long)k);
    v = value_retain(a->pos[k]);
  } else if (fld[0] >= '0' && fld[0] <= '9') {
    if (*auto_idx > 0)
      return IERR_VALUE(I, "cannot switch from automatic field numbering to manual field specification");
    *auto_idx = -1;
    int64_t k = 0;
    for (size_t q = 0; q < first_end; q++) {
      if (fld[q] < '0' || fld[q] > '9') return IERR_VALUE(I, "tsr: bad field name");
      k = k * 10 + (fld[q] - '0');
    }
    if (k >= a->npos) return ERR_INDEX(c, "Replacement index %lld out of range for positional args tuple", (long long)k);
    v = value_retain(a->pos[k]);
  } else {
    int k = 0;
    for (; k < a->nkw; k++)
      if (strlen(a->kwnames[k]) == first_end && memcmp(a->kwnames[k], fld, first_end) == 0) break;
    if (k == a->nkw) return ctx_err(c, TSR_ERR_INDEX, "KeyError", "'%.*s'", (int)first_end, fld);
    v = value_retain(a->kw[k]);
  }
  /* .attr and [key] parts */
  size_t q = first_end;
  while (q < name_end) {
    Value next;
    int rc;
    if (fld[q] == '.') {
      size_t e = ++q;
      while (e < name_end && fld[e] != '.' && fld[e] != '[') e++;
      char attr[128];
      snprintf(attr, sizeof attr, "%.*s", (int)(e - q), fld + q);
      rc = interp_getattr(I, v, attr, &next);
      q = e;
    } else {
      size_t e = ++q;
      while (e < name_end && fld[e] != ']') e++;
      bool digits = e > q;
      for (size_t d = q; d < e; d++) digits &= fld[d] >= '0' && fld[d] <= '9';
      Value key = digits ? v_int(strtoll(fld + q, NULL, 10)) : value_str(I, fld + q, e - q);
      rc = key.type == V_UNDEF ? -1 : interp_getitem(I, v, key, &next);
      value_decref(key);
      q = e + 1;
    }
    value_decref(v);
    if (rc) return -1;
    v = next;
  }
  char conv = 0;
  if (i < n && fld[i] == '!') {
    if (i + 1 >= n) return IERR_VALUE(I, "end of string while looking for conversion specifier");
    conv = fld[i + 1];
    i += 2;
    if (i < n && fld[i] != ':') { value_decref(v); return IERR_VALUE(I, "expected ':' after conversion specifier"); }
    if (conv != 'r' && conv != 's' && conv != 'a') {
      value_decref(v);
      return IERR_VALUE(I, "Unknown conversion specifier %c", conv);
    }
  }
  const char *spec = i < n ? fld + i + 1 : "";
  size_t slen = i < n ? n - i - 1 : 0;
  Buf sb;   /* the spec, with its nested fields expanded */
  buf_init(&sb, c);
  int rc = format_expand(I, &sb, a, spec, slen, auto_idx, depth + 1);
  if (rc == 0 && sb.failed) rc = ERR_MEMORY(c, "out of memory");
  if (rc == 0 && conv) {
    Buf cb;
    buf_init(&cb, c);
    if (conv == 's') value_to_string(I, &cb, v); else value_repr(I, &cb, v);
    Value sv = cb.failed ? v_undef() : value_str(I, cb.p ? cb.p : "", cb.n);
    buf_free(&cb);
    if (sv.type == V_UNDEF) rc = -1;
    else { value_decref(v); v = sv; }
  }
  if (rc == 0) rc = format_object(I, b, v, sb.p ? sb.p : "", sb.n);
  buf_free(&sb);
  value_decref(v);
  return rc;
}

static int str_format(Interp *I, const Args *a, Value *out) {
  const Str *self = self_str(a);
  Buf b;
  buf_init(&b, interp_ctx(I));
  int64_t auto_idx = 0;
  if (format_expand(I, &b, a, self->s, self->len, &auto_idx, 0)) { buf_free(&b); return -1; }
  return new_str(I, &b, out);
}

#define X_ROW(name, what) {"str", #name, str_##name, "S." #name "() -> bool"},
const Builtin builtins_str_table[] = {
  {"str", "find", str_find, "S.find(sub[, start[, end]]) -> int\n\nLowest index where sub is found, -1 if not."},
  {"str", "rfind", str_rfind, "S.rfind(sub[, start[, end]]) -> int\n\nHighest index where sub is found, -1 if not."},
  {"str", "index", str_index, "S.index(sub[, start[, end]]) -> int\n\nLike find, but ValueError when not found."},
  {"str", "rindex", str_rindex, "S.rindex(sub[, start[, end]]) -> int\n\nLike rfind, but ValueError when not found."},
  {"str", "count", str_count, "S.count(sub[, start[, end]]) -> int\n\nNon-overlapping occurrences of sub."},
  {"str", "startswith", str_startswith, "S.startswith(prefix[, start[, end]]) -> bool"},
  {"str", "endswith", str_endswith, "S.endswith(suffix[, start[, end]]) -> bool"},
  {"str", "split", str_split, "S.split(sep=None, maxsplit=-1) -> list of str"},
  {"str", "rsplit", str_rsplit, "S.rsplit(sep=None, maxsplit=-1) -> list of str"},
  {"str", "splitlines", str_splitlines, "S.splitlines(keepends=False) -> list of str"},
  {"str", "join", str_join, "S.join(iterable) -> str\n\nThe strings of iterable, separated by S."},
  {"str", "partition", str_partition, "S.partition(sep) -> (head, sep, tail)"},
  {"str", "rpartition", str_rpartition, "S.rpartition(sep) -> (head, sep, tail)"},
  {"str", "strip", str_strip, "S.strip(chars=None) -> str"},
  {"str", "lstrip", str_lstrip, "S.lstrip(chars=None) -> str"},
  {"str", "rstrip", str_rstrip, "S.rstrip(chars=None) -> str"},
  {"str", "replace", str_replace, "S.replace(old, new, count=-1) -> str"},
  {"str", "removeprefix", str_removeprefix, "S.removeprefix(prefix) -> str"},
  {"str", "removesuffix", str_removesuffix, "S.removesuffix(suffix) -> str"},
  {"str", "center", str_center, "S.center(width, fillchar=' ') -> str"},
  {"str", "ljust", str_ljust, "S.ljust(width, fillchar=' ') -> str"},
  {"str", "rjust", str_rjust, "S.rjust(width, fillchar=' ') -> str"},
  {"str", "zfill", str_zfill, "S.zfill(width) -> str"},
  {"str", "expandtabs", str_expandtabs, "S.expandtabs(tabsize=8) -> str"},
  {"str", "upper", str_upper, "S.upper() -> str"},
  {"str", "lower", str_lower, "S.lower() -> str"},
  {"str", "casefold", str_casefold, "S.casefold() -> str"},
  {"str", "swapcase", str_swapcase, "S.swapcase() -> str"},
  {"str", "title", str_title, "S.title() -> str"},
  {"str", "capitalize", str_capitalize, "S.capitalize() -> str"},
  {"str", "format", str_format, "S.format(*args, **kwargs) -> str\n\nS with its replacement "
   "fields ({}, {0}, {name}, {0.attr}, {0[key]}, !r !s !a, :spec) filled in."},
  PREDICATES(X_ROW)
  {NULL, NULL, NULL, NULL}
};
#undef X_ROW
