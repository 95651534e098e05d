// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag_locate.c: the inlined hooks' parameter copies take the place of
 * the statements around them, as the hooks' own statements do
 * (hooks_take_the_place_of_their_calls() in alloctag_tag.c).
 *
 * Inlining alloc_tag_restore(&_alloc_tag, old) copies its arguments into
 * its parameters first, and GCC before 16 gives those copies no location
 * (at -O0, where they are kept):
 *
 *	realloc_noprof(q, n);		[f.c:7]
 *	tag_8 = &_alloc_tag;		(no location)
 *	old_9 = alloctag_old_3;		(no location)
 *	alloctag_current = old_9;	[f.c:8]
 *
 * A diagnostic GCC gives at the statement after the call (-fanalyzer's leak
 * of a result thrown away) then has no line ("cc1: warning: ...").  After
 * einline, such a copy takes the location of the next located statement of
 * its block, where the plain build's next statement is:
 *
 *	tag_8 = &_alloc_tag;		[f.c:8]
 *	old_9 = alloctag_old_3;		[f.c:8]
 */
#include "alloctag_plugin.h"

/* STMT copies an argument into a parameter of an inlined hook, unlocated. */
static bool unlocated_hook_parameter_copy(gimple *stmt)
{
	tree lhs, var, origin;

	if (!is_gimple_assign(stmt) || gimple_has_location(stmt))
		return false;
	lhs = gimple_assign_lhs(stmt);
	var = TREE_CODE(lhs) == SSA_NAME ? SSA_NAME_VAR(lhs) : lhs;
	if (!var || !VAR_P(var))
		return false;
	origin = DECL_ABSTRACT_ORIGIN(var);
	return origin && TREE_CODE(origin) == PARM_DECL && alloctag_is_hook(DECL_CONTEXT(origin));
}

/* Each such copy of BB gets the location of the next located statement. */
static void locate_block(basic_block bb)
{
	location_t next = UNKNOWN_LOCATION;

	for (gimple_stmt_iterator gsi = gsi_last_bb(bb); !gsi_end_p(gsi); gsi_prev(&gsi)) {
		gimple *stmt = gsi_stmt(gsi);

		if (is_gimple_debug(stmt))
			continue;
		if (gimple_has_location(stmt))
			next = gimple_location(stmt);
		else if (next != UNKNOWN_LOCATION && unlocated_hook_parameter_copy(stmt))
			gimple_set_location(stmt, next);
	}
}

namespace {

const pass_data alloctag_locate_pass_data = alloctag_gimple_pass_data("alloctag_locate");

class alloctag_locate_pass : public gimple_opt_pass {
public:
	alloctag_locate_pass(gcc::context *ctxt)
		: gimple_opt_pass(alloctag_locate_pass_data, ctxt) {}

	bool gate(function *) final override
	{
		return alloctag_hooks_found();
	}

	unsigned int execute(function *fun) final override
	{
		basic_block bb;

		FOR_EACH_BB_FN(bb, fun)
			locate_block(bb);
		return 0;
	}
};

} /* namespace */

opt_pass *make_alloctag_locate_pass(gcc::context *ctxt)
{
	return new alloctag_locate_pass(ctxt);
}
