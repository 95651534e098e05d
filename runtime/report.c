/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: reports, and where they go.
 *
 * At exit, on alloctag_report(), or on ALLOCTAG_SIGNAL, every thread's
 * counters are summed site by site (counters_read.c) and written
 * (format.c) where config.c says.  A report never disturbs the program:
 *   - it needs no malloc (it would count itself) and no new memory: it
 *     streams through a buffer on the stack, sites sorted in static memory
 *     (or mmap'd memory, or unsorted a window at a time when there is
 *     none: a process that used up its address space still gets its
 *     report); safe in a signal handler;
 *   - it holds no descriptor: stdout and stderr are the streams the
 *     process started with (their identity is recorded at start), and the
 *     report goes to fd 1 or 2 only while it is still that file (a program
 *     started with fd 2 closed may open a data file as fd 2; gnulib's
 *     close_stdout closes both at exit); a report file is opened and
 *     closed by each report;
 *   - a report that cannot go where it was asked to (that stream closed
 *     or another file, a report file that cannot be written, a closed
 *     pipe), and with ALLOCTAG_REPORT unset every report, is kept in the
 *     user's live directory (live.c: DIR/PID.report, json), with a note
 *     saying why: never lost, and never on the program's stderr or stdout
 *     unless that is where it was asked to go;
 *   - a closed pipe gives no SIGPIPE;
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
#include "sys.h"

struct stream {
	int fd;				/* 1 or 2 */
	int known;			/* open when the process started */
	dev_t dev;
	ino_t ino;
};

static struct stream streams[] = {
	{ .fd = STDOUT_FILENO },
	{ .fd = STDERR_FILENO },
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

/* S's descriptor, if it is still the file the process started with; else -1. */
static int stream_fd(const struct stream *s)
{
	struct stat st;

	return s->known && fstat(s->fd, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino
	       ? s->fd : -1;
}

/*
 * All of P written to FD: 0, or an errno.  A closed pipe gives EPIPE, not
 * SIGPIPE: the signal is blocked, and taken back if the write raised it.
 */
static int write_quietly(int fd, const char *p, size_t n)
{
	sigset_t pipe_only, old, pending;
	int error = 0, was_pending;

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
	error = sys_write_all(fd, p, n);
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
		write_quietly(fd, line, n);
}

/* ALLOCTAG_REPORT's file name with %p, %e and %% expanded into PATH: 0, or -1 if too long. */
static int expand_path(char *path, size_t size, const char *pattern)
{
	char pid[24];
	struct out o, p;

	out_fixed(&o, path, size - 1);
	out_fixed(&p, pid, sizeof(pid));
	out_num(&p, getpid(), 0);
	for (const char *c = pattern; *c; c++) {
		if (c[0] == '%' && c[1] == 'p') {
			out_put(&o, pid, p.len);
			c++;
		} else if (c[0] == '%' && c[1] == 'e') {
			out_str(&o, program_invocation_short_name);
			c++;
		} else if (c[0] == '%' && c[1] == '%') {
			out_put(&o, "%", 1);
			c++;
		} else {
			out_put(&o, c, 1);
		}
	}
	path[o.len] = '\0';
	return o.failed ? -1 : 0;
}

#define FAILURE_MAX	(sizeof(alloctag_config.path) + 128)

/* "cannot write the report to NAME: WHY", in FAILURE. */
static void say_failure(char *failure, const char *name, const char *why)
{
	struct out o;

	out_fixed(&o, failure, FAILURE_MAX - 1);
	out_str(&o, "cannot write the report to ");
	out_str(&o, name);
	out_str(&o, ": ");
	out_str(&o, why);
	failure[o.len] = '\0';
}

static const char *error_text(int error)
{
	const char *why = strerrordesc_np(error);

	return why ? why : "error";
}

/* The report file, opened: truncated at this process's first report; or
 * -1 and why not in FAILURE. */
static int open_file(const char *path, char *failure)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_APPEND;
	struct stat st;
	int fd = open(path, flags, 0644);

	if (fd < 0) {
		say_failure(failure, path, error_text(errno));
		return -1;
	}
	/* Not a device or a pipe: those are written to as they are. */
	if (!truncated && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		say_failure(failure, path, "it cannot be truncated");
		close(fd);
		return -1;
	}
	return fd;
}

#define VALGRIND_NOTE \
	"Valgrind replaced alloctag's malloc, so no allocation was counted; " \
	"run valgrind with --soname-synonyms=somalloc=nouserintercepts to keep alloctag's"
#define UNSORTED_NOTE \
	"no memory to sort the sites: they are in the order they were first seen, every one"

/*
 * Room for the totals of CAP sites.  A report needs no new memory: up to
 * STATIC_SITES sites it sorts them in static memory (while no other report
 * uses it), more in memory it maps, and without that it writes them a
 * window of STACK_SITES at a time, unsorted, from the stack.
 */
#define STATIC_SITES	256
#define STACK_SITES	16

struct room {
	struct report_line *lines;
	struct site_totals *totals;
	const struct counters_site **records;
	uint32_t cap;
	size_t mapped;		/* bytes mapped for it, or 0 */
};

#define ROOM_BYTES(n)	((size_t)(n) * (sizeof(struct report_line) + sizeof(struct site_totals) + \
					 sizeof(const struct counters_site *)))

