import DBusKit
import Foundation
import PetCore
import TestSupport
import Testing

/// One writer and clean shutdown (petprogress(7) §5); the lost bus is `Reliability.BusLossTests`.
@Suite("Lifecycle")
struct LifecycleTests {
    static let morning = "2026-03-02T08:30:00+01:00"

    @Test("a second daemon on the same data directory exits 1 with one clear line; the first keeps running")
    func secondDaemonSameDataDirectory() async throws {
        let world = try await World("twodir")
        defer { world.close() }
        let first = try await world.daemon(now: Self.morning)
        let client = try world.client()
        _ = try client.addTask("Walk", "09:00")
        let before = try Data(contentsOf: URL(fileURLWithPath: first.dataDirectory + "/state.json"))
        // Another bus, so only the data-directory lock can stop it.
        let otherBus = try await PrivateBus(in: world.sandbox)
        let second = try await offPool { [world] in
            try PetDaemon(
                sandbox: world.sandbox, bus: otherBus, dataDirectory: first.dataDirectory, now: Self.morning,
                waitForName: false)
        }
        let code = await second.process.waitExit(timeout: .seconds(15))
        #expect(code == 1, "\(second.process.errors)")
        let lines = second.process.errors.split(separator: "\n")
        #expect(lines.count == 1, "one clear line: \(second.process.errors)")
        #expect(lines.last?.contains(first.dataDirectory) == true)
        #expect(lines.last?.contains("another petprogressd") == true)
        #expect(first.process.isRunning)
        #expect(try client.status().int("mutations") == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.dataDirectory + "/state.json")) == before)
    }

    @Test("a second daemon on the same bus exits 1 with a clear line; the first keeps its name")
    func secondDaemonSameBus() async throws {
        let world = try await World("twobus")
        defer { world.close() }
        let first = try await world.daemon(now: Self.morning)
        let client = try world.client()
        let ownerPID = try client.daemonPID()
        #expect(ownerPID == first.process.pid)
        let second = try await world.daemon(
            dataDirectory: world.sandbox.path("data2"), now: Self.morning, waitForName: false)
        let code = await second.process.waitExit(timeout: .seconds(15))
        #expect(code == 1, "\(second.process.errors)")
        let lines = second.process.errors.split(separator: "\n")
        #expect(lines.last?.contains("already owned") == true, "\(second.process.errors)")
        #expect(lines.filter { $0.contains("owned") || $0.contains("running") }.count == 1)
        #expect(try client.daemonPID() == first.process.pid)
        #expect(try client.status().string("data_dir") == first.dataDirectory)
        // It lost the name before its start-up catch-up, so it saved nothing in its own directory.
        #expect(!FileManager.default.fileExists(atPath: world.sandbox.path("data2") + "/state.json"))
        // Nor anything else: a refused second daemon creates nothing, not even its directory.
        #expect(!FileManager.default.fileExists(atPath: world.sandbox.path("data2")))
    }

