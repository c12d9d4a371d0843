import LinuxKit
import PetCore

/// `recovery.json` in the data directory: the last `Recovery`, written atomically (0600).
struct RecoveryFile {
    static let name = "recovery.json"
    static let temporaryName = ".recovery.json.tmp"

    let folder: DataFolder

    /// The recorded recovery; nil when there is none, or the file cannot be read (it only holds a
    /// notice: losing it costs nothing of the pet).
    func read() -> Recovery? {
        guard let bytes = try? folder.readIfPresent(Self.name) else { return nil }
        return try? JSONDocument(bytes).decode(Recovery.self)
    }

    func write(_ recovery: Recovery) throws(StoreError) {
        var json = JSONWriter(capacity: 128)
        json.write(recovery)
        do {
            try AtomicReplace.write(json.bytes, to: Self.name, in: folder.file, through: .named(Self.temporaryName))
        } catch {
            throw StoreError(error.failure)
        }
    }
}
