extension PetBus {
    /// The longest string argument the daemon reads whole, in bytes (petprogress(7) §6): a title is
    /// at most 200 code points (800 bytes), a time, a day key or an id a few bytes. A longer one
    /// reaches its member cut to this many bytes and one more, and is refused as too long.
    public static let argumentStringLimit = 4096
    /// The largest reply the daemon builds, in bytes: a quarter of the 128 MiB the bus passes.
    public static let replyLimit = 32 << 20
}
