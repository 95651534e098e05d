/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: reports, and where they go.
 *
 * At exit, on alloctag_report(), or on ALLOCTAG_SIGNAL, every thread's
 * counters are summed site by site (counters_read.c) and written
 * (format.c) where config.c says.  A report never disturbs the program:
 *   - it is built with mmap and written with write: no malloc (it would
 *     count itself), safe in a signal handler;
 *   - stdout and stderr are the streams the process started with: their
 *     identity is kept at start, and the report goes to them only while
 *     fd 1 and 2 are still those files (a program started with fd 2 closed
 *     may open a data file as fd 2), else to a copy of the descriptor kept
 *     at start (a program that closes its streams at exit, as gnulib's
 *     close_stdout does, still gets its report);
 *   - a closed pipe gives no SIGPIPE, and a failed write one line on stderr;
 *   - the program's own buffered stdout goes first;
 *   - a report file is truncated by a process's first report and appended
 *     to by its later ones (a report on a signal, then at exit).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "alloctag_internal.h"
#include "format.h"
#include "next.h"

#define HELD_FD_MIN	100		/* where the kept copies of stdout/stderr go */

struct stream {
	int fd;				/* 1 or 2 */
	int held;			/* a copy kept for the report, or -1 */
	int known;			/* open when the process started */
	dev_t dev;
	ino_t ino;
};

static struct stream streams[] = {
	{ .fd = STDOUT_FILENO, .held = -1 },
	{ .fd = STDERR_FILENO, .held = -1 },
};
#define OUT	(&streams[0])
#define ERR	(&streams[1])

static int truncated;			/* this process's first report has been written */

static void stream_record(struct stream *s)
{
	struct stat st;

	s->known = fstat(s->fd, &st) == 0;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
}

static int same_file(int fd, const struct stream *s)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino;
}

/* Where to write to S now: its descriptor, the copy kept, or -1. */
static int stream_fd(const struct stream *s)
{
	if (!s->known)
		return -1;
	if (same_file(s->fd, s))
		return s->fd;
	return same_file(s->held, s) ? s->held : -1;
}

static void stream_hold(struct stream *s)
{
	if (s->known && s->held < 0)
		s->held = fcntl(s->fd, F_DUPFD_CLOEXEC, HELD_FD_MIN);
}

static void stream_release(struct stream *s)
{
	if (s->held >= 0)
		close(s->held);
	s->held = -1;
}

/*
 * All of P written to FD: 0, or an errno.  A closed pipe gives EPIPE, not
 * SIGPIPE: the signal is blocked, and taken back if the write raised it.
 */
static int write_all(int fd, const char *p, size_t n)
{
	sigset_t pipe_only, old, pending;
	int error = 0, was_pending;

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
	while (n && !error) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno != EINTR)
			error = errno;
		else if (w == 0)
			error = EIO;
		else if (w > 0)
			p += w, n -= w;
	}
	if (error == EPIPE && !was_pending) {
		struct timespec now = { 0, 0 };

		sigtimedwait(&pipe_only, NULL, &now);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return error;
}

/* A line for the user, on the stderr the process started with (or nowhere). */
void alloctag_say(const char *line, size_t n)
{
	int fd = stream_fd(ERR);

	if (fd >= 0 && line)
		write_all(fd, line, n);
}

/* ALLOCTAG_REPORT's file name with %p, %e and %% expanded. */
static void expand_path(struct out *o, const char *pattern)
{
	for (const char *p = pattern; *p; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			out_num(o, getpid(), 0);
			p++;
		} else if (p[0] == '%' && p[1] == 'e') {
			out_str(o, program_invocation_short_name);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			out_put(o, "%", 1);
			p++;
		} else {
			out_put(o, p, 1);
		}
	}
	out_put(o, "", 1);
}

/* The report file, opened: truncated at this process's first report. */
static int open_file(const char *path)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_APPEND;
	struct stat st;
	int fd = open(path, flags, 0644);

	if (fd < 0) {
		const char *why = strerrordesc_np(errno);

		alloctag_complain("cannot write the report to ", path, ": ", why ? why : "error", NULL);
		return -1;
	}
	/* Not a device or a pipe: those are written to as they are. */
	if (!truncated && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		close(fd);
		alloctag_complain("cannot truncate the report file ", path, NULL);
		return -1;
	}
	return fd;
}

