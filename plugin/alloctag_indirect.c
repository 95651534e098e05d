// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: which indirect calls are tagged.
 *
 * Libraries allocate through function pointers (cJSON's hooks, Lua's
 * lua_Alloc, zlib's zalloc, SQLite's xMalloc).  An indirect call whose
 * function type is one of these gets a tag of its own, as a direct call
 * does; the pointer is called as before.  The types are:
 *   - by default, the types of the tagged functions that allocate: those
 *     returning a pointer or taking a pointer to a pointer (malloc's
 *     void *(size_t), realloc's, posix_memalign's, getline's, ...);
 *   - types opted in: alloc_tagged on a typedef, struct member, variable or
 *     parameter of function (pointer) type, or -fplugin-arg-alloctag-
 *     indirect-type=TYPEDEF[,TYPEDEF...] (units without such a typedef have
 *     nothing to opt in).
 * -fplugin-arg-alloctag-no-indirect tags no indirect call.  Types match as
 * C types do, parameter names and qualifiers aside.  The cost: an indirect
 * call of a matching type that does not allocate pays the save and restore.
 */
#include "alloctag_plugin.h"

static hash_set<tree> *indirect_types;	/* canonical function types */

static tree canonical_function_type(tree type)
{
	if (POINTER_TYPE_P(type))
		type = TREE_TYPE(type);
	if (TREE_CODE(type) != FUNCTION_TYPE)
		return NULL_TREE;
	type = TYPE_MAIN_VARIANT(type);
	return TYPE_CANONICAL(type) ? TYPE_CANONICAL(type) : type;
}

/* Tag indirect calls through TYPE (a function or function pointer type). */
bool alloctag_tag_indirect_type(tree type)
{
	tree fntype = canonical_function_type(type);

	if (!fntype)
		return false;
	if (!indirect_types)
		indirect_types = new hash_set<tree>;
	indirect_types->add(fntype);
	alloctag_root_tree(fntype);
	return true;
}

static bool allocates(tree fndecl)
{
	tree type = TREE_TYPE(fndecl);

	if (POINTER_TYPE_P(TREE_TYPE(type)))
		return true;
	for (tree a = TYPE_ARG_TYPES(type); a; a = TREE_CHAIN(a))
		if (POINTER_TYPE_P(TREE_VALUE(a)) && POINTER_TYPE_P(TREE_TYPE(TREE_VALUE(a))))
			return true;
	return false;
}

static void tag_named_types(const char *list)
{
	char *names = xstrdup(list), *save = NULL;

	for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		tree decl = alloctag_lookup_decl(name);

		/* The option is for a whole project: units without the typedef pass. */
		if (!decl || TREE_CODE(decl) != TYPE_DECL)
			continue;
		if (!alloctag_tag_indirect_type(TREE_TYPE(decl)))
			error("%<-fplugin-arg-*-indirect-type=%s%>: %qs is not a function "
			      "or function pointer type", list, name);
	}
	free(names);
}

/* Once per unit, when all declarations are known. */
void alloctag_collect_indirect_types(void)
{
	unsigned int i;
	tree fndecl;

	if (alloctag_opts.no_indirect)
		return;
	FOR_EACH_VEC_ELT(alloctag_tagged_functions(), i, fndecl)
		if (allocates(fndecl))
			alloctag_tag_indirect_type(TREE_TYPE(fndecl));
	if (alloctag_opts.indirect_types)
		tag_named_types(alloctag_opts.indirect_types);
}

bool alloctag_indirect_tagged(const gcall *call)
{
	tree fntype;

	if (alloctag_opts.no_indirect || !indirect_types || gimple_call_fndecl(call)
	    || gimple_call_internal_p(call))
		return false;
	fntype = canonical_function_type(gimple_call_fntype(call));
	return fntype && indirect_types->contains(fntype);
}

bool alloctag_any_indirect(void)
{
	return !alloctag_opts.no_indirect && (indirect_types || alloctag_opts.indirect_types);
}
