/*
** string.c -- Python's string module: its constants (ascii_letters, digits, punctuation ...).
** capwords is there too; Template and Formatter need classes and are not.
*/
#include "lib.h"

#include <string.h>

static int string_init(Interp *I, Dict *m) {
  static const struct { const char *name, *value; } consts[] = {
    {"ascii_lowercase", "abcdefghijklmnopqrstuvwxyz"},
    {"ascii_uppercase", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
    {"ascii_letters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
    {"digits", "0123456789"},
    {"hexdigits", "0123456789abcdefABCDEF"},
    {"octdigits", "01234567"},
    {"punctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
    {"whitespace", " \t\n\r\x0b\x0c"},
    {"printable", "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\x0b\x0c"},
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++) {
    Value v = value_str(I, consts[i].value, strlen(consts[i].value));
    if (v.type == V_UNDEF || dict_set(m, consts[i].name, v) < 0) return -1;
  }
  return 0;
}

/* capwords(s, sep=None): ' '.join(w.capitalize() for w in s.split(sep)) (sep joins when given) */
static int string_capwords(Interp *I, const Args *a, Value *out) {
  Value s[2];
  if (args_parse(I, a, "capwords", "s,sep=", s)) return -1;
  if (s[0].type != V_STR) return IERR_TYPE(I, "descriptor 'split' for 'str' objects doesn't apply to a '%s' object", value_type_name(s[0]));
  Value split, words, joined = v_undef();
  if (interp_getattr(I, s[0], "split", &split)) return -1;
  bool sep = s[1].type != V_UNDEF && s[1].type != V_NONE;
  Args sa = {sep ? 1 : 0, &s[1], 0, NULL, NULL, v_undef()};
  int rc = interp_call(I, split, &sa, &words);
  value_decref(split);
  if (rc) return -1;
  List *l = as_list(words);
  for (int64_t i = 0; i < l->n && rc == 0; i++) {
    Value cap, w;
    rc = interp_getattr(I, l->items[i], "capitalize", &cap);
    if (rc) break;
    Args none = {0, NULL, 0, NULL, NULL, v_undef()};
    rc = interp_call(I, cap, &none, &w);
    value_decref(cap);
    if (rc == 0) { value_decref(l->items[i]); l->items[i] = w; }
  }
  Value glue = sep ? value_retain(s[1]) : value_str(I, " ", 1), join;
  if (rc == 0 && glue.type != V_UNDEF && interp_getattr(I, glue, "join", &join) == 0) {
    Args ja = {1, &words, 0, NULL, NULL, v_undef()};
    rc = interp_call(I, join, &ja, &joined);
    value_decref(join);
  } else {
    rc = -1;
  }
  value_decref(glue);
  value_decref(words);
  if (rc) return -1;
  *out = joined;
  return 0;
}

static const Builtin string_functions[] = {
  {"string", "capwords", string_capwords, "capwords(s, sep=None)\n\nSplit s into words, "
   "capitalize each, and join them."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_string = {"string", string_functions, string_init, 0};
