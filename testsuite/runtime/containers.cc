/*
 * C++ containers, strings, smart pointers and std::function: what they
 * allocate is charged to the first line outside the system headers that led
 * to it: the push_back, the constructor, the operator[]; a constructor of
 * the program's own that a container calls, to that constructor's line; a
 * container of the program's built on allocator_traits, to its own line;
 * one defined at namespace scope, to its definition's line.
 */
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
#include "escape.h"

struct Obj {
	int *data;
	Obj() : data(new int[4]()) {}							// site 0/0 16/1 16
	Obj(const Obj &o) : data(new int[4]) { std::copy(o.data, o.data + 4, data); }	// site 0/0 16/1 16
	~Obj() { delete[] data; }
};

template <class T, class A = std::allocator<T>> struct Stack {
	A alloc;
	T *items = nullptr;
	std::size_t n = 0, cap = 0;
	void push(const T &x)
	{
		if (n == cap) {
			std::size_t bigger = cap ? 2 * cap : 4;
			T *more = std::allocator_traits<A>::allocate(alloc, bigger);	// site 0/0 96/2 96
			std::copy(items, items + n, more);
			if (items)
				std::allocator_traits<A>::deallocate(alloc, items, cap);
			items = more;
			cap = bigger;
		}
		items[n++] = x;
	}
	~Stack() { if (items) std::allocator_traits<A>::deallocate(alloc, items, cap); }
};

struct Key { long a, b; };

struct Person {		/* copied by its implicit constructor: the caller's line */
	std::string name;
	long age;
};

std::vector<int> numbers(100);							// site 0/0 400/1 400

int main()
{
	std::vector<int> v;
	for (int i = 0; i < 100; i++)
		v.push_back(i);								// site 0/0 1020/8 768
	std::string s(5000, 'x');							// site 0/0 5001/1 5001
	std::map<int, int> m;
	for (int i = 0; i < 10; i++)
		m[i] = i;								// site 0/0 400/10 400
	std::unordered_map<int, int> um;
	um[1] = 2;									// site 0/0 120/2 120
	std::deque<int> dq;								// site 0/0 576/2 576
	dq.push_back(1);
	std::list<int> l;
	l.push_back(1);									// site 0/0 24/1 24
	auto sp = std::make_shared<Key>();						// site 0/0 32/1 32
	auto up = std::make_unique<Key>();						// site 0/0 16/1 16
	std::function<long(long)> f = [k = Key{1, 2}, c = 3L](long x) { return x + k.a + c; };	// site 0/0 24/1 24
	std::vector<Obj> vo;
	vo.reserve(2);									// site 0/0 16/1 16
	vo.push_back(Obj());
	std::vector<Person> people;
	people.reserve(1);								// site 0/0 40/1 40
	Person ann{std::string(30, 'a'), 1};						// site 0/0 31/1 31
	people.push_back(ann);								// site 0/0 31/1 31
	std::function<std::string()> make = [] {
		return std::string(50, 'm');						// site 0/0 51/1 51
	};
	std::string made = make();
	Stack<long> st;
	for (int i = 0; i < 5; i++)
		st.push(i);
	return escape(&v) && escape(up.get()) && escape(&numbers) && v.size() + s.size() + m.size() + um.size() + dq.size() + l.size()
		+ sp->a + up->a + f(1) + vo.size() + st.n + people.size() + made.size() == 12345;
}
