// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: what the plugin does while the front end parses.
 *
 * Each file-scope declaration is recorded under its name (alloctag_decls.c);
 * a function tagged by attribute (alloctag_attribute.c) is checked and
 * listed, a declaration named by the tag list (alloctag_byname.c) checked;
 * and GCC's warnings of the static tagged functions whose calls are renamed
 * are settled after each declaration and function body (below).
 */
#include "alloctag_plugin.h"

/* Calls to FNDECL go to another function, its untagged variant. */
static bool renamed(tree fndecl)
{
	return alloctag_variant_name(fndecl) != DECL_NAME(fndecl);
}

/*
 * Static tagged functions without a body whose calls are renamed: a header
 * forced into every unit declares them, and their static variant is defined
 * where they are used.  Their calls go to the variant, so GCC must say
 * neither "used but never defined" of those calls nor "declared static but
 * never defined" of one that nothing else uses; but a use that stays (its
 * address taken) must still get GCC's warning.  (Calls to a function tagged
 * under its own name still call it: GCC's warnings are left alone.)  GCC
 * decides from the C front end's mark of use, which calls set too, and from
 * the declaration's warning suppression, which GCC 16 asks before either
 * warning.  So the uses that stay are noted as they are parsed: at file
 * scope any use (there are no calls there), in a function body any
 * reference but a call's callee (alloctag_note_use(), from the GENERIC walk
 * of alloctag_rewrite.c); and after each file-scope declaration and each
 * function body, the mark and the suppression of each such function say
 * whether it has one.
 */
static auto_vec<tree> renamed_statics;	/* tagged, static, calls renamed */
static hash_set<tree> kept_uses;

static bool without_body(tree fndecl)
{
	return !DECL_INITIAL(fndecl);
}

void alloctag_note_use(tree fndecl)
{
	if (!TREE_PUBLIC(fndecl) && without_body(fndecl) && renamed_statics.contains(fndecl))
		kept_uses.add(fndecl);
}

/* The uses marked since the last settle_unused_warnings() were at file scope. */
static void note_file_scope_uses(void)
{
	unsigned int i;
	tree fndecl;

	FOR_EACH_VEC_ELT(renamed_statics, i, fndecl)
		if (without_body(fndecl) && alloctag_c_decl_used(fndecl))
			kept_uses.add(fndecl);
}

/* The C front end's mark and the warnings: a use that stays, or none. */
static void settle_unused_warnings(void)
{
	unsigned int i;
	tree fndecl;

	FOR_EACH_VEC_ELT(renamed_statics, i, fndecl) {
		if (!without_body(fndecl))
			continue;
		bool kept = kept_uses.contains(fndecl);
		alloctag_set_c_decl_used(fndecl, kept);
		if (kept)
			alloctag_allow_unused_warning(fndecl);
	}
}

static void record_tagged_function(tree fndecl)
{
	alloctag_check_attributes(fndecl);
	if (!TREE_PUBLIC(fndecl) && renamed(fndecl)) {
		/* Until a use that stays is seen (above). */
		if (!kept_uses.contains(fndecl))
			alloctag_suppress_unused_warning(fndecl);
		if (!renamed_statics.contains(fndecl))
			renamed_statics.safe_push(fndecl);
	}
	alloctag_add_tagged_function(fndecl);
}

static void record_decl(void *event_data, void *)
{
	tree decl = (tree)event_data;

	if (alloctag_record_decl(decl)) {
		if (TREE_CODE(decl) != FUNCTION_DECL)
			alloctag_check_named_decl(decl);
		else if (alloctag_is_tagged(decl))
			record_tagged_function(decl);
	}
	if (lang_GNU_C() && !current_function_decl) {
		note_file_scope_uses();
		settle_unused_warnings();
	}
}

static void record_function(void *event_data, void *data)
{
	record_decl(event_data, data);
	if (lang_GNU_C())
		settle_unused_warnings();
}

void alloctag_register_parse_callbacks(const char *plugin_name)
{
	alloctag_decls_init(plugin_name);
	register_callback(plugin_name, PLUGIN_FINISH_DECL, record_decl, NULL);
	register_callback(plugin_name, PLUGIN_FINISH_PARSE_FUNCTION, record_function, NULL);
}
