/*
 * Lua with nothing tagged but calls through its allocator's type, lua_Alloc:
 * the library allocates only through lua_State's frealloc pointer (lmem.c),
 * and each such call gets its own tag.  No edit to Lua's sources.
 */
#ifndef __ASSEMBLER__
typedef void *(*lua_Alloc)(void *, void *, __SIZE_TYPE__, __SIZE_TYPE__) __attribute__((alloc_tagged));
#endif
