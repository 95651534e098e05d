// args: -fopenmp
/* Calls in OpenMP regions: outlined later, after the rewrite; one tag per site. */
#include <omp.h>
#include "tagtest.h"

int main(void)
{
	int sum = 0, i;

#pragma omp parallel for reduction(+:sum) num_threads(2)
	for (i = 0; i < 8; i++)
		sum += t_count(i);				// tag main calls=8
#pragma omp parallel num_threads(2)
	{
#pragma omp single
		t_touch();					// tag main calls=1
	}
	return sum != 36;
}
