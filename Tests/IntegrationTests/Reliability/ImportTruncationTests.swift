import DBusKit
import Foundation
import TestSupport
import Testing

/// An import whose file its owner truncates while the daemon reads it (petprogress(7) §5,
/// "Import"): the daemon reads its own copy of the document, an unnamed file of the data directory,
/// so a page past the file's new end is never touched. A daemon that mapped the passed file itself
/// died of `SIGBUS` here (exit 135) as soon as its parse passed the new end. The real daemon on a
/// private bus, a grown export of about 24 MiB through `petctl import`, the file cut to half then
/// to nothing: once the daemon has the document mapped (its parse running, seconds in a debug
/// build), and once as soon as the daemon holds the passed file (its copy may be running). The
/// daemon stays up and answers `GetStatus`; the import either succeeds whole, from the copy, or is
/// refused with a sentence and the data directory is as it was; the copy is gone afterwards. Then a
/// data directory whose disk has too little room for the copy: refused with a sentence, nothing
/// changed; given room, the same import succeeds (the copy then crosses file systems: `sendfile`).
/// In the reliability suites, which `make test` runs one at a time after the others: their writes
/// would slow the other suites' timing bounds.
extension Reliability {
    @Suite("import of a file truncated meanwhile")
    struct ImportTruncationTests {
        /// When the test cuts the file.
        enum Moment: String {
            /// Once the daemon has the document mapped: the file itself, or the daemon's copy.
            case whileParsed = "while the daemon parses it"
            /// As soon as the daemon holds the passed file: before, during or after its copy.
            case assoonAsHeld = "as soon as the daemon holds it"
        }

        /// A grown export of about `size` bytes at `path` (`ImportMemoryTests.grownStore`) and the
        /// number of closed days it holds.
        static func document(_ world: World, size: Int, at path: String) async throws -> Int {
            let (text, recordBytes) = try await ImportMemoryTests.builtExport(world)
            let days = size / recordBytes
            try Data(try ImportMemoryTests.grownStore(text, days: days)).write(to: URL(fileURLWithPath: path))
            return days + 2
        }

        /// The lines of the daemon's memory map that name `path`'s file, or an unnamed file of
        /// `directory` (an `O_TMPFILE` shows as `directory/#inode (deleted)`).
        static func mapped(_ pid: pid_t, _ path: String, orCopyIn directory: String) -> [Substring] {
            guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return [] }
            return maps.split(separator: "\n").filter {
                $0.hasSuffix(" " + path) || ($0.contains(" " + directory + "/#") && $0.hasSuffix(" (deleted)"))
            }
        }

