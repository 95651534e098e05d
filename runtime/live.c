/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the live file, through which `alloctag top PID` and its
 * kin read a running process's counters, at no cost to it (the counters
 * are the file's pages: counters.c).
 *
 * Where: the first of the user's live directories (live_dir.h) that is the
 * user's alone (made if missing).  The file: the process's pid, mode 0600,
 * made whole (counters and header) before it is named (O_TMPFILE, then
 * linked; made in place, O_EXCL, where the file system cannot); a file of
 * that name is an earlier process's (the pid is ours now), kept first if
 * that one was killed (live_settle_name()), else removed.
 *
 * No descriptor stays open: the file is mapped and its descriptor closed
 * before the constructor returns (counters.c opens it again by path to
 * grow it), so a program's descriptors, closefrom() and the numbers it
 * gets are what they are without alloctag.  Alive: the header says who
 * writes the file (pid, start time, exec identity: live_dir.h), and the
 * readers, the runtime's included, judge it stale by what /proc says.
 *
 * At start, the first process of the user's a second or more after the
 * last to do so (live_sweep_due()) settles the files of its live directory
 * (live_sweep()): the stale removed, and those of processes that ended
 * without their report (killed by a signal: no exit ran) kept as
 * PID.counters, their last word; the others do not pay for what the
 * directory holds, in time or in system calls a test suite may count.  At
 * exit the file is marked exited and removed (a reader that mapped it keeps
 * the final counters), or kept with ALLOCTAG_LIVE=keep.  ALLOCTAG_LIVE=off:
 * no file.
 *
 * Reports that could not go where they were asked to are kept in the same
 * directory (alloctag_live_keep): PID.report, made whole before it is
 * named, the oldest kept reports beyond LIVE_KEPT_MAX or LIVE_KEPT_BYTES
 * removed (live_keep_file(): by an index, live_kept.c).
 *
 * A child after fork gets its own file, lazily: a child that execs or
 * _exits at once must leave nothing behind.  At fork its counters move to
 * anonymous memory (the fork handler runs in the child's only thread); the
 * file is made at the child's first registry slow path (an allocation from
 * a call site new to it, or by a thread new to it: settle(), through
 * registry.h's hook)
 * that finds it single-threaded, since moving the counters into the file
 * while another thread counts would lose that thread's updates.  A child
 * that never gets there, or only with other threads running, keeps
 * anonymous counters and has no live file; its report is the same.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "alloctag_internal.h"
#include "live_dir.h"
#include "next.h"
#include "registry.h"
#include "sys.h"

/* The file this process made ("" if none), and its identity. */
static char live_path[LIVE_PATH_MAX + 32];
static dev_t live_dev;
static ino_t live_ino;

/* A fork child's file, not made yet: when to look again if it had threads. */
static _Atomic int64_t child_retry_ns;
#define CHILD_RETRY_NS	100000000	/* 100 ms */

static int rebind(int fd, const char *path)
{
	int ok;

	alloctag_registry_lock();
	ok = alloctag_counters_rebind(fd, path);
	alloctag_registry_unlock();
	return ok;
}

/* Who writes the file, in the header, for its readers (live_dir.h). */
static void stamp_writer(void)
{
	struct counters_header *h = alloctag_counters();
	struct live_proc p;

	if (!h || live_proc_read(getpid(), &p) != 0)
		return;
	h->pid_ns = live_pid_ns();
	h->proc_start = p.start;
	h->exec_code = p.code;
	h->exec_stack = p.stack;
}

/* NAME in DIR free for this process: a file of that name is an earlier
 * process's, kept if it ended without its report, else removed. */
static int free_name(int dir, const char *name)
{
	return live_settle_name(dir, name) || live_remove(dir, name);
}

/* The counters moved into FD, the file to be at live_path, its writer
 * stamped: 0, or -1 with the counters where they were. */
static int bind_file(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || rebind(fd, live_path) != 0)
		return -1;
	/* After the rebind: in a fork child the pages before were its parent's. */
	stamp_writer();
	live_dev = st.st_dev;
	live_ino = st.st_ino;
	return 0;
}

/* The counters in a file made whole before it is named NAME in DIR
 * (O_TMPFILE): a reader never finds it half made.  0, or -1 with the
 * counters anonymous. */
static int publish_unnamed(int dir, const char *name)
{
	int fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC | O_NOCTTY, 0600), rc;

	if (fd < 0)
		return -1;
	rc = bind_file(fd);
	if (rc == 0 && live_link_new(dir, name, fd) != 0) {
		rc = errno == EEXIST && free_name(dir, name) ? live_link_new(dir, name, fd) : -1;
		if (rc != 0)
			rebind(-1, NULL);	/* nothing could open the file to grow it */
	}
	close(fd);
	return rc;
}

/* The counters in a new file NAME in DIR, written in place (a file system
 * without O_TMPFILE; readers say "the process is starting" meanwhile). */
static int publish_named(int dir, const char *name)
{
	int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, rc;
	int fd = openat(dir, name, flags, 0600);

	if (fd < 0 && errno == EEXIST && free_name(dir, name))
		fd = openat(dir, name, flags, 0600);
	if (fd < 0)
		return -1;
	rc = bind_file(fd);
	if (rc != 0)
		unlinkat(dir, name, 0);
	close(fd);
	return rc;
}

