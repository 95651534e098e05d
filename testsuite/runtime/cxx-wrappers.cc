/*
 * C++ allocation wrappers, found by the compiler as C's are
 * (runtime/wrappers.c): a function that returns what new gave it is
 * charged to its callers' lines; one that keeps a copy of the block is
 * charged to its own.
 */
#include "escape.h"

int *wrapped(int n) { int *p = new int[n]; return p; }

/* Not wrappers: they keep the block. */
struct Holder { int *p; };
static Holder held;
int *held_cond(int n, bool c) { int *p = new int[n]; held = Holder{c ? p : nullptr}; return p; }	// site 48/1 48/1 48

int main()
{
	delete[] static_cast<int *>(escape(wrapped(5)));				// site 0/0 20/1 20
	escape(held_cond(12, true));
	return 0;
}
