/* SPDX-License-Identifier: MIT */
/*
 * sys.h: the clock and the write loop, one copy for the runtime and the
 * alloctag command (Makefile: TOOL_SHARED).  System calls only: no malloc,
 * no lock, safe in a signal handler.
 */
#ifndef ALLOCTAG_SYS_H
#define ALLOCTAG_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* CLOCK's time in nanoseconds (clock_gettime()). */
int64_t sys_clock_ns(clockid_t clock);

/* All of the N bytes at P written to FD, through interruptions and short
 * writes: 0, or the errno of the write that failed (EIO if one wrote
 * nothing).  errno is left as the last write left it. */
int sys_write_all(int fd, const void *p, size_t n);

#endif /* ALLOCTAG_SYS_H */
