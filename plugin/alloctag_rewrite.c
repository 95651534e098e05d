// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the pass that rewrites direct calls to alloc_tagged functions.
 *
 * Before:				After:
 *	p = foo(a, b);			  old = alloc_tag_save(&_alloc_tag.N);
 *					  p = foo_noprof(a, b);
 *					  alloc_tag_restore(&_alloc_tag.N, old);
 *
 * It runs right after "cfg", among the lowering passes: each source call site
 * is seen once, as written, before inlining, unrolling or cloning copy it (the
 * copies share its static tag), and while static inline hooks and static
 * variants that nothing referenced yet are still in the symbol table.
 *
 * Calls to foo inside foo_noprof's own definition are left alone: there
 * foo means the underlying function, and renaming would recurse forever.
 *
 * Calls in code that gimplification or the CFG drop (an "if (0)" arm, code
 * after a return) are gone when the pass runs, but the macro's static tag
 * is "used" and outlives them: so that the same tags exist, the tagged
 * calls of each function's GENERIC body are recorded before gimplification
 * (alloctag_record_generic_calls), and those the pass does not find get a
 * tag too, whose counters stay zero.
 *
 * The call keeps its lhs, flags, location, EH region and static chain: only
 * its callee changes.  A call that ends its basic block (it can throw, or
 * reach an abnormal goto) gets its restore on the normal edge, and
 * one that can throw on the way the exception leaves it too
 * (alloctag_unwind.c); a noreturn call gets none, as with the kernel's
 * alloc_hooks() macro.
 *
 * A call that returns twice (setjmp) is not tagged; with liballoctag's
 * runtime, the tag current at it is made current again after it
 * (alloctag_setjmp.c), which a longjmp out of a tagged call needs:
 *
 *	r = setjmp(env);		  old = alloctag_current;	(before its block)
 *					  r = setjmp(env);
 *					  alloc_tag_restore(NULL, old);
 */
#include "alloctag_plugin.h"

/* old = save(&tag), or claim(&tag) in the user's code (alloctag_save_hook_for()) */
static gcall *build_save(const struct alloctag_runtime *rt, tree caller, tree tag, tree old)
{
	gcall *save = gimple_build_call(alloctag_save_hook_for(rt, caller), 1,
					 build_fold_addr_expr(tag));

	gimple_call_set_lhs(save, old);
	return save;
}

/* restore(&tag, old) or restore(old) */
static gcall *build_restore(const struct alloctag_runtime *rt, tree tag, tree old)
{
	if (rt->restore_takes_tag)
		return gimple_build_call(rt->restore, 2, build_fold_addr_expr(tag), old);
	return gimple_build_call(rt->restore, 1, old);
}

/*
 * The name an indirect call goes through, for its tag: the variable,
 * parameter or member whose pointer it calls (xmlMalloc(n), hooks.alloc(n),
 * (*fp)(n), table[i](n)), or NULL.  The gimplifier loaded it into a
 * temporary of its own just before the call.
 */
