import CDBus

extension Message {
    /// Whether the bus may start (D-Bus activate) the destination for this call; true by default.
    /// A client that only watches a service clears it, so a call racing the service's exit does
    /// not start it again.
    public var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
    }
}
