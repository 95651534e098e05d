/*
 * An exception thrown through a tagged call leaves no tag current: the
 * call's tag is given back on the way out (alloctag_unwind.c), whether the
 * handler is in the same function or a caller's.  Were it left current,
 * every later allocation would be charged to the call that threw (the
 * outermost rule), not to its own line.  What the throw allocates (the
 * exception object, its message) is the throwing call's, and its size
 * the C++ library's: "*".
 */
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include "escape.h"

/* No handler here: the exception leaves the function. */
static std::string tail(const std::string &s, std::size_t from)
{
	return s.substr(from);								// site 0/0 * *
}

static std::size_t huge()
{
	return (std::size_t)escape((void *)1) << 60;
}

int main()
{
	std::string s(10, 'a');
	int thrown = 0;

	try {
		std::string t = s.substr(100);						// site 0/0 * *
	} catch (const std::out_of_range &) {
		thrown++;
	}
	escape(std::malloc(77));							// site 77/1 77/1 77
	try {
		try {
			escape(new int[huge()]);					// site 0/0 * *
		} catch (const std::length_error &) {
		}
	} catch (const std::bad_alloc &) {
		thrown++;
	}
	escape(std::malloc(55));							// site 55/1 55/1 55
	try {
		escape((void *)tail(s, 200).data());
	} catch (const std::out_of_range &) {
		thrown++;
	}
	escape(std::malloc(33));							// site 33/1 33/1 33
	return thrown != 3;
}
