import DBusKit
import LinuxKit
import PetBus
import PetCore
import PetStore

/// The exported object: each member of the contract wired to the service. Before any call to the
/// object is handled, `prepare` brings the day and the snapshot up to date — one clock read and
/// one refresh per message, whatever the member (petprogress(7) §3.2) — and signals that refresh causes go
/// out before the reply; those a handler causes go out after it. Calls queued behind one another
/// are answered together (`answer`): their changes saved once, then their replies and signals in order.
extension PetService {
    func exportedObject() throws -> ExportedObject {
        typealias M = PetBus.Methods
        let methods: [ExportedObject.Method] = [
            kept(M.getWidgetEntry) { s in try s.replies.widgetEntry(s) },
            wire(M.getTimeline) { s, _ in s.timeline() },
            wire(M.markNextDone) { s, _ in try s.markNextDone() },
            wire(M.snoozeNext) { s, _ in try s.snoozeNext() },
            wire(M.markDone) { s, id in try s.markDone(id) },
            wire(M.undo) { s, id in try s.undo(id) },
            wire(M.snooze) { s, id in try s.snooze(id) },
            wire(M.addTask) { s, a in try s.addTask(title: a.0, time: a.1, day: "", repeat: "") },
            wire(M.addTaskFor) { s, a in try s.addTask(title: a.0, time: a.1, day: a.2, repeat: a.3) },
            wire(M.updateTask) { s, a in try s.updateTask(id: a.0, title: a.1, time: a.2) },
            wire(M.deleteTask) { s, id in try s.deleteTask(id) },
            wire(M.listTasks) { s, day in try s.listTasks(day) },
            wire(M.listTemplates) { s, _ in s.templates() },
            kept(M.getPet) { s in try s.replies.pet(s) },
            wire(M.setRest) { s, a in try s.setRest(from: a.0, to: a.1, rest: a.2) },
            wire(M.listRestDays) { s, _ in s.restDays() },
            wire(M.getHistory) { s, a in try s.history(from: a.0, to: a.1) },
            wire(M.getStatus) { s, _ in s.status() },
            wire(M.acknowledgeProblems) { s, _ in try s.acknowledgeProblems() },
            wire(M.exportStore) { s, _ in try s.exportStore() },
            wire(M.exportStorePart) { s, after in try s.exportStorePart(after: after) },
            importMethod(),
            wire(M.listGenerations) { s, _ in try s.listGenerations() },
            restoreMethod(),
        ]
        let properties: [ExportedObject.Property] = [
            widgetEntryProperty(),
            setting(.resetTime) { s, v throws(PetError) in try s.setResetTime(v) },
            setting(.graceMinutes) { s, v throws(PetError) in try s.setGraceMinutes(v) },
            setting(.snoozeMinutes) { s, v throws(PetError) in try s.setSnoozeMinutes(v) },
            setting(.rollover) { s, v throws(PetError) in try s.setRollover(v) },
            stagesProperty(),
        ]
        let object = try ExportedObject(
            path: PetBus.path,
            interfaces: [.init(PetBus.interface, methods: methods, properties: properties)],
            introspectionXML: IntrospectableInterface.document(interfacesXML: PetBus.interfaceXML),
            prepare: { [unowned self] _ in self.refresh() })
        // petprogress(7) §6: no member takes a string longer than a few hundred bytes (a title is
        // 200 code points) or more than a few values; longer strings reach the handlers cut, and
        // are refused by them as too long without ever being copied whole.
        object.stringLimit = PetBus.argumentStringLimit
        object.valueBudget = 64
        return object
    }

    /// A method of the table wired to its handler, answered through the service's transaction of
    /// queued calls (`answer`): the arguments decoded as the table says, then the handler over them,
    /// its reply encoded as the table says — written straight into the message body when it can be
    /// (no `DBusValue` tree, no validation of values built here) — and the rules' errors as the
    /// contract's.
    private func wire<Arguments, Reply>(
        _ member: PetBus.Member<Arguments, Reply>, _ body: @escaping (PetService, Arguments) throws -> Reply
    ) -> ExportedObject.Method {
        let encode: (Reply) throws -> ExportedObject.Reply =
            member.reply.isWritten ? { .encoded(try member.reply.encoded($0)) } : { .values(member.reply.encode($0)) }
        return ExportedObject.Method(member.name, in: member.inSignature, out: member.outSignature) {
            [unowned self] (call: MethodCall) throws -> ExportedObject.Reply in
            try self.answer(call) {
                let arguments: Arguments
                do throws(BusDecodingError) { arguments = try member.arguments.decode(call.arguments) } catch {
                    throw DBusError.invalidArgs(error.message)
                }
                return { [unowned self] in
                    let reply: Reply
                    do { reply = try body(self, arguments) } catch let error as PetError { throw error.dbus }
                    return try encode(reply)
                }
            }
        }
    }

