/* SPDX-License-Identifier: MIT */
/*
 * live_dir.h: where live files are, and whether one is stale or the last
 * word of a process that ended, for the runtime that makes them and the
 * alloctag command that reads them: one implementation of both, so that
 * they never disagree.
 *
 * Where.  The candidates, in order:
 *
 *   $XDG_RUNTIME_DIR/alloctag   /dev/shm/alloctag-UID   /tmp/alloctag-UID
 *
 * ($XDG_RUNTIME_DIR read as secure_getenv() does: not in a set-user-ID
 * program.)  A process's $XDG_RUNTIME_DIR may not be its reader's: one
 * started in a login session has /run/user/UID (pam_systemd's), one run by
 * cron or over sudo none; a reader looks in that session's directory too
 * (live_dir_session()).  UID is the effective user as the kernel has it
 * (sys_euid(): under fakeroot too).  A candidate is used only if it is a directory of the user's
 * alone: owned by the effective user, no permission for group or others,
 * not a symlink (opened with O_NOFOLLOW, checked on the open descriptor, so
 * no rename between check and use can change what is used).  Another user's
 * directory at that name is refused, never followed or changed.
 *
 * Whose.  A live file is named for its writer's pid, and no descriptor of
 * it stays open (the writer maps it and closes it).  Its header
 * (counters.h) says who wrote it: the pid, its pid namespace, its start
 * time, and where the kernel put its program's code and stack, which
 * another exec changes (fields 22, 26 and 28 of /proc/PID/stat), and when
 * it exited, once its runtime's exit has run (after its report).  Its
 * writer has ended when that process is gone (no such pid, or a zombie) or
 * the pid is another process's (another start time).  Then the file is
 *
 *   ended   if the writer ended without its exit (killed by a signal,
 *           _exit()): it wrote no report, and the file holds its counters
 *           as last seen, its last word: kept (below);
 *   stale   if it had exited (its report written), or the process exec'd
 *           (another code or stack: it lives on as another program), or
 *           the file is not this release's counters: removed.  So is a
 *           fork child's (COUNTERS_FORKED) that ended without its exit:
 *           children exec without a word, and once the pid is gone an
 *           exec cannot be told from a kill.  (A process that execs as its
 *           last act, and whose new program ends before any reader looks,
 *           is taken as ended: its file is its last word too.)
 *
 * What cannot be told (no /proc, another pid namespace, a process /proc
 * hides from us) is neither: the file is its writer's.  A file kept at
 * exit (ALLOCTAG_LIVE=keep) stays for LIVE_KEEP_GRACE_NS for its reader.
 *
 * Kept.  A report that could not go where it was asked to is kept beside
 * the live files, as PID.report (runtime/live.c; a json report); an ended
 * process's live file as PID.counters (its counters, as they were), by
 * whichever reader finds it so, the runtime's sweep at start included.
 * Both are the ended processes' kept reports: the last LIVE_KEPT_MAX of
 * them, in at most LIVE_KEPT_BYTES (the memory their files hold), the
 * oldest removed first (live_kept.c: an index, DIR/.index, so that no
 * process stats them).
 *
 * System calls and snprintf only: no malloc (the runtime calls this from
 * its constructor, its allocator and at fork).
 */
#ifndef ALLOCTAG_LIVE_DIR_H
#define ALLOCTAG_LIVE_DIR_H

#include <stddef.h>
#include <stdint.h>

#define LIVE_PATH_MAX	4096
#define LIVE_DIR_MAKE	1	/* make the directory (mode 0700) if missing */
#define LIVE_KEEP_GRACE_NS	(60 * 1000000000LL)
#define LIVE_REPORT_SUFFIX	".report"	/* a kept report */
#define LIVE_ENDED_SUFFIX	".counters"	/* the live file of a process that ended without it */
#define LIVE_KEPT_MAX		64
#define LIVE_KEPT_BYTES		(16u << 20)
#define LIVE_SWEEP_INTERVAL_NS	1000000000LL	/* a user's processes sweep once a second at most */
#define LIVE_INDEX_MAGIC	"alloctag-index1"	/* live_kept.c */

#define LIVE_DIR_NAME		"alloctag"	/* in an $XDG_RUNTIME_DIR */
#define LIVE_SESSION_RUNTIME_DIR "/run/user/%u"	/* a login session's $XDG_RUNTIME_DIR */

/* Candidate I's path in PATH: 0, or -1 when there is no candidate I. */
int live_dir_candidate(int i, char *path, size_t size);
/* The live directory of a process whose $XDG_RUNTIME_DIR is RUNTIME_DIR, in
 * PATH: 0, or -1 if RUNTIME_DIR is not an absolute path (the runtime
 * ignores it) or PATH is too small. */
