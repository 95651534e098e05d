// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: declarations recorded while the front end parses.
 *
 * By the time the rewrite pass runs, the C front end has popped its scopes:
 * lookup_name() finds nothing.  So every file-scope function, variable and
 * typedef is recorded by name as it is declared or defined, and kept alive for
 * the garbage collector: the hooks, the variants and a shared counters object
 * are then found by name at pass time.
 */
#include "alloctag_plugin.h"

static vec<tree, va_gc> *recorded_decls;	/* GC root: what by_name points to */
static hash_map<tree, tree> *by_name;		/* identifier -> first declaration */
static auto_vec<tree> tagged_functions;	/* in order of declaration */

static const struct ggc_root_tab alloctag_gc_roots[] = {
	{ &recorded_decls, 1, sizeof(recorded_decls),
	  &gt_ggc_mx_vec_tree_va_gc_, &gt_pch_nx_vec_tree_va_gc_ },
	LAST_GGC_ROOT_TAB
};

/* T stays alive for the plugin: rooted once, however often asked. */
void alloctag_root_tree(tree t)
{
	static hash_set<tree> *rooted;

	if (!rooted)
		rooted = new hash_set<tree>;
	if (!rooted->add(t))
		vec_safe_push(recorded_decls, t);
}

static bool worth_recording(tree decl)
{
	if (!DECL_P(decl) || !DECL_NAME(decl))
		return false;
	switch (TREE_CODE(decl)) {
	case FUNCTION_DECL:
		return true;
	case VAR_DECL:
		return is_global_var(decl) && !decl_function_context(decl);
	case TYPE_DECL:
		return DECL_FILE_SCOPE_P(decl);
	default:
		return false;
	}
}

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
	unsigned i;
	tree fndecl;

	FOR_EACH_VEC_ELT(renamed_statics, i, fndecl)
		if (without_body(fndecl) && alloctag_c_decl_used(fndecl))
			kept_uses.add(fndecl);
}

/* The C front end's mark and the warnings: a use that stays, or none. */
static void settle_unused_warnings(void)
{
	unsigned i;
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
	if (!tagged_functions.contains(fndecl))
		tagged_functions.safe_push(fndecl);
	alloctag_root_tree(fndecl);
}

static void record_decl(void *event_data, void *)
{
	tree decl = (tree)event_data;
	bool existed;

	if (decl && worth_recording(decl)) {
		tree &slot = by_name->get_or_insert(DECL_NAME(decl), &existed);
		/* A function wins over a same-named typedef or variable seen first. */
		if (!existed
		    || (TREE_CODE(slot) != FUNCTION_DECL && TREE_CODE(decl) == FUNCTION_DECL)) {
			slot = decl;
			alloctag_root_tree(decl);
		}
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

tree alloctag_lookup_decl(const char *name)
{
	tree *slot = by_name->get(get_identifier(name));

	return slot ? *slot : NULL_TREE;
}

const vec<tree> &alloctag_tagged_functions(void)
{
	return tagged_functions;
}

/*
 * The text a macro expands to (after its name), or NULL when it is not a
 * macro or there is no preprocessor (lto1).
 */
const char *alloctag_macro_value(const char *name, bool *defined)
{
	cpp_hashnode *macro = alloctag_macro_node(name);
	const char *def;

	*defined = macro != NULL;
	def = macro ? alloctag_macro_text(macro) : NULL;
	if (!def)
		return NULL;
	def += strlen(name);
	while (*def == ' ' || *def == '\t')
		def++;
	return def;
}

void alloctag_register_decl_callbacks(const char *plugin_name)
{
	by_name = new hash_map<tree, tree>;
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *)alloctag_gc_roots);
	register_callback(plugin_name, PLUGIN_FINISH_DECL, record_decl, NULL);
	register_callback(plugin_name, PLUGIN_FINISH_PARSE_FUNCTION, record_function, NULL);
}
