import DBusKit
import Foundation
import TestSupport
import Testing

/// The daemon keeps the encoded `GetWidgetEntry`, `WidgetEntry` property and `GetPet`
/// replies until something changes them. After each kind of change, the kept replies must equal
/// freshly computed ones — `Properties.GetAll` encodes the entry afresh on every call, and the
/// timeline's entries carry the live pet that `GetPet` describes — and asking again must be
/// answered from the kept bodies (`GetStatus`' `reply_cache_hits`), so a cache that never hits,
/// or one that is never dropped, fails.
@Suite("Reply cache")
struct ReplyCacheTests {
    static let interface = PetDaemon.interface

    /// Checks the replies after `event`; returns the entry.
    @discardableResult
    static func check(_ world: World, _ client: RawClient, after event: String) async throws -> [String: DBusValue] {
        // The replies, kept or rebuilt, each beside a freshly computed one.
        let entry = try #require(try client.call("GetWidgetEntry").first)
        let property = try client.property("WidgetEntry")
        let pet = try #require(try client.call("GetPet").first)
        let all = try #require(
            try client.call("GetAll", [.string(interface)], interface: "org.freedesktop.DBus.Properties").first?
                .vardictValue?["WidgetEntry"])
        let timeline = try #require(try client.call("GetTimeline").first)
        guard case .array(_, let entries) = timeline, let live = entries.first?.vardictValue else {
            throw HarnessError("GetTimeline: \(timeline)")
        }
        #expect(entry == all, "after \(event): GetWidgetEntry equals the entry encoded afresh")
        #expect(property == all, "after \(event): Properties.Get(WidgetEntry) equals the entry encoded afresh")
        #expect(pet.vardictValue == live.petPart, "after \(event): GetPet equals the live pet of the timeline")

        // Asked again: the same bytes, each from the kept body.
        let hits = try hitCount(client)
        #expect(try client.call("GetWidgetEntry").first == entry, "after \(event): the kept entry")
        #expect(try client.property("WidgetEntry") == property, "after \(event): the kept property")
        #expect(try client.call("GetPet").first == pet, "after \(event): the kept pet")
        #expect(try hitCount(client) == hits + 3, "after \(event): the three repeated calls hit the cache")

