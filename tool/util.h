/* SPDX-License-Identifier: MIT */
/*
 * util.h: what every part of the alloctag command shares: one-line errors,
 * growable buffers, checked allocation, number and size formatting.
 *
 * Errors: a function that can fail on bad input sets the message with
 * error_set() and returns -1 (or NULL); the command prints it as the one line
 * "alloctag COMMAND: MESSAGE" and exits with EXIT_TROUBLE (fail()).  The
 * clock and the write loop are the runtime's own (runtime/sys.h).
 */
#ifndef ALLOCTAG_TOOL_UTIL_H
#define ALLOCTAG_TOOL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "sys.h"	/* the runtime's clock and write loop: sys_clock_ns(), sys_write_all() */

#define EXIT_TROUBLE	2	/* bad input or usage, as diff(1) and grep(1) say it */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PRINTF(f, a)	__attribute__((format(printf, f, a)))

void error_set(const char *fmt, ...) PRINTF(1, 2);
const char *error_get(void);
_Noreturn void fail(const char *fmt, ...) PRINTF(1, 2);
_Noreturn void fail_error(void);	/* the message error_set() left */
/* fail()'s lines begin "NAME: " ("alloctag top: "); "alloctag: " until then. */
void fail_as(const char *name);

/* The standard output's trouble is the command's too, as in GNU tools: a
 * write that failed ("No space left on device", "Input/output error") is
 * the one line "NAME: cannot write to the standard output: REASON" and
 * EXIT_TROUBLE.  stdout_flush() flushes it now (a screen, a refresh);
 * close_stdout(), registered with atexit() first thing, at the end. */
void stdout_flush(void);
void close_stdout(void);

/* A standard output that is not a terminal held in one buffer of
 * STDOUT_HELD bytes, set before anything is written: a write that fails in
 * the middle of a printf() loses its errno (and on glibc its bytes), so that
 * what a command prints is written whole by stdout_flush() or
 * close_stdout(), whose failure then says why. */
#define STDOUT_HELD	(1 << 20)
void stdout_hold(void);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);	/* NULL stays NULL */

/* A growable byte buffer, always NUL-terminated when len > 0. */
struct buf {
	char *data;
	size_t len, cap;
};

void buf_add(struct buf *b, const void *p, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_printf(struct buf *b, const char *fmt, ...) PRINTF(2, 3);
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_free(struct buf *b);

/* A whole file (or /proc file, pipe) into B; -1 with the error set. */
int read_file(const char *path, struct buf *b);
/* The same from FD, open on PATH (for the messages). */
int read_fd(int fd, const char *path, struct buf *b);
/* Write B to PATH: a regular file (or a new one) replaced whole, through a
 * temporary file and rename; anything else (a pipe, a terminal) written in
 * place; "-" is the standard output (flushed: its trouble, stdout_flush()'s). */
int write_file(const char *path, const struct buf *b);

/* "12.3 MiB", "512 B", "-4.0 KiB": bytes for people, in OUT (>= 16 bytes). */
char *human_bytes(char *out, size_t size, int64_t v);
/* "12.3k", "999": counts for people. */
char *human_count(char *out, size_t size, int64_t v);
/* V bytes or counts, exactly or for people (EXACT), with a sign (SIGNED:
 * "+1.2 MiB", "-4 B", "0"), per second (PER_SECOND: "1.2 MiB/s"); bytes in
 * a sentence say their unit when exact too (UNIT: "4096 bytes", "1 byte"). */
enum { NUMBER_BYTES = 1, NUMBER_EXACT = 2, NUMBER_SIGNED = 4, NUMBER_PER_SECOND = 8, NUMBER_UNIT = 16 };
char *number_text(char *out, size_t size, int64_t v, unsigned how);
/* The most bytes number_text() gives with HOW (for people; the very largest
 * counts aside); 0 when EXACT: no bound. */
int number_text_width(unsigned how);
/* Parse "100ms", "0.5s", "2" (seconds), "0" into nanoseconds; -1 if not a duration. */
int64_t parse_duration(const char *s);
/* Parse "16M", "512k", "1G", "4096" into bytes; -1 if not a size. */
int64_t parse_size(const char *s);
/* Parse a non-negative decimal integer that fits; -1 otherwise. */
int parse_u64(const char *s, uint64_t *out);

#endif
