/* SPDX-License-Identifier: MIT */
/*
 * manual.c: the manual pages alloctag(1), alloctag-cc(1) and alloctag(7),
 * and the bash completion of alloctag, written from the table of
 * cli_table.c, the one that --help prints (cli.h): `make` runs
 * `alloctag --manual=NAME` for each, `make install` installs them.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "util.h"

#ifndef ALLOCTAG_VERSION
#define ALLOCTAG_VERSION "unknown"
#endif

/* ---- roff ---------------------------------------------------------------- */

/* N bytes of S as roff text: backslashes and hyphens escaped, a line that
 * would begin a request made text. */
static void roff_text(const char *s, size_t n)
{
	if (n && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", stdout);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\')
			fputs("\\e", stdout);
		else if (s[i] == '-')
			fputs("\\-", stdout);
		else
			putchar(s[i]);
		if (s[i] == '\n' && i + 1 < n && (s[i + 1] == '.' || s[i + 1] == '\''))
			fputs("\\&", stdout);
	}
}

static void roff_line(const char *s)
{
	roff_text(s, strlen(s));
	putchar('\n');
}

/* Paragraphs of TEXT (cli_table.c's rules): a paragraph of lines beginning
 * with two spaces is shown as it is. */
static void roff_paragraphs(const char *text)
{
	for (int first = 1; text && *text; first = 0) {
		const char *end = strstr(text, "\n\n");

		if (!end)
			end = text + strlen(text);
		if (!first)
			puts(".PP");
		if (text[0] == ' ' && text[1] == ' ') {
			puts(".nf\n.RS 4");
			roff_text(text, end - text);
			puts("\n.RE\n.fi");
		} else {
			roff_text(text, end - text);
			putchar('\n');
		}
		text = *end ? end + 2 : end;
	}
}

/* The page FILE ("alloctag-cc.1"), in section SECTION, of NAME ("alloctag-cc,
 * alloctag-c++"): its title, the file's name in capitals ("ALLOCTAG-CC",
 * quoted: one argument of .TH whatever it holds), and its NAME section. */
static void roff_header(const char *file, const char *name, int section, const char *summary)
{
	char upper[32];
	size_t i;

	for (i = 0; file[i] && file[i] != '.' && i + 1 < sizeof(upper); i++)
		upper[i] = file[i] >= 'a' && file[i] <= 'z' ? file[i] - 'a' + 'A' : file[i];
	upper[i] = '\0';
	printf(".\\\" Made by alloctag --manual from tool/cli_table.c: edit that, not this.\n");
	printf(".TH \"%s\" %d \"\" \"alloctag %s\" \"%s\"\n", upper, section, ALLOCTAG_VERSION,
	       section == 1 ? "User Commands" : "Miscellaneous Information Manual");
	puts(".nh\n.ad l\n.SH NAME");
	roff_text(name, strlen(name));
	fputs(" \\- ", stdout);
	roff_line(summary);
}

/* An option as a tagged paragraph: "-k, --name=VALUE", then its help. */
static void roff_option(const struct cli_option *o)
{
	puts(".TP");
	if (o->key)
		printf("\\fB\\-%c\\fR, ", o->key);
	fputs("\\fB\\-\\-", stdout);
	roff_text(o->name, strlen(o->name));
	fputs("\\fR", stdout);
	if (o->value) {
		fputs("=\\fI", stdout);
		roff_text(o->value, strlen(o->value));
		fputs("\\fR", stdout);
	}
	putchar('\n');
	roff_line(o->help);
}

static void roff_variables(const struct cli_variable *v, size_t n)
{
	puts(".SH ENVIRONMENT");
	for (size_t i = 0; i < n; i++) {
		puts(".TP");
		fputs("\\fB", stdout);
		roff_text(v[i].name, strlen(v[i].name));
		puts("\\fR");
		roff_line(v[i].help);
	}
}

static void roff_sections(const struct cli_section *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		printf(".SH %s\n", s[i].title);
		roff_paragraphs(s[i].text);
	}
}

