import LinuxKit

extension StoreError {
    /// A failed system call as the store's sentence: "Could not <operation> <path>: <why>.".
    init(_ error: SystemCallError) {
        self = .io(error.errno, Self.operations[error.call] ?? error.call, error.subject ?? "")
    }

    /// The store's word for a call, where it is not the call's own name.
    private static let operations = [
        "fstat": "stat", "ftruncate": "truncate", "pread": "read", "unlink": "remove",
        "mkdir": "create the directory", "opendir": "list", "flock": "lock",
    ]
}

/// One LinuxKit file call, its failure becoming the store's error: `try io(file.fsync())`.
func io<Value>(_ body: @autoclosure () throws(SystemCallError) -> Value) throws(StoreError) -> Value {
    do {
        return try body()
    } catch {
        throw StoreError(error)
    }
}
