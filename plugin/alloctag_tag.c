// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the runtime's tag type and hooks, and one static tag per call site.
 *
 * The runtime is whatever the translation unit declares: the hooks by name
 * (alloc_tag_save, alloc_tag_restore), the tag type from the save hook's
 * parameter (struct alloc_tag), its fields by name; or, for a unit that
 * declares no save hook, with runtime= (alloctag-cc), liballoctag's, made
 * by alloctag_runtime.c and checked here as the unit's would be.  Where it
 * is liballoctag's, its current tag, a variable, is known too: the calls
 * that return twice read it (alloctag_find_user_runtime(), which finds the
 * runtime without a word, or not at all).  For each site this builds
 * what the kernel's DEFINE_ALLOC_TAG() writes by hand:
 *
 *	static struct alloc_tag_counters _alloc_tag_cntr;	(counters-section)
 *	static struct alloc_tag _alloc_tag __used __aligned(TYPE_ALIGN)
 *	__section("alloc_tags") = {
 *		.ct = { .modname = ..., .function = __func__,
 *			.filename = __FILE__, .lineno = __LINE__ },
 *		.counters = &_alloc_tag_cntr,
 *		.callee = "xmalloc", .column = 17,	(where the type has them)
 *	};
 *
 * callee and column tell apart sites on one line (two calls in one macro):
 * callee is the name of the function called (for an indirect call, of the
 * variable, parameter or member called through), column the column of the
 * place __LINE__ names, as GCC's diagnostics print it (by default from 1,
 * tabs expanded to -ftabstop: -fdiagnostics-column-unit and -origin apply):
 * in a macro, that of the macro's name where it is used, or of the call
 * written in a macro argument.  A site in a system header has column 0:
 * libstdc++ calls operator new in macros, which the output of -E has
 * expanded, so that a unit compiled from it would get other columns.
 */
#include "alloctag_plugin.h"

/*
 * ct.flags of an implied tag (alloctag_callers.c): alloc_tag_claim takes
 * over from it (alloctag.h's ALLOC_TAG_IMPLIED).
 */
#define IMPLIED_FLAG 0x100

static struct alloctag_runtime runtime;
static enum { RUNTIME_UNKNOWN, RUNTIME_FOUND, RUNTIME_MISSING } runtime_state;
static tree lineno_field, function_field, filename_field, modname_field, flags_field;

static tree find_field(tree record, const char *name)
{
	for (tree f = TYPE_FIELDS(record); f; f = DECL_CHAIN(f))
		if (TREE_CODE(f) == FIELD_DECL && DECL_NAME(f) && id_equal(DECL_NAME(f), name))
			return f;
	return NULL_TREE;
}

static bool is_pointer_field(tree field)
{
	return field && POINTER_TYPE_P(TREE_TYPE(field));
}

/* The first parameter type of a function declaration, or NULL_TREE. */
static tree first_param_type(tree fndecl)
{
	tree args = TYPE_ARG_TYPES(TREE_TYPE(fndecl));

	return args && TREE_VALUE(args) != void_type_node ? TREE_VALUE(args) : NULL_TREE;
}

static unsigned int param_count(tree fndecl)
{
	unsigned int n = 0;

	for (tree a = TYPE_ARG_TYPES(TREE_TYPE(fndecl)); a && TREE_VALUE(a) != void_type_node;
	     a = TREE_CHAIN(a))
		n++;
	return n;
}

/* What a translation unit lacks to tag calls: it says which at the first one. */
enum missing_runtime { HOOK_UNDECLARED, TAG_TYPE_INCOMPLETE };

