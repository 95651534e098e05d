/* SPDX-License-Identifier: MIT */
/*
 * alloctag runtime: reports.
 *
 * At exit, on alloctag_report(), or on a signal if ALLOCTAG_SIGNAL names
 * one, the counters of every thread are summed site by site and written,
 * largest first, by default in the kernel's /proc/allocinfo format:
 *
 *   allocinfo - version: 1.0
 *   #     <size>  <calls> <tag info>
 *          4096        1 demo.c:42 func:load_config
 *
 * The report is built with write(2) and mmap(2) only: no stdio, no malloc
 * (it would count itself, and it must work in a signal handler).
 *
 * Settings (environment, read once):
 *   ALLOCTAG_REPORT  stderr (default), stdout, off, or a file name where %p
 *                    is the pid, %e the program name, %% a percent sign
 *   ALLOCTAG_FORMAT  allocinfo (default), full (adds total bytes and calls,
 *                    and peak bytes), json
 *   ALLOCTAG_TOP     only the N largest sites
 *   ALLOCTAG_SIGNAL  also report on this signal (USR1, USR2 or a number)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "alloctag_internal.h"

enum format { FORMAT_ALLOCINFO, FORMAT_FULL, FORMAT_JSON };

static struct {
	const char *destination;	/* NULL: off */
	enum format format;
	unsigned long top;		/* 0: all */
	int signal;
	int ready;
} config;

struct totals {
	uint32_t site;
	int64_t live_bytes;
	int64_t live_calls;
	uint64_t bytes;
	uint64_t calls;
	int64_t peak;
};

/* An output buffer in mmap'd memory. */
struct out {
	char *buf;
	size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len + n > o->cap) {
		size_t cap = (o->cap ? o->cap * 2 : 1 << 16) + n;
		char *buf = alloctag_map(cap);

		if (!buf)
			return;
		if (o->buf) {
			memcpy(buf, o->buf, o->len);
			alloctag_unmap(o->buf, o->cap);
		}
		o->buf = buf;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* A decimal number right-aligned in WIDTH columns, as printf("%*lld"). */
static void put_num(struct out *o, int64_t v, int width, int is_unsigned)
{
	char digits[24], *p = digits + sizeof(digits);
	uint64_t u = is_unsigned || v >= 0 ? (uint64_t)v : -(uint64_t)v;
	int len;

	do
		*--p = '0' + u % 10;
	while (u /= 10);
	if (!is_unsigned && v < 0)
		*--p = '-';
	len = digits + sizeof(digits) - p;
	for (; width > len; width--)
		put(o, " ", 1);
	put(o, p, len);
}

static void put_json_string(struct out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	if (!s) {
		puts_(o, "null");
		return;
	}
	put(o, "\"", 1);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', c };
			put(o, esc, 2);
		} else if (c < 0x20) {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			put(o, esc, 6);
		} else {
			put(o, (const char *)&c, 1);
		}
	}
	put(o, "\"", 1);
}

static void sum_site(struct totals *t, uint32_t id)
{
	memset(t, 0, sizeof(*t));
	t->site = id;
	for (struct thread_state *ts = alloctag_first_state(); ts; ts = ts->next) {
		uint32_t cap = __atomic_load_n(&ts->cap, __ATOMIC_ACQUIRE);
		struct slot **slots = __atomic_load_n(&ts->slots, __ATOMIC_ACQUIRE);
		struct slot *s;
		uint64_t remote_calls, remote_bytes;

		if (id >= cap || !(s = __atomic_load_n(&slots[id], __ATOMIC_ACQUIRE)))
			continue;
		remote_calls = atomic_load_explicit(&s->remote_calls, memory_order_relaxed);
		remote_bytes = atomic_load_explicit(&s->remote_bytes, memory_order_relaxed);
		/* Plain counters of another thread: each read whole, maybe mid-update. */
		t->calls += __atomic_load_n(&s->calls, __ATOMIC_RELAXED);
		t->bytes += __atomic_load_n(&s->bytes, __ATOMIC_RELAXED);
		t->live_calls += __atomic_load_n(&s->calls, __ATOMIC_RELAXED)
				 - __atomic_load_n(&s->freed_calls, __ATOMIC_RELAXED) - remote_calls;
		t->live_bytes += __atomic_load_n(&s->live, __ATOMIC_RELAXED) - (int64_t)remote_bytes;
		t->peak += __atomic_load_n(&s->peak, __ATOMIC_RELAXED);
	}
}

