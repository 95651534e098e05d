// What g++ says about allocations, with g++ and with alloctag-c++ (warnings.sh).
#include <cstdlib>
#include <cstring>

void free_new() { int *p = new int(1); std::free(p); }
void delete_malloc() { int *p = static_cast<int *>(std::malloc(sizeof(int))); delete p; }
void delete_array_new() { int *p = new int[4]; delete p; }
int uninit_malloc() { int *p = static_cast<int *>(std::malloc(8)); int r = p ? p[1] : 0; std::free(p); return r; }	// lost at -O0 -Og
char *strdup_null() { return strdup(nullptr); }
void double_free() { char *p = static_cast<char *>(std::malloc(8)); std::free(p); std::free(p); }
