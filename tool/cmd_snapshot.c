/* SPDX-License-Identifier: MIT */
/*
 * cmd_snapshot.c: `alloctag snapshot` (a report of a process now, or a
 * report or timeline converted) and `alloctag ps` (the live processes;
 * with -a also the ended ones whose report was kept, runtime/live_dir.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "live.h"
#include "live_dir.h"
#include "report_write.h"

int cmd_snapshot(int argc, char **argv)
{
	static const struct option options[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ 0 } };
	const char *output = "-";
	int format = FORMAT_ALLOCINFO, c;
	struct snapshot s;
	struct buf b = { 0 };

	while ((c = command_option("snapshot", argc, argv, "f:o:", options)) != -1) {
		if (c == 'f' && (format = report_format_parse(optarg)) < 0)
			fail("no report format '%s' (allocinfo, full or json)", optarg);
		else if (c == 'o')
			output = optarg;
	}
	if (optind != argc - 1)
		usage_of("snapshot");
	if (snapshot_read(&s, argv[optind]))
		fail_error();
	if (format != FORMAT_ALLOCINFO && !s.has_totals)
		fail("%s has live bytes and calls only (allocinfo): it can be written as allocinfo, not %s",
		     argv[optind], format == FORMAT_FULL ? "full" : "json");
	report_write(&b, &s, format);
	if (write_file(output, &b))
		fail_error();
	buf_free(&b);
	snapshot_clear(&s);
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The pids named by files in the live directories (not checked yet):
 * live files, or kept reports, as NAMED says. */
static size_t live_pids(long **out, int (*named)(const char *name, long *pid))
{
	char path[LIVE_PATH_MAX];
	size_t n = 0, cap = 0;
	long *pids = NULL;

	for (int d = 0; live_dir_candidate(d, path, sizeof(path)) == 0; d++) {
		DIR *dir = opendir(path);
		struct dirent *e;
		long pid;

		while (dir && (e = readdir(dir)))
			if (named(e->d_name, &pid)) {
				if (n == cap)
					pids = xrealloc(pids, (cap = cap ? cap * 2 : 64) * sizeof(*pids));
				pids[n++] = pid;
			}
		if (dir)
			closedir(dir);
	}
	qsort(pids, n, sizeof(*pids), cmp_long);
	*out = pids;
	return n;
}

/* ps --bytes: exact byte counts instead of KiB, MiB, ... */
static int exact_bytes;

static void print_row(long pid, const struct snapshot *s, const char *state)
{
	int64_t bytes = 0, calls = 0;
	char size[32];

	for (size_t k = 0; k < s->n; k++) {
		bytes += s->sites[k].bytes;
		calls += s->sites[k].calls;
	}
	if (exact_bytes)
		snprintf(size, sizeof(size), "%lld", (long long)bytes);
	else
		human_bytes(size, sizeof(size), bytes);
	printf("%8ld %14s %8lld %8zu  %s%s\n", pid, size, (long long)calls, s->n,
	       s->program ? s->program : "?", state);
}

/* Every pid of PIDS (N, sorted) once, read by READ and printed if it can be. */
static void print_rows(const long *pids, size_t n, int (*read)(struct snapshot *s, long pid),
		       const char *state)
{
	for (size_t i = 0; i < n; i++) {
		struct snapshot s;

		if ((i && pids[i] == pids[i - 1]) || read(&s, pids[i]))
			continue;	/* stale (now removed), refused or gone */
		print_row(pids[i], &s, state);
		snapshot_clear(&s);
	}
}

/* A kept report, of a process that has ended. */
static int read_ended(struct snapshot *s, long pid)
{
	return live_process_ended(pid) ? live_kept_report(s, pid) : -1;
}

int cmd_ps(int argc, char **argv)
{
	static const struct option options[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "bytes", no_argument, NULL, 'B' },
		{ 0 } };
	int all = 0, c;
	long *pids;
	size_t n;

	while ((c = command_option("ps", argc, argv, "aB", options)) != -1)
		if (c == 'a')
			all = 1;
		else
			exact_bytes = 1;
	if (optind != argc)
		usage_of("ps");
	printf("%8s %14s %8s %8s  %s\n", "PID", "LIVE BYTES", "BLOCKS", "SITES", "PROGRAM");
	n = live_pids(&pids, live_name_pid);
	print_rows(pids, n, live_snapshot, "");
	free(pids);
	if (!all)
		return 0;
	n = live_pids(&pids, live_report_pid);
	print_rows(pids, n, read_ended, " (exited)");
	free(pids);
	return 0;
}
