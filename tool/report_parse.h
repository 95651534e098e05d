/* SPDX-License-Identifier: MIT */
/*
 * report_parse.h: a report's text read into the model (snapshot.h): the
 * runtime's allocinfo (1.x and 2.x), full and json, and the kernel's
 * /proc/allocinfo; the last of several appended reports.
 */
#ifndef ALLOCTAG_TOOL_REPORT_PARSE_H
#define ALLOCTAG_TOOL_REPORT_PARSE_H

#include "snapshot.h"

/* LEN bytes of TEXT into S; NAME is for the messages: 0, or -1 with the error set. */
int report_parse(struct snapshot *s, const char *text, size_t len, const char *name);

#endif