/* A call at LOC to CALLEE (NULL_TREE: an indirect call) cannot be tagged: NAME is WHAT. */
static void cannot_tag(location_t loc, tree callee, enum missing_runtime what, const char *name)
{
	const char *hint = alloctag_opts.include_hint;

	switch (what) {
	case HOOK_UNDECLARED:
		if (callee)
			error_at(loc, "call to %qD cannot be tagged: %qs is not declared; "
				 "include %<%s%>", callee, name, hint);
		else
			error_at(loc, "indirect call cannot be tagged: %qs is not declared; "
				 "include %<%s%>", name, hint);
		break;
	case TAG_TYPE_INCOMPLETE:
		if (callee)
			error_at(loc, "call to %qD cannot be tagged: %<struct %s%> is "
				 "incomplete; include %<%s%>", callee, name, hint);
		else
			error_at(loc, "indirect call cannot be tagged: %<struct %s%> is "
				 "incomplete; include %<%s%>", name, hint);
		break;
	}
}

/* A hook by name: a function, or diagnosed at the first tagged call. */
static tree find_hook(const char *name, location_t call_loc, tree callee)
{
	tree hook = alloctag_lookup_decl(name);

	if (hook && TREE_CODE(hook) == FUNCTION_DECL)
		return hook;
	cannot_tag(call_loc, callee, HOOK_UNDECLARED, name);
	return NULL_TREE;
}

/*
 * The save hook takes a pointer to the tag type and returns the previous tag;
 * restore takes (tag, previous) or just (previous).
 */
static bool check_hooks(location_t call_loc, tree callee)
{
	tree save = runtime.save, restore = runtime.restore;
	tree tag_ptr = first_param_type(save);
	tree saved = TREE_TYPE(TREE_TYPE(save));
	unsigned int n = param_count(restore);

	if (param_count(save) != 1 || !POINTER_TYPE_P(tag_ptr) || VOID_TYPE_P(saved)
	    || TREE_CODE(TREE_TYPE(tag_ptr)) != RECORD_TYPE
	    || !TYPE_IDENTIFIER(TREE_TYPE(tag_ptr))
	    || !id_equal(TYPE_IDENTIFIER(TREE_TYPE(tag_ptr)), alloctag_opts.tag_type)) {
		error_at(DECL_SOURCE_LOCATION(save),
			 "%qD must take a %<struct %s *%> and return the tag it replaces",
			 save, alloctag_opts.tag_type);
		return false;
	}
	if (!prototype_p(TREE_TYPE(restore)) || n < 1 || n > 2) {
		error_at(DECL_SOURCE_LOCATION(restore),
			 "%qD must take the tag and what %qD returned, or only the latter",
			 restore, save);
		return false;
	}
	runtime.restore_takes_tag = n == 2;
	runtime.tag_type = TYPE_MAIN_VARIANT(TREE_TYPE(tag_ptr));
	if (!COMPLETE_TYPE_P(runtime.tag_type)) {
		cannot_tag(call_loc, callee, TAG_TYPE_INCOMPLETE, alloctag_opts.tag_type);
		return false;
	}
	return true;
}

static bool check_tag_type(void)
{
	tree tag = runtime.tag_type;
	location_t loc = DECL_SOURCE_LOCATION(TYPE_NAME(tag) && DECL_P(TYPE_NAME(tag))
					      ? TYPE_NAME(tag) : TYPE_FIELDS(tag));
	tree ct = find_field(tag, "ct");

	if (!ct || TREE_CODE(TREE_TYPE(ct)) != RECORD_TYPE || !COMPLETE_TYPE_P(TREE_TYPE(ct))) {
		error_at(loc, "%<struct %s%> needs a %<struct codetag ct%> field",
			 alloctag_opts.tag_type);
		return false;
	}
	runtime.ct_field = ct;
	lineno_field = find_field(TREE_TYPE(ct), "lineno");
	function_field = find_field(TREE_TYPE(ct), "function");
	filename_field = find_field(TREE_TYPE(ct), "filename");
	modname_field = find_field(TREE_TYPE(ct), "modname");
	flags_field = find_field(TREE_TYPE(ct), "flags");
	if (flags_field && !INTEGRAL_TYPE_P(TREE_TYPE(flags_field)))
		flags_field = NULL_TREE;
	if (!lineno_field || !INTEGRAL_TYPE_P(TREE_TYPE(lineno_field))
	    || !is_pointer_field(function_field) || !is_pointer_field(filename_field)
	    || (modname_field && !is_pointer_field(modname_field))) {
		error_at(DECL_SOURCE_LOCATION(ct), "the codetag of %<struct %s%> needs an integer "
			 "%<lineno%> and %<const char *%> %<function%> and %<filename%>",
			 alloctag_opts.tag_type);
		return false;
	}

	tree counters = find_field(tag, "counters");
	if (counters && (!is_pointer_field(counters)
			 || !COMPLETE_TYPE_P(TREE_TYPE(TREE_TYPE(counters))))) {
		error_at(DECL_SOURCE_LOCATION(counters),
			 "%<counters%> of %<struct %s%> must point to a complete type",
			 alloctag_opts.tag_type);
		return false;
	}
	runtime.counters_field = counters;

	tree callee = find_field(tag, "callee"), column = find_field(tag, "column");
	if (callee && !(is_pointer_field(callee)
			&& TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(callee))) == char_type_node)) {
		error_at(DECL_SOURCE_LOCATION(callee),
			 "%<callee%> of %<struct %s%> must be a %<const char *%>",
			 alloctag_opts.tag_type);
		return false;
	}
	if (column && !INTEGRAL_TYPE_P(TREE_TYPE(column))) {
		error_at(DECL_SOURCE_LOCATION(column),
			 "%<column%> of %<struct %s%> must be an integer", alloctag_opts.tag_type);
		return false;
	}
	runtime.callee_field = callee;
	runtime.column_field = column;
	return true;
}

