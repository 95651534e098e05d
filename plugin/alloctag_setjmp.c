// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the tag current at a setjmp made current again at its second
 * return.
 *
 * Before:				After:
 *	...				  ...
 *					  old = alloctag_current;   on each way into the
 *								    setjmp's block but
 *								    its second return
 *	r = setjmp(env);		  r = setjmp(env);
 *					  restore(NULL, old);	    on its normal edge
 *	...				  ...
 *
 * A longjmp out of a tagged call (an xmalloc that jumps to an error handler,
 * Lua's luaD_throw under an allocation wrapper) skips the call's restore:
 * its tag would stay current on the thread, and by the outermost rule every
 * later allocation of the thread would be charged to it.  So at every call
 * that returns twice (setjmp, sigsetjmp, vfork, getcontext, ...: its flags
 * say so) the tag current when it was first called is made current again
 * after it returns, the first time and after a longjmp alike.
 *
 * The current tag is read before the call, in the blocks that lead to it:
 * a call that returns twice starts its block, and the abnormal edge that
 * models its second return (from the function's abnormal dispatcher)
 * enters that block, so what the block held before the call would be run
 * again at the second return.  old is set there and never after: C keeps
 * such a variable across a longjmp, and GCC keeps it live across the
 * abnormal edge.  It is read as a plain load, not with save(NULL), which
 * would leave it current too, under both rules, but tests it under the
 * outermost: that test and the save of a tagged call before it test one
 * value, GCC threads jumps through both and copies that call, and a
 * variable of the program set on both copies and live across the setjmp
 * gets GCC 11's -Wclobbered at -O2.  Written back with the restore hook,
 * as after a tagged call.  The way an exception leaves the call needs
 * nothing: the tag was not changed before it.
 *
 * Only where the runtime is liballoctag's (alloctag_find_user_runtime():
 * its current tag is a variable), found without a word: a unit with no
 * hooks, or with the kernel's (whose code has no setjmp), compiles as it
 * did, and nothing is said.
 */
#include "alloctag_plugin.h"

/* old = the current tag */
static gimple *read_current(const struct alloctag_runtime *rt, tree old)
{
	return gimple_build_assign(old, rt->current);
}

/* restore(NULL, old) or restore(old): old made current. */
static gcall *make_current(const struct alloctag_runtime *rt, tree old)
{
	if (rt->restore_takes_tag) {
		tree tag_ptr = TREE_VALUE(TYPE_ARG_TYPES(TREE_TYPE(rt->restore)));

		return gimple_build_call(rt->restore, 2, build_int_cst(tag_ptr, 0), old);
	}
	return gimple_build_call(rt->restore, 1, old);
}

/* CALL is the first statement of its block, its labels and debug statements aside. */
static bool starts_its_block(gcall *call)
{
	gimple_stmt_iterator gsi = gsi_start_nondebug_after_labels_bb(gimple_bb(call));

	return !gsi_end_p(gsi) && gsi_stmt(gsi) == call;
}

/*
 * E enters a block at the second return of the call that returns twice
 * there: from the block GCC makes every abnormal edge of its function (or
 * OpenMP region) go through, its abnormal dispatcher.
 */
static bool second_return(edge e)
{
	gimple_stmt_iterator gsi = gsi_last_nondebug_bb(e->src);

	return (e->flags & EDGE_ABNORMAL) && !gsi_end_p(gsi)
	       && gimple_call_internal_p(gsi_stmt(gsi), IFN_ABNORMAL_DISPATCHER);
}

/*
 * The edges INTO the block CALL starts that its first call comes by: all
 * but its second returns.  False if there is none, or one that no
 * statement can be put on (abnormal: an OpenMP loop's body starts with the
 * call; EH).
 */
static bool ways_in(gcall *call, vec<edge> *into)
{
	edge e;
	edge_iterator ei;

	FOR_EACH_EDGE(e, ei, gimple_bb(call)->preds) {
		if (second_return(e))
			continue;
		if (e->flags & EDGE_COMPLEX)
			return false;
		into->safe_push(e);
	}
	return !into->is_empty();
}

/* STMT on each edge of INTO, collected first: inserting on an edge may split it. */
static void insert_on_edges(const vec<edge> &into, gimple *stmt)
{
	edge e;
	unsigned int i;

	FOR_EACH_VEC_ELT(into, i, e)
		gsi_insert_on_edge_immediate(e, i + 1 < into.length() ? gimple_copy(stmt) : stmt);
}

/* STMT after CALL: on its normal edge if CALL ends its block. */
static void insert_after(gcall *call, gimple *stmt)
{
	gimple_stmt_iterator gsi;
	edge e;

	if (!stmt_ends_bb_p(call)) {
		gsi = gsi_for_stmt(call);
		gsi_insert_after(&gsi, stmt, GSI_SAME_STMT);
		return;
	}
	e = find_fallthru_edge(gimple_bb(call)->succs);
	if (e)
		gsi_insert_on_edge_immediate(e, stmt);
}

/*
 * CALL, which returns twice, leaves the tag current when it was first
 * called current after each return: true if it does now, false if it was
 * left as it is: no liballoctag runtime, a call that does not start its
 * block (never seen), one reached by an edge no statement can be put on
 * (the first of an OpenMP loop's body: there a tag a longjmp left stays
 * current), or one that never returns normally.
 */
bool alloctag_keep_tag_across(gcall *call)
{
	location_t loc = gimple_location(call);
	const struct alloctag_runtime *rt;
	auto_vec<edge> into;
	gimple *stmt;
	tree old;

	if (!starts_its_block(call) || !ways_in(call, &into) || gimple_call_noreturn_p(call)
	    || (stmt_ends_bb_p(call) && !find_fallthru_edge(gimple_bb(call)->succs)))
		return false;
	rt = alloctag_find_user_runtime(loc);
	if (!rt)
		return false;
	old = create_tmp_var(TYPE_MAIN_VARIANT(TREE_TYPE(rt->current)), "alloctag_jmp_old");

	stmt = read_current(rt, old);
	gimple_set_location(stmt, loc);
	insert_on_edges(into, stmt);

	stmt = make_current(rt, old);
	gimple_set_location(stmt, loc);
	insert_after(call, stmt);
	free_dominance_info(CDI_DOMINATORS);
	return true;
}
