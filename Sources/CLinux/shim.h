/*
 * Linux and glibc interfaces that Glibc's Swift overlay does not expose. No logic lives here.
 * - adjtimex(2): the kernel's own answer to "is the system clock synchronised?" (STA_UNSYNC),
 *   the same one timedatectl reports.
 * - mallinfo2(3): heap in use, for the benchmarks' memory figures.
 * - getrandom(2): random bytes in one system call (sample UUIDs), without opening a file.
 */
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#include <malloc.h>
#include <sys/random.h>
#include <sys/timex.h>
#endif
