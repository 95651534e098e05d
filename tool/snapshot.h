/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h: the one model every subcommand works on: a program's call
 * sites and their counters at one moment, whatever it was read from.
 *
 *   source                              what it knows
 *   a live process (live.c)             everything, and the column and callee
 *   a "full" or "json" report           everything (column and callee if it has them)
 *   an "allocinfo" report or the
 *   kernel's /proc/allocinfo (1.0,
 *   2.0 and its accurate:no)            live bytes and calls only (has_totals = 0)
 *   a timeline (timeline.c)             one of its samples
 *
 * Read by live.c, report_parse.c and timeline.c; what an operand of the
 * command line names, by source.h.  This file is the bottom of the model:
 * it uses none of them.
 */
#ifndef ALLOCTAG_TOOL_SNAPSHOT_H
#define ALLOCTAG_TOOL_SNAPSHOT_H

#include <stdint.h>
#include "util.h"

struct site {
	char *file;		/* "untagged" for blocks no tag was current for */
	char *function;
	char *module;		/* shared object; NULL: the main program (or the kernel) */
	char *callee;		/* the function called at the site; NULL: unknown */
	unsigned line;
	unsigned column;	/* 0: unknown */
	int64_t bytes;		/* live */
	int64_t calls;		/* live blocks */
	int64_t total_bytes;	/* these three: only if the snapshot has_totals */
	int64_t total_calls;
	int64_t peak;
	uint32_t id;		/* the source's own number for the site (live, timeline), or 0 */
	int inaccurate;		/* the kernel said accurate:no (allocinfo 2.0) */
};

enum snapshot_source {
	SOURCE_LIVE,		/* a running process's counters */
	SOURCE_ALLOCINFO,	/* allocinfo text: ours or the kernel's */
	SOURCE_FULL,		/* the "full" text report */
	SOURCE_JSON,
	SOURCE_TIMELINE,
};

struct snapshot {
	char *program;		/* NULL: unknown (allocinfo text) */
	long pid;		/* 0: unknown */
	int64_t time_ns;	/* CLOCK_REALTIME of the reading; 0: unknown */
	int64_t start_ns;	/* of the recording it is a sample of (timeline); 0: unknown */
	int64_t proc_start_ns;	/* when the process's counters began (its live file); 0: unknown */
	int exited;		/* the process had exited (its final counters) */
	int unreported;		/* ... without its report (killed, _exit()): its counters as last seen */
	int64_t ended_ns;	/* an ended process's: when its report (or counters) were kept; 0 */
	int frees_unseen;	/* free() was not the runtime's: live counts only grow */
	int partial;		/* the live file stopped growing (its file system was full) */
	char **notes;		/* what the runtime said in the report ("# alloctag: ...") */
	size_t nnotes;
	enum snapshot_source source;
	int has_totals;		/* total_bytes, total_calls, peak are known */
	int borrowed;		/* the sites' strings belong to the reader (live.h) */
	struct site *sites;
	size_t n, cap;
};

struct site *snapshot_add(struct snapshot *s);
void snapshot_add_note(struct snapshot *s, const char *note);
void snapshot_clear(struct snapshot *s);	/* frees the sites, keeps nothing */
void snapshot_clear_sites(struct snapshot *s);	/* no sites or notes, the rest kept */
void site_clear(struct site *site);

/* Largest live bytes first, then most total bytes, then by place: the
 * order of the runtime's reports. */
int site_cmp_report(const struct site *a, const struct site *b);
void snapshot_sort(struct snapshot *s, int (*cmp)(const struct site *, const struct site *));
/* By place: file, line, column, module, function, callee. */
int site_cmp_place(const struct site *a, const struct site *b);
/* Sites of one place (file, line, column, module, function, callee). */
int site_same_place(const struct site *a, const struct site *b);

/* A and B are readings of one run of one process: the same pid, and the same
 * start (the process's, or the recording's of two samples of a timeline),
 * so that what it allocated between them is B's totals less A's. */
int snapshot_same_run(const struct snapshot *a, const struct snapshot *b);

/* "file:line[:column] [module] func:function[ callee:name]" into B. */
void site_tag_info(struct buf *b, const struct site *site, int with_column);

/* SITE's place: FILE, FUNCTION, LINE and COLUMN, and J's "module" and
 * "callee" (a json report's or a timeline's site object). */
struct json;
void site_set_place(struct site *site, const struct json *j, const char *file,
		    const char *function, unsigned line, unsigned column);


#endif
