/* SPDX-License-Identifier: MIT */
/*
 * alloctag: the command that reads alloctag's counters: a running
 * process's (its live file, live.h), a report, the kernel's
 * /proc/allocinfo, or a timeline recorded by `alloctag record`.
 *
 * This file is the command line's (cli.h): each command's arguments turned
 * into its view's options (views.h), the view run.  Exit status: what the
 * view gives (0 on success; diff: 1 if something changed; record -- CMD:
 * CMD's), EXIT_TROUBLE (2) with one line on stderr for bad input or usage,
 * or a standard output that could not be written (close_stdout(), at exit).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "source.h"
#include "report_write.h"
#include "timeline.h"
#include "views.h"

#define PLOT_MAX_OPERANDS	10	/* runs on one page: as many as the palette tells apart */

/* The operands left after the options: exactly MIN to MAX of them, else the usage. */
static int operands(const struct cli_command *c, int argc, int min, int max)
{
	int n = argc - optind;

	if (n < min || n > max)
		cli_usage(c);
	return n;
}

/* An option's VALUE: a count from 1 to MAX, else one line saying it is not WHAT. */
static uint64_t count_option(const char *value, uint64_t max, const char *what)
{
	uint64_t v;

	if (parse_u64(value, &v) || !v || v > max)
		fail("%s: not %s", cli_option_text(), what);
	return v;
}

/* The flags of a command that takes no value: -a (ALL), -B (EXACT). */
static void flags(const struct cli_command *c, int argc, char **argv, int *all, int *exact)
{
	int key;

	*all = *exact = 0;
	while ((key = cli_option(c, argc, argv)) != -1) {
		if (key == 'a')
			*all = 1;
		else if (key == 'B')
			*exact = 1;
	}
}

static int run_top(const struct cli_command *c, int argc, char **argv)
{
	struct top_options o = { .delay_ns = TOP_DEFAULT_DELAY_NS };
	int key;

	while ((key = cli_option(c, argc, argv)) != -1) {
		if (key == 'd' && ((o.delay_ns = parse_duration(optarg)) < TOP_MIN_DELAY_NS ||
				   o.delay_ns > TOP_MAX_DELAY_NS))
			fail("%s: not a delay from 0.1 s to an hour", cli_option_text());
		else if (key == 's' && (o.sort = top_sort_key(optarg)) < 0)
			fail("%s: no such column: %s", cli_option_text(), top_sort_keys_text());
		else if (key == 'f')
			o.filter = optarg;
		else if (key == 'n')
			o.count = count_option(optarg, 1000000, "a count of refreshes");
		else if (key == 'b')
			o.batch = 1;
		else if (key == 'B')
			o.exact = 1;
	}
	if (operands(c, argc, 0, 1))
		o.what = argv[optind];
	return top_run(&o);
}

static int run_snapshot(const struct cli_command *c, int argc, char **argv)
{
	const char *output = "-";
	int format = SNAPSHOT_DEFAULT, exact = 0, key;

	while ((key = cli_option(c, argc, argv)) != -1) {
		if (key == 'f' && !strcmp(optarg, "table"))
			format = SNAPSHOT_TABLE;
		else if (key == 'f' && (format = report_format_parse(optarg)) < 0)
			fail("no format '%s' (table, allocinfo, full or json)", optarg);
		else if (key == 'o')
			output = optarg;
		else if (key == 'B')
			exact = 1;
	}
	operands(c, argc, 1, 1);
	return snapshot_run(argv[optind], format, output, exact);
}

static int run_leaks(const struct cli_command *c, int argc, char **argv)
{
	int all, exact;

	flags(c, argc, argv, &all, &exact);
	operands(c, argc, 1, 1);
	return leaks_run(argv[optind], exact);
}

static int run_ps(const struct cli_command *c, int argc, char **argv)
{
	int all, exact;

	flags(c, argc, argv, &all, &exact);
	operands(c, argc, 0, 0);
	return ps_run(all, exact);
}

