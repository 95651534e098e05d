/* SPDX-License-Identifier: MIT */
/*
 * live_dir.h: where live files are, for the runtime that makes them and the
 * alloctag command that reads them.  The candidates, in order:
 *
 *   $XDG_RUNTIME_DIR/alloctag   /dev/shm/alloctag-UID   /tmp/alloctag-UID
 *
 * A candidate is used only if it is a directory of the user's alone: owned
 * by the effective user, no permission for group or others, not a symlink
 * (opened with O_NOFOLLOW, checked on the open descriptor, so no rename
 * between check and use can change what is used).  Another user's directory
 * at that name is refused, never followed or changed.
 */
#ifndef ALLOCTAG_LIVE_DIR_H
#define ALLOCTAG_LIVE_DIR_H

#include <stddef.h>

#define LIVE_PATH_MAX	4096
#define LIVE_DIR_MAKE	1	/* make the directory (mode 0700) if missing */

/* Candidate I's path in PATH: 0, or -1 when there is no candidate I. */
int live_dir_candidate(int i, char *path, size_t size);

/* The directory at PATH, opened if it is the user's alone: a descriptor, or
 * -1 and *WHY says why not (errno is kept). */
int live_dir_open_path(const char *path, int flags, const char **why);

/* The first candidate that is usable, its path in PATH: a descriptor, or -1. */
int live_dir_open(char *path, size_t size, int flags);

#endif /* ALLOCTAG_LIVE_DIR_H */
