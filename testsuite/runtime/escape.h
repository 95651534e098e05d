/*
 * escape(p): p, through a call GCC cannot see into.  alloctag-cc keeps
 * malloc and its family GCC's built-ins, so an allocation whose block is
 * only freed (free(malloc(7))), or stored where nothing reads it, is
 * deleted at -O1 and above, as in a plain build: a test that counts it
 * lets it escape, as a real program's blocks do.
 */
#ifndef ESCAPE_H
#define ESCAPE_H
static __attribute__((noipa, unused)) void *escape(void *p)
{
	return p;
}
#endif
