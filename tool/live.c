/* SPDX-License-Identifier: MIT */
/* live.c: finding, checking and reading a process's live file (live.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "counters_read.h"
#include "live.h"
#include "live_dir.h"
#include "report_parse.h"
#include "sys.h"

#define MAX_CANDIDATES	5	/* the target's, the runtime's three, the session's */
#define PROC_TEXT_MAX	65536

/* ---- the process ------------------------------------------------------ */

static void proc_name(long pid, char *name, size_t size)
{
	char path[64];
	struct buf b = { 0 };

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	snprintf(name, size, "?");
	if (read_file(path, &b) == 0 && b.len) {
		b.data[strcspn(b.data, "\n")] = '\0';
		snprintf(name, size, "%s", b.data);
	}
	buf_free(&b);
}

/* The value of NAME in PID's environment at its start, or NULL (free it). */
static char *proc_env(long pid, const char *name)
{
	char path[64];
	struct buf b = { 0 };
	size_t n = strlen(name);
	char *value = NULL;

	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	if (read_file(path, &b) == 0)
		for (size_t i = 0; i < b.len; i += strlen(b.data + i) + 1)
			if (!strncmp(b.data + i, name, n) && b.data[i + n] == '=') {
				value = xstrdup(b.data + i + n + 1);
				break;
			}
	buf_free(&b);
	return value;
}

static int proc_maps_mention(long pid, const char *word)
{
	char path[64];
	struct buf b = { 0 };
	int found;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	found = read_file(path, &b) == 0 && b.data && strstr(b.data, word);
	buf_free(&b);
	return found;
}

/* The process exists and is ours (as the kernel says, as for the live
 * directory: sys.h); -1 with the error set otherwise. */
static int check_process(long pid)
{
	char path[64], name[64];
	struct stat st;
	int fd, found;

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	found = fd >= 0 && sys_fstat(fd, &st) == 0;
	if (fd >= 0)
		close(fd);
	if (!found) {
		error_set("no process %ld", pid);
		return -1;
	}
	if (st.st_uid != sys_euid()) {
		struct passwd *pw = getpwuid(st.st_uid);

		proc_name(pid, name, sizeof(name));
		error_set("process %ld (%s) belongs to %s%s(uid %u), not to you: alloctag reads only its "
			  "own user's processes (run it as that user)", pid, name,
			  pw ? pw->pw_name : "", pw ? " " : "", (unsigned)st.st_uid);
		return -1;
	}
	return 0;
}

/* Why PID has no live file, for the one line that says so. */
static void explain_absent(long pid)
{
	char name[64];
	char *live = proc_env(pid, "ALLOCTAG_LIVE");

	proc_name(pid, name, sizeof(name));
	if (live && !strcmp(live, "off"))
		error_set("process %ld (%s) runs with ALLOCTAG_LIVE=off: it has no live counters", pid, name);
	else if (proc_maps_mention(pid, "liballoctag"))
		error_set("process %ld (%s) runs the alloctag runtime but has no live file (a fork child "
			  "makes it at its first allocation from a call site new to it, if it runs one "
			  "thread then; or none of its live directories was usable)", pid, name);
	else
		error_set("process %ld (%s) has no live counters: it does not run with the alloctag "
			  "runtime (build it with alloctag-cc)", pid, name);
	free(live);
}

/* ---- the live directory and file ---------------------------------------- */

/* DIRS[N] kept, if it is none of DIRS[0] to DIRS[N - 1]: the new N. */
static int add_candidate(char (*dirs)[LIVE_PATH_MAX], int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(dirs[i], dirs[n]))
			return n;
	return n + 1;
}

/* The live directories to look in, each once: a running PID's own (its
 * $XDG_RUNTIME_DIR's), the runtime's candidates (live_dir.h), then the
 * login session's, which a process of the user's may have used where we do
 * not (PID 0: no process). */
