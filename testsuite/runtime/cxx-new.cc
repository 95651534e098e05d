/*
 * C++: each new expression is a site (new T, new T[n], nothrow, aligned,
 * a class's own operator new); placement new allocates nothing and is no
 * site; delete and delete[] (sized or not) uncharge where new charged.
 */
#include <cstdlib>
#include <new>
#include "escape.h"

struct Node { long v; Node *next; };
struct alignas(64) Wide { char c[64]; };
struct Own {
	int x;
	static void *operator new(std::size_t n) { return std::malloc(n); }
	static void operator delete(void *p) { std::free(p); }
};

template <class T> static T *kept(T *p) { return static_cast<T *>(escape(p)); }

int main()
{
	alignas(Node) char buf[sizeof(Node)];
	Node *n = kept(new Node{1, nullptr});						// site 0/0 16/1 16
	int *a = kept(new int[250]);							// site 0/0 1000/1 1000
	Node *t = kept(new (std::nothrow) Node{2, nullptr});				// site 0/0 16/1 16
	Wide *w = kept(new Wide);							// site 0/0 64/1 64
	Wide *ws = kept(new Wide[3]);							// site 0/0 192/1 192
	Own *o = kept(new Own{3});							// site 0/0 4/1 4
	Node *b = new (buf) Node{4, nullptr};	/* placement */
	int *left = kept(new int[10]);							// site 40/1 40/1 40

	delete n;
	delete[] a;
	delete t;
	delete w;
	delete[] ws;
	delete o;
	return b->v != 4 || !left;
}
