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
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
#include "alloctag_internal.h"
#include "large.h"
#include "next.h"
#include "registry.h"
#include "segment.h"

/*
 * fork(): every lock of the runtime's held across it, in one order
 * (registry, pool, large table shards), so that the child finds each
 * structure whole; the child's other threads' states are orphaned
 * (registry.c).  A thread's own slabs take no lock: the child's one thread
 * is the one that called fork(), outside malloc.
 */
static void before_fork(void)
{
	int saved_errno = errno;

	alloctag_registry_lock();
	alloctag_pool_lock();
	alloctag_large_lock_all();
	alloctag_counters_before_fork();
	errno = saved_errno;
}

static void after_fork_parent(void)
{
	int saved_errno = errno;

	alloctag_counters_forked();
	alloctag_large_unlock_all();
	alloctag_pool_unlock();
	alloctag_registry_unlock();
	errno = saved_errno;
}

static void after_fork_child(void)
{
	int saved_errno = errno;

	alloctag_large_after_fork_child();
	alloctag_pool_after_fork_child();
	alloctag_registry_after_fork();
	alloctag_live_after_fork();
	alloctag_counters_forked();
	errno = saved_errno;
}

/*
 * What malloc.c refers to, so that a static link of liballoctag.a takes
 * this file, with its constructor and destructor, whatever else it needs.
 */
const char alloctag_process_linked = 1;

/* The exit report and the live file's end, once (a destructor, or atexit under a sanitizer). */
static void process_exit(void)
{
	static atomic_flag done = ATOMIC_FLAG_INIT;
	int saved_errno = errno;

	if (atomic_flag_test_and_set(&done))
		return;
	alloctag_report_at_exit();
	alloctag_live_end();
	errno = saved_errno;
}

/*
 * Under a sanitizer (MODE_HOOKED), a leak found at exit or an error ends
 * the process from inside the sanitizer, before any destructor: the report
 * is written from its death callback too.
 */
static void on_sanitizer_death(void)
{
	typedef void (*set_callback_fn)(void (*)(void));
	set_callback_fn set = (set_callback_fn)dlsym(RTLD_DEFAULT, "__sanitizer_set_death_callback");

	if (set)
		set(process_exit);
}

__attribute__((constructor)) static void process_start(void)
{
	int saved_errno = errno;

	if (mode() == MODE_HOOKED)
		on_sanitizer_death();
	alloctag_report_streams();
	alloctag_config_read();
	alloctag_live_start();
	alloctag_report_start();
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	errno = saved_errno;
}

__attribute__((destructor)) static void process_destructor(void)
{
	process_exit();
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