    /// `Import`: the descriptor it carries measured, and closed when the call returns; the document
    /// copied into the data directory and parsed from that copy off the loop (the caller may
    /// truncate its file meanwhile), which goes on answering other callers (petprogress(7) §5); then, back on the
    /// loop, answered alone, after any calls of the open transaction have been saved and answered (it replaces the
    /// whole world they changed). One document is read at a time: a second import meanwhile is
    /// refused with a sentence, as a parse holds memory of the document's size.
    private func importMethod() -> ExportedObject.Method {
        let member = PetBus.Methods.importDocument
        return ExportedObject.Method(member.name, in: member.inSignature, out: member.outSignature) {
            [unowned self] (call: MethodCall) throws -> ExportedObject.Reply in
            let file = call.arguments.first?.unixFDValue.map {
                FileDescriptor(adopting: $0, path: "the passed descriptor")
            }
            defer { file?.close() }
            self.commit()
            let arguments: (Int32, Bool, Bool)
            do throws(BusDecodingError) { arguments = try member.arguments.decode(call.arguments) } catch {
                throw DBusError.invalidArgs(error.message)
            }
            guard let file else { throw DBusError.invalidArgs("Import needs a file descriptor.") }
            let (replace, dryRun) = (arguments.1, arguments.2)
            guard !self.importReading else {
                throw PetError(
                    .invalidArgument,
                    "Another export is being read for an import; nothing was changed. Try again when it has finished."
                ).dbus
            }
            let copier: ImportCopier
            let stage: ImportStage?
            do throws(PetError) {
                copier = try self.importChecked(file, replace: replace, dryRun: dryRun)
                stage = try self.importStage(dryRun: dryRun)
            } catch {
                throw error.dbus
            }
            func finish(_ read: Result<Backup.Streamed, Backup.Refusal>) throws -> ExportedObject.Reply {
                do {
                    let summary = try self.importFinish(read, stage: stage, replace: replace, dryRun: dryRun)
                    return .encoded(try member.reply.encoded(summary))
                } catch let error as PetError {
                    throw error.dbus
                }
            }
            // Without a loop to come back to (a test's service), in place.
            guard let offLoop = self.offLoop else {
                return try finish(PetService.stream(file, copier: copier, into: stage))
            }
            // The thread copies from a descriptor of its own: this one is closed when the call returns.
            let document: FileDescriptor
            do throws(SystemCallError) {
                document = try file.duplicate()
            } catch {
                if stage != nil { self.environment.abandonImport() }
                self.log("could not import: \(error)")
                throw PetError(.storageFailure, "The export could not be imported (\(error.reason)).").dbus
            }
            let box = ParsedImport(document: document, copier: copier, stage: stage)
            let pending = call.deferReply()
            self.importReading = true
            let started = offLoop({ box.read() }) { [unowned self] in
                self.importReading = false
                self.commit()
                guard let parsed = box.parsed else {
                    if stage != nil { self.environment.abandonImport() }
                    pending.send(.failure(DBusError.failed("The import's reading ended without a result.")))
                    return
                }
                pending.send(Result { try finish(parsed) })
            }
            if !started {
                // No thread to be had: read in place, as before.
                self.importReading = false
                box.read()
                pending.send(Result { try finish(box.parsed ?? .failure(Backup.Refusal("it could not be read"))) })
            }
            return .deferred
        }
    }

    /// `Restore`: answered alone, after any calls of the open transaction have been saved and answered (it replaces
    /// the whole world they changed).
    private func restoreMethod() -> ExportedObject.Method {
        let member = PetBus.Methods.restore
        return ExportedObject.Method(member.name, in: member.inSignature, out: member.outSignature) {
            [unowned self] (call: MethodCall) throws -> ExportedObject.Reply in
            // An import stages its store meanwhile, where a restore would stage its own.
            guard !self.importReading else {
                throw PetError(
                    .invalidArgument,
                    "An export is being read for an import; nothing was changed. Try again when it has finished."
                ).dbus
            }
            self.commit()
            let arguments: (String, Bool)
            do throws(BusDecodingError) { arguments = try member.arguments.decode(call.arguments) } catch {
                throw DBusError.invalidArgs(error.message)
            }
            do {
                return .encoded(try member.reply.encoded(try self.restore(name: arguments.0, dryRun: arguments.1)))
            } catch let error as PetError {
                throw error.dbus
            }
        }
    }

    /// A method without arguments whose reply the service keeps encoded (`ReplyCache`).
    private func kept<Reply>(_ member: PetBus.Member<Void, Reply>, _ body: @escaping (PetService) throws -> EncodedBody)
        -> ExportedObject.Method
    {
        ExportedObject.Method(member.name, in: member.inSignature, out: member.outSignature) {
            [unowned self] (call: MethodCall) throws -> ExportedObject.Reply in
            try self.answer(call) { { [unowned self] in .encoded(try body(self)) } }
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

    /// `Stages`: the table in force, fixed at start-up, so encoded once.
    private func stagesProperty() -> ExportedObject.Property {
        let value = stages.dbus
        return ExportedObject.Property(PetBus.Property.stages.rawValue, signature: PetBus.Property.stages.signature) {
            value
        }
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