static bool check_shared_counters(void)
{
	const char *name = alloctag_opts.counters_object;
	tree var;

	if (!name)
		return true;
	var = alloctag_lookup_decl(name);
	if (!var || TREE_CODE(var) != VAR_DECL || !runtime.counters_field) {
		error("%<-fplugin-arg-*-counters-object=%s%>: no such variable, or "
		      "%<struct %s%> has no %<counters%>", name, alloctag_opts.tag_type);
		return false;
	}
	runtime.shared_counters = var;
	return true;
}

/*
 * Inline hooks are the tag's machinery, not the program: GCC gives the
 * statements of an inlined DECL_IGNORED_P function the location of the
 * call, so that what GCC says about the places around a tagged call (and
 * what a debugger steps through) stays in the program's lines, not in
 * alloctag.h, a system header where warnings are not shown at all.
 */
static void hooks_take_the_place_of_their_calls(void)
{
	if (DECL_DECLARED_INLINE_P(runtime.save))
		DECL_IGNORED_P(runtime.save) = 1;
	if (DECL_DECLARED_INLINE_P(runtime.restore))
		DECL_IGNORED_P(runtime.restore) = 1;
	if (runtime.claim && DECL_DECLARED_INLINE_P(runtime.claim))
		DECL_IGNORED_P(runtime.claim) = 1;
}

/*
 * The claim hook the user's code makes its tags current with where the unit
 * has implied tags: optional; if declared, shaped as the save hook.
 */
static bool find_claim_hook(void)
{
	tree claim = alloctag_lookup_decl(alloctag_opts.claim_hook);

	runtime.claim = NULL_TREE;
	if (!claim || TREE_CODE(claim) != FUNCTION_DECL)
		return true;
	if (param_count(claim) != 1 || TREE_TYPE(TREE_TYPE(claim)) != TREE_TYPE(TREE_TYPE(runtime.save))
	    || first_param_type(claim) != first_param_type(runtime.save)) {
		error_at(DECL_SOURCE_LOCATION(claim), "%qD must be declared as %qD is", claim,
			 runtime.save);
		return false;
	}
	runtime.claim = claim;
	return true;
}

/*
 * The hooks: the unit's, or, where it declares no save hook and runtime= asks
 * for them, liballoctag's, made for it (alloctag_runtime.c); and the unit's
 * predicate enabled= names.
 */
