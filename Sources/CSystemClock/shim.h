/*
 * adjtimex(2), which Glibc's Swift overlay does not expose: the kernel's own answer to
 * "is the system clock synchronised?" (STA_UNSYNC), the same one timedatectl reports.
 * No logic lives here.
 */
#ifndef CSYSTEMCLOCK_SHIM_H
#define CSYSTEMCLOCK_SHIM_H
#include <sys/timex.h>
#endif
