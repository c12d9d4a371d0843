import CDBus
import PetBus
import PetCore
import Testing

@testable import DBusKit

/// The daemon writes its large replies (`ListTasks`, `GetHistory`, `GetTimeline`,
/// `ListTemplates`, `GetStatus`) straight into the message (docs/DECISIONS.md, "The large replies
/// written, not built"); before, it built a `DBusValue` tree and let libdbus encode that. For many
/// seeded random records, the bytes of both bodies are the same, byte for byte, and read back as
/// the values clients decode.
@Suite struct WrittenReplyTests {
    /// Seeds drawn in turn; each builds one reply of up to 40 records.
    static let seeds: [UInt64] = Array(1...200)

    @Test(arguments: seeds) func listTasksAndListTemplates(seed: UInt64) throws {
        var g = Generator(seed: seed)
        let tasks = (0..<g.int(0...40)).map { _ in g.task() }
        try expectSameBody(tasks.encode(into:), [.array(elementSignature: "a{sv}", tasks.map(\.dbus))])
        let templates = (0..<g.int(0...40)).map { _ in g.template() }
        try expectSameBody(templates.encode(into:), [templates.dbus])
    }

    @Test(arguments: seeds) func getHistory(seed: UInt64) throws {
        var g = Generator(seed: seed)
        let days = (0..<g.int(0...40)).map { _ in g.history() }
        let more = g.bool()
        try expectSameBody(
            { body in
                days.encode(into: &body)
                body.bool(more)
            }, [.array(elementSignature: "a{sv}", days.map(\.dbus)), .bool(more)])
    }

    @Test(arguments: seeds) func getTimelineAndGetStatus(seed: UInt64) throws {
        var g = Generator(seed: seed)
        let entries = (0..<g.int(0...40)).map { _ in g.entry() }
        try expectSameBody(entries.encode(into:), [.array(elementSignature: "a{sv}", entries.map(\.dbus))])
        let status = ServiceStatus(
            version: g.string(), dataDirectory: g.string(), lastClosedDay: g.string(), openDay: g.string(),
            mutations: g.next(), problems: (0..<g.int(0...4)).map { _ in g.string() }, now: g.instant(),
            replyCacheHits: g.next())
        try expectSameBody(status.encode(into:), [status.dbus])
    }

    /// The body written by `write` and the one libdbus encodes from `values` (the old path): the
    /// same signature, the same bytes, and the same values read back.
    private func expectSameBody(_ write: (inout BodyWriter) -> Void, _ values: [DBusValue]) throws {
        let call = try Message.methodCall(destination: nil, path: "/t", interface: nil, member: "M")
        dbus_message_set_serial(call.raw, 7)
        let written = try EncodedBody(write)
        let old = try call.makeReply(values)
        #expect(written.signature == old.signature)
        #expect(try bodyBytes(written.reply(to: call)) == bodyBytes(old))
        #expect(try written.values() == values)
    }

    /// The marshalled body of `message`: the last `body length` bytes (fixed header, offset 4).
    private func bodyBytes(_ message: Message) throws -> [UInt8] {
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        try #require(dbus_message_marshal(message.raw, &data, &length) != 0)
        defer { dbus_free(data) }
        let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(length)))
        let field = bytes[4..<8].map(UInt32.init)
        let bodyLength =
            bytes[0] == UInt8(ascii: "l")
            ? field[0] | field[1] << 8 | field[2] << 16 | field[3] << 24
            : field[3] | field[2] << 8 | field[1] << 16 | field[0] << 24
        return Array(bytes.suffix(Int(bodyLength)))
    }
}

/// Seeded random values of every field type the contract's records carry, strings among them
/// empty, long, with markup and with characters outside the BMP.
private struct Generator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static let pieces = ["", "Walk", "Write <report> & \"notes\"", "🦀", "Ünïcödé", "a\tb\nc", "20260302-4", "14:45"]

    mutating func next() -> UInt64 { rng.next() }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func bool() -> Bool { rng.next() & 1 == 1 }
    mutating func instant() -> Instant { Instant(bitPattern: rng.next()) }
    mutating func double() -> Double { rng.unit() }
    /// An integer across the whole range, beyond 32 bits too (clamped on the wire).
    mutating func wide() -> Int { Int(bitPattern: UInt(rng.next())) >> int(0...62) }
    mutating func string() -> String {
        (0..<int(0...4)).map { _ in Self.pieces[int(0...Self.pieces.count - 1)] }.joined(separator: " ")
            + String(repeating: "x", count: int(0...3) == 0 ? int(0...300) : 0)
    }

    mutating func task() -> TaskRecord {
        TaskRecord(
            id: string(), title: string(), time: string(), effectiveTime: string(), dayKey: string(), done: bool(),
            completedAt: instant(), completedSeq: next(), snoozedUntil: instant(), scheduledAt: instant(),
            overdue: bool(), isNext: bool(), xp: wide(), repeatRule: string(), templateID: string(), due: bool(),
            dueAt: instant(), overdueAt: instant())
    }

    mutating func template() -> TemplateRecord {
        TemplateRecord(id: string(), title: string(), time: string(), repeatRule: string())
    }

    mutating func history() -> HistoryRecord {
        HistoryRecord(
            dayKey: string(), start: instant(), end: instant(), tasksDone: wide(), tasksTotal: wide(),
            rate: double(), rest: bool(), xpChange: wide(), dailyXP: wide(), stageIndexOpen: wide(),
            stageXPOpen: wide(), stageIndexClose: wide(), stageXPClose: wide(), stageNameClose: string(),
            tasks: (0..<int(0...6)).map { _ in task() })
    }

    mutating func entry() -> WidgetEntry {
        let pet = PetView(
            stageIndex: wide(), stageCount: wide(), stageName: string(), stageXP: wide(), threshold: wide(),
            progress: double(), isFinal: bool(), iconName: string(), iconPath: string(), glyph: string())
        return WidgetEntry(
            date: instant(), nextDate: instant(), dayKey: string(), pet: pet, tasksDone: wide(), tasksTotal: wide(),
            nextTaskID: string(), nextTaskTitle: string(), nextTaskTime: string(), nextTaskOverdue: bool(),
            upcoming: (0..<int(0...4)).map { _ in task() }, restDay: bool(), accessibleText: string(),
            nextTaskDue: bool())
    }
}
