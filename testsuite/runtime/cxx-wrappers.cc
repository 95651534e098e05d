// files: lib/maker.cc
/*
 * C++ allocation wrappers, found by the compiler as C's are
 * (runtime/wrappers.c): a function that returns what new gave it is
 * charged to its callers' lines; one that keeps a copy of the block is
 * charged to its own.
 */
#include "escape.h"
#include "lib/maker.h"

int *wrapped(int n) { int *p = new int[n]; return p; }

/* Not wrappers: they keep the block. */
struct Holder { int *p; };
static Holder held;
int *held_cond(int n, bool c) { int *p = new int[n]; held = Holder{c ? p : nullptr}; return p; }	// site 48/1 48/1 48
static int *last_int;
int *deref_kept(int n) { int *p = new int[n]; last_int = &*p; return p; }			// site 0/0 28/1 28
int *index_kept(int n) { int *p = new int[n]; last_int = &p[1]; return p; }			// site 0/0 32/1 32
struct Pair { int a, b; };
Pair *field_kept() { Pair *p = new Pair; last_int = &p->b; return p; }				// site 0/0 8/1 8

/* Nor a virtual function, called through the vtable (another unit's). */
int *Maker::make() { return new int[4]; }							// site 0/0 32/2 16

/* Nor a member function whose address a body takes (&Pool::get). */
struct Pool { int *get(int n); };
int *Pool::get(int n) { return new int[n]; }							// site 0/0 44/2 24

int main()
{
	Pool pool;
	int *(Pool::*volatile getter)(int) = &Pool::get;
	Maker m;
	Maker *volatile through = &m;

	delete[] static_cast<int *>(escape(wrapped(5)));				// site 0/0 20/1 20
	escape(held_cond(12, true));
	delete[] static_cast<int *>(escape(deref_kept(7)));
	delete[] static_cast<int *>(escape(index_kept(8)));
	delete static_cast<Pair *>(escape(field_kept()));
	delete[] static_cast<int *>(escape(m.make()));
	delete[] static_cast<int *>(escape(through->make()));
	delete[] static_cast<int *>(escape(pool.get(5)));
	delete[] static_cast<int *>(escape((pool.*getter)(6)));
	return 0;
}
