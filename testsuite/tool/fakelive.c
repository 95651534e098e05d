/*
 * A stand-in writer for the security tests: makes DIR/<its pid> as a live
 * file of the KIND asked, with its own identity in the header as the
 * runtime writes it (live_dir.h), says "ready" and waits to be killed.
 * Built with runtime/live_dir.c and runtime/sys.c.
 *
 *   fakelive KIND DIR     KIND: garbage, version, truncated, empty, or
 *                         exec (a valid file, then exec sleep: the pid
 *                         stays, the program is another, the file stays)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "counters.h"
#include "live_dir.h"

int main(int argc, char **argv)
{
	struct counters_header h;
	struct live_proc self;
	char path[4096];
	int fd;

	if (argc != 3)
		return 2;
	snprintf(path, sizeof(path), "%s/%d", argv[2], (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || live_proc_read(getpid(), &self))
		return perror(path), 1;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, COUNTERS_MAGIC, 8);
	h.version = COUNTERS_VERSION;
	h.header_size = sizeof(h);
	h.chunk_size = CHUNK_SIZE;
	h.extent_size = EXTENT_SIZE;
	h.pid = getpid();
	h.used = !strcmp(argv[1], "truncated") ? 3 * CHUNK_SIZE : CHUNK_SIZE;	/* the file has one chunk */
	h.state = COUNTERS_RUNNING;
	h.pid_ns = live_pid_ns();
	h.proc_start = self.start;
	h.exec_code = self.code;
	h.exec_stack = self.stack;
	if (!strcmp(argv[1], "version"))
		h.version = COUNTERS_VERSION + 1;
	if (!strcmp(argv[1], "garbage"))
		memcpy(h.magic, "NOTMAGIC", 8);
	if (strcmp(argv[1], "empty") && (write(fd, &h, sizeof(h)) != sizeof(h) || ftruncate(fd, CHUNK_SIZE)))
		return perror(path), 1;
	printf("ready\n");
	fflush(stdout);
	if (!strcmp(argv[1], "exec"))
		execlp("sleep", "sleep", "60", (char *)NULL);
	pause();
	return 0;
}
