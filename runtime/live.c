/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: the live file, through which `alloctag top PID` and its
 * kin read a running process's counters, at no cost to it (the counters
 * are the file's pages: counters.c).
 *
 * Where: the first of these directories that is the user's alone (owned by
 * the user, mode 0700, not a symlink; made if missing):
 *   $XDG_RUNTIME_DIR/alloctag, /dev/shm/alloctag-UID, /tmp/alloctag-UID
 * The file: the process's pid, mode 0600, made new (O_EXCL, O_NOFOLLOW).
 * Alive: the process holds a shared flock on it, through a descriptor that
 * exec closes; a reader that can take an exclusive one knows the file is
 * stale (its process died or exec'd).  A stale file of the same pid is
 * replaced.  At exit the file is marked exited and removed (a reader that
 * mapped it keeps the final counters), or kept with ALLOCTAG_LIVE=keep.
 * A child after fork gets its own.  ALLOCTAG_LIVE=off: no file.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "alloctag_internal.h"
#include "live_dir.h"
#include "next.h"
#include "registry.h"

static int live_fd = -1;
static char live_path[LIVE_PATH_MAX + 32];

/* A stale file named NAME in DIR (same user, no live writer) removed. */
static int remove_stale(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	int stale;

	if (fd < 0)
		return -1;
	stale = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return stale ? unlinkat(dir, name, 0) : -1;
}

/* This process's live file, made in DIR and held: its descriptor, or -1. */
static int make_file(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0 && errno == EEXIST && remove_stale(dir, name) == 0)
		fd = openat(dir, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0) {
		unlinkat(dir, name, 0);
		close(fd);
		fd = -1;
	}
	return fd;
}

static int rebind(int fd)
{
	int ok;

	alloctag_registry_lock();
	ok = alloctag_counters_rebind(fd);
	alloctag_registry_unlock();
	return ok;
}

static void start_file(void)
{
	char dir_path[LIVE_PATH_MAX], name[24];
	int dir = live_dir_open(dir_path, sizeof(dir_path), LIVE_DIR_MAKE);

	if (dir < 0)
		return;
	snprintf(name, sizeof(name), "%d", (int)getpid());
	live_fd = make_file(dir, name);
	if (live_fd >= 0 && rebind(live_fd) != 0) {
		unlinkat(dir, name, 0);
		close(live_fd);
		live_fd = -1;
	}
	if (live_fd >= 0)
		snprintf(live_path, sizeof(live_path), "%s/%s", dir_path, name);
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
		start_file();
}

/* In a child after fork: counters of its own, in a file of its own. */
void alloctag_live_after_fork(void)
{
	if (live_fd < 0)
		return;
	close(live_fd);
	live_fd = -1;
	live_path[0] = '\0';
	start_file();
	if (live_fd < 0)
		rebind(-1);
}

void alloctag_live_end(void)
{
	struct counters_header *h = alloctag_counters();
	struct timespec ts;

	if (h) {
		clock_gettime(CLOCK_REALTIME, &ts);
		store_relaxed(&h->exit_ns, (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
		atomic_fetch_and_explicit(&h->state, ~(uint32_t)COUNTERS_RUNNING, memory_order_release);
	}
	if (live_fd < 0)
		return;
	if (alloctag_config.live != LIVE_KEEP)
		unlink(live_path);
	close(live_fd);
	live_fd = -1;
}
