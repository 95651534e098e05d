/* SPDX-License-Identifier: MIT */
/*
 * counters_read.h: reading counters (counters.h) into per-site totals, for
 * the runtime's reports and for the alloctag command, which maps another
 * process's live file.  Nothing here trusts the counters: every offset and
 * size is checked against what the view holds, so a truncated or corrupt
 * file gives an error or question marks, never a crash.  No allocation:
 * the caller provides the arrays (the runtime's report may run in a signal
 * handler).
 */
#ifndef ALLOCTAG_COUNTERS_READ_H
#define ALLOCTAG_COUNTERS_READ_H

#include <stddef.h>
#include <stdint.h>
#include "counters.h"

/*
 * Counters as mapped: extent i at extents[i]; LIMIT bytes from offset 0
 * readable (a file's size: at most nextents * EXTENT_SIZE).
 */
struct counters_view {
	const char *const *extents;
	uint32_t nextents;
	uint64_t limit;
};

/* What a report says of a site: its totals over every thread. */
struct site_totals {
	uint32_t site;
	int64_t live_bytes;
	int64_t live_calls;
	uint64_t bytes;		/* total bytes charged */
	uint64_t calls;		/* total allocations */
	int64_t peak;		/* sum of each thread's peak: exact with one thread */
};

/* And where it is. */
struct site_text {
	const char *file;
	const char *function;
	const char *callee;	/* NULL: unknown */
	const char *module;	/* NULL: the main program */
	uint32_t line;
	uint32_t column;	/* 0: unknown */
	uint32_t inaccurate;	/* the kernel's "accurate:no": some allocations went uncounted
				 * (the runtime's own counters are exact: always 0) */
};

/* NULL if the SIZE bytes at H begin counters this reader knows, else why not. */
const char *counters_check_header(const void *h, size_t size);

/* The number of sites published in V (read it first: it sizes the arrays). */
uint32_t counters_site_count(const struct counters_view *v);

/*
 * Every thread's slots summed, for sites 1..NSITES: TOTALS[i] is site i+1,
 * SITES[i] its record (or NULL if the view lacks it).  Live counts are
 * clamped to what can be true (see counters.h's order of writes).
 */
void counters_sum(const struct counters_view *v, uint32_t nsites,
		  struct site_totals *totals, const struct counters_site **sites);
/* The same for sites FIRST..FIRST+NSITES-1 (TOTALS[0] is site FIRST): a
 * report with no memory for every site's totals reads them a window at a time. */
void counters_sum_range(const struct counters_view *v, uint32_t first, uint32_t nsites,
			struct site_totals *totals, const struct counters_site **sites);

/* The text of a site record ("?" for what the view does not hold whole). */
void counters_site_text(const struct counters_view *v, const struct counters_site *s,
			struct site_text *t);

#endif /* ALLOCTAG_COUNTERS_READ_H */
