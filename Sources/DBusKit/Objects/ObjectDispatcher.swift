import CDBus

/// Routes one method call to an ``ExportedObject`` and produces exactly one reply.
///
/// Returning nil means no interface declares the member; the caller answers `UnknownMethod`.
enum ObjectDispatcher {
    /// The outcome of a call: what to reply with, or an error to reply with.
    typealias Outcome = Result<ExportedObject.Reply, DBusError>

    /// The reply for `message`, or nil when no interface of `object` declares the member.
    /// `source` is where the call came from (nil for a call made in this process): a handler that
    /// defers its reply answers there.
    static func outcome(
        for message: Message, on object: ExportedObject, from source: Source? = nil, emit: (Message) -> Void
    ) -> Outcome? {
        let member = message.member ?? ""
        switch message.interface {
        case IntrospectableInterface.name?:
            return IntrospectableInterface.handle(member: member, message: message, object: object)
        case PropertiesInterface.name?:
            return PropertiesInterface.handle(member: member, message: message, object: object, emit: emit)
        case PeerInterface.name?:
            return PeerInterface.handle(member: member, message: message)
        case nil where member == "Introspect":
            return IntrospectableInterface.handle(member: member, message: message, object: object)
        default:
            break
        }
        guard let method = object.method(member, interface: message.interface) else { return nil }
        return invoke(method, message, source, object)
    }

    /// The connection a call came on, for the handlers that answer it later.
    typealias Source = (connection: OpaquePointer, state: ConnectionState)

    private static func invoke(
        _ method: ExportedObject.Method, _ message: Message, _ source: Source?, _ object: ExportedObject
    ) -> Outcome {
        let signature = message.signature
        if let expected = method.inSignature, expected != signature {
            return .failure(
                .invalidArgs("Method \(method.name) expects signature '\(expected)', got \(DBusError.quote(signature))."))
        }
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments(budget: object.valueBudget, stringLimit: object.stringLimit)
        } catch {
            return .failure(asDBusError(error))
        }
        let origin = source.map {
            MethodCall.Origin(
                connection: $0.connection, state: $0.state, method: method.name, outSignature: method.outSignature)
        }
        let result = Result { try method.handler(MethodCall(message: message, arguments: arguments, origin: origin)) }
        // A handler that took the reply answers through it, whatever it returned or threw.
        if let state = source?.state, state.replyDeferred {
            state.replyDeferred = false
            return .success(.deferred)
        }
        if case .success(.deferred) = result, source != nil {
            return .failure(.failed("Method \(method.name) deferred its reply without taking it."))
        }
        return checked(result, method: method.name, out: method.outSignature)
    }

    /// `result` as an outcome: a reply whose signature is not the declared `out` one becomes a
    /// `Failed` error, as does a thrown error that is not a ``DBusError``.
    static func checked(_ result: Result<ExportedObject.Reply, any Error>, method: String, out: String?) -> Outcome {
        let reply: ExportedObject.Reply
        do { reply = try result.get() } catch { return .failure(asDBusError(error)) }
        let produced: String
        switch reply {
        case .values(let values): produced = DBusValue.signature(of: values)
        case .encoded(let body): produced = body.signature
        case .deferred: return .success(reply)
        }
        if let out, produced != out {
            return .failure(.failed("Method \(method) produced '\(produced)', not '\(out)'."))
        }
        return .success(reply)
    }

    /// The answer to a caller over the limit of queued bytes.
    static let limitsExceeded = DBusError(
        name: DBusError.Name.limitsExceeded,
        message: "Too many answers to this connection are still waiting to be written; read them first.")

    /// The `UnknownMethod` error, worded as libdbus words it.
    static func unknownMethod(_ message: Message) -> DBusError {
        DBusError(
            name: DBusError.Name.unknownMethod,
            message: "Method \"\(message.member ?? "")\" with signature \"\(message.signature)\" on interface "
                + "\"\(message.interface ?? "(null)")\" doesn't exist")
    }

    /// A thrown error as a D-Bus error: a ``DBusError`` as it is, anything else as `Failed`.
    static func asDBusError(_ error: any Error) -> DBusError {
        (error as? DBusError) ?? .failed(String(describing: error))
    }

    /// The reply message for `outcome`; falls back to a `Failed` error if the values cannot be written.
    /// Throws only when libdbus runs out of memory building it.
    static func reply(to message: Message, with outcome: Outcome) throws -> Message {
        switch outcome {
        case .success(let reply):
            do {
                switch reply {
                case .values(let values): return try message.makeReply(values)
                case .encoded(let body): return try body.reply(to: message)
                case .deferred: return try message.makeErrorReply(.failed("A deferred reply has no body to send."))
                }
            } catch {
                return try message.makeErrorReply(asDBusError(error))
            }
        case .failure(let error):
            return try message.makeErrorReply(error)
        }
    }

    /// Queues `message` on `connection` from inside a libdbus callback (where ``Connection/send(_:)``'s
    /// held-signal rule must not apply); `FALSE` is out of memory.
    static func send(_ message: Message, on connection: OpaquePointer) throws {
        try LibDBus.check(dbus_connection_send(connection, message.raw, nil), "dbus_connection_send")
    }
}

