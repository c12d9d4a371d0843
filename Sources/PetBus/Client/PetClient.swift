import DBusKit
import PetCore

/// A typed client of `petprogressd`: one method per member of the contract (petprogress(7) §6.1), typed
/// results and typed errors. Blocking calls on one connection; use it from one thread.
///
/// A call to a daemon that is not running activates it when the bus knows how (D-Bus activation),
/// unless the client is made with `autoStart: false` (the NO_AUTO_START flag on every call): a
/// client that only watches (the tray, a re-read after a signal) must not start the daemon
/// (petprogress(7) §8: watching is not using). Several clients may share one connection.
public final class PetClient {
    /// The connection calls go through; add it to LinuxKit's `EventLoop` to receive subscribed signals.
    public let connection: Connection
    /// How long a call waits for its reply; nil is libdbus's default (25 s).
    public let timeout: Duration?
    /// Whether a call may start the daemon through D-Bus activation.
    public let autoStart: Bool

    public init(connection: Connection, timeout: Duration? = nil, autoStart: Bool = true) {
        self.connection = connection
        self.timeout = timeout
        self.autoStart = autoStart
    }

    // MARK: reading

    /// `GetWidgetEntry`: the entry to show now.
    public func widgetEntry() throws(PetClientError) -> WidgetEntry {
        try call(M.getWidgetEntry)
    }

    /// `GetTimeline`: the entries of the next 24 ticks.
    public func timeline() throws(PetClientError) -> [WidgetEntry] {
        try call(M.getTimeline)
    }

    /// What the Today screen reads — the live pet (`GetPet`), the panel's entry (`GetWidgetEntry`),
    /// the open day's tasks (`ListTasks("")`) and the status (`GetStatus`, for a recovery notice) —
    /// sent together, so they cost one round trip.
    public func today() throws(PetClientError) -> (
        pet: PetView, entry: WidgetEntry, tasks: [TaskRecord], status: ServiceStatus
    ) {
        var batch = Batch()
        let (pet, entry, tasks, status) = (
            batch.add(M.getPet), batch.add(M.getWidgetEntry), batch.add(M.listTasks, ""), batch.add(M.getStatus)
        )
        let replies = try send(batch)
        return (try replies[pet], try replies[entry], try replies[tasks], try replies[status])
    }

    /// `ListTasks`: `""` the open day, `"tomorrow"`, or a day key.
    public func listTasks(day: String = "") throws(PetClientError) -> [TaskRecord] {
        try call(M.listTasks, day)
    }

    /// `ListTemplates`: the recurring templates.
    public func listTemplates() throws(PetClientError) -> [TemplateRecord] {
        try call(M.listTemplates)
    }

    /// `GetPet`: the live pet (not the hourly snapshot).
    public func pet() throws(PetClientError) -> PetView { try call(M.getPet) }

    /// `ListRestDays`: the marked rest days from the open day on, as day keys, ascending.
    public func listRestDays() throws(PetClientError) -> [String] {
        try call(M.listRestDays)
    }

    /// `GetHistory`: the archived days with keys in `[from, to]` (`""` leaves a side open),
    /// ascending, at most 31 — the latest when more match, and then `more` is true: page back
    /// with `to` set to the day before the earliest key received.
    public func history(from: String = "", to: String = "") throws(PetClientError) -> (
        records: [HistoryRecord], more: Bool
    ) {
        let (records, more) = try call(M.getHistory, (from, to))
        return (records, more)
    }

    /// `GetStatus`.
    public func status() throws(PetClientError) -> ServiceStatus {
        try call(M.getStatus)
    }

    /// `AcknowledgeProblems`: the recovery notice has been seen; clients stop showing it.
    public func acknowledgeProblems() throws(PetClientError) { try call(M.acknowledgeProblems) }

    /// The `WidgetEntry` property.
    public func widgetEntryProperty() throws(PetClientError) -> WidgetEntry {
        try decode(property(.widgetEntry), WidgetEntry.init(dbus:))
    }

    /// The `Stages` property: the stage table the daemon runs with.
    public func stages() throws(PetClientError) -> StageTable {
        try decode(property(.stages), StageTable.init(dbus:))
    }