        // What busctl reads from the kept body equals what it reads from GetAll's fresh one.
        let kept = try await busctlJSON(world, ["call", PetDaemon.name, PetDaemon.path, interface, "GetWidgetEntry"])
        let fresh = try await busctlJSON(
            world,
            ["call", PetDaemon.name, PetDaemon.path, "org.freedesktop.DBus.Properties", "GetAll", "s", interface])
        let keptEntry = ((kept["data"] as? [Any])?.first as? [String: Any])
        let freshEntry = (((fresh["data"] as? [Any])?.first as? [String: Any])?["WidgetEntry"] as? [String: Any])?[
            "data"]
        #expect(keptEntry != nil && canonical(keptEntry) == canonical(freshEntry), "after \(event): busctl's view")
        return try #require(entry.vardictValue)
    }

    static func hitCount(_ client: RawClient) throws -> UInt64 {
        try #require(try client.status()["reply_cache_hits"]?.uint64Value, "GetStatus reports reply_cache_hits")
    }

    static func busctlJSON(_ world: World, _ arguments: [String]) async throws -> [String: Any] {
        let result = try await world.busctl(["--json=short"] + arguments)
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        else { throw HarnessError("busctl \(arguments): \(result)") }
        return object
    }

    /// JSON with sorted keys, to compare two decoded objects.
    static func canonical(_ value: Any?) -> Data? {
        guard let value else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    }

    /// Polls until the daemon's clock has reached `instant` (simulated).
    static func waitForClock(_ client: RawClient, _ target: Int64) async throws {
        let reached = await poll(timeout: .seconds(40)) { (try client.status().int("now") ?? 0) >= target }
        #expect(reached, "the daemon's clock reaches \(target)")
    }

    /// Restarts the daemon on the same store at `now`, fills the cache (the entry and the pet,
    /// each asked twice) well before `event`, and waits until the clock is 3 s past it.
    static func keepAcross(
        _ world: World, _ client: RawClient, _ daemon: inout PetDaemon, now: String, event: String
    ) async throws {
        await daemon.stop()
        daemon = try await world.daemon(dataDirectory: daemon.dataDirectory, now: now, timeScale: 1)
        let hits = try hitCount(client)
        for _ in 0..<2 {
            _ = try client.call("GetWidgetEntry")
            _ = try client.property("WidgetEntry")
            _ = try client.call("GetPet")
        }
        #expect(try hitCount(client) >= hits + 3, "kept before \(event)")
        #expect(try client.status().int("now").map { $0 < unix(event) } == true, "kept before \(event), not after")
        try await waitForClock(client, unix(event) + 3)
    }

    @Test(
        "after start-up, a mutation, a settings change, a rest-day change, a tick, the next due and overdue flips and a closeout, the kept replies equal fresh ones, and repeats hit the cache"
    )
    func everyChange() async throws {
        let world = try await World("replycache")
        defer { world.close() }
        // The real pace (time scale 1): the changes a client makes half an hour from any tick, and
        // each change of time reached by a restart 10-15 s before it, once the cache is filled.
        var daemon = try await world.daemon(now: "2026-03-02T08:30:00+01:00", timeScale: 1)
        let client = try world.client()
        let start = try await Self.check(world, client, after: "start-up")
        #expect(start.int("tasks_total") == 0)

        _ = try client.addTask("Tea", "09:10")
        let added = try await Self.check(world, client, after: "a mutation (AddTask)")
        #expect(added.int("tasks_total") == 1 && added.bool("next_task_overdue") == false)

        try client.setProperty("GraceMinutes", .uint32(45))
        try await Self.check(world, client, after: "a settings change (GraceMinutes)")

        try client.setRest("2026-03-02", "2026-03-02", true)
        let rest = try await Self.check(world, client, after: "a rest-day change (SetRest)")
        #expect(rest.bool("rest_day") == true)

        try await Self.keepAcross(
            world, client, &daemon, now: "2026-03-02T08:59:45+01:00", event: "2026-03-02T09:00:00+01:00")
        let ticked = try await Self.check(world, client, after: "the 09:00 tick")
        #expect(ticked.int("date") == unix("2026-03-02T09:00:00+01:00"))
        #expect(ticked.bool("next_task_overdue") == false)

        // Due from 09:10:00; overdue once past 09:10 plus the 45 minutes' grace.
        try await Self.keepAcross(
            world, client, &daemon, now: "2026-03-02T09:09:50+01:00", event: "2026-03-02T09:10:00+01:00")
        let due = try await Self.check(world, client, after: "the next due flip")
        #expect(due.bool("next_task_due") == true, "the kept entry was dropped at 09:10:00")
        #expect(due.bool("next_task_overdue") == false)
        try await Self.keepAcross(
            world, client, &daemon, now: "2026-03-02T09:54:50+01:00", event: "2026-03-02T09:55:01+01:00")
        let overdue = try await Self.check(world, client, after: "the next overdue flip")
        #expect(overdue.bool("next_task_overdue") == true, "the kept entry was dropped at 09:55:01")

        try await Self.keepAcross(
            world, client, &daemon, now: "2026-03-02T23:59:50+01:00", event: "2026-03-03T00:00:00+01:00")
        let closed = try await Self.check(world, client, after: "the closeout at midnight")
        #expect(closed.string("day_key") == "2026-03-03")
        #expect(try client.status().string("last_closed_day") == "2026-03-02")
    }
    @Test(
        "after a zone change (/etc/localtime relinked in a private mount namespace), the kept replies equal fresh ones",
        .enabled(
            if: ZoneChangeTests.namespaceUnavailable == nil, skipped(ZoneChangeTests.namespaceUnavailable)))
    func zoneChange() async throws {
        let world = try await World("replyzone")
        defer { world.close() }
        let etc = world.sandbox.path("etc")
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: etc + "/localtime", withDestinationPath: "/usr/share/zoneinfo/Etc/UTC")
        let daemon = try world.daemonWithPrivateEtc(etc, now: "2026-03-02T08:20:00Z")
        let client = try world.client()
        #expect(
            await poll(timeout: .seconds(20)) { (try? client.daemonPID()) != nil },
            "the daemon owns its name: \(daemon.errors)")
        let before = try await Self.check(world, client, after: "start-up in UTC")
        try await PetDaemon.waitForZoneWatch(daemon)
        #expect(before.int("date") == unix("2026-03-02T08:00:00Z"))

        try FileManager.default.createSymbolicLink(
            atPath: etc + "/localtime.new", withDestinationPath: "/usr/share/zoneinfo/Asia/Kathmandu")
        #expect(rename(etc + "/localtime.new", etc + "/localtime") == 0)
        #expect(
            await poll(timeout: .seconds(20)) { daemon.errors.contains("time zone changed to Asia/Kathmandu") },
            "the daemon saw the change: \(daemon.errors)")
        let after = try await Self.check(world, client, after: "the zone change")
        #expect(after.int("date") == unix("2026-03-02T08:15:00Z"), "14:00 in Kathmandu")
    }
}
