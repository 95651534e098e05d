/* SPDX-License-Identifier: MIT */
/*
 * bench/timeit.c: run a command, append one line to a file:
 *
 *   timeit FILE COMMAND [ARG...]
 *   FILE gets "WALL USER SYS MAXRSS STATUS": seconds (wall clock, monotonic;
 *   user and system CPU of the command and its descendants), the peak
 *   resident set of the largest of them in KiB (getrusage's ru_maxrss), and
 *   the exit status (128 + N for signal N).
 *
 * The command's output goes where timeit's goes.  The exit status is the
 * command's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double seconds(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start;
	int status, code;
	FILE *out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit FILE COMMAND [ARG...]\n");
		return 2;
	}
	start = now();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("timeit: wait4");
		return 2;
	}
	double wall = now() - start;

	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	out = fopen(argv[1], "a");
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "%.4f %.3f %.3f %ld %d\n", wall, seconds(ru.ru_utime), seconds(ru.ru_stime),
		ru.ru_maxrss, code);
	fclose(out);
	return code;
}
