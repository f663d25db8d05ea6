/*
 * The floor of the PropertiesChanged path: the least a process can do per heart-rate
 * notification over BlueZ's D-Bus API. It subscribes to each characteristic given (StartNotify
 * and a match rule, as the gateway does) and, per signal, wakes, reads it with libdbus, finds the
 * "Value" bytes and reads the heart rate: nothing is stored or uploaded. What it costs in CPU
 * per notification is what any gateway on libdbus pays before doing any of its own work.
 *
 * With "acquire" it takes each characteristic's AcquireNotify socket instead, and per
 * notification wakes and reads one packet: the floor of the socket path read as packets come.
 *
 * Usage: notify-floor BUS_ADDRESS CHARACTERISTIC_PATH[,PATH...] WARMUP_S WINDOW_S [acquire]
 * Prints: notifications, CPU µs per notification, wake-ups per second (voluntary+involuntary
 * context switches) over the window.
 */
#include <dbus/dbus.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_s(long *switches) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    *switches = u.ru_nvcsw + u.ru_nivcsw;
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* The heart rate in a PropertiesChanged(s a{sv} as) body whose dictionary has "Value" (ay); -1
 * for a malformed frame, -2 for a change without a Value (bluetoothd's "Notifying" on start). */
static int heart_rate(DBusMessage *message) {
    DBusMessageIter body, dictionary, entry, variant, bytes;
    if (!dbus_message_iter_init(message, &body) || !dbus_message_iter_next(&body)) return -1;
    if (dbus_message_iter_get_arg_type(&body) != DBUS_TYPE_ARRAY) return -1;
    dbus_message_iter_recurse(&body, &dictionary);
    for (; dbus_message_iter_get_arg_type(&dictionary) == DBUS_TYPE_DICT_ENTRY; dbus_message_iter_next(&dictionary)) {
        const char *key;
        dbus_message_iter_recurse(&dictionary, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        if (strcmp(key, "Value") != 0) continue;  /* Notifying, or another property: not a frame */
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &variant);
        if (dbus_message_iter_get_arg_type(&variant) != DBUS_TYPE_ARRAY) return -1;
        dbus_message_iter_recurse(&variant, &bytes);
        const unsigned char *frame;
        int length;
        dbus_message_iter_get_fixed_array(&bytes, &frame, &length);
        if (length < 2) return -1;
        return (frame[0] & 1) ? (length >= 3 ? frame[1] | frame[2] << 8 : -1) : frame[1];
    }
    return -2;
}

/* A match rule for the characteristic's PropertiesChanged and StartNotify, or AcquireNotify:
 * its socket, -1 for StartNotify, -2 on failure (printed). */
static int subscribe(DBusConnection *connection, const char *path, int acquire) {
    DBusError error;
    dbus_error_init(&error);
    char rule[1024];
    snprintf(rule, sizeof rule,
             "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',"
             "member='PropertiesChanged',path='%s',arg0='org.bluez.GattCharacteristic1'", path);
    dbus_bus_add_match(connection, rule, &error);
    DBusMessage *call = dbus_message_new_method_call("org.bluez", path, "org.bluez.GattCharacteristic1",
                                                     acquire ? "AcquireNotify" : "StartNotify");
    if (acquire) {
        DBusMessageIter arguments, options;
        dbus_message_iter_init_append(call, &arguments);
        dbus_message_iter_open_container(&arguments, DBUS_TYPE_ARRAY, "{sv}", &options);
        dbus_message_iter_close_container(&arguments, &options);
    }
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(connection, call, 10000, &error);
    dbus_message_unref(call);
    if (!reply) {
        fprintf(stderr, "%s on %s failed: %s\n", acquire ? "AcquireNotify" : "StartNotify", path, error.message);
        return -2;
    }
    int socket_fd = -1;
    dbus_uint16_t mtu = 0;
    if (acquire && !dbus_message_get_args(reply, &error, DBUS_TYPE_UNIX_FD, &socket_fd, DBUS_TYPE_UINT16, &mtu, DBUS_TYPE_INVALID)) {
        fprintf(stderr, "unexpected AcquireNotify reply: %s\n", error.message);
        socket_fd = -2;
    }
    dbus_message_unref(reply);
    return socket_fd;
}

int main(int argc, char **argv) {
    int acquire = argc == 6 && strcmp(argv[5], "acquire") == 0;
    if (argc != 5 && !acquire) {
        fprintf(stderr, "usage: %s BUS_ADDRESS CHARACTERISTIC_PATH[,PATH...] WARMUP_S WINDOW_S [acquire]\n", argv[0]);
        return 64;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(argv[1], &error);
    if (!connection || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "cannot connect to %s: %s\n", argv[1], error.message);
        return 69;
    }
    struct pollfd sockets[64];
    nfds_t socket_count = 0;
    for (char *path = strtok(argv[2], ","); path; path = strtok(NULL, ",")) {
        int socket_fd = subscribe(connection, path, acquire);
        if (socket_fd == -2) return 69;
        if (acquire && socket_count == sizeof sockets / sizeof sockets[0]) {
            fprintf(stderr, "acquire takes at most 64 characteristics\n");
            return 64;
        }
        if (acquire) sockets[socket_count++] = (struct pollfd){.fd = socket_fd, .events = POLLIN};
    }

    double warmup = atof(argv[3]), window = atof(argv[4]);
    double start = now_s(), begin = 0, cpu_begin = 0;
    long switches_begin = 0, counted = 0, bad = 0;
    int measuring = 0;
    while (1) {
        double elapsed = now_s() - start;
        if (!measuring && elapsed >= warmup) {
            measuring = 1;
            begin = now_s();
            cpu_begin = cpu_s(&switches_begin);
        }
        if (elapsed >= warmup + window) break;
        /* Block until the next message or the next phase boundary: no polling in between. */
        double left = (measuring ? warmup + window : warmup) - elapsed;
        if (acquire) {
            if (poll(sockets, socket_count, (int)(left * 1000) + 1) < 0) break;
            int ended = 0;
            for (nfds_t index = 0; index < socket_count; index++) {
                if (!sockets[index].revents) continue;
                unsigned char frame[512];
                ssize_t length;
                while ((length = recv(sockets[index].fd, frame, sizeof frame, MSG_DONTWAIT)) > 0) {
                    int valid = length >= 2 && (!(frame[0] & 1) || length >= 3);
                    if (!valid) bad++;
                    else if (measuring) counted++;
                }
                if (length == 0) ended = 1;
            }
            if (ended) break;
            continue;
        }
        if (!dbus_connection_read_write(connection, (int)(left * 1000) + 1)) break;
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(connection))) {
            if (dbus_message_is_signal(message, "org.freedesktop.DBus.Properties", "PropertiesChanged")) {
                int rate = heart_rate(message);
                if (rate == -1) bad++;
                else if (rate >= 0 && measuring) counted++;
            }
            dbus_message_unref(message);
        }
    }
    long switches_end;
    double cpu = cpu_s(&switches_end) - cpu_begin, wall = now_s() - begin;
    printf("notifications %ld in %.1f s (%ld malformed), CPU %.1f µs/notification, %.0f µs/s, %.1f wake-ups/s\n",
           counted, wall, bad, counted ? cpu * 1e6 / counted : 0.0, cpu * 1e6 / wall, (switches_end - switches_begin) / wall);
    return 0;
}
