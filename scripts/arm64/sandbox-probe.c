/*
 * The arm64 counterpart of the Python probe in Tests/EdgeGatewayTests/Deploy/SandboxTests.swift
 * (the arm64 roots have no Python): tries four things the unit's seccomp rules decide, and
 * prints one line each, "NAME allowed" or "NAME ERRNO". Under deploy/sandbox-check's launcher
 * the expected answer is netlink EAFNOSUPPORT (RestrictAddressFamilies=), setuid EPERM
 * (@privileged is not allowed; run as root, so only the filter can refuse it), wx-mapping EPERM
 * (MemoryDenyWriteExecute=), nice-0 allowed (setpriority, which libdispatch calls for every
 * worker thread, is allowed again by the unit). Without the launcher all four are allowed,
 * which shows the refusals come from the filter. Used by scripts/arm64/install-check.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

static void report(const char *name, int failed) {
    if (!failed) { printf("%s allowed\n", name); return; }
    switch (errno) {
    case EPERM: printf("%s EPERM\n", name); break;
    case EACCES: printf("%s EACCES\n", name); break;
    case EAFNOSUPPORT: printf("%s EAFNOSUPPORT\n", name); break;
    default: printf("%s errno %d\n", name, errno); break;
    }
}

int main(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
    report("netlink", fd < 0);
    if (fd >= 0) close(fd);

    report("setuid", setuid(0) != 0);

    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    report("wx-mapping", page == MAP_FAILED);
    if (page != MAP_FAILED) munmap(page, 4096);

    report("nice-0", setpriority(PRIO_PROCESS, 0, 0) != 0);
    return 0;
}
