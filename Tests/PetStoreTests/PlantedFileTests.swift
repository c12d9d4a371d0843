import Foundation
import Glibc
import PetCore
import TestSupport
import Testing

@testable import PetStore

/// The data directory is the user's alone and nothing in it is followed (petprogress(7) §5). Each
/// attack is planted by another user (as root, `nobody` through setpriv; as anyone else, the tests
/// plant as themselves: a link is refused whoever made it) in a directory left writable to others,
/// against a victim file outside it; the victim must come out unchanged.
@Suite(.serialized) struct PlantedFileTests {
    static let victimText = "echo the user's own start-up file\n"

    /// A store directory writable by everyone, and a victim file of ours beside it.
    struct Scene {
        let dir = TempDir()
        var victim: String { dir.path + "/victim.sh" }

        init() {
            chmod(dir.path, 0o755)  // nobody must reach the store directory
            mkdir(dir.store, 0o700)
            write(PlantedFileTests.victimText, to: victim)
        }

        /// Opens everything to others, as a careless `chmod` would while the daemon runs.
        func loosen() { chmod(dir.store, 0o777) }

        /// Runs a shell command as another user (as root) or as ourselves.
        func plant(_ command: String) throws {
            let result =
                getuid() == 0
                ? try runTool(
                    "/usr/bin/setpriv",
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/bin/sh", "-c", command])
                : try runTool("/bin/sh", ["-c", command])
            try #require(result.status == 0, "\(result)")
        }

        var victimIntact: Bool { bytes(victim) == Array(PlantedFileTests.victimText.utf8) }
    }

    @Test(.enabled(if: getuid() == 0, "a directory of another user needs root to make (CI runs as root)"))
    func aDirectoryOfAnotherUserIsRefusedAndNothingIsCreated() throws {
        let scene = Scene()
        let nobody = try #require(getpwnam("nobody")).pointee
        chown(scene.dir.store, nobody.pw_uid, nobody.pw_gid)
        do {
            _ = try PetStore.open(directory: scene.dir.store)
            Issue.record("another user's directory was opened")
        } catch {
            #expect(error.kind == .unsafe)
            #expect(error.message.contains("belongs to user \(nobody.pw_uid), not to you"), "\(error.message)")
        }
        #expect(names(scene.dir.store).isEmpty)
    }

    @Test func aDirectoryOthersMayUseIsRepairedTo0700() throws {
        let scene = Scene()
        chmod(scene.dir.store, 0o775)
        var notices: [String] = []
        let store = try PetStore.open(directory: scene.dir.store) { notices.append($0) }
        store.close()
        #expect(mode(scene.dir.store) == 0o700)
        #expect(notices.count == 1 && notices[0].contains("(mode 0775); its mode is now 0700"), "\(notices)")
        let again = try PetStore.open(directory: scene.dir.store) { notices.append($0) }
        again.close()
        #expect(notices.count == 1)
    }

    /// The lock's pid was written through a link named `.lock`, over the victim.
    @Test func theLockFollowsNoLink() throws {
        let scene = Scene()
        scene.loosen()
        try scene.plant("ln -s \(scene.victim) \(scene.dir.file(".lock"))")
        do {
            _ = try PetStore.open(directory: scene.dir.store)
            Issue.record("the store opened through a planted .lock")
        } catch {
            #expect(error.kind == .unsafe)
            #expect(error.message.contains(".lock is a symbolic link"), "\(error.message)")
        }
        #expect(scene.victimIntact)
    }

    /// A closeout appended its history line through a link named like next year's history file.
    @Test func historyIsAppendedThroughNoLink() throws {
        let scene = Scene()
        let (store, _) = try openLoaded(scene.dir.store)
        defer { store.close() }
        let d1 = Fixture.day("2026-12-31")
        try store.closeDays([Fixture.record(d1)], world: Fixture.world(closedThrough: d1))
        scene.loosen()
        try scene.plant("ln -s \(scene.victim) \(scene.dir.file("history-2027.jsonl"))")
        let d2 = Fixture.day("2027-01-01")
        do {
            try store.closeDays([Fixture.record(d2)], world: Fixture.world(closedThrough: d2, mutations: 2))
            Issue.record("the closeout was written through a planted history file")
        } catch {
            #expect(error.kind == .unsafe)
            #expect(error.message.contains("history-2027.jsonl is a symbolic link"), "\(error.message)")
        }
        #expect(scene.victimIntact)
    }

    /// A save truncated and filled the victim through a link named `.state.json.tmp`, then renamed
    /// the link over `state.json`.
    @Test func theStateIsSavedThroughNoLink() throws {
        let scene = Scene()
        let (store, _) = try openLoaded(scene.dir.store)
        defer { store.close() }
        scene.loosen()
        try scene.plant("ln -s \(scene.victim) \(scene.dir.file(".state.json.tmp"))")
        let world = Fixture.world(closedThrough: nil, mutations: 5)
        try store.save(world)
        #expect(scene.victimIntact)
        var info = stat()
        #expect(lstat(scene.dir.file("state.json"), &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(!names(scene.dir.store).contains(".state.json.tmp"))
        store.close()
        let (_, loaded) = try openLoaded(scene.dir.store)
        #expect(loaded.start == .state(world))
    }

    /// Another user's regular file where a data file goes is not ours to read or write.
    @Test(.enabled(if: getuid() == 0, "a file of another user needs root to plant here (CI runs as root)"))
    func anotherUsersFileIsRefused() throws {
        let scene = Scene()
        scene.loosen()
        try scene.plant("printf '{}' > \(scene.dir.file("state.json"))")
        do {
            _ = try openLoaded(scene.dir.store)
            Issue.record("another user's state file was loaded")
        } catch let error as StoreError {
            #expect(error.kind == .unsafe)
            #expect(error.message.contains("state.json is a regular file of user"), "\(error.message)")
        }
    }

    /// A FIFO as `.lock` or `state.json` made the open wait for a writer for ever: now it is refused
    /// at once. (A helper opens the FIFO's other end after 10 s, so a regression fails, not hangs.)
    @Test(arguments: [".lock", "state.json", "history-2026.jsonl", "recovery.json"])
    func aFIFOIsRefusedWithoutWaiting(name: String) throws {
        let scene = Scene()
        try #require(mkfifo(scene.dir.file(name), 0o600) == 0)
        let fifo = scene.dir.file(name)
        let rescue = Thread {
            Thread.sleep(forTimeInterval: 10)
            let fd = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            Thread.sleep(forTimeInterval: 1)
            if fd >= 0 { close(fd) }
        }
        rescue.start()
        let started = ContinuousClock.now
        do {
            let (store, loaded) = try openLoaded(scene.dir.store)
            defer { store.close() }
            // recovery.json only holds a notice: one that cannot be read is no recovery.
            #expect(name == "recovery.json" && loaded.recovery == nil, "\(name) was used")
        } catch let error as StoreError {
            #expect(error.kind == .unsafe)
            #expect(error.message.contains("\(name) is a FIFO"), "\(error.message)")
        }
        #expect(ContinuousClock.now - started < .seconds(10), "the open waited on the FIFO")
    }
}
