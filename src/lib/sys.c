/*
** sys.c -- Python's sys module, the parts numerical scripts use: argv (the script's
** arguments, set by the host with tsr_set_argv), maxsize, byteorder, platform, version and
** version_info (CPython 3.11's, whose semantics tsr follows), getrecursionlimit.  Not yet:
** float_info and the other named tuples, stdout/stderr objects, exit.
*/
#include "lib.h"

#include <string.h>

static int sys_getrecursionlimit(Interp *I, const Args *a, Value *out) {
  if (a->npos || a->nkw) return IERR_TYPE(I, "sys.getrecursionlimit() takes no arguments");
  *out = v_int(1000);
  return 0;
}

static int set_str(Interp *I, Dict *m, const char *name, const char *s) {
  Value v = value_str(I, s, strlen(s));
  return v.type == V_UNDEF ? -1 : dict_set(m, name, v);
}

static int sys_init(Interp *I, Dict *m) {
  Value argv = value_list(I, I->argc > 0 ? I->argc : 1);
  if (argv.type == V_UNDEF) return -1;
  List *l = as_list(argv);
  if (I->argc == 0) {
    Value s = value_str(I, "", 0);
    if (s.type == V_UNDEF) { value_decref(argv); return -1; }
    l->items[0] = s;
  }
  for (int i = 0; i < I->argc; i++) {
    Value s = value_str(I, I->argv[i], strlen(I->argv[i]));
    if (s.type == V_UNDEF) { value_decref(argv); return -1; }
    l->items[i] = s;
  }
  if (dict_set(m, "argv", argv) < 0) return -1;
  static const int64_t version[3] = {3, 11, 2};
  Value vi = value_int_tuple(I, 3, version);
  if (vi.type == V_UNDEF || dict_set(m, "version_info", vi) < 0) return -1;
  if (dict_set(m, "maxsize", v_int(INT64_MAX)) < 0) return -1;
  return set_str(I, m, "byteorder", "little") || set_str(I, m, "platform", "linux") ||
         set_str(I, m, "version", "3.11.2 (tsr)") ? -1 : 0;
}

static const Builtin sys_functions[] = {
  {"sys", "getrecursionlimit", sys_getrecursionlimit, "getrecursionlimit()\n\nThe maximum "
   "depth of the Python call stack (1000)."},
  {NULL, NULL, NULL, NULL}
};

const ModuleDef lib_sys = {"sys", sys_functions, sys_init, 0};
