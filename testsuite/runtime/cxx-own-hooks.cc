/*
 * A unit that includes alloctag.h keeps its own hooks, alloc_tag_claim among
 * them: a constructor that push_back calls is charged to its own line there
 * too, the vector's buffer to the push_back.
 */
#include <alloctag.h>
#include <vector>

struct Obj {
	int *data;
	Obj() : data(new int[2]()) {}							// site 0/0 8/1 8
	Obj(const Obj &o) : data(new int[2]) { data[0] = o.data[0]; data[1] = o.data[1]; }	// site 0/0 8/1 8
	~Obj() { delete[] data; }
};

int main()
{
	std::vector<Obj> v;
	Obj o;
	v.push_back(o);									// site 0/0 8/1 8
	return v.size() != 1;
}
