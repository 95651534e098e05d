/* SPDX-License-Identifier: MIT */
/* The clock and the write loop (sys.h): the runtime's and the alloctag command's. */
#include <errno.h>
#include <unistd.h>
#include "sys.h"

int64_t sys_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int sys_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		if (w == 0)
			return EIO;
		c += w;
		n -= w;
	}
	return 0;
}
