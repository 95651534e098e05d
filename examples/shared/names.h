/* A small shared library: a set of names. */
struct names;

struct names *names_new(void);
void names_add(struct names *set, const char *name);
void names_free(struct names *set);
