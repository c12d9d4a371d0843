import DBusKit
import Foundation
import TestSupport
import Testing

/// SPEC §3.2: a change of `/etc/localtime` while the daemon runs is noticed (inotify), the ticks
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

    @Test(
        "relinking /etc/localtime from UTC to Asia/Kathmandu at 08:20Z crosses the 08:15Z tick: one EntryChanged, ticks at :15",
        .enabled(
            if: ZoneChangeTests.namespaceUnavailable == nil, "skipped: \(ZoneChangeTests.namespaceUnavailable ?? "")"))
    func zoneChangeReAlignsTicks() async throws {
        let world = try await World("zonechange")
        defer { world.close() }
        let etc = world.sandbox.path("etc")
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: etc + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Etc/UTC")
        let recorder = try SignalRecorder(bus: world.bus)
        defer { recorder.stop() }
        var environment = PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: "")
        environment["TZ"] = nil
        let daemon = try world.sandbox.spawn(
            "/usr/bin/unshare",
            [
                "-m", "--propagation", "private", "sh", "-c", "mount --bind \"$0\" /etc && exec \"$@\"", etc,
                try PetDaemon.binary(),
                "--data-dir", world.sandbox.path("data"), "--now", "2026-03-02T08:20:00Z", "--time-scale", "1",
            ],
            environment: environment, label: "petprogressd-ns")
        let client = try world.client()
        #expect(
            await poll(timeout: .seconds(20)) { (try? client.daemonPID()) != nil },
            "the daemon owns its name: \(daemon.errors)")
        let before = try client.entry()
        try await PetDaemon.waitForZoneWatch(daemon)
        #expect(before.int("date") == unix("2026-03-02T08:00:00Z"), "UTC: the 08:00 snapshot")
        #expect(before.int("next_date") == unix("2026-03-02T09:00:00Z"))

        // What timedatectl does: replace the link (here with a rename over it, atomically).
        try FileManager.default.createSymbolicLink(
            atPath: etc + "/localtime.new", withDestinationPath: "/usr/share/zoneinfo/Asia/Kathmandu")
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
        #expect(daemon.errors.contains("time zone changed to Asia/Kathmandu"), "\(daemon.errors)")
    }
}
