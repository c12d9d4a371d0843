import DBusKit
import Glibc

/// One client: its own bus connection, planner and model; runs steps and checks every reply.
///
/// Confined to one thread at a time (its run's); the main thread reads it only after joining.
final class LoadClient: @unchecked Sendable {
    let index: Int
    let frame: DayFrame
    let connection: Connection
    /// Crash runs: a call that may not have reached a daemon (or whose reply was lost) is
    /// reconciled against the store instead of counted as a failure.
    let tolerant: Bool
    private(set) var model = Model()
    private var planner: Planner
    private(set) var stats = ClientStats()

    init(index: Int, address: String, frame: DayFrame, seed: UInt64, tolerant: Bool) throws {
        self.index = index
        self.frame = frame
        self.tolerant = tolerant
        connection = try Connection(address: address)
        planner = Planner(client: index, frame: frame, seed: seed)
    }

    var prefix: String { planner.prefix }

    /// Runs `count` steps of `profile`, or until `stop` says so.
    func run(_ count: Int, _ profile: Planner.Profile, stop: () -> Bool = { false }) {
        var done = 0
        while done < count, !stop() {
            execute(planner.next(model, profile))
            done += 1
        }
    }

    /// Forgets the latencies measured so far (between phases).
    func resetLatencies() { stats.resetLatencies() }

    /// Pings the daemon through the bus `count` times (the read floor).
    func ping(_ count: Int) {
        for _ in 0..<count {
            let started = Monotonic.now()
            let result = connection.perform(Call(interface: Wire.peer, member: "Ping"))
            stats.record(.read, Monotonic.now() - started)
            if case .failure(let error) = result { stats.fail("Ping: \(error)") }
        }
    }

    private func execute(_ step: Step) {
        let started = Monotonic.now()
        let result = connection.perform(step.call)
        let elapsed = Monotonic.now() - started
        stats.calls += 1
        switch (result, step.expected) {
        case (.failure(let error), _) where tolerant && Wire.transportErrors.contains(error.name):
            stats.transportErrors += 1
            if step.kind != .read { reconcile(step) }
        case (.success(let reply), .reply(let check)):
            stats.record(step.kind, elapsed)
            if let problem = check(reply) { return stats.fail("\(step.label): \(problem)") }
            if step.kind == .mutation { adopt(step, reply: reply) }
        case (.failure(let error), .error(let name)) where error.name == name:
            stats.record(step.kind, elapsed)
        case (.failure(let error), .reply):
            stats.fail("\(step.label): expected success, got \(error)")
        case (.success(let reply), .error(let name)):
            stats.fail("\(step.label): expected \(name), got success \(reply)")
            // It changed something the model does not know: stop predicting from a wrong base.
            resync()
        case (.failure(let error), .error(let name)):
            stats.fail("\(step.label): expected \(name), got \(error)")
        }
    }

    /// An acknowledged change: the model moves to the prediction (an added task takes its id).
    private func adopt(_ step: Step, reply: [DBusValue]) {
        stats.acknowledged += 1
        guard var after = step.after else { return }
        if let title = step.addedTitle, let id = reply.first?.stringValue,
            let slot = after.tasks.firstIndex(where: { $0.title == title && $0.id.isEmpty })
        {
            after.tasks[slot].id = id
        }
        model = after
    }

    /// After a call whose fate is unknown: waits for a daemon, then finds the store holding either
    /// the state before the call or the predicted state after it — anything else is a lost
    /// acknowledged change or a half-applied one.
    private func reconcile(_ step: Step) {
        guard let records = ownRecordsWaiting() else {
            return stats.fail("\(step.label): no daemon answered within 60 s after a crash")
        }
        if RecordCheck.problem(records, model, frame) == nil { return }
        if step.kind == .mutation, var after = step.after {
            if let title = step.addedTitle,
                let id = records.first(where: { $0["title"]?.stringValue == title })?["id"]?.stringValue,
                let slot = after.tasks.firstIndex(where: { $0.title == title && $0.id.isEmpty })
            {
                after.tasks[slot].id = id
            }
            if RecordCheck.problem(records, after, frame) == nil {
                stats.appliedUnacknowledged += 1
                model = after
                return
            }
        }
        let before = RecordCheck.problem(records, model, frame) ?? ""
        stats.fail(
            "\(step.label) interrupted by a crash: the store holds neither the state before nor after it (\(before))")
        resync()
    }

    /// The client's own task records, retrying while no daemon answers (up to 60 s).
    func ownRecordsWaiting() -> [[String: DBusValue]]? {
        let deadline = Monotonic.now() + 60_000_000
        while Monotonic.now() < deadline {
            if case .success(let reply) = connection.perform(Call(member: "ListTasks", arguments: [.string("")])),
                let records = reply.first?.vardictArrayValue
            {
                return records.filter { RecordCheck.owned($0, prefix) }
            }
            usleep(10_000)
        }
        return nil
    }

    /// After a failure, the model restarts from what the daemon holds, so one failure is reported
    /// once rather than at every later step.
    private func resync() {
        guard let records = ownRecordsWaiting() else { return }
        model.tasks = records.compactMap { record in
            guard let id = record["id"]?.stringValue, let title = record["title"]?.stringValue,
                let time = record["time"]?.stringValue
            else { return nil }
            return ModelTask(
                id: id, title: title, time: time, done: record["done"]?.boolValue ?? false,
                xp: Int(record["xp"]?.int32Value ?? 0), snoozedUntil: record["snoozed_until"]?.int64Value ?? 0)
        }
    }
}
