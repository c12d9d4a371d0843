/// What lives in the synced folder, and how a device reads it (docs/SYNC.md §1). Pure: the
/// daemon lists the folder and reads the files; this decides what they mean.
///
/// - `ops-<device>.log`: the operations one device made, one line each, appended by that device
///   alone. No file is ever written by two devices.
/// - `ops-<device>.sync-conflict-<…>.log` (Syncthing), `ops-<device> (conflicted copy …).log`
///   (Nextcloud) and any other name that starts with `ops-` and ends with `.log`: copies a sync
///   tool made when one device's file changed in two places (a device restored from a backup, a
///   copied home directory). Read exactly like the logs, so no operation in them is lost.
/// - Everything else — `.syncthing.*.tmp`, `~syncthing~*.tmp`, `.~lock*`, `*.part` — is another
///   tool's file in transit and is never read.
public enum SyncFolder {
    /// The name of `device`'s own log.
    public static func logName(device: String) -> String { "ops-\(device).log" }

    /// Whether a file of that name holds operations: a log or a sync tool's conflict copy of one.
    public static func holdsOperations(_ name: String) -> Bool {
        name.hasPrefix("ops-") && name.hasSuffix(".log") && !name.hasPrefix(".") && !name.contains("/")
    }

    /// The device whose own log `name` is, or nil for any other file (a conflict copy among them).
    public static func device(ofLog name: String) -> String? {
        guard name.hasPrefix("ops-"), name.hasSuffix(".log") else { return nil }
        let id = name.dropFirst(4).dropLast(4)
        return OperationLine.isDeviceID(id) ? String(id) : nil
    }

    /// Whether `name` is a sync tool's conflict copy of a log: read like a log, its operations
    /// then appended to the reader's own log where no log holds them, and the copy deleted.
    public static func isConflictCopy(_ name: String) -> Bool { holdsOperations(name) && device(ofLog: name) == nil }

    /// What a device reads from one file's bytes: every complete line that is an operation.
    /// A last line without its newline (a file still being copied, a torn append) and lines that
    /// are not operations (damage) are skipped and counted; reading never stops at one.
    public static func read(_ bytes: [UInt8]) -> (operations: [Operation], skipped: Int) {
        var ops: [Operation] = []
        var skipped = 0
        var start = 0
        for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
            defer { start = i + 1 }
            guard i > start else { continue }
            // Not UTF-8 is damage: decoding it leniently would make a different operation.
            if let line = String(validating: bytes[start..<i], as: UTF8.self), let op = OperationLine.parse(line[...]) {
                ops.append(op)
            } else {
                skipped += 1
            }
        }
        if start < bytes.count { skipped += 1 }
        return (ops, skipped)
    }
}
