import CDBus

extension Connection {
    /// Asks the bus for the well-known `name` with DO_NOT_QUEUE.
    ///
    /// Call it after exporting objects, so that no caller reaches the name before its objects exist.
    /// Throws ``NameRequestError/taken(_:)`` when another connection owns it.
    public func requestName(_ name: String) throws(NameRequestError) {
        guard DBusNames.isValidBusName(name), !name.hasPrefix(":") else { throw .invalidName(name) }
        let reply: Int32
        do {
            reply = try LibDBus.withError { dbus_bus_request_name(raw, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), $0) }
        } catch let error as DBusError {
            throw .failed(error)
        } catch {
            throw .failed(.failed("\(error)"))
        }
        switch reply {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return
        case DBUS_REQUEST_NAME_REPLY_EXISTS, DBUS_REQUEST_NAME_REPLY_IN_QUEUE: throw .taken(name)
        default: throw .failed(.failed("Unexpected RequestName reply \(reply)."))
        }
    }

    /// Gives up a well-known name this connection owns.
    public func releaseName(_ name: String) throws {
        try DBusNames.requireBusName(name)
        _ = try LibDBus.withError { dbus_bus_release_name(raw, name, $0) }
    }

    /// True when some connection on the bus owns `name`.
    public func nameHasOwner(_ name: String) throws -> Bool {
        try DBusNames.requireBusName(name)
        return try LibDBus.withError { dbus_bus_name_has_owner(raw, name, $0) } != 0
    }
}
