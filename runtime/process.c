/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the process's life, as the runtime sees it.
 *
 *   first allocation   registry.c makes the thread's state and the counters
 *                      (anonymous memory: the environment may not be
 *                      readable yet)
 *   start              (constructor) settings read and copied, streams
 *                      recorded, stale live files removed, the live file
 *                      made, signal handler set
 *   fork               the registry is locked across it; the child gets its
 *                      own counters (its live file later: live.c), the other
 *                      threads' states are freed and their caches dropped
 *   exit               (destructor) the exit report (or kept in the live
 *                      directory: report.c), then the live file marked
 *                      exited and removed
 *
 * Between these calls the runtime holds no descriptor of its own.
 *
 * Every entry here keeps errno as the program left it: the program sees
 * errno 0 at main's start and after fork as without alloctag (isatty,
 * open, getcwd in the runtime would leave ENOTTY, EEXIST, ...).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "alloctag_internal.h"

uint64_t alloctag_trailer_key;
/* The trailers' key: odd, from the kernel's random bytes for this program. */
void alloctag_key_init(void)
{
	const unsigned char *random = (const unsigned char *)getauxval(AT_RANDOM);
	uint64_t key = 0x9e3779b97f4a7c15ull;

	if (random) {
		uint64_t bytes;

		memcpy(&bytes, random + 8, sizeof(bytes));
		key ^= bytes;
	}
	alloctag_trailer_key = key | 1;
}

static void before_fork(void)
{
	int saved_errno = errno;

	alloctag_registry_lock();
	alloctag_counters_before_fork();
	errno = saved_errno;
}

static void after_fork_parent(void)
{
	int saved_errno = errno;

	alloctag_counters_forked();
	alloctag_registry_unlock();
	errno = saved_errno;
}

static void after_fork_child(void)
{
	int saved_errno = errno;

	alloctag_registry_after_fork();
	alloctag_cache_after_fork(alloctag_self);
	alloctag_live_after_fork();
	alloctag_counters_forked();
	errno = saved_errno;
}

__attribute__((constructor)) static void process_start(void)
{
	int saved_errno = errno;

	alloctag_report_streams();
	alloctag_config_read();
	alloctag_cache_init();
	alloctag_live_start();
	alloctag_report_start();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	errno = saved_errno;
}

__attribute__((destructor)) static void process_exit(void)
{
	int saved_errno = errno;

	alloctag_report_at_exit();
	alloctag_live_end();
	errno = saved_errno;
}

#ifdef ALLOCTAG_DEBUG
void alloctag_assert_fail(const char *expr, const char *file, int line)
{
	char text[512];
	int n = snprintf(text, sizeof(text), "alloctag: assertion failed: %s (%s:%d)\n",
			 expr, file, line);

	if (n > 0)
		alloctag_say(text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
	abort();
}
#endif
