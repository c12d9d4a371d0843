import DBusKit
import PetBus
import PetCore

/// One read of what the tray shows: the entry, the open day's tasks and the daemon's clock, sent
/// together (one round trip), never starting the daemon (petprogress(7) §8: watching is not using).
struct TrayReading {
    var entry: WidgetEntry
    var upcoming: [TrayTask]
    var lastDone: TrayTask?
    /// The daemon's now (its clock may be a test clock); 0 when it does not say.
    var daemonNow: Instant

    enum Failure: Error {
        /// The daemon's name has no owner (it stopped between the signal and the read).
        case stopped
        case failed(String)
    }

    static func read(_ connection: Connection) throws(Failure) -> TrayReading {
        let replies: [Message]
        do {
            let calls = try [("GetWidgetEntry", [DBusValue]()), ("ListTasks", [.string("")]), ("GetStatus", [])].map {
                member, arguments in
                let message = try Message.methodCall(
                    destination: PetBus.name, path: PetBus.path, interface: PetBus.interface, member: member)
                try message.append(arguments)
                message.autoStart = false
                return message
            }
            replies = try connection.call(all: calls, timeout: .seconds(10))
        } catch {
            throw .failed("\(error)")
        }
        if let error = replies.lazy.compactMap(\.error).first {
            if error.name == DBusError.Name.serviceUnknown || error.name.hasSuffix(".NameHasNoOwner") { throw .stopped }
            throw .failed(error.message)
        }
        do {
            guard let entryValue = try replies[0].arguments().first,
                let taskValues = try replies[1].arguments().first?.arrayValues
            else { throw Failure.failed(tr("an empty reply")) }
            let entry = try WidgetEntry(dbus: entryValue)
            let rawUpcoming = entryValue.vardictValue?["upcoming"]?.unwrappingVariants.vardictArrayValue ?? []
            let upcoming = entry.upcoming.enumerated().map { index, record in
                TrayTask(record, raw: rawUpcoming.indices.contains(index) ? rawUpcoming[index] : nil)
            }
            let tasks = try taskValues.map { try TaskRecord(dbus: $0) }
            let last = tasks.filter(\.done).max { $0.completedSeq < $1.completedSeq }
            let now = try replies[2].arguments().first?.vardictValue?["now"]?.unwrappingVariants.int64Value ?? 0
            return TrayReading(
                entry: entry, upcoming: upcoming, lastDone: last.map { TrayTask($0, raw: nil) }, daemonNow: now)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .failed(tr("petprogressd's answer was not understood (%s)", "\(error)"))
        }
    }
}