static bool find_hooks(location_t call_loc, tree callee)
{
	tree save = alloctag_lookup_decl(alloctag_opts.save_hook);

	if (alloctag_opts.runtime && !(save && TREE_CODE(save) == FUNCTION_DECL)) {
		if (!alloctag_declare_runtime(&runtime.save, &runtime.restore, &runtime.current))
			return false;
	} else {
		runtime.save = find_hook(alloctag_opts.save_hook, call_loc, callee);
		runtime.restore = runtime.save
				  ? find_hook(alloctag_opts.restore_hook, call_loc, callee) : NULL;
		if (!runtime.restore || !find_claim_hook())
			return false;
	}
	if (!alloctag_opts.enabled)
		return true;
	runtime.enabled = find_hook(alloctag_opts.enabled, call_loc, callee);
	return runtime.enabled != NULL_TREE;
}

/*
 * liballoctag's current tag: made with the runtime, or the unit's, as
 * alloctag.h declares it (a pointer to the tag type); else NULL_TREE: the
 * kernel's is no variable (current->alloc_tag).
 */
static tree find_current_tag(void)
{
	tree var;

	if (runtime.current)
		return runtime.current;
	var = alloctag_lookup_decl(ALLOCTAG_CURRENT_TAG);
	if (!var || TREE_CODE(var) != VAR_DECL || !POINTER_TYPE_P(TREE_TYPE(var))
	    || TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(var))) != runtime.tag_type)
		return NULL_TREE;
	return var;
}

/*
 * The runtime, found once per translation unit at its first tagged call (or
 * call that returns twice: alloctag_find_user_runtime()), or NULL
 * (diagnosed once, at that call).
 */
const struct alloctag_runtime *alloctag_find_runtime(location_t call_loc, tree callee)
{
	if (runtime_state == RUNTIME_UNKNOWN) {
		if (find_hooks(call_loc, callee) && check_hooks(call_loc, callee) && check_tag_type()
		    && check_shared_counters()) {
			runtime_state = RUNTIME_FOUND;
			runtime.current = find_current_tag();
			hooks_take_the_place_of_their_calls();
		} else {
			runtime_state = RUNTIME_MISSING;
		}
	}
	return runtime_state == RUNTIME_FOUND ? &runtime : NULL;
}

/* The unit's runtime was found (some call was tagged). */
bool alloctag_hooks_found(void)
{
	return runtime_state == RUNTIME_FOUND;
}

/* FNDECL is one of the unit's hooks. */
bool alloctag_is_hook(tree fndecl)
{
	return alloctag_hooks_found() && fndecl
	       && (fndecl == runtime.save || fndecl == runtime.restore || fndecl == runtime.claim);
}

/* NAME is declared in the unit, and not as a type: a function, a variable. */
static bool declared(const char *name)
{
	tree decl = alloctag_lookup_decl(name);

	return decl && TREE_CODE(decl) != TYPE_DECL;
}

static bool declared_function(const char *name)
{
	tree decl = alloctag_lookup_decl(name);

	return decl && TREE_CODE(decl) == FUNCTION_DECL;
}

/*
 * The unit's runtime is liballoctag's, and alloctag_find_runtime() finds it
 * without a word: made by the plugin (runtime=, for a unit that declares
 * none of it: partly_declared() in alloctag_runtime.c says nothing), or
 * alloctag.h's (its hooks and current tag declared, its tag type complete).
 */
static bool liballoctag_runtime_at_hand(void)
{
	tree save = alloctag_lookup_decl(alloctag_opts.save_hook), tag_ptr;

	if (alloctag_opts.enabled && !declared_function(alloctag_opts.enabled))
		return false;
	if (!declared_function(alloctag_opts.save_hook))
		return alloctag_opts.runtime && !declared(ALLOCTAG_CURRENT_TAG)
		       && !declared(alloctag_opts.restore_hook);
	tag_ptr = first_param_type(save);
	return declared_function(alloctag_opts.restore_hook) && declared(ALLOCTAG_CURRENT_TAG)
	       && tag_ptr && POINTER_TYPE_P(tag_ptr) && COMPLETE_TYPE_P(TREE_TYPE(tag_ptr));
}

/*
 * The runtime where it is liballoctag's (user space, where a program may
 * call setjmp: alloctag_setjmp.c), else NULL, and nothing said: a unit
 * without hooks, or with the kernel's, is left as it is.  LOC: the call it
 * is for, where alloctag_find_runtime() would say what is missing (the
 * check before it keeps it from having to).
 */
