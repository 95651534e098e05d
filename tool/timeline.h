/* SPDX-License-Identifier: MIT */
/*
 * timeline.h: a process's counters over time, as `alloctag record` writes
 * them and `plot` and `pprof` read them.  A text file, one JSON object a
 * line (docs/reference.md, "Timeline files"):
 *
 *   {"alloctag_timeline": 1, "program": "demo", "pid": 4242,
 *    "start_ns": 1767225600000000000, "interval_ns": 100000000,
 *    "stride": 1, "max_bytes": 16777216}
 *   {"site": 3, "file": "demo.c", "line": 42, "column": 9,
 *    "function": "count", "callee": "xmalloc", "module": null}
 *   {"t": 100000000, "s": [[3, 4096, 1, 8192, 2, 4096]]}
 *   ...
 *   {"end": 5000000000, "exited": true}
 *
 * The first line says what the file is and its version: a reader refuses
 * another.  A site line defines an id before a sample uses it.  A sample is
 * a time (ns since start_ns) and, for each site that changed since the
 * previous sample line, [id, live bytes, live blocks, total bytes, total
 * calls, peak bytes]; a site not listed keeps its values.  The optional end
 * line closes a recording that finished (the process exited, or record was
 * stopped).
 *
 * Bounded: when the file outgrows max_bytes, record rewrites it keeping
 * half of its samples (of each two neighbours, the one with more live
 * bytes; the last sample always), doubles "stride", and from then on writes
 * one sample of every stride it reads (again the one with the most live
 * bytes).  The file keeps the whole run at an even resolution that halves
 * as it grows, and never loses the highest point of the total.
 */
#ifndef ALLOCTAG_TOOL_TIMELINE_H
#define ALLOCTAG_TOOL_TIMELINE_H

#include <stdint.h>
#include "snapshot.h"

#define TIMELINE_VERSION	1
#define TIMELINE_KEY		"alloctag_timeline"
#define TIMELINE_VALUES		5	/* bytes, calls, total bytes, total calls, peak */


struct timeline_entry {
	uint32_t site;		/* index in struct timeline's sites (not the file's id) */
	int64_t v[TIMELINE_VALUES];
};

struct timeline_sample {
	int64_t t;		/* ns since start_ns */
	int64_t total_bytes;	/* live bytes of all sites at t */
	size_t n;
	struct timeline_entry *e;	/* what changed since the previous sample */
};

struct timeline {
	char *program;
	long pid;
	int64_t start_ns, interval_ns, max_bytes, end_ns;
	unsigned stride;
	int ended, exited;
	struct site *sites;	/* in the order defined (id: the file's); counters: the last values */
	size_t nsites;
	int64_t *max_live;	/* by site index: the highest live bytes of a sample */
	uint32_t *index_of;	/* by file id: site index + 1, 0 if undefined */
	size_t nids;
	struct timeline_sample *samples;
	size_t nsamples;
};

int is_timeline_text(const char *text, size_t len);
int timeline_load(struct timeline *tl, const char *text, size_t len, const char *name);
void timeline_free(struct timeline *tl);
/* How long it runs (ns): to its end line, or its last sample. */
int64_t timeline_length(const struct timeline *tl);
/* The sample with the most live bytes in all (the first of equals). */
size_t timeline_peak_sample(const struct timeline *tl);
/* The counters at a sample: values[site index * TIMELINE_VALUES + k], replayed
 * from the start (seek forward only, to replay once). */
struct timeline_cursor {
	size_t next;
	int64_t *values;
};
void timeline_cursor_init(struct timeline_cursor *c, const struct timeline *tl);
void timeline_cursor_seek(struct timeline_cursor *c, const struct timeline *tl, size_t sample);
void timeline_cursor_free(struct timeline_cursor *c);

/* The sample WHICH names (NULL or "last", "peak", a time from the start such
 * as "2.5s": the last sample at or before it, the first if none is) of a
 * timeline's text. */
int timeline_snapshot(struct snapshot *s, const char *text, size_t len, const char *name,
		      const char *which);
/* The same from a loaded timeline. */
void timeline_state(const struct timeline *tl, size_t sample, struct snapshot *s);

/* ---- writing (record) ---- */

struct timeline_writer {
	char *path;
	int fd;
	int64_t size, max_bytes;
	unsigned stride;
	char *program;
	long pid;
	int64_t start_ns, interval_ns;
	int64_t *written;	/* by id - 1: the values last written */
	unsigned char *defined;	/* by id - 1: its site line is in the file */
	size_t cap;
	int64_t last_t;
};

/* MAX_BYTES: TIMELINE_MIN_BYTES at least (room for the header, the sites and
 * a few samples). */
#define TIMELINE_MIN_BYTES	(64 << 10)
int timeline_create(struct timeline_writer *w, const char *path, const char *program, long pid,
		    int64_t start_ns, int64_t interval_ns, int64_t max_bytes);
/* Append sample S (sites with ids) at T; compacts when the file is full. */
int timeline_append(struct timeline_writer *w, const struct snapshot *s, int64_t t);
int timeline_finish(struct timeline_writer *w, int64_t t, int exited);

#endif
