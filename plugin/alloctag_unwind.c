// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: the tag given back when an exception leaves a tagged call.
 *
 * Before:					After:
 *	old = save(&tag);			  old = save(&tag);
 *	p = foo_noprof(a);	EH -> L1	  p = foo_noprof(a);	EH -> L2
 *	restore(&tag, old);			  restore(&tag, old);
 *	...					  ...
 *					  L2:	  restore(&tag, old);
 *						  resx;			EH -> L1
 *	L1: the handler (or none: the		L1: ...
 *	    caller's)
 *
 * Without it, an exception thrown through the call (std::string::substr's
 * out_of_range under an implied tag, operator new's bad_alloc) would leave
 * the call's tag current: by the outermost rule, every later allocation of
 * the thread would be charged to it.  The pass runs after EH lowering, so
 * the cleanup is made as lowering makes a try/finally's: a cleanup region
 * inside the call's own region (or at the function's top when the call
 * has none), whose landing pad restores the tag and resumes unwinding to
 * the call's old landing pad, or out of the function.  No cleanup for a
 * call that cannot throw (C without -fexceptions: its code is unchanged),
 * nor in a must-not-throw region (noexcept: the exception ends the program).
 *
 * Nor under -fanalyzer, whose diagnostics must be plain GCC's: GCC 12's
 * follows the new EH edge as if the call had returned, with an unknown
 * value, and warns of a NULL dereference after operator new where the
 * plain build has none.  There a tag stays current after an exception.
 */
#include "alloctag_plugin.h"

/* The EH edge of BB, or NULL. */
static edge eh_edge(basic_block bb)
{
	edge e;
	edge_iterator ei;

	FOR_EACH_EDGE(e, ei, bb->succs)
		if (e->flags & EDGE_EH)
			return e;
	return NULL;
}

/*
 * The loop of a landing pad between FROM and TO, the handler it resumes
 * unwinding to (NULL: the caller's): the innermost that holds both.
 */
static class loop *loop_between(basic_block from, basic_block to)
{
	if (!to)
		return loops_for_fn(cfun)->tree_root;
	return find_common_loop(from->loop_father, to->loop_father);
}

/*
 * A landing pad of REGION in a block of its own after AFTER: RESTORE, then
 * resx, which resumes unwinding at OUTER_LP (0: out of the function) in
 * block HANDLER (or NULL).
 */
static eh_landing_pad landing_pad(eh_region region, basic_block after, gimple *restore,
				  int outer_lp, basic_block handler)
{
	eh_landing_pad lp = gen_eh_landing_pad(region);
	location_t loc = gimple_location(restore);
	tree label = create_artificial_label(loc);
	basic_block pad = create_empty_bb(after);
	gimple_stmt_iterator gsi = gsi_start_bb(pad);
	gresx *resx = gimple_build_resx(region->index);

	lp->post_landing_pad = label;
	EH_LANDING_PAD_NR(label) = lp->index;
	pad->count = profile_count::zero();
	if (current_loops)
		add_bb_to_loop(pad, loop_between(after, handler));
	gimple_set_location(resx, loc);
	gsi_insert_after(&gsi, gimple_build_label(label), GSI_NEW_STMT);
	gsi_insert_after(&gsi, gimple_copy(restore), GSI_NEW_STMT);
	gsi_insert_after(&gsi, resx, GSI_NEW_STMT);
	if (outer_lp)
		add_stmt_to_eh_lp(resx, outer_lp);
	return lp;
}

/*
 * CALL, tagged and followed by RESTORE, gets RESTORE on the way an
 * exception leaves it too: true if it may throw, and now ends its block.
 */
bool alloctag_restore_on_unwind(gcall *call, gimple *restore)
{
	int outer_lp = lookup_stmt_eh_lp(call);
	basic_block bb = gimple_bb(call), pad;
	eh_region outer = NULL;
	eh_landing_pad lp;
	edge to_handler;

	if (flag_analyzer || outer_lp < 0 || !stmt_could_throw_p(cfun, call))
		return false;
	if (outer_lp > 0)
		outer = get_eh_landing_pad_from_number(outer_lp)->region;
	else if (!stmt_ends_bb_p(call))
		split_block(bb, call);
	to_handler = eh_edge(bb);
	lp = landing_pad(gen_eh_region_cleanup(outer), bb, restore, outer_lp,
			to_handler ? to_handler->dest : NULL);
	pad = label_to_block(cfun, lp->post_landing_pad);
	if (outer_lp)
		remove_stmt_from_eh_lp(call);
	add_stmt_to_eh_lp(call, lp->index);
	if (to_handler) {		/* the old landing pad: now the resx's */
		pad->count = to_handler->count();
		make_edge(pad, to_handler->dest, EDGE_EH)->probability = profile_probability::always();
		redirect_edge_succ(to_handler, pad);
	} else {
		make_edge(bb, pad, EDGE_EH)->probability = profile_probability::never();
	}
	free_dominance_info(CDI_DOMINATORS);
	return true;
}