/* Largest live bytes first, then most bytes in total, then by place. */
static int before(const struct totals *a, const struct totals *b)
{
	const struct site *sa = alloctag_site(a->site), *sb = alloctag_site(b->site);
	int c;

	if (a->live_bytes != b->live_bytes)
		return a->live_bytes > b->live_bytes;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes;
	c = strcmp(sa->file, sb->file);
	if (c)
		return c < 0;
	return sa->line < sb->line;
}

/* Heap sort (qsort may allocate): a max-heap of what comes last. */
static void sift(struct totals *v, size_t root, size_t n)
{
	size_t child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && before(&v[child], &v[child + 1]))
			child++;
		if (!before(&v[root], &v[child]))
			return;
		struct totals tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void sort_totals(struct totals *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (size_t end = n; end-- > 1;) {
		struct totals tmp = v[0];
		v[0] = v[end];
		v[end] = tmp;
		sift(v, 0, end);
	}
}

static void put_tag_info(struct out *o, const struct site *s)
{
	puts_(o, s->file);
	put(o, ":", 1);
	put_num(o, s->line, 0, 1);
	if (s->module) {
		puts_(o, " [");
		puts_(o, s->module);
		put(o, "]", 1);
	}
	puts_(o, " func:");
	puts_(o, s->function);
}

static void format_text(struct out *o, const struct totals *v, size_t n, int full)
{
	puts_(o, "allocinfo - version: 1.0\n");
	if (full)
		puts_(o, "#     <size>  <calls>   <total size> <total calls>  <peak size> <tag info>\n");
	else
		puts_(o, "#     <size>  <calls> <tag info>\n");
	for (size_t i = 0; i < n; i++) {
		put_num(o, v[i].live_bytes, 12, 0);
		put(o, " ", 1);
		put_num(o, v[i].live_calls, 8, 1);
		put(o, " ", 1);
		if (full) {
			put_num(o, v[i].bytes, 14, 1);
			put(o, " ", 1);
			put_num(o, v[i].calls, 13, 1);
			put(o, " ", 1);
			put_num(o, v[i].peak, 12, 0);
			put(o, " ", 1);
		}
		put_tag_info(o, alloctag_site(v[i].site));
		puts_(o, " \n");	/* the kernel ends each line with a space */
	}
}

static void put_json_field(struct out *o, const char *name, int64_t v, int last)
{
	put(o, "\"", 1);
	puts_(o, name);
	puts_(o, "\": ");
	put_num(o, v, 0, 0);
	if (!last)
		puts_(o, ", ");
}

static void format_json(struct out *o, const struct totals *v, size_t n)
{
	puts_(o, "{\"version\": 1, \"program\": ");
	put_json_string(o, program_invocation_short_name);
	puts_(o, ", \"pid\": ");
	put_num(o, getpid(), 0, 0);
	puts_(o, ", \"sites\": [");
	for (size_t i = 0; i < n; i++) {
		const struct site *s = alloctag_site(v[i].site);

		puts_(o, i ? ",\n  {" : "\n  {");
		puts_(o, "\"file\": ");
		put_json_string(o, s->file);
		puts_(o, ", \"line\": ");
		put_num(o, s->line, 0, 1);
		puts_(o, ", \"function\": ");
		put_json_string(o, s->function);
		puts_(o, ", \"module\": ");
		put_json_string(o, s->module);
		puts_(o, ", ");
		put_json_field(o, "bytes", v[i].live_bytes, 0);
		put_json_field(o, "calls", v[i].live_calls, 0);
		put_json_field(o, "total_bytes", (int64_t)v[i].bytes, 0);
		put_json_field(o, "total_calls", (int64_t)v[i].calls, 0);
		put_json_field(o, "peak_bytes", v[i].peak, 1);
		put(o, "}", 1);
	}
	puts_(o, "\n]}\n");
}

/* ALLOCTAG_REPORT with %p, %e and %% expanded. */
static void expand_path(char *path, size_t size, const char *pattern)
{
	struct out o = { 0 };

	for (const char *p = pattern; *p; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			put_num(&o, getpid(), 0, 0);
			p++;
		} else if (p[0] == '%' && p[1] == 'e') {
			puts_(&o, program_invocation_short_name);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			put(&o, "%", 1);
			p++;
		} else {
			put(&o, p, 1);
		}
	}
	if (o.len >= size)
		o.len = size - 1;
	memcpy(path, o.buf ? o.buf : "", o.len);
	path[o.len] = '\0';
	if (o.buf)
		alloctag_unmap(o.buf, o.cap);
}

