import LinuxKit

/// Where an import's document is copied before it is read (petprogress(7) §5): an unnamed file of
/// the data directory (LinuxKit `MappedFile.privateCopy`), so that the file the caller passed may
/// be truncated or rewritten while it is read and the daemon reads its own copy (a mapping of the
/// caller's file would fault, `SIGBUS`, on a page past its new end). Holds its own descriptor of
/// the data directory: the import thread uses it while the loop goes on with the store's.
public final class ImportCopier: @unchecked Sendable {
    /// What the copy must leave free on the data directory's file system: the store's own saves
    /// go on meanwhile, and the import stages its history beside the copy.
    public static let keepFree: Int64 = 16 << 20

    private let directory: FileDescriptor

    init(_ directory: FileDescriptor) { self.directory = directory }

    /// `document` (passed by another process, whoever owns it) copied, at most `limit` bytes, and
    /// the copy mapped; the copy's blocks are freed when the mapping goes.
    public func copy(_ document: FileDescriptor, limit: Int) throws(MappedFile.CopyFailure) -> MappedFile {
        try MappedFile.privateCopy(
            of: document, in: directory, limit: limit, owner: .anyone, keepFree: Self.keepFree)
    }
}

extension PetStore {
    /// A copier into the data directory, for one import (`ImportCopier`).
    public func importCopier() throws(StoreError) -> ImportCopier {
        try checkReady()
        return ImportCopier(try io(folder.file.duplicate()))
    }
}