static const char *indirect_callee_name(tree fn)
{
	for (int hops = 0; fn && hops < 8; hops++) {
		switch (TREE_CODE(fn)) {
		case SSA_NAME: {
			gimple *def = SSA_NAME_DEF_STMT(fn);

			fn = def && gimple_assign_single_p(def) ? gimple_assign_rhs1(def) : NULL_TREE;
			break;
		}
		case VAR_DECL:
		case PARM_DECL:
			return DECL_NAME(fn) && !DECL_ARTIFICIAL(fn)
			       ? IDENTIFIER_POINTER(DECL_NAME(fn)) : NULL;
		case COMPONENT_REF:
			fn = TREE_OPERAND(fn, 1);
			return DECL_NAME(fn) ? IDENTIFIER_POINTER(DECL_NAME(fn)) : NULL;
		case ARRAY_REF:
		case MEM_REF:
		case INDIRECT_REF:
			fn = TREE_OPERAND(fn, 0);
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

/*
 * What a call calls, by name, for its tag: CALLEE's (in C++ with its scope:
 * std::vector<int>::push_back), or the pointer's.
 */
static const char *callee_name(tree callee, const gcall *call)
{
	static const char builtin_prefix[] = "__builtin_";
	const char *name;

	if (callee) {
		/* GCC's own call to the library (printf("hi\n") made puts("hi")): its name */
		name = lang_hooks.decl_printable_name(callee, 1);
		if (fndecl_built_in_p(callee, BUILT_IN_NORMAL)
		    && !strncmp(name, builtin_prefix, sizeof(builtin_prefix) - 1))
			name += sizeof(builtin_prefix) - 1;
		return name;
	}
	return call ? indirect_callee_name(gimple_call_fn(call)) : NULL;
}

/* A call to tag, direct or indirect. */
struct call_to_tag {
	location_t loc;		/* where it is written */
	tree caller;
	tree callee;		/* the tagged function called, or NULL_TREE: indirect */
	tree variant;		/* what a direct call is to call instead */
	tree fntype;		/* the function type called */
	const char *name;	/* what it calls, by name (callee_name()), or NULL */
	bool dropped;		/* in code that gimplification or the CFG dropped */
	bool implied;		/* a call into code that allocates (alloctag_callers.c) */
};

/*
 * What a direct call to the tagged CALLEE from CALLER is to call instead:
 * its variant, or NULL_TREE when the call stays as it is (no variant: the
 * reason was diagnosed).  Inside the untagged variant's own definition,
 * calling the tagged function means the underlying one (malloc_noprof
 * calling malloc): renaming it would recurse forever.
 */
static tree call_target(tree callee, tree caller)
{
	tree variant = alloctag_variant(callee);

	return variant && (variant != caller || variant == callee) ? variant : NULL_TREE;
}

/*
 * The runtime to tag call C with, or NULL when it cannot be: there is none
 * (diagnosed once), the hooks would not survive around the GCC built-in it
 * calls (diagnosed there), or the call returns twice (FLAGS), which a tag's
 * save and restore around it cannot follow.
 */
static const struct alloctag_runtime *runtime_for(const struct call_to_tag *c, int flags)
{
	const struct alloctag_runtime *rt = alloctag_find_runtime(c->loc, c->callee);

	if (!rt)
		return NULL;
	if (c->callee && fndecl_built_in_p(c->variant, BUILT_IN_NORMAL)
	    && !alloctag_hooks_survive_builtin(rt, c->variant, c->callee, c->loc))
		return NULL;
	if (flags & ECF_RETURNS_TWICE) {
		if (c->callee && !c->dropped)
			warning_at(c->loc, OPT_Wattributes,
				   "call to %qD is not tagged: it returns twice", c->callee);
		return NULL;
	}
	return rt;
}

/* The static tag of call C's site (and the note -verbose asks for). */
static tree site_tag(const struct alloctag_runtime *rt, const struct call_to_tag *c)
{
	struct alloctag_site site = alloctag_site_of(c->loc, c->caller, c->name);
	tree tag = alloctag_build_tag(rt, &site, c->caller, c->loc, c->implied);

	if (alloctag_opts.verbose && c->implied)
		inform(c->loc, "call to %qD tagged %s:%d:%d %qs: it leads to an allocation",
		       c->callee, site.file, site.line, site.column, site.function);
	else if (alloctag_opts.verbose && c->callee)
		inform(c->loc, "call to %qD %stagged %s:%d:%d %qs, calls %qs", c->callee,
		       c->dropped ? "in code never run " : "", site.file, site.line, site.column,
		       site.function, alloctag_symbol_name(c->variant));
	else if (alloctag_opts.verbose && c->name)
		inform(c->loc, "indirect call through %qs (%qT) tagged %s:%d:%d %qs",
		       c->name, c->fntype, site.file, site.line, site.column, site.function);
	else if (alloctag_opts.verbose)
		inform(c->loc, "indirect call through %qT tagged %s:%d:%d %qs",
		       c->fntype, site.file, site.line, site.column, site.function);
	return tag;
}

/*
 * Where the restore after CALL goes: at the place of the statement after
 * it, where the plain build's next statement is.  A diagnostic that GCC
 * gives there (-fanalyzer's leak of a result thrown away) is given at the
 * same place with the tag, as the hooks' inlined statements take the
 * place of their call (alloctag_find_runtime).
 */
static location_t restore_location(gcall *call)
{
	gimple_stmt_iterator gsi = gsi_for_stmt(call);

	for (gsi_next(&gsi); !gsi_end_p(gsi); gsi_next(&gsi))
		if (!is_gimple_debug(gsi_stmt(gsi)) && gimple_has_location(gsi_stmt(gsi)))
			return gimple_location(gsi_stmt(gsi));
	return gimple_location(call);
}

/*
 * CALLEE: the tagged function called, or NULL_TREE for an indirect call;
 * WRITTEN: where the call is written; IMPLIED: CALLEE is not tagged, but
 * leads to an allocation (alloctag_implied_callee()), and is called as it is.
 */
static void rewrite_call(gcall *call, tree callee, tree caller, location_t written, bool implied)
{
	struct call_to_tag c = { written, caller, callee, NULL_TREE, gimple_call_fntype(call),
				 callee_name(callee, call), false, implied };
	const struct alloctag_runtime *rt;
	gimple_stmt_iterator gsi;
	tree tag, old;
	gcall *save, *restore;

	c.variant = !callee ? NULL_TREE : implied ? callee : call_target(callee, caller);
	if (callee && !c.variant)
		return;
	rt = runtime_for(&c, gimple_call_flags(call));
	if (!rt)
		return;
	tag = site_tag(rt, &c);
	old = create_tmp_var(TREE_TYPE(TREE_TYPE(rt->save)), "alloctag_old");

	save = build_save(rt, caller, tag, old);
	gimple_set_location(save, gimple_location(call));
	restore = NULL;
	if (!gimple_call_noreturn_p(call)) {
		restore = build_restore(rt, tag, old);
		gimple_set_location(restore, restore_location(call));
	}
	if (c.variant != callee)
		gimple_call_set_fndecl(call, c.variant);
	gimple_call_set_tail(call, false);

	if (rt->enabled && alloctag_guard(call, rt->enabled, save, restore))
		return;
	gsi = gsi_for_stmt(call);
	gsi_insert_before(&gsi, save, GSI_SAME_STMT);
	if (!restore)
		return;
	alloctag_restore_on_unwind(call, restore);
	if (stmt_ends_bb_p(call)) {
		edge e = find_fallthru_edge(gimple_bb(call)->succs);

		if (e)
			gsi_insert_on_edge_immediate(e, restore);
	} else {
		gsi_insert_after(&gsi, restore, GSI_SAME_STMT);
	}
}

/*
 * A tagged call of a GENERIC body: where, and to what.  The gimplifier gives
 * a call written directly as another call's argument that call's location
 * ("free(xmalloc(n))": free's column, and free's line if the argument is on
 * another): GIVEN is the location the GIMPLE call will have.
 */
struct generic_call {
	location_t loc;
	location_t given;
	tree callee;		/* tagged, so kept alive by alloctag_decls.c */
};
/* Keyed by DECL_UID, never negative: -1 and -2 mark empty and deleted slots. */
typedef int_hash<int, -1, -2> decl_uid_hash;
typedef hash_map<decl_uid_hash, vec<generic_call> > generic_call_map;
static generic_call_map *generic_calls;	/* DECL_UID of the caller -> its calls */

/*
 * The GENERIC walk: the tagged calls, and the references to tagged
 * functions that are not a call's callee (alloctag_note_use()).  Like the
 * gimplifier, which copies every other shared node, it takes SAVE_EXPR,
 * TARGET_EXPR and BIND_EXPR once however often they are referenced
 * ("p = kmalloc(...) ?: q" is one call): walk_tree() without duplicates
 * would hash every node, most of the cost of the walk.
 */
struct generic_walk {
	vec<generic_call> calls;
	hash_set<tree> *shared;
	hash_map<tree, location_t> *arguments;	/* calls that are arguments -> given */
	/* With auto, for alloctag_note_body(): */
	auto_vec<tree> refs;			/* the functions called or referred to */
	hash_set<tree> ref_set;
	bool indirect;				/* a call through a pointer */
};

static void note_ref(struct generic_walk *walk, tree fndecl)
{
	if (alloctag_opts.auto_tag && !walk->ref_set.add(fndecl))
		walk->refs.safe_push(fndecl);
}

/* The calls among CALL's arguments will have CALL's location. */
static void note_call_arguments(struct generic_walk *walk, tree call)
{
	for (int i = 0; i < call_expr_nargs(call); i++)
		if (TREE_CODE(CALL_EXPR_ARG(call, i)) == CALL_EXPR
		    && EXPR_LOCATION(call) != UNKNOWN_LOCATION) {
			if (!walk->arguments)
				walk->arguments = new hash_map<tree, location_t>;
			walk->arguments->put(CALL_EXPR_ARG(call, i), EXPR_LOCATION(call));
		}
}

static tree walk_generic(tree *tp, int *walk_subtrees, void *data);

/*
 * A call that is not a CALL_EXPR: the C++ front end's AGGR_INIT_EXPR (a
 * call that returns a class in place), operand 1 its function.
 */
static bool is_other_call(tree t)
{
	return TREE_CODE_CLASS(TREE_CODE(t)) == tcc_vl_exp && TREE_CODE(t) != CALL_EXPR
	       && TREE_OPERAND_LENGTH(t) > 2;
}

/* The function FN names, if it names one (&f), else NULL_TREE: a pointer. */
static tree called_function(tree fn)
{
	STRIP_NOPS(fn);
	if (TREE_CODE(fn) == ADDR_EXPR)
		fn = TREE_OPERAND(fn, 0);
	return TREE_CODE(fn) == FUNCTION_DECL ? fn : NULL_TREE;
}

/* What a direct call passes, its callee aside: that is called, not used. */
static void walk_call_operands(tree call, struct generic_walk *walk)
{
	for (int i = 0; i < call_expr_nargs(call); i++)
		walk_tree(&CALL_EXPR_ARG(call, i), walk_generic, walk, NULL);
	if (CALL_EXPR_STATIC_CHAIN(call))
		walk_tree(&CALL_EXPR_STATIC_CHAIN(call), walk_generic, walk, NULL);
}

/* A direct call to FNDECL: recorded if it is tagged. */
static void record_call(struct generic_walk *walk, tree call, tree fndecl)
{
	tree callee = alloctag_tagged_callee(fndecl);
	location_t *given;

	/* Without a location it could not be told from the calls the pass sees. */
	if (!callee || EXPR_LOCATION(call) == UNKNOWN_LOCATION)
		return;
	given = walk->arguments ? walk->arguments->get(call) : NULL;
	struct generic_call g = { EXPR_LOCATION(call), given ? *given : EXPR_LOCATION(call), callee };
	walk->calls.safe_push(g);
}

static tree walk_generic(tree *tp, int *walk_subtrees, void *data)
{
	struct generic_walk *walk = (struct generic_walk *)data;
	tree fndecl;

	switch (TREE_CODE(*tp)) {
	case SAVE_EXPR:
	case TARGET_EXPR:
	case BIND_EXPR:
		if (!walk->shared)
			walk->shared = new hash_set<tree>;
		if (walk->shared->add(*tp))
			*walk_subtrees = 0;
		break;
	case CALL_EXPR:
		note_call_arguments(walk, *tp);
		fndecl = get_callee_fndecl(*tp);
		if (!fndecl) {
			walk->indirect = true;
			break;		/* indirect: the pointer is used, walk it */
		}
		note_ref(walk, fndecl);
		record_call(walk, *tp, fndecl);
		walk_call_operands(*tp, walk);
		*walk_subtrees = 0;
		break;
	case DECL_EXPR:
		/* A declaration, not a use (initializers are walked in their BIND_EXPR). */
		if (TREE_CODE(DECL_EXPR_DECL(*tp)) != TYPE_DECL)
			*walk_subtrees = 0;
		break;
	case FUNCTION_DECL:
		alloctag_note_use(*tp);
		note_ref(walk, *tp);
		if (alloctag_opts.auto_tag)
			alloctag_wrapper_address_taken(*tp);
		break;
	default:
		if (TYPE_P(*tp))
			*walk_subtrees = 0;
		else if (is_other_call(*tp) && !called_function(TREE_OPERAND(*tp, 1)))
			walk->indirect = true;
		else
			alloctag_walk_member_pointer(*tp, walk_generic, walk);	/* &A::f: f is used */
		break;
	}
	return NULL_TREE;
}

static void record_generic_calls(tree fndecl)
{
	struct generic_walk walk;
	cgraph_node *node = cgraph_node::get(fndecl);

	walk.calls = vNULL;
	walk.shared = NULL;
	walk.arguments = NULL;
	walk.indirect = false;
	if (DECL_SAVED_TREE(fndecl))
		walk_tree(&DECL_SAVED_TREE(fndecl), walk_generic, &walk, NULL);
	delete walk.shared;
	delete walk.arguments;
	if (!walk.calls.is_empty())
		generic_calls->put(DECL_UID(fndecl), walk.calls);
	if (alloctag_opts.auto_tag && DECL_SAVED_TREE(fndecl))
		alloctag_note_body(fndecl, walk.refs.address(), walk.refs.length(), walk.indirect);
	/* PLUGIN_PRE_GENERICIZE is not run for nested functions: they come with the outer one. */
	for (cgraph_node *n = node ? first_nested_function(node) : NULL; n; n = next_nested_function(n))
		record_generic_calls(n->decl);
}

/* PLUGIN_PRE_GENERICIZE: the tagged calls of a function, before gimplification,
 * the other uses of tagged functions, and with auto what it calls. */
void alloctag_record_generic_calls(void *event_data, void *)
{
	if (!generic_calls)
		generic_calls = new generic_call_map;
	if (!alloctag_tagged_functions().is_empty() || alloctag_any_named())
		record_generic_calls((tree)event_data);
}

static bool same_site(location_t a, location_t b, tree caller)
{
	struct alloctag_site sa = alloctag_site_of(a, caller, NULL);
	struct alloctag_site sb = alloctag_site_of(b, caller, NULL);

	return sa.line == sb.line && !strcmp(sa.file, sb.file);
}

static vec<generic_call> *generic_calls_of(function *fun)
{
	return generic_calls ? generic_calls->get(DECL_UID(fun->decl)) : NULL;
}

static bool same_location(location_t a, location_t b)
{
	return get_pure_location(a) == get_pure_location(b);
}

/*
 * Where CALL, one of the tagged CALLS of FUN, is written: its GENERIC
 * location, when the gimplifier gave it its enclosing call's and no other
 * call to the same function has that location.  An indirect call keeps the
 * location it has.
 */
static location_t written_call_location(function *fun, const vec<gcall *> &calls, gcall *call)
{
	vec<generic_call> *generic = generic_calls_of(fun);
	tree callee = gimple_call_fndecl(call);
	location_t loc = gimple_location(call);
	struct generic_call *g, *found = NULL;
	unsigned int i, n = 0;
	gcall *other;

	callee = callee ? alloctag_tagged_callee(callee) : NULL_TREE;
	if (!generic || !callee)
		return loc;
	FOR_EACH_VEC_ELT(calls, i, other)
		if (other != call && gimple_call_fndecl(other)
		    && alloctag_tagged_callee(gimple_call_fndecl(other)) == callee
		    && same_location(gimple_location(other), loc))
			return loc;
	FOR_EACH_VEC_ELT(*generic, i, g)
		if (g->callee == callee && same_location(g->given, loc))
			found = g, n++;
	return n == 1 ? found->loc : loc;
}

/*
 * The GENERIC calls of CALLER that are not among the CALLS left in its
 * GIMPLE.  Matched by site and callee: the gimplifier may give a call
 * another column (that of the return statement it is in).
 */
static void forget_calls_left(vec<generic_call> *generic, const vec<gcall *> &calls, tree caller)
{
	struct generic_call *g;
	unsigned int i, j;
	gcall *call;

	FOR_EACH_VEC_ELT(calls, i, call)
		FOR_EACH_VEC_ELT(*generic, j, g)
			if (gimple_call_fndecl(call)
			    && g->callee == alloctag_tagged_callee(gimple_call_fndecl(call))
			    && same_site(g->given, gimple_location(call), caller)) {
				generic->unordered_remove(j);
				break;
			}
}

/* The tag of a call in code that was dropped: it exists, its counters stay zero. */
static void tag_dropped_call(const struct generic_call *g, tree caller)
{
	struct call_to_tag c = { g->loc, caller, g->callee, call_target(g->callee, caller),
				 TREE_TYPE(g->callee), callee_name(g->callee, NULL), true, false };
	const struct alloctag_runtime *rt;

	rt = c.variant ? runtime_for(&c, flags_from_decl_or_type(g->callee)) : NULL;
	if (rt)
		site_tag(rt, &c);
}

/* Tags for the tagged calls of FUN's GENERIC body that its GIMPLE (CALLS) lost. */
static void tag_dropped_calls(function *fun, const vec<gcall *> &calls)
{
	vec<generic_call> *generic = generic_calls_of(fun);
	struct generic_call *g;
	unsigned int i;

	if (!generic)
		return;
	forget_calls_left(generic, calls, fun->decl);
	FOR_EACH_VEC_ELT(*generic, i, g)
		tag_dropped_call(g, fun->decl);
	generic->release();
	generic_calls->remove(DECL_UID(fun->decl));
}

/*
 * Once per translation unit, at the pass's first function, when every
 * declaration is known and before the symbol table is finalized: the
 * aliases other units call (foo_noprof of a foo defined here, called or
 * not), and the function types whose indirect calls are tagged.
 */
static void start_unit(void)
{
	alloctag_define_public_aliases();
	alloctag_collect_indirect_types();
	alloctag_callers_resolve();
}

/* A call to tag: to a tagged function, or implied (alloctag_callers.c). */
struct tagged_call {
	gcall *call;
	bool implied;
};

/*
 * CALL from CALLER to CALLEE gets an implied tag (alloctag_callers.c); not
 * one that returns twice, which a save and restore around it cannot follow
 * (said of a tagged call, not here: nothing was asked).
 */
static bool implied_call(tree caller, const gcall *call, tree callee)
{
	return !(gimple_call_flags(call) & ECF_RETURNS_TWICE)
	       && alloctag_implied_callee(caller, callee);
}

/*
 * The calls of FUN to tag: direct ones to tagged functions, indirect ones
 * of a tagged type, and the implied ones; and those that return twice
 * (RETURNS_TWICE), after which the tag current before them is made
 * current again (alloctag_setjmp.c).
 */
static void collect_calls(function *fun, vec<tagged_call> *calls, vec<gcall *> *returns_twice)
{
	basic_block bb;

	FOR_EACH_BB_FN(bb, fun) {
		for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
			gcall *call = dyn_cast<gcall *>(gsi_stmt(gsi));
			tree callee = call ? gimple_call_fndecl(call) : NULL_TREE;
			struct tagged_call t = { call, false };
			bool tagged;

			if (!call)
				continue;
			if (gimple_call_flags(call) & ECF_RETURNS_TWICE)
				returns_twice->safe_push(call);
			if (!callee)
				tagged = alloctag_indirect_tagged(call);
			else
				tagged = alloctag_tagged_callee(callee);
			if (!tagged && callee)
				t.implied = implied_call(fun->decl, call, callee);
			if (tagged || t.implied)
				calls->safe_push(t);
		}
	}
}

static void rewrite_function(function *fun)
{
	auto_vec<tagged_call> calls;
	auto_vec<gcall *> explicit_calls, returns_twice;
	auto_vec<location_t> written;
	struct tagged_call *t;
	gcall *call;
	unsigned int i;

	/*
	 * A program's own operator new is the allocator the new expressions'
	 * tags charge through, as the C library's malloc is: it is left as it
	 * is written, to be inlined as in a plain build (where its malloc meets
	 * operator delete's free, and GCC finds them matched).
	 */
	if (alloctag_is_new_operator(fun->decl))
		return;
	/* Collect first: rewriting inserts statements and may split edges. */
	collect_calls(fun, &calls, &returns_twice);
	FOR_EACH_VEC_ELT(calls, i, t)
		if (!t->implied)
			explicit_calls.safe_push(t->call);
	written.reserve_exact(calls.length());
	FOR_EACH_VEC_ELT(calls, i, t)
		written.quick_push(t->implied ? gimple_location(t->call)
				   : written_call_location(fun, explicit_calls, t->call));
	tag_dropped_calls(fun, explicit_calls);
	FOR_EACH_VEC_ELT(calls, i, t) {
		tree callee = gimple_call_fndecl(t->call);

		if (t->implied)
			rewrite_call(t->call, callee, fun->decl, written[i], true);
		else
			rewrite_call(t->call, callee ? alloctag_tagged_callee(callee) : NULL_TREE,
				     fun->decl, written[i], false);
	}
	FOR_EACH_VEC_ELT(returns_twice, i, call)
		alloctag_keep_tag_across(call);
}

namespace {

const pass_data alloctag_rewrite_pass_data = alloctag_gimple_pass_data("alloctag");

class alloctag_rewrite_pass : public gimple_opt_pass {
public:
	alloctag_rewrite_pass(gcc::context *ctxt)
		: gimple_opt_pass(alloctag_rewrite_pass_data, ctxt) {}

	bool gate(function *) final override
	{
		return !alloctag_tagged_functions().is_empty() || alloctag_any_named()
		       || alloctag_any_indirect();
	}

	unsigned int execute(function *fun) final override
	{
		if (!unit_started) {
			unit_started = true;
			start_unit();
		}
		rewrite_function(fun);
		return 0;
	}

private:
	bool unit_started = false;	/* start_unit() done: one pass object per unit */
};

} /* namespace */

opt_pass *make_alloctag_rewrite_pass(gcc::context *ctxt)
{
	return new alloctag_rewrite_pass(ctxt);
}
