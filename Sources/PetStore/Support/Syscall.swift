#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one funnel every POSIX call of the store goes through: `-1` plus `errno` becomes a thrown
/// `StoreError` naming the operation and the path, and `EINTR` is retried (a signal arriving
/// mid-call must not turn into a storage failure).
enum Syscall {
    @discardableResult
    static func check(_ operation: String, _ path: String, _ call: () -> Int32) throws(StoreError) -> Int32 {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw StoreError.io(code, operation, path)
        }
    }

    /// The `ssize_t` variant, for read and write.
    static func checkSize(_ operation: String, _ path: String, _ call: () -> Int) throws(StoreError) -> Int {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw StoreError.io(code, operation, path)
        }
    }

    /// `errno` of a call that may fail for an expected reason (ENOENT, EEXIST), without throwing.
    static func attempt(_ call: () -> Int32) -> Int32 {
        while true {
            if call() != -1 { return 0 }
            let code = errno
            if code != EINTR { return code }
        }
    }
}