static int candidates(char (*dirs)[LIVE_PATH_MAX], long pid)
{
	char *target_xdg = pid ? proc_env(pid, "XDG_RUNTIME_DIR") : NULL;
	int n = 0;

	if (live_dir_under(target_xdg, dirs[n], LIVE_PATH_MAX) == 0)
		n = add_candidate(dirs, n);
	for (int i = 0; n < MAX_CANDIDATES && live_dir_candidate(i, dirs[n], LIVE_PATH_MAX) == 0; i++)
		n = add_candidate(dirs, n);
	if (n < MAX_CANDIDATES && live_dir_session(dirs[n], LIVE_PATH_MAX) == 0)
		n = add_candidate(dirs, n);
	free(target_xdg);
	return n;
}

/* Is what sys_fstat() says of PATH of KIND, ours, and closed to others? */
static int check_owned(const struct stat *st, const char *path, mode_t kind, const char *what)
{
	if ((st->st_mode & S_IFMT) != kind) {
		error_set("refusing %s: not a %s", path, what);
		return -1;
	}
	if (st->st_uid != sys_euid()) {
		error_set("refusing %s: owned by uid %u, not by you (uid %u)", path,
			  (unsigned)st->st_uid, (unsigned)sys_euid());
		return -1;
	}
	if (st->st_mode & 077) {
		error_set("refusing %s: mode %03o, open to others (the runtime makes it 600)", path,
			  (unsigned)st->st_mode & 0777);
		return -1;
	}
	return 0;
}

/* openat() that never follows a symbolic link; LIVE_ABSENT if nothing is there. */
static int open_nofollow(int dirfd, const char *name, const char *path, int flags)
{
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd >= 0)
		return fd;
	if (errno == ENOENT)
		return LIVE_ABSENT;
	if (errno == ELOOP || (errno == ENOTDIR && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			       S_ISLNK(st.st_mode)))
		error_set("refusing %s: a symbolic link", path);
	else
		error_set("cannot open %s: %s", path, strerror(errno));
	return -1;
}

/* NAME in DIRFD (at PATH) opened, never through a symbolic link, and
 * checked (a regular file, ours, closed to others), what sys_fstat() says
 * in *ST: a descriptor, LIVE_ABSENT or -1. */
