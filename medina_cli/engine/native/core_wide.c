/* The native core for boards of up to 704 cells (the schema's largest, 26x26 with the ring). */
#define NW 11
#include "core.c"
