/* SPDX-License-Identifier: MIT */
/*
 * source.h: what an operand of the command line names, read into the model
 * (snapshot.h), the top of the model:
 *
 *   PID              all digits: a running process of the user's (its live
 *                    file, live.h), or the report it kept if it has ended
 *   /proc/allocinfo  the kernel's counters
 *   FILE             a report (allocinfo 1.x or 2.x, full, json) or a
 *                    timeline (timeline.h), told apart by their first line;
 *                    FILE@WHICH a sample of a timeline: @last (the default),
 *                    @peak (the most live bytes), @2.5s (the last sample at
 *                    or before 2.5 s from the start; @0, the first)
 *   NAME             a program's name (or its path as started), when no
 *                    file has that name, or the program itself (an ELF
 *                    file: ./minigzip, bin/server): its one running
 *                    process, or if none runs, the last of its ended ones
 *                    to be kept (its report, or its counters if killed)
 */
#ifndef ALLOCTAG_TOOL_SOURCE_H
#define ALLOCTAG_TOOL_SOURCE_H

#include "snapshot.h"

#define PROC_ALLOCINFO	"/proc/allocinfo"

struct source {
	long pid;		/* a process (running, or ended with a kept report); 0: a file */
	char *file;		/* the file, without its @WHICH */
	const char *which;	/* what follows the @ of FILE@WHICH (in the operand), or NULL */
};

/* What WHAT names, into SRC (source_free() it): 0, or -1 with the error set. */
int source_resolve(struct source *src, const char *what);
void source_free(struct source *src);

/* The snapshot SRC names: 0, or -1 with the error set. */
int source_read(struct snapshot *s, const struct source *src);
/* The snapshot WHAT names (source_resolve(), source_read()): 0, or -1 with
 * the error set. */
int snapshot_read(struct snapshot *s, const char *what);

/* The name of a file made of the N operands WHATS when -o does not say:
 * NAME.EXT for a file NAME.whatever (in the current directory),
 * alloctag-PID.EXT for a process, alloctag-NAME.EXT for a program's name;
 * several joined by "-vs-". */
#define SOURCE_NAME_MAX	256
void source_output_name(char *out, size_t size, char *const *whats, size_t n, const char *ext);

/* WHAT is all digits, a pid: *PID. */
int is_pid_argument(const char *what, long *pid);

#endif
