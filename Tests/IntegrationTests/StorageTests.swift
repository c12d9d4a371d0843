import DBusKit
import Foundation
import TestSupport
import Testing

/// A disk that refuses writes (petprogress(7) §5, §6.1): a mutation is acknowledged only once durable, so it
/// answers `StorageFailure` and changes nothing; the daemon stays up and recovers with the disk.
@Suite("Storage failures")
struct StorageTests {
    /// Why a tmpfs cannot be mounted here, or nil when it can.
    static let mountUnavailable: String? = {
        var template = Array("/tmp/ppit-probe-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return "mkdtemp failed" }
        let probe = String(cString: made)
        defer { rmdir(probe) }
        guard Glibc.mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else {
            return "cannot mount a tmpfs here (\(String(cString: strerror(errno)))); needs root with mount rights"
        }
        umount2(probe, Int32(MNT_DETACH))
        return nil
    }()

    /// Makes `path` (created here) a small tmpfs of its own, for the data directory: what goes
    /// read-only below is that file system itself. (A read-only bind mount over the directory, made
    /// once the daemon runs, would not do: the daemon writes through the directory it opened, which
    /// such a mount leaves writable.)
    static func mountDisk(_ path: String) -> Bool {
        mkdir(path, 0o700)
        return Glibc.mount("tmpfs", path, "tmpfs", 0, "size=4m,mode=0700") == 0
    }

    /// Remounts the tmpfs at `path` read-only, or writable again.
    static func setReadOnly(_ path: String, _ readOnly: Bool) -> Bool {
        Glibc.mount(nil, path, nil, UInt(MS_REMOUNT) | (readOnly ? UInt(MS_RDONLY) : 0), nil) == 0
    }

    @Test(
        "a read-only data directory: StorageFailure, nothing changed, the daemon recovers and stops cleanly",
        .enabled(if: StorageTests.mountUnavailable == nil, skipped(StorageTests.mountUnavailable)))
    func readOnlyDataDirectory() async throws {
        let world = try await World("readonly")
        defer { world.close() }
        let data = world.sandbox.path("data")
        try #require(Self.mountDisk(data))
        defer { umount2(data, Int32(MNT_DETACH)) }
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:30:00+01:00")
        let client = try world.client()
        let walk = try client.addTask("Walk", "09:00")
        let before = (try client.tasks(), try client.status().int("mutations"), try client.pet())
        let stateBefore = try Data(contentsOf: URL(fileURLWithPath: daemon.dataDirectory + "/state.json"))

        #expect(Self.setReadOnly(data, true), "\(String(cString: strerror(errno)))")

        let failure = "io.petprogress.PetProgress1.Error.StorageFailure"
        #expect(client.errorName("AddTask", [.string("Lost"), .string("10:00")]) == failure)
        #expect(client.errorName("MarkDone", [.string(walk)]) == failure)
        #expect(
            client.errorName(
                "Set", [.string(PetDaemon.interface), .string("GraceMinutes"), .variant(.uint32(5))],
                interface: "org.freedesktop.DBus.Properties") == failure)
        let result = try await world.dbusSend("Snooze", ["string:\(walk)"])
        #expect(result.errors.contains(failure), "\(result)")
        #expect(daemon.process.isRunning)
        #expect(try client.tasks() == before.0)
        #expect(try client.status().int("mutations") == before.1)
        #expect(try client.pet() == before.2)
        #expect(try client.property("GraceMinutes") == .uint32(60))

        #expect(Self.setReadOnly(data, false), "\(String(cString: strerror(errno)))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: data + "/state.json")) == stateBefore)
        #expect(try client.markDone(walk) == 2)
        #expect(try client.status().int("mutations") == (before.1 ?? 0) + 1)
        #expect(await daemon.stop() == 0)
        #expect(try String(contentsOfFile: data + "/state.json", encoding: .utf8).contains("\"completedAt\""))
    }
    @Test(
        "a tick that cannot be saved (read-only data directory) is retried by the timer itself once the disk is writable",
        .enabled(if: StorageTests.mountUnavailable == nil, skipped(StorageTests.mountUnavailable)))
    func tickRetriedAfterStorageFailure() async throws {
        let world = try await World("tickretry")
        defer { world.close() }
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        // 60×: the 09:00 tick comes ten real seconds in (room for the mount below on a loaded machine),
        // and the retry a simulated minute after a failure.
        let data = world.sandbox.path("data")
        try #require(Self.mountDisk(data))
        defer { umount2(data, Int32(MNT_DETACH)) }
        let daemon = try await world.daemon(dataDirectory: data, now: "2026-03-02T08:50:00+01:00", timeScale: 60)
        // The daemon owns its name just before its start-up catch-up saves the 08:00 snapshot; a
        // reply means that save is done (under load the mount below could otherwise come first,
        // leaving no snapshot, so no tick to cross and nothing to emit).
        #expect(try world.client().status().string("open_day") == "2026-03-02")
        #expect(Self.setReadOnly(data, true), "\(String(cString: strerror(errno)))")

        // No request reaches the daemon from here on: only its own timer can bring the tick in.
        #expect(
            await poll(timeout: .seconds(25)) { daemon.process.errors.contains("could not save the catch-up") },
            "the 09:00 tick tried to save: \(daemon.process.errors)")
        try await Task.sleep(for: .seconds(2))
        #expect(recorder.count("EntryChanged") == 0, "nothing is published that is not on disk")

        #expect(Self.setReadOnly(data, false), "\(String(cString: strerror(errno)))")
        let published = await recorder.wait(timeout: .seconds(10)) { $0.contains { $0.member == "EntryChanged" } }
        #expect(published, "the timer retried on its own: \(daemon.process.errors)")
        #expect(recorder.signals("EntryChanged").first?.entry.int("date") == unix("2026-03-02T09:00:00+01:00"))
        #expect(recorder.count("EntryChanged") == 1)
        #expect(await daemon.stop() == 0)
    }
}
