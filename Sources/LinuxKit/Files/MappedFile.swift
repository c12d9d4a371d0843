import Glibc

/// A regular file mapped read-only (`mmap` of its descriptor, `PROT_READ`, `MAP_PRIVATE`): its
/// bytes without a copy, in pages the kernel reads on demand and may drop again under pressure
/// (file-backed, so the process's anonymous memory does not grow with the file; petprogress(7) §5,
/// import). Checked as `SmallFile` checks: a regular file only, at most a bound, owned by us unless
/// `owner: .anyone`. The descriptor's flags and position are left as they are. Unmapped when the
/// value goes. A read of a page past the file's end faults (`SIGBUS`, which kills the process), so a
/// file another process may truncate meanwhile is mapped through `privateCopy(of:in:limit:)`,
/// never as it is.
public final class MappedFile: @unchecked Sendable {
    /// The mapped bytes (empty for an empty file); valid while the value lives.
    public let bytes: UnsafeRawBufferPointer
    private let length: Int

    private init(_ bytes: UnsafeRawBufferPointer, length: Int) {
        self.bytes = bytes
        self.length = length
    }

    deinit {
        if length > 0, let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), length) }
    }

    /// Maps `file` whole, at most `limit` bytes (refused by its size before anything is mapped):
    /// only a file no other process can truncate while it is mapped.
    public static func map(_ file: FileDescriptor, limit: Int, owner: SmallFile.Owner = .us)
        throws(SmallFile.Failure) -> MappedFile
    {
        let status = try SmallFile.checked(file, limit: limit, owner: owner)
        let size = Int(status.size)
        guard size > 0 else { return MappedFile(UnsafeRawBufferPointer(start: nil, count: 0), length: 0) }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0)
        guard let address, address != MAP_FAILED else {
            throw .system(SystemCallError(call: "mmap", subject: file.path, errno: errno))
        }
        // Read once from start to end: sequential read-ahead, and pages the kernel may reclaim.
        _ = madvise(address, size, MADV_SEQUENTIAL)
        return MappedFile(UnsafeRawBufferPointer(start: address, count: size), length: size)
    }
}
