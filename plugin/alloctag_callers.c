// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: calls charged to the line that asked (the auto argument).
 *
 * A call to an allocator is tagged where it is written; but when the
 * allocator is reached through code that is not the user's, the line that
 * asked is the user's line that called into that code:
 *
 *	v.push_back(x);		  the vector's allocator is called in <bits/new_allocator.h>
 *	p = xstrdup(s);		  malloc is called in xmalloc.c, through xmemdup and xmalloc
 *
 * So, besides the calls to tagged functions, a call made by the user's code
 * gets a tag of its own, an implied one, when it calls
 *   - a function of a system header that reaches an allocation: it calls a
 *     tagged function or a wrapper, calls through a pointer, or calls such
 *     a function of a system header (the unit's bodies, as their GENERIC
 *     says: alloctag_note_body()), or a C++ function of a system header
 *     that the unit has no body of and that may throw (libstdc++'s
 *     basic_string members: an allocation may fail);
 *   - an allocation wrapper (alloctag_wrappers.c), of this unit or of the
 *     list of other units.
 * The call stays as it is.  The user's code is every function but those of
 * system headers, those the compiler made for a class (implicit
 * constructors), tagged functions and wrappers: the transparent ones,
 * through which an allocation is charged to the user's line that led to
 * it.  What the compiler makes of the user's statements is the user's (the
 * static initialization of namespace-scope objects: their lines).
 *
 * An implied tag is marked (ct.flags, ALLOC_TAG_IMPLIED), and in a unit that
 * makes any, the user's code makes its tags current with the claim hook
 * (alloc_tag_claim) instead of the save hook: it takes over from an implied
 * tag, so that an allocation is charged to the innermost line of the user's
 * that led to it (a constructor of the user's that push_back calls), while
 * a tag of an explicitly tagged call still wins over every tag under it, as
 * always.  Transparent code, and an allocator called through a pointer,
 * keep the save hook: what they allocate goes to the tag current.  A unit
 * without implied tags is rewritten as without the auto argument.
 */
#include "alloctag_plugin.h"

struct body {
	vec<tree> refs;		/* the functions it calls or takes the address of */
	bool indirect;		/* it calls through a pointer */
	bool allocates;		/* transparent, and it reaches an allocation */
};

static hash_map<tree, struct body *> *bodies;	/* FUNCTION_DECL -> what its body calls */
static bool resolved;
static bool any_implied;

/*
 * A function's GENERIC body, from alloctag_rewrite.c's walk: the NREFS
 * functions it refers to, whether it calls through a pointer; and its shape
 * as a possible wrapper.
 */
void alloctag_note_body(tree fndecl, const tree *refs, unsigned int nrefs, bool indirect)
{
	struct body *b = XCNEW(struct body);

	if (!bodies)
		bodies = new hash_map<tree, struct body *>;
	b->indirect = indirect;
	bodies->put(fndecl, b);
	alloctag_root_tree(fndecl);
	for (unsigned int i = 0; i < nrefs; i++) {
		b->refs.safe_push(refs[i]);
		alloctag_root_tree(refs[i]);
	}
	alloctag_wrapper_shape(fndecl);
}

/*
 * FN's body; for a C++ constructor or destructor, that of the function its
 * variants (complete, base object) are clones of, whose bodies may be
 * empty when given to the plugin.
 */
static struct body *body_of(tree fn)
{
	tree origin = DECL_ABSTRACT_ORIGIN(fn);
	struct body **b = NULL;

	if (!bodies)
		return NULL;
	if (origin && TREE_CODE(origin) == FUNCTION_DECL)
		b = bodies->get(origin);
	if (!b)
		b = bodies->get(fn);
	return b ? *b : NULL;
}

static bool in_system_header(tree fn)
{
	return in_system_header_at(DECL_SOURCE_LOCATION(fn));
}

/*
 * Made by the compiler, not written: a class's implicit constructors,
 * assignments and destructor, members of the class.  Not a lambda's body,
 * which the C++ front end marks artificial too: the operator() of its
 * closure.  Nor what it makes outside a class: the static initialization
 * of a unit (__static_initialization_and_destruction_0, _GLOBAL__sub_I_*),
 * whose statements are the user's definitions, with their lines
 * (std::vector<int> v(100) at namespace scope).
 */
static bool compiler_made(tree fn)
{
	return DECL_ARTIFICIAL(fn) && DECL_CONTEXT(fn) && TYPE_P(DECL_CONTEXT(fn))
	       && !(DECL_NAME(fn) && id_equal(DECL_NAME(fn), "operator()"));
}

/* An allocation made in FN (or under it) is charged to the tag current. */
static bool transparent(tree fn)
{
	return in_system_header(fn) || compiler_made(fn) || alloctag_is_tagged(fn)
	       || alloctag_is_wrapper(fn);
}

/*
 * libstdc++'s functions the unit has no body of that are called on the hot
 * paths of containers and allocate nothing (hashing, the rehash policy).
 */
static bool allocates_nothing(const char *symbol)
{
	static const char *const prefixes[] = {
		"_ZSt11_Hash_bytes", "_ZSt15_Fnv_hash_bytes",
		"_ZNKSt8__detail20_Prime_rehash_policy",
	};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(symbol, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * A C++ function of a system header, whose body the unit has not, that may
 * allocate: it may throw (std::bad_alloc), returns, and is not pure.
 */
static bool opaque_may_allocate(tree fn)
{
	const char *symbol;

	if (body_of(fn) || !in_system_header(fn) || !TREE_PUBLIC(fn)
	    || (flags_from_decl_or_type(fn) & (ECF_NOTHROW | ECF_NORETURN | ECF_CONST | ECF_PURE)))
		return false;
	symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
	return !strncmp(symbol, "_Z", 2) && !allocates_nothing(symbol);
}

/*
 * The C library's functions that allocate what they keep or hand back
 * through no returned block of their own (the buffer a stream's first read
 * or write makes, setlocale's and the time zone's tables, qsort's scratch,
 * the resolver's list), by symbol: the fortified forms (__printf_chk) and
 * the redirected ones (fopen64, __isoc99_fscanf) too.  Their calls get
 * implied tags, not tags of their own, since several call back into the
 * user's code (qsort's comparison, nftw's function, a cookie stream's
 * writer), whose tagged calls must take over.  Not the functions of one
 * character (getc, putc, their unlocked inline forms): around each, a tag
 * would cost a third of the call for a buffer made once.
 */
static const char *const c_library_allocating[] = {
	/* streams: the FILE, and setvbuf's buffer */
	"fdopen", "fmemopen", "fopen", "fopen64", "fopencookie", "freopen", "freopen64",
	"open_wmemstream", "popen", "setvbuf", "tmpfile", "tmpfile64",
	/* a stream's buffer, made by its first read, write or seek */
	"fgets", "fgets_unlocked", "__fgets_chk", "__fgets_unlocked_chk",
	"fgetws", "fgetws_unlocked", "__fgetws_chk", "__fgetws_unlocked_chk",
	"fputs", "fputs_unlocked", "fputws", "fputws_unlocked", "puts",
	"fread", "fread_unlocked", "__fread_chk", "__fread_unlocked_chk",
	"fwrite", "fwrite_unlocked", "fseek", "fseeko", "fseeko64", "rewind",
	"printf", "fprintf", "vprintf", "vfprintf",
	"__printf_chk", "__fprintf_chk", "__vprintf_chk", "__vfprintf_chk",
	"wprintf", "fwprintf", "vwprintf", "vfwprintf",
	"__wprintf_chk", "__fwprintf_chk", "__vwprintf_chk", "__vfwprintf_chk",
	"scanf", "fscanf", "vscanf", "vfscanf", "wscanf", "fwscanf", "vwscanf", "vfwscanf",
	"__isoc99_scanf", "__isoc99_fscanf", "__isoc99_vscanf", "__isoc99_vfscanf",
	"__isoc99_wscanf", "__isoc99_fwscanf", "__isoc99_vwscanf", "__isoc99_vfwscanf",
	"__isoc23_scanf", "__isoc23_fscanf", "__isoc23_vscanf", "__isoc23_vfscanf",
	"__isoc23_wscanf", "__isoc23_fwscanf", "__isoc23_vwscanf", "__isoc23_vfwscanf",
	/* directories and file trees */
	"fdopendir", "opendir", "scandir", "scandir64", "scandirat", "scandirat64",
	"glob", "glob64", "ftw", "ftw64", "nftw", "nftw64",
	"fts_open", "fts64_open", "fts_read", "fts64_read", "fts_children", "fts64_children",
	"wordexp",
	/* sorting, search trees */
	"qsort", "qsort_r", "tsearch",
	/* locales, messages, character sets */
	"setlocale", "newlocale", "duplocale", "catopen", "iconv_open",
	"bindtextdomain", "bind_textdomain_codeset", "textdomain",
	"gettext", "dgettext", "dcgettext", "ngettext", "dngettext", "dcngettext",
	/* the C library's regular expressions */
	"regcomp", "regexec", "re_compile_pattern", "re_compile_fastmap",
	"re_search", "re_search_2", "re_match", "re_match_2",
	/* the environment, the time zone */
	"setenv", "putenv", "tzset", "localtime", "localtime_r", "mktime", "timelocal",
	"ctime", "ctime_r", "strftime",
	/* users, groups, hosts and services */
	"getpwnam", "getpwuid", "getpwnam_r", "getpwuid_r", "getpwent",
	"getgrnam", "getgrgid", "getgrnam_r", "getgrgid_r", "getgrent", "getgrouplist",
	"initgroups", "getlogin", "getaddrinfo", "getnameinfo",
	"gethostbyname", "gethostbyname2", "gethostbyaddr",
	"getservbyname", "getservbyport", "getprotobyname",
	/* not dlopen nor pthread_create: what they allocate is the C library's own
	   bookkeeping, kept in its caches after dlclose and pthread_join */
};

/*
 * FN is one of c_library_allocating, declared where the unit does not
 * define it: by the C library's headers, by a copy of them (gnulib's
 * lib/regex.h, which sed's build puts first), or by GCC (__builtin_puts,
 * for printf("hello\n")).  A program's own function of that name in another
 * unit is called with an implied tag, which its own tagged calls take over.
 */
static bool c_library_allocates(tree fn)
{
	static hash_set<nofree_string_hash> *names;

	if (body_of(fn) || !TREE_PUBLIC(fn))
		return false;
	if (!names) {
		names = new hash_set<nofree_string_hash>;
		for (size_t i = 0; i < ARRAY_SIZE(c_library_allocating); i++)
			names->add(c_library_allocating[i]);
	}
	return names->contains(alloctag_symbol_name(fn));
}

/* FN, whose body the unit has not, may allocate: the C++ or the C library's. */
static bool opaque_allocates(tree fn)
{
	return opaque_may_allocate(fn) || c_library_allocates(fn);
}

/* A call to FN from transparent code reaches an allocation, by itself. */
static bool allocates_by_itself(tree fn)
{
	return alloctag_tagged_callee(fn) || alloctag_is_wrapper(fn) || opaque_allocates(fn);
}

static bool reaches_allocation(tree fn, const struct body *b)
{
	unsigned int i;
	tree r;

	if (b->indirect && in_system_header(fn))
		return true;
	FOR_EACH_VEC_ELT(b->refs, i, r) {
		const struct body *rb = body_of(r);

		if (allocates_by_itself(r) || (rb && rb->allocates && transparent(r)))
			return true;
	}
	return false;
}

/*
 * Which transparent functions reach an allocation: a fixpoint over the
 * unit.  Not one that never returns (libstdc++'s __replacement_assert,
 * which prints and aborts): nothing it allocates is the caller's to charge.
 */
static void settle_allocating(void)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (auto it = bodies->begin(); it != bodies->end(); ++it) {
			tree fn = (*it).first;
			struct body *b = (*it).second;

			if (!b->allocates && transparent(fn)
			    && !(flags_from_decl_or_type(fn) & ECF_NORETURN) && reaches_allocation(fn, b)) {
				b->allocates = true;
				changed = true;
			}
		}
	}
}

/*
 * A call from CALLER to CALLEE gets an implied tag: CALLER is the user's,
 * and CALLEE is transparent code that reaches an allocation.  Calls to
 * tagged functions are tagged as such, not here.
 */
bool alloctag_implied_callee(tree caller, tree callee)
{
	const struct body *b;

	/* A destructor allocates nothing (it may call through a pointer). */
	if (!resolved || transparent(caller) || alloctag_tagged_callee(callee)
	    || DECL_CXX_DESTRUCTOR_P(callee))
		return false;
	if (alloctag_is_wrapper(callee))
		return true;
	b = body_of(callee);
	return b ? b->allocates && transparent(callee) : opaque_allocates(callee);
}

/*
 * CALLER's tags take over from an implied tag (alloc_tag_claim).  Not an
 * allocator called through a pointer (Lua's l_alloc, a table of allocation
 * hooks): the implied tag of the line that led to it is charged, as through
 * a wrapper, though a direct call to it is not tagged (it is no wrapper).
 */
bool alloctag_claims(tree caller)
{
	return any_implied && !transparent(caller) && !alloctag_allocator_by_pointer(caller);
}

/* The unit makes an implied tag: one of the user's functions calls into such code. */
static bool makes_implied_tags(void)
{
	for (auto it = bodies->begin(); it != bodies->end(); ++it) {
		unsigned int i;
		tree r;

		FOR_EACH_VEC_ELT((*it).second->refs, i, r)
			if (alloctag_implied_callee((*it).first, r))
				return true;
	}
	return false;
}

/* Once per unit, before its first function is rewritten. */
void alloctag_callers_resolve(void)
{
	/* With the innermost rule the hooks cannot tell the user's code from the rest. */
	if (!alloctag_opts.auto_tag || resolved || !bodies
	    || (alloctag_opts.runtime && !strcmp(alloctag_opts.runtime, "innermost")))
		return;
	alloctag_wrappers_resolve();
	settle_allocating();
	resolved = true;
	any_implied = makes_implied_tags();
}
