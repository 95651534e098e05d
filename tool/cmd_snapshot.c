/* SPDX-License-Identifier: MIT */
/*
 * cmd_snapshot.c: `alloctag snapshot` (a report of a process now, or a
 * report or timeline converted) and `alloctag ps` (the live processes).
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

	while ((c = getopt_long(argc, argv, "+f:o:", options, NULL)) != -1) {
		if (c == 'f' && (format = report_format_parse(optarg)) < 0)
			fail("no report format '%s' (allocinfo, full or json)", optarg);
		else if (c == 'o')
			output = optarg;
		else if (c != 'f')
			usage_of("snapshot");
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

/* The pids named by files in the live directories (not checked yet). */
static size_t live_pids(long **out)
{
	char path[LIVE_PATH_MAX];
	size_t n = 0, cap = 0;
	long *pids = NULL;

	for (int d = 0; live_dir_candidate(d, path, sizeof(path)) == 0; d++) {
		DIR *dir = opendir(path);
		struct dirent *e;
		long pid;

		while (dir && (e = readdir(dir)))
			if (live_name_pid(e->d_name, &pid)) {
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

int cmd_ps(int argc, char **argv)
{
	long *pids;
	size_t n;

	if (argc != 1)
		usage_of("ps");
	(void)argv;
	n = live_pids(&pids);
	printf("%8s %14s %8s %8s  %s\n", "PID", "LIVE BYTES", "BLOCKS", "SITES", "PROGRAM");
	for (size_t i = 0; i < n; i++) {
		struct snapshot s;
		int64_t bytes = 0, calls = 0;

		if (i && pids[i] == pids[i - 1])
			continue;
		if (live_snapshot(&s, pids[i]))
			continue;	/* stale (now removed), refused or gone */
		for (size_t k = 0; k < s.n; k++) {
			bytes += s.sites[k].bytes;
			calls += s.sites[k].calls;
		}
		printf("%8ld %14lld %8lld %8zu  %s\n", pids[i], (long long)bytes, (long long)calls, s.n,
		       s.program ? s.program : "?");
		snapshot_clear(&s);
	}
	free(pids);
	return 0;
}
