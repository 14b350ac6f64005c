/*
** modules.c -- the list of Python's standard modules tsr has (DESIGN §1 names the set).
*/
#include "lib.h"

const ModuleDef *const lib_modules[] = {&lib_math, &lib_random, &lib_sys, &lib_time, NULL};
