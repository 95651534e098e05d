/* SPDX-License-Identifier: MIT */
/*
 * views.h: what each command of alloctag shows or writes, given its
 * options (the command line, main.c, fills them in and runs it).  A view
 * reads the model (source.h) and writes to stdout or a file; its trouble
 * is one line and exit 2 (fail()).  Each returns the command's exit status.
 */
#ifndef ALLOCTAG_TOOL_VIEWS_H
#define ALLOCTAG_TOOL_VIEWS_H

#include <stdint.h>

/* top.c */
struct top_options {
	const char *what;	/* PID, NAME, FILE or /proc/allocinfo; NULL: choose */
	int64_t delay_ns;
	int sort;		/* top_sort_key()'s */
	const char *filter;	/* NULL: every site */
	unsigned count;		/* refreshes; 0: until q (batch: 1) */
	int batch;
	int exact;		/* bytes and counts exactly */
};
#define TOP_DEFAULT_DELAY_NS	1000000000LL
#define TOP_MIN_DELAY_NS	100000000LL
#define TOP_MAX_DELAY_NS	3600000000000LL
/* A column by its name or key letter ("total", "t"), to sort by; -1 if none. */
int top_sort_key(const char *name);
/* The columns for a message: "live (l), blocks (b), ...". */
const char *top_sort_keys_text(void);
int top_run(const struct top_options *o);

/* snapshot_view.c: FORMAT a report format (format.h), or a table for
 * people, or by default the table on a terminal, else allocinfo. */
enum { SNAPSHOT_TABLE = -1, SNAPSHOT_DEFAULT = -2 };
int snapshot_run(const char *what, int format, const char *output, int exact);
int leaks_run(const char *what, int exact);
int ps_run(int all, int exact);
/* What `alloctag top` shows when given nothing: the user's one process with
 * live counters; of several, the one picked at the terminal (INTERACTIVE),
 * else one line naming them and exit 2; with none, /proc/allocinfo. */
const char *ps_choose(int interactive);

/* diff.c */
int diff_run(const char *a, const char *b, int all, int exact);

/* record.c */
struct record_options {
	int64_t interval_ns;
	int64_t max_bytes;
	const char *output;	/* NULL: alloctag-PID.timeline */
	long pid;		/* a process to follow, or 0 */
	char **command;		/* a command to run, or NULL */
};
#define RECORD_DEFAULT_INTERVAL_NS	100000000LL	/* 10 samples a second */
#define RECORD_DEFAULT_MAX_BYTES	(16LL << 20)
int record_run(const struct record_options *o);

/* plot.c: the N operands WHATS on one page, written to OUTPUT (NULL: a
 * name made of theirs, said on stdout). */
#define PLOT_DEFAULT_SITES	8
int plot_run(char *const *whats, size_t n, const char *output, unsigned sites);

/* pprof.c: OUTPUT NULL: a name made of WHAT's, said on stdout. */
int pprof_run(const char *what, const char *output);

#endif