const struct alloctag_runtime *alloctag_find_user_runtime(location_t loc)
{
	const struct alloctag_runtime *rt;

	if (runtime_state == RUNTIME_UNKNOWN && !liballoctag_runtime_at_hand())
		return NULL;
	rt = alloctag_find_runtime(loc, NULL_TREE);
	return rt && rt->current ? rt : NULL;
}

/*
 * The hook CALLER makes its tags current with: the claim hook in the user's
 * code of a unit with implied tags (alloctag_callers.c), the save hook
 * everywhere else.
 */
tree alloctag_save_hook_for(const struct alloctag_runtime *rt, tree caller)
{
	if (!alloctag_claims(caller))
		return rt->save;
	if (!runtime.claim) {
		runtime.claim = alloctag_declare_claim();
		if (runtime.claim)
			DECL_IGNORED_P(runtime.claim) = 1;
	}
	return runtime.claim ? runtime.claim : rt->save;
}

/* The module name the tags carry, or NULL (the kernel's CT_MODULE_NAME). */
static const char *module_name(void)
{
	static const char *name;
	static bool done;
	bool defined;

	if (done)
		return name;
	done = true;
	if (alloctag_opts.modname)
		return name = alloctag_opts.modname;
	if (!alloctag_opts.modname_macro)
		return NULL;
	if (alloctag_opts.modname_if) {
		alloctag_macro_value(alloctag_opts.modname_if, &defined);
		if (!defined)
			return NULL;
	}
	const char *value = alloctag_macro_value(alloctag_opts.modname_macro, &defined);
	const char *end = value && *value == '"' ? strchr(value + 1, '"') : NULL;
	if (end)
		return name = xstrndup(value + 1, end - value - 1);
	if (defined)
		warning(0, "macro %qs does not expand to a string; tags carry no module name",
			alloctag_opts.modname_macro);
	return NULL;
}

static tree static_constructor(tree type, vec<constructor_elt, va_gc> *elts)
{
	tree init = build_constructor(type, elts);

	TREE_CONSTANT(init) = 1;
	TREE_STATIC(init) = 1;
	return init;
}

/* What __func__ says in CALLER: its plain name (C++ constructors aside). */
static const char *function_name(tree caller)
{
	const char *name = IDENTIFIER_POINTER(DECL_NAME(caller));

	return strchr(name, ' ') ? lang_hooks.decl_printable_name(caller, 0) : name;
}

static tree string_for(tree field, const char *s)
{
	return fold_convert(TREE_TYPE(field), build_string_literal(strlen(s) + 1, s));
}

