// args: -fexceptions
/*
 * Calls whose basic block ends with them: in a function that calls setjmp
 * (abnormal edges), with -fexceptions (EH edges), noreturn calls, GNU nested
 * functions (static chain), computed gotos, VLAs.
 */
#include <setjmp.h>
#include <stdlib.h>
#include "tagtest.h"

static jmp_buf env;

static int with_setjmp(void)
{
	volatile int n = 0;

	if (setjmp(env) == 0) {
		n = t_count(n);				// tag with_setjmp calls=1
		longjmp(env, 1);
	}
	return n + t_count(2);				// tag with_setjmp calls=1
}


static void release(void **p) { t_free(*p); }

static int with_cleanup(void)
{
	void *p __attribute__((cleanup(release))) = t_alloc(4);	// tag with_cleanup calls=1
	return p != 0;
}

static int with_nested(int k)
{
	int base = k;
	int inner(int x) { return t_count(x + base); }	// tag inner calls=2
	return inner(1) + inner(2);
}

static int with_goto(int i)
{
	static void *labels[] = { &&one, &&two };
	goto *labels[i & 1];
one:
	return t_count(1);				// tag with_goto calls=1
two:
	return t_count(2);				// tag with_goto calls=1
}

static int with_vla(int n)
{
	char buf[t_count(n)];				// tag with_vla calls=1
	buf[0] = 1;
	return (int)sizeof(buf) + buf[0];
}

int main(int argc, char **argv)
{
	(void)argv;
	with_setjmp();
	with_cleanup();
	with_nested(argc);
	with_goto(0);
	with_goto(1);
	with_vla(3);
	t_die(0);					// tag main calls=1
}
