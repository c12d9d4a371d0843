import LinuxKit
import XDG

/// `--expect-data-dir`: the systemd unit's sandbox can let the daemon write only a directory named
/// in the unit, while the daemon resolves its own (`$XDG_DATA_HOME/petprogress`, as for every other
/// way it starts). When the two differ the daemon must not start at all: it would fail on its
/// first write, or keep a second data set that the other start paths never see.
enum ExpectedDataDirectory {
    /// `EX_CONFIG`: the unit has `RestartPreventExitStatus=78`, so systemd does not retry.
    static let exitStatus: Int32 = 78

    /// The line to log when `directory` is not `expected`; nil when they are the same directory.
    static func mismatch(
        _ directory: String, expected: String, options: DaemonOptions, environment: [String: String]
    ) -> String? {
        guard !same(directory, expected) else { return nil }
        // The fix comes last, its lines apart from any punctuation, so that they copy cleanly.
        return "the data directory is \(directory) (\(source(options, environment))), but the systemd unit lets "
            + "the daemon write only \(expected); not starting, so that the data is never split in two. To keep "
            + "the data directory, run systemctl --user edit petprogress, add these three lines and restart: "
            + "[Service] / Environment=PETPROGRESS_UNIT_DATA_DIR=\(directory) / ReadWritePaths=\(directory)"
    }

    /// Where the data directory came from, in the words of the user's configuration.
    static func source(_ options: DaemonOptions, _ environment: [String: String]) -> String {
        if options.dataDirectory != nil { return "from --data-dir" }
        if let xdg = BaseDirectories.absolute(environment["XDG_DATA_HOME"]) { return "from XDG_DATA_HOME=\(xdg)" }
        return "from HOME, as XDG_DATA_HOME is unset"
    }

    /// The same path up to trailing slashes, or the same existing directory (a symlink, a bind mount).
    static func same(_ a: String, _ b: String) -> Bool {
        if trimmed(a) == trimmed(b) { return true }
        guard let sa = try? FileSystem.status(a), let sb = try? FileSystem.status(b) else { return false }
        return sa.device == sb.device && sa.inode == sb.inode
    }

    private static func trimmed(_ path: String) -> Substring {
        var p = Substring(path)
        while p.count > 1 && p.hasSuffix("/") { p = p.dropLast() }
        return p
    }
}
