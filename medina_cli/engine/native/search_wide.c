/* The native search for boards of up to 704 cells (core_wide.c). */
#define NW 11
#include "search.c"
