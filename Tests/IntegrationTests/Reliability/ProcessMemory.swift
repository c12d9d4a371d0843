import Foundation

/// A process's memory from `/proc/<pid>/status`, in KiB.
enum ProcessMemory {
    /// `VmRSS`: resident now.
    static func resident(_ pid: pid_t) -> Int? { field("VmRSS", pid) }

    /// `RssAnon`: the resident part that is the process's own memory (heap, stacks), not pages of
    /// its binary or libraries, which the kernel maps in as code first runs.
    static func anonymous(_ pid: pid_t) -> Int? { field("RssAnon", pid) }

    /// `VmHWM`: the peak resident size.
    static func peak(_ pid: pid_t) -> Int? { field("VmHWM", pid) }

    private static func field(_ name: String, _ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }
}
