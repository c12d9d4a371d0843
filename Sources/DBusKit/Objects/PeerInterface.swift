import CDBus

/// `org.freedesktop.DBus.Peer`, answered by DBusKit rather than by libdbus.
///
/// libdbus answers `Ping` and `GetMachineId` itself, before any object sees the call, and ignores
/// the arguments: a `Ping` with a string argument succeeds. petprogress(7) §6.1 wants `InvalidArgs` for a
/// wrong signature, so an exporting connection routes Peer calls to its objects
/// (`dbus_connection_set_route_peer_messages`) and they end up here, for any object path.
enum PeerInterface {
    /// The interface name.
    static let name = "org.freedesktop.DBus.Peer"

    /// The reply to a Peer call, or nil when `member` is not a Peer method.
    static func handle(member: String, message: Message) -> ObjectDispatcher.Outcome? {
        guard member == "Ping" || member == "GetMachineId" else { return nil }
        guard message.signature.isEmpty else {
            return .failure(.invalidArgs("\(member) takes no arguments, got '\(message.signature)'."))
        }
        guard member == "GetMachineId" else { return .success(.values([])) }
        do {
            let id = try LibDBus.withError { dbus_try_get_local_machine_id($0) }
            return .success(.values([.string(LibDBus.takeString(id) ?? "")]))
        } catch {
            return .failure(ObjectDispatcher.asDBusError(error))
        }
    }
}