static int run_diff(const struct cli_command *c, int argc, char **argv)
{
	int all, exact;

	flags(c, argc, argv, &all, &exact);
	operands(c, argc, 2, 2);
	return diff_run(argv[optind], argv[optind + 1], all, exact);
}

static int run_record(const struct cli_command *c, int argc, char **argv)
{
	struct record_options o = { .interval_ns = RECORD_DEFAULT_INTERVAL_NS,
				    .max_bytes = RECORD_DEFAULT_MAX_BYTES };
	int key;

	while ((key = cli_option(c, argc, argv)) != -1) {
		if (key == 'i' && (o.interval_ns = parse_duration(optarg)) < 1000000)
			fail("%s: not an interval of at least 1ms (100ms, 0.5s, 2)", cli_option_text());
		else if (key == 'm' && (o.max_bytes = parse_size(optarg)) < 0)
			fail("%s: not a size (16M, 512k, 1G)", cli_option_text());
		else if (key == 'm' && o.max_bytes < TIMELINE_MIN_BYTES)
			fail("%s: less than %dk, the smallest a timeline is kept in", cli_option_text(),
			     TIMELINE_MIN_BYTES >> 10);
		else if (key == 'o')
			o.output = optarg;
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o.command = argv + optind;
	} else {
		struct source src;

		operands(c, argc, 1, 1);
		if (source_resolve(&src, argv[optind]))
			fail_error();
		if (!src.pid)
			cli_usage(c);
		o.pid = src.pid;
		source_free(&src);
	}
	return record_run(&o);
}

static int run_plot(const struct cli_command *c, int argc, char **argv)
{
	const char *output = NULL;
	unsigned sites = PLOT_DEFAULT_SITES;
	int key;

	while ((key = cli_option(c, argc, argv)) != -1) {
		if (key == 'o')
			output = optarg;
		else if (key == 'n')
			sites = count_option(optarg, 1000, "a number of sites from 1 to 1000");
	}
	return plot_run(argv + optind, operands(c, argc, 1, PLOT_MAX_OPERANDS), output, sites);
}

static int run_pprof(const struct cli_command *c, int argc, char **argv)
{
	const char *output = NULL;

	while (cli_option(c, argc, argv) != -1)
		output = optarg;
	operands(c, argc, 1, 1);
	return pprof_run(argv[optind], output);
}

static const struct {
	const char *name;
	int (*run)(const struct cli_command *c, int argc, char **argv);
} runs[] = {
	{ "top", run_top }, { "snapshot", run_snapshot }, { "ps", run_ps }, { "leaks", run_leaks },
	{ "diff", run_diff },
	{ "record", run_record }, { "plot", run_plot }, { "pprof", run_pprof },
};

int main(int argc, char **argv)
{
	stdout_hold();
	atexit(close_stdout);
	if (argc < 2)
		fail("usage: alloctag COMMAND [OPTION]... [OPERAND]... (alloctag --help lists the commands)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		cli_print_help();
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		cli_print_version();
		return 0;
	}
	if (!strncmp(argv[1], "--manual=", 9)) {
		if (manual_write(argv[1] + 9))
			fail("no manual %s (alloctag.1, alloctag-cc.1, alloctag.7, alloctag.bash, alloctag-cc.help)", argv[1] + 9);
		return 0;
	}
	if (argv[1][0] == '-')
		fail("no option %.*s (alloctag --help)", (int)strcspn(argv[1], "="), argv[1]);
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++)
		if (!strcmp(argv[1], runs[i].name)) {
			static char name[64];
			const struct cli_command *c = cli_command_named(runs[i].name);

			snprintf(name, sizeof(name), "alloctag %s", runs[i].name);
			fail_as(name);
			return runs[i].run(c, argc - 1, argv + 1);
		}
	fail("no command '%s' (alloctag --help lists them)", argv[1]);
}