    @Test("SIGTERM exits 0 and the disk holds every acknowledged change")
    func sigtermKeepsEverything() async throws {
        let world = try await World("sigterm")
        defer { world.close() }
        let daemon = try await world.daemon(now: Self.morning)
        let client = try world.client()
        let walk = try client.addTask("Walk", "09:00")
        let read = try client.addTask("Read", "21:00")
        _ = try client.addTaskFor("Plan", "10:00", day: "tomorrow")
        let template = try client.addTaskFor("Stretch", "07:00", day: "", repeat: "mon,wed")
        #expect(try client.markDone(walk) == 2)
        try client.call("Snooze", [.string(read)])
        try client.setProperty("GraceMinutes", .uint32(45))
        try client.setProperty("Rollover", .bool(true))
        try client.setProperty("ResetTime", .string("03:00"))
        try client.setProperty("SnoozeMinutes", .uint32(5))
        let tasks = try client.tasks()
        let tomorrow = try client.tasks("tomorrow")
        let mutations = try client.status().int("mutations")
        let pet = try client.pet()
        // SIGTERM right after the last reply: everything acknowledged must already be durable.
        #expect(await daemon.stop() == 0, "\(daemon.process.errors)")
        let stateText = try String(contentsOfFile: daemon.dataDirectory + "/state.json", encoding: .utf8)
        for title in ["Walk", "Read", "Plan", "Stretch"] { #expect(stateText.contains(title)) }

        _ = try await world.daemon(now: "2026-03-02T08:40:00+01:00")
        let again = try world.client()
        #expect(try again.tasks() == tasks)
        #expect(try again.tasks("tomorrow") == tomorrow)
        #expect(try again.status().int("mutations") == mutations)
        #expect(try again.pet() == pet)
        #expect(try again.property("GraceMinutes") == .uint32(45))
        #expect(try again.property("SnoozeMinutes") == .uint32(5))
        #expect(try again.property("Rollover") == .bool(true))
        #expect(try again.property("ResetTime") == .string("03:00"))
        let templates = try again.call("ListTemplates").first?.vardictArrayValue ?? []
        #expect(templates.map { $0.string("id") } == [template])
    }

    @Test("the data directory is 0700 and every file in it 0600")
    func permissions() async throws {
        let world = try await World("perms")
        defer { world.close() }
        // Started and given a task off the pool: at 60× midnight is two real seconds away.
        let daemon = try await offPool { [world] in
            let daemon = try PetDaemon(
                sandbox: world.sandbox, bus: world.bus, dataDirectory: world.sandbox.path("deep/er/data"),
                now: "2026-03-02T23:58:00+01:00", timeScale: 60)
            _ = try world.client().addTask("Late", "23:59")
            return daemon
        }
        let client = try world.client()
        // Let the day close (60x: two simulated minutes), so history is written too.
        let closed = await poll { (try? client.status().string("last_closed_day")) == "2026-03-02" }
        #expect(closed)
        #expect(await daemon.stop() == 0)
        let manager = FileManager.default
        let dirMode = try manager.attributesOfItem(atPath: daemon.dataDirectory)[.posixPermissions] as? Int
        #expect(dirMode == 0o700)
        var files: [String] = []
        let walker = manager.enumerator(atPath: daemon.dataDirectory)
        while let name = walker?.nextObject() as? String { files.append(name) }
        #expect(files.contains("state.json"))
        #expect(files.count >= 2, "history was written: \(files)")
        for name in files {
            let path = daemon.dataDirectory + "/" + name
            let attributes = try manager.attributesOfItem(atPath: path)
            let mode = attributes[.posixPermissions] as? Int
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                #expect(mode == 0o700, "\(name)")
            } else {
                #expect(mode == 0o600, "\(name) is \(String(mode ?? 0, radix: 8))")
            }
        }
    }

    @Test(
        "stderr a pipe nobody reads (a closed terminal, a dead log reader): the daemon still starts, serves and stops cleanly"
    )
    func brokenStderr() async throws {
        let world = try await World("sigpipe")
        defer { world.close() }
        var ends: [Int32] = [0, 0]
        let made = Spawned.spawnLock.withLock { () -> Bool in
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        try #require(made)
        Glibc.close(ends[0])  // no reader: every write to stderr is EPIPE (and SIGPIPE unless ignored)
        defer { Glibc.close(ends[1]) }
        let process = try world.sandbox.spawn(
            try PetDaemon.binary(), ["--data-dir", world.sandbox.path("data"), "--now", Self.morning],
            environment: PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: "Europe/Berlin"),
            label: "petprogressd", stderr: ends[1])
        let client = try world.client()
        let owned = await poll { (try? client.daemonPID()) == process.pid || !process.isRunning } && process.isRunning
        #expect(owned, "exited with \(process.reap(blocking: false).map(String.init) ?? "nothing") (141 = SIGPIPE)")
        if owned {
            #expect(try client.markDone(try client.addTask("Quietly", "09:00")) == 2)
        }
        process.send(SIGTERM)
        #expect(await process.waitExit() == 0)
    }

    @Test("started with stdin, stdout and stderr closed: log lines never land in the bus socket or a data file")
    func closedStandardDescriptors() async throws {
        let world = try await World("nofds")
        defer { world.close() }
        let data = world.sandbox.path("data")
        let process = try world.sandbox.spawn(
            try PetDaemon.binary(), ["--data-dir", data, "--now", Self.morning],
            environment: PetDaemon.environment(sandbox: world.sandbox, bus: world.bus, zone: "Europe/Berlin"),
            label: "petprogressd", closeStandardFDs: true)
        let client = try world.client()
        let owned = await poll { (try? client.daemonPID()) == process.pid || !process.isRunning } && process.isRunning
        #expect(owned, "exited with \(process.reap(blocking: false).map(String.init) ?? "nothing")")
        if owned {
            let id = try client.addTask("No descriptors", "09:00")
            #expect(try client.markDone(id) == 2)
            #expect(try client.status().int("mutations") == 2)
        }
        process.send(SIGTERM)
        #expect(await process.waitExit() == 0)
        let state = try Data(contentsOf: URL(fileURLWithPath: data + "/state.json"))
        #expect((try? JSONSerialization.jsonObject(with: state)) != nil, "state.json is clean JSON")
        #expect(!String(decoding: state, as: UTF8.self).contains("petprogressd:"))
        let lock = (try? String(contentsOfFile: data + "/.lock", encoding: .utf8)) ?? ""
        #expect(!lock.contains("petprogressd:"), "no log line in the lock file: \(lock)")
    }
}
