/*
 * Lua 5.4's memory API, tagged by declaration (ALLOCTAG_TAGS), so that the
 * report shows which parts of Lua hold memory instead of the one realloc()
 * in l_alloc() (lauxlib.c) that every allocation goes through by a function
 * pointer (lua_State's frealloc).
 *
 * luaM_* are the functions behind lmem.h's macros (luaM_new, luaM_newvector,
 * luaM_growvector, luaM_reallocvector, ...): a site is where such a macro is
 * used.  luaC_newobj() is tagged too: every collectable object (string,
 * table, closure, userdata, proto, ...) is made by it, so without its tag
 * luaC_newobj would be one site holding most of Lua's memory; with it the
 * site is its caller (createstrobj, luaH_new, luaF_newLclosure, ...).
 *
 * Forced into every translation unit (lua.c, luac.c, the library), so only
 * basic C types: lua_State is struct lua_State, GCObject is struct GCObject,
 * size_t is __SIZE_TYPE__.  The visibility matches luaconf.h's LUAI_FUNC.
 */
#ifndef ALLOCTAG_TAGS_LUA_H
#define ALLOCTAG_TAGS_LUA_H
#ifndef __ASSEMBLER__

struct lua_State;
struct GCObject;

#define ALLOCTAG_LUAI_FUNC __attribute__((visibility("internal"), alloc_tagged)) extern

ALLOCTAG_LUAI_FUNC void *luaM_malloc_(struct lua_State *, __SIZE_TYPE__, int);
ALLOCTAG_LUAI_FUNC void *luaM_realloc_(struct lua_State *, void *, __SIZE_TYPE__, __SIZE_TYPE__);
ALLOCTAG_LUAI_FUNC void *luaM_saferealloc_(struct lua_State *, void *, __SIZE_TYPE__, __SIZE_TYPE__);
ALLOCTAG_LUAI_FUNC void *luaM_growaux_(struct lua_State *, void *, int, int *, int, int, const char *);
ALLOCTAG_LUAI_FUNC void *luaM_shrinkvector_(struct lua_State *, void *, int *, int, int);
ALLOCTAG_LUAI_FUNC struct GCObject *luaC_newobj(struct lua_State *, int, __SIZE_TYPE__);

#undef ALLOCTAG_LUAI_FUNC

/*
 * Calls through a lua_Alloc pointer are tagged too: lua_newstate()'s call
 * for the state itself, and resizebox()'s (lauxlib.c), which grows the
 * auxiliary library's string buffers (luaL_Buffer: string.format,
 * table.concat, ...) through lua_getallocf(); the calls under the tagged
 * functions above are charged to those.  No block is left to l_alloc().
 * lua.h defines the same typedef again: allowed (C11, and GCC's gnu99).
 */
typedef void *(*lua_Alloc)(void *, void *, __SIZE_TYPE__, __SIZE_TYPE__) __attribute__((alloc_tagged));

#endif
#endif
