// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: -fplugin-arg-<name>-<key>[=<value>] parsing.
 *
 * The defaults fit this project's runtime (runtime/alloctag.h); alloctag-cc
 * adds runtime=, for which the plugin makes that runtime's declarations
 * (alloctag_runtime.c).  The Linux kernel passes the per-CPU counters
 * section and its module-name macro.  Unknown keys, missing values, values
 * given to flags and values outside an option's choices are errors.
 * tag= and tag-file= may be given more than once: their lists add up
 * (alloctag_byname.c checks and keeps them).
 */
#include "alloctag_plugin.h"

struct alloctag_options alloctag_opts = {
	.tag_type		= "alloc_tag",
	.save_hook		= "alloc_tag_save",
	.claim_hook		= "alloc_tag_claim",
	.enabled		= NULL,
	.restore_hook		= "alloc_tag_restore",
	.section		= "alloc_tags",
	.counters_section	= NULL,
	.counters_object	= NULL,
	.suffix			= "_noprof",
	.modname		= NULL,
	.modname_macro		= NULL,
	.modname_if		= NULL,
	.include_hint		= "alloctag.h",
	.runtime		= NULL,
	.indirect_types		= NULL,
	.no_indirect		= false,
	.auto_tag		= false,
	.disable		= false,
	.verbose		= false,
};

/* One table drives parsing and the --help text. */
struct option_desc {
	const char *key;
	const char **value;	/* string option, or NULL for a flag or a list */
	bool *flag;
	bool identifier;	/* the value must be a C identifier */
	const char *choices;	/* or one of these words, "a|b", or NULL: any */
	const char *help;
	bool (*add)(const char *value, const char *option);	/* a list: each value added */
};

static const struct option_desc option_table[] = {
	{ "disable", NULL, &alloctag_opts.disable, false, NULL,
	  "leave every call alone" },
	{ "verbose", NULL, &alloctag_opts.verbose, false, NULL,
	  "note each tagged call site" },
	{ "tag-type", &alloctag_opts.tag_type, NULL, true, NULL,
	  "struct the tags are made of (alloc_tag)" },
	{ "save", &alloctag_opts.save_hook, NULL, true, NULL,
	  "hook called before a tagged call (alloc_tag_save)" },
	{ "restore", &alloctag_opts.restore_hook, NULL, true, NULL,
	  "hook called after it (alloc_tag_restore)" },
	{ "enabled", &alloctag_opts.enabled, NULL, true, NULL,
	  "tag a call only while this function of the unit returns nonzero (Linux 7: "
	  "mem_alloc_profiling_enabled)" },
	{ "claim", &alloctag_opts.claim_hook, NULL, true, NULL,
	  "save hook of the user's code where auto implies tags (alloc_tag_claim)" },
	{ "section", &alloctag_opts.section, NULL, false, NULL,
	  "section of the tags (alloc_tags)" },
	{ "counters-section", &alloctag_opts.counters_section, NULL, false, NULL,
	  "section of the per-site counters (compiler default)" },
	{ "counters-object", &alloctag_opts.counters_object, NULL, true, NULL,
	  "point every tag at this declared counters object" },
	{ "suffix", &alloctag_opts.suffix, NULL, true, NULL,
	  "default untagged variant: <function><suffix> (_noprof)" },
	{ "modname", &alloctag_opts.modname, NULL, false, NULL,
	  "module name stored in the tags (none)" },
	{ "modname-macro", &alloctag_opts.modname_macro, NULL, true, NULL,
	  "take the module name from this macro's string" },
	{ "modname-if", &alloctag_opts.modname_if, NULL, true, NULL,
	  "... only when this macro is defined" },
	{ "include", &alloctag_opts.include_hint, NULL, false, NULL,
	  "header named when the hooks are missing (alloctag.h)" },
	{ "runtime", &alloctag_opts.runtime, NULL, false, "outermost|innermost",
	  "a unit without hooks gets liballoctag's, charging the outermost or innermost call" },
	{ "indirect-type", &alloctag_opts.indirect_types, NULL, false, NULL,
	  "also tag indirect calls through these typedefs (comma-separated)" },
	{ "no-indirect", NULL, &alloctag_opts.no_indirect, false, NULL,
	  "tag no indirect call" },
	{ "auto", NULL, &alloctag_opts.auto_tag, false, NULL,
	  "charge the user's line that asked: tag C++ new, and calls to allocation wrappers "
	  "and to system-header code that allocates" },
	{ "wrappers-file", NULL, NULL, false, NULL,
	  "with auto: read the wrappers other units found from this file, add this unit's",
	  alloctag_add_wrappers_file },
	{ "tag", NULL, NULL, false, NULL,
	  "tag these functions by name: NAME[:VARIANT],... (NAME may be a pattern: xmlStrdup*)",
	  alloctag_add_tag_list },
	{ "tag-file", NULL, NULL, false, NULL,
	  "tag the functions listed in this file, one NAME[:VARIANT] a line",
	  alloctag_add_tag_file },
};

