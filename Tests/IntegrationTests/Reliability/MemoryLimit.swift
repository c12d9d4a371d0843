import Foundation

/// One process held to a memory limit in a cgroup of its own, as the unit's `MemoryMax=` holds the
/// daemon: page cache included, so the kernel reclaims clean file pages (a mapped document) before it
/// would kill. cgroup v1's `memory.limit_in_bytes` where the machine mounts it, else v2's `memory.max`.
/// Root only: `nil` where no memory controller can be written.
struct MemoryLimit {
    let directory: String
    let v1: Bool

    init?(name: String, bytes: Int, pid: Int32) {
        let v1Root = "/sys/fs/cgroup/memory"
        v1 = FileManager.default.fileExists(atPath: "\(v1Root)/memory.limit_in_bytes")
        directory = v1 ? "\(v1Root)/\(name)" : "/sys/fs/cgroup/\(name)"
        guard
            (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)) != nil
        else { return nil }
        guard Self.write("\(bytes)", to: "\(directory)/\(v1 ? "memory.limit_in_bytes" : "memory.max")"),
            Self.write("\(pid)", to: "\(directory)/cgroup.procs")
        else {
            rmdir(directory)
            return nil
        }
    }

    /// The most the group has held, page cache included (v1 only; v2 keeps no such figure before 6.x).
    var maxUsage: Int? { Self.read("\(directory)/memory.max_usage_in_bytes").flatMap { Int($0) } }

    /// Processes the kernel's out-of-memory killer took in this group.
    var oomKills: Int {
        let text = Self.read("\(directory)/\(v1 ? "memory.oom_control" : "memory.events")") ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("oom_kill ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Removes the group once its process has exited.
    func close() { rmdir(directory) }

    private static func write(_ text: String, to path: String) -> Bool {
        (try? text.write(toFile: path, atomically: false, encoding: .utf8)) != nil
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
