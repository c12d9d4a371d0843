import DBusKit
import PetCore

/// The exported object: each member of the contract wired to the service. Every handler first
/// brings the day and the snapshot up to date, so no call sees a stale day (SPEC §3.2).
extension PetService {
    func exportedObject() throws -> ExportedObject {
        let methods: [ExportedObject.Method] = [
            method("GetWidgetEntry", in: "", out: "a{sv}") { s, _ in [s.widgetEntry().dbus] },
            method("GetTimeline", in: "", out: "aa{sv}") { s, _ in [s.timeline().dbus] },
            method("MarkNextDone", in: "", out: "si") { s, _ in
                let (id, xp) = try s.markNextDone()
                return [.string(id), .int32(Int32(xp))]
            },
            method("SnoozeNext", in: "", out: "sx") { s, _ in
                let (id, until) = try s.snoozeNext()
                return [.string(id), .int64(until)]
            },
            method("MarkDone", in: "s", out: "i") { s, call in [.int32(Int32(try s.markDone(try call.string(0))))] },
            method("Undo", in: "s", out: "") { s, call in
                try s.undo(try call.string(0))
                return []
            },
            method("Snooze", in: "s", out: "x") { s, call in [.int64(try s.snooze(try call.string(0)))] },
            method("AddTask", in: "ss", out: "s") { s, call in
                [.string(try s.addTask(title: try call.string(0), time: try call.string(1), day: "", repeat: ""))]
            },
            method("AddTaskFor", in: "ssss", out: "s") { s, call in
                [
                    .string(
                        try s.addTask(
                            title: try call.string(0), time: try call.string(1),
                            day: try call.string(2), repeat: try call.string(3)))
                ]
            },
            method("UpdateTask", in: "sss", out: "") { s, call in
                try s.updateTask(id: try call.string(0), title: try call.string(1), time: try call.string(2))
                return []
            },
            method("DeleteTask", in: "s", out: "") { s, call in
                try s.deleteTask(try call.string(0))
                return []
            },
            method("ListTasks", in: "s", out: "aa{sv}") { s, call in [try s.listTasks(try call.string(0)).dbus] },
            method("ListTemplates", in: "", out: "aa{sv}") { s, _ in [s.templates().dbus] },
            method("GetPet", in: "", out: "a{sv}") { s, _ in [s.pet().dbus] },
            method("GetStatus", in: "", out: "a{sv}") { s, _ in [s.status()] },
        ]
        let properties: [ExportedObject.Property] = [
            .init("WidgetEntry", signature: "a{sv}") { [unowned self] in
                self.refresh()
                return self.widgetEntry().dbus
            },
            setting(
                "ResetTime", "s", get: { .string($0.resetTime.description) },
                set: { s, v throws(PetError) in try s.setResetTime(v) }),
            setting(
                "GraceMinutes", "u", get: { .uint32(UInt32($0.graceMinutes)) },
                set: { s, v throws(PetError) in try s.setGraceMinutes(v) }),
            setting(
                "SnoozeMinutes", "u", get: { .uint32(UInt32($0.snoozeMinutes)) },
                set: { s, v throws(PetError) in try s.setSnoozeMinutes(v) }),
            setting(
                "Rollover", "b", get: { .bool($0.rollover) }, set: { s, v throws(PetError) in try s.setRollover(v) }),
        ]
        return try ExportedObject(
            path: BusContract.path,
            interfaces: [.init(BusContract.interface, methods: methods, properties: properties)],
            introspectionXML: IntrospectableInterface.document(interfacesXML: BusContract.interfaceXML))
    }

    /// A method whose handler runs after `refresh`, with the rules' errors as the contract's.
    private func method(
        _ name: String, in input: String, out output: String,
        _ body: @escaping (PetService, MethodCall) throws -> [DBusValue]
    ) -> ExportedObject.Method {
        ExportedObject.Method(name, in: input, out: output) { [unowned self] call in
            self.refresh()
            do { return try body(self, call) } catch let error as PetError { throw error.dbus }
        }
    }

    private func setting(
        _ name: String, _ signature: String, get: @escaping (Settings) -> DBusValue,
        set: @escaping (PetService, DBusValue) throws(PetError) -> Void
    ) -> ExportedObject.Property {
        ExportedObject.Property(
            name, signature: signature,
            get: { [unowned self] in
                self.refresh()
                return get(self.world.settings)
            },
            set: { [unowned self] value in
                self.refresh()
                do throws(PetError) { try set(self, value) } catch { throw error.dbus }
            })
    }
}
