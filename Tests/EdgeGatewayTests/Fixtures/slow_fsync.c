/*
 * LD_PRELOAD shim for the slow-storage test: fsync and fdatasync first wait the milliseconds
 * written in the file EGW_SLOW_FSYNC_FILE names (read at every call, so the test can start and
 * end a stall while the daemon runs), as a cheap SD card stalls during its garbage collection.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void stall(void) {
    const char *path = getenv("EGW_SLOW_FSYNC_FILE");
    FILE *file = path ? fopen(path, "r") : NULL;
    if (!file) return;
    long milliseconds = 0;
    if (fscanf(file, "%ld", &milliseconds) != 1) milliseconds = 0;
    fclose(file);
    if (milliseconds <= 0) return;
    struct timespec pause = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&pause, &pause) != 0) {}
}

int fsync(int descriptor) {
    stall();
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real(descriptor);
}

int fdatasync(int descriptor) {
    stall();
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return real(descriptor);
}
