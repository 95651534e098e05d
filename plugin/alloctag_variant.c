// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the untagged variant a tagged call is renamed to.
 *
 * For a tagged function foo with variant foo_noprof (or the name the
 * attribute gives):
 *   - declared in the translation unit: used as declared, once its prototype
 *     is checked against foo's;
 *   - foo defined here and foo_noprof not: foo_noprof becomes an alias of that
 *     definition, so that a declaration alone (in a header given with
 *     -include) tags a function without editing it;
 *   - foo a GCC built-in (malloc): foo itself, emitted as a call to
 *     foo_noprof (GCC keeps all it knows of the built-in);
 *   - otherwise: declared with foo's type, flags and attributes, so that
 *     optimizations and warnings see the same function.
 */
#include "alloctag_plugin.h"
#include "builtins.h"

static hash_map<tree, tree> *variants;	/* tagged function -> variant or error_mark_node */

static bool same_type(tree a, tree b)
{
	a = TYPE_MAIN_VARIANT(a);
	b = TYPE_MAIN_VARIANT(b);
	if (a == b)
		return true;
	if (TYPE_CANONICAL(a) && TYPE_CANONICAL(b))
		return TYPE_CANONICAL(a) == TYPE_CANONICAL(b);
	return types_compatible_p(a, b);
}

/* The same return type and parameter types, qualifiers of either aside. */
static bool same_prototype(tree f1, tree f2)
{
	tree t1 = TREE_TYPE(f1), t2 = TREE_TYPE(f2);
	tree a1, a2;

	if (TREE_CODE(t1) != TREE_CODE(t2) || !same_type(TREE_TYPE(t1), TREE_TYPE(t2)))
		return false;
	/* An old-style declaration has no parameter types to compare. */
	if (!prototype_p(t1) || !prototype_p(t2))
		return true;
	for (a1 = TYPE_ARG_TYPES(t1), a2 = TYPE_ARG_TYPES(t2); a1 && a2;
	     a1 = TREE_CHAIN(a1), a2 = TREE_CHAIN(a2))
		if (!same_type(TREE_VALUE(a1), TREE_VALUE(a2)))
			return false;
	return a1 == a2;
}

