/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * alloctag: GCC headers and the differences between the GCC versions the
 * plugin targets.  Keyed on BUILDING_GCC_VERSION, the version of the GCC whose
 * plugin headers we compile against (the compiler that will load us), never on
 * the host compiler that builds the plugin.
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
#include "tree-cfg.h"
#include "tree-dump.h"
#include "c-family/c-common.h"	/* must precede diagnostic-core.h */
#include "diagnostic-core.h"
#include "intl.h"
#include "langhooks.h"
#include "file-prefix-map.h"
#include "cpplib.h"

#ifndef __visible
#define __visible __attribute__((visibility("default")))
#endif

#if BUILDING_GCC_VERSION < 11000 || BUILDING_GCC_VERSION >= 13000
#error "alloctag supports GCC 11 and GCC 12"
#endif

/*
 * "Used but never defined" and "declared static but never defined" are
 * silenced per declaration: GCC 12 has warning-control.cc, GCC 11 the
 * TREE_NO_WARNING bit that check_global_declaration() looked at.
 */
#if BUILDING_GCC_VERSION >= 12000
#define alloctag_suppress_unused_warning(decl) suppress_warning((decl), OPT_Wunused)
#else
#define alloctag_suppress_unused_warning(decl) (TREE_NO_WARNING(decl) = 1)
#endif

#endif /* ALLOCTAG_COMPAT_H */
