/* `_core_wide`: the CPython face of core_wide.c (boards beyond _core's 256 cells). */
#define NW 11
#define MODULE _core_wide
#include "_core.c"
