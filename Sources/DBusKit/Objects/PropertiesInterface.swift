import LinuxKit

/// `org.freedesktop.DBus.Properties`: `Get`, `GetAll` and `Set` over the declared properties.
public enum PropertiesInterface {
    /// The interface name.
    public static let name = "org.freedesktop.DBus.Properties"

    static func handle(
        member: String, message: Message, object: ExportedObject, emit: (Message) -> Void
    ) -> ObjectDispatcher.Outcome? {
        let expected: String
        switch member {
        case "Get": expected = "ss"
        case "GetAll": expected = "s"
        case "Set": expected = "ssv"
        default: return nil
        }
        guard message.signature == expected else {
            return .failure(
                .invalidArgs("Properties.\(member) expects signature '\(expected)', got '\(message.signature)'."))
        }
        do {
            if member == "Set" {
                try set(message, object, emit: emit)
                return .success(.values([]))
            }
            let call = MethodCall(
                message: message, arguments: try message.arguments(stringLimit: DBusNames.maxNameLength))
            return .success(member == "Get" ? try get(call, object) : .values([try getAll(call, object)]))
        } catch {
            return .failure(ObjectDispatcher.asDBusError(error))
        }
    }

    /// Closes every file descriptor in `values`, however deeply nested.
    private static func closeDescriptors(in values: [DBusValue]) {
        for value in values {
            switch value {
            case .unixFD(let fd): FileDescriptor(adopting: fd, path: "a received descriptor").close()
            case .variant(let inner): closeDescriptors(in: [inner])
            case .array(_, let elements), .structure(let elements): closeDescriptors(in: elements)
            case .dictionary(_, _, let entries): closeDescriptors(in: entries.flatMap { [$0.key, $0.value] })
            default: break
            }
        }
    }

    /// Finds a property; an empty interface name searches every interface.
    private static func lookup(_ interfaceName: String, _ propertyName: String, _ object: ExportedObject) throws
        -> ExportedObject.Property
    {
        let candidates: [ExportedObject.Interface]
        if interfaceName.isEmpty {
            candidates = object.interfaces
        } else {
            guard let interface = object.interface(named: interfaceName) else {
                throw DBusError(
                    name: DBusError.Name.unknownInterface, message: "No interface \(DBusError.quote(interfaceName)).")
            }
            candidates = [interface]
        }
        guard let property = candidates.lazy.compactMap({ $0.property(named: propertyName) }).first else {
            throw DBusError(
                name: DBusError.Name.unknownProperty, message: "No property \(DBusError.quote(propertyName)).")
        }
        return property
    }

    private static func get(_ call: MethodCall, _ object: ExportedObject) throws -> ExportedObject.Reply {
        let property = try lookup(try call.string(0), try call.string(1), object)
        if let encoded = property.encodedGet {
            let body = try encoded()
            guard body.signature == "v" else {
                throw DBusError.failed("Property '\(property.name)' produced '\(body.signature)', not a variant.")
            }
            return .encoded(body)
        }
        return .values([.variant(try checkedValue(of: property))])
    }

    /// The getter's value, refused if it does not have the declared type (a bug in the service).
    static func checkedValue(of property: ExportedObject.Property) throws -> DBusValue {
        let value = try property.get()
        guard value.signature == property.signature else {
            throw DBusError.failed(
                "Property '\(property.name)' produced '\(value.signature)', not '\(property.signature)'.")
        }
        return value
    }

    private static func getAll(_ call: MethodCall, _ object: ExportedObject) throws -> DBusValue {
        let interfaceName = try call.string(0)
        let interfaces: [ExportedObject.Interface]
        if interfaceName.isEmpty {
            interfaces = object.interfaces
        } else {
            guard let interface = object.interface(named: interfaceName) else {
                throw DBusError(
                    name: DBusError.Name.unknownInterface, message: "No interface \(DBusError.quote(interfaceName)).")
            }
            interfaces = [interface]
        }
        var pairs: [(String, DBusValue)] = []
        for interface in interfaces {
            for property in interface.properties { pairs.append((property.name, try checkedValue(of: property))) }
        }
        return .vardict(pairs)
    }

    /// `Set`: the interface and the name are read and the property found, and the value's type
    /// checked against the property's, before the value is read at all: a variant may hold a
    /// 64 MiB array, and only a value of the property's own type or of a basic type (a few bytes,
    /// or one string) is ever decoded.
    private static func set(_ message: Message, _ object: ExportedObject, emit: (Message) -> Void) throws {
        let interfaceName = try leadingString(message, 0)
        let property = try lookup(interfaceName, try leadingString(message, 1), object)
        guard property.access == .readWrite, let setter = property.set else {
            throw DBusError(name: DBusError.Name.propertyReadOnly, message: "Property '\(property.name)' is read-only.")
        }
        // The property's own type, or any basic one (a setter may take an `i` for a `u`, as
        // dbus-send users type it): never a container the property cannot hold.
        let signature = message.variantSignature(at: 2) ?? ""
        guard signature == property.signature || (signature.count == 1 && signature != "v") else {
            throw DBusError.invalidArgs(
                "Property '\(property.name)' has type '\(property.signature)', not \(DBusError.quote(signature)).")
        }
        guard let value = try message.argument(at: 2, stringLimit: object.stringLimit)?.variantValue else {
            throw DBusError.invalidArgs("Properties.Set expects a variant.")
        }
        // Reading an `h` dups the descriptor; a property of that type would keep it, nothing else does.
        defer { closeDescriptors(in: [value]) }
        try setter(value)
        guard property.emitsChangedOnSet else { return }
        let owner = object.interfaces.first { $0.property(named: property.name) != nil }
        guard let owner,
            let signal = try? changedSignal(
                path: object.path, interface: owner.name, changed: [(property.name, try checkedValue(of: property))],
                invalidated: [])
        else { return }
        emit(signal)
    }

    /// The string argument at `index` (the signature was checked: it is one).
    private static func leadingString(_ message: Message, _ index: Int) throws -> String {
        guard let value = try message.argument(at: index, stringLimit: DBusNames.maxNameLength)?.stringValue else {
            throw DBusError.invalidArgs("Argument \(index) must be a string.")
        }
        return value
    }

    /// The `PropertiesChanged` signal for `changed` values and `invalidated` names.
    static func changedSignal(
        path: String, interface: String, changed: [(String, DBusValue)], invalidated: [String]
    ) throws -> Message {
        let signal = try Message.signal(path: path, interface: name, name: "PropertiesChanged")
        try signal.append([.string(interface), .vardict(changed), .stringArray(invalidated)])
        return signal
    }
}
