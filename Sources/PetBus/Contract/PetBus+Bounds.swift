/// The contract's bounds on what crosses the bus: arguments, requests, replies and pages.
extension PetBus {
    /// The longest string argument the daemon reads whole, in bytes (petprogress(7) §6): a title is
    /// at most 200 code points (800 bytes), a time, a day key or an id a few bytes. A longer one
    /// reaches its member cut to this many bytes and one more, and is refused as too long.
    public static let argumentStringLimit = 4096
    /// The largest reply the daemon builds, in bytes: a quarter of the 128 MiB the bus passes.
    public static let replyLimit = 32 << 20
    /// The most a page of history carries, in bytes (`GetHistory`, `ExportStorePart`): a page
    /// stops before it would pass this, so any history is read in replies far below `replyLimit`
    /// (a page of 31 days at the task limit is a few MiB; one day at most about 1 MiB).
    public static let pageBytes = 4 << 20
    /// The largest request the contract allows, in bytes on the wire: `AddTaskFor` with a
    /// 200-code-point title of 4-byte characters (800 bytes), `tomorrow` and every weekday in the
    /// repeat rule, with its header (path, interface, member, destination, signature, and a sender
    /// such as `:1.65535` that the bus adds). `HostileBurstTests` measures it (docs/DECISIONS.md).
    public static let largestRequestBytes = 1068
}