/* The counters moved into a live file of this process's in DIR (at DIR_PATH). */
static void start_file(int dir, const char *dir_path)
{
	char name[24];

	snprintf(name, sizeof(name), "%d", (int)getpid());
	if (snprintf(live_path, sizeof(live_path), "%s/%s", dir_path, name) >= (int)sizeof(live_path) ||
	    (publish_unnamed(dir, name) != 0 && publish_named(dir, name) != 0))
		live_path[0] = '\0';
}

/* Stale files removed with SWEEP (if no process of the user's swept in the
 * last LIVE_SWEEP_INTERVAL_NS), then this process's file made. */
static void open_dir_and_start(int sweep)
{
	char dir_path[LIVE_PATH_MAX];
	int dir = live_dir_open(dir_path, sizeof(dir_path), LIVE_DIR_MAKE);

	if (dir < 0)
		return;
	if (sweep && live_sweep_due(dir))
		live_sweep(dir);
	start_file(dir, dir_path);
	close(dir);
}

void alloctag_live_start(void)
{
	struct counters_header *h;

	/* The counters exist from here on, allocation or not. */
	alloctag_registry_lock();
	h = alloctag_counters_begin();
	alloctag_registry_unlock();
	if (!h)
		return;
	if (mode() == MODE_FORWARD)
		atomic_fetch_or_explicit(&h->state, COUNTERS_FREE_UNSEEN, memory_order_relaxed);
	if (alloctag_config.live)
		open_dir_and_start(1);
}

/* Coarse: a fork child's retry needs no more, and it is cheap on a slow path. */
static int64_t monotonic_ns(void)
{
	return sys_clock_ns(CLOCK_MONOTONIC_COARSE);
}

/* Whether this thread is the process's only one. */
static int single_threaded(void)
{
	struct live_proc p;

	return live_proc_read(getpid(), &p) == 0 && p.threads == 1;
}

/* On a registry slow path (registry.h's hook), not under its lock: a fork child's file. */
static void settle(void)
{
	int saved_errno;

	if (monotonic_ns() < load_relaxed(&child_retry_ns))
		return;
	saved_errno = errno;
	if (single_threaded()) {
		store_relaxed(&alloctag_registry_hook, NULL);
		open_dir_and_start(0);
	} else {
		store_relaxed(&child_retry_ns, monotonic_ns() + CHILD_RETRY_NS);
	}
	errno = saved_errno;
}

/* In a child after fork: counters of its own, its file made later, marked
 * a child's (it may exec, and leave its file, without a word: live_dir.h). */
void alloctag_live_after_fork(void)
{
	struct counters_header *h;

	if (!live_path[0])
		return;
	live_path[0] = '\0';
	rebind(-1, NULL);
	if ((h = alloctag_counters()))
		atomic_fetch_or_explicit(&h->state, COUNTERS_FORKED, memory_order_relaxed);
	store_relaxed(&child_retry_ns, 0);
	store_relaxed(&alloctag_registry_hook, settle);
}

/* PATH unlinked if it is still the file of DEV and INO. */
static void unlink_same(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	if (lstat(path, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
		unlink(path);
}

void alloctag_live_end(void)
{
	struct counters_header *h = alloctag_counters();

	if (h) {
		store_relaxed(&h->exit_ns, (uint64_t)sys_clock_ns(CLOCK_REALTIME));
		atomic_fetch_and_explicit(&h->state, ~(uint32_t)COUNTERS_RUNNING, memory_order_release);
	}
	if (live_path[0] && alloctag_config.live != LIVE_KEEP)
		unlink_same(live_path, live_dev, live_ino);
	live_path[0] = '\0';
}

/* The report WRITE writes, into NAME in DIR: a file not named until it is whole. */
static void keep_as(int dir, const char *name, int (*write)(int fd, void *arg), void *arg)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY, fd = openat(dir, ".", O_TMPFILE | flags, 0600);

	if (fd >= 0) {
		if (write(fd, arg) == 0)
			live_keep_file(dir, name, fd, (uint64_t)lseek(fd, 0, SEEK_END));
		close(fd);
		return;
	}
	/* A file system without O_TMPFILE: written in place. */
	unlinkat(dir, name, 0);
	fd = openat(dir, name, O_CREAT | O_EXCL | O_NOFOLLOW | flags, 0600);
	if (fd < 0)
		return;
	if (write(fd, arg) != 0)
		unlinkat(dir, name, 0);
	else
		live_kept_take_place(dir, name, (uint64_t)lseek(fd, 0, SEEK_END));
	close(fd);
}

void alloctag_live_keep(int (*write)(int fd, void *arg), void *arg)
{
	char dir_path[LIVE_PATH_MAX], name[32];
	int dir;

	if (alloctag_config.secure)	/* no file (config.c) */
		return;
	dir = live_dir_open(dir_path, sizeof(dir_path), LIVE_DIR_MAKE);
	if (dir < 0)
		return;
	snprintf(name, sizeof(name), "%d" LIVE_REPORT_SUFFIX, (int)getpid());
	keep_as(dir, name, write, arg);
	close(dir);
}
