// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: tagged calls that call a GCC built-in (malloc, calloc, strdup,
 * ...), and whether the hooks' stores survive around them.
 *
 * Tagging malloc under its own name, or emitted as malloc_noprof
 * (alloctag_variant.c), keeps the call what it was, the built-in, for every
 * later pass: -Wuninitialized on fresh heap memory,
 * -fanalyzer's leak, NULL and double-free checks, -Wmismatched-dealloc,
 * object sizes, the deletion of an unused malloc/free pair.  But GCC knows
 * that the built-in reads no memory but its arguments, so around
 *
 *	current = &tag;		(save)
 *	p = malloc(n);
 *	current = old;		(restore)
 *
 * the save's store is dead to it, and deleted: the allocation is charged to
 * whatever tag was current before.  A volatile store is never deleted nor
 * moved across the call (alloctag.h's ALLOCTAG_SET_CURRENT).  So a tagged
 * call may call a built-in only if the hooks make their stores to memory
 * volatile: a plain assignment to memory that is not the hook's own local,
 * in a hook or in a function it calls that GCC can see, is an error, once,
 * where it is written.  A hook GCC cannot see the body of (declared only)
 * is a call that may read anything, which keeps its stores.
 */
#include "alloctag_plugin.h"
#include "gimple-walk.h"

struct store_scan {
	tree fn;			/* the function scanned */
	hash_set<tree> *visited;
	location_t where;		/* of the plain store found */
	tree in;			/* ... in this function */
};

static bool scan_function(tree fn, struct store_scan *scan);

/* A store to LHS, in FN, that GCC may delete: to memory, not volatile. */
static bool plain_store(tree lhs, tree fn)
{
	tree base;

	if (TREE_THIS_VOLATILE(lhs) || TYPE_VOLATILE(TREE_TYPE(lhs)))
		return false;
	base = get_base_address(lhs);
	if (!base)
		return true;
	if (TREE_CODE(base) == SSA_NAME || TREE_CODE(base) == RESULT_DECL
	    || TREE_CODE(base) == PARM_DECL)
		return false;
	return !(VAR_P(base) && auto_var_in_fn_p(base, fn));
}

static bool found(struct store_scan *scan, location_t loc)
{
	scan->where = loc != UNKNOWN_LOCATION ? loc : DECL_SOURCE_LOCATION(scan->fn);
	scan->in = scan->fn;
	return true;
}

/* A function called: scanned in its turn, with its own locals. */
static bool scan_callee(tree callee, struct store_scan *scan)
{
	tree caller = scan->fn;
	bool bad;

	if (!callee)
		return false;
	bad = scan_function(callee, scan);
	scan->fn = caller;
	return bad;
}

static tree generic_store(tree *tp, int *walk_subtrees, void *data)
{
	struct store_scan *scan = (struct store_scan *)data;
	tree t = *tp;

	switch (TREE_CODE(t)) {
	case MODIFY_EXPR:
	case INIT_EXPR:
	case PREINCREMENT_EXPR:
	case PREDECREMENT_EXPR:
	case POSTINCREMENT_EXPR:
	case POSTDECREMENT_EXPR:
		if (plain_store(TREE_OPERAND(t, 0), scan->fn) && found(scan, EXPR_LOCATION(t)))
			return t;
		break;
	case CALL_EXPR:
		if (scan_callee(get_callee_fndecl(t), scan))
			return t;
		break;
	default:
		if (TYPE_P(t))
			*walk_subtrees = 0;
		break;
	}
	return NULL_TREE;
}

static bool gimple_plain_store(gimple *stmt, struct store_scan *scan)
{
	tree lhs = gimple_get_lhs(stmt);

	if (lhs && plain_store(lhs, scan->fn) && found(scan, gimple_location(stmt)))
		return true;
	return is_gimple_call(stmt) && scan_callee(gimple_call_fndecl(stmt), scan);
}

static tree gimple_store(gimple_stmt_iterator *gsi, bool *handled, struct walk_stmt_info *wi)
{
	*handled = false;
	return gimple_plain_store(gsi_stmt(*gsi), (struct store_scan *)wi->info)
	       ? integer_one_node : NULL_TREE;
}

/* FN's body, in whatever form it has reached: GENERIC, GIMPLE, a CFG. */
static bool scan_function(tree fn, struct store_scan *scan)
{
	function *f = DECL_STRUCT_FUNCTION(fn);

	if (scan->visited->add(fn))
		return false;
	scan->fn = fn;
	if (f && f->cfg) {
		basic_block bb;

		FOR_EACH_BB_FN(bb, f)
			for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
				if (gimple_plain_store(gsi_stmt(gsi), scan))
					return true;
		return false;
	}
	if (gimple_body(fn)) {
		struct walk_stmt_info wi;

		memset(&wi, 0, sizeof(wi));
		wi.info = scan;
		return walk_gimple_seq(gimple_body(fn), gimple_store, NULL, &wi);
	}
	return DECL_SAVED_TREE(fn)
	       && walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), generic_store, scan);
}

/*
 * Whether the hooks of RT keep their stores around a call to the built-in
 * BUILTIN, which a tagged call to CALLEE at CALL_LOC calls.  Found once per
 * unit; the first call told why not.
 */
bool alloctag_hooks_survive_builtin(const struct alloctag_runtime *rt, tree builtin,
				    tree callee, location_t call_loc)
{
	static enum { UNKNOWN, SAFE, UNSAFE } state;

	if (state == UNKNOWN) {
		hash_set<tree> visited;
		struct store_scan scan = { NULL_TREE, &visited, UNKNOWN_LOCATION, NULL_TREE };

		state = scan_function(rt->save, &scan) || scan_function(rt->restore, &scan)
			? UNSAFE : SAFE;
		if (state == UNSAFE) {
			error_at(scan.where, "%qD makes a plain store, which GCC deletes around a "
				 "call to the built-in %qD (it reads no memory GCC knows of): the "
				 "allocation would be charged to another tag", scan.in, builtin);
			if (callee == builtin)
				inform(call_loc, "%qD is tagged here under its own name", callee);
			else
				inform(call_loc, "%qD is tagged here and calls %qD", callee, builtin);
			inform(call_loc, "make the hooks' stores volatile, as %<alloctag.h%>'s "
			       "are, or give %qD an untagged variant that is not a built-in", callee);
		}
	}
	return state == SAFE;
}
