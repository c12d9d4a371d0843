import Foundation
import Glibc
import PetCore
import TestSupport
import Testing

@testable import PetStore

/// Disk errors surface as a typed error with a clear sentence, and leave nothing half-written:
/// the state file keeps its last durable bytes, no temp file remains, history keeps its length,
/// and the store works again once the disk does. Needs mount rights (ENOSPC, EROFS) or a second
/// user (EACCES, since root ignores permission bits); skipped with a printed reason otherwise.
@Suite(.serialized) struct DiskFailureTests {
    @Test(.enabled(if: Privilege.mounting.available)) func aFullDiskFailsCleanly() throws {
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let data = disk.data
        let (store, _) = try openLoaded(data)
        var world = Fixture.world(closedThrough: Fixture.day("2026-03-01"))
        try store.save(world)

        // Grow the state until it no longer fits: every failure must leave the last good file.
        var failures = 0
        var lastGood = bytes(data + "/state.json")
        for n in 0..<200 {
            var bigger = world
            try bigger.addTask(title: String(repeating: "x", count: 190) + "\(n)", time: "10:00", Fixture.ctx())
            do {
                try store.save(bigger)
                world = bigger
                lastGood = bytes(data + "/state.json")
            } catch {
                #expect(error.kind == .io(errno: ENOSPC), "\(error)")
                #expect(
                    error.message.contains("ENOSPC") && error.message.contains("free some disk space"),
                    "\(error.message)")
                #expect(!error.stateReplaced)
                #expect(bytes(data + "/state.json") == lastGood)
                #expect(!FileManager.default.fileExists(atPath: data + "/.state.json.tmp"))
                failures += 1
                break
            }
        }
        #expect(failures == 1, "the disk never filled")
        print("full disk: state grew to \(lastGood?.count ?? 0) bytes, then ENOSPC with the file intact")

        // Back to a small state (it fits beside the big one), then a closeout on a full disk:
        // the history append fails, and nothing is left behind.
        world = Fixture.world(closedThrough: Fixture.day("2026-03-01"), mutations: 500)
        try store.save(world)
        lastGood = bytes(data + "/state.json")
        let day = Fixture.day("2026-03-02")
        var closed = world
        closed.lastClosedDay = day
        let filler = try fill(disk.mount)
        #expect(throws: StoreError.self) { try store.closeDays([Fixture.record(day)], world: closed) }
        #expect(bytes(data + "/state.json") == lastGood)
        #expect(!FileManager.default.fileExists(atPath: data + "/history-2026.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: data + "/.state.json.tmp"))

