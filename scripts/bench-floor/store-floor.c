/*
 * The floor of the disk writes per sample (docs/PERFORMANCE.md, "The floor"): what a store
 * that makes each second's samples durable costs in bytes written, with nothing else running.
 *
 * "sqlite": the least SQLite does as the gateway's queue is configured (WAL, synchronous=FULL,
 * 512-byte pages, a table with no secondary index): once a second, one transaction inserts
 * that second's samples (69-byte blobs, the size of a stored sample); whenever BATCH are
 * stored, one transaction deletes the oldest BATCH, as acknowledging an upload does. No
 * leases, no status, no history.
 *
 * "log": the floor of any design: once a second, that second's samples (69 bytes each) are
 * appended to a file with write() and fdatasync(). Nothing is ever deleted.
 *
 * Real time, not simulated: SQLite's shared-memory index (-shm) is a mapped file whose dirty
 * pages the kernel writes back every few seconds, so its cost shows only in real time.
 *
 * CPU is counted too (getrusage, user + system): what storing alone costs per sample, the part
 * of a gateway's CPU that notify-floor.c leaves out.
 *
 * Usage: store-floor sqlite|log DIRECTORY SAMPLES_PER_SECOND SECONDS [BATCH]
 * Prints: samples, bytes written (/proc/self/io write_bytes) and CPU µs per sample.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long write_bytes(void) {
    FILE *io = fopen("/proc/self/io", "r");
    char line[128];
    long long value = -1;
    while (io && fgets(line, sizeof line, io))
        if (sscanf(line, "write_bytes: %lld", &value) == 1) break;
    if (io) fclose(io);
    return value;
}

static double cpu_us(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

static void sleep_until(struct timespec *next) {
    next->tv_sec += 1;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) != 0) {}
}

static void check(int status, sqlite3 *db, const char *what) {
    if (status != SQLITE_OK && status != SQLITE_DONE && status != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void run_sqlite(const char *directory, int rate, int seconds, int batch) {
    char path[4096];
    snprintf(path, sizeof path, "%s/floor.sqlite", directory);
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    check(sqlite3_exec(db,
                       "PRAGMA page_size = 512; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
                       "PRAGMA wal_autocheckpoint = 8192;"
                       "CREATE TABLE records (id INTEGER PRIMARY KEY, stream INTEGER NOT NULL,"
                       " capture_time INTEGER NOT NULL, version INTEGER NOT NULL, payload BLOB NOT NULL);",
                       NULL, NULL, NULL),
          db, "schema");
    sqlite3_stmt *insert, *ack;
    check(sqlite3_prepare_v2(db, "INSERT INTO records (stream, capture_time, version, payload) VALUES (1, ?1, 2, ?2)", -1,
                             &insert, NULL),
          db, "prepare insert");
    check(sqlite3_prepare_v2(db, "DELETE FROM records WHERE id IN (SELECT id FROM records ORDER BY id LIMIT ?1)", -1, &ack, NULL),
          db, "prepare delete");
    unsigned char payload[69];
    memset(payload, 0x5a, sizeof payload);
    long long start = write_bytes(), pending = 0;
    double cpu_start = cpu_us();
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (int second = 0; second < seconds; second++) {
        check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
        for (int i = 0; i < rate; i++) {
            sqlite3_bind_int64(insert, 1, (long long)second * 1000000000LL + i);
            sqlite3_bind_blob(insert, 2, payload, sizeof payload, SQLITE_STATIC);
            check(sqlite3_step(insert), db, "insert");
            sqlite3_reset(insert);
        }
        check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
        pending += rate;
        while (batch > 0 && pending >= batch) {
            sqlite3_bind_int(ack, 1, batch);
            check(sqlite3_step(ack), db, "delete");
            sqlite3_reset(ack);
            pending -= batch;
        }
        sleep_until(&next);
    }
    long long samples = (long long)rate * seconds;
    printf("sqlite, %d samples/s, ack every %d: %lld samples, %.0f bytes written and %.1f µs CPU per sample\n", rate, batch,
           samples, (double)(write_bytes() - start) / samples, (cpu_us() - cpu_start) / samples);
    sqlite3_finalize(insert);
    sqlite3_finalize(ack);
    sqlite3_close(db);
}

static void run_log(const char *directory, int rate, int seconds) {
    char path[4096];
    snprintf(path, sizeof path, "%s/floor.log", directory);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) { perror(path); exit(1); }
    size_t size = (size_t)rate * 69;
    unsigned char *chunk = malloc(size);
    memset(chunk, 0x5a, size);
    long long start = write_bytes();
    double cpu_start = cpu_us();
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (int second = 0; second < seconds; second++) {
        if (write(fd, chunk, size) != (ssize_t)size || fdatasync(fd) != 0) { perror("write"); exit(1); }
        sleep_until(&next);
    }
    long long samples = (long long)rate * seconds;
    printf("log, %d samples/s: %lld samples, %.0f bytes written and %.1f µs CPU per sample\n", rate, samples,
           (double)(write_bytes() - start) / samples, (cpu_us() - cpu_start) / samples);
    free(chunk);
    close(fd);
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: store-floor sqlite|log DIRECTORY SAMPLES_PER_SECOND SECONDS [BATCH]\n");
        return 64;
    }
    int rate = atoi(argv[3]), seconds = atoi(argv[4]), batch = argc > 5 ? atoi(argv[5]) : 0;
    if (rate <= 0 || seconds <= 0 || batch < 0) {
        fprintf(stderr, "store-floor: rate and seconds must be positive, batch not negative\n");
        return 64;
    }
    if (strcmp(argv[1], "sqlite") == 0) run_sqlite(argv[2], rate, seconds, batch);
    else if (strcmp(argv[1], "log") == 0) run_log(argv[2], rate, seconds);
    else { fprintf(stderr, "store-floor: unknown store %s\n", argv[1]); return 64; }
    return 0;
}
