import LinuxKit

extension SystemCall {
    /// LinuxKit's funnel (`EINTR` retried) with the store's error: a failure becomes a
    /// ``StoreError`` saying which `operation` on which `path` failed and why.
    @discardableResult
    static func run<Result: BinaryInteger>(
        _ operation: String, path: String, _ body: () -> Result
    ) throws(StoreError) -> Result {
        do {
            return try run(operation, subject: path, body)
        } catch {
            throw StoreError.io(error.errno, operation, path)
        }
    }
}
