// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: liballoctag's tag type, current tag and hooks, made by the plugin
 * for a unit that declares no hooks (-fplugin-arg-alloctag-runtime=outermost
 * or =innermost, which alloctag-cc passes), so that nothing needs to be
 * forced into the unit's text: what -E prints is what plain gcc prints.
 *
 * What is made is what runtime/alloctag.h declares, and behaves as it:
 *
 *	struct codetag { unsigned int flags, lineno;
 *			 const char *modname, *function, *filename; }	aligned(8)
 *	struct alloc_tag_counters { unsigned int id, reserved; };
 *	struct alloc_tag { struct codetag ct; struct alloc_tag_counters *counters;
 *			   const char *callee; unsigned int column; }	aligned(8)
 *	extern __thread struct alloc_tag *alloctag_current	(initial-exec)
 *	static inline always_inline
 *	struct alloc_tag *alloc_tag_save(struct alloc_tag *tag)
 *		{ old = alloctag_current; asm volatile("" : "+r"(old));
 *		  volatile store of (old ? old : tag)
 *		  (under -fanalyzer computed without a branch: outer_or()),
 *		  or of tag for the innermost rule; return old; }
 *	static inline always_inline
 *	void alloc_tag_restore(struct alloc_tag *tag, struct alloc_tag *old)
 *		{ volatile store of old; }
 *	static inline always_inline	(outermost only, made when first needed)
 *	struct alloc_tag *alloc_tag_claim(struct alloc_tag *tag)
 *		{ old = alloctag_current; asm volatile("" : "+r"(old)); volatile store of
 *		  (old && !(old->ct.flags & ALLOC_TAG_IMPLIED) ? old : tag)
 *		  (under -fanalyzer alloc_tag_save's); return old; }
 *
 * The layout must stay alloctag.h's: the runtime walks the tags by
 * sizeof(struct alloc_tag), and testsuite/plugin/own-runtime.sh compares
 * the code of a unit built with each.  The front end never sees any of it:
 * a unit may include alloctag.h itself, and then its own declarations are
 * used (alloctag_tag.c); nothing is made for a unit without tagged calls
 * or calls that return twice (alloctag_setjmp.c reads the current tag there).
 * Made at the unit's first such call, while the call graph is being built:
 * the hooks are finalized as the front end's functions are, and analyzed
 * when the call graph reaches them through the calls the pass adds.
 * A unit that declares the current tag or the restore hook but not the save
 * hook gets an error there instead.  Off unless asked for: the Linux kernel
 * declares its own.
 */
#include "alloctag_plugin.h"

/* ct.flags of a tag the compiler implied (alloctag.h's ALLOC_TAG_IMPLIED). */
#define IMPLIED_FLAG 0x100

static tree const_char_ptr(void)
{
	return build_pointer_type(build_qualified_type(char_type_node, TYPE_QUAL_CONST));
}

/* FIELDS, in declaration order, then NULL_TREE. */
static tree record(const char *name, bool aligned8, ...)
{
	tree type = make_node(RECORD_TYPE), chain = NULL_TREE, f;
	va_list ap;

	/* finish_builtin_struct() takes the fields last first. */
	va_start(ap, aligned8);
	while ((f = va_arg(ap, tree))) {
		DECL_CHAIN(f) = chain;
		chain = f;
	}
	va_end(ap);
	if (aligned8) {		/* __attribute__((__aligned__(8))) */
		SET_TYPE_ALIGN(type, 8 * BITS_PER_UNIT);
		TYPE_USER_ALIGN(type) = 1;
	}
	finish_builtin_struct(type, name, chain, NULL_TREE);
	return type;
}

static tree field(const char *name, tree type)
{
	return build_decl(BUILTINS_LOCATION, FIELD_DECL, get_identifier(name), type);
}

/* struct alloc_tag (by the name tag-type= gives), as alloctag.h declares it. */
static tree tag_type(void)
{
	tree codetag = record("codetag", true,
			      field("flags", unsigned_type_node),
			      field("lineno", unsigned_type_node),
			      field("modname", const_char_ptr()),
			      field("function", const_char_ptr()),
			      field("filename", const_char_ptr()), NULL_TREE);
	tree counters = record("alloc_tag_counters", false,
			       field("id", unsigned_type_node),
			       field("reserved", unsigned_type_node), NULL_TREE);

	return record(alloctag_opts.tag_type, true,
		      field("ct", codetag),
		      field("counters", build_pointer_type(counters)),
		      field("callee", const_char_ptr()),
		      field("column", unsigned_type_node), NULL_TREE);
}

/* extern __thread TYPE alloctag_current __attribute__((tls_model("initial-exec"))) */
static tree current_tag(tree type)
{
	tree var = build_decl(BUILTINS_LOCATION, VAR_DECL, get_identifier(ALLOCTAG_CURRENT_TAG),
			      type);

	DECL_EXTERNAL(var) = 1;
	TREE_PUBLIC(var) = 1;
	TREE_USED(var) = 1;
	DECL_ARTIFICIAL(var) = 1;
	DECL_IGNORED_P(var) = 1;
	DECL_ATTRIBUTES(var) = tree_cons(get_identifier("tls_model"),
					 build_tree_list(NULL_TREE,
							 build_string(sizeof("initial-exec"),
								      "initial-exec")),
					 NULL_TREE);
	set_decl_tls_model(var, TLS_MODEL_INITIAL_EXEC);
	SET_DECL_ASSEMBLER_NAME(var, DECL_NAME(var));	/* C linkage in C++ too */
	alloctag_root_tree(var);
	return var;
}

/*
 * *(TYPE volatile *)&CURRENT = VALUE: GCC takes its built-in malloc to read
 * no memory, so a plain store of the tag around a call to it would be dead
 * (alloctag.h's ALLOCTAG_SET_CURRENT).
 */
static tree set_current(tree current, tree value)
{
	tree vtype = build_qualified_type(TREE_TYPE(current), TYPE_QUAL_VOLATILE);
	tree lhs = build1(INDIRECT_REF, vtype,
			  fold_convert(build_pointer_type(vtype), build_fold_addr_expr(current)));

	TREE_THIS_VOLATILE(lhs) = 1;
	TREE_SIDE_EFFECTS(lhs) = 1;
	tree store = build2(MODIFY_EXPR, vtype, lhs, value);
	TREE_SIDE_EFFECTS(store) = 1;
	return store;
}

/*
 * __asm__ __volatile__("" : "+r"(OLD)): the tag read, made unknown to GCC
 * (alloctag.h's ALLOCTAG_OPAQUE).  Else the read after a restore is, to GCC,
 * the value restored, a tagged call's test of the current tag the test of
 * the call before it, and jump threading copies the calls between them onto
 * each way through both tests (two malloc calls written, six compiled); an
 * allocation's result then reaches its use through a PHI, where
 * -Wmismatched-dealloc no longer sees it.  No instruction.  (A volatile read
 * does the same, but costs GCC 15 and 16 their -Wmaybe-uninitialized on
 * fresh heap memory; choosing the tag by masks, without a branch, costs the
 * claim hook seven instructions.)
 */
static tree opaque(tree old)
{
	tree constraint = build_tree_list(NULL_TREE, build_string(sizeof("+r"), "+r"));
	tree stmt = build5(ASM_EXPR, void_type_node, build_string(1, ""),
			   build_tree_list(constraint, old), NULL_TREE, NULL_TREE, NULL_TREE);

	ASM_VOLATILE_P(stmt) = 1;
	TREE_SIDE_EFFECTS(stmt) = 1;
	return stmt;
}

/* A PARM_DECL or local of HOOK. */
static tree hook_decl(enum tree_code code, const char *name, tree type, tree hook)
{
	tree d = build_decl(BUILTINS_LOCATION, code, get_identifier(name), type);

	DECL_CONTEXT(d) = hook;
	TREE_USED(d) = 1;
	if (code == PARM_DECL)
		DECL_ARG_TYPE(d) = type;
	return d;
}

/*
 * static inline __attribute__((always_inline, unused))
 * RET NAME(TAG_PTR tag[, TAG_PTR old]), without a body yet.
 */
static tree new_hook(const char *name, tree ret, tree tag_ptr, unsigned int nparams)
{
	static const char *const names[] = { "tag", "old" };
	tree fntype = nparams == 1 ? build_function_type_list(ret, tag_ptr, NULL_TREE)
				   : build_function_type_list(ret, tag_ptr, tag_ptr, NULL_TREE);
	tree hook = build_decl(BUILTINS_LOCATION, FUNCTION_DECL, get_identifier(name), fntype);
	tree params = NULL_TREE;

	TREE_STATIC(hook) = 1;
	TREE_USED(hook) = 1;
	DECL_DECLARED_INLINE_P(hook) = 1;
	DECL_DISREGARD_INLINE_LIMITS(hook) = 1;
	DECL_ATTRIBUTES(hook) = tree_cons(get_identifier("always_inline"), NULL_TREE,
					  tree_cons(get_identifier("unused"), NULL_TREE, NULL_TREE));
	SET_DECL_ASSEMBLER_NAME(hook, DECL_NAME(hook));
	for (unsigned int i = nparams; i-- > 0;) {
		tree p = hook_decl(PARM_DECL, names[i], tag_ptr, hook);

		DECL_CHAIN(p) = params;
		params = p;
	}
	DECL_ARGUMENTS(hook) = params;
	DECL_RESULT(hook) = build_decl(BUILTINS_LOCATION, RESULT_DECL, NULL_TREE, ret);
	DECL_CONTEXT(DECL_RESULT(hook)) = hook;
	DECL_ARTIFICIAL(DECL_RESULT(hook)) = 1;
	DECL_IGNORED_P(DECL_RESULT(hook)) = 1;
	alloctag_root_tree(hook);
	return hook;
}

/*
 * HOOK's body, { LOCALS; BODY }, given as the front end gives one, and HOOK
 * handed to the call graph: gimplified and lowered when a call reaches it.
 * Made without a garbage collection: the pass that asks is running.
 */
static void define_hook(tree hook, tree locals, tree body)
{
	tree block = make_node(BLOCK);

	BLOCK_VARS(block) = locals;
	BLOCK_SUPERCONTEXT(block) = hook;
	TREE_USED(block) = 1;
	DECL_INITIAL(hook) = block;
	DECL_SAVED_TREE(hook) = build3(BIND_EXPR, void_type_node, locals, body, block);
	TREE_SIDE_EFFECTS(DECL_SAVED_TREE(hook)) = 1;
	push_struct_function(hook);
	cfun->function_end_locus = BUILTINS_LOCATION;
	pop_cfun();
	cgraph_node::finalize_function(hook, true);
}

/*
 * OLD ? OLD : TAG without a branch: OLD | (TAG & -(OLD == 0)).  Under
 * -fanalyzer: the analyzer splits its paths at every condition, and one per
 * tagged call, on a value every unknown call clobbers, keeps paths apart
 * that it would merge otherwise, until it gives up on the function (a
 * bison parser: 83 warnings plain, none tagged).  A select is no condition.
 */
static tree outer_or(tree old, tree tag)
{
	tree uptr = pointer_sized_int_node;
	tree o = fold_convert(uptr, old), t = fold_convert(uptr, tag);
	tree none = fold_convert(uptr, build2(EQ_EXPR, boolean_type_node, old,
					      build_int_cst(TREE_TYPE(old), 0)));
	tree mask = build1(NEGATE_EXPR, uptr, none);

	return fold_convert(TREE_TYPE(old),
			    build2(BIT_IOR_EXPR, uptr, o, build2(BIT_AND_EXPR, uptr, t, mask)));
}

/*
 * static inline RET NAME(TAG_PTR tag)
 * { TAG_PTR old = current; opaque(old); current = VALUE(old, tag); return old; }
 */
static tree save_like_hook(const char *name, tree current, tree (*value)(tree old, tree tag))
{
	tree tag_ptr = TREE_TYPE(current);
	tree hook = new_hook(name, tag_ptr, tag_ptr, 1);
	tree tag = DECL_ARGUMENTS(hook);
	tree old = hook_decl(VAR_DECL, "old", tag_ptr, hook);
	tree body = alloc_stmt_list();

	DECL_INITIAL(old) = current;
	append_to_statement_list(build1(DECL_EXPR, void_type_node, old), &body);
	append_to_statement_list(opaque(old), &body);
	append_to_statement_list(set_current(current, value(old, tag)), &body);
	append_to_statement_list(build1(RETURN_EXPR, void_type_node,
					build2(MODIFY_EXPR, tag_ptr, DECL_RESULT(hook), old)),
				 &body);
	define_hook(hook, old, body);
	return hook;
}

static tree nonnull(tree p)
{
	return build2(NE_EXPR, boolean_type_node, p, build_int_cst(TREE_TYPE(p), 0));
}

/* The innermost rule: the tag. */
static tree innermost(tree, tree tag)
{
	return tag;
}

/* The outermost rule: OLD ? OLD : TAG. */
static tree outermost(tree old, tree tag)
{
	return flag_analyzer ? outer_or(old, tag) : build3(COND_EXPR, TREE_TYPE(old), nonnull(old), old, tag);
}

/* The user's code: OLD && !(OLD->ct.flags & IMPLIED) ? OLD : TAG (the outermost rule under -fanalyzer). */
static tree claimed(tree old, tree tag)
{
	tree type = TREE_TYPE(TREE_TYPE(old));
	tree ct = TYPE_FIELDS(type), flags = TYPE_FIELDS(TREE_TYPE(ct));
	tree ct_ref = build3(COMPONENT_REF, TREE_TYPE(ct), build1(INDIRECT_REF, type, old), ct, NULL_TREE);
	tree flags_ref = build3(COMPONENT_REF, TREE_TYPE(flags), ct_ref, flags, NULL_TREE);
	tree explicit_tag = build2(EQ_EXPR, boolean_type_node,
				   build2(BIT_AND_EXPR, TREE_TYPE(flags), flags_ref,
					  build_int_cst(TREE_TYPE(flags), IMPLIED_FLAG)),
				   build_int_cst(TREE_TYPE(flags), 0));

	if (flag_analyzer)
		return outermost(old, tag);
	return build3(COND_EXPR, TREE_TYPE(old),
		      build2(TRUTH_ANDIF_EXPR, boolean_type_node, nonnull(old), explicit_tag), old, tag);
}

/* current = old; */
static tree restore_hook(tree current)
{
	tree tag_ptr = TREE_TYPE(current);
	tree hook = new_hook(alloctag_opts.restore_hook, void_type_node, tag_ptr, 2);
	tree body = alloc_stmt_list();

	append_to_statement_list(set_current(current, DECL_CHAIN(DECL_ARGUMENTS(hook))), &body);
	define_hook(hook, NULL_TREE, body);
	return hook;
}

/*
 * The unit declares liballoctag's current tag or restore hook, but not its
 * save hook: what is made would be a second declaration of one symbol.
 * Said once, at that declaration.
 */
static bool partly_declared(void)
{
	const char * const names[] = { ALLOCTAG_CURRENT_TAG, alloctag_opts.restore_hook };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		tree declared = alloctag_lookup_decl(names[i]);

		if (!declared || TREE_CODE(declared) == TYPE_DECL)
			continue;
		error_at(DECL_SOURCE_LOCATION(declared),
			 "%qD is declared but %qs is not; include %<%s%>, which declares both",
			 declared, alloctag_opts.save_hook, alloctag_opts.include_hint);
		return true;
	}
	return false;
}

static tree made_current;	/* the current tag, once the runtime is made */

bool alloctag_declare_runtime(tree *save, tree *restore, tree *current)
{
	if (partly_declared())
		return false;

	bool inner = !strcmp(alloctag_opts.runtime, "innermost");

	made_current = current_tag(build_pointer_type(tag_type()));
	*save = save_like_hook(alloctag_opts.save_hook, made_current,
			       inner ? innermost : outermost);
	*restore = restore_hook(made_current);
	*current = made_current;
	return true;
}

/*
 * The claim hook, made at the first tagged call of the user's code in a unit
 * with implied tags (alloctag_callers.c): NULL_TREE when the runtime is the
 * unit's own, or follows the innermost rule.
 */
tree alloctag_declare_claim(void)
{
	static tree claim;

	if (!claim && made_current && strcmp(alloctag_opts.runtime, "innermost"))
		claim = save_like_hook(alloctag_opts.claim_hook, made_current, claimed);
	return claim;
}
