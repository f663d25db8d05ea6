/*
 * LD_PRELOAD shim for the storage tests: fsync and fdatasync first wait the milliseconds written
 * in the file EGW_SLOW_FSYNC_FILE names (read at every call, so the test can start and end a
 * stall while the daemon runs), as a cheap SD card stalls during its garbage collection. When
 * the file holds "EIO" instead, they fail with EIO at once, as a failing card does.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Waits as the file says; returns the errno to fail with, or 0 to go on. */
static int stall(void) {
    const char *path = getenv("EGW_SLOW_FSYNC_FILE");
    FILE *file = path ? fopen(path, "r") : NULL;
    if (!file) return 0;
    char text[32] = "";
    if (!fgets(text, sizeof text, file)) text[0] = 0;
    fclose(file);
    if (strncmp(text, "EIO", 3) == 0) return EIO;
    long milliseconds = strtol(text, NULL, 10);
    if (milliseconds <= 0) return 0;
    struct timespec pause = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&pause, &pause) != 0) {}
    return 0;
}

int fsync(int descriptor) {
    int failure = stall();
    if (failure) {
        errno = failure;
        return -1;
    }
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return real(descriptor);
}

int fdatasync(int descriptor) {
    int failure = stall();
    if (failure) {
        errno = failure;
        return -1;
    }
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    return real(descriptor);
}
