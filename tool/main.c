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
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "commands.h"
#include "util.h"

#ifndef ALLOCTAG_VERSION
#define ALLOCTAG_VERSION "unknown"
#endif

#define EXIT_STATUS "0 on success, 2 on trouble (one line on stderr)"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *what;
	const char *exit_status;
} commands[] = {
	{ "top", cmd_top, "[-d SECONDS] [-s KEY] [-f TEXT] [-n COUNT] [-b] [PID | /proc/allocinfo | FILE]",
	  "a refreshing view of the sites (q quits, h lists the keys)", EXIT_STATUS },
	{ "snapshot", cmd_snapshot, "[-f allocinfo|full|json] [-o FILE] (PID | REPORT | TIMELINE)",
	  "the report now, in the runtime's formats", EXIT_STATUS },
	{ "ps", cmd_ps, "[-a] [-B]", "the processes of yours that have live counters (-a: and the reports ended ones kept)",
	  EXIT_STATUS },
	{ "diff", cmd_diff, "[-a] A B", "per-site change from A to B (reports, PIDs, timelines)",
	  "0 if A and B are the same, 1 if they differ, 2 on trouble" },
	{ "record", cmd_record, "[-i INTERVAL] [-o FILE] [-m MAXSIZE] (PID | -- CMD [ARGS...])",
	  "sample the counters into a timeline file of bounded size",
	  "the status of CMD when given one, else 0; 2 on trouble" },
	{ "plot", cmd_plot, "-o FILE [-n SITES] (TIMELINE | REPORT | PID)",
	  "one self-contained HTML page: a chart over time and a table of all sites", EXIT_STATUS },
	{ "pprof", cmd_pprof, "-o FILE (PID | REPORT | TIMELINE[@peak|@SECONDS])",
	  "a gzipped profile.proto for go tool pprof and continuous profilers", EXIT_STATUS },
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

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void usage_of(const char *command)
{
	const struct command *cmd = command_named(command);

	if (cmd)
		fail("usage: alloctag %s %s (alloctag %s --help)", command, cmd->args, command);
	fail("usage: alloctag COMMAND (alloctag --help lists them)");
}

static void print_version(void)
{
	printf("alloctag %s\n", ALLOCTAG_VERSION);
}

/* alloctag COMMAND --help: its usage, what it does and each option's names. */
static void print_command_help(const struct command *cmd, const struct option *options)
{
	printf("usage: alloctag %s %s\n  %s\n\noptions:\n", cmd->name, cmd->args, cmd->what);
	for (const struct option *o = options; o->name; o++) {
		char names[64];

		if (o->val < 0x100)
			snprintf(names, sizeof(names), "-%c, --%s", o->val, o->name);
		else
			snprintf(names, sizeof(names), "    --%s", o->name);
		printf("  %s%s\n", names, o->has_arg == required_argument ? "=VALUE" : "");
	}
	printf("\nexit status: %s\n", cmd->exit_status);
}

/* What command_option() adds to each command's own options. */
enum { OPTION_HELP = 'h', OPTION_VERSION = 0x100, MAX_COMMAND_OPTIONS = 16, MAX_SHORTOPTS = 64 };

int command_option(const char *command, int argc, char **argv, const char *shortopts,
		   const struct option *longopts)
{
	struct option all[MAX_COMMAND_OPTIONS + 3] = {
		{ "help", no_argument, NULL, OPTION_HELP },
		{ "version", no_argument, NULL, OPTION_VERSION },
	};
	char shorts[MAX_SHORTOPTS];
	int c;

	for (size_t i = 0; longopts[i].name && i < MAX_COMMAND_OPTIONS; i++)
		all[2 + i] = longopts[i];
	/* ':' first: a missing value is told from an unknown option */
	if (*shortopts == '+')
		snprintf(shorts, sizeof(shorts), "+:%sh", shortopts + 1);
	else
		snprintf(shorts, sizeof(shorts), ":%sh", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, shorts, all, NULL);
	if (c == OPTION_HELP) {
		print_command_help(command_named(command), all);
		exit(0);
	}
	if (c == OPTION_VERSION) {
		print_version();
		exit(0);
	}
	if (c == ':')
		fail("%s: %s needs a value (alloctag %s --help)", command, argv[optind - 1], command);
	if (c == '?')
		fail("%s: no option %s (alloctag %s --help)", command, argv[optind - 1], command);
	return c;
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
		print_version();
		return 0;
	}
	const struct command *cmd = command_named(argv[1]);

	if (cmd)
		return cmd->run(argc - 1, argv + 1);
	fail("no command '%s' (alloctag --help lists them)", argv[1]);
}