/* One line on stderr: "alloctag: " and the strings given, up to a NULL. */
static void complain(const char *first, ...)
{
	struct out o = { 0 };
	va_list ap;

	puts_(&o, "alloctag: ");
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		puts_(&o, s);
	va_end(ap);
	puts_(&o, "\n");
	if (o.buf) {
		ssize_t ignored = write(STDERR_FILENO, o.buf, o.len);	/* nowhere left to say it */

		(void)ignored;
		alloctag_unmap(o.buf, o.cap);
	}
}

static int open_destination(void)
{
	char path[4096];
	struct stat st;
	int fd;

	if (!strcmp(config.destination, "stderr"))
		return dup(STDERR_FILENO);
	if (!strcmp(config.destination, "stdout"))
		return dup(STDOUT_FILENO);
	expand_path(path, sizeof(path), config.destination);
	/* No O_TRUNC: the destination may be a device or a pipe. */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		const char *why = strerrordesc_np(errno);

		complain("cannot write the report to ", path, ": ", why ? why : "error", NULL);
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
		close(fd);
		complain("cannot truncate the report file ", path, NULL);
		return -1;
	}
	return fd;
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= w;
	}
}

static void report(void)
{
	uint32_t n = alloctag_site_count(), shown = 0;
	size_t size = (n + 1) * sizeof(struct totals);
	struct totals *v;
	struct out o = { 0 };
	int saved_errno = errno, fd;

	if (!config.destination)
		return;
	v = n ? alloctag_map(size) : NULL;
	for (uint32_t id = 1; v && id <= n; id++)
		sum_site(&v[shown++], id);
	sort_totals(v, shown);
	if (config.top && shown > config.top)
		shown = config.top;
	if (config.format == FORMAT_JSON)
		format_json(&o, v, shown);
	else
		format_text(&o, v, shown, config.format == FORMAT_FULL);
	fd = open_destination();
	if (fd >= 0) {
		write_all(fd, o.buf, o.len);
		close(fd);
	}
	if (o.buf)
		alloctag_unmap(o.buf, o.cap);
	if (v)
		alloctag_unmap(v, size);
	errno = saved_errno;
}

EXPORT void alloctag_report(void)
{
	alloctag_report_init();
	report();
}

static void on_signal(int sig)
{
	(void)sig;
	report();
}

static int parse_signal(const char *s)
{
	char *end;
	long n;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	if (!strcmp(s, "USR1"))
		return SIGUSR1;
	if (!strcmp(s, "USR2"))
		return SIGUSR2;
	n = strtol(s, &end, 10);
	return *s && !*end && n > 0 && n < NSIG && n != SIGKILL && n != SIGSTOP ? (int)n : 0;
}

void alloctag_report_init(void)
{
	const char *s;

	if (config.ready)
		return;
	config.ready = 1;
	config.destination = "stderr";

	s = getenv("ALLOCTAG_REPORT");
	if (s && *s)
		config.destination = strcmp(s, "off") ? s : NULL;

	s = getenv("ALLOCTAG_FORMAT");
	if (s && *s) {
		if (!strcmp(s, "full"))
			config.format = FORMAT_FULL;
		else if (!strcmp(s, "json"))
			config.format = FORMAT_JSON;
		else if (strcmp(s, "allocinfo"))
			complain("ALLOCTAG_FORMAT=", s, " is not allocinfo, full or json; using allocinfo", NULL);
	}

	s = getenv("ALLOCTAG_TOP");
	if (s && *s) {
		char *end;
		unsigned long top = strtoul(s, &end, 10);

		if (*end || *s == '-' || !top)
			complain("ALLOCTAG_TOP=", s, " is not a positive number; showing every site", NULL);
		else
			config.top = top;
	}

	s = getenv("ALLOCTAG_SIGNAL");
	if (s && *s) {
		struct sigaction sa;

		config.signal = parse_signal(s);
		if (!config.signal) {
			complain("ALLOCTAG_SIGNAL=", s, " is not a signal (USR1, USR2 or a number); none used", NULL);
		} else {
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = on_signal;
			sa.sa_flags = SA_RESTART;
			sigemptyset(&sa.sa_mask);
			sigaction(config.signal, &sa, NULL);
		}
	}
}

__attribute__((destructor)) static void report_at_exit(void)
{
	alloctag_report_init();
	report();
}
