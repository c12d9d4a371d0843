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
            let arguments = try message.arguments()
            // Reading an `h` dups the descriptor; a Set's variant may carry one, and nothing keeps it.
            defer { closeDescriptors(in: arguments) }
            let call = MethodCall(message: message, arguments: arguments)
            switch member {
            case "Get": return .success(try get(call, object))
            case "GetAll": return .success(.values([try getAll(call, object)]))
            default:
                try set(call, object, emit: emit)
                return .success(.values([]))
            }
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
                throw DBusError(name: DBusError.Name.unknownInterface, message: "No interface '\(interfaceName)'.")
            }
            candidates = [interface]
        }
        guard let property = candidates.lazy.compactMap({ $0.property(named: propertyName) }).first else {
            throw DBusError(name: DBusError.Name.unknownProperty, message: "No property '\(propertyName)'.")
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
                throw DBusError(name: DBusError.Name.unknownInterface, message: "No interface '\(interfaceName)'.")
            }
            interfaces = [interface]
        }
        var pairs: [(String, DBusValue)] = []
        for interface in interfaces {
            for property in interface.properties { pairs.append((property.name, try checkedValue(of: property))) }
        }
        return .vardict(pairs)
    }

    private static func set(_ call: MethodCall, _ object: ExportedObject, emit: (Message) -> Void) throws {
        let interfaceName = try call.string(0)
        let property = try lookup(interfaceName, try call.string(1), object)
        guard property.access == .readWrite, let setter = property.set else {
            throw DBusError(name: DBusError.Name.propertyReadOnly, message: "Property '\(property.name)' is read-only.")
        }
        try setter(try call.variant(2))
        guard property.emitsChangedOnSet else { return }
        let owner = object.interfaces.first { $0.property(named: property.name) != nil }
        guard let owner,
            let signal = try? changedSignal(
                path: object.path, interface: owner.name, changed: [(property.name, try checkedValue(of: property))],
                invalidated: [])
        else { return }
        emit(signal)
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
