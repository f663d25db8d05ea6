/*
 * Linux and glibc interfaces that Glibc's Swift overlay does not expose. No logic lives here.
 * - adjtimex(2): the kernel's own answer to "is the system clock synchronised?" (STA_UNSYNC),
 *   the same one timedatectl reports.
 * - mallinfo2(3): heap in use, for the benchmarks' memory figures.
 * - getrandom(2): random bytes in one system call (sample UUIDs), without opening a file.
 * - prctl(2) PR_SET_NAME: a thread's name, as top -H shows it (prctl is variadic).
 */
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#include <malloc.h>
#include <sys/random.h>
#include <sys/timex.h>
#include <sys/prctl.h>

static inline int clinux_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
