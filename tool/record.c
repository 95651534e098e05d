/* SPDX-License-Identifier: MIT */
/*
 * record.c: `alloctag record [-i INTERVAL] [-o FILE] [-m MAXSIZE]
 * (PID | -- CMD [ARGS...])`: the counters of a process, read every
 * INTERVAL (default 100ms) from its live file, into a timeline file
 * (timeline.h) of at most MAXSIZE bytes (default 16M).
 *
 * The target does nothing for it: each reading is a walk over the mapped
 * counters.  When the process exits, the last reading is its final
 * counters (the mapping outlives its file), the same as its exit report.
 *
 * With -- CMD, record runs CMD, ignores SIGINT and SIGQUIT while it runs
 * (they are CMD's to take, as the shell's are), and exits with CMD's
 * status.  With a PID, SIGINT or SIGTERM ends the recording.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "live.h"
#include "timeline.h"
#include "views.h"

#define WAIT_POLL_NS		10000000LL	/* looking for a new process's live file */
#define START_SLACK_NS		1000000000LL	/* clocks: the child's runtime began after us */
#define WAIT_NOTE_NS		2000000000LL	/* ... and saying so after this long */

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct recorder {
	struct live live;
	struct timeline_writer w;
	int64_t start_mono;
	struct snapshot best;	/* of the readings not written yet, the one with most live bytes */
	int64_t best_t, best_total;
	unsigned pending;	/* readings since the last sample written */
	size_t written;
};

static int64_t total_live(const struct snapshot *s)
{
	int64_t t = 0;

	for (size_t i = 0; i < s->n; i++)
		t += s->sites[i].bytes;
	return t;
}

static int write_best(struct recorder *r)
{
	int rc = 0;

	if (r->pending) {
		rc = timeline_append(&r->w, &r->best, r->best_t);
		snapshot_clear(&r->best);
		r->pending = 0;
		r->written++;
	}
	return rc;
}

/* One reading: kept if it has the most live bytes of its stride. */
static int take(struct recorder *r, int force)
{
	struct snapshot s;
	int64_t t = sys_clock_ns(CLOCK_MONOTONIC) - r->start_mono, total;

	if (live_read(&r->live, &s))
		return -1;
	total = total_live(&s);
	if (!r->pending || total > r->best_total || force) {
		if (r->pending && force && write_best(r))	/* the last one always goes in */
			return -1;
		snapshot_clear(&r->best);
		r->best = s;
		r->best_t = t;
		r->best_total = total;
	} else {
		snapshot_clear(&s);
	}
	r->pending++;
	if (force || r->pending >= r->w.stride)
		return write_best(r);
	return 0;
}

static void sleep_until(int64_t when)
{
	struct timespec ts = { when / 1000000000, when % 1000000000 };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);	/* EINTR: a signal to look at */
}

/* ---- the process to record ---------------------------------------------- */

/* CMD started; one line and exit if it cannot be (exec's errno comes back
 * through a pipe that a successful exec closes). */
static pid_t start_command(char **argv)
{
	int pipefd[2], err = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) || (pid = fork()) < 0)
		fail("cannot start %s: %s", argv[0], strerror(errno));
	if (pid == 0) {
		close(pipefd[0]);
		execvp(argv[0], argv);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &err, sizeof(err)) == sizeof(err)) {
		waitpid(pid, NULL, 0);
		fail("cannot run %s: %s", argv[0], strerror(err));
	}
	close(pipefd[0]);
	return pid;
}

static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A child that ended before its live file could be read: say why, end as it did. */
static _Noreturn void child_ended_early(const char *cmd, pid_t child, int status)
{
	fail("%s (pid %ld) %s with no live counters: it does not run with the alloctag runtime "
	     "(build it with alloctag-cc), or runs with ALLOCTAG_LIVE=off", cmd, (long)child,
	     WIFEXITED(status) ? "exited" : "was killed");
}

/* Wait for CHILD's live file (it appears when its runtime starts), woken by
 * WATCH (inotify) when it can be, so that a short program is caught.  If the
 * child ends meanwhile: *STATUS, and 1 (it is reaped) if its file could still
 * be read, else one line and exit. */
