extension PetBus {
    /// The JSON export's `format` (petprogress(7) §7): written by `petctl export`, checked by `Import`.
    public static let exportFormat = "petprogress-export"
    /// The JSON export's `schema`: 2 added `store`, what a restore reads (petprogress(7) §5).
    public static let exportSchema = 2
    /// The largest document `Import` reads, in bytes: twenty years at the per-day task limit
    /// (about 740 MB as an export: 101 KB a day) with room. The daemon maps it and stages its records as they
    /// are read, so its own memory does not grow with the document (petprogress(7) §5).
    public static let importLimit = 1 << 30
}
