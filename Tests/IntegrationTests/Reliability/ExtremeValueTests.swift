import DBusKit
import Foundation
import TestSupport
import Testing

extension Reliability {
    /// No value in a file can crash or hang the daemon (docs/RELIABILITY.md, "Extreme values in the
    /// files"): every number of the current schema's golden `state.json` and of the last line of its
    /// history (the one a start and a query read), and the two numbers of the state's history hint,
    /// pushed to an extreme one at a time, against the real daemon. Each start must either refuse
    /// with one line and a status (never a signal), or come up and answer a round of calls that
    /// reads, writes, closes nothing and exports everything — with the file set aside as damaged
    /// (petprogress(7) §5) or the value harmless — and still be running afterwards.
    @Suite("extreme values in the files")
    struct ExtremeValueTests {
        static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("PetStoreTests/Fixtures/schema3").path

        /// The extremes of the integers a file can spell, and the edges of the bounds a value must
        /// keep (petprogress(7) §5: counts and XP up to 2³¹−1, a day's XP change down to −(2³¹−1),
        /// instants up to 9999-12-31T23:59:59Z), which load and must not break the arithmetic on
        /// them. Fast: both signed extremes and the instants' upper edge; full: all.
        static let values = ReliabilityRun.size(
            fast: ["-9223372036854775808", "9223372036854775807", "253402300799"],
            full: [
                "-9223372036854775808", "9223372036854775807", "18446744073709551615", "2147483647",
                "-2147483647", "253402300799", "0",
            ])

        /// When the daemon starts: a day after the golden open day (so the start closes it, with
        /// the value in play), and, in full, also within it (so the value meets the calls first).
        static let nows = ReliabilityRun.size(
            fast: ["2026-03-10T12:00:00+01:00"], full: ["2026-03-10T12:00:00+01:00", "2026-03-09T12:00:00+01:00"])

        /// One number in one file: where its digits are, and a name for the report.
        struct Field {
            var file: String
            var name: String
            var range: Range<String.Index>
        }

        /// Every `"key":number` of `text`, named `key` or `key#n` for its n-th occurrence.
        static func fields(of text: String, file: String) -> [Field] {
            var seen: [String: Int] = [:]
            var found: [Field] = []
            let pattern = #/"([A-Za-z]+)":(-?[0-9][0-9.eE+-]*)/#
            for match in text.matches(of: pattern) {
                let key = String(match.output.1)
                seen[key, default: 0] += 1
                let name = seen[key] == 1 ? key : "\(key)#\(seen[key]!)"
                found.append(Field(file: file, name: name, range: match.output.2.startIndex..<match.output.2.endIndex))
            }
            return found
        }

        enum Outcome: String {
            case damaged = "set aside as damaged"
            case harmless = "loaded, harmless"
            case refused = "start refused with a line"
        }

