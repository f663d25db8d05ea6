/*
 * Linux and glibc interfaces that Glibc's Swift overlay does not expose. No logic lives here beyond
 * argument packing.
 * - adjtimex(2): the kernel's own answer to "is the system clock synchronised?" (STA_UNSYNC),
 *   the same one timedatectl reports.
 * - mallinfo2(3): heap in use, for the benchmarks' memory figures.
 * - getrandom(2): random bytes in one system call (sample UUIDs), without opening a file.
 * - prctl(2) PR_SET_NAME: a thread's name, as top -H shows it (prctl is variadic).
 * - eventfd(2) and ppoll(2): how the loop executor's thread is woken and sleeps until its next
 *   timer, to the nanosecond; gettid(2), which names a thread in /proc/self/task. glibc declares
 *   ppoll only under _GNU_SOURCE, which would change struct layouts and break this module
 *   against Glibc's, so its prototype is declared here (glibc exports it whatever the macros).
 * - The Swift concurrency runtime's enqueue hooks: global variables the runtime exports (in
 *   libswift_Concurrency, static or shared) and consults before handing a job to libdispatch,
 *   on every toolchain since 5.x. They hold Swift-convention function pointers; Swift stores
 *   them through clinux_set_concurrency_hooks, since Swift 6 refuses a mutable C global.
 * - posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34): a spawned child gets none of the
 *   parent's descriptors beyond the ones it is given; declared here like ppoll.
 * - dl_iterate_phdr(3): the loaded objects' program headers, which say which of the daemon's
 *   mappings are code and read-only data (the daemon unmaps those it ran once). link.h declares
 *   it and its struct only under _GNU_SOURCE, so both are declared here: the struct's first four
 *   fields, which dl_iterate_phdr(3) documents and every glibc passes, and the function bound
 *   to glibc's symbol by an asm label.
 * - O_DIRECT, which glibc defines only under _GNU_SOURCE: the kernel's value for each
 *   architecture the gateway is built for (the queue's ingest journal writes through it).
 * - SO_TIMESTAMPNS and recvmsg(2)'s control messages, whose macros Swift does not import: a
 *   notification socket's packets each carry the time the kernel received them.
 */
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
#include <link.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int clinux_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
extern int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *mask);

/* Sleeps until `descriptor` is readable or `nanoseconds` have passed (forever when negative);
   returns what ppoll returns: 1 readable, 0 timed out, -1 with errno set (EINTR). */
static inline int clinux_wait_readable(int descriptor, long long nanoseconds) {
    struct pollfd entry = { .fd = descriptor, .events = POLLIN, .revents = 0 };
    if (nanoseconds < 0) return ppoll(&entry, 1, NULL, NULL);
    struct timespec timeout = { .tv_sec = nanoseconds / 1000000000LL, .tv_nsec = nanoseconds % 1000000000LL };
    return ppoll(&entry, 1, &timeout, NULL);
}

/* The fields of glibc's struct dl_phdr_info that every version has (its callback's size says
   how many follow), and dl_iterate_phdr under a name that takes it. */
struct clinux_loaded_object {
    ElfW(Addr) address;
    const char *name;
    const ElfW(Phdr) *headers;
    ElfW(Half) headerCount;
};
extern int clinux_each_loaded_object(int (*callback)(struct clinux_loaded_object *object, size_t size, void *context), void *context)
    __asm__("dl_iterate_phdr");

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueMainExecutor_hook;

/* Routes the runtime's global and main-executor jobs to `global` and `main`, each a Swift
   `@convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void`. */
static inline void clinux_set_concurrency_hooks(void *global, void *main) {
    swift_task_enqueueGlobal_hook = global;
    swift_task_enqueueMainExecutor_hook = main;
}

/* The calling thread's kernel id. */
static inline int clinux_thread_id(void) {
    return (int)syscall(SYS_gettid);
}

/* open(2)'s O_DIRECT: the kernel ABI's value on x86 and on Arm (each arch's uapi asm/fcntl.h). */
static inline int clinux_o_direct(void) {
#if defined(__x86_64__) || defined(__i386__)
    return 040000;
#elif defined(__aarch64__) || defined(__arm__)
    return 0200000;
#else
#error "O_DIRECT: unknown architecture"
#endif
}

/* Asks the kernel to stamp each packet `socket` receives with its arrival (SO_TIMESTAMPNS,
   CLOCK_REALTIME); 0, or -1 with errno set. */
static inline int clinux_stamp_arrivals(int socket) {
    int on = 1;
    return setsockopt(socket, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on);
}

/* Reads one packet from `socket` into `buffer` without blocking, and the time it arrived in
   nanoseconds since 1970 into `arrived` (0 when it carries none); returns what recvmsg returns. */
static inline ssize_t clinux_receive_stamped(int socket, void *buffer, size_t length, long long *arrived) {
    struct iovec data = { .iov_base = buffer, .iov_len = length };
    union { char bytes[CMSG_SPACE(sizeof(struct timespec))]; struct cmsghdr alignment; } control;
    struct msghdr message = { .msg_iov = &data, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    ssize_t count = recvmsg(socket, &message, MSG_DONTWAIT);
    *arrived = 0;
    for (struct cmsghdr *header = count >= 0 ? CMSG_FIRSTHDR(&message) : NULL; header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS
            && header->cmsg_len >= CMSG_LEN(sizeof(struct timespec))) {
            struct timespec time;
            memcpy(&time, CMSG_DATA(header), sizeof time);
            *arrived = time.tv_sec * 1000000000LL + time.tv_nsec;
        }
    }
    return count;
}

#endif
