import Foundation

/// `petctl watch` read through a pipe by a child process — a small Python reader that stamps each
/// line with its arrival time (so the test can see lines arrive promptly, which a file would hide)
/// and records watch's exit status. Optionally it closes the pipe after `closeAfter` lines.
public final class WatchReader: @unchecked Sendable {
    public let process: Spawned
    public let linesPath: String
    public let errorsPath: String

    public static let script = """
        import subprocess, sys, time
        lines, errors, close_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
        out = open(lines, "w", buffering=1)
        child = subprocess.Popen(sys.argv[4:], stdout=subprocess.PIPE, stderr=open(errors, "w"))
        open(lines + ".pid", "w").write(str(child.pid))
        count = 0
        while True:
            line = child.stdout.readline()
            if not line:
                break
            count += 1
            out.write("%.3f %s" % (time.time(), line.decode()))
            if close_after and count >= close_after:
                child.stdout.close()
                out.write("%.3f closed\\n" % time.time())
                break
        code = child.wait()
        out.write("%.3f exit %d\\n" % (time.time(), code))
        """

    public init(world: World, arguments: [String], closeAfter: Int = 0, label: String = "watch") throws {
        linesPath = world.sandbox.path("\(label).lines")
        errorsPath = world.sandbox.path("\(label).errors")
        process = try world.sandbox.spawn(
            "/usr/bin/python3",
            [
                "-c", Self.script, linesPath, errorsPath, String(closeAfter),
                try productBinary("petctl", override: "PETCTL"),
            ]
                + ["watch"] + arguments,
            environment: world.petctlEnvironment, label: "watch-reader")
    }

    /// Each received line with its arrival time (Unix seconds), then `closed`/`exit N` markers.
    public var lines: [(at: Double, text: String)] {
        let text = (try? String(contentsOfFile: linesPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let space = line.firstIndex(of: " "), let at = Double(line[..<space]) else { return nil }
            return (at, String(line[line.index(after: space)...]))
        }
    }

    /// The records petctl printed (without the reader's markers).
    public var records: [String] { lines.map(\.text).filter { !$0.hasPrefix("exit ") && $0 != "closed" } }

    public var exitStatus: Int32? {
        lines.last.flatMap { $0.text.hasPrefix("exit ") ? Int32($0.text.dropFirst(5)) : nil }
    }

    public var errors: String { (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "" }

    /// petctl's PID, once the reader has started it.
    public var watchPID: pid_t? {
        (try? String(contentsOfFile: linesPath + ".pid", encoding: .utf8)).flatMap { pid_t($0) }
    }

    public func waitForRecords(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await poll(timeout: timeout) { self.records.count >= count }
    }

    public static func now() -> Double { Date().timeIntervalSince1970 }
}
