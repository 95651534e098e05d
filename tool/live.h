/* SPDX-License-Identifier: MIT */
/*
 * live.h: a running process's counters, read from its live file without
 * stopping, signalling or attaching to it (the runtime writes the file;
 * runtime/counters.h is its layout).
 *
 * Where: DIR/PID for the first of the runtime's live directories
 * (runtime/live_dir.h: $XDG_RUNTIME_DIR/alloctag, /dev/shm/alloctag-UID,
 * /tmp/alloctag-UID; first the target's own $XDG_RUNTIME_DIR, from
 * /proc/PID/environ, when it differs from ours; last a login session's,
 * /run/user/UID/alloctag, where a process of ours may have kept its report
 * though we run without it) that holds its file.
 *
 * The reader enforces what the writer promises: the directory and the file
 * must be ours alone (owner = our effective uid, no permission for group or
 * others), never a symbolic link (O_NOFOLLOW at each of the two last steps,
 * checked on the open descriptor), the file a regular one.  A file whose
 * writer is gone is settled by the runtime's own rule (live_dir.h,
 * live_settle()): stale (exited, exec'd) removed and ignored; ended without
 * its exit (killed) kept as DIR/PID.counters, its kept report.
 *
 * The process must be ours too: another user's process is refused even for
 * root (run alloctag as that user).
 *
 * The mapping outlives the process: after the writer's exit (and its
 * unlink) a reader still holds the final counters, which is how `record`
 * and `top` show the last state of a program that exited.  A process whose
 * report could not go where it was asked to (or had nowhere to go:
 * ALLOCTAG_REPORT unset) kept it beside its live file, DIR/PID.report, checked as
 * a live file is; snapshot and ps -a read it by its pid, or the counters a
 * killed process left, DIR/PID.counters, whichever was kept last.
 */
#ifndef ALLOCTAG_TOOL_LIVE_H
#define ALLOCTAG_TOOL_LIVE_H

#include <limits.h>
#include <stddef.h>
#include "snapshot.h"

struct live {
	long pid;
	int fd;
	char path[PATH_MAX];
	char *base;		/* the file, mapped read-only */
	size_t mapped;
	struct site *known;	/* by id - 1: the sites' strings, read once */
	size_t nknown;
};

enum { LIVE_ABSENT = -2 };	/* live_open(): no live file (yet) */

/* Find, check and map PID's live file: 0, LIVE_ABSENT (no file, or not
 * ready yet) or -1 (refused, corrupt, another user's...), the error set. */
int live_open(struct live *l, long pid);
/* For a process this one starts (record -- CMD), whose file may not exist
 * yet, or not be ready: call live_init(), make the child, then call
 * live_open_child() until it gives 0 (ready) or -1 (refused, corrupt).  On
 * LIVE_ABSENT, L keeps the file open if it found it, so that a child that
 * ends at once can still be read.  A file whose counters began before
 * NOT_BEFORE_NS is a stale one of an earlier process of that pid. */
void live_init(struct live *l, long pid);
int live_open_child(struct live *l, long pid, int64_t not_before_ns);
/* An inotify descriptor that wakes up when a live file is made in the
 * directory our children's runtime will use (made now if missing, as the
 * runtime would), or -1: then poll. */
int live_watch_dir(void);

/* The counters now (remapping if they grew); -1 with the error set.  The
 * sites' strings belong to L (S->borrowed): S must not outlive it. */
int live_read(struct live *l, struct snapshot *s);
/* The process has exited (its runtime said so, or its file is stale). */
int live_exited(struct live *l);
void live_close(struct live *l);

/* live_open, live_read, live_close: 0, LIVE_ABSENT (no live file) or -1. */
int live_snapshot(struct snapshot *s, long pid);
/* The same, or for a process that has ended (or a pid whose process has no
 * live file), the report it kept in its live directory (runtime/live_dir.h),
 * if any: what a PID argument reads. */
int live_snapshot_or_kept(struct snapshot *s, long pid);

/* PID's kept report (DIR/PID.report, or DIR/PID.counters: unreported, a
 * note saying so, when it is unknown), the one kept last and not before
 * NOT_BEFORE_NS (CLOCK_REALTIME; 0: any), into S, marked exited: 0,
 * LIVE_ABSENT or -1 (refused, corrupt), the error set. */
int live_kept_report(struct snapshot *s, long pid, int64_t not_before_ns);
/* No process PID runs (gone, or a zombie). */
int live_process_ended(long pid);

/* One of the user's processes with live counters, or one that ended and kept its report. */
struct live_process {
	long pid;
	int ended;		/* its kept report: it has ended */
	int unreported;		/* ended without its report: its counters as last seen */
	char *program;
	int64_t bytes, blocks;	/* live */
	size_t nsites;
	int64_t when_ns;	/* CLOCK_REALTIME of the reading (ended: when its report was kept) */
};
/* Those running, by pid, then (WITH_ENDED) those ended, by pid; *OUT to free. */
size_t live_list(struct live_process **out, int with_ended);
void live_list_free(struct live_process *v, size_t n);

#endif
