extension Connection {
    /// Emits signal `name` of `interface` from the object at `path`, with `arguments`.
    public func emitSignal(path: String, interface: String, name: String, arguments: [DBusValue] = []) throws {
        let signal = try Message.signal(path: path, interface: interface, name: name)
        try signal.append(arguments)
        try send(signal)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` with new values and invalidated names.
    public func emitPropertiesChanged(
        path: String, interface: String, changed: [(String, DBusValue)], invalidated: [String] = []
    ) throws {
        try send(
            PropertiesInterface.changedSignal(
                path: path, interface: interface, changed: changed, invalidated: invalidated))
    }

    /// Emits `PropertiesChanged` for the named properties of `object`, reading each through its getter.
    public func emitPropertiesChanged(of object: ExportedObject, interface: String, names: [String]) throws {
        guard let declared = object.interface(named: interface) else {
            throw DBusError(name: DBusError.Name.unknownInterface, message: "No interface '\(interface)'.")
        }
        var changed: [(String, DBusValue)] = []
        for name in names {
            guard let property = declared.property(named: name) else {
                throw DBusError(name: DBusError.Name.unknownProperty, message: "No property '\(name)'.")
            }
            changed.append((name, try PropertiesInterface.checkedValue(of: property)))
        }
        try emitPropertiesChanged(path: object.path, interface: interface, changed: changed)
    }
}
