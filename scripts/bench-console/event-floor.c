/* The floor under an open console page's cost: what one server-sent event a second costs any
 * server on this machine. A thread sleeps in poll() for a second, wakes and sends SIZE bytes to
 * a client reading over loopback TCP (whose receive path the kernel runs on the sender's CPU,
 * as it does for the daemon), COUNT times; prints the sending thread's CPU per event
 * (/proc/thread-self/schedstat). docs/PERFORMANCE.md, "The console (issue 36)".
 *
 * usage: event-floor COUNT SIZE */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int port;

static long long thread_cpu_ns(void) {
    long long value = 0;
    FILE *file = fopen("/proc/thread-self/schedstat", "r");
    if (!file || fscanf(file, "%lld", &value) != 1) exit(1);
    fclose(file);
    return value;
}

static void *client(void *unused) {
    (void)unused;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) exit(1);
    char buffer[65536];
    while (read(fd, buffer, sizeof buffer) > 0) {}
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: event-floor COUNT SIZE\n"); return 64; }
    int count = atoi(argv[1]), size = atoi(argv[2]);
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0
        || getsockname(listener, (struct sockaddr *)&address, &length) != 0) return 1;
    port = ntohs(address.sin_port);
    pthread_t reader;
    pthread_create(&reader, NULL, client, NULL);
    int connection = accept(listener, NULL, NULL);
    char *event = malloc(size);
    memset(event, 'x', size);
    long long before = thread_cpu_ns();
    for (int i = 0; i < count; i++) {
        poll(NULL, 0, 1000);
        if (send(connection, event, size, MSG_NOSIGNAL | MSG_DONTWAIT) != size) return 1;
    }
    printf("floor: one wake and one send of %d bytes over loopback TCP a second, %d times: %.1f µs CPU per event\n", size, count,
           (thread_cpu_ns() - before) / 1000.0 / count);
    return 0;
}
