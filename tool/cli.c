/* SPDX-License-Identifier: MIT */
/* cli.c: options, usage and help, from the table of cli_table.c (cli.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "util.h"

#ifndef ALLOCTAG_VERSION
#define ALLOCTAG_VERSION "unknown"
#endif

#define HELP_WIDTH	79	/* --help's lines are at most this long */
#define HELP_COLUMN	26	/* where an option's help begins */
#define SHORTOPTS_MAX	(3 * CLI_MAX_OPTIONS + 4)

/* What cli_option() adds to each command's own options. */
enum { OPTION_HELP = 'h', OPTION_VERSION = 0x100 };

const struct cli_option cli_standard_options[CLI_STANDARD_OPTIONS] = {
	{ OPTION_HELP, "help", NULL, "This help, then exit." },
	{ 0, "version", NULL, "The version, then exit." },
};

const struct cli_command *cli_command_named(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (!strcmp(cli_commands[i].name, name))
			return &cli_commands[i];
	return NULL;
}

/* ---- text ---------------------------------------------------------------- */

/* A paragraph of TEXT (up to END), words wrapped at HELP_WIDTH, each line
 * indented by INDENT; the first begins at column AT (already written). */
static void put_paragraph(const char *text, const char *end, int indent, int at)
{
	int column = at;

	while (text < end) {
		const char *word = text;
		int n;

		while (word < end && *word == ' ')
			word++;
		for (text = word; text < end && *text != ' ' && *text != '\n'; text++)
			;
		n = (int)(text - word);
		if (!n) {
			text++;
			continue;
		}
		if (column > indent && column + 1 + n > HELP_WIDTH) {
			printf("\n%*s", indent, "");
			column = indent;
		} else if (column > indent) {
			putchar(' ');
			column++;
		} else if (column < indent) {
			printf("%*s", indent - column, "");
			column = indent;
		}
		printf("%.*s", n, word);
		column += n;
		if (text < end && *text == '\n')
			text++;
	}
	putchar('\n');
}

/* Paragraphs of TEXT (blank-line separated); a paragraph whose lines begin
 * with two spaces is printed as it is (a table, an example). */
static void put_text(const char *text, int indent)
{
	while (text && *text) {
		const char *end = strstr(text, "\n\n");

		if (!end)
			end = text + strlen(text);
		if (text[0] == ' ' && text[1] == ' ')
			printf("%*s%.*s\n", indent, "", (int)(end - text), text);
		else
			put_paragraph(text, end, indent, 0);
		text = *end ? end + 2 : end;
		if (*text)
			putchar('\n');
	}
}

void cli_synopsis(const struct cli_command *c, char *out, size_t size)
{
	size_t n = 0;
	char flags[CLI_MAX_OPTIONS + 1];
	size_t nflags = 0;

	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++)
		if (!c->options[i].value && c->options[i].key)
			flags[nflags++] = c->options[i].key;
	flags[nflags] = '\0';
	out[0] = '\0';
	if (nflags)
		n += snprintf(out + n, size - n, "[-%s] ", flags);
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name && n < size; i++) {
		const struct cli_option *o = &c->options[i];

		if (o->value)
			n += snprintf(out + n, size - n, "[-%c %s] ", o->key, o->value);
	}
	if (n && n < size && !c->operands[0])
		out[n - 1] = '\0';	/* no operands: no blank after the options */
	else if (n < size)
		snprintf(out + n, size - n, "%s", c->operands);
}

static void put_option(const struct cli_option *o)
{
	char names[128];
	int at;

	if (o->key)
		snprintf(names, sizeof(names), "-%c, --%s%s%s", o->key, o->name, o->value ? "=" : "",
			 o->value ? o->value : "");
	else
		snprintf(names, sizeof(names), "    --%s%s%s", o->name, o->value ? "=" : "",
			 o->value ? o->value : "");
	at = printf("  %s", names);

	if (at >= HELP_COLUMN - 1) {
		putchar('\n');
		at = 0;
	}
	put_paragraph(o->help, o->help + strlen(o->help), HELP_COLUMN, at);
}

void cli_print_command_help(const struct cli_command *c)
{
	char synopsis[512];

	cli_synopsis(c, synopsis, sizeof(synopsis));
	printf("usage: alloctag %s %s\n", c->name, synopsis);
	put_paragraph(c->summary, c->summary + strlen(c->summary), 2, 0);
	if (c->text) {
		putchar('\n');
		put_text(c->text, 0);
	}
	printf("\noptions:\n");
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++)
		put_option(&c->options[i]);
	for (size_t i = 0; i < CLI_STANDARD_OPTIONS; i++)
		put_option(&cli_standard_options[i]);
	printf("\nexit status: %s\n", c->exit_status);
}

