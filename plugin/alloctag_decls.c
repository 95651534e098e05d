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

/*
 * The preprocessor exists in cc1 and cc1plus but not in lto1, which also loads
 * the plugin when -fplugin is on a -flto link line: weak references keep the
 * plugin loadable there.
 */
extern cpp_reader *parse_in __attribute__((weak));
extern cpp_hashnode *cpp_lookup(cpp_reader *, const unsigned char *, unsigned int)
	__attribute__((weak));
extern const unsigned char *cpp_macro_definition(cpp_reader *, cpp_hashnode *)
	__attribute__((weak));

static vec<tree, va_gc> *recorded_decls;	/* GC root: what by_name points to */
static hash_map<tree, tree> *by_name;		/* identifier -> first declaration */
static auto_vec<tree> tagged_functions;	/* in order of declaration */

static const struct ggc_root_tab alloctag_gc_roots[] = {
	{ &recorded_decls, 1, sizeof(recorded_decls),
	  &gt_ggc_mx_vec_tree_va_gc_, &gt_pch_nx_vec_tree_va_gc_ },
	LAST_GGC_ROOT_TAB
};

void alloctag_root_tree(tree t)
{
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

static void record_decl(void *event_data, void *)
{
	tree decl = (tree)event_data;
	bool existed;

	if (!decl || !worth_recording(decl))
		return;

	tree &slot = by_name->get_or_insert(DECL_NAME(decl), &existed);
	/* A function wins over a same-named typedef or variable seen first. */
	if (!existed || (TREE_CODE(slot) != FUNCTION_DECL && TREE_CODE(decl) == FUNCTION_DECL)) {
		slot = decl;
		alloctag_root_tree(decl);
	}

	if (TREE_CODE(decl) != FUNCTION_DECL) {
		alloctag_check_named_decl(decl);
	} else if (alloctag_is_tagged(decl)) {
		alloctag_check_attributes(decl);
		/*
		 * A static function tagged in a header forced into every unit is
		 * defined in one, or only its static variant is: elsewhere GCC
		 * would say "declared static but never defined".  Calls to one
		 * tagged under its own name still call it: the warning stays.
		 */
		if (!TREE_PUBLIC(decl) && renamed(decl))
			alloctag_suppress_unused_warning(decl);
		if (!tagged_functions.contains(decl))
			tagged_functions.safe_push(decl);
		alloctag_root_tree(decl);
	}
}

/*
 * The C front end says "used but never defined" of a static function that
 * was called (C_DECL_USED) and has no body, without asking whether the
 * warning is suppressed.  Calls to a tagged one go to its variant: the
 * flag is cleared after each function body, where the calls were.  A use
 * that stays (its address taken at file scope) still gets the warning.
 */
#define C_DECL_USED(decl) DECL_LANG_FLAG_5(decl)	/* c-tree.h */

static void record_function(void *event_data, void *data)
{
	unsigned i;
	tree fndecl;

	record_decl(event_data, data);
	if (!lang_GNU_C())
		return;
	FOR_EACH_VEC_ELT(tagged_functions, i, fndecl)
		if (!TREE_PUBLIC(fndecl) && !DECL_INITIAL(fndecl) && renamed(fndecl))
			C_DECL_USED(fndecl) = 0;
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
	cpp_hashnode *node;
	const char *def;

	*defined = false;
	/* parse_in exists where the preprocessor does. */
	if (!&parse_in || !parse_in)
		return NULL;
	node = cpp_lookup(parse_in, (const unsigned char *)name, strlen(name));
	if (!node || !cpp_macro_p(node))
		return NULL;
	*defined = true;
	def = (const char *)cpp_macro_definition(parse_in, node);
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