static void roff_see_also(const char *const *pages, size_t n)
{
	puts(".SH SEE ALSO");
	for (size_t i = 0; i < n; i++)
		printf(".BR %s%s\n", pages[i], i + 1 < n ? "," : "");
}

/* ---- the pages ----------------------------------------------------------- */

static void command_section(const struct cli_command *c)
{
	char synopsis[512];

	cli_synopsis(c, synopsis, sizeof(synopsis));
	printf(".SS \"alloctag %s ", c->name);
	roff_text(synopsis, strlen(synopsis));
	puts("\"");
	if (c->summary[0] >= 'a' && c->summary[0] <= 'z')	/* a sentence here */
		putchar(c->summary[0] - 'a' + 'A');
	roff_text(c->summary + 1, strlen(c->summary + 1));
	puts(".");
	if (c->text) {
		puts(".PP");
		roff_paragraphs(c->text);
	}
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++)
		roff_option(&c->options[i]);
	for (size_t i = 0; i < CLI_STANDARD_OPTIONS; i++)
		roff_option(&cli_standard_options[i]);
	puts(".PP");
	fputs("Exit status: ", stdout);
	roff_line(c->exit_status);
}

/* A manual page: its parts, in this order, those it has. */
struct page {
	const char *file, *name;
	int section;
	const char *summary;
	const char *synopsis;		/* roff */
	const char *description;
	int commands;			/* alloctag(1): a section of each command */
	const struct cli_option *options;
	const size_t *noptions;
	const struct cli_variable *variables;
	const size_t *nvariables;
	const char *variables_after;	/* roff */
	const struct cli_section *sections;
	const size_t *nsections;
	const char *see[5];
};

static const struct page pages[] = {
	{ "alloctag.1", "alloctag", 1, cli_summary,
	  ".B alloctag\n.I COMMAND\n.RI [ OPTION ]...\\&\n.RI [ OPERAND ]...\n.br\n"
	  ".B alloctag\n.BR \\-\\-help \" | \" \\-\\-version\n",
	  cli_description, 1, NULL, NULL, cli_variables, &cli_nvariables, NULL, cli_sections, &cli_nsections,
	  { "alloctag-cc (1)", "alloctag (7)", "top (1)", "pprof (1)" } },
	{ "alloctag-cc.1", "alloctag-cc, alloctag-c++", 1, cc_summary,
	  ".B alloctag-cc\n.RI [ GCC-OPTION ]...\\&\n.IR FILE ...\n.br\n"
	  ".B alloctag-c++\n.RI [ G++-OPTION ]...\\&\n.IR FILE ...\n",
	  cc_description, 0, cc_options, &cc_noptions, cc_variables, &cc_nvariables,
	  ".PP\nAnd the runtime's, alloctag(7).\n", NULL, NULL, { "alloctag (1)", "alloctag (7)", "gcc (1)" } },
	{ "alloctag.7", "alloctag", 7, runtime_summary, NULL, runtime_description, 0, NULL, NULL,
	  runtime_variables, &runtime_nvariables, NULL, runtime_sections, &runtime_nsections,
	  { "alloctag (1)", "alloctag-cc (1)" } },
};

static void write_page(const struct page *p)
{
	size_t nsee = 0;

	roff_header(p->file, p->name, p->section, p->summary);
	if (p->synopsis)
		printf(".SH SYNOPSIS\n%s", p->synopsis);
	puts(".SH DESCRIPTION");
	roff_paragraphs(p->description);
	if (p->commands)
		puts(".SH COMMANDS");
	for (size_t i = 0; p->commands && i < cli_ncommands; i++)
		command_section(&cli_commands[i]);
	if (p->options)
		puts(".SH OPTIONS");
	for (size_t i = 0; p->options && i < *p->noptions; i++)
		roff_option(&p->options[i]);
	if (p->variables)
		roff_variables(p->variables, *p->nvariables);
	if (p->variables_after)
		fputs(p->variables_after, stdout);
	if (p->sections)
		roff_sections(p->sections, *p->nsections);
	while (nsee < ARRAY_SIZE(p->see) && p->see[nsee])
		nsee++;
	roff_see_also(p->see, nsee);
}

