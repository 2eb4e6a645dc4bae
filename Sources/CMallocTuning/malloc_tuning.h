#ifndef HOTTASK_CMALLOCTUNING_H
#define HOTTASK_CMALLOCTUNING_H

#include <malloc.h>

/* glibc's mallopt, which the Glibc module leaves out: blocks of `bytes` and more are mapped on
   their own and returned to the system when freed (see HotTaskCommand.main). */
static inline void hc_map_large_blocks_from(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }

#endif
