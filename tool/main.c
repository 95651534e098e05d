/* SPDX-License-Identifier: MIT */
/*
 * alloctag: the command that reads alloctag's counters: a running
 * process's (its live file, live.h), a report, the kernel's
 * /proc/allocinfo, or a timeline recorded by `alloctag record`.
 *
 * Exit status: 0 on success (diff: 0 if nothing changed, 1 if something
 * did; record -- CMD: CMD's), EXIT_TROUBLE (2) with one line on stderr for
 * bad input or usage.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "util.h"

#ifndef ALLOCTAG_VERSION
#define ALLOCTAG_VERSION "unknown"
#endif

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *what;
} commands[] = {
	{ "top", cmd_top, "[-d SECONDS] [-s KEY] [-f TEXT] [-n COUNT] [-b] [PID | /proc/allocinfo | FILE]",
	  "a refreshing view of the sites (q quits, h lists the keys)" },
	{ "snapshot", cmd_snapshot, "[-f allocinfo|full|json] [-o FILE] (PID | REPORT | TIMELINE)",
	  "the report now, in the runtime's formats" },
	{ "ps", cmd_ps, "[-a]", "the processes of yours that have live counters (-a: and the reports ended ones kept)" },
	{ "diff", cmd_diff, "[-a] A B", "per-site change from A to B (reports, PIDs, timelines)" },
	{ "record", cmd_record, "[-i INTERVAL] [-o FILE] [-m MAXSIZE] (PID | -- CMD [ARGS...])",
	  "sample the counters into a timeline file of bounded size" },
	{ "plot", cmd_plot, "-o FILE [-n SITES] (TIMELINE | REPORT | PID)",
	  "one self-contained HTML page: a chart over time and a table of all sites" },
	{ "pprof", cmd_pprof, "-o FILE (PID | REPORT | TIMELINE[@peak|@SECONDS])",
	  "a gzipped profile.proto for go tool pprof and continuous profilers" },
};

static void print_usage(FILE *f)
{
	fprintf(f, "usage: alloctag COMMAND [ARGS...]\n\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  alloctag %s %s\n      %s\n", commands[i].name, commands[i].args, commands[i].what);
	fprintf(f, "\nA PID is a running process of yours built with alloctag-cc (or one that ended and\n"
		   "kept its report: ps -a); a REPORT is what its runtime writes (allocinfo, full or\n"
		   "json) or a copy of /proc/allocinfo; a TIMELINE is what record writes, read at its\n"
		   "last sample, or TIMELINE@peak, TIMELINE@2.5s.\n");
}

void usage_of(const char *command)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, command))
			fail("usage: alloctag %s %s", command, commands[i].args);
	fail("usage: alloctag COMMAND (alloctag --help lists them)");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		fail("usage: alloctag COMMAND [ARGS...] (alloctag --help lists the commands)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("alloctag %s\n", ALLOCTAG_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fail("no command '%s' (alloctag --help lists them)", argv[1]);
}
