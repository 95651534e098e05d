/* SPDX-License-Identifier: MIT */
/*
 * format.h: reports as text, shared by the runtime's reports and the
 * alloctag command.  No malloc (the runtime's report may run in a signal
 * handler, and must not count itself): output goes to a buffer in mmap'd
 * memory that grows, or is streamed through a fixed buffer of the caller's
 * (the runtime's reports: they need no new memory, so a process that has
 * used up its address space still gets one).
 *
 *   allocinfo  the kernel's /proc/allocinfo, version 2.0 as current kernels
 *              write it: live bytes and blocks per site, largest first;
 *              "file:line [module] func:function", and " accurate:no" for
 *              a site whose counters missed allocations (the kernel's only)
 *   full       adds total bytes, total calls and peak bytes, and tells
 *              apart sites on one line: "file:line:column ... callee:name"
 *   json       {"version": 1, "program", "pid", "frees_seen", "free_owner",
 *              "notes", "sites": [...]}; a site's "accurate": false only
 *              when it is not
 *
 * A process whose free() is not the runtime's (frees_seen 0) counts the
 * calls and bytes of its tagged allocations, not live bytes and blocks:
 * a note line says so, and whose free() it is.
 *
 * Notes (what the runtime has to say of the report: a bad setting, why the
 * report is not where it was asked to go) are lines "# alloctag: NOTE"
 * after the header in text, "notes": ["NOTE", ...] in json (only if any).
 */
#ifndef ALLOCTAG_FORMAT_H
#define ALLOCTAG_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include "counters_read.h"

enum report_format { FORMAT_ALLOCINFO, FORMAT_FULL, FORMAT_JSON };

#define ALLOCINFO_HEADER	"allocinfo - version:"
#define ALLOCINFO_VERSION	"2.0"
#define ALLOCINFO_INACCURATE	"accurate:no"

struct out {
	char *buf;
	size_t len, cap;
	int failed;			/* out of memory, or a failed flush: the rest is dropped */
	/* Streaming, when set: BUF is the caller's, of CAP bytes; flush() is
	 * called when it is full and by out_flush(), empties it (len = 0) and
	 * gives 0, or -1 (then failed is set).  SINK is the caller's. */
	int (*flush)(struct out *o);
	void *sink;
};

void out_put(struct out *o, const char *s, size_t n);
void out_str(struct out *o, const char *s);
void out_num(struct out *o, int64_t v, int width);	/* as printf("%*lld") */
void out_unum(struct out *o, uint64_t v, int width);	/* as printf("%*llu") */
void out_json_string(struct out *o, const char *s);	/* valid JSON from any bytes */
/* O streams into the fixed BUF of CAP bytes: what does not fit is dropped (failed). */
void out_fixed(struct out *o, char *buf, size_t cap);
void out_flush(struct out *o);				/* streaming: what is left, flushed */
void out_release(struct out *o);			/* the mmap'd buffer given back */

struct report_line {
	struct site_totals totals;
	struct site_text where;
};

/* The first words of the note of a process whose free() is not the runtime's. */
#define FREES_UNSEEN_NOTE	"# alloctag: free() in this process is not alloctag's"

struct report_meta {
	const char *program;
	int64_t pid;
	int frees_seen;			/* 0: free() is not the runtime's (counters.h) */
	const char *free_owner;		/* frees_seen 0: whose it is ("libjemalloc.so.2"), or NULL */
	const char *const *notes;	/* NNOTES lines, without "alloctag: " or newline */
	size_t nnotes;
};

/* Largest live bytes first, then most bytes in total, then by place. */
void report_sort(struct report_line *v, size_t n);

/* A report: its header, then each site (INDEX 0, 1, ... in order), then its end. */
void report_begin(struct out *o, enum report_format format, const struct report_meta *meta);
void report_site(struct out *o, enum report_format format, const struct report_line *l, size_t index);
void report_end(struct out *o, enum report_format format);

/* The three for the N lines at V. */
void report_format(struct out *o, enum report_format format, const struct report_line *v,
		   size_t n, const struct report_meta *meta);

#endif /* ALLOCTAG_FORMAT_H */
