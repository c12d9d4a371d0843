import Foundation
import Testing

@testable import PetCore
@testable import PetStore

/// The store's JSON writer against its oracle, `JSONEncoder` (see `Reflected`): for generated
/// states and history records — hostile titles, extreme numbers, empty and full days — the bytes
/// are the very bytes `JSONEncoder` gives, so files written before and after the writer are
/// the same, and they decode back to the same value.
@Suite struct StateEncodingTests {
    static let cases = 300

    @Test(arguments: 0..<cases) func stateFilesAreJSONEncodersBytesAndDecodeBack(seed: Int) throws {
        var gen = StateGen(seed: 20_261_124 + UInt64(seed))
        let world = gen.world()
        let tail = gen.tail(for: world)
        let ours = StateFile.encode(world, tail: tail)
        let oracle = try Reflected.line(OracleStateEnvelope(schema: Schema.current, world: world, history: tail))
        if ours != oracle { Issue.record("not JSONEncoder's bytes: \(firstDifference(ours, oracle))") }
        // Values out of bounds are damage on load (BoundsOnLoadTests); within them, everything comes back.
        let valid = WithinBounds.world(world)
        let validTail = tail.map { HistoryTail(year: $0.year, length: max(0, $0.length), lastDay: $0.lastDay) }
        let written = StateFile.encode(valid, tail: validTail)
        let validOracle = try Reflected.line(
            OracleStateEnvelope(schema: Schema.current, world: valid, history: validTail))
        if written != validOracle { Issue.record("not JSONEncoder's bytes: \(firstDifference(written, validOracle))") }
        guard case .world(let back, nil, let backTail) = StateFile.decode(written) else {
            Issue.record("the written state does not load: \(StateFile.decode(written))")
            return
        }
        #expect(back == valid)
        #expect(backTail == validTail)
    }

    @Test(arguments: 0..<cases) func historyLinesAreJSONEncodersBytesAndDecodeBack(seed: Int) throws {
        var gen = StateGen(seed: 20_261_125 + UInt64(seed))
        let record = gen.record()
        let ours = try HistoryLine.encode(record)
        let oracle = try Reflected.line(OracleHistoryEnvelope(schema: Schema.current, record: record))
        if ours != oracle { Issue.record("not JSONEncoder's bytes: \(firstDifference(ours, oracle))") }
        let valid = WithinBounds.record(record)
        let written = try HistoryLine.encode(valid)
        let validOracle = try Reflected.line(OracleHistoryEnvelope(schema: Schema.current, record: valid))
        if written != validOracle { Issue.record("not JSONEncoder's bytes: \(firstDifference(written, validOracle))") }
        guard case .record(let back) = HistoryLine.decode(written.dropLast()) else {
            Issue.record("the written line does not load: \(HistoryLine.decode(written.dropLast()))")
            return
        }
        #expect(back == valid)
    }

    /// The migrations' documents (keys sorted by their UTF-8 bytes, doubles in `JSONEncoder`'s form).
    @Test(arguments: 0..<cases) func jsonValuesAreJSONEncodersBytes(seed: Int) throws {
        var gen = StateGen(seed: 20_261_126 + UInt64(seed))
        let value = gen.json()
        let oracle = Array(try Reflected.encoder.encode(Reflected(value: value)))
        if value.bytes != oracle { Issue.record("not JSONEncoder's bytes: \(firstDifference(value.bytes, oracle))") }
    }

    /// The escapes spelled out, so a reader sees them without running the oracle: quote,
    /// backslash and control characters escaped (short forms where JSON has them, else
    /// `\u00XX` in lower case), `/`, DEL, U+2028 and everything else non-ASCII as they are.
    @Test func titlesAreEscapedAsJSONEncoderEscapesThem() throws {
        var world = PetWorld(now: 1_772_406_000, zone: .utc)
        let title = "a\"b\\c/d\u{0}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}\u{2028}é🐸"
        world.tasks = [
            TaskItem(
                id: "x", title: title, time: WallTime(hour: 9, minute: 5)!, dayKey: world.openDay.key,
                scheduled: -1, order: UInt64.max)
        ]
        let text = String(decoding: StateFile.encode(world), as: UTF8.self)
        #expect(text.contains(#""title":"a\"b\\c/d\u0000\b\t\n\f\r\u001f\#u{7F}\#u{2028}é🐸""#))
        #expect(text.contains(#""order":18446744073709551615,"scheduled":-1,"time":"09:05""#))
    }

    /// JSON has no NaN or infinity: a record holding one is refused, as `JSONEncoder` refused it.
    @Test(arguments: [Double.nan, .infinity, -.infinity]) func aRecordWhoseRateIsNotANumberIsRefused(rate: Double) {
        let good = Fixture.record(Fixture.day("2026-03-01"))
        let bad = DayRecord(
            day: good.day, tasks: good.tasks, done: good.done, total: good.total, rate: rate,
            petAtOpen: good.petAtOpen, petAtClose: good.petAtClose, xpChange: good.xpChange, rest: good.rest,
            resultXP: good.resultXP)
        #expect(throws: StoreError.self) { try HistoryLine.encode(bad) }
    }

    /// The snapshot the start-up tick takes survives the state file; a file written before
    /// snapshots existed loads with none.
    @Test func snapshotRoundTripsThroughTheStateFile() throws {
        var w = try Fixture.richWorld()
        _ = w.catchUp(Fixture.ctx(), startingUp: true)
        #expect(w.snapshot != nil)
        let bytes = StateFile.encode(w)
        guard case .world(let back, nil, nil) = StateFile.decode(bytes) else {
            Issue.record("the state does not load: \(StateFile.decode(bytes))")
            return
        }
        #expect(back == w)
        var old = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
        var world = old["world"] as? [String: Any] ?? [:]
        world["snapshot"] = nil
        old["world"] = world
        guard
            case .world(let legacy, nil, nil) = StateFile.decode(Array(try JSONSerialization.data(withJSONObject: old)))
        else {
            Issue.record("a state without a snapshot does not load")
            return
        }
        #expect(legacy.snapshot == nil)
        #expect(legacy.tasks == w.tasks)
    }

    /// Where two byte strings part, with some context, for a failure message.
    func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return a.count == b.count ? "equal" : "one is a prefix of the other (\(a.count) vs \(b.count) bytes)"
        }
        let from = max(0, i - 40)
        return "differ at byte \(i): ours …\(String(decoding: a[from..<min(a.count, i + 40)], as: UTF8.self))… "
            + "JSONEncoder's …\(String(decoding: b[from..<min(b.count, i + 40)], as: UTF8.self))…"
    }
}
