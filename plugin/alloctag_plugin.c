// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: a GCC plugin that tags every direct call to an allocator with its
 * own static allocation tag, as the Linux kernel's alloc_hooks() macros do by
 * hand (CONFIG_MEM_ALLOC_PROFILING, /proc/allocinfo).
 *
 *	void *foo(size_t n) __attribute__((alloc_tagged));
 *	p = foo(n);
 *
 * compiles as
 *
 *	static struct alloc_tag _alloc_tag __section("alloc_tags") = { .ct = ... };
 *	old = alloc_tag_save(&_alloc_tag);
 *	p = foo_noprof(n);
 *	alloc_tag_restore(&_alloc_tag, old);
 *
 * Usage:
 *	gcc -fplugin=alloctag.so [-fplugin-arg-alloctag-KEY[=VALUE] ...] file.c
 * (in the kernel, where the plugin is alloctag_plugin.so:
 *  -fplugin-arg-alloctag_plugin-KEY).  Options: see alloctag_options.c.
 */
#include "alloctag_plugin.h"
#include "plugin-version.h"

#ifndef PLUGIN_VERSION
#define PLUGIN_VERSION ALLOCTAG_VERSION
#endif

__visible int plugin_is_GPL_compatible;

static struct plugin_info alloctag_plugin_info = {
	.version	= PLUGIN_VERSION,
	.help		= NULL,
};

/* PASS runs after the first instance of the pass named REFERENCE. */
static void insert_pass_after(const char *name, opt_pass *pass, const char *reference)
{
	struct register_pass_info info = {
		.pass				= pass,
		.reference_pass_name		= reference,
		.ref_pass_instance_number	= 1,
		.pos_op				= PASS_POS_INSERT_AFTER,
	};

	register_callback(name, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}

__visible int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	const char *name = info->base_name;

	if (!plugin_default_version_check(version, &gcc_version)) {
		error("%s was built for GCC %s (%s) and cannot be loaded by GCC %s (%s); "
		      "rebuild it for this compiler: %<make CC=...%>", info->full_name,
		      gcc_version.basever, gcc_version.datestamp,
		      version->basever, version->datestamp);
		return 1;
	}
	if (!alloctag_parse_options(info))
		return 1;

	alloctag_plugin_info.help = alloctag_options_help(false);
	register_callback(name, PLUGIN_INFO, NULL, &alloctag_plugin_info);

	/* Even when disabled, annotated code must compile without warnings. */
	register_callback(name, PLUGIN_ATTRIBUTES, alloctag_register_attributes, NULL);
	if (alloctag_opts.disable)
		return 0;

	alloctag_register_parse_callbacks(name);

	insert_pass_after(name, make_alloctag_rewrite_pass(g), "cfg");
	insert_pass_after(name, make_alloctag_locate_pass(g), "einline");
	register_callback(name, PLUGIN_PRE_GENERICIZE, alloctag_record_generic_calls, NULL);
	return 0;
}