        /// Whether the daemon has a descriptor of `path`'s file open.
        static func holds(_ pid: pid_t, _ path: String) -> Bool {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return fds.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path
            }
        }

        /// The lines of every history file in `directory`: the closed days the store holds.
        static func historyDays(_ directory: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasPrefix("history-") && $0.hasSuffix(".jsonl") }
                .reduce(0) { count, name in
                    count
                        + (try String(contentsOfFile: directory + "/" + name, encoding: .utf8))
                        .split(separator: "\n").count
                }
        }

        @Test(
            "a file truncated to half, then to nothing, while the daemon reads it: the daemon stays up, the import is whole or refused with nothing changed"
        )
        func truncatedWhileRead() async throws {
            let world = try await World("import-cut")
            defer { world.close() }
            let path = world.sandbox.path("grown.json")
            let closedDays = try await Self.document(world, size: 24 << 20, at: path)
            let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let petctl = try productBinary("petctl", override: "PETCTL")
            for (n, moment) in [Moment.whileParsed, .assoonAsHeld].enumerated() {
                try original.write(to: URL(fileURLWithPath: path))
                let data = world.sandbox.path("cut\(n)")
                let daemon = try await world.daemon(dataDirectory: data, now: ImportTests.wednesday)
                let pid = daemon.process.pid
                // As the kernel names it in the daemon's map.
                let real = (data as NSString).resolvingSymlinksInPath
                // A first call's refresh may save the fresh store: done before the files are taken.
                _ = try world.client().status()
                let before = try ImportTests.files(data)
                let environment = world.petctlEnvironment
                let sandbox = world.sandbox
                let (status, output, cutAt, stillReading, took) = try await offPool {
                    () throws -> (Int32?, String, Duration?, Bool, Duration) in
                    let began = ContinuousClock.now
                    let importer = try sandbox.spawn(
                        petctl, ["import", path], environment: environment, label: "import")
                    var cutAt: Duration?
                    var stillReading = false
                    while importer.isRunning, ContinuousClock.now - began < .seconds(120) {
                        let ready =
                            switch moment {
                            case .whileParsed: !Self.mapped(pid, path, orCopyIn: real).isEmpty
                            case .assoonAsHeld: Self.holds(pid, path)
                            }
                        if ready {
                            cutAt = ContinuousClock.now - began
                            // At a page's start: the bytes after it are on a page wholly past the
                            // end, which faults when read through a mapping of the file itself
                            // (the rest of a partly cut page reads as zeros).
                            truncate(path, off_t(bytes / 2 / 4096 * 4096))
                            usleep(200_000)
                            truncate(path, 0)
                            stillReading = !Self.mapped(pid, path, orCopyIn: real).isEmpty
                            break
                        }
                        usleep(500)
                    }
                    let status = importer.waitExitBlocking(timeout: .seconds(900))
                    return (status, importer.output + importer.errors, cutAt, stillReading, ContinuousClock.now - began)
                }
                print(
                    "import truncation (\(moment.rawValue)): \(bytes >> 20) MiB cut at \(cutAt.map { "\($0)" } ?? "never"), the daemon \(stillReading ? "still" : "no longer") reading it 0.2 s later; petctl exited \(status.map(String.init) ?? "-") after \(took): \(output.prefix(300))"
                )
                #expect(cutAt != nil || moment == .assoonAsHeld, "the daemon was never seen reading the document")
                // The daemon is the one started above, alive, and answers.
                #expect(
                    daemon.process.isRunning, "the daemon died (exit \(daemon.process.status ?? -1); 135 is SIGBUS)")
                guard daemon.process.isRunning else {
                    print("daemon's stderr: \(daemon.process.errors.suffix(600))")
                    continue
                }
                let client = try world.client()
                #expect(!(try client.status()).isEmpty)
                #expect(try client.daemonPID() == pid)
                if status == 0 {
                    // Whole: every closed day of the document, read from the daemon's copy.
                    #expect(output.contains(": \(closedDays) closed days"), "\(output)")
                    #expect(try Self.historyDays(data) == closedDays)
                    #expect(try client.tasks().map { $0.string("title") ?? "" }.contains("Call Ann"))
                } else {
                    #expect(output.contains("cannot be imported"), "\(output)")
                    #expect(output.contains("nothing was changed"), "\(output)")
                    let after = try ImportTests.files(data)
                    #expect(
                        after == before,
                        "changed: \(Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()) \(String(decoding: before["state.json"] ?? Data(), as: UTF8.self)) \(String(decoding: after["state.json"] ?? Data(), as: UTF8.self))"
                    )
                }
                // The copy is gone with the read: no mapping of it left, no name in the directory.
                #expect(Self.mapped(pid, path, orCopyIn: real).isEmpty)
                #expect(await daemon.stop() == 0)
            }
        }

        @Test(
            "a data directory without room for the daemon's copy: refused with a sentence, nothing changed; with room, the same import succeeds across file systems",
            .enabled(if: StorageTests.mountUnavailable == nil, skipped(StorageTests.mountUnavailable)))
        func noRoomForTheCopy() async throws {
            let world = try await World("import-room")
            defer { world.close() }
            let path = world.sandbox.path("grown.json")
            let closedDays = try await Self.document(world, size: 12 << 20, at: path)
            let data = world.sandbox.path("small")
            mkdir(data, 0o700)
            // 24 MiB: the document fits, but not with the 16 MiB the copy must leave free.
            try #require(Glibc.mount("tmpfs", data, "tmpfs", 0, "size=24m,mode=0700") == 0)
            defer { umount2(data, Int32(MNT_DETACH)) }
            let daemon = try await world.daemon(dataDirectory: data, now: ImportTests.wednesday)
            // A first call's refresh may save the fresh store: done before the files are taken.
            _ = try world.client().status()
            let before = try ImportTests.files(data)
            let refused = try await world.petctl(["import", path])
            let sentence = refused.output + refused.errors
            print("import without room: petctl exited \(refused.status): \(sentence)")
            #expect(refused.status != 0)
            #expect(sentence.contains("too little room to copy it first"), "\(sentence)")
            #expect(sentence.contains("nothing was changed"), "\(sentence)")
            #expect(try ImportTests.files(data) == before)
            #expect(daemon.process.isRunning)

            #expect(Glibc.mount(nil, data, nil, UInt(MS_REMOUNT), "size=64m,mode=0700") == 0)
            let imported = try await world.petctl(["import", path])
            #expect(imported.status == 0, "\(imported.output)\(imported.errors)")
            #expect(imported.output.contains(": \(closedDays) closed days"), "\(imported.output)")
            #expect(try Self.historyDays(data) == closedDays)
            #expect(await daemon.stop() == 0)
        }
    }
}
