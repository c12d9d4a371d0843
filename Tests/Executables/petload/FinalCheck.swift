import DBusKit
import Glibc

/// The end-of-run checks over the whole store: every acknowledged change present exactly once,
/// every completion credited exactly once, the live pet the oracle's, and the daemon's mutation
/// count the acknowledged changes (plus, after crashes, those applied whose reply was lost).
struct FinalCheck {
    let clients: [LoadClient]
    let probe: LoadClient
    let baseline: UInt64
    var failures: [String] = []
    var summary: [String: Any] = [:]

    init(clients: [LoadClient], probe: LoadClient, baseline: UInt64) {
        self.clients = clients
        self.probe = probe
        self.baseline = baseline
    }

    mutating func run() {
        guard let all = probe.connection.retrying(Call(member: "ListTasks", arguments: [.string("")])),
            let records = all.first?.vardictArrayValue
        else { return failures.append("ListTasks gave no task list at the end") }
        checkTasks(records)
        checkPet(records)
        checkMutations()
    }

    private mutating func checkTasks(_ records: [[String: DBusValue]]) {
        for client in clients {
            let own = records.filter { RecordCheck.owned($0, client.prefix) }
            if let problem = RecordCheck.problem(own, client.model, client.frame) {
                failures.append("client \(client.index) at the end: \(problem)")
            }
        }
        let foreign = records.filter { record in !clients.contains { RecordCheck.owned(record, $0.prefix) } }
        if !foreign.isEmpty { failures.append("tasks no client added: \(foreign.prefix(3))") }
        let ids = records.compactMap { $0["id"]?.stringValue }
        if Set(ids).count != records.count { failures.append("task ids are not unique: \(ids.count) ids") }
        summary["tasks"] = records.count
        summary["tasksDone"] = records.filter { $0["done"]?.boolValue == true }.count
    }

    /// Replays the awards of the tasks still done, in completion order, with the rules written
    /// out in PetRules, and compares with `GetPet`.
    private mutating func checkPet(_ records: [[String: DBusValue]]) {
        let completions = records.filter { $0["done"]?.boolValue == true }
            .map { (seq: $0["completed_seq"]?.uint64Value ?? 0, xp: Int($0["xp"]?.int32Value ?? 0)) }
            .sorted { $0.seq < $1.seq }
        if Set(completions.map(\.seq)).count != completions.count {
            failures.append("two completions share a sequence number")
        }
        let predicted = PetRules.replay(completions.map(\.xp))
        guard let reply = probe.connection.retrying(Call(member: "GetPet")), let pet = reply.first?.vardictValue else {
            return failures.append("GetPet gave no pet at the end")
        }
        let live = (stage: Int(pet["stage_index"]?.int32Value ?? -1), xp: Int(pet["stage_xp"]?.int32Value ?? -1))
        if live != predicted { failures.append("the live pet is \(live), the oracle's \(predicted)") }
        summary["pet"] = ["stage": live.stage, "xp": live.xp]
        summary["awards"] = completions.map(\.xp).reduce(0, +)
    }

    private mutating func checkMutations() {
        let acknowledged = clients.map(\.stats.acknowledged).reduce(0, +)
        let applied = clients.map(\.stats.appliedUnacknowledged).reduce(0, +)
        guard let reply = probe.connection.retrying(Call(member: "GetStatus")),
            let status = reply.first?.vardictValue, let mutations = status["mutations"]?.uint64Value
        else { return failures.append("GetStatus gave no mutation count at the end") }
        let expected = baseline + UInt64(acknowledged + applied)
        if mutations != expected {
            failures.append(
                "GetStatus mutations \(mutations), expected \(expected) (\(baseline) before, \(acknowledged) acknowledged, \(applied) applied without a reply)"
            )
        }
        if let problems = status["problems"]?.arrayValues, !problems.isEmpty {
            failures.append("GetStatus reports problems: \(problems)")
        }
        summary["mutations"] = mutations
        summary["acknowledged"] = acknowledged
        summary["appliedUnacknowledged"] = applied
    }
}

extension Connection {
    /// The reply to `call`, retrying for up to 60 s while no daemon answers; nil on an error reply.
    func retrying(_ call: Call) -> [DBusValue]? {
        let deadline = Monotonic.now() + 60_000_000
        while true {
            switch perform(call) {
            case .success(let reply): return reply
            case .failure(let error) where Wire.transportErrors.contains(error.name) && Monotonic.now() < deadline:
                usleep(10_000)
            case .failure: return nil
            }
        }
    }
}
