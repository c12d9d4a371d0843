/* rtt: round trips of D-Bus method calls, timed from a plain libdbus client so that the client
 * adds as little as possible to what is measured (docs/BENCHMARKS.md, "petprogressd").
 *
 * Usage: rtt ROUNDS CALLS WARMUP LABEL DEST PATH IFACE MEMBER ARG [LABEL DEST PATH IFACE MEMBER ARG ...]
 *
 * Each target is six words; ARG is "-" for no argument, else string arguments separated by
 * commas ("," is two empty strings, as `GetHistory "" ""` takes). After WARMUP calls to
 * each target, every round makes CALLS blocking calls to each target in turn (A B C A B C ...),
 * so a busy moment on the machine weighs on all of them alike, and prints one line per target
 * and round: "LABEL ROUND P50_NS P99_NS MIN_NS". Exits 1 if any call fails. Talks to the bus in
 * DBUS_SESSION_BUS_ADDRESS. Built by `make bench` with `cc $(pkg-config --cflags --libs dbus-1)`.
 *
 *        rtt --serve NAME DEST PATH IFACE MEMBER
 *
 * The floor for a given reply: calls MEMBER once, keeps the reply, takes the bus name NAME and
 * answers every method call with a copy of it (dbus_message_copy, the reply serial and the
 * destination set: what petprogressd does with a kept reply), in libdbus's own loop. Prints
 * "ready" once NAME is owned; runs until killed.
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

/* Appends the comma-separated strings of `args` to `m`; 0 on success. */
static int append_strings(DBusMessage *m, const char *args) {
    DBusMessageIter it;
    dbus_message_iter_init_append(m, &it);
    for (const char *start = args;;) {
        const char *comma = strchr(start, ',');
        char *piece = strndup(start, comma ? (size_t)(comma - start) : strlen(start));
        int ok = piece && dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &piece);
        free(piece);
        if (!ok) return -1;
        if (!comma) return 0;
        start = comma + 1;
    }
}

/* One blocking call; 0 on a successful reply. The message is built inside the timed span, as
 * any client builds it, the same for every target. */
static int call(DBusConnection *bus, const struct target *t) {
    DBusMessage *m = dbus_message_new_method_call(t->dest, t->path, t->iface, t->member);
    if (!m) return -1;
    if (strcmp(t->arg, "-") != 0 && append_strings(m, t->arg) != 0) {
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

static DBusMessage *kept;

static DBusHandlerResult answer(DBusConnection *bus, DBusMessage *call, void *data) {
    (void)data;
    if (dbus_message_get_type(call) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *reply = dbus_message_copy(kept);
    if (!reply) return DBUS_HANDLER_RESULT_NEED_MEMORY;
    const char *sender = dbus_message_get_sender(call);
    if (!dbus_message_set_reply_serial(reply, dbus_message_get_serial(call)) ||
        (sender && !dbus_message_set_destination(reply, sender)) || !dbus_connection_send(bus, reply, NULL)) {
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_NEED_MEMORY;
    }
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

static int serve(char **w) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) {
        fprintf(stderr, "rtt: cannot connect to the session bus: %s\n", error.message);
        return 1;
    }
    DBusMessage *m = dbus_message_new_method_call(w[1], w[2], w[3], w[4]);
    if (!m) return 1;
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, 5000, &error);
    dbus_message_unref(m);
    if (!reply) {
        fprintf(stderr, "rtt: %s: %s\n", w[4], error.message);
        return 1;
    }
    kept = dbus_message_copy(reply);
    dbus_message_unref(reply);
    // Only the body and the reply serial field stay: the bus sets the sender, each reply its destination.
    if (!kept || !dbus_message_set_sender(kept, NULL) || !dbus_message_set_destination(kept, NULL) ||
        !dbus_connection_add_filter(bus, answer, NULL, NULL)) return 1;
    if (dbus_bus_request_name(bus, w[0], DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "rtt: cannot own %s\n", w[0]);
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    while (dbus_connection_read_write_dispatch(bus, -1)) {
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "--serve") == 0) return serve(argv + 2);
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