static void deliver(const struct out *report, int at_exit)
{
	struct out path = { 0 };
	const char *name;
	int fd, error;

	if (alloctag_config.destination == DEST_FILE) {
		expand_path(&path, alloctag_config.path);
		name = path.buf ? path.buf : alloctag_config.path;
		fd = open_file(name);
	} else {
		struct stream *s = alloctag_config.destination == DEST_STDOUT ? OUT : ERR;

		name = s == OUT ? "stdout" : "stderr";
		/* The program's buffered output first; stdio is not safe in a handler. */
		if (at_exit)
			fflush(stdout);
		fd = stream_fd(s);
	}
	if (fd >= 0) {
		error = write_all(fd, report->buf, report->len);
		if (error && error != EPIPE) {
			const char *why = strerrordesc_np(error);

			alloctag_complain("cannot write the report to ", name, ": ", why ? why : "error", NULL);
		}
		if (alloctag_config.destination == DEST_FILE)
			close(fd);
		truncated = 1;
	}
	out_release(&path);
}

/* Whether Valgrind runs the program: it replaces malloc, ours included. */
static int under_valgrind(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "/vgpreload_");
}

#define VALGRIND_NOTE \
	"Valgrind replaced alloctag's malloc, so no allocation was counted; " \
	"run valgrind with --soname-synonyms=somalloc=nouserintercepts to keep alloctag's"

/* Every site's totals, in report order: N lines in memory of SIZE bytes. */
struct sites {
	struct report_line *lines;
	size_t n, size;
};

static int collect(struct sites *out)
{
	struct counters_view v;
	uint32_t nsites;
	struct site_totals *totals;
	const struct counters_site **records;
	size_t arrays;

	alloctag_counters_view(&v);
	nsites = counters_site_count(&v);
	arrays = nsites * (sizeof(*totals) + sizeof(*records));
	out->size = nsites * sizeof(*out->lines) + arrays;
	out->lines = nsites ? alloctag_map(out->size) : NULL;
	out->n = 0;
	if (nsites && !out->lines)
		return -1;
	totals = (struct site_totals *)(out->lines + nsites);
	records = (const struct counters_site **)(totals + nsites);
	if (nsites)
		counters_sum(&v, nsites, totals, records);
	for (uint32_t i = 0; i < nsites; i++) {
		if (!records[i])
			continue;
		out->lines[out->n].totals = totals[i];
		counters_site_text(&v, records[i], &out->lines[out->n].where);
		out->n++;
	}
	report_sort(out->lines, out->n);
	return 0;
}

static void report(int at_exit)
{
	struct counters_header *h = alloctag_counters();
	struct report_meta meta = { program_invocation_short_name, getpid(), 1, NULL };
	struct sites sites;
	struct out o = { 0 };
	int saved_errno = errno;

	if (alloctag_config.destination == DEST_OFF)
		return;
	if ((!h || !load_relaxed(&h->nsites)) && under_valgrind()) {
		alloctag_complain(VALGRIND_NOTE, NULL);
		return;
	}
	if (collect(&sites) != 0) {
		alloctag_complain("out of memory for the report", NULL);
		return;
	}
	if (h && (load_relaxed(&h->state) & COUNTERS_FREE_UNSEEN)) {
		meta.frees_seen = 0;
		meta.free_owner = alloctag_free_owner();
	}
	if (alloctag_config.top && sites.n > alloctag_config.top)
		sites.n = alloctag_config.top;
	report_format(&o, alloctag_config.format, sites.lines, sites.n, &meta);
	if (o.failed)
		alloctag_complain("out of memory for the report", NULL);
	else
		deliver(&o, at_exit);
	out_release(&o);
	if (sites.lines)
		alloctag_unmap(sites.lines, sites.size);
	errno = saved_errno;
}

EXPORT void alloctag_report(void)
{
	report(0);
}

static void on_signal(int sig)
{
	(void)sig;
	report(0);
}

/* First of all at start: the streams as the process got them. */
void alloctag_report_streams(void)
{
	stream_record(OUT);
	stream_record(ERR);
}

/* At start, the settings read: the streams kept, the signal handler. */
void alloctag_report_start(void)
{
	struct sigaction sa;

	if (alloctag_config.destination == DEST_STDOUT)
		stream_hold(OUT);
	if (alloctag_config.destination == DEST_STDERR)
		stream_hold(ERR);
	if (!alloctag_config.signal)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(alloctag_config.signal, &sa, NULL);
}

/*
 * A child after fork keeps no copy of its parent's streams (a daemon that
 * closes its streams must not keep its parent's pipe open), and its first
 * report truncates a report file as its parent's did.
 */
void alloctag_report_after_fork(void)
{
	stream_release(OUT);
	stream_release(ERR);
}

void alloctag_report_at_exit(void)
{
	report(1);
}