        // Space again: the same closeout goes through, once.
        try FileManager.default.removeItem(atPath: filler)
        try store.closeDays([Fixture.record(day)], world: closed)
        store.close()
        let (again, loaded) = try openLoaded(data)
        #expect(loaded.start == .state(closed))
        #expect(try again.recentHistory(days: 9).map(\.day.key) == [day])
        again.close()
    }

    @Test(.enabled(if: Privilege.mounting.available)) func aCloseoutWhoseStateWriteFailsRecordsNothing() throws {
        // Room for the history append but not for the new state: the day must stay open, its
        // record must go (so it is not recorded twice when the closeout runs again).
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let data = disk.data
        let (store, _) = try openLoaded(data)
        let d1 = Fixture.day("2026-03-01")
        let d2 = Fixture.day("2026-03-02")
        let open = Fixture.world(closedThrough: d1, mutations: 1)
        try store.closeDays([Fixture.record(d1)], world: open)
        let stateBefore = bytes(data + "/state.json")
        let historyBefore = bytes(data + "/history-2026.jsonl")

        // Full to the last byte: the append still fits in the history file's partly used page
        // (tmpfs allocates whole pages), while the new state needs a page of its own.
        let filler = try fill(disk.mount)
        let record = Fixture.record(d2, tasks: 1)
        #expect(try (historyBefore?.count ?? 0) + HistoryLine.encode(record).count < 4096)
        var closed = open
        closed.lastClosedDay = d2
        closed.mutations = 2
        do {
            try store.closeDays([record], world: closed)
            Issue.record("the closeout fitted; the test needs the state write to fail")
        } catch {
            #expect(error.kind == .io(errno: ENOSPC), "\(error)")
        }
        #expect(bytes(data + "/state.json") == stateBefore)
        // The record reached history before the state write failed: an unacknowledged record.
        #expect((bytes(data + "/history-2026.jsonl")?.count ?? 0) > (historyBefore?.count ?? 0))

        // The daemon keeps the open world; its next save puts history back in line first.
        try FileManager.default.removeItem(atPath: filler)
        var edited = open
        edited.mutations = 2
        try store.save(edited)
        #expect(bytes(data + "/history-2026.jsonl") == historyBefore)
        closed.mutations = 3
        try store.closeDays([record], world: closed)
        store.close()
        let (again, loaded) = try openLoaded(data)
        #expect(loaded.start == .state(closed))
        #expect(try again.recentHistory(days: 9).map(\.day.key) == [d1, d2])
        again.close()
    }

    @Test(.enabled(if: Privilege.mounting.available)) func aReadOnlyFileSystemFailsCleanly() throws {
        // The file system itself goes read-only (not a read-only bind mount over the directory: the
        // store reaches its files through the directory it opened, which such a mount leaves writable).
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let dir = (store: disk.data, file: { (name: String) in disk.data + "/" + name })
        let (store, _) = try openLoaded(dir.store)
        let d1 = Fixture.day("2026-03-01")
        let d2 = Fixture.day("2026-03-02")
        try store.closeDays([Fixture.record(d1)], world: Fixture.world(closedThrough: d1, mutations: 1))
        let stateBefore = bytes(dir.file("state.json"))
        let historyBefore = bytes(dir.file("history-2026.jsonl"))

        try #require(Glibc.mount(nil, disk.mount, nil, UInt(MS_REMOUNT | MS_RDONLY), nil) == 0)
        do {
            try store.save(Fixture.world(closedThrough: d1, mutations: 2))
            Issue.record("a save on a read-only file system succeeded")
        } catch {
            #expect(error.kind == .io(errno: EROFS))
            #expect(error.message.contains("read-only"), "\(error.message)")
        }
        #expect(throws: StoreError.self) {
            try store.closeDays([Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 2))
        }
        #expect(bytes(dir.file("state.json")) == stateBefore)
        #expect(bytes(dir.file("history-2026.jsonl")) == historyBefore)

        // A daemon starting on the read-only directory loads it, and its saves fail the same way.
        store.close()
        let (readOnly, loaded) = try openLoaded(dir.store)
        #expect(loaded.start == .state(Fixture.world(closedThrough: d1, mutations: 1)))
        #expect(throws: StoreError.self) { try readOnly.save(Fixture.world(closedThrough: d1, mutations: 2)) }
        readOnly.close()
        let (reopened, _) = try openLoaded(dir.store)

        // Writable again: the store carries on, each day recorded once.
        try #require(Glibc.mount(nil, disk.mount, nil, UInt(MS_REMOUNT), nil) == 0)
        try reopened.closeDays([Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 3))
        #expect(try reopened.recentHistory(days: 9).map(\.day.key) == [d1, d2])
    }

    @Test(.enabled(if: Privilege.otherUser.available)) func anUnwritableDirectoryFailsCleanly() throws {
        // Root ignores permission bits, so as root the probe runs as nobody against root's files;
        // as anyone else it runs as that user against its own files with the write bits removed.
        let child = try productBinary("petstore-crashchild", override: "PETSTORE_CRASHCHILD")
        let root = getuid() == 0
        let dir = TempDir()
        chmod(dir.path, 0o755)
        do {
            let (store, _) = try openLoaded(dir.store)
            try store.save(Fixture.world(closedThrough: nil))
            store.close()
        }
        defer { chmod(dir.store, 0o700) }
        // Readable but not writable: the probe can lock and load, and its save must fail cleanly.
        // As root the directory and its files become nobody's: the store uses only the user's own.
        chmod(dir.store, 0o555)
        if root {
            let nobody = try #require(getpwnam("nobody")).pointee
            for name in names(dir.store) + [""] { chown(dir.file(name), nobody.pw_uid, nobody.pw_gid) }
        }
        let before = bytes(dir.file("state.json"))
        let saved = try Privilege.runProbe(child, ["probe-save", dir.store], asNobody: root)
        #expect(saved.hasPrefix("error save \(EACCES) "), "\(saved)")
        #expect(saved.contains("Permission denied (EACCES)") && saved.contains(dir.store), "\(saved)")
        #expect(bytes(dir.file("state.json")) == before)
        #expect(names(dir.store) == [".lock", "state.json"])

        // A directory it cannot enter at all: a clear error at open, and nothing created.
        chmod(dir.store, 0o000)
        let opened = try Privilege.runProbe(child, ["probe-save", dir.store], asNobody: root)
        #expect(opened.hasPrefix("error open \(EACCES) "), "\(opened)")
        chmod(dir.store, 0o700)
        #expect(names(dir.store) == [".lock", "state.json"])
    }

    /// Fills a file system to the last byte; returns the filler's path.
    func fill(_ mnt: String) throws -> String {
        let path = mnt + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)  // no child may keep it open
        try #require(fd >= 0)
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 1024)
        // Until the file system itself says it is full: blocks freed after a first pass (a file
        // another process still held, released when it exits) would let the next write through.
        var info = statvfs()
        for _ in 0..<100 {
            while block.withUnsafeBytes({ write(fd, $0.baseAddress, 1024) }) > 0 {}
            while block.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
            guard statvfs(mnt, &info) == 0, info.f_bfree > 0 else { break }
        }
        #expect(info.f_bfree == 0, "\(info.f_bfree) blocks still free on \(mnt)")
        return path
    }
}

