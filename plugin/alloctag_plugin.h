/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * alloctag: what the parts of the plugin share.
 *
 *   alloctag_plugin.c     plugin_init(), version check, callbacks
 *   alloctag_options.c    -fplugin-arg-alloctag-* parsing
 *   alloctag_decls.c      the unit's declarations by name, the trees kept alive
 *   alloctag_parse.c      what is done as the front end parses: declarations recorded, checked
 *   alloctag_attribute.c  __attribute__((alloc_tagged)) and its checks
 *   alloctag_byname.c     functions tagged by name (-fplugin-arg-alloctag-tag=...)
 *   alloctag_variant.c    the untagged variant each tagged call is renamed to
 *   alloctag_indirect.c   which indirect calls (through function pointers) are tagged
 *   alloctag_tag.c        the runtime's tag type and hooks, one static tag per site
 *   alloctag_runtime.c    liballoctag's tag type and hooks, made for a unit without them
 *   alloctag_builtin.c    tagged calls to GCC built-ins: the hooks' stores must be volatile
 *   alloctag_guard.c      a tag current only while a predicate holds (enabled=)
 *   alloctag_unwind.c     the tag given back when an exception leaves the call
 *   alloctag_setjmp.c     the tag current at a setjmp made current at its second return
 *   alloctag_wrappers.c   allocation wrappers found by the compiler (auto)
 *   alloctag_callers.c    calls charged to the user's line that asked (auto)
 *   alloctag_rewrite.c    the GIMPLE pass that rewrites the calls
 */
#ifndef ALLOCTAG_PLUGIN_H
#define ALLOCTAG_PLUGIN_H

#include "alloctag_compat.h"

#define ALLOCTAG_ATTRIBUTE "alloc_tagged"

/* alloctag_options.c */
struct alloctag_options {
	const char *tag_type;		/* struct the tags are made of */
	const char *save_hook;		/* old = save(&tag) before the call */
	const char *claim_hook;		/* or old = claim(&tag): the user's code (auto) */
	const char *enabled;		/* tag only while this function returns nonzero */
	const char *restore_hook;	/* restore(&tag, old) after it */
	const char *section;		/* where the tags go */
	const char *counters_section;	/* where per-site counters go, NULL: default */
	const char *counters_object;	/* one shared counters object instead */
	const char *suffix;		/* foo -> foo<suffix> unless the attribute names one */
	const char *modname;		/* fixed module name for the tags */
	const char *modname_macro;	/* or the string a macro expands to ... */
	const char *modname_if;		/* ... when this macro is defined */
	const char *include_hint;	/* what to include when the hooks are missing */
	const char *runtime;		/* "outermost", "innermost": liballoctag's hooks
					   for a unit without hooks; NULL: none */
	const char *indirect_types;	/* typedefs whose indirect calls are tagged */
	bool no_indirect;		/* tag no indirect call */
	bool auto_tag;			/* C++ new, wrappers, system headers: the caller's line */
	bool disable;
	bool verbose;
};

extern struct alloctag_options alloctag_opts;
bool alloctag_parse_options(const struct plugin_name_args *info);
const char *alloctag_options_help(bool one_line);
bool alloctag_is_identifier(const char *s);

/* alloctag_decls.c: the bottom, calls no other part */
void alloctag_decls_init(const char *plugin_name);
bool alloctag_record_decl(tree decl);
void alloctag_add_tagged_function(tree fndecl);
tree alloctag_lookup_decl(const char *name);
void alloctag_root_tree(tree t);
const vec<tree> &alloctag_tagged_functions(void);
const char *alloctag_macro_value(const char *name, bool *defined);

/* alloctag_parse.c */
void alloctag_register_parse_callbacks(const char *plugin_name);
void alloctag_note_use(tree fndecl);

/* alloctag_byname.c */
bool alloctag_add_tag_list(const char *list, const char *option);
bool alloctag_add_tag_file(const char *file, const char *option);
bool alloctag_any_named(void);
tree alloctag_named_variant(const_tree fndecl);
bool alloctag_is_new_operator(const_tree fndecl);
void alloctag_check_named_decl(tree decl);

/* alloctag_attribute.c */
void alloctag_register_attributes(void *event_data, void *data);
bool alloctag_is_tagged(const_tree fndecl);
tree alloctag_tagged_callee(tree fndecl);
tree alloctag_variant_name(tree fndecl);
void alloctag_check_attributes(tree fndecl);

