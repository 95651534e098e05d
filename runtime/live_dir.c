/* SPDX-License-Identifier: MIT */
/*
 * Where live files are (live_dir.h): shared by the runtime and the alloctag
 * command.  System calls and snprintf only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "live_dir.h"

int live_dir_candidate(int i, char *path, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	unsigned uid = (unsigned)geteuid();
	int n;

	if (!(xdg && xdg[0] == '/'))
		i++;		/* no XDG_RUNTIME_DIR: /dev/shm comes first */
	switch (i) {
	case 0:
		n = snprintf(path, size, "%s/alloctag", xdg);
		break;
	case 1:
		n = snprintf(path, size, "/dev/shm/alloctag-%u", uid);
		break;
	case 2:
		n = snprintf(path, size, "/tmp/alloctag-%u", uid);
		break;
	default:
		return -1;
	}
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int live_dir_open_path(const char *path, int flags, const char **why)
{
	struct stat st;
	int fd;

	if ((flags & LIVE_DIR_MAKE) && mkdir(path, 0700) != 0 && errno != EEXIST) {
		*why = "cannot be made";
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*why = errno == ELOOP || errno == ENOTDIR ? "is a symlink or not a directory"
							  : "cannot be opened";
		return -1;
	}
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
		*why = "is not the user's alone (owner, or permissions for others)";
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int live_dir_open(char *path, size_t size, int flags)
{
	const char *why;

	for (int i = 0; live_dir_candidate(i, path, size) == 0; i++) {
		int fd = live_dir_open_path(path, flags, &why);

		if (fd >= 0)
			return fd;
	}
	return -1;
}