    /// The four settings (`Properties.GetAll`).
    public func settings() throws(PetClientError) -> Settings {
        let reply = try rawCall(
            interface: PropertiesInterface.name, member: "GetAll", [.string(PetBus.interface)], expecting: "a{sv}")
        return try decode(reply[0], Settings.init(dbus:))
    }

    /// `ExportStore`: the export's `store` member, what a restore reads.
    public func exportStore() throws(PetClientError) -> String { try call(M.exportStore) }

    /// `ExportStorePart`: a page of the `store` member, the days after `after` (`""`: from the
    /// member's opening); the pages joined in order are the member. Page on with `after` set to
    /// `lastDay` while `more` is true.
    public func exportStorePart(after: String) throws(PetClientError) -> (part: String, lastDay: String, more: Bool) {
        let (part, lastDay, more) = try call(M.exportStorePart, after)
        return (part, lastDay, more)
    }

    /// `ListGenerations`: the snapshots that can be restored, newest first.
    public func listGenerations() throws(PetClientError) -> [GenerationRecord] { try call(M.listGenerations) }

    // MARK: changing

    /// `Restore`: goes back to the generation `name`; with `dryRun` only says what would change.
    public func restore(name: String, dryRun: Bool) throws(PetClientError) -> RestoreSummary {
        try call(M.restore, (name, dryRun))
    }

    /// `Import`: reads the export in the open file `descriptor` (sent with the call; the caller
    /// still closes its own); with `dryRun` only checks it.
    public func importDocument(descriptor: Int32, replace: Bool, dryRun: Bool) throws(PetClientError)
        -> ImportSummary
    {
        try call(M.importDocument, (descriptor, replace, dryRun))
    }

    /// `MarkNextDone`: the id of the task marked done and the XP it earned.
    public func markNextDone() throws(PetClientError) -> (id: String, xpDelta: Int) {
        let (id, xp) = try call(M.markNextDone)
        return (id, xp)
    }

    /// `MarkNextDone` between reads of the entry and the live pet before it and of the pet after
    /// it, sent together: one round trip where four followed each other (the daemon answers a
    /// connection's calls in order, so the reads see the day just before and just after). An error
    /// of `MarkNextDone` is thrown as its own.
    public func markNextDoneSeen() throws(PetClientError) -> (
        entry: WidgetEntry, before: PetView, id: String, xpDelta: Int, after: PetView
    ) {
        var batch = Batch()
        let (entry, before, done, after) = (
            batch.add(M.getWidgetEntry), batch.add(M.getPet), batch.add(M.markNextDone), batch.add(M.getPet)
        )
        let replies = try send(batch)
        let (id, xp) = try replies[done]
        return (try replies[entry], try replies[before], id, xp, try replies[after])
    }

    /// `SnoozeNext`: the id of the task snoozed and its new effective instant.
    public func snoozeNext() throws(PetClientError) -> (id: String, until: Instant) {
        let (id, until) = try call(M.snoozeNext)
        return (id, until)
    }

    /// `MarkDone`: the XP the completion earned.
    public func markDone(_ id: String) throws(PetClientError) -> Int {
        try call(M.markDone, id)
    }

    /// `Undo`.
    public func undo(_ id: String) throws(PetClientError) { try call(M.undo, id) }

    /// `Snooze`: the task's new effective instant.
    public func snooze(_ id: String) throws(PetClientError) -> Instant {
        try call(M.snooze, id)
    }

    /// `AddTask`: a one-off task for the open day; its id.
    public func addTask(title: String, time: String) throws(PetClientError) -> String {
        try call(M.addTask, (title, time))
    }

    /// `AddTaskFor`: `day` is `""`/`"today"` or `"tomorrow"`, `repeat` `""` for a one-off; the
    /// task's id, or the template's when it repeats.
    public func addTask(title: String, time: String, day: String, repeat rule: String) throws(PetClientError)
        -> String
    {
        try call(M.addTaskFor, (title, time, day, rule))
    }

    /// `UpdateTask`: an empty string leaves that field unchanged.
    public func updateTask(id: String, title: String, time: String) throws(PetClientError) {
        try call(M.updateTask, (id, title, time))
    }

    /// `DeleteTask`.
    public func deleteTask(_ id: String) throws(PetClientError) { try call(M.deleteTask, id) }