/* Attributes that describe a body or a symbol, not what a call does. */
static bool body_only_attribute(tree attr)
{
	static const char *const names[] = {
		ALLOCTAG_ATTRIBUTE, "alias", "weakref", "ifunc", "target_clones",
		"section", "used", "unused", "weak", "visibility", "always_inline",
		"gnu_inline", "noinline", "flatten", "artificial", "naked", "symver",
		"externally_visible", "no_reorder", "retain", "noipa", "noclone",
		"optimize", "target", "cold", "hot", "const", "pure",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (is_attribute_p(names[i], get_attribute_name(attr)))
			return true;
	return false;
}

/*
 * The name calls to the allocator NAME (a "*dealloc" attribute's argument)
 * are renamed to: its variant's if it is tagged, else NULL_TREE.
 */
static tree renamed_allocator(tree name)
{
	tree decl = TREE_CODE(name) == IDENTIFIER_NODE
		    ? alloctag_lookup_decl(IDENTIFIER_POINTER(name)) : NULL_TREE;

	if (!decl || TREE_CODE(decl) != FUNCTION_DECL || !alloctag_is_tagged(decl))
		return NULL_TREE;
	tree v = alloctag_variant_name(decl);
	return v != DECL_NAME(decl) ? v : NULL_TREE;
}

/*
 * The twin of attribute A of FNDECL for its variant V, or NULL_TREE.  GCC
 * pairs allocators and deallocators (-Wmismatched-dealloc, -fanalyzer) by
 * the "malloc (DEALLOC, N)" attributes an allocator names its deallocators
 * with, and the "*dealloc (ALLOCATOR, N)" ones these give each deallocator
 * back, by name.  A function that frees what it returns (reallocarray:
 * glibc declares it its own deallocator) must stay so once renamed, and a
 * deallocator must accept what renamed allocators return: without the
 * twins, reallocarray_noprof (malloc (n), ...) is "a mismatched
 * allocation function".
 */
static tree variant_twin(tree a, tree fndecl, tree v)
{
	tree args = TREE_VALUE(a);

	if (!args)
		return NULL_TREE;
	if (is_attribute_p("malloc", get_attribute_name(a)) && TREE_VALUE(args) == fndecl)
		return tree_cons(TREE_PURPOSE(a), tree_cons(NULL_TREE, v, TREE_CHAIN(args)),
				 NULL_TREE);
	if (is_attribute_p("*dealloc", get_attribute_name(a))) {
		tree renamed = renamed_allocator(TREE_VALUE(args));

		if (renamed)
			return tree_cons(TREE_PURPOSE(a),
					 tree_cons(NULL_TREE, renamed, TREE_CHAIN(args)), NULL_TREE);
	}
	return NULL_TREE;
}

/* FNDECL's attributes that say what a call does, for its variant V. */
static tree call_attributes(tree fndecl, tree v)
{
	tree list = NULL_TREE;

	for (tree a = DECL_ATTRIBUTES(fndecl); a; a = TREE_CHAIN(a)) {
		if (body_only_attribute(a))
			continue;
		list = tree_cons(TREE_PURPOSE(a), TREE_VALUE(a), list);
		list = chainon(variant_twin(a, fndecl, v), list);
	}
	return nreverse(list);
}

/*
 * A new FUNCTION_DECL, the symbol NAME, that behaves for its callers as
 * FNDECL.  It keeps FNDECL's name, which is all GCC's messages and
 * -fanalyzer say of it ("'reallocarray' called on a pointer returned from a
 * mismatched allocation function"), as for a declaration with an
 * __asm__("NAME") label: the program's text calls FNDECL.
 */
static tree clone_declaration(tree fndecl, tree name)
{
	tree v = build_decl(DECL_SOURCE_LOCATION(fndecl), FUNCTION_DECL, DECL_NAME(fndecl),
			    TREE_TYPE(fndecl));

	DECL_CONTEXT(v) = DECL_CONTEXT(fndecl);
	DECL_EXTERNAL(v) = 1;
	TREE_PUBLIC(v) = TREE_PUBLIC(fndecl);
	TREE_USED(v) = 1;
	DECL_ARTIFICIAL(v) = 1;
	DECL_VISIBILITY(v) = DECL_VISIBILITY(fndecl);
	DECL_VISIBILITY_SPECIFIED(v) = DECL_VISIBILITY_SPECIFIED(fndecl);
	/*
	 * noreturn, malloc, nothrow, returns_twice.  Not const, pure or novops:
	 * the variant reads the current tag, and a callee said not to read
	 * memory would let dead store elimination drop the save before it.
	 */
	TREE_THIS_VOLATILE(v) = TREE_THIS_VOLATILE(fndecl);
	DECL_IS_MALLOC(v) = DECL_IS_MALLOC(fndecl);
	TREE_NOTHROW(v) = TREE_NOTHROW(fndecl);
	DECL_IS_RETURNS_TWICE(v) = DECL_IS_RETURNS_TWICE(fndecl);
	TREE_SIDE_EFFECTS(v) = TREE_SIDE_EFFECTS(fndecl);
	DECL_ATTRIBUTES(v) = call_attributes(fndecl, v);
	/* C linkage: the symbol is NAME.  Checked by the caller for C++. */
	SET_DECL_ASSEMBLER_NAME(v, name);
	alloctag_root_tree(v);
	return v;
}

static bool defined_here(tree fndecl)
{
	cgraph_node *node = cgraph_node::get(fndecl);

	/*
	 * A body or an alias of one.  C99 inline and gnu_inline bodies are not
	 * an external definition; a weakref or an ifunc is no body to alias.
	 */
	return node && node->definition && !node->weakref && !DECL_EXTERNAL(fndecl)
	       && !lookup_attribute("ifunc", DECL_ATTRIBUTES(fndecl));
}

/* Make VARIANT (declared, not defined) an alias of the definition of FNDECL. */
static void define_as_alias(tree variant, tree fndecl)
{
	DECL_EXTERNAL(variant) = 0;
	TREE_STATIC(variant) = 1;
	cgraph_node::create_alias(variant, fndecl);
}

/* In C++ only functions with C linkage can have a variant derived by name. */
static bool has_c_linkage(tree fndecl)
{
	return !lang_GNU_CXX() || DECL_ASSEMBLER_NAME(fndecl) == DECL_NAME(fndecl);
}

/*
 * A GCC built-in whose variant is not declared: its calls stay the built-in
 * for every later pass (GCC's warnings about it, object sizes, the deletion
 * of an unused malloc/free pair), emitted as calls to the variant, as an
 * __asm__("variant") label on its declaration would make them, GCC's own
 * calls to it included (realloc(NULL, n) folded into malloc(n)).  A
 * library built so calls the runtime's malloc_noprof even where the
 * process's malloc is the C library's.
 */
static tree emit_builtin_as(tree fndecl, tree name)
{
	set_builtin_user_assembler_name(fndecl, IDENTIFIER_POINTER(name));
	set_user_assembler_name(fndecl, IDENTIFIER_POINTER(name));
	return fndecl;
}

static void inform_tagged_here(tree fndecl)
{
	inform(DECL_SOURCE_LOCATION(fndecl), "%qD is declared %qs here", fndecl, ALLOCTAG_ATTRIBUTE);
}

/* V, which the unit declares, as FNDECL's variant. */
static tree use_declared_variant(tree fndecl, tree v)
{
	if (TREE_CODE(v) != FUNCTION_DECL) {
		error_at(DECL_SOURCE_LOCATION(v),
			 "%qD cannot be the untagged variant of %qD: it is not a function",
			 v, fndecl);
		inform_tagged_here(fndecl);
		return NULL_TREE;
	}
	if (!same_prototype(v, fndecl)) {
		error_at(DECL_SOURCE_LOCATION(v),
			 "prototype of %qD does not match %qD, whose untagged variant it is",
			 v, fndecl);
		inform_tagged_here(fndecl);
		return NULL_TREE;
	}
	if (!defined_here(v) && defined_here(fndecl))
		define_as_alias(v, fndecl);
	return v;
}

/* A variant called NAME for FNDECL, which the unit does not declare. */
static tree derive_variant(tree fndecl, tree name)
{
	location_t loc = DECL_SOURCE_LOCATION(fndecl);
	bool is_macro;
	tree v;

	alloctag_macro_value(IDENTIFIER_POINTER(name), &is_macro);
	if (is_macro) {
		error_at(loc, "untagged variant %qE of %qD is a macro; declare a function "
			 "of that name or name one with %<%s(\"...\")%>",
			 name, fndecl, ALLOCTAG_ATTRIBUTE);
		return NULL_TREE;
	}
	if (!has_c_linkage(fndecl)) {
		error_at(loc, "declare the untagged variant %qE of %qD: it cannot be "
			 "derived for a function without C linkage", name, fndecl);
		return NULL_TREE;
	}
	if (defined_here(fndecl)) {
		v = clone_declaration(fndecl, name);
		define_as_alias(v, fndecl);
		return v;
	}
	if (!TREE_PUBLIC(fndecl)) {
		error_at(loc, "%qD is static and not defined here, and its untagged variant %qE "
			 "is not declared", fndecl, name);
		return NULL_TREE;
	}
	if (fndecl_built_in_p(fndecl, BUILT_IN_NORMAL))
		return emit_builtin_as(fndecl, name);
	return clone_declaration(fndecl, name);
}

static tree resolve_variant(tree fndecl)
{
	tree name = alloctag_variant_name(fndecl);
	tree v;

	/* A GCC built-in is checked with the hooks (alloctag_builtin.c). */
	if (name == DECL_NAME(fndecl))
		return fndecl;
	v = alloctag_lookup_decl(IDENTIFIER_POINTER(name));
	return v ? use_declared_variant(fndecl, v) : derive_variant(fndecl, name);
}

/*
 * The variant of FNDECL, or NULL_TREE when there is none to call (the reason
 * has been diagnosed once).
 */
tree alloctag_variant(tree fndecl)
{
	bool existed;

	if (!variants)
		variants = new hash_map<tree, tree>;
	tree &slot = variants->get_or_insert(fndecl, &existed);
	if (!existed) {
		tree v = resolve_variant(fndecl);

		slot = v ? v : error_mark_node;
	}
	return slot == error_mark_node ? NULL_TREE : slot;
}

/*
 * Other translation units call foo_noprof for foo defined here: its alias
 * must exist whether or not this unit calls foo.
 */
void alloctag_define_public_aliases(void)
{
	unsigned int i;
	tree fndecl;

	FOR_EACH_VEC_ELT(alloctag_tagged_functions(), i, fndecl)
		if (TREE_PUBLIC(fndecl) && defined_here(fndecl))
			alloctag_variant(fndecl);
}
