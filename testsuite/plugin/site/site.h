/*
 * t_check(file, line, func) is tagged: its untagged variant checks that the
 * current tag says what __FILE__, __LINE__ and __func__ said at the call,
 * however the call was written.
 */
#include <alloctag.h>

int t_check(const char *file, int line, const char *func) __alloc_tagged;
#define CHECK() t_check(__FILE__, __LINE__, __func__)
#define CHECK_IN_ARGS(x) (x)

static inline int check_in_header(void)
{
	return CHECK();
}
