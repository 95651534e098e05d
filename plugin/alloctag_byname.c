// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * alloctag: functions tagged by name, without a declaration in the code.
 *
 *	-fplugin-arg-alloctag-tag=malloc,strdup,xmlStrdup*,xalloc:xalloc_raw
 *	-fplugin-arg-alloctag-tag-file=FILE	(the same entries, one a line)
 *
 * An entry NAME tags every function of that name as if its declaration said
 * __attribute__((alloc_tagged("NAME"))): its calls are tagged and keep
 * calling it (a function that allocates through an allocator which charges
 * the current tag, or the C library's own allocator, whose built-in
 * knowledge GCC keeps).  NAME:VARIANT renames the calls to VARIANT, as
 * alloc_tagged("VARIANT") does.  NAME may be a shell pattern (* ? [...]):
 * libxml2 calls xmlStrdup as xmlStrdup__internal_alias, which
 * "xmlStrdup,xmlStrdup__*" or "xmlStrdup*" covers; a pattern matches
 * functions only and takes no VARIANT.
 *
 * Nothing is redeclared: configure's probes ("char strdup ();") and
 * -Wredundant-decls see the program as it is written.  An alloc_tagged
 * attribute in the code wins over the list.  An exact NAME that is a
 * variable or typedef of function pointer type tags the indirect calls
 * through its type, as the attribute on it would; any other declaration of
 * that name is a mistake, reported once where it is declared.  Names the
 * unit does not declare are not (the list is for a whole project).  C++:
 * functions at namespace scope, every overload of the name; with the auto
 * argument, operator new (alloctag_is_new_operator()).
 */
#include "alloctag_plugin.h"
#include <fnmatch.h>

#define PATTERN_CHARS "*?["

struct named_entry {
	char *name;		/* a function name, or a pattern */
	char *variant;		/* NULL: the function itself */
	bool pattern;
};

static vec<named_entry> entries;
static hash_map<tree, tree> *matches;	/* identifier -> variant, or error_mark_node: none */
static hash_set<tree> *reported;	/* identifiers diagnosed */

static bool is_pattern(const char *s)
{
	return strpbrk(s, PATTERN_CHARS);
}

/* Identifier characters and those of shell patterns. */
static bool valid_pattern(const char *s)
{
	for (; *s; s++)
		if (!ISIDNUM(*s) && *s != '$' && !strchr(PATTERN_CHARS "]!-^", *s))
			return false;
	return true;
}

/*
 * One entry, NAME[:VARIANT].  OPTION and, for a file, FILE and LINE say
 * where it came from.
 */
static bool add_entry(const char *text, const char *option, const char *file, int line)
{
	const char *colon = strchr(text, ':');
	struct named_entry e;
	const char *problem;

	e.name = colon ? xstrndup(text, colon - text) : xstrdup(text);
	e.variant = colon ? xstrdup(colon + 1) : NULL;
	e.pattern = is_pattern(e.name);
	if (e.pattern ? !valid_pattern(e.name) : !alloctag_is_identifier(e.name))
		problem = "is not a function name or a pattern of names";
	else if (e.variant && !alloctag_is_identifier(e.variant))
		problem = "names an untagged variant that is not a function name";
	else if (e.variant && e.pattern)
		problem = "is a pattern, which cannot name one untagged variant; "
			  "list the functions it should cover";
	else {
		entries.safe_push(e);
		return true;
	}
	if (file)
		error("%s:%d: %qs %s (%<%s=%s%>)", file, line, text, problem, option, file);
	else
		error("%qs: %qs %s", option, text, problem);
	free(e.name);
	free(e.variant);
	return false;
}

/*
 * Entries separated by commas or white space; in a file, '#' starts a
 * comment.  How many were added, or -1 after an error.
 */
static int add_entries(char *text, const char *option, const char *file)
{
	int added = 0, line = 1;
	bool ok = true;

	for (char *next; text; text = next, line++) {
		char *save = NULL;

		next = strchr(text, '\n');
		if (next)
			*next++ = '\0';
		if (file)
			text[strcspn(text, "#")] = '\0';
		for (char *e = strtok_r(text, ", \t\r", &save); e; e = strtok_r(NULL, ", \t\r", &save)) {
			if (add_entry(e, option, file, line))
				added++;
			else
				ok = false;
		}
	}
	return ok ? added : -1;
}

bool alloctag_add_tag_list(const char *list, const char *option)
{
	char *text = xstrdup(list);
	int added = add_entries(text, option, NULL);

	free(text);
	if (added == 0)
		error("%<%s=%s%> names no function", option, list);
	return added > 0;
}

/* The whole file as a string, or NULL (errno set). */
static char *read_file(const char *file)
{
	FILE *f = fopen(file, "r");
	char *text = NULL;
	size_t size = 0;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	FILE *mem = open_memstream(&text, &size);
	if (mem) {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, mem);
		fclose(mem);
	}
	fclose(f);
	return text;
}

/*
 * lto1 loads the plugin too (-fplugin on a -flto link line) but rewrites
 * nothing: the file is not read there, where a link run in another folder
 * than the compiles would not find a relative one.
 */
static bool in_lto1(void)
{
	return !strcmp(lang_hooks.name, "GNU GIMPLE");
}