static int open_child(struct live *l, const char *cmd, pid_t child, int watch, int64_t started_ns,
		      int *status)
{
	int64_t start = sys_clock_ns(CLOCK_MONOTONIC);
	int noted = 0;

	for (;;) {
		int rc = live_open_child(l, child, started_ns - START_SLACK_NS);
		char events[4096];

		if (rc == 0)
			return 0;
		if (rc != LIVE_ABSENT)
			fail_error();
		if (waitpid(child, status, WNOHANG) == child) {
			if (live_open_child(l, child, started_ns - START_SLACK_NS) == 0)
				return 1;
			child_ended_early(cmd, child, *status);
		}
		if (!noted && sys_clock_ns(CLOCK_MONOTONIC) - start > WAIT_NOTE_NS) {
			fprintf(stderr, "alloctag: waiting for the live counters of %s (pid %ld): is it "
				"built with alloctag-cc?\n", cmd, (long)child);
			noted = 1;
		}
		if (watch >= 0) {
			struct pollfd pfd = { watch, POLLIN, 0 };

			if (poll(&pfd, 1, WAIT_POLL_NS / 1000000) > 0)
				while (read(watch, events, sizeof(events)) > 0)
					;
		} else {
			sleep_until(sys_clock_ns(CLOCK_MONOTONIC) + WAIT_POLL_NS);
		}
	}
}

static void handle_signals(int child_mode)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (child_mode)
		sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	if (child_mode)
		sigaction(SIGQUIT, &sa, NULL);
}

/* ---- the loop ----------------------------------------------------------- */

/* Read every INTERVAL until the process exits (or CHILD does, or we are
 * stopped); the last reading is always written.  *STATUS: CHILD's. */
static int record_loop(struct recorder *r, int64_t interval, pid_t child, int *status)
{
	int64_t next = r->start_mono;
	int exited = 0;

	for (;;) {
		int ended = 0;

		if (child > 0 && waitpid(child, status, WNOHANG) == child) {
			child = 0;
			ended = 1;
		}
		ended = ended || stop_requested || live_exited(&r->live);
		exited = ended && !stop_requested;
		if (take(r, ended))
			return -1;
		if (ended)
			break;
		next += interval;
		if (next < sys_clock_ns(CLOCK_MONOTONIC))	/* fell behind: skip, do not burst */
			next = sys_clock_ns(CLOCK_MONOTONIC) + interval;
		sleep_until(next);
	}
	if (timeline_finish(&r->w, sys_clock_ns(CLOCK_MONOTONIC) - r->start_mono, exited))
		return -1;
	if (child > 0)
		waitpid(child, status, 0);
	return 0;
}

/* The command O names started, and its live file open (or its counters, if
 * it ended at once): 1 if it was reaped already, its *STATUS set. */
static int start_recorded_command(const struct record_options *o, struct live *l, int *status)
{
	const char *live = getenv("ALLOCTAG_LIVE");
	int64_t started;
	pid_t child;
	int watch, reaped;

	if (live && !strcmp(live, "off"))
		fail("ALLOCTAG_LIVE=off is set: %s would have no live counters to record", o->command[0]);
	/* Its file stays after it exits, however short it runs, until read here. */
	setenv("ALLOCTAG_LIVE", "keep", 1);
	watch = live_watch_dir();
	started = sys_clock_ns(CLOCK_REALTIME);
	handle_signals(1);
	child = start_command(o->command);
	live_init(l, child);
	reaped = open_child(l, o->command[0], child, watch, started, status);
	if (watch >= 0)
		close(watch);
	return reaped;
}

int record_run(const struct record_options *o)
{
	const char *output = o->output, *cmd;
	char default_output[64], name[32], *program;
	struct recorder r;
	struct snapshot first;
	pid_t child = 0;
	long pid = o->pid;
	int status = 0;

	memset(&r, 0, sizeof(r));
	if (o->command) {
		cmd = o->command[0];
		if (!start_recorded_command(o, &r.live, &status))
			child = r.live.pid;
		pid = r.live.pid;
	} else {
		snprintf(name, sizeof(name), "%ld", pid);
		cmd = name;
		handle_signals(0);
		if (live_open(&r.live, pid))
			fail_error();
	}
	if (!output) {
		snprintf(default_output, sizeof(default_output), "alloctag-%ld.timeline", pid);
		output = default_output;
	}
	if (live_read(&r.live, &first))
		fail_error();
	r.start_mono = sys_clock_ns(CLOCK_MONOTONIC);
	/* The program as it was started: a PID given names nothing else. */
	program = xstrdup(first.program ? first.program : cmd);
	if (timeline_create(&r.w, output, program, pid, sys_clock_ns(CLOCK_REALTIME), o->interval_ns,
			    o->max_bytes))
		fail_error();
	snapshot_clear(&first);
	if (record_loop(&r, o->interval_ns, child, &status))
		fail_error();
	fprintf(stderr, "alloctag: %zu sample%s of %s (pid %ld) in %s\n", r.written, r.written == 1 ? "" : "s",
		program, pid, output);
	free(program);
	if (o->command)
		unlink(r.live.path);	/* kept for us (ALLOCTAG_LIVE=keep) */
	live_close(&r.live);
	return o->command ? exit_code(status) : 0;
}