static struct {
	struct report_line lines[STATIC_SITES];
	struct site_totals totals[STATIC_SITES];
	const struct counters_site *records[STATIC_SITES];
} static_room;
static atomic_flag static_room_busy = ATOMIC_FLAG_INIT;

static int map_room(struct room *r, uint32_t n)
{
	char *p = alloctag_map(ROOM_BYTES(n));

	if (!p)
		return -1;
	r->lines = (struct report_line *)p;
	r->totals = (struct site_totals *)(r->lines + n);
	r->records = (const struct counters_site **)(r->totals + n);
	r->cap = n;
	r->mapped = ROOM_BYTES(n);
	return 0;
}

/* Sites FIRST..FIRST+N-1 (N <= R's cap) into R's lines: how many have a record. */
static size_t collect(const struct counters_view *v, struct room *r, uint32_t first, uint32_t n)
{
	size_t lines = 0;

	counters_sum_range(v, first, n, r->totals, r->records);
	for (uint32_t i = 0; i < n; i++) {
		if (!r->records[i])
			continue;
		r->lines[lines].totals = r->totals[i];
		counters_site_text(v, r->records[i], &r->lines[lines].where);
		lines++;
	}
	return lines;
}

/* Every site, largest first (ALLOCTAG_TOP of them), from R of room for all. */
static void write_sorted(struct out *o, enum report_format format, const struct counters_view *v,
			 struct room *r, uint32_t nsites, const struct report_meta *meta)
{
	size_t n = collect(v, r, 1, nsites);

	report_sort(r->lines, n);
	if (alloctag_config.top && n > alloctag_config.top)
		n = alloctag_config.top;
	report_format(o, format, r->lines, n, meta);
}

/* Every site, a window of R's cap at a time, in the order of their ids. */
static void write_unsorted(struct out *o, enum report_format format, const struct counters_view *v,
			   struct room *r, uint32_t nsites, struct report_meta *meta, const char **notes)
{
	size_t index = 0;

	notes[meta->nnotes++] = UNSORTED_NOTE;
	report_begin(o, format, meta);
	for (uint32_t first = 1; first <= nsites && !o->failed; first += r->cap) {
		uint32_t n = nsites - first + 1 < r->cap ? nsites - first + 1 : r->cap;
		size_t lines = collect(v, r, first, n);

		for (size_t i = 0; i < lines; i++)
			report_site(o, format, &r->lines[i], index++);
	}
	report_end(o, format);
}

