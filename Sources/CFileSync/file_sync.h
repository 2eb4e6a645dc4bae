#ifndef HOTTASK_CFILESYNC_H
#define HOTTASK_CFILESYNC_H

#include <sys/types.h>

/* Linux's sync_file_range, which the Glibc module leaves out (it needs _GNU_SOURCE): declared
   here as glibc does. */
#ifdef __linux__
extern int sync_file_range(int fd, off_t offset, off_t count, unsigned int flags);
#endif

/* Starts writing `count` bytes of `fd` from `offset` to the disk and returns at once
   (SYNC_FILE_RANGE_WRITE): an fsync later waits for less. Only a start, never a promise. */
/* Only SYNC_FILE_RANGE_WRITE (2): without a WAIT flag no write-back error is reported (and so
   consumed) here; the fsync that follows reports it. Elsewhere than Linux, nothing to start. */
#ifdef __linux__
static inline int hc_start_writeback(int fd, off_t offset, off_t count) { return sync_file_range(fd, offset, count, 2); }
#else
static inline int hc_start_writeback(int fd, off_t offset, off_t count) { (void)fd; (void)offset; (void)count; return 0; }
#endif

#endif