        @Test("every number of the state and history files at both extremes, one at a time: damage or harmless")
        func everyNumberAtBothExtremes() async throws {
            let world = try await World("extremes")
            defer { world.close() }
            let state = try String(contentsOfFile: Self.fixtures + "/state.json", encoding: .utf8)
            let history = try String(contentsOfFile: Self.fixtures + "/history-2026.jsonl", encoding: .utf8)
            let lastLine = try #require(history.split(separator: "\n").last).startIndex
            var fields = Self.fields(of: state, file: "state.json")
            fields += Self.fields(of: history, file: "history-2026.jsonl").filter { $0.range.lowerBound >= lastLine }
            // The history hint, "2026 1068 2026-03-08": its year and its length.
            let hint = try #require(state.range(of: "\"history\":\"2026 1068 "))
            let year = state.index(hint.lowerBound, offsetBy: 11)
            fields.append(
                Field(file: "state.json", name: "history (year)", range: year..<state.index(year, offsetBy: 4)))
            let length = state.index(year, offsetBy: 5)
            fields.append(
                Field(file: "state.json", name: "history (length)", range: length..<state.index(length, offsetBy: 4)))

            var outcomes: [(field: String, value: String, outcome: Outcome)] = []
            var failures: [String] = []
            for field in fields {
                for value in Self.values {
                    for now in Self.nows {
                        let label = "\(field.file) \(field.name) = \(value), start \(now)"
                        let data = world.sandbox.path("data-\(outcomes.count)")
                        mkdir(data, 0o700)
                        var stateText = state
                        var historyText = history
                        if field.file == "state.json" {
                            stateText.replaceSubrange(field.range, with: value)
                        } else {
                            historyText.replaceSubrange(field.range, with: value)
                        }
                        try stateText.write(toFile: data + "/state.json", atomically: false, encoding: .utf8)
                        try historyText.write(toFile: data + "/history-2026.jsonl", atomically: false, encoding: .utf8)
                        do {
                            let outcome = try await Self.attempt(world, data: data, now: now)
                            outcomes.append((label, value, outcome))
                        } catch {
                            failures.append("\(label): \(error)")
                            outcomes.append((label, value, .refused))
                        }
                        try? FileManager.default.removeItem(atPath: data)
                    }
                }
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
            #expect(outcomes.count == fields.count * Self.values.count * Self.nows.count)
            let counts = Dictionary(grouping: outcomes, by: \.outcome).mapValues(\.count)
            print(
                "extreme values: \(fields.count) numbers × \(Self.values.count) values: "
                    + counts.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", "))
            try ReliabilityRun.fragment(
                "65-extreme-values",
                """
                ## Extreme values in the files

                Every number of the current schema's golden `state.json` (\(fields.filter { $0.file == "state.json" }.count), the history hint's \
                two included) and of the last line of `history-2026.jsonl` (\(fields.filter { $0.file != "state.json" }.count)) set to \
                \(Self.values.joined(separator: ", ")), one at a time, against \(ReliabilityRun.daemonBuild), \
                started at \(Self.nows.joined(separator: " and at ")) (the golden open day is 2026-03-09, so the first \
                start closes it with the value in play): \(outcomes.count) starts, each followed by `GetWidgetEntry`, `GetTimeline`, `GetPet`, `AddTask`, \
                `MarkNextDone`, `GetHistory`, `ExportStore` and `GetStatus`. No crash, no hang, no call left unanswered; \
                \(counts.map { "\($0.value) \($0.key.rawValue)" }.sorted().joined(separator: ", ")).

                """)
        }

        /// Starts the daemon on `data`, runs the round of calls, stops it; the outcome, or an error
        /// saying what went wrong (a signal, a hang, a call unanswered, an exit mid-round).
        static func attempt(_ world: World, data: String, now: String) async throws -> Outcome {
            let daemon = try await world.daemon(dataDirectory: data, now: now, waitForName: false)
            do {
                try await offPool { [bus = world.bus] in try daemon.waitUntilOwned(bus: bus) }
            } catch {
                guard let status = await daemon.process.waitExit(timeout: .seconds(10)) else {
                    throw HarnessError("the start neither finished nor ended: \(error)")
                }
                let line = daemon.process.errors.split(separator: "\n").last ?? ""
                guard status != 0, status < 128, line.hasPrefix("petprogressd: ") else {
                    throw HarnessError("the start ended with status \(status): \(daemon.process.errors)")
                }
                return .refused
            }
            defer { _ = daemon.process.killNow() }
            let client = try world.client()
            func call(_ member: String, _ arguments: [DBusValue] = []) throws {
                do {
                    _ = try client.connection.call(
                        destination: PetDaemon.name, path: PetDaemon.path, interface: PetDaemon.interface,
                        member: member, arguments: arguments, timeout: .seconds(15))
                } catch let error as DBusError where error.name.hasPrefix("io.petprogress.") {
                    return  // refused with the daemon's own error: an answer
                }
            }
            try call("GetWidgetEntry")
            try call("GetTimeline")
            try call("GetPet")
            try call("AddTask", [.string("Probe"), .string("23:00")])
            try call("MarkNextDone")
            try call("GetHistory", [.string("2026-03-01"), .string("2026-03-09")])
            try call("ExportStore")
            let status = try client.status()
            guard daemon.process.isRunning else { throw HarnessError("the daemon exited during the round") }
            guard await daemon.stop() == 0 else { throw HarnessError("SIGTERM did not end the daemon cleanly") }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []
            if names.contains(where: { $0.hasPrefix("state.json.corrupt-") }) { return .damaged }
            let problems = status["problems"]?.arrayValues?.compactMap(\.stringValue) ?? []
            return problems.isEmpty ? .harmless : .damaged
        }
    }
}
