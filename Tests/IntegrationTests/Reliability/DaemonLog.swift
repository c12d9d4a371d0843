/// The daemon's stderr, read by the reliability tests.
enum DaemonLog {
    /// Lines other than the start-up line, the first tick's snapshot of a fresh store and the
    /// shared machine's inotify shortage: a repaired or quarantined store, a failed save, a lost
    /// bus, anything else.
    static func unexpectedLines(_ errors: String) -> [String] {
        errors.split(separator: "\n").map(String.init).filter {
            !$0.hasPrefix("petprogressd: started: data ") && !$0.hasPrefix("petprogressd: tick ")
                && !$0.contains("time-zone changes")
        }
    }
}
