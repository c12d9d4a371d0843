import PetStore
import Testing
import XDG

/// The XDG Base Directory rule every lookup shares (the data directory, here; the stage file and
/// the icons in the daemon and petctl): absolute values only, empty means unset, the spec's
/// defaults otherwise.
@Suite struct BaseDirectoriesTests {
    private static func data(_ environment: [String: String]) -> BaseDirectories {
        BaseDirectories(.data) { environment[$0] }
    }

    private static func config(_ environment: [String: String]) -> BaseDirectories {
        BaseDirectories(.config) { environment[$0] }
    }

    /// The user's data directory, and the data directory (petprogress(7) §5), `petprogress` inside it.
    @Test(arguments: [
        (["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"], "/x/data", "/x/data/petprogress"),
        (["XDG_DATA_HOME": "/x/data/", "HOME": "/home/u"], "/x/data", "/x/data/petprogress"),
        (["XDG_DATA_HOME": "/x/data//", "HOME": "/home/u"], "/x/data", "/x/data/petprogress"),
        (["XDG_DATA_HOME": "/", "HOME": "/home/u"], "/", "/petprogress"),
        (["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share", "/home/u/.local/share/petprogress"),
        (
            ["XDG_DATA_HOME": "relative", "HOME": "/home/u/"], "/home/u/.local/share",
            "/home/u/.local/share/petprogress"
        ),
        (["XDG_DATA_HOME": "./data", "HOME": "/"], "/.local/share", "/.local/share/petprogress"),
        (["HOME": "/home/u"], "/home/u/.local/share", "/home/u/.local/share/petprogress"),
        (["HOME": "/"], "/.local/share", "/.local/share/petprogress"),
    ])
    func theUsersDataDirectoryIsAnAbsoluteXDGDataHomeElseUnderHome(
        env: [String: String], home: String, dataDirectory: String
    ) {
        #expect(Self.data(env).home == home)
        #expect(defaultDataDirectory(environment: env) == dataDirectory)
    }

    @Test(arguments: [
        [String: String](),
        ["HOME": ""],
        ["HOME": "home/u"],
        ["XDG_DATA_HOME": "data", "HOME": "~/u"],
    ])
    func noUserDirectoryWithoutAnAbsolutePath(env: [String: String]) {
        #expect(Self.data(env).home == nil)
        #expect(defaultDataDirectory(environment: env) == nil)
        #expect(Self.data(env).searchPaths("icons") == ["/usr/local/share/icons", "/usr/share/icons"])
    }

    @Test(
        arguments: [
            (nil, ["/usr/local/share", "/usr/share"]),
            ("", ["/usr/local/share", "/usr/share"]),
            ("/opt/share/:relative:/usr/share", ["/opt/share", "/usr/share"]),
            ("::/srv/share::", ["/srv/share"]),
            // Set and non-empty, so the default does not apply, though nothing in it counts.
            ("relative:./also", []),
        ] as [(String?, [String])])
    func theSystemsDataDirectoriesAreXDGDataDirsElseTheDefault(dirs: String?, expected: [String]) {
        var env = ["HOME": "/home/u"]
        env["XDG_DATA_DIRS"] = dirs
        #expect(Self.data(env).system == expected)
    }

    @Test func configurationFollowsTheSameRuleWithItsOwnVariablesAndDefaults() {
        let defaults = Self.config(["HOME": "/home/u", "XDG_DATA_HOME": "/x/data", "XDG_DATA_DIRS": "/x/dirs"])
        #expect(defaults.home == "/home/u/.config")
        #expect(defaults.system == ["/etc/xdg"])
        let set = Self.config([
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/x/config/", "XDG_CONFIG_DIRS": "/x/a:b:/x/b",
        ])
        #expect(set.home == "/x/config")
        #expect(set.system == ["/x/a", "/x/b"])
        #expect(Self.config(["HOME": "/home/u", "XDG_CONFIG_HOME": "config"]).home == "/home/u/.config")
        #expect(Self.config(["HOME": "/home/u", "XDG_CONFIG_DIRS": ""]).system == ["/etc/xdg"])
    }

    /// Where petctl keeps what the Today screen last showed: the user's directory only.
    @Test func stateHasOnlyTheUsersDirectory() {
        let state = { (environment: [String: String]) in BaseDirectories(.state) { environment[$0] } }
        #expect(state(["HOME": "/home/u"]).home == "/home/u/.local/state")
        #expect(state(["HOME": "/home/u", "XDG_STATE_HOME": "/x/state/"]).home == "/x/state")
        #expect(state(["HOME": "/home/u", "XDG_STATE_DIRS": "/x/a"]).system == [])
        #expect(state([:]).home == nil)
    }

    @Test func pathsJoinWithOneSlashAndSearchTheUsersDirectoryFirst() {
        let dirs = Self.data(["XDG_DATA_HOME": "/x/data/", "XDG_DATA_DIRS": "/a/:/b"])
        #expect(dirs.inHome("petprogress") == "/x/data/petprogress")
        #expect(dirs.searchPaths("icons/hicolor") == ["/x/data/icons/hicolor", "/a/icons/hicolor", "/b/icons/hicolor"])
        #expect(Self.data(["XDG_DATA_HOME": "/"]).inHome("petprogress") == "/petprogress")
    }
}
