/* rtt: round trips of D-Bus method calls, timed from a plain libdbus client so that the client
 * adds as little as possible to what is measured (docs/BENCHMARKS.md, "petprogressd").
 *
 * Usage: rtt ROUNDS CALLS WARMUP LABEL DEST PATH IFACE MEMBER ARG [LABEL DEST PATH IFACE MEMBER ARG ...]
 *
 * Each target is six words; ARG is one string argument, or "-" for none. After WARMUP calls to
 * each target, every round makes CALLS blocking calls to each target in turn (A B C A B C ...),
 * so a busy moment on the machine weighs on all of them alike, and prints one line per target
 * and round: "LABEL ROUND P50_NS P99_NS MIN_NS". Exits 1 if any call fails. Talks to the bus in
 * DBUS_SESSION_BUS_ADDRESS. Built by `make bench` with `cc $(pkg-config --cflags --libs dbus-1)`.
 */
#include <dbus/dbus.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct target {
    const char *label, *dest, *path, *iface, *member, *arg;
};

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One blocking call; 0 on a successful reply. The message is built inside the timed span, as
 * any client builds it, the same for every target. */
static int call(DBusConnection *bus, const struct target *t) {
    DBusMessage *m = dbus_message_new_method_call(t->dest, t->path, t->iface, t->member);
    if (!m) return -1;
    if (strcmp(t->arg, "-") != 0 && !dbus_message_append_args(m, DBUS_TYPE_STRING, &t->arg, DBUS_TYPE_INVALID)) {
        dbus_message_unref(m);
        return -1;
    }
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, 5000, &error);
    dbus_message_unref(m);
    if (!reply) {
        fprintf(stderr, "rtt: %s: %s: %s\n", t->label, error.name, error.message);
        dbus_error_free(&error);
        return -1;
    }
    dbus_message_unref(reply);
    return 0;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 10 || (argc - 4) % 6 != 0) {
        fprintf(stderr, "usage: rtt ROUNDS CALLS WARMUP LABEL DEST PATH IFACE MEMBER ARG [...]\n");
        return 64;
    }
    int rounds = atoi(argv[1]), calls = atoi(argv[2]), warmup = atoi(argv[3]);
    int count = (argc - 4) / 6;
    if (rounds < 1 || calls < 1 || warmup < 0) {
        fprintf(stderr, "rtt: ROUNDS and CALLS must be positive\n");
        return 64;
    }
    struct target *targets = calloc((size_t)count, sizeof *targets);
    int64_t *times = calloc((size_t)calls, sizeof *times);
    if (!targets || !times) return 1;
    for (int i = 0; i < count; i++) {
        char **w = argv + 4 + 6 * i;
        targets[i] = (struct target){w[0], w[1], w[2], w[3], w[4], w[5]};
    }
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) {
        fprintf(stderr, "rtt: cannot connect to the session bus: %s\n", error.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    for (int i = 0; i < count; i++)
        for (int n = 0; n < warmup; n++)
            if (call(bus, &targets[i]) != 0) return 1;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < count; i++) {
            for (int n = 0; n < calls; n++) {
                int64_t t0 = now_ns();
                if (call(bus, &targets[i]) != 0) return 1;
                times[n] = now_ns() - t0;
            }
            qsort(times, (size_t)calls, sizeof *times, compare);
            printf("%s %d %lld %lld %lld\n", targets[i].label, r, (long long)times[calls / 2],
                   (long long)times[(calls * 99) / 100], (long long)times[0]);
            fflush(stdout);
        }
    }
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    free(times);
    free(targets);
    return 0;
}
