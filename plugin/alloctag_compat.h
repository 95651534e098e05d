/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * alloctag: GCC's headers, and every difference between the GCC versions the
 * plugin is built for.  Keyed on BUILDING_GCC_VERSION, the version of the GCC
 * whose plugin headers we compile against (the compiler that will load us),
 * never on the host compiler that builds the plugin.
 *
 * The other files reach GCC's internals that change between versions only
 * through the helpers below, so that a port to a new GCC is this file:
 *
 *   tested versions       GCC 11 to 16: older is refused, newer warned about
 *   warning control       alloctag_suppress_unused_warning(),
 *                         alloctag_allow_unused_warning()      GCC 12: suppress_warning()
 *   line maps             alloctag_macro_argument_location(),
 *                         alloctag_macro_expansion_point()     GCC 14: member functions
 *   diagnostics           alloctag_diagnostic_column()        GCC 14, 15, 16: moved each time
 *   the C front end       alloctag_c_decl_used(),
 *                         alloctag_set_c_decl_used()           c-tree.h's C_DECL_USED
 *   the preprocessor      alloctag_macro_node(), alloctag_macro_text()
 *                                                              weak: lto1 has none
 *   the C++ front end     alloctag_expand_member_pointer()    weak: only cc1plus has it
 *   pass data             ALLOCTAG_PASS_PROPERTIES_REQUIRED,
 *                         ALLOCTAG_PASS_TODO_FINISH            GCC 16: TODO_verify_il private
 *
 * What each version was checked against: its plugin headers (Debian's
 * gcc-N-plugin-dev: 11.3, 12.2, 13.3, 14.2, 15.3, 16.2) and the whole
 * testsuite run with it (make check, make check-compilers).
 */
#ifndef ALLOCTAG_COMPAT_H
#define ALLOCTAG_COMPAT_H

#include "bversion.h"
#include "gcc-plugin.h"
#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfg.h"
#include "cgraph.h"
#include "tree-nested.h"
#include "calls.h"
#include "stringpool.h"
#include "attribs.h"
#include "stor-layout.h"
#include "varasm.h"
#include "fold-const.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "gimple-expr.h"
#include "gimplify.h"
#include "tree-iterator.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "except.h"
#include "cfgloop.h"
#include "tree-dump.h"
#include "c-family/c-common.h"	/* must precede diagnostic-core.h */
#include "c-tree.h"
#include "diagnostic-core.h"
#include "diagnostic.h"
#include "intl.h"
#include "langhooks.h"
#include "file-prefix-map.h"
#include "cpplib.h"

#ifndef __visible
#define __visible __attribute__((visibility("default")))
#endif

/*
 * Tested: GCC 11 to 16 (docs/development.md's table says with what).  An older GCC
 * lacks what the plugin uses (nested-function walks, the attribute table
 * layout, warning control): refused here rather than with an error deep in
 * some file.  A newer one builds with a warning: the helpers below use GCC's
 * own names, so an internal that changed fails to compile in this file, and
 * the load-time version check (alloctag_plugin.c) still keeps a plugin from
 * running in a GCC it was not built for; refusing would only make users of
 * a new GCC edit this line.  Run the testsuite with it before trusting it.
 */
#if BUILDING_GCC_VERSION < 11000
#error "alloctag supports GCC 11 to 16 (tested: 11, 12, 13, 14, 15, 16); these plugin headers are of an older GCC"
#elif BUILDING_GCC_VERSION >= 17000
#pragma GCC warning "alloctag is tested with GCC 11 to 16 only, and these plugin headers are of a newer GCC: building anyway (see alloctag_compat.h)"
#endif

/*
 * "Used but never defined" and "declared static but never defined" are
 * silenced per declaration (and allowed again): GCC 12 has
 * warning-control.cc, GCC 11 the TREE_NO_WARNING bit that
 * check_global_declaration() looked at.
 */
#if BUILDING_GCC_VERSION >= 12000
#define alloctag_suppress_unused_warning(decl) suppress_warning((decl), OPT_Wunused)
#define alloctag_allow_unused_warning(decl) suppress_warning((decl), OPT_Wunused, false)
#else
#define alloctag_suppress_unused_warning(decl) (TREE_NO_WARNING(decl) = 1)
#define alloctag_allow_unused_warning(decl) (TREE_NO_WARNING(decl) = 0)
#endif

/*
 * Line maps.  A virtual location (a token of a macro expansion) indexes its
 * macro map, which keeps two locations per token of the expansion: where
 * the token was written (for a token of a macro argument: in the argument,
 * itself maybe virtual) and where it is in the macro's definition; the two
 * are the same for a token of the macro's body.  GCC 14 made the expansion
 * point a member function (the macro was removed).
 */
static inline const line_map_macro *alloctag_macro_map(location_t loc)
{
	return linemap_check_macro(linemap_lookup(line_table, loc));
}

/* Where the token at LOC (virtual) was written in a macro argument, or
 * UNKNOWN_LOCATION when it comes from the macro's body. */
static inline location_t alloctag_macro_argument_location(location_t loc)
{
	enum { WRITTEN, DEFINED, LOCATIONS_PER_TOKEN };	/* the pair of each token */
	const line_map_macro *map = alloctag_macro_map(loc);
	unsigned int token = loc - MAP_START_LOCATION(map);
	const location_t *pair;

	if (token >= MACRO_MAP_NUM_MACRO_TOKENS(map))
		return UNKNOWN_LOCATION;
	pair = MACRO_MAP_LOCATIONS(map) + token * LOCATIONS_PER_TOKEN;
	return pair[WRITTEN] == pair[DEFINED] ? UNKNOWN_LOCATION : pair[WRITTEN];
}

