/* SPDX-License-Identifier: MIT */
/*
 * cli.h: the command line of alloctag, the top layer.  One table
 * (cli_table.c) says each command's operands, options and what they do;
 * from it come the option parser (cli_option()), --help, the manual pages
 * and the bash completion (manual.c), so that none can disagree with
 * another.  main.c turns a command's arguments into the options of its
 * view (views.h) and runs it.
 *
 *   main.c, cli.c, cli_table.c, manual.c     the command line (this layer)
 *   views.h: top, snapshot_view, ps, diff,   what each command shows or writes,
 *     record, plot, pprof; site_table,       and the tables they share
 *     table, report_write
 *   source.h; live.h, timeline.h,            the model: whatever is read, as
 *     report_parse.h; snapshot.h             one in-memory form
 *   util.h, json.h; runtime/sys.h, format.h  the bottom
 *
 * Each layer uses only the ones below it (testsuite/tool/layers.sh).
 */
#ifndef ALLOCTAG_TOOL_CLI_H
#define ALLOCTAG_TOOL_CLI_H

#include <stddef.h>

#define CLI_MAX_OPTIONS	16

struct cli_option {
	char key;		/* the short option, what cli_option() returns; 0: none */
	const char *name;	/* the long option */
	const char *value;	/* the name of its value ("SECONDS"), or NULL: a flag */
	const char *help;	/* what it does, sentences */
	const char *choices;	/* its values, blank-separated, for completion; NULL: a file or any */
};

struct cli_command {
	const char *name;
	const char *operands;	/* "[PID | NAME | FILE]" */
	const char *summary;	/* one line, lower case, no full stop */
	const char *text;	/* more, paragraphs separated by a blank line */
	const char *exit_status;
	int in_order;		/* options only before the operands (record -- CMD) */
	struct cli_option options[CLI_MAX_OPTIONS];
};

/* An environment variable a program reads (the runtime's, alloctag-cc's). */
struct cli_variable {
	const char *name;
	const char *help;
};

/* A manual page's section of prose. */
struct cli_section {
	const char *title;
	const char *text;	/* paragraphs separated by a blank line */
};

extern const char cli_summary[];		/* what alloctag is, one line */
extern const char cli_description[];		/* alloctag(1)'s description */
extern const struct cli_command cli_commands[];
extern const size_t cli_ncommands;
extern const struct cli_variable cli_variables[];	/* what alloctag reads */
extern const size_t cli_nvariables;
extern const struct cli_section cli_sections[];	/* alloctag(1)'s after the commands */
extern const size_t cli_nsections;

extern const char cc_summary[];			/* alloctag-cc(1) */
extern const char cc_description[];
extern const struct cli_option cc_options[];
extern const size_t cc_noptions;
extern const struct cli_variable cc_variables[];
extern const size_t cc_nvariables;

extern const char runtime_summary[];		/* alloctag(7): the runtime */
extern const char runtime_description[];
extern const struct cli_variable runtime_variables[];
extern const size_t runtime_nvariables;
extern const struct cli_section runtime_sections[];
extern const size_t runtime_nsections;

/* -h, --help and --version, which every command takes. */
#define CLI_STANDARD_OPTIONS	2
extern const struct cli_option cli_standard_options[CLI_STANDARD_OPTIONS];

const struct cli_command *cli_command_named(const char *name);

/*
 * The next option of COMMAND's arguments, by its key (the table's), as
 * getopt_long() gives it: optarg its value, optind past it.  -h and --help
 * (the command's help on stdout, exit 0) and --version are answered here; an
 * unknown option or a missing value is one line and exit 2.  Options may
 * follow operands, as in GNU tools, unless the command is in_order.  -1 at
 * the end of the options.
 */
int cli_option(const struct cli_command *command, int argc, char **argv);
/* The option cli_option() gave last, as written, with its value ("-s total",
 * "--sort total", "--sort=total"): for a message of a bad value. */
const char *cli_option_text(void);

/* "alloctag COMMAND: usage: alloctag COMMAND SYNOPSIS", exit 2. */
_Noreturn void cli_usage(const struct cli_command *command);

/* The synopsis of a command: "[-ab] [-d SECONDS] OPERANDS". */
void cli_synopsis(const struct cli_command *command, char *out, size_t size);

/* alloctag --help, alloctag COMMAND --help, --version. */
void cli_print_help(void);
void cli_print_cc_help(void);
void cli_print_command_help(const struct cli_command *command);
void cli_print_version(void);

/* manual.c: alloctag --manual=NAME writes alloctag.1, alloctag-cc.1,
 * alloctag.7 or bash-completion to stdout: 0, or -1 for another NAME. */
int manual_write(const char *name);

#endif
