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
}
