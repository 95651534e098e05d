/* SPDX-License-Identifier: MIT */
/*
 * Where live files are, and which are stale (live_dir.h): shared by the
 * runtime and the alloctag command.  System calls and snprintf only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "counters.h"
#include "live_dir.h"
#include "sys.h"

#define STAT_TEXT_MAX	1024	/* /proc/PID/stat: its comm is at most 64 bytes */

int live_dir_under(const char *runtime_dir, char *path, size_t size)
{
	int n;

	if (!runtime_dir || runtime_dir[0] != '/')
		return -1;
	n = snprintf(path, size, "%s/" LIVE_DIR_NAME, runtime_dir);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int live_dir_session(char *path, size_t size)
{
	char runtime_dir[64];

	snprintf(runtime_dir, sizeof(runtime_dir), LIVE_SESSION_RUNTIME_DIR, (unsigned)sys_euid());
	return live_dir_under(runtime_dir, path, size);
}

int live_dir_candidate(int i, char *path, size_t size)
{
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	unsigned uid = (unsigned)sys_euid();
	int n;

	if (!(xdg && xdg[0] == '/'))
		i++;		/* no XDG_RUNTIME_DIR: /dev/shm comes first */
	switch (i) {
	case 0:
		return live_dir_under(xdg, path, size);
	case 1:
		n = snprintf(path, size, "/dev/shm/alloctag-%u", uid);
		break;
	case 2:
		n = snprintf(path, size, "/tmp/alloctag-%u", uid);
		break;
	default:
		return -1;
	}
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int live_dir_open_path(const char *path, int flags, const char **why)
{
	struct stat st;
	int fd;

	if ((flags & LIVE_DIR_MAKE) && mkdir(path, 0700) != 0 && errno != EEXIST) {
		*why = "cannot be made";
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*why = errno == ELOOP || errno == ENOTDIR ? "is a symlink or not a directory"
							  : "cannot be opened";
		return -1;
	}
	if (sys_fstat(fd, &st) != 0 || st.st_uid != sys_euid() || (st.st_mode & 077)) {
		*why = "is not the user's alone (owner, or permissions for others)";
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

int live_dir_open(char *path, size_t size, int flags)
{
	const char *why;

	for (int i = 0; live_dir_candidate(i, path, size) == 0; i++) {
		int fd = live_dir_open_path(path, flags, &why);

		if (fd >= 0)
			return fd;
	}
	return -1;
}

int live_dir_each(int dirfd, int (*fn)(int dirfd, const char *name, void *arg), void *arg)
{
	char buf[2048] __attribute__((aligned(8)));
	ssize_t n;

	if (lseek(dirfd, 0, SEEK_SET) != 0)
		return -1;
	while ((n = getdents64(dirfd, buf, sizeof(buf))) > 0) {
		for (ssize_t at = 0; at < n;) {
			const struct dirent64 *e = (const void *)(buf + at);
			int rc;

			at += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if ((rc = fn(dirfd, e->d_name, arg)))
				return rc;
		}
	}
	return n < 0 ? -1 : 0;
}

int live_name_pid(const char *name, long *pid)
{
	long v = 0;

	if (!*name || *name == '0')
		return 0;
	for (; *name; name++) {
		if (*name < '0' || *name > '9' || v > (0x7fffffffL - (*name - '0')) / 10)
			return 0;
		v = v * 10 + (*name - '0');
	}
	*pid = v;
	return 1;
}

int live_kept_pid(const char *name, long *pid)
{
	char digits[24];
	size_t n = strcspn(name, ".");

	if (n >= sizeof(digits) || (strcmp(name + n, LIVE_REPORT_SUFFIX) && strcmp(name + n, LIVE_ENDED_SUFFIX)))
		return 0;
	memcpy(digits, name, n);
	digits[n] = '\0';
	return live_name_pid(digits, pid);
}

/* The decimal number at *P, and *P past it and the blank after it. */
static uint64_t stat_field(const char **p)
{
	uint64_t v = 0;
	const char *s = *p;

	if (*s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	*p = *s == ' ' ? s + 1 : s;
	return v;
}

/* /proc/PID/stat's text after the command's name, fields 3 and on. */
static int parse_stat(const char *text, struct live_proc *p)
{
	const char *s = strrchr(text, ')');

	if (!s || s[1] != ' ' || !s[2])
		return -1;
	p->state = s[2];
	s += 4;		/* ") S " */
	for (int field = 4; field <= 28 && *s; field++) {
		uint64_t v = stat_field(&s);

		if (field == 20)
			p->threads = (long)v;
		else if (field == 22)
			p->start = v;
		else if (field == 26)
			p->code = v;
		else if (field == 28)
			p->stack = v;
	}
	return 0;
}

int live_proc_read(long pid, struct live_proc *p)
{
	char path[64], text[STAT_TEXT_MAX];
	ssize_t n;
	int fd;

	memset(p, 0, sizeof(*p));
	if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))
		return LIVE_PROC_GONE;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENOENT && access("/proc/self/stat", F_OK) == 0 ? LIVE_PROC_GONE
									     : LIVE_PROC_UNKNOWN;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return LIVE_PROC_UNKNOWN;
	text[n] = '\0';
	return parse_stat(text, p) == 0 ? 0 : LIVE_PROC_UNKNOWN;
}

uint64_t live_pid_ns(void)
{
	/* Once a process (a fork child's may be another): a sweep asks per file. */
	static _Atomic uint64_t ns;
	static _Atomic int ns_pid;
	int pid = getpid();
	struct stat st;

	if (atomic_load_explicit(&ns_pid, memory_order_acquire) == pid)
		return atomic_load_explicit(&ns, memory_order_relaxed);
	if (stat("/proc/self/ns/pid", &st) != 0)
		return 0;
	atomic_store_explicit(&ns, (uint64_t)st.st_ino, memory_order_relaxed);
	atomic_store_explicit(&ns_pid, pid, memory_order_release);
	return (uint64_t)st.st_ino;
}

/* The header at FD, if it is one of this release's for PID: 1, else 0. */
static int read_header(int fd, long pid, struct counters_header *h)
{
	return pread(fd, h, sizeof(*h), 0) == (ssize_t)sizeof(*h) &&
	       !memcmp(h->magic, COUNTERS_MAGIC, sizeof(h->magic)) && h->version == COUNTERS_VERSION &&
	       h->pid == pid;
}

/* When H's writer exited (0: it runs), read as the runtime wrote it. */
static uint64_t exit_time(const struct counters_header *h)
{
	return atomic_load_explicit(&h->exit_ns, memory_order_relaxed);
}

/* What /proc says of PID is another process than H's writer: the pid was
 * given to another since. */
static int pid_reused(const struct counters_header *h, const struct live_proc *p)
{
	return h->proc_start && p->start && h->proc_start != p->start;
}

/* What /proc says of PID is H's writer after an exec: another program. */
static int exec_since(const struct counters_header *h, const struct live_proc *p)
{
	return (h->exec_code || h->exec_stack) && (p->code || p->stack) &&
	       (h->exec_code != p->code || h->exec_stack != p->stack);
}

int live_file_state(int fd, long pid)
{
	struct counters_header h;
	struct live_proc p;
	int ours = read_header(fd, pid, &h), rc;
	uint64_t ns;

	if (ours && h.pid_ns && (ns = live_pid_ns()) && ns != h.pid_ns)
		return LIVE_FILE_RUNNING;	/* its pid means another process here */
	if (ours && exit_time(&h) && sys_clock_ns(CLOCK_REALTIME) - (int64_t)exit_time(&h) < LIVE_KEEP_GRACE_NS)
		return LIVE_FILE_RUNNING;	/* kept at exit, for a reader */
	rc = live_proc_read(pid, &p);
	if (rc == LIVE_PROC_UNKNOWN)
		return LIVE_FILE_RUNNING;
	if (rc == 0 && p.state != 'Z' && p.state != 'X' && !(ours && pid_reused(&h, &p)))
		return ours && exec_since(&h, &p) ? LIVE_FILE_STALE : LIVE_FILE_RUNNING;
	/* Its writer has ended: without its exit (and its report), or after; a
	 * fork child's may have exec'd (its end tells nothing). */
	return ours && !exit_time(&h) && !(atomic_load_explicit(&h.state, memory_order_relaxed) & COUNTERS_FORKED)
	       ? LIVE_FILE_ENDED : LIVE_FILE_STALE;
}

int live_unlink_same(int dirfd, const char *name, int fd)
{
	/* The same writer's header (or the same bytes where there is none),
	 * compared rather than stat'ed: its writer is gone, so it is still. */
	char was[sizeof(struct counters_header)], now[sizeof(struct counters_header)];
	int named = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n, m;

	if (named < 0)
		return -1;
	n = pread(fd, was, sizeof(was), 0);
	m = pread(named, now, sizeof(now), 0);
	close(named);
	if (n != m || (n > 0 && memcmp(was, now, (size_t)n)))
		return -1;
	return unlinkat(dirfd, name, 0);
}

int live_link_new(int dirfd, const char *name, int fd)
{
	char proc_path[64];
	int rc;

	snprintf(proc_path, sizeof(proc_path), "/proc/self/fd/%d", fd);
	rc = linkat(AT_FDCWD, proc_path, dirfd, name, AT_SYMLINK_FOLLOW);
	if (rc != 0 && errno == ENOENT)		/* no /proc: privileged processes can */
		rc = linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
	return rc;
}

int live_link(int dirfd, const char *name, int fd)
{
	int rc = live_link_new(dirfd, name, fd);

	if (rc != 0 && errno == EEXIST) {
		unlinkat(dirfd, name, 0);
		rc = live_link_new(dirfd, name, fd);
	}
	return rc;
}

/* The memory an ended process's live file at FD holds: what its counters
 * use (the file is sparse beyond), else its size. */
static uint64_t ended_bytes(int fd, long pid)
{
	struct counters_header h;

	return read_header(fd, pid, &h) ? atomic_load_explicit(&h.used, memory_order_relaxed)
					: (uint64_t)lseek(fd, 0, SEEK_END);
}

int live_settle(int dirfd, const char *name, int fd, long pid)
{
	char kept[32];
	int state = live_file_state(fd, pid);

	if (state == LIVE_FILE_ENDED) {
		snprintf(kept, sizeof(kept), "%ld" LIVE_ENDED_SUFFIX, pid);
		if (live_keep_file(dirfd, kept, fd, ended_bytes(fd, pid)) != 0)
			return LIVE_FILE_RUNNING;	/* left as it is, for the next reader */
	}
	if (state != LIVE_FILE_RUNNING)
		live_unlink_same(dirfd, name, fd);
	return state;
}

/* NAME in DIRFD, if it is named for a pid, open: its descriptor and *PID,
 * or -1.  Not stat'ed: the directory is the user's alone (no one else makes
 * a file in it), a fifo does not block (O_NONBLOCK), and what is not a
 * live file of this release has no header (live_file_state()). */
static int open_ours(int dirfd, const char *name, long *pid)
{
	if (!live_name_pid(name, pid))
		return -1;
	return openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

int live_settle_name(int dirfd, const char *name)
{
	long pid;
	int fd = open_ours(dirfd, name, &pid), gone;

	if (fd < 0)
		return 0;
	gone = live_settle(dirfd, name, fd, pid) != LIVE_FILE_RUNNING;
	close(fd);
	return gone;
}

int live_remove(int dirfd, const char *name)
{
	long pid;
	int fd = open_ours(dirfd, name, &pid), removed;

	if (fd < 0)
		return 0;
	removed = live_unlink_same(dirfd, name, fd) == 0;
	close(fd);
	return removed;
}

static int settle_entry(int dirfd, const char *name, void *arg)
{
	(void)arg;
	live_settle_name(dirfd, name);
	return 0;
}

void live_sweep(int dirfd)
{
	live_dir_each(dirfd, settle_entry, NULL);
	live_kept_adopt(dirfd);
}
