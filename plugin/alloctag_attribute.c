// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: __attribute__((alloc_tagged)) and __attribute__((alloc_tagged("variant"))).
 *
 * On a function declaration, the optional argument names the
 * untagged variant that tagged calls are renamed to (default: the function's
 * name plus the "suffix" option, "_noprof").  Naming the function itself tags
 * the calls without renaming them: for a library function that allocates
 * through an allocator which already charges the current tag.
 * On a typedef, struct member, variable or parameter of function pointer
 * type, it tags indirect calls through that type (alloctag_indirect.c).
 */
#include "alloctag_plugin.h"

static tree variant_argument(tree attr)
{
	tree args = TREE_VALUE(attr);

	return args ? tree_strip_any_location_wrapper(TREE_VALUE(args)) : NULL_TREE;
}

static tree handle_alloc_tagged(tree *node, tree name, tree args, int, bool *no_add_attrs)
{
	tree decl = *node;
	location_t loc = DECL_P(decl) ? DECL_SOURCE_LOCATION(decl) : input_location;

	/* On a typedef, member, variable or parameter of function (pointer) type:
	 * indirect calls through that type are tagged (alloctag_indirect.c). */
	if (TREE_CODE(decl) != FUNCTION_DECL) {
		*no_add_attrs = true;
		if (!DECL_P(decl) || !alloctag_tag_indirect_type(TREE_TYPE(decl)))
			warning_at(loc, OPT_Wattributes, "%qE attribute only applies to functions "
				   "and function pointers; ignored", name);
		else if (args)
			error_at(loc, "%qE on %qD takes no argument: indirect calls are not renamed",
				 name, decl);
		return NULL_TREE;
	}

	/* The variant is found and declared by name: no overloads, no classes. */
	if (DECL_CONTEXT(decl) && TYPE_P(DECL_CONTEXT(decl))) {
		warning_at(loc, OPT_Wattributes,
			   "%qE attribute is not supported on member functions; ignored", name);
		*no_add_attrs = true;
		return NULL_TREE;
	}

	if (!args)
		return NULL_TREE;

	tree arg = tree_strip_any_location_wrapper(TREE_VALUE(args));
	if (TREE_CODE(arg) != STRING_CST
	    || TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(arg))) != char_type_node) {
		error_at(loc, "%qE argument must be a string naming the untagged variant of %qD",
			 name, decl);
		*no_add_attrs = true;
	} else if (TREE_STRING_LENGTH(arg) <= 1) {
		error_at(loc, "%qE argument of %qD is an empty string; name its untagged variant",
			 name, decl);
		*no_add_attrs = true;
	} else if (strlen(TREE_STRING_POINTER(arg)) + 1 != (size_t)TREE_STRING_LENGTH(arg)
		   || !alloctag_is_identifier(TREE_STRING_POINTER(arg))) {
		error_at(loc, "%qE argument %qs of %qD is not a function name",
			 name, TREE_STRING_POINTER(arg), decl);
		*no_add_attrs = true;
	}
	return NULL_TREE;
}

static struct attribute_spec alloc_tagged_attr = {
	.name			= ALLOCTAG_ATTRIBUTE,
	.min_length		= 0,
	.max_length		= 1,
	/* The handler diagnoses types and variables itself. */
	.decl_required		= false,
	.type_required		= false,
	.function_type_required	= false,
	.affects_type_identity	= false,
	.handler		= handle_alloc_tagged,
	.exclude		= NULL,
};

void alloctag_register_attributes(void *, void *)
{
	register_attribute(&alloc_tagged_attr);
}

/* Tagged by the attribute, or by name (alloctag_byname.c). */
bool alloctag_is_tagged(const_tree fndecl)
{
	return lookup_attribute(ALLOCTAG_ATTRIBUTE, DECL_ATTRIBUTES(fndecl)) != NULL_TREE
	       || alloctag_named_variant(fndecl) != NULL_TREE;
}

/*
 * The tagged function a call is to, or NULL_TREE.  GCC's folding makes calls
 * of its own to the built-in declarations (realloc(NULL, n) becomes
 * __builtin_malloc(n) before this pass): they are calls to the C library
 * function the program tagged.
 */
tree alloctag_tagged_callee(tree fndecl)
{
	static const char prefix[] = "__builtin_";
	const size_t prefix_len = sizeof(prefix) - 1;
	const char *name = IDENTIFIER_POINTER(DECL_NAME(fndecl));
	tree declared;

	if (alloctag_is_tagged(fndecl))
		return fndecl;
	if (!fndecl_built_in_p(fndecl, BUILT_IN_NORMAL) || strncmp(name, prefix, prefix_len))
		return NULL_TREE;
	declared = alloctag_lookup_decl(name + prefix_len);
	if (declared && TREE_CODE(declared) == FUNCTION_DECL && alloctag_is_tagged(declared)
	    && fndecl_built_in_p(declared, DECL_FUNCTION_CODE(fndecl)))
		return declared;
	return NULL_TREE;
}

/* The variant an alloc_tagged attribute names, as an identifier. */
static tree attribute_variant(tree fndecl, tree attr)
{
	tree arg = variant_argument(attr);
	char *name;
	tree id;

	if (arg)
		return get_identifier(TREE_STRING_POINTER(arg));
	name = concat(IDENTIFIER_POINTER(DECL_NAME(fndecl)), alloctag_opts.suffix, NULL);
	id = get_identifier(name);
	free(name);
	return id;
}

/* The attribute in the code wins over a name in the list. */
tree alloctag_variant_name(tree fndecl)
{
	tree attr = lookup_attribute(ALLOCTAG_ATTRIBUTE, DECL_ATTRIBUTES(fndecl));

	return attr ? attribute_variant(fndecl, attr) : alloctag_named_variant(fndecl);
}

/*
 * Redeclarations merge their attributes: two that name different variants
 * cannot both hold.  Checked when the merged declaration is recorded.
 */
void alloctag_check_attributes(tree fndecl)
{
	static hash_set<tree> reported;
	tree first = lookup_attribute(ALLOCTAG_ATTRIBUTE, DECL_ATTRIBUTES(fndecl));

	if (!first)	/* tagged by name */
		return;
	tree v1 = attribute_variant(fndecl, first);

	for (tree a = lookup_attribute(ALLOCTAG_ATTRIBUTE, TREE_CHAIN(first)); a;
	     a = lookup_attribute(ALLOCTAG_ATTRIBUTE, TREE_CHAIN(a))) {
		tree v2 = attribute_variant(fndecl, a);

		if (v1 == v2 || reported.add(fndecl))
			continue;
		/* Merged lists have no order to tell which came first. */
		error_at(input_location,
			 "conflicting %qs attributes on %qD: untagged variants %qE and %qE",
			 ALLOCTAG_ATTRIBUTE, fndecl, v1, v2);
	}
}