extension Connection {
    /// Registers `object` at its path. Throws `ObjectPathInUse` if something is already there.
    public func export(_ object: ExportedObject) throws {
        try installUnknownObjectFallback()
        var vtable = DBusObjectPathVTable()
        vtable.unregister_function = { _, data in
            // libdbus calls this exactly once, on unregister or when the connection is finalized.
            if let data { Unmanaged<Registration>.fromOpaque(data).release() }
        }
        vtable.message_function = { connection, message, data in
            guard let connection, let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let registration = Unmanaged<Registration>.fromOpaque(data).takeUnretainedValue()
            return Connection.dispatch(Message(borrowing: message), to: registration, on: connection)
        }
        let data = Unmanaged.passRetained(Registration(object: object, state: state)).toOpaque()
        let path = object.path
        do {
            let ok = try LibDBus.withError { dbus_connection_try_register_object_path(raw, path, &vtable, data, $0) }
            try LibDBus.check(ok, "dbus_connection_try_register_object_path")
        } catch {
            Unmanaged<Registration>.fromOpaque(data).release()
            throw error
        }
    }

    /// Removes the object registered at `path`, if any. Throws `NoMemory` when libdbus runs out of memory.
    public func unexport(path: String) throws {
        guard DBusNames.isValidObjectPath(path) else { return }
        try LibDBus.check(dbus_connection_unregister_object_path(raw, path), "dbus_connection_unregister_object_path")
    }

    /// What libdbus holds for a registered object: the object and its connection's state.
    final class Registration {
        let object: ExportedObject
        let state: ConnectionState

        init(object: ExportedObject, state: ConnectionState) {
            self.object = object
            self.state = state
        }
    }

    /// Answers one method call: `prepare`, then the handler with the signals it emits held back,
    /// then the reply, then those signals — so a caller sees its answer before the notifications
    /// its call caused. A call flagged NO_REPLY_EXPECTED still emits them. A handler that deferred
    /// its reply (``MethodCall/deferReply()``) answers later itself; its signals go out at once.
    static func dispatch(
        _ message: Message, to registration: Registration, on connection: OpaquePointer
    ) -> DBusHandlerResult {
        guard message.kind == .methodCall else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        if registration.state.park(message, registration, on: connection) { return DBUS_HANDLER_RESULT_HANDLED }
        answer(message, registration, on: connection)
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// Answers `message` (the work of ``dispatch(_:to:on:)``, also for a call kept until its
    /// caller's earlier answers had gone out).
    static func answer(_ message: Message, _ registration: Registration, on connection: OpaquePointer) {
        let object = registration.object
        let state = registration.state
        object.prepare?(message)
        state.heldSignals = []
        // Answered here rather than left to libdbus: NOT_YET_HANDLED would pass the call on to the
        // fallback at `/`, which answers UnknownObject.
        let outcome =
            ObjectDispatcher.outcome(
                for: message, on: object, from: (connection, state), emit: { state.heldSignals?.append($0) })
            ?? .failure(ObjectDispatcher.unknownMethod(message))
        let held = state.heldSignals ?? []
        state.heldSignals = nil
        // A failure here has no caller to go to: the connection's failure handlers hear of it.
        if case .success(.deferred) = outcome {
        } else if message.expectsReply {
            state.reporting { try state.send(ObjectDispatcher.reply(to: message, with: outcome), on: connection) }
        }
        for signal in held { state.reporting { try state.send(signal, on: connection) } }
    }
}

extension Connection {
    /// Registers a fallback at `/` that answers calls to paths with no object with `UnknownObject`.
    ///
    /// Without it libdbus answers them with `UnknownMethod`. `Introspect` with no arguments is left
    /// to libdbus, whose default reply lists the child nodes, so tools can walk down to the exported
    /// objects; with arguments it is `InvalidArgs` (libdbus would ignore them). Peer calls, routed
    /// to the objects (``PeerInterface``), are answered here on paths without one.
    func installUnknownObjectFallback() throws {
        guard !state.unknownObjectFallbackInstalled else { return }
        var vtable = DBusObjectPathVTable()
        vtable.unregister_function = { _, data in
            // libdbus calls this exactly once, on unregister or when the connection is finalized.
            if let data { Unmanaged<ConnectionState>.fromOpaque(data).release() }
        }
        vtable.message_function = { connection, message, data in
            guard let connection, let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let call = Message(borrowing: message)
            guard call.kind == .methodCall else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let outcome: ObjectDispatcher.Outcome
            if let peer = call.interface == PeerInterface.name
                ? PeerInterface.handle(member: call.member ?? "", message: call) : nil
            {
                outcome = peer
            } else if call.member == "Introspect", [nil, IntrospectableInterface.name].contains(call.interface) {
                guard !call.signature.isEmpty else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                outcome = .failure(.invalidArgs("Introspect takes no arguments, got '\(call.signature)'."))
            } else {
                outcome = .failure(
                    DBusError(name: DBusError.Name.unknownObject, message: "No object at path '\(call.path ?? "")'."))
            }
            if call.expectsReply {
                let state = Unmanaged<ConnectionState>.fromOpaque(data).takeUnretainedValue()
                state.reporting { try state.send(ObjectDispatcher.reply(to: call, with: outcome), on: connection) }
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        let data = Unmanaged.passRetained(state).toOpaque()
        do {
            let ok = try LibDBus.withError { dbus_connection_try_register_fallback(raw, "/", &vtable, data, $0) }
            try LibDBus.check(ok, "dbus_connection_try_register_fallback")
        } catch {
            Unmanaged<ConnectionState>.fromOpaque(data).release()
            throw error
        }
        // From now on Peer calls reach the objects and this fallback instead of libdbus's own answer.
        dbus_connection_set_route_peer_messages(raw, 1)
        state.unknownObjectFallbackInstalled = true
    }
}