static int open_owned_file(int dirfd, const char *name, const char *path, struct stat *st)
{
	int fd = open_nofollow(dirfd, name, path, O_RDONLY);

	if (fd >= 0 && (sys_fstat(fd, st) || check_owned(st, path, S_IFREG, "regular file"))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* A live directory, if it is ours alone (live_dir.h): its fd, LIVE_ABSENT or -1. */
static int open_live_dir(const char *path)
{
	const char *why = NULL;
	int fd = live_dir_open_path(path, 0, &why);

	if (fd >= 0)
		return fd;
	if (errno == ENOENT)
		return LIVE_ABSENT;
	error_set("refusing %s: it %s", path, why ? why : "cannot be opened");
	return -1;
}

/* PID's live file in the directory DIR: its fd, LIVE_ABSENT or -1. */
static int open_in(const char *dir, long pid, char *path, size_t size)
{
	char name[32];
	int dirfd, fd;
	struct stat st;

	dirfd = open_live_dir(dir);
	if (dirfd < 0)
		return dirfd;
	snprintf(name, sizeof(name), "%ld", pid);
	if ((size_t)snprintf(path, size, "%s/%s", dir, name) >= size) {
		close(dirfd);
		return LIVE_ABSENT;
	}
	fd = open_owned_file(dirfd, name, path, &st);
	/* The runtime's own rule (live_dir.h): a stale file removed, an ended
	 * process's kept as PID.counters, read as its kept report. */
	if (fd >= 0 && live_settle(dirfd, name, fd, pid) != LIVE_FILE_RUNNING) {
		close(fd);
		fd = LIVE_ABSENT;
	}
	close(dirfd);
	return fd;
}

/* ---- reading, safe from a file that shrinks under the mapping ------------ */

static sigjmp_buf bus_jump;
static volatile sig_atomic_t bus_armed;

static void on_sigbus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_jump, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigbus(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return;
	done = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static int map_file(struct live *l)
{
	struct stat st;
	void *p;

	if (fstat(l->fd, &st)) {
		error_set("cannot read %s: %s", l->path, strerror(errno));
		return -1;
	}
	if ((size_t)st.st_size == l->mapped)
		return 0;
	if ((uint64_t)st.st_size > (uint64_t)COUNTERS_MAX_EXTENTS * EXTENT_SIZE) {
		error_set("%s: larger than any live file (%lld bytes): not alloctag counters", l->path,
			  (long long)st.st_size);
		return -1;
	}
	if (st.st_size == 0) {
		error_set("%s: the process is starting", l->path);
		return LIVE_ABSENT;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, l->fd, 0);
	if (p == MAP_FAILED) {
		error_set("cannot map %s: %s", l->path, strerror(errno));
		return -1;
	}
	if (l->base)
		munmap(l->base, l->mapped);
	l->base = p;
	l->mapped = st.st_size;
	return 0;
}

/* The writer has not written the header yet: the magic is still zeros. */
static int header_unwritten(const struct live *l)
{
	static const char zeros[sizeof(COUNTERS_MAGIC) - 1];

	return l->mapped >= sizeof(zeros) && !memcmp(l->base, zeros, sizeof(zeros));
}

static int check_header(struct live *l)
{
	const struct counters_header *h = (const void *)l->base;
	const char *why = counters_check_header(l->base, l->mapped);

	if (why && header_unwritten(l)) {
		error_set("%s: the process is starting", l->path);
		return LIVE_ABSENT;
	}
	if (!why && h->pid != l->pid)
		why = "the counters of another process";
	if (!why)
		return 0;
	if (l->mapped >= sizeof(h->magic) + sizeof(h->version) && !memcmp(h->magic, COUNTERS_MAGIC, 8) &&
	    h->version != COUNTERS_VERSION)
		error_set("%s: live counters of version %u; this alloctag reads version %u (use the "
			  "alloctag of the program's release)", l->path, h->version, COUNTERS_VERSION);
	else
		error_set("%s: %s", l->path, why);
	return -1;
}

/* Map L's file and check its header: 0, LIVE_ABSENT (not written yet) or -1. */
static int attach(struct live *l)
{
	int rc;

	catch_sigbus();
	rc = map_file(l);
	if (rc == 0 && l->mapped < sizeof(struct counters_header)) {
		error_set("%s: the process is starting", l->path);
		rc = LIVE_ABSENT;
	}
	if (rc == 0) {
		if (sigsetjmp(bus_jump, 1) == 0) {
			bus_armed = 1;
			rc = check_header(l);
		} else {
			error_set("%s: truncated while being read", l->path);
			rc = -1;
		}
		bus_armed = 0;
	}
	return rc;
}

void live_init(struct live *l, long pid)
{
	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->pid = pid;
}

int live_open(struct live *l, long pid)
{
	char dirs[MAX_CANDIDATES][LIVE_PATH_MAX];
	char refusal[1024] = "";
	int n, fd = LIVE_ABSENT, rc;

	live_init(l, pid);
	n = candidates(dirs, pid);
	if (check_process(pid)) {
		char why[1024];

		snprintf(why, sizeof(why), "%s", error_get());
		for (int i = 0; i < n; i++)	/* a dead process's file is stale: cleaned */
			if ((fd = open_in(dirs[i], pid, l->path, sizeof(l->path))) >= 0)
				close(fd);
		error_set("%s", why);
		return -1;
	}
	for (int i = 0; i < n && fd < 0; i++) {
		fd = open_in(dirs[i], pid, l->path, sizeof(l->path));
		if (fd == -1 && !refusal[0])
			snprintf(refusal, sizeof(refusal), "%s", error_get());
	}
	if (fd < 0) {
		if (refusal[0]) {
			error_set("%s", refusal);
			return -1;
		}
		explain_absent(pid);
		return LIVE_ABSENT;
	}
	l->fd = fd;
	rc = attach(l);
	if (rc)
		live_close(l);
	return rc;
}

/* PID's file, ours, whatever its lock (it may not be taken yet): an fd, or
 * LIVE_ABSENT, or -1 (refused). */
static int find_file(struct live *l, long pid)
{
	char dirs[MAX_CANDIDATES][LIVE_PATH_MAX], name[32];
	int n = candidates(dirs, pid), fd = LIVE_ABSENT;
	struct stat st;

	snprintf(name, sizeof(name), "%ld", pid);
	for (int i = 0; i < n && fd < 0; i++) {
		int dirfd = open_live_dir(dirs[i]);

		if (dirfd < 0)
			continue;
		if ((size_t)snprintf(l->path, sizeof(l->path), "%s/%s", dirs[i], name) < sizeof(l->path))
			fd = open_owned_file(dirfd, name, l->path, &st);
		close(dirfd);
		if (fd == -1)
			return -1;
	}
	return fd;
}

int live_open_child(struct live *l, long pid, int64_t not_before_ns)
{
	const struct counters_header *h;
	int rc;

	if (l->fd < 0) {
		int fd = find_file(l, pid);

		if (fd < 0)
			return fd;
		l->fd = fd;
	}
	rc = attach(l);
	if (rc)
		return rc == LIVE_ABSENT ? LIVE_ABSENT : (live_close(l), -1);
	h = (const void *)l->base;
	if (h->start_ns < not_before_ns) {	/* a stale file of an earlier process of that pid */
		live_close(l);
		return LIVE_ABSENT;
	}
	return 0;
}

int live_watch_dir(void)
{
	char path[LIVE_PATH_MAX];
	int dirfd = live_dir_open(path, sizeof(path), LIVE_DIR_MAKE), fd;

	if (dirfd < 0)
		return -1;
	close(dirfd);
	fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd >= 0 && inotify_add_watch(fd, path, IN_CREATE | IN_MOVED_TO) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The strings of site ID, from L's cache or read once into it. */
static const struct site *known_site(struct live *l, const struct counters_view *v, uint32_t id,
				     const struct counters_site *record)
{
	struct site *k;
	struct site_text text = { "?", "?", NULL, NULL, 0, 0 };

	if (id > l->nknown) {
		size_t n = l->nknown ? l->nknown : 256;

		while (n < id)
			n *= 2;
		l->known = xrealloc(l->known, n * sizeof(*l->known));
		memset(l->known + l->nknown, 0, (n - l->nknown) * sizeof(*l->known));
		l->nknown = n;
	}
	k = &l->known[id - 1];
	if (k->file || !record)
		return k->file ? k : NULL;
	counters_site_text(v, record, &text);
	k->file = xstrdup(text.file);
	k->function = xstrdup(text.function);
	k->module = xstrdup(text.module);
	k->callee = xstrdup(text.callee);
	k->line = text.line;
	k->column = text.column;
	k->id = id;
	return k;
}

static void copy_sites(struct live *l, struct snapshot *s, const struct counters_view *v,
		       uint32_t nsites, const struct site_totals *totals,
		       const struct counters_site **records)
{
	static const struct site unknown = { .file = "?", .function = "?" };

	for (uint32_t i = 0; i < nsites; i++) {
		const struct site *k = known_site(l, v, i + 1, records[i]);
		struct site *site;

		if (!k && !totals[i].calls)
			continue;
		site = snapshot_add(s);
		*site = k ? *k : unknown;
		site->id = i + 1;
		site->bytes = totals[i].live_bytes;
		site->calls = totals[i].live_calls;
		site->total_bytes = (int64_t)totals[i].bytes;
		site->total_calls = (int64_t)totals[i].calls;
		site->peak = totals[i].peak;
	}
}

/* Sum the counters into S; called with the SIGBUS guard armed. */
static int read_counters(struct live *l, struct snapshot *s)
{
	const struct counters_header *h = (const void *)l->base;
	const char *extents[COUNTERS_MAX_EXTENTS];
	struct counters_view v = { extents, 0, 0 };
	const struct counters_site **records;
	struct site_totals *totals;
	uint32_t nsites, state;
	uint64_t used;

	nsites = atomic_load_explicit(&h->nsites, memory_order_acquire);
	used = atomic_load_explicit(&h->used, memory_order_acquire);
	if (used > l->mapped && (map_file(l) || (h = (const void *)l->base, used > l->mapped))) {
		error_set("%s: truncated (its header says %llu bytes, the file has %zu)", l->path,
			  (unsigned long long)used, l->mapped);
		return -1;
	}
	v.nextents = (l->mapped + EXTENT_SIZE - 1) / EXTENT_SIZE;
	v.limit = l->mapped;
	for (uint32_t i = 0; i < v.nextents; i++)
		extents[i] = l->base + (size_t)i * EXTENT_SIZE;
	if (nsites > counters_site_count(&v))
		nsites = counters_site_count(&v);
	totals = xcalloc(nsites, sizeof(*totals));
	records = xcalloc(nsites, sizeof(*records));
	counters_sum(&v, nsites, totals, records);
	copy_sites(l, s, &v, nsites, totals, records);
	free(totals);
	free(records);

	state = atomic_load_explicit(&h->state, memory_order_acquire);
	s->program = strndup(h->program, PROGRAM_MAX - 1);
	s->pid = h->pid;
	s->proc_start_ns = h->start_ns;
	s->exited = atomic_load_explicit(&h->exit_ns, memory_order_acquire) != 0 ||
		    !(state & COUNTERS_RUNNING);
	s->frees_unseen = !!(state & COUNTERS_FREE_UNSEEN);
	s->partial = !!(state & COUNTERS_PARTIAL);
	return 0;
}

int live_read(struct live *l, struct snapshot *s)
{
	volatile int rc = -1;

	memset(s, 0, sizeof(*s));
	s->source = SOURCE_LIVE;
	s->has_totals = 1;
	s->borrowed = 1;
	s->time_ns = sys_clock_ns(CLOCK_REALTIME);
	if (sigsetjmp(bus_jump, 1) == 0) {
		bus_armed = 1;
		rc = read_counters(l, s);
	} else {
		error_set("%s: truncated while being read", l->path);
	}
	bus_armed = 0;
	if (rc)
		snapshot_clear(s);
	return rc;
}

int live_exited(struct live *l)
{
	const struct counters_header *h = (const void *)l->base;
	volatile int exited = 1;

	if (sigsetjmp(bus_jump, 1) == 0) {
		bus_armed = 1;
		exited = atomic_load_explicit(&h->exit_ns, memory_order_acquire) != 0 ||
			 !(atomic_load_explicit(&h->state, memory_order_acquire) & COUNTERS_RUNNING);
	}
	bus_armed = 0;
	return exited || live_file_state(l->fd, l->pid) != LIVE_FILE_RUNNING;
}

void live_close(struct live *l)
{
	if (l->fd < 0 && !l->base && !l->known)
		return;
	for (size_t i = 0; i < l->nknown; i++)
		site_clear(&l->known[i]);
	free(l->known);
	l->known = NULL;
	l->nknown = 0;
	if (l->base)
		munmap(l->base, l->mapped);
	if (l->fd >= 0)
		close(l->fd);
	l->base = NULL;
	l->mapped = 0;
	l->fd = -1;
}

/* ---- kept reports -------------------------------------------------------- */

#define ENDED_NOTE	"it ended without its report (killed by a signal, or _exit()): its counters as last seen"

static int64_t stat_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The strings of S's sites copied: S outlives the reader they belong to. */
static void own_strings(struct snapshot *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct site *site = &s->sites[i];

		site->file = xstrdup(site->file);
		site->function = xstrdup(site->function);
		site->module = xstrdup(site->module);
		site->callee = xstrdup(site->callee);
	}
	s->borrowed = 0;
}

/* The kept file NAME in the live directory DIR, open and checked (a regular
 * file, ours, closed to others), its path in PATH and what sys_fstat() says in
 * *ST: a descriptor, LIVE_ABSENT or -1. */
static int open_kept(const char *dir, const char *name, char *path, size_t size, struct stat *st)
{
	int dirfd = open_live_dir(dir), fd;

	if (dirfd < 0)
		return dirfd;
	fd = (size_t)snprintf(path, size, "%s/%s", dir, name) < size ? open_owned_file(dirfd, name, path, st)
								      : LIVE_ABSENT;
	close(dirfd);
	return fd;
}

/* A kept report (json), open at FD on PATH, into S: 0, or -1. */
static int read_kept_report(struct snapshot *s, int fd, const char *path, const struct stat *st)
{
	struct buf b = { 0 };
	int rc = read_fd(fd, path, &b) ? -1 : report_parse(s, b.data, b.len, path);

	buf_free(&b);
	if (rc == 0)
		s->time_ns = stat_ns(&st->st_mtim);	/* written at exit */
	return rc;
}

/* The live file of a process that ended without its report (PID.counters),
 * open at FD on PATH, into S: its counters as last seen, when unknown. */
static int read_kept_counters(struct snapshot *s, int fd, const char *path, long pid)
{
	struct live l;
	int rc;

	live_init(&l, pid);
	l.fd = fd;
	snprintf(l.path, sizeof(l.path), "%s", path);
	rc = attach(&l);
	if (rc == LIVE_ABSENT)
		error_set("%s: empty: its process ended as it started", path);
	rc = rc ? -1 : live_read(&l, s);
	if (rc == 0) {
		own_strings(s);
		s->unreported = 1;
		s->time_ns = 0;
		snapshot_add_note(s, ENDED_NOTE);
	}
	live_close(&l);
	return rc;
}

/* Of PID's kept files (PID.report, PID.counters) in the live directories,
 * the one kept last, not before NOT_BEFORE_NS: open, its path in PATH, *ST:
 * a descriptor, LIVE_ABSENT or -1 (refused). */
static int open_newest_kept(long pid, int64_t not_before_ns, char *path, size_t size,
			    struct stat *st)
{
	static const char *const suffixes[] = { LIVE_REPORT_SUFFIX, LIVE_ENDED_SUFFIX };
	char dirs[MAX_CANDIDATES][LIVE_PATH_MAX], name[32], at[PATH_MAX];
	int n = candidates(dirs, pid), newest = LIVE_ABSENT;
	struct stat here;

	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < ARRAY_SIZE(suffixes); k++) {
			int fd;

			snprintf(name, sizeof(name), "%ld%s", pid, suffixes[k]);
			fd = open_kept(dirs[i], name, at, sizeof(at), &here);
			if (fd == -1 && newest < 0)
				newest = -1;
			if (fd < 0)
				continue;
			if (stat_ns(&here.st_ctim) < not_before_ns ||
			    (newest >= 0 && stat_ns(&here.st_ctim) <= stat_ns(&st->st_ctim))) {
				close(fd);
				continue;
			}
			if (newest >= 0)
				close(newest);
			newest = fd;
			*st = here;
			snprintf(path, size, "%s", at);
		}
	return newest;
}

/* PATH is a killed process's kept counters (PID.counters), not a report. */
static int kept_counters(const char *path)
{
	size_t len = strlen(path), suffix = strlen(LIVE_ENDED_SUFFIX);

	return len > suffix && !strcmp(path + len - suffix, LIVE_ENDED_SUFFIX);
}

int live_kept_report(struct snapshot *s, long pid, int64_t not_before_ns)
{
	char path[PATH_MAX] = "";
	struct stat st = { 0 };
	int fd = open_newest_kept(pid, not_before_ns, path, sizeof(path), &st), rc;

	memset(s, 0, sizeof(*s));
	if (fd == LIVE_ABSENT)
		error_set("no report of process %ld is kept", pid);
	if (fd < 0)
		return fd;
	if (kept_counters(path)) {
		rc = read_kept_counters(s, fd, path, pid);	/* closes FD */
	} else {
		rc = read_kept_report(s, fd, path, &st);
		close(fd);
	}
	if (rc == 0) {
		s->exited = 1;
		s->pid = pid;
		s->ended_ns = stat_ns(&st.st_ctim);	/* named, kept */
	}
	return rc;
}

int live_process_ended(long pid)
{
	struct live_proc p;
	int rc = live_proc_read(pid, &p);

	return rc == LIVE_PROC_GONE || (rc == 0 && (p.state == 'Z' || p.state == 'X'));
}

/*
 * When the process PID that runs now started (CLOCK_REALTIME, to a clock
 * tick), or 0 if none runs or it is unknown.
 */
static int64_t running_since_ns(long pid)
{
	struct live_proc p;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || live_proc_read(pid, &p) != 0 || p.state == 'Z' || p.state == 'X')
		return 0;
	int64_t age = sys_clock_ns(CLOCK_BOOTTIME) - (int64_t)(p.start * (1000000000 / hz));

	return sys_clock_ns(CLOCK_REALTIME) - age - 1000000000 / hz;
}

int live_snapshot_or_kept(struct snapshot *s, long pid)
{
	char why[1024];
	int rc = live_snapshot(s, pid);

	if (rc == 0 || (rc == -1 && !live_process_ended(pid)))
		return rc ? -1 : 0;
	snprintf(why, sizeof(why), "%s", error_get());
	/* A process that runs (without live counters) has no kept report of
	 * its own: one kept before it started is an earlier process's of that
	 * pid. */
	rc = live_kept_report(s, pid, running_since_ns(pid));
	if (rc == LIVE_ABSENT)
		error_set("%s", why);	/* none kept: why there are no live counters */
	return rc ? -1 : 0;
}

int live_snapshot(struct snapshot *s, long pid)
{
	struct live l;
	int rc = live_open(&l, pid);

	memset(s, 0, sizeof(*s));
	if (rc)
		return rc;
	rc = live_read(&l, s);
	if (rc == 0)
		own_strings(s);
	live_close(&l);
	return rc;
}

/* ---- the user's processes ------------------------------------------------ */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The pids named by files in the live directories (not checked yet), each
 * once, sorted: live files, or kept reports, as NAMED says. */
static size_t named_pids(long **out, int (*named)(const char *name, long *pid))
{
	char dirs[MAX_CANDIDATES][LIVE_PATH_MAX];
	int ndirs = candidates(dirs, 0);
	size_t n = 0, cap = 0, unique = 0;
	long *pids = NULL;

	for (int d = 0; d < ndirs; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *e;
		long pid;

		while (dir && (e = readdir(dir)))
			if (named(e->d_name, &pid)) {
				if (n == cap)
					pids = xrealloc(pids, (cap = cap ? cap * 2 : 64) * sizeof(*pids));
				pids[n++] = pid;
			}
		if (dir)
			closedir(dir);
	}
	qsort(pids, n, sizeof(*pids), cmp_long);
	for (size_t i = 0; i < n; i++)
		if (!unique || pids[unique - 1] != pids[i])
			pids[unique++] = pids[i];
	*out = pids;
	return unique;
}

/* The process S is a reading of, added to *V (of *COUNT); S cleared. */
static void add_process(struct live_process **v, size_t *count, struct snapshot *s)
{
	struct live_process *p;

	*v = xrealloc(*v, (*count + 1) * sizeof(**v));
	p = &(*v)[(*count)++];
	memset(p, 0, sizeof(*p));
	p->pid = s->pid;
	p->ended = s->ended_ns != 0;	/* read from what it kept */
	p->unreported = s->unreported;
	p->program = xstrdup(s->program ? s->program : "?");
	p->when_ns = s->exited ? s->ended_ns : s->time_ns;
	p->nsites = s->n;
	for (size_t k = 0; k < s->n; k++) {
		p->bytes += s->sites[k].bytes;
		p->blocks += s->sites[k].calls;
	}
	snapshot_clear(s);
}

/* Whether one of the first N of V is the process PID. */
static int listed(const struct live_process *v, size_t n, long pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return 1;
	return 0;
}

size_t live_list(struct live_process **out, int with_ended)
{
	size_t count = 0, running, n;
	struct snapshot s;
	long *pids;

	*out = NULL;
	n = named_pids(&pids, live_name_pid);
	for (size_t i = 0; i < n; i++)
		if (live_snapshot(&s, pids[i]) == 0)	/* else stale (now removed), ended (now kept), refused */
			add_process(out, &count, &s);
	free(pids);
	if (!with_ended)
		return count;
	running = count;
	n = named_pids(&pids, live_kept_pid);
	for (size_t i = 0; i < n; i++)	/* a pid that runs again is that process */
		if (!listed(*out, running, pids[i]) && live_kept_report(&s, pids[i], 0) == 0)
			add_process(out, &count, &s);
	free(pids);
	return count;
}

void live_list_free(struct live_process *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].program);
	free(v);
}
