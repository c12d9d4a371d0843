import DBusKit
import PetCore

/// The daemon's signals, subscribed to and decoded (petprogress(7) §6.1).
extension PetClient {
    /// Delivers the daemon's signals to `handler` while the connection's event loop runs: one
    /// subscription for the interface's signals, one for its `PropertiesChanged`, each believed
    /// only from the daemon name's current owner. Signals that do not have the contract's shape
    /// are dropped before their bodies are read.
    public func subscribe(_ handler: @escaping (PetSignal) -> Void) throws(PetClientError) -> [Subscription] {
        let own = MatchRule(sender: PetBus.name, path: PetBus.path, interface: PetBus.interface)
        let properties = MatchRule(
            sender: PetBus.name, path: PetBus.path, interface: PropertiesInterface.name, member: "PropertiesChanged")
        do {
            return [
                try connection.subscribe(own) { message in Self.signal(message).map(handler) },
                try connection.subscribe(properties) { message in Self.propertiesSignal(message).map(handler) },
            ]
        } catch {
            throw PetClientError(error as? DBusError ?? .failed("\(error)"))
        }
    }

    /// The rules have checked the sender (the daemon name's current owner), the path and the
    /// interface; the member and the signature are checked here, before the body is read.
    static func signal(_ message: Message) -> PetSignal? {
        switch message.member.flatMap(PetBus.Signal.init(rawValue:)) {
        case .entryChanged?:
            guard message.signature == "a{sv}", let value = try? message.arguments().first else { return nil }
            return (try? WidgetEntry(dbus: value)).map { .entryChanged($0) }
        case .tasksChanged?: return message.signature.isEmpty ? .tasksChanged : nil
        case nil: return nil
        }
    }

    static func propertiesSignal(_ message: Message) -> PetSignal? {
        guard message.signature == "sa{sv}as", let arguments = try? message.arguments(), arguments.count == 3,
            arguments[0].stringValue == PetBus.interface, let changed = arguments[1].vardictValue
        else { return nil }
        let entry = changed[PetBus.Property.widgetEntry.rawValue].flatMap { try? WidgetEntry(dbus: $0) }
        return .propertiesChanged(names: changed.keys.sorted(), widgetEntry: entry)
    }
}