bool alloctag_add_tag_file(const char *file, const char *option)
{
	char *text;
	int added;

	if (in_lto1())
		return true;
	text = read_file(file);
	if (!text) {
		error("%<%s=%s%>: cannot read it: %m", option, file);
		return false;
	}
	added = add_entries(text, option, file);
	free(text);
	return added >= 0;
}

bool alloctag_any_named(void)
{
	return !entries.is_empty() || alloctag_opts.auto_tag;
}

static bool matches_entry(const struct named_entry *e, const char *name)
{
	return e->pattern ? fnmatch(e->name, name, 0) == 0 : !strcmp(e->name, name);
}

/* The variant identifier an exact entry or a pattern gives NAME, or NULL_TREE. */
static tree lookup(tree name)
{
	bool existed;

	if (entries.is_empty())
		return NULL_TREE;
	if (!matches)
		matches = new hash_map<tree, tree>;
	tree &slot = matches->get_or_insert(name, &existed);
	if (!existed) {
		const char *s = IDENTIFIER_POINTER(name);
		unsigned int i;
		struct named_entry *e;

		slot = error_mark_node;
		/* An exact name before a pattern, whatever the order. */
		FOR_EACH_VEC_ELT(entries, i, e)
			if (!e->pattern && matches_entry(e, s))
				slot = get_identifier(e->variant ? e->variant : s);
		FOR_EACH_VEC_ELT(entries, i, e)
			if (slot == error_mark_node && e->pattern && matches_entry(e, s))
				slot = name;
		alloctag_root_tree(name);
		alloctag_root_tree(slot);
	}
	return slot == error_mark_node ? NULL_TREE : slot;
}

/* The exact entry for NAME (no pattern), or NULL. */
static const struct named_entry *exact_entry(tree name)
{
	unsigned int i;
	struct named_entry *e;

	FOR_EACH_VEC_ELT(entries, i, e)
		if (!e->pattern && !strcmp(e->name, IDENTIFIER_POINTER(name)))
			return e;
	return NULL;
}

/*
 * The untagged variant (an identifier) the list gives FNDECL: its own name
 * unless the entry names another; NULL_TREE when the list does not tag it.
 */
tree alloctag_named_variant(const_tree fndecl)
{
	if (TREE_CODE(fndecl) != FUNCTION_DECL || !DECL_NAME(fndecl))
		return NULL_TREE;
	if (alloctag_is_new_operator(fndecl))
		return DECL_NAME(fndecl);
	if (DECL_CONTEXT(fndecl) && TYPE_P(DECL_CONTEXT(fndecl)))
		return NULL_TREE;
	return lookup(DECL_NAME(fndecl));
}

/* A parameter of operator new that makes no placement form: align_val_t, nothrow_t. */
static bool new_operator_option(tree type)
{
	if (TREE_CODE(type) == REFERENCE_TYPE)
		type = TREE_TYPE(type);
	type = TYPE_MAIN_VARIANT(type);
	return TYPE_IDENTIFIER(type) && (id_equal(TYPE_IDENTIFIER(type), "align_val_t")
					 || id_equal(TYPE_IDENTIFIER(type), "nothrow_t"));
}

/*
 * With auto, C++'s operator new and operator new[] are tagged under their
 * own names, the global ones (replaced by the program or not) and a
 * class's: each new expression is an allocation site.  Not the placement
 * forms (new (buf) T), which allocate nothing: a parameter after the size
 * other than an alignment or std::nothrow.
 */
bool alloctag_is_new_operator(const_tree fndecl)
{
	tree args;

	if (!alloctag_opts.auto_tag || !DECL_IS_OPERATOR_NEW_P(fndecl))
		return false;
	args = TYPE_ARG_TYPES(TREE_TYPE(fndecl));
	for (args = args ? TREE_CHAIN(args) : NULL_TREE; args && TREE_VALUE(args) != void_type_node;
	     args = TREE_CHAIN(args))
		if (!new_operator_option(TREE_VALUE(args)))
			return false;
	return true;
}

/*
 * A variable or typedef the list names exactly: the attribute's meaning on
 * it (its function pointer type's indirect calls are tagged), or a mistake
 * in the list, reported once where NAME is declared.
 */
void alloctag_check_named_decl(tree decl)
{
	const struct named_entry *e;
	location_t loc = DECL_SOURCE_LOCATION(decl);

	if (entries.is_empty() || TREE_CODE(decl) == FUNCTION_DECL)
		return;
	e = exact_entry(DECL_NAME(decl));
	if (!e)
		return;
	if (!e->variant && alloctag_tag_indirect_type(TREE_TYPE(decl)))
		return;
	if (!reported)
		reported = new hash_set<tree>;
	if (reported->add(DECL_NAME(decl)))
		return;
	alloctag_root_tree(DECL_NAME(decl));
	if (e->variant && alloctag_tag_indirect_type(TREE_TYPE(decl)))
		error_at(loc, "%qD, tagged by name as %<%s:%s%>, is not a function: indirect "
			 "calls through it are tagged, not renamed; drop %<:%s%>",
			 decl, e->name, e->variant, e->variant);
	else
		warning_at(loc, OPT_Wattributes, "%qD, tagged by name, is neither a function nor "
			   "a function pointer; ignored", decl);
}
