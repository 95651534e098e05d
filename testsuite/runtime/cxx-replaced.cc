/*
 * A program that replaces operator new and delete: new expressions are
 * still sites of their own, charged through the program's operator new.
 */
#include <cstdlib>
#include <new>
#include <vector>
#include "escape.h"

static unsigned long replaced;

void *operator new(std::size_t n)
{
	replaced++;
	if (void *p = std::malloc(n))
		return p;
	throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

int main()
{
	int *x = static_cast<int *>(escape(new int(5)));				// site 0/0 4/1 4
	std::vector<int> v(100);							// site 0/0 400/1 400

	escape(v.data());	/* else GCC 16 elides it, as the plain build */
	delete x;
	return replaced != 2 || v.size() != 100;
}
