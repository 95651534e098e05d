/* runtime/cxx-wrappers.cc's class with a virtual function; its key function,
 * the destructor, is lib/maker.cc's, so the vtable is that unit's. */
struct Maker {
	virtual ~Maker();
	virtual int *make();
};
