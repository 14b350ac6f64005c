/*
** lib.h -- Python's standard modules written in C, one file a module (math.c, time.c,
** sys.c ...).  Each file defines one ModuleDef (src/lang/interp.h); lib_modules lists them for
** the API layer, which hands the list to every state (interp.module_defs).  A module's
** namespace is made on its first import.
*/
#ifndef TSR_LIB_H
#define TSR_LIB_H

#include "../lang/interp.h"

RT_HIDDEN extern const ModuleDef lib_bisect, lib_copy, lib_heapq, lib_math, lib_operator,
  lib_random, lib_string, lib_sys, lib_time;
/* Every module above, NULL-ended. */
RT_HIDDEN extern const ModuleDef *const lib_modules[];

#endif
