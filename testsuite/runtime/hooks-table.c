/*
 * A library that allocates only through a hooks table, as cJSON does
 * (global_hooks.allocate = malloc): with no edit, its sites are its own lines.
 */
#include <stdlib.h>
#include <string.h>

static struct {
	void *(*allocate)(size_t);
	void (*deallocate)(void *);
	void *(*reallocate)(void *, size_t);
} global_hooks = { malloc, free, realloc };

struct item { char *name; struct item *next; };

static char *dup_name(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = global_hooks.allocate(n);			// site 0/0 11/2 11
	return memcpy(d, s, n);
}

static struct item *new_item(const char *name, struct item *next)
{
	struct item *it = global_hooks.allocate(sizeof(*it));	// site 16/1 32/2 32
	it->name = dup_name(name);
	it->next = next;
	return it;
}

int main(void)
{
	struct item *list = new_item("alpha", new_item("beta", NULL));
	char *buf = global_hooks.reallocate(NULL, 10);		// site 0/0 10/1 10
	buf = global_hooks.reallocate(buf, 20);			// site 0/0 20/1 20
	global_hooks.deallocate(buf);
	global_hooks.deallocate(list->next->name);
	global_hooks.deallocate(list->next);
	global_hooks.deallocate(list->name);
	list->next = NULL;
	list->name = NULL;
	return 0;	/* list itself is left live */
}