/* A function-local static, as the macro's, named like it: NAME.<uid>. */
static tree site_static(const char *name, tree type, tree caller, location_t loc)
{
	tree var = build_decl(loc, VAR_DECL, get_identifier(name), type);
	char *asm_name;

	TREE_STATIC(var) = 1;
	TREE_USED(var) = 1;
	TREE_ADDRESSABLE(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_CONTEXT(var) = caller;
	ASM_FORMAT_PRIVATE_NAME(asm_name, name, DECL_UID(var));
	SET_DECL_ASSEMBLER_NAME(var, get_identifier(asm_name));
	return var;
}

static tree counters_for(const struct alloctag_runtime *rt, tree caller, location_t loc)
{
	tree var;

	if (rt->shared_counters)
		return rt->shared_counters;
	var = site_static("_alloc_tag_cntr", TREE_TYPE(TREE_TYPE(rt->counters_field)), caller, loc);
	if (alloctag_opts.counters_section)
		set_decl_section_name(var, alloctag_opts.counters_section);
	varpool_node::finalize_decl(var);
	return var;
}

/*
 * The location whose line __LINE__ would give at a call.  A token written in
 * a macro argument is followed back to where it was written (arguments are
 * macro-expanded before substitution, so a kmalloc() written there expanded
 * its __LINE__ at that point); a token from a macro body resolves, as
 * __LINE__ in that body does, to the outermost expansion point.
 */
static location_t written_location(location_t loc)
{
	loc = get_pure_location(loc);
	while (linemap_location_from_macro_expansion_p(line_table, loc)) {
		location_t written = alloctag_macro_argument_location(loc);

		if (written == UNKNOWN_LOCATION)	/* from the body */
			return linemap_resolve_location(line_table,
							alloctag_macro_expansion_point(loc),
							LRK_MACRO_EXPANSION_POINT, NULL);
		loc = written;				/* from an argument */
	}
	return linemap_resolve_location(line_table, loc, LRK_MACRO_EXPANSION_POINT, NULL);
}

/* File names are mapped by -fmacro-prefix-map as __FILE__ is. */
struct alloctag_site alloctag_site_of(location_t call_loc, tree caller, const char *callee)
{
	location_t written = written_location(call_loc);
	expanded_location xloc = expand_location(written);
	struct alloctag_site site;

	if (!xloc.file)
		xloc = expand_location(DECL_SOURCE_LOCATION(caller));
	site.file = remap_macro_filename(xloc.file ? xloc.file : "");
	site.line = xloc.line;
	site.column = in_system_header_at(written) ? 0 : alloctag_diagnostic_column(xloc);
	site.function = function_name(caller);
	site.callee = callee;
	return site;
}

tree alloctag_build_tag(const struct alloctag_runtime *rt, const struct alloctag_site *site,
			tree caller, location_t call_loc, bool implied)
{
	vec<constructor_elt, va_gc> *ct_elts = NULL, *tag_elts = NULL;
	tree ct_type = TREE_TYPE(rt->ct_field);
	const char *modname = module_name();

	/* Fields in declaration order, as varasm wants them. */
	for (tree f = TYPE_FIELDS(ct_type); f; f = DECL_CHAIN(f)) {
		if (f == lineno_field)
			CONSTRUCTOR_APPEND_ELT(ct_elts, f, build_int_cst(TREE_TYPE(f), site->line));
		else if (f == function_field)
			CONSTRUCTOR_APPEND_ELT(ct_elts, f, string_for(f, site->function));
		else if (f == filename_field)
			CONSTRUCTOR_APPEND_ELT(ct_elts, f, string_for(f, site->file));
		else if (f == modname_field && modname)
			CONSTRUCTOR_APPEND_ELT(ct_elts, f, string_for(f, modname));
		else if (f == flags_field && implied)
			CONSTRUCTOR_APPEND_ELT(ct_elts, f, build_int_cst(TREE_TYPE(f), IMPLIED_FLAG));
	}
	for (tree f = TYPE_FIELDS(rt->tag_type); f; f = DECL_CHAIN(f)) {
		if (f == rt->ct_field)
			CONSTRUCTOR_APPEND_ELT(tag_elts, f, static_constructor(ct_type, ct_elts));
		else if (f == rt->counters_field)
			CONSTRUCTOR_APPEND_ELT(tag_elts, f,
				fold_convert(TREE_TYPE(f),
					     build_fold_addr_expr(counters_for(rt, caller, call_loc))));
		else if (f == rt->callee_field && site->callee)
			CONSTRUCTOR_APPEND_ELT(tag_elts, f, string_for(f, site->callee));
		else if (f == rt->column_field)
			CONSTRUCTOR_APPEND_ELT(tag_elts, f, build_int_cst(TREE_TYPE(f), site->column));
	}

	tree tag = site_static("_alloc_tag", rt->tag_type, caller, call_loc);
	DECL_PRESERVE_P(tag) = 1;
	/* Pinned: -O2 would raise a 40-byte tag to 16 and break a walk by sizeof. */
	SET_DECL_ALIGN(tag, TYPE_ALIGN(rt->tag_type));
	DECL_USER_ALIGN(tag) = 1;
	set_decl_section_name(tag, alloctag_opts.section);
	DECL_INITIAL(tag) = static_constructor(rt->tag_type, tag_elts);
	varpool_node::finalize_decl(tag);
	return tag;
}
