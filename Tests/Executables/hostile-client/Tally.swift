import DBusKit

/// What the replies were: how many, which errors, and any mutation that succeeded.
struct Tally {
    var sent = 0
    var replies = 0
    var unsendable = 0
    var errors: [String: Int] = [:]
    var successes: [String: Int] = [:]
    var mutations: [String] = []
    /// Calls answered by libdbus's own timeout or a lost connection: never answered by the daemon.
    var unanswered: [String] = []

    mutating func record(call: Message, reply: Message) {
        replies += 1
        let member = call.member ?? ""
        if reply.kind == .error {
            let name = reply.errorName ?? "?"
            if name == DBusError.Name.noReply || name == DBusError.Name.disconnected {
                unanswered.append("\(call.interface ?? "-").\(member)(\(call.signature)): \(name)")
            }
            errors[name, default: 0] += 1
            return
        }
        successes["\(call.interface ?? "-").\(member)", default: 0] += 1
        if HostileCalls.mutating.contains(member), call.path == HostileCalls.path,
            call.interface != "org.freedesktop.DBus.Peer"
        {
            mutations.append("\(call.interface ?? "-").\(member)(\(call.signature))")
        }
    }

    /// `key value` lines the test reads, then the histograms.
    var report: String {
        var lines = [
            "sent \(sent)", "replies \(replies)", "unsendable \(unsendable)", "unanswered \(unanswered.count)",
            "mutations \(mutations.count)",
        ]
        lines += unanswered.prefix(5).map { "unanswered-call \($0)" }
        lines += mutations.prefix(5).map { "mutating-call \($0)" }
        lines += errors.sorted { $0.value > $1.value }.map { "error \($0.key) \($0.value)" }
        lines += successes.sorted { $0.value > $1.value }.map { "success \($0.key) \($0.value)" }
        return lines.joined(separator: "\n")
    }
}
