import Glibc
import LinuxKit
import PetCore
import XDG

/// The last closed day the Today screen has shown, kept in `$XDG_STATE_HOME/petprogress/today-seen`
/// (default `~/.local/state/petprogress/`): what lets it say once, and only once, that a closeout
/// since then changed the pet's form. Best effort: without a home, or when the file cannot be
/// read or written, the Today screen is shown as always and nothing is said.
enum SeenCloseout {
    /// What the file holds when the screen was shown before any day closed.
    static let beforeAnyCloseout = "none"

    /// The file, or nil without a home directory.
    static var path: String? {
        BaseDirectories(.state) { ProcessEnvironment.process[$0] }.inHome("petprogress/today-seen")
    }

    /// The day key last shown (or `beforeAnyCloseout`), or nil when the screen was never shown
    /// (or the file is unreadable).
    static func read() -> String? {
        // Our own small file: no link, no FIFO, no file of another user's, 64 bytes at most.
        guard let path, let bytes = try? SmallFile.read(path, limit: 64) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    /// Records `key` as shown, making the directories it needs (0700).
    static func write(_ key: String) {
        guard let path, let slash = path.lastIndex(of: "/") else { return }
        var directory = ""
        for part in path[..<slash].split(separator: "/") {
            directory += "/" + part
            if !FileSystem.exists(directory) { try? FileSystem.makeDirectory(directory) }
        }
        try? AtomicFile.write(Array((key + "\n").utf8), to: path, replace: true)
    }
}