/* alloctag_indirect.c */
bool alloctag_tag_indirect_type(tree type);
void alloctag_collect_indirect_types(void);
bool alloctag_indirect_tagged(const gcall *call);
bool alloctag_any_indirect(void);

/* alloctag_variant.c */
tree alloctag_variant(tree fndecl);
void alloctag_define_public_aliases(void);

/* alloctag_tag.c */
/* liballoctag's current tag (alloctag.h, runtime/alloctag.c): the kernel has none. */
#define ALLOCTAG_CURRENT_TAG "alloctag_current"
struct alloctag_runtime {
	tree tag_type;		/* struct alloc_tag */
	tree ct_field;		/* its struct codetag */
	tree counters_field;	/* its counters pointer, or NULL */
	tree callee_field;	/* optional: the name of the function called */
	tree column_field;	/* optional: the column of the call */
	tree shared_counters;	/* counters_object, or NULL */
	tree save, restore;	/* the hooks */
	tree claim;		/* the save hook of the user's code, or NULL (auto) */
	tree enabled;		/* tag only while enabled() holds, or NULL */
	bool restore_takes_tag;	/* restore(&tag, old), not restore(old) */
	tree current;		/* liballoctag's current tag, or NULL: another
				   runtime's (the kernel's: current->alloc_tag) */
};
/*
 * Where a call is, as __FILE__, __LINE__ and __func__ would say there, the
 * column of that place, and what it calls.
 */
struct alloctag_site {
	const char *file;
	int line;
	int column;
	const char *function;
	const char *callee;	/* NULL: an indirect call through no name */
};
const struct alloctag_runtime *alloctag_find_runtime(location_t call_loc, tree callee);
const struct alloctag_runtime *alloctag_find_user_runtime(location_t loc);
tree alloctag_save_hook_for(const struct alloctag_runtime *rt, tree caller);
struct alloctag_site alloctag_site_of(location_t call_loc, tree caller, const char *callee);
tree alloctag_build_tag(const struct alloctag_runtime *rt, const struct alloctag_site *site,
			tree caller, location_t call_loc, bool implied);

/* alloctag_runtime.c */
bool alloctag_declare_runtime(tree *save, tree *restore, tree *current);
tree alloctag_declare_claim(void);

/* alloctag_builtin.c */
bool alloctag_hooks_survive_builtin(const struct alloctag_runtime *rt, tree builtin,
				    tree callee, location_t call_loc);

/* alloctag_guard.c */
bool alloctag_guard(gcall *call, tree pred, gimple *save, gimple *restore);

/* alloctag_unwind.c */
bool alloctag_restore_on_unwind(gcall *call, gimple *restore);

/* alloctag_setjmp.c */
bool alloctag_keep_tag_across(gcall *call);

/* alloctag_wrappers.c */
void alloctag_wrapper_shape(tree fndecl);
void alloctag_wrapper_address_taken(tree fndecl);
bool alloctag_add_wrappers_file(const char *file, const char *option);
void alloctag_wrappers_resolve(void);
bool alloctag_is_wrapper(tree fndecl);
bool alloctag_allocator_by_pointer(tree fndecl);
const char *alloctag_symbol_name(tree fndecl);

/* alloctag_callers.c */
void alloctag_note_body(tree fndecl, const tree *refs, unsigned int nrefs, bool indirect);
void alloctag_callers_resolve(void);
bool alloctag_implied_callee(tree caller, tree callee);
bool alloctag_claims(tree caller);

/* alloctag_rewrite.c */
/* The pass data of the plugin's GIMPLE passes, all alike but for NAME. */
static inline pass_data alloctag_gimple_pass_data(const char *name)
{
	pass_data data = {
		.type			= GIMPLE_PASS,
		.name			= name,
		.optinfo_flags		= OPTGROUP_NONE,
		.tv_id			= TV_NONE,
		.properties_required	= ALLOCTAG_PASS_PROPERTIES_REQUIRED,
		.properties_provided	= 0,
		.properties_destroyed	= 0,
		.todo_flags_start	= 0,
		.todo_flags_finish	= ALLOCTAG_PASS_TODO_FINISH,
	};
	return data;
}
opt_pass *make_alloctag_rewrite_pass(gcc::context *ctxt);
opt_pass *make_alloctag_locate_pass(gcc::context *ctxt);
bool alloctag_hooks_found(void);
bool alloctag_is_hook(tree fndecl);
void alloctag_record_generic_calls(void *event_data, void *data);

#endif /* ALLOCTAG_PLUGIN_H */
