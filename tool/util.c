/* SPDX-License-Identifier: MIT */
/* util.c: errors, buffers, files and numbers for the alloctag command (util.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

#define HUMAN_COUNT_EXACT	100000	/* counts below it are shown whole */
#define HUMAN_BYTES_WIDTH	8	/* the widest bytes for people: "1023 KiB" */
#define HUMAN_COUNT_WIDTH	5	/* the widest count for people: "99999", "1000k" */
#define PER_SECOND		"/s"

static char error_message[1024];
static const char *program = "alloctag";
static int failing;		/* fail() has said the one line: nothing more at exit */

void fail_as(const char *name)
{
	program = name;
}

void error_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error_message, sizeof(error_message), fmt, ap);
	va_end(ap);
}

const char *error_get(void)
{
	return error_message[0] ? error_message : "unknown error";
}

void fail(const char *fmt, ...)
{
	va_list ap;

	failing = 1;
	fflush(stdout);
	fprintf(stderr, "%s: ", program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_TROUBLE);
}

void fail_error(void)
{
	fail("%s", error_get());
}

/* The one line of a standard output that cannot be written (ERR: why, or 0
 * when only its error flag says so), then EXIT_TROUBLE at once: this may run
 * at exit, where exit() must not be called again. */
static _Noreturn void stdout_failed(int err)
{
	failing = 1;
	fprintf(stderr, "%s: cannot write to the standard output%s%s\n", program, err ? ": " : "",
		err ? strerror(err) : "");
	_exit(EXIT_TROUBLE);
}

void stdout_hold(void)
{
	static char held[STDOUT_HELD];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, held, _IOFBF, sizeof(held));
}

void stdout_flush(void)
{
	if (fflush(stdout) != 0)
		stdout_failed(errno);
	if (ferror(stdout))
		stdout_failed(0);
}

void close_stdout(void)
{
	int had_error;

	if (failing)
		return;
	stdout_flush();
	had_error = ferror(stdout);
	if (fclose(stdout) != 0 || had_error)
		stdout_failed(had_error ? 0 : errno);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fail("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fail("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fail("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	return s ? strcpy(xmalloc(strlen(s) + 1), s) : NULL;
}

static void buf_reserve(struct buf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	b->cap = b->cap ? b->cap : 256;
	while (b->len + n + 1 > b->cap)
		b->cap *= 2;
	b->data = xrealloc(b->data, b->cap);
}

void buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	buf_reserve(b, n);
	vsnprintf(b->data + b->len, n + 1, fmt, ap);
	b->len += n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_free(struct buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

int read_fd(int fd, const char *path, struct buf *b)
{
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_set("cannot read %s: %s", path, strerror(errno));
			return -1;
		}
		buf_add(b, chunk, n);
	}
	if (!b->data)
		buf_add(b, "", 0);
	return 0;
}

int read_file(const char *path, struct buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		error_set("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	rc = read_fd(fd, path, b);
	close(fd);
	return rc;
}

/* Something that is not a regular file (a terminal, a pipe, /dev/null):
 * written in place, never replaced. */
static int write_in_place(const char *path, const struct buf *b)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0 || (errno = sys_write_all(fd, b->data, b->len))) {
		error_set("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int write_file(const char *path, const struct buf *b)
{
	char tmp[4096];
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) {
		fwrite(b->data ? b->data : "", 1, b->len, stdout);
		stdout_flush();
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, b);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >= sizeof(tmp)) {
		error_set("file name too long: %s", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || (errno = sys_write_all(fd, b->data, b->len)) || close(fd) || rename(tmp, path)) {
		error_set("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
		return -1;
	}
	return 0;
}

static char *scaled(char *out, size_t size, int64_t v, const char *const units[], int base,
		    size_t nunits)
{
	double d = v < 0 ? -(double)v : (double)v;
	size_t u = 0;

	while (d >= base && u + 1 < nunits) {
		d /= base;
		u++;
	}
	if (u == 0)
		snprintf(out, size, "%lld%s", (long long)v, units[0]);
	else
		snprintf(out, size, "%s%.*f%s", v < 0 ? "-" : "", d < 9.95 ? 1 : d < 99.5 ? 1 : 0,
			 d, units[u]);
	return out;
}

char *human_bytes(char *out, size_t size, int64_t v)
{
	static const char *const units[] = { " B", " KiB", " MiB", " GiB", " TiB", " PiB" };

	return scaled(out, size, v, units, 1024, ARRAY_SIZE(units));
}

char *human_count(char *out, size_t size, int64_t v)
{
	static const char *const units[] = { "", "k", "M", "G", "T" };

	if (v > -HUMAN_COUNT_EXACT && v < HUMAN_COUNT_EXACT) {
		snprintf(out, size, "%lld", (long long)v);
		return out;
	}
	return scaled(out, size, v, units, 1000, ARRAY_SIZE(units));
}

char *number_text(char *out, size_t size, int64_t v, unsigned how)
{
	char digits[32];
	const char *sign = (how & NUMBER_SIGNED) && v ? (v < 0 ? "-" : "+") : "", *unit = "";
	int64_t magnitude = sign[0] ? (v < 0 ? -v : v) : v;

	if (how & NUMBER_EXACT)
		snprintf(digits, sizeof(digits), "%lld", (long long)magnitude);
	else if (how & NUMBER_BYTES)
		human_bytes(digits, sizeof(digits), magnitude);
	else
		human_count(digits, sizeof(digits), magnitude);
	if ((how & NUMBER_UNIT) && (how & NUMBER_BYTES) && (how & NUMBER_EXACT))
		unit = magnitude == 1 ? " byte" : " bytes";
	snprintf(out, size, "%s%s%s%s", sign, digits, unit, how & NUMBER_PER_SECOND ? PER_SECOND : "");
	return out;
}

int number_text_width(unsigned how)
{
	if (how & NUMBER_EXACT)
		return 0;
	return (how & NUMBER_BYTES ? HUMAN_BYTES_WIDTH : HUMAN_COUNT_WIDTH) + !!(how & NUMBER_SIGNED) +
	       (how & NUMBER_PER_SECOND ? (int)strlen(PER_SECOND) : 0);
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int64_t parse_duration(const char *s)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
		      { "m", 60e9 }, { "h", 3600e9 } };
	char *end;
	double d;

	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -1;
	d = strtod(s, &end);
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].suffix)) {
			double ns = d * units[i].ns;

			return ns >= 0 && ns < 1e18 ? (int64_t)ns : -1;
		}
	return -1;
}

int64_t parse_size(const char *s)
{
	static const char suffixes[] = "kmgt";
	char *end;
	double d;

	if (!s || *s < '0' || *s > '9')
		return -1;
	d = strtod(s, &end);
	if (*end) {
		const char *p = strchr(suffixes, end[0] | 0x20);

		if (!p || !*p || (end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B")))
			return -1;
		for (int i = 0; i <= p - suffixes; i++)
			d *= 1024;
	}
	return d >= 0 && d < 1e18 ? (int64_t)d : -1;
}
