#!/usr/bin/python3
"""Gives a headless Wayland compositor a mouse: a zwlr_virtual_pointer_v1, held while stdin is open.

A headless sway has no input devices, so its seat has no pointer capability, and clients such as
waybar never bind a wl_pointer: `swaymsg seat - cursor press` then reaches nobody. While this
program holds a virtual pointer, the seat has one, and sway's `seat - cursor set/press/release`
commands click real clients. It speaks the Wayland wire protocol itself (a unix socket, five fixed
requests), so it needs nothing beyond python3 — Debian 12 packages no virtual-pointer tool.

    virtual-pointer.py      (WAYLAND_DISPLAY and XDG_RUNTIME_DIR name the compositor)

Prints "ready" once the compositor has made the device, then waits until stdin reaches end of
file and exits, which removes the device. Exits 1 with one line on stderr when the compositor has
no virtual-pointer manager or reports a protocol error.
"""

import os
import socket
import struct
import sys

MANAGER = "zwlr_virtual_pointer_manager_v1"
# Object ids. A client must number its new objects 2, 3, 4 … in the order it makes them.
DISPLAY, REGISTRY, FIRST_SYNC, MANAGER_ID, POINTER, LAST_SYNC = 1, 2, 3, 4, 5, 6


def string(text):
    """A Wayland string argument: length with the NUL, the bytes, padding to 32 bits."""
    data = text.encode() + b"\0"
    return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)


def request(sock, object_id, opcode, payload=b""):
    """Sends one request: the object, the size and opcode, then the arguments."""
    sock.sendall(struct.pack("=II", object_id, (8 + len(payload)) << 16 | opcode) + payload)


def events(sock):
    """Yields (object, opcode, payload) for each event the compositor sends."""
    buffer = b""
    while True:
        while len(buffer) >= 8:
            object_id, word = struct.unpack_from("=II", buffer)
            size = word >> 16
            if size < 8 or len(buffer) < size:
                break
            yield object_id, word & 0xFFFF, buffer[8:size]
            buffer = buffer[size:]
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("virtual-pointer: the compositor closed the connection")
        buffer += chunk


def read_string(payload, at):
    """The string argument at offset `at`, and the offset after it."""
    (length,) = struct.unpack_from("=I", payload, at)
    text = payload[at + 4 : at + 4 + length - 1].decode(errors="replace")
    return text, at + 4 + length + (-length % 4)


def roundtrip(sock, stream, callback, on_event=lambda *_: None):
    """Asks for a wl_callback (a fresh id) and hands every event before its `done` to on_event."""
    request(sock, DISPLAY, 0, struct.pack("=I", callback))  # wl_display.sync
    for object_id, opcode, payload in stream:
        if object_id == DISPLAY and opcode == 0:  # wl_display.error: object, code, message
            message, _ = read_string(payload, 8)
            sys.exit(f"virtual-pointer: protocol error: {message}")
        if object_id == callback and opcode == 0:
            return
        on_event(object_id, opcode, payload)


def main():
    runtime, display = os.environ.get("XDG_RUNTIME_DIR", ""), os.environ.get("WAYLAND_DISPLAY", "wayland-0")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(display if display.startswith("/") else os.path.join(runtime, display))
    stream = events(sock)
    found = {}

    def on_global(object_id, opcode, payload):
        if object_id == REGISTRY and opcode == 0:  # wl_registry.global: name, interface, version
            (name,) = struct.unpack_from("=I", payload)
            interface, _ = read_string(payload, 4)
            found[interface] = name

    request(sock, DISPLAY, 1, struct.pack("=I", REGISTRY))  # wl_display.get_registry
    roundtrip(sock, stream, FIRST_SYNC, on_global)
    if MANAGER not in found:
        sys.exit(f"virtual-pointer: the compositor offers no {MANAGER}")
    # wl_registry.bind(name, new_id untyped: interface, version, id)
    request(sock, REGISTRY, 0, struct.pack("=I", found[MANAGER]) + string(MANAGER) + struct.pack("=II", 1, MANAGER_ID))
    # create_virtual_pointer(seat: null, the default seat; id)
    request(sock, MANAGER_ID, 0, struct.pack("=II", 0, POINTER))
    roundtrip(sock, stream, LAST_SYNC)
    print("ready", flush=True)
    sys.stdin.buffer.read()


if __name__ == "__main__":
    main()
