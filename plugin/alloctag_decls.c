// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the declarations of the unit, by name, and the trees the plugin
 * keeps alive.
 *
 * By the time the rewrite pass runs, the C front end has popped its scopes:
 * lookup_name() finds nothing.  So every file-scope function, variable and
 * typedef is recorded by name as it is declared or defined
 * (alloctag_parse.c), and kept alive for the garbage collector: the hooks,
 * the variants and a shared counters object are then found by name at pass
 * time.  The bottom of the plugin: it calls no other part of it.
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

/*
 * DECL, just declared or defined, under its name: a function wins over a
 * same-named typedef or variable seen first.  False if it is not worth
 * recording (not at file scope, no name).
 */
bool alloctag_record_decl(tree decl)
{
	bool existed;

	if (!decl || !worth_recording(decl))
		return false;
	tree &slot = by_name->get_or_insert(DECL_NAME(decl), &existed);
	if (!existed || (TREE_CODE(slot) != FUNCTION_DECL && TREE_CODE(decl) == FUNCTION_DECL)) {
		slot = decl;
		alloctag_root_tree(decl);
	}
	return true;
}

/* FNDECL is tagged: listed once, in order of declaration. */
void alloctag_add_tagged_function(tree fndecl)
{
	if (!tagged_functions.contains(fndecl))
		tagged_functions.safe_push(fndecl);
	alloctag_root_tree(fndecl);
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

	*defined = macro;
	def = macro ? alloctag_macro_text(macro) : NULL;
	if (!def)
		return NULL;
	def += strlen(name);
	while (*def == ' ' || *def == '\t')
		def++;
	return def;
}

void alloctag_decls_init(const char *plugin_name)
{
	by_name = new hash_map<tree, tree>;
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *)alloctag_gc_roots);
}