/* "key\thelp\n" lines for plugin_info.help, or "key, key=, ..." for errors. */
const char *alloctag_options_help(bool one_line)
{
	static char *text[2];
	char *s = xstrdup("");

	if (text[one_line])
		return text[one_line];
	for (size_t i = 0; i < ARRAY_SIZE(option_table); i++) {
		const struct option_desc *opt = &option_table[i];
		char *next;

		if (one_line)
			next = concat(s, i ? ", " : "", opt->key, opt->flag ? "" : "=", NULL);
		else
			next = concat(s, opt->key, opt->flag ? "\t" : "=\t", opt->help, "\n", NULL);
		free(s);
		s = next;
	}
	return text[one_line] = s;
}

bool alloctag_is_identifier(const char *s)
{
	if (!ISIDST(*s) && *s != '$')
		return false;
	for (s++; *s; s++)
		if (!ISIDNUM(*s) && *s != '$')
			return false;
	return true;
}

/* VALUE is one of the words of CHOICES ("a|b"). */
static bool is_choice(const char *value, const char *choices)
{
	size_t n = strlen(value);

	for (const char *c = choices;; c++) {
		if (!strncmp(c, value, n) && (c[n] == '|' || !c[n]))
			return true;
		c = strchr(c, '|');
		if (!c)
			return false;
	}
}

bool alloctag_parse_options(const struct plugin_name_args *info)
{
	bool ok = true;

	for (int i = 0; i < info->argc; i++) {
		const struct plugin_argument *arg = &info->argv[i];
		const struct option_desc *opt = NULL;

		for (size_t j = 0; j < ARRAY_SIZE(option_table); j++)
			if (!strcmp(arg->key, option_table[j].key))
				opt = &option_table[j];

		if (!opt) {
			error("unknown option %<-fplugin-arg-%s-%s%>; %s knows: %s",
			      info->base_name, arg->key, info->base_name,
			      alloctag_options_help(true));
			ok = false;
		} else if (opt->flag) {
			if (arg->value) {
				error("option %<-fplugin-arg-%s-%s%> takes no value",
				      info->base_name, arg->key);
				ok = false;
			}
			*opt->flag = true;
		} else if (!arg->value || !*arg->value) {
			error("option %<-fplugin-arg-%s-%s%> needs a value: "
			      "%<-fplugin-arg-%s-%s=...%>",
			      info->base_name, arg->key, info->base_name, arg->key);
			ok = false;
		} else if (opt->add) {
			char *option = concat("-fplugin-arg-", info->base_name, "-", arg->key, NULL);

			if (!opt->add(arg->value, option))
				ok = false;
			free(option);
		} else if (opt->identifier && !alloctag_is_identifier(arg->value)) {
			error("option %<-fplugin-arg-%s-%s%>: %qs is not an identifier",
			      info->base_name, arg->key, arg->value);
			ok = false;
		} else if (opt->choices && !is_choice(arg->value, opt->choices)) {
			error("option %<-fplugin-arg-%s-%s%>: %qs is not one of %qs",
			      info->base_name, arg->key, arg->value, opt->choices);
			ok = false;
		} else {
			*opt->value = arg->value;
		}
	}
	return ok;
}
