import DBusKit
import PetBus
import PetCore

/// The exported object: each member of the contract wired to the service. Before any call to the
/// object is handled, `prepare` brings the day and the snapshot up to date — one clock read and
/// one refresh per message, whatever the member (SPEC §3.2) — and signals that refresh causes go
/// out before the reply; those a handler causes go out after it. Calls queued behind one another
/// are answered together (`answer`): their changes saved once, then their replies and signals in order.
extension PetService {
    func exportedObject() throws -> ExportedObject {
        let methods: [ExportedObject.Method] = [
            encoded(.getWidgetEntry) { s in try s.replies.widgetEntry(s) },
            written(.getTimeline) { s, _ in
                let entries = s.timeline()
                return { entries.encode(into: &$0) }
            },
            method(.markNextDone) { s, _ in
                let (id, xp) = try s.markNextDone()
                return [.string(id), .int32(Int32(xp))]
            },
            method(.snoozeNext) { s, _ in
                let (id, until) = try s.snoozeNext()
                return [.string(id), .int64(until)]
            },
            method(.markDone) { s, call in [.int32(Int32(try s.markDone(try call.string(0))))] },
            method(.undo) { s, call in
                try s.undo(try call.string(0))
                return []
            },
            method(.snooze) { s, call in [.int64(try s.snooze(try call.string(0)))] },
            method(.addTask) { s, call in
                [.string(try s.addTask(title: try call.string(0), time: try call.string(1), day: "", repeat: ""))]
            },
            method(.addTaskFor) { s, call in
                [
                    .string(
                        try s.addTask(
                            title: try call.string(0), time: try call.string(1),
                            day: try call.string(2), repeat: try call.string(3)))
                ]
            },
            method(.updateTask) { s, call in
                try s.updateTask(id: try call.string(0), title: try call.string(1), time: try call.string(2))
                return []
            },
            method(.deleteTask) { s, call in
                try s.deleteTask(try call.string(0))
                return []
            },
            written(.listTasks) { s, call in
                let records = try s.listTasks(try call.string(0))
                return { records.encode(into: &$0) }
            },
            written(.listTemplates) { s, _ in
                let templates = s.templates()
                return { templates.encode(into: &$0) }
            },
            encoded(.getPet) { s in try s.replies.pet(s) },
            method(.setRest) { s, call in
                try s.setRest(from: try call.string(0), to: try call.string(1), rest: try call.bool(2))
                return []
            },
            method(.listRestDays) { s, _ in [.stringArray(s.restDays())] },
            written(.getHistory) { s, call in
                let (records, more) = try s.history(from: try call.string(0), to: try call.string(1))
                return { body in
                    records.encode(into: &body)
                    body.bool(more)
                }
            },
            written(.getStatus) { s, _ in
                let status = s.status()
                return { status.encode(into: &$0) }
            },
        ]
        let properties: [ExportedObject.Property] = [
            widgetEntryProperty(),
            setting(.resetTime) { s, v throws(PetError) in try s.setResetTime(v) },
            setting(.graceMinutes) { s, v throws(PetError) in try s.setGraceMinutes(v) },
            setting(.snoozeMinutes) { s, v throws(PetError) in try s.setSnoozeMinutes(v) },
            setting(.rollover) { s, v throws(PetError) in try s.setRollover(v) },
        ]
        return try ExportedObject(
            path: PetBus.path,
            interfaces: [.init(PetBus.interface, methods: methods.map(held), properties: properties)],
            introspectionXML: IntrospectableInterface.document(interfacesXML: PetBus.interfaceXML),
            prepare: { [unowned self] _ in self.refresh() })
    }

    /// `method`, answered through the service's transaction of queued calls (`answer`).
    private func held(_ method: ExportedObject.Method) -> ExportedObject.Method {
        ExportedObject.Method(method.name, in: method.inSignature, out: method.outSignature) {
            [unowned self] (call: MethodCall) throws -> ExportedObject.Reply in
            try self.answer(call, method.handler)
        }
    }

    /// A method of the contract, with the rules' errors as the contract's.
    private func method(
        _ member: PetBus.Method, _ body: @escaping (PetService, MethodCall) throws -> [DBusValue]
    ) -> ExportedObject.Method {
        ExportedObject.Method(member.rawValue, in: member.inSignature, out: member.outSignature) {
            [unowned self] call in
            do { return try body(self, call) } catch let error as PetError { throw error.dbus }
        }
    }

    /// A method whose reply the service keeps encoded (`ReplyCache`).
    private func encoded(_ member: PetBus.Method, _ body: @escaping (PetService) throws -> EncodedBody)
        -> ExportedObject.Method
    {
        ExportedObject.Method(
            member.rawValue, in: member.inSignature, out: member.outSignature,
            encoded: { [unowned self] _ in try body(self) })
    }

    /// A method whose reply is written straight into the message body from the typed values
    /// `body` computes (issue 19/20: no `DBusValue` tree, no validation of values built here);
    /// the rules' errors as the contract's.
    private func written(
        _ member: PetBus.Method,
        _ body: @escaping (PetService, MethodCall) throws -> (inout BodyWriter) -> Void
    ) -> ExportedObject.Method {
        ExportedObject.Method(member.rawValue, in: member.inSignature, out: member.outSignature) {
            [unowned self] (call: MethodCall) throws -> EncodedBody in
            let write: (inout BodyWriter) -> Void
            do { write = try body(self, call) } catch let error as PetError { throw error.dbus }
            return try EncodedBody(write)
        }
    }

    /// `WidgetEntry`: `Get` from the kept body; `GetAll` and `PropertiesChanged` encode it afresh.
    private func widgetEntryProperty() -> ExportedObject.Property {
        var property = ExportedObject.Property(
            PetBus.Property.widgetEntry.rawValue, signature: PetBus.Property.widgetEntry.signature
        ) { [unowned self] in self.widgetEntry().dbus }
        property.encodedGet = { [unowned self] in try self.replies.widgetEntryProperty(self) }
        return property
    }

    private func setting(
        _ property: PetBus.Property, set: @escaping (PetService, DBusValue) throws(PetError) -> Void
    ) -> ExportedObject.Property {
        ExportedObject.Property(
            property.rawValue, signature: property.signature,
            get: { [unowned self] in self.world.settings.dbus(property) ?? .string("") },
            set: { [unowned self] value in
                do throws(PetError) { try set(self, value) } catch { throw error.dbus }
            })
    }
}
