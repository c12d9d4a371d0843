extension PetBus {
    /// The JSON export's `format` (petprogress(7) §7): written by `petctl export`, checked by `Import`.
    public static let exportFormat = "petprogress-export"
    /// The JSON export's `schema`: 2 added `store`, what a restore reads (petprogress(7) §5).
    public static let exportSchema = 2
    /// The largest document `Import` reads, in bytes: a century of full days is far less.
    public static let importLimit = 64 << 20
}