/// What this machine lets the tests do; each check prints why when it says no.
enum Privilege {
    case mounting, otherUser

    var available: Bool {
        switch self {
        case .mounting: return Self.mountReason == nil
        case .otherUser: return Self.otherUserReason == nil
        }
    }

    static let mountReason: String? = {
        let dir = TempDir()
        let probe = dir.path + "/probe"
        mkdir(probe, 0o700)
        guard Glibc.mount("tmpfs", probe, "tmpfs", 0, "size=64k") == 0 else {
            let why =
                "SKIP disk-full and read-only tests: cannot mount a tmpfs here (\(String(cString: strerror(errno)))); they need root with mount rights"
            print(why)
            return why
        }
        umount2(probe, Int32(MNT_DETACH))
        return nil
    }()

    static let otherUserReason: String? = {
        guard getuid() == 0 else { return nil }  // permission bits apply to us: no other user needed
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), getpwnam("nobody") != nil else {
            let why =
                "SKIP unwritable-directory test: running as root, which ignores permission bits, and setpriv or the user nobody is missing"
            print(why)
            return why
        }
        return nil
    }()

    /// Runs a command, as nobody:nogroup if asked; returns its first line of output.
    static func runProbe(_ path: String, _ arguments: [String], asNobody: Bool) throws -> String {
        let result =
            asNobody
            ? try runTool(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", path] + arguments)
            : try runTool(path, arguments)
        return result.output.split(separator: "\n").first.map(String.init) ?? ""
    }
}

/// A 64 KiB tmpfs in a fresh temporary directory, for the full-disk tests; `data` is a store
/// directory on it. The test unmounts it when done.
struct SmallDisk {
    let dir = TempDir()
    var mount: String { dir.path + "/tmpfs" }
    var data: String { mount + "/data" }

    init() throws {
        mkdir(mount, 0o700)
        guard Glibc.mount("tmpfs", mount, "tmpfs", 0, "size=64k,mode=0700") == 0 else { throw POSIXError(.EPERM) }
    }

    func unmount() { _ = umount2(mount, Int32(MNT_DETACH)) }
}
