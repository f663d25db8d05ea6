/*
 * Runs a program under the seccomp rules that deploy/edge-gateway.service asks systemd for, so
 * they can be tried where systemd is not PID 1 (containers, CI). Used by sandbox-run.sh, which
 * generates allowed-syscalls.h from `systemd-analyze syscall-filter`.
 *
 * Rules, as systemd 252 implements them (x86-64 and arm64):
 *   SystemCallArchitectures=native   other ABIs are killed
 *   SystemCallFilter=... with SystemCallErrorNumber=EPERM
 *                                    a call outside the allow list fails with EPERM
 *   MemoryDenyWriteExecute=yes       mmap(PROT_WRITE|PROT_EXEC), mprotect/pkey_mprotect(PROT_EXEC),
 *                                    shmat(SHM_EXEC) fail with EPERM
 *   RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
 *                                    socket() of any other family fails with EAFNOSUPPORT
 * Usage: seccomp-launcher PROGRAM [ARGUMENT ...]
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "only x86-64 and arm64"
#endif

static const long allowed[] = {
#include "allowed-syscalls.h"
};

#define MAX_FILTER 4096
static struct sock_filter filter[MAX_FILTER];
static unsigned short length;

static void add(unsigned short code, unsigned char jt, unsigned char jf, unsigned int k) {
    if (length == MAX_FILTER) { fputs("seccomp-launcher: filter too long\n", stderr); _exit(127); }
    filter[length++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

#define LOAD_NR() add(BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof(struct seccomp_data, nr))
#define LOAD_ARG(n) add(BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof(struct seccomp_data, args[n]))
#define RETURN(value) add(BPF_RET | BPF_K, 0, 0, (value))
#define DENY(error) RETURN(SECCOMP_RET_ERRNO | (error))

/* Calls with argument rules: if the number matches, decide on `arg` & mask (== mask when
 * `all` is set, != 0 otherwise); a match of the rule is denied with EPERM. */
static void argument_rule(long number, int arg, unsigned int mask, int all) {
    add(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, (unsigned int)number);
    LOAD_ARG(arg);
    add(BPF_ALU | BPF_AND | BPF_K, 0, 0, mask);
    add(BPF_JMP | BPF_JEQ | BPF_K, all ? 0 : 1, all ? 1 : 0, all ? mask : 0);
    DENY(EPERM);
    RETURN(SECCOMP_RET_ALLOW);
    LOAD_NR();
}

int main(int argc, char **argv) {
    if (argc < 2) { fputs("usage: seccomp-launcher PROGRAM [ARGUMENT ...]\n", stderr); return 64; }

    add(BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof(struct seccomp_data, arch));
    add(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, NATIVE_ARCH);
    RETURN(SECCOMP_RET_KILL_PROCESS);
    LOAD_NR();

    argument_rule(SYS_mmap, 2, PROT_WRITE | PROT_EXEC, 1);
    argument_rule(SYS_mprotect, 2, PROT_EXEC, 0);
#ifdef SYS_pkey_mprotect
    argument_rule(SYS_pkey_mprotect, 2, PROT_EXEC, 0);
#endif
#ifdef SYS_shmat
    argument_rule(SYS_shmat, 2, SHM_EXEC, 0);
#endif
    /* socket(): only the families the unit allows. */
    add(BPF_JMP | BPF_JEQ | BPF_K, 0, 7, SYS_socket);
    LOAD_ARG(0);
    add(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, AF_UNIX);
    add(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, AF_INET);
    add(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, AF_INET6);
    DENY(EAFNOSUPPORT);
    RETURN(SECCOMP_RET_ALLOW);
    LOAD_NR();

    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        add(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (unsigned int)allowed[i]);
        RETURN(SECCOMP_RET_ALLOW);
    }
    DENY(EPERM);

    struct sock_fprog program = { .len = length, .filter = filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) { perror("seccomp-launcher: PR_SET_NO_NEW_PRIVS"); return 127; }
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) { perror("seccomp-launcher: seccomp"); return 127; }
    execv(argv[1], argv + 1);
    perror("seccomp-launcher: execv");
    return 127;
}
