/* Uses libnames.so; run: ALLOCTAG_FORMAT=full ./main */
#include <stdio.h>
#include "names.h"

int main(void)
{
	static const char *const planets[] = {
		"mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto",
	};
	struct names *set = names_new();

	for (size_t i = 0; i < sizeof(planets) / sizeof(*planets); i++)
		names_add(set, planets[i]);
	printf("%zu names\n", sizeof(planets) / sizeof(*planets));
	names_free(set);
	return 0;
}