/* Where the macro whose expansion LOC (virtual) is in was used. */
static inline location_t alloctag_macro_expansion_point(location_t loc)
{
#if BUILDING_GCC_VERSION >= 14000
	return alloctag_macro_map(loc)->get_expansion_point_location();
#else
	return MACRO_MAP_EXPANSION_POINT_LOCATION(alloctag_macro_map(loc));
#endif
}

/*
 * The column GCC's diagnostics print for a place (-fdiagnostics-column-unit
 * and -origin, tabs expanded to -ftabstop): a function until GCC 13, a
 * member of the diagnostic context in 14, of a column policy made from it
 * in 15 (diagnostic_column_policy) and 16 (diagnostics::column_policy).
 */
static inline int alloctag_diagnostic_column(expanded_location xloc)
{
#if BUILDING_GCC_VERSION >= 16000
	return diagnostics::column_policy(*global_dc).converted_column(xloc);
#elif BUILDING_GCC_VERSION >= 15000
	return diagnostic_column_policy(*global_dc).converted_column(xloc);
#elif BUILDING_GCC_VERSION >= 14000
	return global_dc->converted_column(xloc);
#else
	return diagnostic_converted_column(global_dc, xloc);
#endif
}

/*
 * The C front end (c-tree.h) marks a static function without a body that
 * is used (called too) C_DECL_USED, and says "used but never defined" of
 * it at the end of the unit; GCC 16 only where the warning is not
 * suppressed.
 */
static inline bool alloctag_c_decl_used(tree fndecl)
{
	return C_DECL_USED(fndecl);
}

static inline void alloctag_set_c_decl_used(tree fndecl, bool used)
{
	C_DECL_USED(fndecl) = used;
}

/*
 * The preprocessor exists in cc1 and cc1plus but not in lto1, which also
 * loads the plugin when -fplugin is on an -flto link line: weak references
 * keep the plugin loadable there (the kernel builds it without the
 * Makefile's objcopy --weaken-symbols).
 */
extern cpp_reader *parse_in __attribute__((weak));
cpp_hashnode *cpp_lookup(cpp_reader *pfile, const unsigned char *str, unsigned int len)
	__attribute__((weak));
const unsigned char *cpp_macro_definition(cpp_reader *pfile, cpp_hashnode *node)
	__attribute__((weak));

/* Macro NAME, or NULL: not a macro, or no preprocessor (lto1). */
static inline cpp_hashnode *alloctag_macro_node(const char *name)
{
	cpp_hashnode *node;

	if (!&parse_in || !parse_in)
		return NULL;
	node = cpp_lookup(parse_in, (const unsigned char *)name, strlen(name));
	return node && cpp_macro_p(node) ? node : NULL;
}

/* A macro's definition as #define would spell it after "#define ": "NAME BODY". */
static inline const char *alloctag_macro_text(cpp_hashnode *macro)
{
	return (const char *)cpp_macro_definition(parse_in, macro);
}

/*
 * The C++ front end's constant pointer to a member (PTRMEM_CST: &A::f in a
 * body before cp_genericize expands it) names the member outside its
 * operands, where no walk_tree finds it.  cplus_expand_constant() gives it
 * as cp_genericize will (&f in the pointer's CONSTRUCTOR; an offset for a
 * data member, an index in the vtable for a virtual function).  Weak: only
 * cc1plus has it; the code is known by its name, as cp-tree.h, which says
 * PTRMEM_CST, cannot be included with c-tree.h.  Since GCC 4.
 */
tree cplus_expand_constant(tree cst) __attribute__((weak));

/*
 * T as the back end will see it if T is such a constant, else NULL_TREE
 * (also when it cannot be expanded yet: its class is incomplete).
 */
static inline tree alloctag_expand_member_pointer(tree t)
{
	tree expanded;

	if (!cplus_expand_constant || TREE_CODE(t) < NUM_TREE_CODES
	    || strcmp(get_tree_code_name(TREE_CODE(t)), "ptrmem_cst"))
		return NULL_TREE;
	expanded = cplus_expand_constant(t);
	return expanded != t ? expanded : NULL_TREE;
}

/* The member T names walked with FN and DATA, if T is such a constant. */
static inline void alloctag_walk_member_pointer(tree t, walk_tree_fn fn, void *data)
{
	tree expanded = alloctag_expand_member_pointer(t);

	if (expanded)
		walk_tree(&expanded, fn, data, NULL);
}

/*
 * Pass data.  The rewrite needs GIMPLE with a CFG.  After it the IL is
 * verified: execute_one_pass() adds TODO_verify_il to every pass itself
 * (with -fchecking), and GCC 16 made the flag private to passes.cc (as
 * Linux's gcc-plugins did in "Remove TODO_verify_il for GCC >= 16").
 */
/* The EH edges of a statement: one edge since GCC 14, which renamed it. */
#if BUILDING_GCC_VERSION >= 14000
#define alloctag_make_eh_edge(stmt) make_eh_edge(stmt)
#else
#define alloctag_make_eh_edge(stmt) make_eh_edges(stmt)
#endif

#define ALLOCTAG_PASS_PROPERTIES_REQUIRED (PROP_gimple_any | PROP_cfg)
#if BUILDING_GCC_VERSION >= 16000
#define ALLOCTAG_PASS_TODO_FINISH 0
#else
#define ALLOCTAG_PASS_TODO_FINISH TODO_verify_il
#endif

#endif /* ALLOCTAG_COMPAT_H */