    /// `SetRest`: marks (`rest` true) or unmarks every day from `from` to `to` inclusive; each is
    /// `"today"`, `"tomorrow"` or a day key.
    public func setRest(from: String, to: String, rest: Bool) throws(PetClientError) {
        try call(M.setRest, (from, to, rest))
    }

    /// Sets one setting (`Properties.Set`).
    public func set(_ change: SettingChange) throws(PetClientError) {
        _ = try rawCall(
            interface: PropertiesInterface.name, member: "Set",
            [.string(PetBus.interface), .string(change.property.rawValue), .variant(change.value)], expecting: "")
    }

    // MARK: plumbing

    typealias M = PetBus.Methods

    /// Calls a method of the table: the arguments encoded and the reply checked against its
    /// signature and decoded, as the table says.
    private func call<Arguments, Reply>(_ member: PetBus.Member<Arguments, Reply>, _ arguments: Arguments)
        throws(PetClientError) -> Reply
    {
        let reply = try rawCall(
            interface: PetBus.interface, member: member.name, member.arguments.encode(arguments),
            expecting: member.outSignature)
        return try decode { () throws(BusDecodingError) in try member.reply.decode(reply) }
    }

    private func call<Reply>(_ member: PetBus.Member<Void, Reply>) throws(PetClientError) -> Reply {
        try call(member, ())
    }

    private func property(_ property: PetBus.Property) throws(PetClientError) -> DBusValue {
        let reply = try rawCall(
            interface: PropertiesInterface.name, member: "Get",
            [.string(PetBus.interface), .string(property.rawValue)], expecting: "v")
        return reply[0].variantValue ?? reply[0]
    }

    private func rawCall(interface: String, member: String, _ arguments: [DBusValue], expecting signature: String)
        throws(PetClientError) -> [DBusValue]
    {
        let reply: [DBusValue]
        do {
            let message = try Message.methodCall(
                destination: PetBus.name, path: PetBus.path, interface: interface, member: member)
            try message.append(arguments)
            message.autoStart = autoStart
            reply = try connection.call(message, timeout: timeout).arguments()
        } catch {
            throw PetClientError(error as? DBusError ?? .failed("\(error)"))
        }
        return try checked(reply, member, expecting: signature)
    }

    /// Several members of the interface called at once, each reply checked as a single call's is.
    func rawCalls(_ calls: [(member: String, out: String, arguments: [DBusValue])]) throws(PetClientError)
        -> [[DBusValue]]
    {
        let replies: [Message]
        do {
            let messages = try calls.map { member, _, arguments in
                let message = try Message.methodCall(
                    destination: PetBus.name, path: PetBus.path, interface: PetBus.interface, member: member)
                try message.append(arguments)
                message.autoStart = autoStart
                return message
            }
            replies = try connection.call(all: messages, timeout: timeout)
        } catch {
            throw PetClientError(error as? DBusError ?? .failed("\(error)"))
        }
        var values: [[DBusValue]] = []
        for (reply, (member, out, _)) in zip(replies, calls) {
            if let error = reply.error { throw PetClientError(error) }
            let arguments: [DBusValue]
            do { arguments = try reply.arguments() } catch {
                throw .malformedReply(BusDecodingError("\(member)'s reply could not be read (\(error))."))
            }
            values.append(try checked(arguments, member, expecting: out))
        }
        return values
    }

    private func checked(_ reply: [DBusValue], _ member: String, expecting signature: String)
        throws(PetClientError) -> [DBusValue]
    {
        guard DBusValue.signature(of: reply) == signature else {
            throw .malformedReply(
                BusDecodingError("\(member) replied '\(DBusValue.signature(of: reply))', not '\(signature)'."))
        }
        return reply
    }

    private func decode<T>(_ value: DBusValue, _ decode: (DBusValue) throws(BusDecodingError) -> T)
        throws(PetClientError) -> T
    {
        do throws(BusDecodingError) { return try decode(value) } catch { throw .malformedReply(error) }
    }

    private func decode<T>(_ decode: () throws(BusDecodingError) -> T) throws(PetClientError) -> T {
        do throws(BusDecodingError) { return try decode() } catch { throw .malformedReply(error) }
    }
}
