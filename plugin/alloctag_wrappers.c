// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: allocation wrappers, found by the compiler (the auto argument).
 *
 * A wrapper returns what an allocation gave it, and keeps no other copy:
 *
 *	void *xmalloc(size_t n)		char *xstrdup(const char *s)
 *	{				{
 *		void *p = malloc(n);		size_t n = strlen(s) + 1;
 *		if (!p)				return memcpy(xmalloc(n), s, n);
 *			die();		}
 *		return p;
 *	}
 *
 * Its callers' lines are what asked: calls to it get a tag of their own,
 * as calls to a function tagged under its own name do (alloctag_callers.c).
 *
 * A value is fresh when it is the result of a call to a tagged function or
 * to a wrapper; or a fresh value passed through memcpy and its kind (which
 * return their first argument) or through an identity function of the
 * unit (one that returns only a parameter of its own, unchanged, and keeps
 * it nowhere else: gnulib's nonnull()); or a pointer into a fresh block
 * (p + n, &p->f, h->data past a header, mmalloca's aligned p); or the value
 * of a local pointer variable or parameter one of whose values is fresh.  A
 * function returning a pointer is a wrapper when one of the values it
 * returns may be fresh (its other returns are not asked about: pma_malloc
 * returns malloc's blocks or its own heap's), from variables none of which
 * escapes.
 *
 * The scan follows the function's own pointers whose address is not taken,
 * and its own integers, into which an address may be read (uintptr_t u =
 * (uintptr_t)p, to align it; their values are never fresh).  A variable
 * escapes when one of its values, or a value made of it, is
 *   - stored anywhere but in another such variable: a global, a field, its
 *     own block even (*p = p), an initializer ({ p }, { c ? p : 0 },
 *     { (q = p) }); or an integer's address taken (&u), but for
 *     __builtin_add_overflow()'s result;
 *   - handed to a function that may keep it: any but the C library's that
 *     keep nothing (keeps_nothing(): free, realloc, reallocarray, memcpy,
 *     strlen, printf, ...) and the unit's functions returning a pointer whose parameter
 *     escapes nowhere by these same rules (xrealloc(p, n); not push(head,
 *     v), which links head into the new node) and another unit's that the
 *     list says keep nothing of that argument; any other function of
 *     another unit, a tagged one without its body here, a call through a
 *     pointer may;
 *   - returned by a call it was handed to, as the call's value may be it
 *     (memcpy's, nonnull's) or point into its block (stpcpy's): that value
 *     goes under the same rules (last = memcpy(p, s, n) keeps p), unless
 *     the call returns a count (returns_count(): strlen, printf);
 *   - out of the scan's sight: held directly by a node it does not know,
 *     given to one that is no statement (an asm), or reached by a nested
 *     function (GNU C).
 * A value made of it: a pointer into its block (p + n, &p->f); any
 * arithmetic, for an integer's value; but at most a few low bits of a
 * number (u & 15, a byte) cannot hold an address, and go anywhere:
 * mmalloca stores its offset in the block.  What a variable's value is
 * copied into, escaping, makes it escape too.  Harmless: comparing it,
 * testing it, returning it, reading or writing through it (p->next = NULL,
 * s[n] = 0: a constructor is a wrapper).
 *
 * Never a wrapper, whatever it returns: a function called through a
 * pointer, where no caller gets a tag and the tag current is charged (its
 * address taken in a body or in any variable's initializer: a table of
 * functions, C++'s &A::f; a C++ virtual function, in the vtable); and one
 * with nested functions, which may keep or change what its variables hold
 * out of the scan's sight (its parameters count as kept).
 *
 * Decided from each function's GENERIC body (alloctag_wrapper_shape(),
 * from alloctag_rewrite.c's walk before gimplification), so that every
 * function of the unit is known before the pass rewrites the first
 * (alloctag_wrappers_resolve()): first which parameters each function
 * keeps, then which functions are wrappers, each a least fixpoint over the
 * unit, so that a parameter is kept only where some path keeps it, and a
 * recursive wrapper needs a way out that allocates.
 *
 * Across units, a list (wrappers-file=FILE; alloctag-cc's ALLOCTAG_WRAPPERS):
 * each unit reads the wrappers the units compiled before it wrote, and
 * writes its own public ones in place of what it wrote before, each with
 * the external functions it is a wrapper through ("xstrdup xmemdup": a
 * wrapper if xmemdup is one) and the pointer arguments it keeps no copy of
 * by the unit alone ("xrealloc @0").  A first build writes it; a second
 * build reads all of it.  Without the list, only wrappers of the unit are
 * found.
 */
#include "alloctag_plugin.h"
#include <sys/file.h>

/*
 * Through how many calls a value is followed, nonnull(memcpy(p, ...)) two;
 * through more, it escapes.
 */
#define MAX_HOPS 4

struct hop {
	tree fn;	/* a function a value is handed to, whose value may be it ... */
	int arg;	/* ... as this argument */
};

/* One way a value may be fresh. */
struct way {
	tree call;		/* the result of a call to this function, or NULL_TREE: */
	int var;		/* ... the value of this variable */
	unsigned int nhops;
	struct hop hops[MAX_HOPS];	/* then passed through these, outermost first */
};

/* VAR is passed to FN as argument ARG: harmless if FN keeps no copy. */
struct use {
	int var;
	tree fn;
	int arg;
};

/* A value of VAR. */
struct def {
	int var;
	struct way way;
};

/* What a function's body says of the pointers it returns. */
struct shape {
	tree fndecl;
	vec<struct way> returns;
	vec<struct def> defs;
	vec<struct use> uses;
	vec<bool> escapes;	/* by variable: kept or used beyond the rules */
	vec<bool> numbers;	/* by variable: an integer's, never fresh */
	vec<int> params;	/* by parameter: its variable, or -1 (not followed: kept) */
	vec<bool> settled;	/* escapes, with what the functions it calls keep */
	vec<bool> kept;		/* by parameter: settled, it keeps or hands it on */
	vec<bool> own_kept;	/* kept, by the unit alone, without the list */
	int identity;		/* returns only this parameter, or -1 */
	bool nested;		/* it has nested functions, which reach its locals */
	bool wrapper;
	bool by_pointer;	/* shaped as a wrapper, but called through a pointer */
	bool own;		/* a wrapper by the unit alone, without the list */
};

static vec<struct shape *> shapes;
static hash_map<tree, struct shape *> *shape_of;	/* FUNCTION_DECL -> its shape */
static hash_set<tree> *address_taken;

/* The wrappers of other units (the list): name -> external names it is one through. */
static hash_map<nofree_string_hash, vec<const char *> > *listed;
static hash_set<nofree_string_hash> *listed_wrappers;
/* ... name -> the arguments it keeps no copy of (bit K: argument K, below MAX_LISTED_ARG) */
static hash_map<nofree_string_hash, unsigned long long> *listed_free;
#define MAX_LISTED_ARG 64
static const char *list_file;
static bool without_list;	/* wrappers as the unit alone makes them */

/* --- The shape of a body ------------------------------------------------- */

/* Where the value of an expression goes while a body is scanned. */
enum flow {
	NOWHERE,	/* a statement's, a condition's, a few low bits: nothing is kept */
	ESCAPES,	/* kept, passed on, written through: the rest */
	INTO,		/* a variable's def (a pointer's or an integer's) or the return */
};
struct ctx {
	enum flow flow;
	int target;		/* INTO: a variable's def (>= 0), or the return (-1) */
	struct way way;		/* the calls the value is passed to on its way there */
};

struct scan {
	struct shape *shape;
	hash_map<tree, int> *vars;	/* local variables and parameters -> index */
};

/*
 * At most this many bits of a number cannot hold an address: the
 * remainder of an alignment (u & 15), a byte stored in the block.
 */
#define LOW_BITS 16

static tree strip(tree t)
{
	while (CONVERT_EXPR_P(t) || TREE_CODE(t) == NON_LVALUE_EXPR
	       || TREE_CODE(t) == VIEW_CONVERT_EXPR)
		t = TREE_OPERAND(t, 0);
	return t;
}

static int tracked(struct scan *s, tree t)
{
	int *index = s->vars->get(strip(t));

	return index ? *index : -1;
}

/*
 * The variables whose values the scan follows: the function's own pointers
 * whose address is not taken, and its own integers, which an address may be
 * read into (uintptr_t u = (uintptr_t)p, to align it), even those whose
 * address is taken for __builtin_add_overflow(): any other &u escapes.
 */
static void track(struct scan *s, tree var, tree fndecl)
{
	bool pointer;

	/* Not every declaration has a type: C++'s block-scope using std::swap; */
	if (TREE_CODE(var) != VAR_DECL && TREE_CODE(var) != PARM_DECL)
		return;
	pointer = POINTER_TYPE_P(TREE_TYPE(var));
	if (DECL_CONTEXT(var) == fndecl && !TREE_STATIC(var) && !DECL_EXTERNAL(var)
	    && ((pointer && !TREE_ADDRESSABLE(var)) || INTEGRAL_TYPE_P(TREE_TYPE(var)))
	    && !s->vars->get(var)) {
		s->vars->put(var, s->shape->escapes.length());
		s->shape->escapes.safe_push(false);
		s->shape->numbers.safe_push(!pointer);
	}
}

static tree collect_vars(tree *tp, int *walk_subtrees, void *data)
{
	struct scan *s = (struct scan *)data;

	if (TREE_CODE(*tp) == BIND_EXPR)
		for (tree v = BIND_EXPR_VARS(*tp); v; v = DECL_CHAIN(v))
			track(s, v, s->shape->fndecl);
	else if (TREE_CODE(*tp) == DECL_EXPR)
		track(s, DECL_EXPR_DECL(*tp), s->shape->fndecl);
	else if (TYPE_P(*tp))
		*walk_subtrees = 0;
	return NULL_TREE;
}

static struct ctx nowhere(void)
{
	struct ctx c = {};

	c.flow = NOWHERE;
	return c;
}

static struct ctx escaping(void)
{
	struct ctx c = {};

	c.flow = ESCAPES;
	return c;
}

static struct ctx into(int target)
{
	struct ctx c = {};

	c.flow = INTO;
	c.target = target;
	return c;
}

static void add_way(struct scan *s, const struct ctx *c, struct way way)
{
	if (c->target < 0) {
		s->shape->returns.safe_push(way);
	} else {
		struct def d = { c->target, way };

		s->shape->defs.safe_push(d);
	}
}

/* A number of at most LOW_BITS bits. */
static bool narrow(tree type)
{
	return INTEGRAL_TYPE_P(type) && TYPE_PRECISION(type) <= LOW_BITS;
}

/* E keeps at most LOW_BITS bits of its operand: u & 15, u % 16. */
static bool low_bits(tree e)
{
	tree mask;

	if (TREE_CODE(e) != BIT_AND_EXPR && TREE_CODE(e) != TRUNC_MOD_EXPR)
		return false;
	mask = TREE_OPERAND(e, 1);
	if (TREE_CODE(mask) != INTEGER_CST && TREE_CODE(e) == BIT_AND_EXPR)
		mask = TREE_OPERAND(e, 0);
	return TREE_CODE(mask) == INTEGER_CST && tree_int_cst_sgn(mask) >= 0
	       && compare_tree_int(mask, HOST_WIDE_INT_1U << LOW_BITS) < 0;
}

/*
 * E without its conversions; C goes nowhere if one of them keeps at most
 * LOW_BITS bits (a byte stored: ((unsigned char *)p)[-1] = offset).
 */
static tree strip_into(tree e, struct ctx *c)
{
	while (CONVERT_EXPR_P(e) || TREE_CODE(e) == NON_LVALUE_EXPR
	       || TREE_CODE(e) == VIEW_CONVERT_EXPR) {
		if (CONVERT_EXPR_P(e) && narrow(TREE_TYPE(e)))
			*c = nowhere();
		e = TREE_OPERAND(e, 0);
	}
	return e;
}

/* Arithmetic: its value is made of its operands' and nothing else. */
static bool arithmetic(tree e)
{
	return TREE_CODE(e) < NUM_TREE_CODES
	       && (UNARY_CLASS_P(e) || BINARY_CLASS_P(e) || TREE_CODE(e) == REALPART_EXPR
		   || TREE_CODE(e) == IMAGPART_EXPR);
}

/*
 * C is a pointer's def or the return: arithmetic other than p + n gives
 * no value of a variable's there (an integer's may be any arithmetic).
 */
static bool into_pointer(struct scan *s, const struct ctx *c)
{
	return c->flow == INTO && (c->target < 0 || !s->shape->numbers[c->target]);
}

/* VAR reaches C: handed to each function on its way, then where C goes. */
static void var_in(struct scan *s, int var, const struct ctx *c)
{
	for (unsigned int i = 0; i < c->way.nhops; i++) {
		struct use u = { var, c->way.hops[i].fn, c->way.hops[i].arg };

		s->shape->uses.safe_push(u);
	}
	if (c->flow == ESCAPES) {
		s->shape->escapes[var] = true;
	} else if (c->flow == INTO) {
		struct way w = c->way;

		w.call = NULL_TREE;
		w.var = var;
		add_way(s, c, w);
	}
}

static void scan(struct scan *s, tree e, struct ctx c);

/*
 * FN returns a count, never what it was given: its arguments go no further.
 * Any other call's value may be an argument (memcpy's, nonnull's), or point
 * into its block (stpcpy's, mempcpy's).
 */
static bool returns_count(tree fn)
{
	if (!fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return false;
	switch (DECL_FUNCTION_CODE(fn)) {
	case BUILT_IN_STRLEN:
	case BUILT_IN_PRINTF:
	case BUILT_IN_FPRINTF:
	case BUILT_IN_SPRINTF:
	case BUILT_IN_SNPRINTF:
		return true;
	default:
		return false;
	}
}

/*
 * Argument I of a call to FN (NULL_TREE: through a pointer) whose value goes
 * to C: handed to FN, then, as the call's value may be it, where the call's
 * value goes.
 */
static void scan_argument(struct scan *s, tree arg, tree fn, int i, const struct ctx *c)
{
	struct ctx a;

	if (!fn || (!returns_count(fn) && c->way.nhops == MAX_HOPS)) {
		scan(s, arg, escaping());
		return;
	}
	a = returns_count(fn) ? nowhere() : *c;
	a.way.hops[a.way.nhops].fn = fn;
	a.way.hops[a.way.nhops].arg = i;
	a.way.nhops++;
	scan(s, arg, a);
}

/*
 * __builtin_add_overflow(a, b, &r) and its kind (gnulib's INT_ADD_WRAPV),
 * r an integer of the function: r = a + b, nothing else is done with &r.
 * (The front ends fold it into the internal call below, and r = REALPART.)
 */
static bool scan_overflow(struct scan *s, tree call, tree fn)
{
	tree result;
	int var;

	if (!fndecl_built_in_p(fn, BUILT_IN_ADD_OVERFLOW) && !fndecl_built_in_p(fn, BUILT_IN_SUB_OVERFLOW)
	    && !fndecl_built_in_p(fn, BUILT_IN_MUL_OVERFLOW))
		return false;
	result = strip(CALL_EXPR_ARG(call, 2));
	if (TREE_CODE(result) != ADDR_EXPR)
		return false;
	var = tracked(s, TREE_OPERAND(result, 0));
	if (var < 0)
		return false;
	scan(s, CALL_EXPR_ARG(call, 0), into(var));
	scan(s, CALL_EXPR_ARG(call, 1), into(var));
	return true;
}

/* .ADD_OVERFLOW (a, b) and its kind: arithmetic, {a + b, overflowed}. */
static bool arithmetic_internal_call(tree call)
{
	if (CALL_EXPR_FN(call))
		return false;
	switch (CALL_EXPR_IFN(call)) {
	case IFN_ADD_OVERFLOW:
	case IFN_SUB_OVERFLOW:
	case IFN_MUL_OVERFLOW:
		return true;
	default:
		return false;
	}
}

static void scan_call(struct scan *s, tree call, const struct ctx *c)
{
	tree fn = get_callee_fndecl(call);

	if (fn && scan_overflow(s, call, fn))
		return;
	if (arithmetic_internal_call(call)) {
		for (int i = 0; i < call_expr_nargs(call); i++)
			scan(s, CALL_EXPR_ARG(call, i), into_pointer(s, c) ? escaping() : *c);
		return;
	}

	if (fn && c->flow == INTO) {
		struct way w = c->way;

		w.call = fn;
		w.var = -1;
		add_way(s, c, w);
		alloctag_root_tree(fn);
	}
	if (!fn)
		scan(s, CALL_EXPR_FN(call), nowhere());
	for (int i = 0; i < call_expr_nargs(call); i++)
		scan_argument(s, CALL_EXPR_ARG(call, i), fn, i, c);
}

/* LHS = RHS, whose value goes to C. */
static void scan_assignment(struct scan *s, tree lhs, tree rhs, const struct ctx *c)
{
	int var = tracked(s, lhs);

	if (var >= 0) {
		scan(s, rhs, into(var));
		var_in(s, var, c);	/* (p = malloc(n)) == NULL */
	} else if (TREE_CODE(strip(lhs)) == RESULT_DECL) {
		scan(s, rhs, into(-1));
	} else {
		scan(s, lhs, escaping());
		scan(s, rhs, escaping());
	}
}

/* A node the scan does not know, and where what is below it goes. */
struct unknown {
	struct scan *s;
	tree node;
	struct ctx below;
};

static tree scan_unknown_operand(tree *tp, int *walk_subtrees, void *data)
{
	struct unknown *u = (struct unknown *)data;
	int var = tracked(u->s, *tp);

	if (*tp == u->node)
		return NULL_TREE;
	*walk_subtrees = 0;
	if (var >= 0)
		u->s->shape->escapes[var] = true;
	else if (!TYPE_P(*tp))
		scan(u->s, *tp, u->below);
	return NULL_TREE;
}

/*
 * A statement whose operands are statements, or conditions: a front end's
 * own (C++'s EXPR_STMT, IF_STMT, CLEANUP_STMT, ...: no value), or GENERIC's
 * try and catch.  Not an asm or an OpenMP construct, which hand what they
 * are given to what the scan cannot follow.
 */
static bool statement(tree e)
{
	switch (TREE_CODE(e)) {
	case TRY_CATCH_EXPR:
	case TRY_FINALLY_EXPR:
	case CATCH_EXPR:
	case EH_FILTER_EXPR:
		return true;
	default:
		return TREE_CODE(e) >= NUM_TREE_CODES && (!TREE_TYPE(e) || VOID_TYPE_P(TREE_TYPE(e)));
	}
}

/*
 * A node the scan does not know (the C++ front end's statements and
 * expressions, a C compound literal, an asm, ...), whose value goes to C:
 * any variable it holds directly escapes; what is below a statement is
 * scanned as statements, and so is what is below a list of them (a node of
 * no type) whose value goes nowhere; anything else below escapes, as the
 * node's value may be made of it (AGGR_INIT_EXPR) or the node may keep it
 * (an asm's operands).
 */
static void scan_unknown(struct scan *s, tree e, const struct ctx *c)
{
	struct unknown u = { s, e, escaping() };

	if (statement(e) || (TREE_CODE_CLASS(TREE_CODE(e)) == tcc_exceptional && !TREE_TYPE(e)
			     && c->flow == NOWHERE))
		u.below = nowhere();
	walk_tree(&e, scan_unknown_operand, &u, NULL);
}

static void scan_operands(struct scan *s, tree e, struct ctx c)
{
	for (int i = 0; i < TREE_OPERAND_LENGTH(e); i++)
		if (TREE_OPERAND(e, i))
			scan(s, TREE_OPERAND(e, i), c);
}

/*
 * ADDR is read or written through (*p, p->f, p[i]: p or p + i): the
 * variable's block is used, not kept.
 */
static void scan_address(struct scan *s, tree addr)
{
	addr = strip(addr);
	if (TREE_CODE(addr) == POINTER_PLUS_EXPR && tracked(s, TREE_OPERAND(addr, 0)) >= 0) {
		scan(s, TREE_OPERAND(addr, 1), escaping());
		return;
	}
	if (tracked(s, addr) < 0)
		scan(s, addr, escaping());
}

/*
 * &REF, whose value goes to C: a pointer into the block REF is reached
 * through (&p->f, &p->v[i], &*p) goes where it goes, as p + n does, its
 * indices with it; the address of anything else (a local, a global) is
 * none of the scan's blocks, but an integer's own (&u) lets it escape.
 */
static void scan_address_of(struct scan *s, tree ref, const struct ctx *c)
{
	while (handled_component_p(ref)) {
		for (int i = 1; i < TREE_OPERAND_LENGTH(ref); i++)
			scan(s, TREE_OPERAND(ref, i), *c);
		ref = TREE_OPERAND(ref, 0);
	}
	if (TREE_CODE(ref) == INDIRECT_REF || TREE_CODE(ref) == MEM_REF)
		scan(s, TREE_OPERAND(ref, 0), *c);
	else
		scan(s, ref, escaping());
}

static void scan(struct scan *s, tree e, struct ctx c)
{
	unsigned int i;
	tree value;
	int var;

	if (!e)
		return;
	e = strip_into(e, &c);
	var = tracked(s, e);
	if (var >= 0) {
		var_in(s, var, &c);
		return;
	}
	if (DECL_P(e) || CONSTANT_CLASS_P(e) || TYPE_P(e))
		return;
	switch (TREE_CODE(e)) {
	case CALL_EXPR:
		scan_call(s, e, &c);
		break;
	case MODIFY_EXPR:
	case INIT_EXPR:
		scan_assignment(s, TREE_OPERAND(e, 0), TREE_OPERAND(e, 1), &c);
		break;
	case DECL_EXPR:
		var = tracked(s, DECL_EXPR_DECL(e));
		if (var >= 0)
			scan(s, DECL_INITIAL(DECL_EXPR_DECL(e)), into(var));
		else if (VAR_P(DECL_EXPR_DECL(e)) && !TREE_STATIC(DECL_EXPR_DECL(e)))
			scan(s, DECL_INITIAL(DECL_EXPR_DECL(e)), escaping());
		break;
	case BIND_EXPR:
		scan(s, BIND_EXPR_BODY(e), nowhere());
		break;
	case STATEMENT_LIST:
		for (tree_stmt_iterator i = tsi_start(e); !tsi_end_p(i); tsi_next(&i))
			scan(s, tsi_stmt(i), nowhere());
		break;
	case RETURN_EXPR:
	case SAVE_EXPR:
	case LOOP_EXPR:
	case TRUTH_NOT_EXPR:
	case TRUTH_ANDIF_EXPR:
	case TRUTH_ORIF_EXPR:
	case TRUTH_AND_EXPR:
	case TRUTH_OR_EXPR:
	case TRUTH_XOR_EXPR:
		scan_operands(s, e, TREE_CODE(e) == SAVE_EXPR ? c : nowhere());
		break;
	case COND_EXPR:
		scan(s, COND_EXPR_COND(e), nowhere());
		scan(s, COND_EXPR_THEN(e), c);
		scan(s, COND_EXPR_ELSE(e), c);
		break;
	case COMPOUND_EXPR:
		scan(s, TREE_OPERAND(e, 0), nowhere());
		scan(s, TREE_OPERAND(e, 1), c);
		break;
	case POINTER_PLUS_EXPR:
		/* p + n: a pointer into p's block, a value of p's (mmalloca's aligned p) */
		scan(s, TREE_OPERAND(e, 0), c);
		scan(s, TREE_OPERAND(e, 1), c);
		break;
	case ADDR_EXPR:
		scan_address_of(s, TREE_OPERAND(e, 0), &c);
		break;
	case INDIRECT_REF:
	case MEM_REF:
		scan_address(s, TREE_OPERAND(e, 0));
		for (int i = 1; i < TREE_OPERAND_LENGTH(e); i++)
			scan(s, TREE_OPERAND(e, i), escaping());
		break;
	case CONSTRUCTOR:
		/* { p }, { c ? p : 0 }: its elements are kept where it is */
		FOR_EACH_CONSTRUCTOR_VALUE(CONSTRUCTOR_ELTS(e), i, value)
			scan(s, value, c.flow == NOWHERE ? nowhere() : escaping());
		break;
	case SWITCH_EXPR:
		scan(s, SWITCH_COND(e), nowhere());
		scan(s, SWITCH_BODY(e), nowhere());
		break;
	case LABEL_EXPR:
	case GOTO_EXPR:
	case CASE_LABEL_EXPR:
	case PREDICT_EXPR:
		break;
	default:
		if (COMPARISON_CLASS_P(e) || low_bits(e))
			scan_operands(s, e, nowhere());
		else if (arithmetic(e))
			scan_operands(s, e, into_pointer(s, &c) ? escaping() : c);
		else if (TREE_CODE(e) < NUM_TREE_CODES
			 && (EXPRESSION_CLASS_P(e) || REFERENCE_CLASS_P(e)
			     || UNARY_CLASS_P(e) || BINARY_CLASS_P(e)))
			scan_operands(s, e, escaping());
		else
			scan_unknown(s, e, &c);
		break;
	}
}

static bool returns_pointer(tree fndecl)
{
	return POINTER_TYPE_P(TREE_TYPE(TREE_TYPE(fndecl)));
}

/*
 * GNU C's nested functions, which the scan does not see into, may keep or
 * change what the function's variables hold (void keep(void) { last = p; }).
 */
static bool has_nested_functions(tree fndecl)
{
	cgraph_node *node = cgraph_node::get(fndecl);

	return node && first_nested_function(node);
}

/*
 * A function of the unit, from its GENERIC body (PLUGIN_PRE_GENERICIZE):
 * what it returns and what its variables do, for alloctag_wrappers_resolve().
 */
void alloctag_wrapper_shape(tree fndecl)
{
	struct scan s;

	if (!returns_pointer(fndecl) || !DECL_SAVED_TREE(fndecl) || DECL_ARTIFICIAL(fndecl)
	    || in_system_header_at(DECL_SOURCE_LOCATION(fndecl)))
		return;
	if (!shape_of)
		shape_of = new hash_map<tree, struct shape *>;
	s.shape = XCNEW(struct shape);
	s.shape->fndecl = fndecl;
	s.shape->identity = -1;
	s.shape->nested = has_nested_functions(fndecl);
	s.vars = new hash_map<tree, int>;
	for (tree p = DECL_ARGUMENTS(fndecl); p; p = DECL_CHAIN(p)) {
		track(&s, p, fndecl);
		s.shape->params.safe_push(tracked(&s, p));
	}
	walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), collect_vars, &s);
	scan(&s, DECL_SAVED_TREE(fndecl), nowhere());
	if (s.shape->nested)	/* its parameters too: kept, as far as is known */
		for (unsigned int i = 0; i < s.shape->escapes.length(); i++)
			s.shape->escapes[i] = true;
	delete s.vars;
	shapes.safe_push(s.shape);
	shape_of->put(fndecl, s.shape);
	alloctag_root_tree(fndecl);
}

/*
 * A function of the unit whose address is taken (not called): never a
 * wrapper.  Said by alloctag_rewrite.c's walk of the bodies, and by
 * note_initializers().
 */
void alloctag_wrapper_address_taken(tree fndecl)
{
	if (!address_taken)
		address_taken = new hash_set<tree>;
	address_taken->add(fndecl);
	alloctag_root_tree(fndecl);
}

static tree note_address(tree *tp, int *walk_subtrees, void *)
{
	if (TREE_CODE(*tp) == FUNCTION_DECL)
		alloctag_wrapper_address_taken(*tp);
	else if (TYPE_P(*tp))
		*walk_subtrees = 0;
	else
		alloctag_walk_member_pointer(*tp, note_address, NULL);	/* &A::f */
	return NULL_TREE;
}

/*
 * The functions whose address a variable's initializer takes, outside any
 * body (a table of functions at file scope, a static one's): every
 * variable of the unit is known when the unit is resolved, as the pass
 * runs once the front end has parsed it all.
 */
static void note_initializers(void)
{
	varpool_node *v;

	FOR_EACH_VARIABLE(v)
		if (DECL_INITIAL(v->decl))
			walk_tree_without_duplicates(&DECL_INITIAL(v->decl), note_address, NULL);
}

/* --- Which functions are wrappers -------------------------------------- */

static struct shape *shape(tree fndecl)
{
	struct shape **s = shape_of ? shape_of->get(fndecl) : NULL;

	return s ? *s : NULL;
}

/* An external function's name, as the linker sees it (the list's, the C library's). */
const char *alloctag_symbol_name(tree fndecl)
{
	const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));

	return name[0] == '*' ? name + 1 : name;
}

static bool external(tree fndecl)
{
	return TREE_PUBLIC(fndecl) && !shape(fndecl);
}

static bool is_listed(tree fndecl)
{
	return listed_wrappers && !without_list && external(fndecl)
	       && listed_wrappers->contains(alloctag_symbol_name(fndecl));
}

bool alloctag_is_wrapper(tree fndecl)
{
	struct shape *s = shape(fndecl);

	return s ? s->wrapper : is_listed(fndecl);
}

/* A call to FN gives a fresh value. */
static bool allocates(tree fn)
{
	return alloctag_tagged_callee(fn) || alloctag_is_wrapper(fn);
}

/* memcpy and its kind: they return their first argument and keep no pointer. */
static bool returns_destination(tree fn)
{
	if (!fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return false;
	switch (DECL_FUNCTION_CODE(fn)) {
	case BUILT_IN_MEMCPY:
	case BUILT_IN_MEMMOVE:
	case BUILT_IN_MEMSET:
	case BUILT_IN_STRCPY:
	case BUILT_IN_STRNCPY:
	case BUILT_IN_STRCAT:
	case BUILT_IN_STRNCAT:
		return true;
	default:
		return false;
	}
}

static bool passes_through(const struct hop *h)
{
	struct shape *s = shape(h->fn);

	return (returns_destination(h->fn) && h->arg == 0) || (s && s->identity == h->arg);
}

/* S keeps or hands on its argument ARG (as far as is settled). */
static bool keeps(const struct shape *s, int arg)
{
	return arg >= (int)s->params.length() || s->params[arg] < 0 || s->kept[arg];
}

/*
 * The C library's functions without a GCC built-in that keep nothing
 * given: its allocating ones of runtime/alloctag-libc.tags (open_memstream
 * keeps the pointers it is given).
 */
static bool keeps_nothing_by_name(tree fn)
{
	static const char *const names[] = {
		"reallocarray", "wcsdup", "asprintf", "vasprintf", "getline", "getdelim",
		"realpath", "getcwd", "canonicalize_file_name", "tempnam",
	};

	if (!DECL_NAME(fn) || !TREE_PUBLIC(fn) || !in_system_header_at(DECL_SOURCE_LOCATION(fn)))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (id_equal(DECL_NAME(fn), names[i]))
			return true;
	return false;
}

/* The C library's functions that keep no copy of a pointer they are given. */
static bool keeps_nothing(tree fn)
{
	if (!fndecl_built_in_p(fn, BUILT_IN_NORMAL))
		return keeps_nothing_by_name(fn);
	switch (DECL_FUNCTION_CODE(fn)) {
	case BUILT_IN_FREE:
	case BUILT_IN_REALLOC:
	case BUILT_IN_STRDUP:
	case BUILT_IN_STRNDUP:
	case BUILT_IN_STPCPY:
	case BUILT_IN_STPNCPY:
	case BUILT_IN_MEMPCPY:
	case BUILT_IN_STRLEN:
	case BUILT_IN_BZERO:
	case BUILT_IN_PRINTF:	/* a wrapper that says what it allocated */
	case BUILT_IN_FPRINTF:
	case BUILT_IN_SPRINTF:
	case BUILT_IN_SNPRINTF:
		return true;
	default:
		return returns_destination(fn);
	}
}

/* FN is of another unit, whose entry in the list says it keeps no copy of argument ARG. */
static bool listed_keeps_nothing(tree fn, int arg)
{
	unsigned long long *args;

	if (!listed_free || without_list || !external(fn) || arg >= MAX_LISTED_ARG)
		return false;
	args = listed_free->get(alloctag_symbol_name(fn));
	return args && (*args >> arg & 1);
}

/*
 * Handing a pointer to FN as argument ARG keeps no copy of it: FN is a
 * function of the unit that keeps none of that argument, one of the C
 * library's that keep none, or one of another unit that keeps none as the
 * list says (xrealloc(p, n)).  Any other (of another unit, a tagged one
 * without a body here: push(head) may keep head) may.
 */
static bool harmless_use(tree fn, int arg)
{
	struct shape *s = shape(fn);

	return s ? !keeps(s, arg) : keeps_nothing(fn) || listed_keeps_nothing(fn, arg);
}

/* S->settled: the variables of S that keep or hand on what they hold. */
static void settle_escapes(struct shape *s)
{
	struct use *u;
	struct def *d;
	unsigned int i;
	bool changed = true;

	s->settled.truncate(0);
	s->settled.safe_splice(s->escapes);
	FOR_EACH_VEC_ELT(s->uses, i, u)
		if (!harmless_use(u->fn, u->arg))
			s->settled[u->var] = true;
	/* What a variable holds, the variables copied into it hold too. */
	while (changed) {
		changed = false;
		FOR_EACH_VEC_ELT(s->defs, i, d)
			if (s->settled[d->var] && d->way.var >= 0 && !s->settled[d->way.var]) {
				s->settled[d->way.var] = true;
				changed = true;
			}
	}
}

/*
 * Which parameters each function of the unit keeps: the least fixpoint
 * (none, then each whose variable escapes with those found so far), so
 * that what recursion hands around without keeping is not kept.
 */
static void settle_kept(void)
{
	bool changed = true;
	struct shape *s;
	unsigned int i;

	FOR_EACH_VEC_ELT(shapes, i, s) {
		s->kept.truncate(0);
		s->kept.safe_grow_cleared(s->params.length());
	}
	while (changed) {
		changed = false;
		FOR_EACH_VEC_ELT(shapes, i, s) {
			settle_escapes(s);
			for (unsigned int k = 0; k < s->params.length(); k++)
				if (!s->kept[k] && s->params[k] >= 0 && s->settled[s->params[k]]) {
					s->kept[k] = true;
					changed = true;
				}
		}
	}
}

/*
 * The parameter S returns, alone and as it was given, keeping no copy of
 * it (gnulib's nonnull()), or -1.
 */
static int identity_parameter(struct shape *s)
{
	struct way *w;
	struct def *d;
	unsigned int i;
	int var;

	if (s->returns.is_empty() || s->returns[0].call || s->returns[0].var < 0)
		return -1;
	var = s->returns[0].var;
	FOR_EACH_VEC_ELT(s->returns, i, w)
		if (w->call || w->nhops || w->var != var)
			return -1;
	FOR_EACH_VEC_ELT(s->defs, i, d)
		if (d->var == var)
			return -1;
	for (unsigned int k = 0; k < s->params.length(); k++)
		if (s->params[k] == var)
			return s->kept[k] ? -1 : (int)k;
	return -1;
}

static bool fresh_way(const struct way *w, const vec<bool> &fresh_vars)
{
	for (unsigned int i = 0; i < w->nhops; i++)
		if (!passes_through(&w->hops[i]))
			return false;
	return w->call ? allocates(w->call) : fresh_vars[w->var];
}

/*
 * S is no wrapper, whatever it returns: called through a pointer (its
 * address taken, or a C++ virtual function, called through the vtable), no
 * caller would get a tag; or its variables are out of the scan's sight.
 */
static bool never_wrapper(struct shape *s)
{
	return (address_taken && address_taken->contains(s->fndecl)) || DECL_VIRTUAL_P(s->fndecl)
	       || s->nested;
}

/* S may return a fresh value, with the wrappers known so far, wrapper or not. */
static bool may_return_fresh(struct shape *s)
{
	auto_vec<bool> fresh;
	struct way *w;
	struct def *d;
	unsigned int i;
	bool changed = true;

	fresh.safe_grow_cleared(s->settled.length());
	while (changed) {
		changed = false;
		FOR_EACH_VEC_ELT(s->defs, i, d)
			if (!fresh[d->var] && !s->settled[d->var] && !s->numbers[d->var]
			    && fresh_way(&d->way, fresh)) {
				fresh[d->var] = true;
				changed = true;
			}
	}
	FOR_EACH_VEC_ELT(s->returns, i, w)
		if (fresh_way(w, fresh))
			return true;
	return false;
}

/* S returns a fresh value, with the wrappers known so far. */
static bool returns_fresh(struct shape *s)
{
	return !never_wrapper(s) && may_return_fresh(s);
}

/*
 * FNDECL is shaped as a wrapper but called through a pointer (Lua's
 * l_alloc, a table of allocation hooks): an allocator, through which the
 * tag current is charged, as through a wrapper, but which no caller tags.
 * Settled with the wrappers (settle()).
 */
bool alloctag_allocator_by_pointer(tree fndecl)
{
	struct shape *s = shape(fndecl);

	return s && s->by_pointer;
}

/* --- The list of other units' wrappers ----------------------------------- */

/* The unit's name in the list: the main input file, absolute. */
static char *unit_name(void)
{
	char cwd[4096];

	if (IS_ABSOLUTE_PATH(main_input_filename) || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(main_input_filename);
	return concat(cwd, "/", main_input_filename, NULL);
}

/* "UNIT\tNAME [THROUGH...]" lines; those of UNIT are left out (NULL: none). */
static void read_list(FILE *f, const char *unit, vec<char *> *others)
{
	char *line = NULL;
	size_t size = 0;

	while (getline(&line, &size, f) > 0) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || !tab)
			continue;
		if (unit && (size_t)(tab - line) == strlen(unit) && !strncmp(line, unit, tab - line))
			continue;
		others->safe_push(xstrdup(line));
	}
	free(line);
}

#define LIST_BLANKS "\n "	/* between the words of an entry */

/* The bit of argument K of a word "@K" of the list, or 0 if the word is not one. */
static unsigned long long listed_arg_bit(const char *word)
{
	char *end;
	long arg = strtol(word + 1, &end, 10);

	return end != word + 1 && !*end && arg >= 0 && arg < MAX_LISTED_ARG ? 1ULL << arg : 0;
}

/*
 * An entry of the list: NAME, what it is a wrapper through, and "@K" for
 * each argument K it keeps no copy of (an entry of a unit compiled again
 * and again says the same of it; two units' of one name: what both say).
 */
static void add_listed(char *line)
{
	char *save = NULL, *name = strtok_r(strchr(line, '\t') + 1, LIST_BLANKS, &save);
	vec<const char *> through = vNULL;
	unsigned long long args = 0;
	bool existed;

	if (!name)
		return;
	for (char *t = strtok_r(NULL, LIST_BLANKS, &save); t; t = strtok_r(NULL, LIST_BLANKS, &save)) {
		if (t[0] != '@')
			through.safe_push(t);
		else
			args |= listed_arg_bit(t);
	}
	unsigned long long &free_slot = listed_free->get_or_insert(name, &existed);
	free_slot = existed ? free_slot & args : args;
	vec<const char *> &slot = listed->get_or_insert(name, &existed);
	if (existed && (slot.is_empty() || through.is_empty())) {
		slot.release();		/* a wrapper by itself, in one unit at least */
		through.release();
	} else if (existed) {
		slot.safe_splice(through);
		through.release();
	} else {
		slot = through;
	}
}

/* The names of the list that are wrappers: by themselves, or through one that is. */
static void settle_listed(void)
{
	bool changed = true;

	listed_wrappers = new hash_set<nofree_string_hash>;
	while (changed) {
		changed = false;
		for (auto it = listed->begin(); it != listed->end(); ++it) {
			const char *name = (*it).first;
			vec<const char *> &through = (*it).second;
			bool wrapper = through.is_empty();

			for (unsigned int i = 0; !wrapper && i < through.length(); i++)
				wrapper = listed_wrappers->contains(through[i]);
			if (wrapper && !listed_wrappers->add(name))
				changed = true;
		}
	}
}

/*
 * wrappers-file=FILE: read what other units wrote (a file that does not
 * exist yet is an empty list); this unit's entries are written after the
 * unit is resolved.
 */
bool alloctag_add_wrappers_file(const char *file, const char *option)
{
	vec<char *> lines = vNULL;
	FILE *f;

	if (!strcmp(lang_hooks.name, "GNU GIMPLE"))	/* lto1: nothing to rewrite */
		return true;
	list_file = file;
	listed = new hash_map<nofree_string_hash, vec<const char *> >;
	listed_free = new hash_map<nofree_string_hash, unsigned long long>;
	f = fopen(file, "r");
	if (!f && errno != ENOENT) {
		error("%<%s=%s%>: cannot read it: %m", option, file);
		return false;
	}
	if (f) {
		read_list(f, NULL, &lines);
		bool failed = ferror(f);
		fclose(f);
		if (failed) {
			error("%<%s=%s%>: cannot read it: %m", option, file);
			return false;
		}
	}
	for (unsigned int i = 0; i < lines.length(); i++)
		add_listed(lines[i]);	/* the strings stay: the entries point into them */
	settle_listed();
	lines.release();
	return true;
}

/*
 * The external functions (of the program, not the C library's) S's values
 * come from, directly or through functions of the unit, added to THROUGH
 * once each: S is a wrapper if one of them is.
 */
static void external_sources(struct shape *s, hash_set<tree> *seen, vec<tree> *through);

static void way_sources(const struct way *w, hash_set<tree> *seen, vec<tree> *through)
{
	tree fn = w->call;
	struct shape *s;

	if (!fn || alloctag_tagged_callee(fn))
		return;
	s = shape(fn);
	if (s)
		external_sources(s, seen, through);
	else if (TREE_PUBLIC(fn) && !fndecl_built_in_p(fn)
		 && !in_system_header_at(DECL_SOURCE_LOCATION(fn)) && !through->contains(fn))
		through->safe_push(fn);
}

static void external_sources(struct shape *s, hash_set<tree> *seen, vec<tree> *through)
{
	struct way *w;
	struct def *d;
	unsigned int i;

	if (seen->add(s->fndecl))
		return;
	FOR_EACH_VEC_ELT(s->returns, i, w)
		way_sources(w, seen, through);
	FOR_EACH_VEC_ELT(s->defs, i, d)
		if (!s->numbers[d->var])
			way_sources(&d->way, seen, through);
}

/* ENTRY and " WORD", ENTRY freed. */
static char *append_word(char *entry, const char *word)
{
	char *next = concat(entry, " ", word, NULL);

	free(entry);
	return next;
}

/*
 * "UNIT\tNAME [THROUGH...] [@K...]\n" for a public function of the unit
 * that is a wrapper by the unit alone (no THROUGH), or may be one through
 * external functions, with the pointer arguments K it keeps no copy of by
 * the unit alone; or NULL.  What the list said is not written back: a
 * wrapper through xstrdup stays one only while xstrdup does.
 */
static char *list_entry(struct shape *s, const char *unit)
{
	auto_vec<tree> through;
	hash_set<tree> seen;
	char *entry, number[24];

	if (!TREE_PUBLIC(s->fndecl) || DECL_EXTERNAL(s->fndecl) || never_wrapper(s))
		return NULL;
	if (!s->own)
		external_sources(s, &seen, &through);
	if (!s->own && through.is_empty())
		return NULL;
	entry = concat(unit, "\t", alloctag_symbol_name(s->fndecl), NULL);
	for (unsigned int i = 0; i < through.length(); i++)
		entry = append_word(entry, alloctag_symbol_name(through[i]));
	for (unsigned int k = 0; k < s->params.length() && k < MAX_LISTED_ARG; k++)
		if (s->params[k] >= 0 && !s->numbers[s->params[k]] && !s->own_kept[k]) {
			snprintf(number, sizeof(number), "@%u", k);
			entry = append_word(entry, number);
		}
	char *line = concat(entry, "\n", NULL);
	free(entry);
	return line;
}

/* The list with this unit's entries replaced, under a lock: units compile at once. */
static void write_list(void)
{
	char *unit = unit_name();
	vec<char *> lines = vNULL;
	FILE *f;
	unsigned int i;
	struct shape *s;

	f = fopen(list_file, "a+");
	if (!f || flock(fileno(f), LOCK_EX)) {
		warning(0, "%<-fplugin-arg-alloctag-wrappers-file=%s%>: cannot write it: %m; "
			"the wrappers of this unit are not listed for the others", list_file);
		if (f)
			fclose(f);
		free(unit);
		return;
	}
	rewind(f);
	read_list(f, unit, &lines);
	FOR_EACH_VEC_ELT(shapes, i, s) {
		char *entry = list_entry(s, unit);

		if (entry)
			lines.safe_push(entry);
	}
	if (ftruncate(fileno(f), 0) == 0) {
		fputs("# alloctag: allocation wrappers by unit (UNIT<TAB>NAME [THROUGH...] "
		      "[@ARG...: kept nowhere])\n", f);
		for (i = 0; i < lines.length(); i++)
			fputs(lines[i], f);
	}
	if (fflush(f) || ferror(f))
		warning(0, "%<-fplugin-arg-alloctag-wrappers-file=%s%>: cannot write it: %m",
			list_file);
	fclose(f);	/* and the lock */
	for (i = 0; i < lines.length(); i++)
		free(lines[i]);
	lines.release();
	free(unit);
}

/* The least fixpoint: none, then each whose return may be fresh with those found so far. */
static void settle_wrappers(void)
{
	bool changed = true;
	unsigned int i;
	struct shape *s;

	FOR_EACH_VEC_ELT(shapes, i, s)
		s->wrapper = false;
	while (changed) {
		changed = false;
		FOR_EACH_VEC_ELT(shapes, i, s)
			if (!s->wrapper && returns_fresh(s)) {
				s->wrapper = true;
				changed = true;
			}
	}
}

/* The parameters each function keeps, its identity, then the wrappers. */
static void settle(void)
{
	unsigned int i;
	struct shape *s;

	settle_kept();
	FOR_EACH_VEC_ELT(shapes, i, s)
		s->identity = identity_parameter(s);
	settle_wrappers();
	FOR_EACH_VEC_ELT(shapes, i, s)
		s->by_pointer = !s->nested && never_wrapper(s) && may_return_fresh(s);
}

/*
 * Once per unit, before its first function is rewritten: which functions
 * of the unit are wrappers, by the unit alone (for the list) and with what
 * the list says; the list file updated.
 */
void alloctag_wrappers_resolve(void)
{
	unsigned int i;
	struct shape *s;

	note_initializers();
	if (list_file) {
		without_list = true;
		settle();
		FOR_EACH_VEC_ELT(shapes, i, s) {
			s->own = s->wrapper;
			s->own_kept.safe_splice(s->kept);
		}
		without_list = false;
	}
	settle();
	if (list_file)
		write_list();
}