int live_dir_under(const char *runtime_dir, char *path, size_t size);
/* The live directory of the user's login session's processes,
 * /run/user/UID/alloctag, in PATH: 0, or -1. */
int live_dir_session(char *path, size_t size);

/* The directory at PATH, opened if it is the user's alone: a descriptor, or
 * -1 and *WHY says why not (errno is kept). */
int live_dir_open_path(const char *path, int flags, const char **why);

/* The first candidate that is usable, its path in PATH: a descriptor, or -1. */
int live_dir_open(char *path, size_t size, int flags);

/* FN(DIRFD, NAME, ARG) for every entry of DIRFD but . and .., until FN gives
 * nonzero (which this gives back); 0 at the end, -1 if DIRFD cannot be read. */
int live_dir_each(int dirfd, int (*fn)(int dirfd, const char *name, void *arg), void *arg);

/* A live file's name: its pid in *PID, if NAME is one (digits, above 0). */
int live_name_pid(const char *name, long *pid);
/* A kept report's name: its pid in *PID, if NAME is one (PID.report,
 * PID.counters). */
int live_kept_pid(const char *name, long *pid);

/* What /proc/PID/stat says of a process (0 for what it hides from us). */
struct live_proc {
	char state;		/* field 3: 'Z' a zombie */
	long threads;		/* field 20 */
	uint64_t start;		/* field 22: clock ticks after boot */
	uint64_t code;		/* field 26: where its program's code begins */
	uint64_t stack;		/* field 28: where its stack begins */
};
enum { LIVE_PROC_GONE = -1, LIVE_PROC_UNKNOWN = -2 };

/* 0, LIVE_PROC_GONE (no such process) or LIVE_PROC_UNKNOWN (no /proc). */
int live_proc_read(long pid, struct live_proc *p);

/* This process's pid namespace (the inode of /proc/self/ns/pid), or 0. */
uint64_t live_pid_ns(void);

/* What the live file open at FD, named for PID, is (above). */
enum live_file_state { LIVE_FILE_RUNNING, LIVE_FILE_ENDED, LIVE_FILE_STALE };
int live_file_state(int fd, long pid);

/* NAME in DIRFD unlinked if it is still the file open at FD (the same
 * header, read through both: the writer of a file settled is gone): 0, or
 * -1. */
int live_unlink_same(int dirfd, const char *name, int fd);

/* The file open at FD named NAME in DIRFD too (an O_TMPFILE made whole, a
 * live file kept): 0, or -1 (errno EEXIST if the name is taken). */
int live_link_new(int dirfd, const char *name, int fd);

/* The same, replacing a file of that name: 0, or -1. */
int live_link(int dirfd, const char *name, int fd);

/* The kept reports (live_kept.c): the index of the last LIVE_KEPT_MAX, in
 * DIR/.index.  The file open at FD, holding BYTES of memory, kept as NAME
 * (PID.report, PID.counters) in DIRFD, its place in the index taken first
 * (the oldest kept file removed, and more while they hold more than
 * LIVE_KEPT_BYTES): 0, or -1 (errno of the link). */
int live_keep_file(int dirfd, const char *name, int fd, uint64_t bytes);
/* Its place alone, for a kept file NAME of BYTES (one already named: made
 * in place, where the file system has no O_TMPFILE). */
void live_kept_take_place(int dirfd, const char *name, uint64_t bytes);
/* Kept files the index does not name (an older runtime's) given places,
 * the oldest first; beyond LIVE_KEPT_MAX, removed. */
void live_kept_adopt(int dirfd);
/* Whether this process sweeps DIRFD (live_sweep()): 1 for the first to ask
 * LIVE_SWEEP_INTERVAL_NS or more after the last sweep of the user's, else 0. */
int live_sweep_due(int dirfd);

/* The live file NAME in DIRFD, open at FD, named for PID, done with as its
 * state says (live_file_state()): stale, removed; ended, kept as
 * PID.counters (the kept reports bounded) and removed from NAME; else
 * left.  The state it was found in (running, if it could not be kept). */
int live_settle(int dirfd, const char *name, int fd, long pid);

/* NAME in DIRFD settled (live_settle()) if it is a live file of ours (a
 * regular file named for a pid, owned by us): 1 if it is gone from NAME. */
int live_settle_name(int dirfd, const char *name);

/* NAME in DIRFD removed if it is a live file of ours: 1 if removed. */
int live_remove(int dirfd, const char *name);

/* Every live file of DIRFD settled: the stale removed, the ended kept; the
 * strays among the kept adopted.  No file is stat'ed but a stray. */
void live_sweep(int dirfd);

#endif /* ALLOCTAG_LIVE_DIR_H */
