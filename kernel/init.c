// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /init of the initramfs of kernel/check-kernel.sh where no static busybox of
 * the kernel's architecture is at hand (arm64 on an x86_64 host): built
 * statically with the kernel's cross compiler.  Does what the busybox script
 * of the x86_64 boots does: mounts /proc, loads each /lib/modules/*.ko, prints
 * /proc/allocinfo and the kernel log between marker lines, and reboots
 * (QEMU runs with -no-reboot, so it exits).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

static void cat(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		printf("alloctag-check: cannot open %s\n", path);
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
}

int main(void)
{
	struct dirent **names;
	char path[512], *log;
	int i, n, fd, len;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount("proc", "/proc", "proc", 0, NULL);
	n = scandir("/lib/modules", &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (!strstr(names[i]->d_name, ".ko"))
			continue;
		snprintf(path, sizeof(path), "/lib/modules/%s", names[i]->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0) != 0)
			printf("alloctag-check: insmod %s failed\n", path);
		if (fd >= 0)
			close(fd);
	}
	printf("alloctag-check: allocinfo begin\n");
	cat("/proc/allocinfo");
	printf("alloctag-check: allocinfo end\n");
	len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	log = len > 0 ? malloc(len) : NULL;
	if (log) {
		len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, len);
		printf("alloctag-check: dmesg begin\n");
		if (len > 0)
			fwrite(log, 1, len, stdout);
		printf("\nalloctag-check: dmesg end\n");
	}
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
