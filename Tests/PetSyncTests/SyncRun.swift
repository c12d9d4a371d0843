import Foundation

/// The size of a run: fast in `make test`, long under `make reliability` (`PETPROGRESS_RELIABILITY=full`).
enum SyncRun {
    static var isFull: Bool { ProcessInfo.processInfo.environment["PETPROGRESS_RELIABILITY"] == "full" }
}
