/* SPDX-License-Identifier: MIT */
/*
 * sys.h: the clock, the write loop and who owns what, one copy for the
 * runtime and the alloctag command (Makefile: TOOL_SHARED).  System calls
 * only: no malloc, no lock, safe in a signal handler.
 */
#ifndef ALLOCTAG_SYS_H
#define ALLOCTAG_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/* CLOCK's time in nanoseconds (clock_gettime()). */
int64_t sys_clock_ns(clockid_t clock);

/* All of the N bytes at P written to FD, through interruptions and short
 * writes: 0, or the errno of the write that failed (EIO if one wrote
 * nothing).  errno is left as the last write left it. */
int sys_write_all(int fd, const void *p, size_t n);

/* Who the kernel says: the effective user, and what fstat() says of FD
 * (statx() made a struct stat; fstat() where the kernel has no statx).  An
 * LD_PRELOAD may say otherwise: fakeroot, under every dpkg-buildpackage's
 * binary target, says the user is root and owns every file, and the live
 * directory is named and checked by the user's own uid. */
uid_t sys_euid(void);
int sys_fstat(int fd, struct stat *st);

#endif /* ALLOCTAG_SYS_H */
