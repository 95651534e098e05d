/* SPDX-License-Identifier: MIT */
/*
 * format.h: reports as text, shared by the runtime's reports and the
 * alloctag command.  Output goes to a buffer in mmap'd memory (no malloc:
 * the runtime's report may run in a signal handler, and must not count
 * itself).
 *
 *   allocinfo  the kernel's /proc/allocinfo: live bytes and blocks per
 *              site, largest first; "file:line [module] func:function"
 *   full       adds total bytes, total calls and peak bytes, and tells
 *              apart sites on one line: "file:line:column ... callee:name"
 *   json       {"version": 1, "program", "pid", "frees_seen", "free_owner",
 *              "sites": [...]}
 * When free() is not the runtime's (frees_seen 0), live bytes and blocks
 * are not known: they are written 0, and a note says why.
 */
#ifndef ALLOCTAG_FORMAT_H
#define ALLOCTAG_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include "counters_read.h"

enum report_format { FORMAT_ALLOCINFO, FORMAT_FULL, FORMAT_JSON };

struct out {
	char *buf;
	size_t len, cap;
	int failed;			/* out of memory: what is in buf is short */
};

void out_put(struct out *o, const char *s, size_t n);
void out_str(struct out *o, const char *s);
void out_num(struct out *o, int64_t v, int width);	/* as printf("%*lld") */
void out_unum(struct out *o, uint64_t v, int width);	/* as printf("%*llu") */
void out_json_string(struct out *o, const char *s);	/* valid JSON from any bytes */
void out_release(struct out *o);

struct report_line {
	struct site_totals totals;
	struct site_text where;
};

/* The note's first words, which readers look for. */
#define FREES_UNSEEN_NOTE	"# alloctag: free() in this process is not alloctag's"

struct report_meta {
	const char *program;
	int64_t pid;
	int frees_seen;			/* 0: free() is not the runtime's (counters.h) */
	const char *free_owner;		/* then, whose it is ("libjemalloc.so.2"), or NULL */
};

/* Largest live bytes first, then most bytes in total, then by place. */
void report_sort(struct report_line *v, size_t n);

void report_format(struct out *o, enum report_format format, const struct report_line *v,
		   size_t n, const struct report_meta *meta);

#endif /* ALLOCTAG_FORMAT_H */
