/* SPDX-License-Identifier: MIT */
/*
 * report_write.h: a snapshot written as the runtime writes its reports
 * (docs/reference.md, "Reports"), by the runtime's own code (runtime/format.c): a
 * snapshot of a live process and the report at its exit compare line by line.
 */
#ifndef ALLOCTAG_TOOL_REPORT_WRITE_H
#define ALLOCTAG_TOOL_REPORT_WRITE_H

#include "format.h"
#include "snapshot.h"

/* "allocinfo", "full", "json"; -1 if none of them. */
int report_format_parse(const char *name);
/* S's sites, in the order of the runtime's reports, into B. */
void report_write(struct buf *b, const struct snapshot *s, enum report_format format);

#endif
