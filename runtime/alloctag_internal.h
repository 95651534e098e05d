/* SPDX-License-Identifier: MIT */
/*
 * alloctag_internal.h: what the runtime's process-level parts share: the
 * live file, the settings, the reports.  Above the allocator (base.h at
 * the bottom; segment.h, block.h, large.h, next.h, counters_mem.h;
 * state.h, heap.h, registry.h; malloc.c on top), which includes none of it.
 *
 *   live.c       the live file: where, who may read it, its lifetime
 *   config.c     the ALLOCTAG_* settings, read once at start
 *   report.c     reports: when and where
 *   format.c, counters_read.c   reading counters and writing reports (shared
 *                with the alloctag command)
 *   process.c    the process's life: start, fork, exit
 */
#ifndef ALLOCTAG_INTERNAL_H
#define ALLOCTAG_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "alloctag.h"
#include "base.h"
#include "counters_mem.h"

/* live.c */
void alloctag_live_start(void) INTERNAL;
void alloctag_live_after_fork(void) INTERNAL;
void alloctag_live_keep(int (*write)(int fd, void *arg), void *arg) INTERNAL;
void alloctag_live_end(void) INTERNAL;

/* config.c */
enum report_destination {
	DEST_OFF, DEST_STDERR, DEST_STDOUT, DEST_FILE,
	DEST_KEEP,			/* only kept in the live directory (report.c) */
};
enum live_setting { LIVE_OFF, LIVE_ON, LIVE_KEEP };
#define CONFIG_NOTES	6		/* one for each setting that can be wrong */
#define CONFIG_NOTE_MAX	256
struct alloctag_config {
	enum report_destination destination;
	char path[4096];		/* DEST_FILE: absolute, %p/%e/%% unexpanded */
	int format;			/* enum report_format (format.h) */
	unsigned long top;		/* 0: every site */
	int signal;			/* 0: none */
	enum live_setting live;		/* make a live file (and keep it after exit) */
	int under_valgrind;		/* Valgrind's preload was there at start */
	int secure;			/* AT_SECURE: set-user-ID or set-group-ID, no files */
	/* What was wrong with the settings, for the report (unless said on stderr) */
	char notes[CONFIG_NOTES][CONFIG_NOTE_MAX];
	unsigned nnotes;
};
extern struct alloctag_config alloctag_config INTERNAL;
void alloctag_config_read(void) INTERNAL;
void alloctag_complain(const char *first, ...) INTERNAL __attribute__((sentinel));

/* report.c */
void alloctag_report_streams(void) INTERNAL;
void alloctag_report_start(void) INTERNAL;
void alloctag_report_at_exit(void) INTERNAL;
void alloctag_say(const char *text, size_t n) INTERNAL;

#endif /* ALLOCTAG_INTERNAL_H */