/* ---- bash completion ----------------------------------------------------- */

static void completion_option(const struct cli_option *o)
{
	if (o->key)
		printf(" -%c", o->key);
	printf(" --%s", o->name);
}

/* The words of C's options: "-b --batch -d --delay ..."; with VALUED, those that take a value. */
static void completion_words(const struct cli_command *c, int valued)
{
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++)
		if (!!c->options[i].value == valued)
			completion_option(&c->options[i]);
	for (size_t i = 0; !valued && i < CLI_STANDARD_OPTIONS; i++)
		completion_option(&cli_standard_options[i]);
}

/* The case arm that completes the value of each of C's options with choices. */
static void completion_choices(const struct cli_command *c)
{
	for (size_t i = 0; i < CLI_MAX_OPTIONS && c->options[i].name; i++)
		if (c->options[i].choices)
			printf("\t%s:-%c|%s:--%s) words=\"%s\" ;;\n", c->name, c->options[i].key, c->name,
			       c->options[i].name, c->options[i].choices);
}

static void bash_completion(void)
{
	puts("# bash completion for alloctag, made by alloctag --manual=alloctag.bash from\n"
	     "# tool/cli_table.c: the commands, their options and the values they take.");
	puts("_alloctag() {\n"
	     "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}\n"
	     "\tlocal flags= valued= words= i\n"
	     "\tif [ \"$COMP_CWORD\" = 1 ]; then");
	fputs("\t\tCOMPREPLY=($(compgen -W \"", stdout);
	for (size_t i = 0; i < cli_ncommands; i++)
		printf("%s ", cli_commands[i].name);
	puts("--help --version\" -- \"$cur\"))\n\t\treturn\n\tfi");
	puts("\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
	     "\t\tif [ \"$cmd\" = record ] && [ \"${COMP_WORDS[i]}\" = -- ]; then\n"
	     "\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n\t\t\treturn\n\t\tfi\n\tdone");
	puts("\tcase $cmd in");
	for (size_t i = 0; i < cli_ncommands; i++) {
		printf("\t%s) flags=\"", cli_commands[i].name);
		completion_words(&cli_commands[i], 0);
		fputs("\" valued=\"", stdout);
		completion_words(&cli_commands[i], 1);
		puts("\" ;;");
	}
	puts("\t*) return ;;\n\tesac");
	puts("\tcase \" $valued \" in\n\t*\" $prev \"*)\n\t\tcase $cmd:$prev in");
	for (size_t i = 0; i < cli_ncommands; i++)
		completion_choices(&cli_commands[i]);
	puts("\t\t*) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n\t\tesac\n"
	     "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n\t\treturn ;;\n\tesac");
	puts("\tif [[ $cur == -* ]]; then\n"
	     "\t\tCOMPREPLY=($(compgen -W \"$flags $valued\" -- \"$cur\"))\n"
	     "\telse\n"
	     "\t\tCOMPREPLY=($(compgen -W \"$(alloctag ps -a 2>/dev/null | awk 'NR > 1 { print $1 }')\" -- \"$cur\")\n"
	     "\t\t\t$(compgen -f -- \"$cur\"))\n"
	     "\tfi\n}");
	puts("complete -F _alloctag alloctag");
}

int manual_write(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(pages); i++)
		if (!strcmp(name, pages[i].file)) {
			write_page(&pages[i]);
			return fflush(stdout) ? -1 : 0;
		}
	if (!strcmp(name, "alloctag-cc.help"))
		cli_print_cc_help();
	else if (!strcmp(name, "alloctag.bash"))
		bash_completion();
	else
		return -1;
	return fflush(stdout) ? -1 : 0;
}