/* The report in FORMAT, streamed into O; FAILURE, if not empty, a note of its own. */
static void write_report(struct out *o, enum report_format format, const char *failure)
{
	struct counters_header *h = alloctag_counters();
	struct report_meta meta = { .program = program_invocation_short_name, .pid = getpid(), .frees_seen = 1 };
	const char *notes[CONFIG_NOTES + 3];
	struct report_line stack_lines[STACK_SITES];
	struct site_totals stack_totals[STACK_SITES];
	const struct counters_site *stack_records[STACK_SITES];
	struct room room = { stack_lines, stack_totals, stack_records, STACK_SITES, 0 };
	int claimed = !atomic_flag_test_and_set_explicit(&static_room_busy, memory_order_acquire);
	struct counters_view v;
	uint32_t nsites;

	meta.notes = notes;
	for (unsigned i = 0; i < alloctag_config.nnotes; i++)
		notes[meta.nnotes++] = alloctag_config.notes[i];
	if (failure[0])
		notes[meta.nnotes++] = failure;
	if (h && (load_relaxed(&h->state) & COUNTERS_FREE_UNSEEN)) {
		meta.frees_seen = 0;
		meta.free_owner = alloctag_free_owner();
	}
	alloctag_counters_view(&v);
	nsites = counters_site_count(&v);
	if (!nsites && alloctag_config.under_valgrind)
		notes[meta.nnotes++] = VALGRIND_NOTE;
	if (claimed)
		room = (struct room){ static_room.lines, static_room.totals, static_room.records, STATIC_SITES, 0 };
	if (nsites > room.cap && map_room(&room, nsites) != 0)
		write_unsorted(o, format, &v, &room, nsites, &meta, notes);
	else
		write_sorted(o, format, &v, &room, nsites, &meta);
	out_flush(o);
	if (room.mapped)
		alloctag_unmap(room.lines, room.mapped);
	if (claimed)
		atomic_flag_clear_explicit(&static_room_busy, memory_order_release);
}

/* Where the report streams to: a descriptor, and the errno of a failed write. */
struct sink {
	int fd;
	int error;
};

static int flush_to_fd(struct out *o)
{
	struct sink *sink = o->sink;

	sink->error = write_quietly(sink->fd, o->buf, o->len);
	o->len = 0;
	return sink->error ? -1 : 0;
}

#define OUT_BUFFER	2048

/* The report in FORMAT written to FD: 0, or the errno of a failed write. */
static int report_to(int fd, enum report_format format, const char *failure)
{
	char buf[OUT_BUFFER];
	struct sink sink = { fd, 0 };
	struct out o = { .buf = buf, .cap = sizeof(buf), .flush = flush_to_fd, .sink = &sink };

	write_report(&o, format, failure);
	return sink.error;
}

/* The report file, its name expanded into PATH: a descriptor, or -1 and why not in FAILURE. */
static int open_report_file(char *path, size_t size, char *failure)
{
	if (expand_path(path, size, alloctag_config.path) != 0) {
		say_failure(failure, alloctag_config.path, "the name is too long");
		return -1;
	}
	return open_file(path, failure);
}

/* The stream asked for, *NAME, if it is still the process's: its descriptor, or -1 and why not. */
static int open_stream(int at_exit, const char **name, char *failure)
{
	struct stream *s = alloctag_config.destination == DEST_STDOUT ? OUT : ERR;
	int fd = stream_fd(s);

	*name = s == OUT ? "stdout" : "stderr";
	/* The program's buffered output first; stdio is not safe in a handler. */
	if (at_exit && fd >= 0)
		fflush(stdout);
	if (fd < 0)
		say_failure(failure, *name, "it is closed, or not the file it was when the process started");
	return fd;
}

/* The report where ALLOCTAG_REPORT says: 1, or 0 and why not in FAILURE. */
static int deliver(int at_exit, char *failure)
{
	char path[sizeof(alloctag_config.path) + 64];
	const char *name = path;
	int to_file = alloctag_config.destination == DEST_FILE, fd, error;

	fd = to_file ? open_report_file(path, sizeof(path), failure) : open_stream(at_exit, &name, failure);
	if (fd < 0)
		return 0;
	error = report_to(fd, alloctag_config.format, "");
	if (to_file)
		close(fd);
	truncated = 1;
	if (error)
		say_failure(failure, name, error == EPIPE ? "a closed pipe" : error_text(error));
	return !error;
}

static int keep_report(int fd, void *failure)
{
	return report_to(fd, FORMAT_JSON, failure);
}

static void report(int at_exit)
{
	char failure[FAILURE_MAX] = "";
	int saved_errno = errno;

	if (alloctag_config.destination != DEST_OFF &&
	    (alloctag_config.destination == DEST_KEEP || !deliver(at_exit, failure)))
		alloctag_live_keep(keep_report, failure);
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

/* At start, the settings read: the signal handler. */
void alloctag_report_start(void)
{
	struct sigaction sa;

	if (!alloctag_config.signal)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(alloctag_config.signal, &sa, NULL);
}

void alloctag_report_at_exit(void)
{
	report(1);
}
