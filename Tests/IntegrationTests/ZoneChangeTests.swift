import DBusKit
import Foundation
import TestSupport
import Testing

/// petprogress(7) §3.2: a change of `/etc/localtime` while the daemon runs is noticed (inotify), the ticks
/// re-align to the new zone, and `EntryChanged` goes out once when the change crossed a tick. The
/// daemon runs without `TZ` in a private mount namespace where a copy of `/etc` is bind-mounted
/// over `/etc`, so the machine's own zone is never touched.
@Suite struct ZoneChangeTests {
    /// Why a private mount namespace cannot be made here, or nil when it can (it needs root).
    static let namespaceUnavailable: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            return "unshare is not installed"
        }
        guard
            let probe = try? Spawned(
                "/usr/bin/unshare", ["-m", "--propagation", "private", "mount", "--bind", "/tmp", "/mnt"],
                environment: Sandbox.baseEnvironment, directory: "/tmp", label: "unshare-probe")
        else {
            return "unshare cannot be started"
        }
        defer {
            try? FileManager.default.removeItem(atPath: probe.stdoutPath)
            try? FileManager.default.removeItem(atPath: probe.stderrPath)
        }
        let code = probe.reap(blocking: true)
        return code == 0
            ? nil : "cannot bind-mount in a private mount namespace (needs root): \(probe.errors.prefix(200))"
    }()

    /// How `/etc/localtime` is set and then changed: the zone before, and whether it is a symlink
    /// into tzdata (what timedatectl makes) or a copy of the zone file (what some images ship).
    struct Change: Sendable, CustomStringConvertible {
        let from: String
        let copy: Bool
        var description: String { "\(from) → Asia/Kathmandu (\(copy ? "a copied file replaced" : "relinked"))" }
    }

    /// At 08:20Z the latest tick is 08:00Z in UTC and in Berlin (09:00, +01:00), and 08:15Z in
    /// Kathmandu (14:00, +05:45), so each change crosses a tick.
    static let changes = [
        Change(from: "Etc/UTC", copy: false), Change(from: "Europe/Berlin", copy: false),
        Change(from: "Europe/Berlin", copy: true),
    ]

    @Test(
        "an /etc/localtime change at 08:20Z to Asia/Kathmandu crosses the 08:15Z tick: one EntryChanged, ticks at :15",
        .enabled(
            if: ZoneChangeTests.namespaceUnavailable == nil, skipped(ZoneChangeTests.namespaceUnavailable)),
        arguments: changes)
    func zoneChangeReAlignsTicks(_ change: Change) async throws {
        let world = try await World("zonechange")
        defer { world.close() }
        let etc = world.sandbox.path("etc")
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        try Self.setLocaltime(etc, to: change.from, copy: change.copy, via: "localtime")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        let daemon = try world.daemonWithPrivateEtc(etc, now: "2026-03-02T08:20:00Z")
        let client = try world.client()
        #expect(
            await poll(timeout: .seconds(20)) { (try? client.daemonPID()) != nil },
            "the daemon owns its name: \(daemon.errors)")
        let before = try client.entry()
        try await PetDaemon.waitForZoneWatch(daemon)
        #expect(before.int("date") == unix("2026-03-02T08:00:00Z"), "\(change.from): the 08:00Z snapshot")
        #expect(before.int("next_date") == unix("2026-03-02T09:00:00Z"))

        // What timedatectl does: replace the link (here with a rename over it, atomically); or a
        // new copy of the zone file renamed over the old one.
        try Self.setLocaltime(etc, to: "Asia/Kathmandu", copy: change.copy, via: "localtime.new")
        #expect(rename(etc + "/localtime.new", etc + "/localtime") == 0)

        let changed = await recorder.wait(timeout: .seconds(20)) { $0.contains { $0.member == "EntryChanged" } }
        #expect(changed, "EntryChanged after the zone change: \(daemon.errors)")
        try await Task.sleep(for: .seconds(1))
        let entries = recorder.signals("EntryChanged")
        #expect(entries.count == 1, "exactly once")
        #expect(entries.first?.entry.int("date") == unix("2026-03-02T08:15:00Z"), "14:00 in Kathmandu")
        let after = try client.entry()
        #expect(after.int("date") == unix("2026-03-02T08:15:00Z"))
        #expect(after.int("next_date") == unix("2026-03-02T09:15:00Z"), "the next tick is Kathmandu's 15:00")
        #expect(daemon.errors.contains("time zone changed to "), "\(daemon.errors)")
        if !change.copy { #expect(daemon.errors.contains("time zone changed to Asia/Kathmandu"), "\(daemon.errors)") }
    }

    /// Makes `etc/name` a symlink to the zone's tzdata file, or a copy of it.
    static func setLocaltime(_ etc: String, to zone: String, copy: Bool, via name: String) throws {
        let source = "/usr/share/zoneinfo/" + zone
        if copy {
            try FileManager.default.copyItem(atPath: source, toPath: etc + "/" + name)
        } else {
            try FileManager.default.createSymbolicLink(atPath: etc + "/" + name, withDestinationPath: source)
        }
    }
}