void cli_print_help(void)
{
	char synopsis[512];

	printf("usage: alloctag COMMAND [OPTION]... [OPERAND]...\n");
	put_paragraph(cli_summary, cli_summary + strlen(cli_summary), 2, 0);
	printf("\ncommands:\n");
	for (size_t i = 0; i < cli_ncommands; i++) {
		cli_synopsis(&cli_commands[i], synopsis, sizeof(synopsis));
		printf("  alloctag %s %s\n", cli_commands[i].name, synopsis);
		put_paragraph(cli_commands[i].summary, cli_commands[i].summary + strlen(cli_commands[i].summary),
			      6, 0);
	}
	putchar('\n');
	put_text(cli_description, 0);
	printf("\nalloctag COMMAND --help says more of each; man alloctag, alloctag-cc and 7 alloctag.\n");
}

static void put_variables(const struct cli_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int at = printf("  %s", v[i].name);

		if (at >= HELP_COLUMN - 1) {
			putchar('\n');
			at = 0;
		}
		put_paragraph(v[i].help, v[i].help + strlen(v[i].help), HELP_COLUMN, at);
	}
}

/* alloctag-cc --alloctag-help (its --help is gcc's): spliced into the driver by make. */
void cli_print_cc_help(void)
{
	printf("usage: alloctag-cc [GCC-OPTION]... FILE...\n"
	       "       alloctag-c++ [G++-OPTION]... FILE...\n");
	put_paragraph(cc_summary, cc_summary + strlen(cc_summary), 2, 0);
	putchar('\n');
	put_text(cc_description, 0);
	printf("\nalloctag options (anywhere on the command line, or in CFLAGS):\n");
	for (size_t i = 0; i < cc_noptions; i++)
		put_option(&cc_options[i]);
	printf("\nenvironment:\n");
	put_variables(cc_variables, cc_nvariables);
	printf("\nman alloctag-cc says more; the runtime's variables: man 7 alloctag.\n");
}

void cli_print_version(void)
{
	printf("alloctag %s\n", ALLOCTAG_VERSION);
}

/* ---- options ------------------------------------------------------------- */

_Noreturn void cli_usage(const struct cli_command *c)
{
	char synopsis[512];

	cli_synopsis(c, synopsis, sizeof(synopsis));
	fail("usage: alloctag %s %s (alloctag %s --help)", c->name, synopsis, c->name);
}

/* The option cli_option() gave last, as written: "-s total", "--sort total", "--sort=total". */
static char option_text[256];

const char *cli_option_text(void)
{
	return option_text;
}

/* OPTION_TEXT for the option getopt_long() gave as KEY (ALL[LONG_INDEX], if
 * it was written long), its value OPTARG, ending at ARGV[OPTIND - 1]. */
static void keep_option_text(const struct option *all, int long_index, int key, char **argv)
{
	const char *name = long_index >= 0 ? all[long_index].name : NULL;
	int one_word = optarg && optarg != argv[optind - 1];	/* "-stotal", "--sort=total" */
	const char *joined = !one_word ? " " : name ? "=" : "";

	if (name)
		snprintf(option_text, sizeof(option_text), "--%s%s%s", name, optarg ? joined : "",
			 optarg ? optarg : "");
	else
		snprintf(option_text, sizeof(option_text), "-%c%s%s", key, optarg ? joined : "",
			 optarg ? optarg : "");
}

int cli_option(const struct cli_command *c, int argc, char **argv)
{
	struct option all[CLI_MAX_OPTIONS + 3] = {
		{ "help", no_argument, NULL, OPTION_HELP },
		{ "version", no_argument, NULL, OPTION_VERSION },
	};
	char shorts[SHORTOPTS_MAX];
	size_t n = 0, k = 2;
	int key, long_index = -1;

	/* '+': the operands end the options; ':' first: a missing value is told from an unknown option */
	if (c->in_order)
		shorts[n++] = '+';
	shorts[n++] = ':';
	shorts[n++] = 'h';
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++) {
		const struct cli_option *o = &c->options[i];

		all[k++] = (struct option){ o->name, o->value ? required_argument : no_argument, NULL, o->key };
		shorts[n++] = o->key;
		if (o->value)
			shorts[n++] = ':';
	}
	shorts[n] = '\0';
	opterr = 0;
	optarg = NULL;
	key = getopt_long(argc, argv, shorts, all, &long_index);
	if (key == OPTION_HELP) {
		cli_print_command_help(c);
		exit(0);
	}
	if (key == OPTION_VERSION) {
		cli_print_version();
		exit(0);
	}
	if (key == ':' && optopt)
		fail("-%c needs a value (alloctag %s --help)", optopt, c->name);
	if (key == ':')
		fail("%s needs a value (alloctag %s --help)", argv[optind - 1], c->name);
	if (key == '?' && optopt)
		fail("no option -%c (alloctag %s --help)", optopt, c->name);
	if (key == '?')
		fail("no option %.*s (alloctag %s --help)", (int)strcspn(argv[optind - 1], "="),
		     argv[optind - 1], c->name);
	if (key != -1)
		keep_option_text(all, long_index, key, argv);
	return key;
}
