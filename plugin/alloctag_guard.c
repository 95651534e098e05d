// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: a tag made current only while a predicate holds (enabled=NAME),
 * as Linux 7's alloc_hooks_tag() does with mem_alloc_profiling_enabled(),
 * a static key:
 *
 * Before:				After:
 *	p = foo(a);			  if (NAME()) {
 *					    old = alloc_tag_save(&tag);
 *					    p = foo_noprof(a);
 *					    alloc_tag_restore(&tag, old);
 *					  } else
 *					    p = foo_noprof(a);
 *
 * The call is written twice, as the macro writes it: the same code, and the
 * same static branch per site (the jump label a module's loader allocates
 * entries for); its result, a variable both define, read after they join.
 * A call that can throw gets its landing pad on both paths,
 * and its restore on the normal (not EH) edge of the tagged one.  A call that
 * does not return, or has abnormal edges (a setjmp receiver in its
 * function), is tagged unguarded: there is no path to join.
 */
#include "alloctag_plugin.h"

/* CALL has an edge that is neither its normal edge nor an EH edge. */
static bool has_abnormal_edge(gcall *call)
{
	edge e;
	edge_iterator ei;

	FOR_EACH_EDGE(e, ei, gimple_bb(call)->succs)
		if (e->flags & EDGE_ABNORMAL)
			return true;
	return false;
}

/* The block that starts with CALL, split from what comes before it. */
static basic_block block_of_its_own(gcall *call)
{
	basic_block bb = gimple_bb(call);
	gimple_stmt_iterator gsi = gsi_for_stmt(call);

	gsi_prev(&gsi);
	while (!gsi_end_p(gsi) && is_gimple_debug(gsi_stmt(gsi)))
		gsi_prev(&gsi);
	if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) == GIMPLE_LABEL)
		return split_block_after_labels(bb)->dest;
	return split_block(bb, gsi_stmt(gsi))->dest;
}

/* The edge CALL's block goes on by when CALL returns; its block ends with it. */
static edge return_edge(gcall *call)
{
	if (!stmt_ends_bb_p(call))
		return split_block(gimple_bb(call), call);
	return find_fallthru_edge(gimple_bb(call)->succs);
}

static basic_block new_block_after(basic_block after, profile_count count)
{
	basic_block bb = create_empty_bb(after);

	bb->count = count;
	if (current_loops)
		add_bb_to_loop(bb, after->loop_father);
	return bb;
}

/* BB's statements end with STMT. */
static void append(basic_block bb, gimple *stmt)
{
	gimple_stmt_iterator gsi = gsi_last_bb(bb);

	gsi_insert_after(&gsi, stmt, GSI_NEW_STMT);
}

/* if (PRED()) at the end of BB, its location LOC. */
static void append_test(basic_block bb, tree pred, location_t loc)
{
	gcall *test = gimple_build_call(pred, 0);
	tree holds = create_tmp_var(TREE_TYPE(TREE_TYPE(pred)), "alloctag_enabled");
	gcond *cond = gimple_build_cond(NE_EXPR, holds, build_zero_cst(TREE_TYPE(holds)),
					NULL_TREE, NULL_TREE);

	gimple_call_set_lhs(test, holds);
	gimple_set_location(test, loc);
	gimple_set_location(cond, loc);
	append(bb, test);
	append(bb, cond);
}

/*
 * The result of CALL, when the gimplifier made it an SSA name (a temporary:
 * "_1 = foo (); a = _1;"), which the two calls cannot both define: they
 * define a variable instead, and the name takes its value where the paths
 * join, at the start of JOIN.  JOIN must have no other predecessor.
 */
static void result_at_join(gcall *call, basic_block join)
{
	tree lhs = gimple_call_lhs(call);
	gimple_stmt_iterator gsi = gsi_after_labels(join);
	tree var;

	if (!lhs || TREE_CODE(lhs) != SSA_NAME)
		return;
	var = create_tmp_var(TREE_TYPE(lhs), "alloctag_result");
	gimple_call_set_lhs(call, var);
	gsi_insert_before(&gsi, gimple_build_assign(lhs, var), GSI_SAME_STMT);
}

/*
 * CALL (its callee already the one to call) tagged by SAVE and RESTORE
 * only while PRED() holds; false, and nothing changed, when it cannot be
 * (the caller then tags it unguarded).
 */
bool alloctag_guard(gcall *call, tree pred, gimple *save, gimple *restore)
{
	if (!restore || gimple_call_noreturn_p(call) || has_abnormal_edge(call))
		return false;

	basic_block callbb = block_of_its_own(call);
	edge before = single_pred_edge(callbb);
	basic_block test = before->src, join = split_edge(return_edge(call));
	profile_probability on = profile_probability::likely();
	profile_count all = callbb->count;
	basic_block tagged = new_block_after(test, all.apply_probability(on));
	int lp = lookup_stmt_eh_lp(call);
	gcall *copy;

	result_at_join(call, join);
	copy = as_a<gcall *>(gimple_copy(call));

	append_test(test, pred, gimple_location(call));
	before->flags = (before->flags & ~EDGE_FALLTHRU) | EDGE_FALSE_VALUE;
	before->probability = on.invert();
	callbb->count = all.apply_probability(on.invert());
	make_edge(test, tagged, EDGE_TRUE_VALUE)->probability = on;

	append(tagged, save);
	append(tagged, copy);
	if (lp) {	/* the copy ends its block: the restore on its normal edge */
		add_stmt_to_eh_lp(copy, lp);
		alloctag_make_eh_edge(copy);
		basic_block after = new_block_after(tagged, tagged->count);

		make_single_succ_edge(tagged, after, EDGE_FALLTHRU);
		tagged = after;
	}
	append(tagged, restore);
	make_single_succ_edge(tagged, join, EDGE_FALLTHRU);
	free_dominance_info(CDI_DOMINATORS);
	return true;
}
