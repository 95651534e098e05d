/* SPDX-License-Identifier: MIT */
/*
 * report_write.h: a snapshot written as the runtime's reports are (README,
 * "Reports"): allocinfo (the kernel's /proc/allocinfo text), full, json.
 */
#ifndef ALLOCTAG_TOOL_REPORT_WRITE_H
#define ALLOCTAG_TOOL_REPORT_WRITE_H

#include "snapshot.h"

enum report_format { REPORT_ALLOCINFO, REPORT_FULL, REPORT_JSON };

/* "allocinfo", "full", "json"; -1 if none of them. */
int report_format_parse(const char *name);
/* S's sites, in the order they are in, into B. */
void report_write(struct buf *b, const struct snapshot *s, enum report_format format);

#endif
