/* floor: the least a D-Bus name owner can be, the floor petprogressd's start-up and resident
 * memory are measured against (docs/BENCHMARKS.md,
 * "Lean III: the C floor, and where the daemon's start-up goes").
 *
 * Usage: floor [NAME]    (default org.example.PetProgressFloor)
 *
 * Links the same shared libdbus-1 the daemon links, connects to the session bus, owns NAME
 * (DBUS_NAME_FLAG_DO_NOT_QUEUE) and serves what libdbus answers by itself,
 * org.freedesktop.DBus.Peer.Ping and GetMachineId, in libdbus's own loop, as playerctld does
 * without a player. Every other method call gets UnknownMethod. Exits 1 if it cannot connect or
 * the name is taken; runs until killed (SIGTERM's default action). Built by `make bench` with
 * `cc $(pkg-config --cflags --libs dbus-1)`.
 */
#include <dbus/dbus.h>
#include <stdio.h>

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "org.example.PetProgressFloor";
    DBusError err;
    dbus_error_init(&err);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &err);
    if (!bus) {
        fprintf(stderr, "floor: %s\n", err.message);
        return 1;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    int owned = dbus_bus_request_name(bus, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err);
    if (owned != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "floor: cannot own %s%s%s\n", name, err.message ? ": " : "", err.message ? err.message : "");
        return 1;
    }
    /* No object is registered: libdbus answers Peer itself and UnknownMethod to the rest. */
    while (dbus_connection_read_write_dispatch(bus, -1)) {
    }
    return 0;
}
