/*
** modules.c -- the list of Python's standard modules tsr has (DESIGN §1 names the set).
*/
#include "lib.h"

const ModuleDef *const lib_modules[] = {
  &lib_bisect, &lib_copy, &lib_heapq, &lib_math, &lib_operator, &lib_random, &lib_string,
  &lib_sys, &lib_time, NULL
};
